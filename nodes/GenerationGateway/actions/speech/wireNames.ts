/**
 * Wire names the interface does not give for speech: OpenAI speech's and the plainest
 * native ones (docs/assumed-field-names.md). The extension members travel inside
 * `extra_body`, so a same-named top-level member from Additional Body Fields (JSON)
 * still wins over the form.
 */

export const SPEECH_RESPONSE_FORMAT = 'response_format';

export const SPEECH_EXTRA_BODY = 'extra_body';

export const SPEECH_SAMPLE_RATE = 'sample_rate';

export const SPEECH_SEED = 'seed';

/** Native streaming generation; it does not decide the response shape (`stream_format` does). */
export const SPEECH_NATIVE_STREAM = 'stream';

/** The integer 0-100 member: the only 0-100 control native speech APIs commonly have. */
export const SPEECH_VOLUME = 'volume';

/** `speed` wins when both are sent. */
export const SPEECH_NATIVE_RATE = 'rate';

/** `instructions` wins when both are sent. */
export const SPEECH_NATIVE_INSTRUCTION = 'instruction';

export const SPEECH_EXTENSION_MEMBERS = [
	SPEECH_SAMPLE_RATE,
	SPEECH_NATIVE_RATE,
	SPEECH_SEED,
	SPEECH_NATIVE_INSTRUCTION,
	SPEECH_NATIVE_STREAM,
	SPEECH_VOLUME,
] as const;
