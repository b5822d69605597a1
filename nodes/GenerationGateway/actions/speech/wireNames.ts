/**
 * Assumed wire names of the speech resource (see index.ts). The interface
 * gives `model`, `input`, `voice`, `instructions`, `speed`, `stream_format`,
 * `extra_body` and the native `rate` and `instruction`; every other member is
 * described without its property name. These follow OpenAI's speech API
 * (`response_format`) and the plainest names a native speech API uses.
 *
 * Where they travel: the output format is an OpenAI speech member, so it
 * stands at the top level. The extension members (everything in
 * SPEECH_EXTENSION_MEMBERS) travel inside `extra_body`, which the interface
 * defines for exactly them: the top level stays the OpenAI-shaped request, and
 * because "a same-named top-level member wins", a member typed into
 * "Additional Body Fields (JSON)" (merged at the top level) still overrides
 * the form's value without touching `extra_body`.
 */

/** Output format (`mp3`, `pcm`, `wav`, `opus`): OpenAI speech's `response_format`. */
export const SPEECH_RESPONSE_FORMAT = 'response_format';

/** The object holding the audio extension members: named by the interface. */
export const SPEECH_EXTRA_BODY = 'extra_body';

/** Sample rate in Hz (8000 ... 48000): the name OpenAI-compatible TTS servers and most native APIs use. */
export const SPEECH_SAMPLE_RATE = 'sample_rate';

/** Native seed (integer 0-65535): `seed`, as the gateway's other generation requests name theirs. */
export const SPEECH_SEED = 'seed';

/**
 * Flag requiring native streaming generation: `stream`, the usual native name;
 * the interface notes that it does not decide the response shape
 * (`stream_format` does), which is what a member called `stream` would suggest.
 */
export const SPEECH_NATIVE_STREAM = 'stream';

/** The integer 0-100 member: `volume`, the only 0-100 control native speech APIs commonly have. */
export const SPEECH_VOLUME = 'volume';

/** Native speaking rate (0.5-2): named by the interface; `speed` wins when both are sent. */
export const SPEECH_NATIVE_RATE = 'rate';

/** Native style instruction: named by the interface; `instructions` wins when both are sent. */
export const SPEECH_NATIVE_INSTRUCTION = 'instruction';

/** Members that travel in `extra_body` when set from the form (the "other numeric members" too). */
export const SPEECH_EXTENSION_MEMBERS = [
	SPEECH_SAMPLE_RATE,
	SPEECH_NATIVE_RATE,
	SPEECH_SEED,
	SPEECH_NATIVE_INSTRUCTION,
	SPEECH_NATIVE_STREAM,
	SPEECH_VOLUME,
] as const;
