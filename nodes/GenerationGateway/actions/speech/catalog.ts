import type { CatalogModel } from '../../../shared/catalog';
import { defineCatalog } from '../../../shared/catalog';

/**
 * What POST /v1/audio/speech accepts, as data: the catalogued models (with the
 * voice version suffix each requires), the output formats with their media
 * types, and the sample rates. The form, the schema (body.ts) and
 * the output step all read these tables.
 */

export interface SpeechModel extends CatalogModel {
	family: 'audioF';
	/** A voice for this model must end with this suffix (interface: voice rules). */
	voiceSuffix: string;
	/**
	 * The voice a new node opens with. The interface lists no voice names, only
	 * the suffix; this is the voice the package's examples and documentation
	 * use, with the model's suffix.
	 */
	defaultVoice: string;
}

export const speechCatalog = defineCatalog<SpeechModel>(
	[
		{
			id: 'vendor/audioF-3.1-tts-flash',
			name: 'audioF 3.1 TTS Flash',
			family: 'audioF',
			voiceSuffix: '_v3.1',
			defaultVoice: 'narrator_v3.1',
			description: 'Voices end in _v3.1',
		},
	],
	'searchSpeechModels',
);

export const SPEECH_FORMAT_VALUES = ['mp3', 'pcm', 'wav', 'opus'] as const;
export type SpeechFormat = (typeof SPEECH_FORMAT_VALUES)[number];

/** The interface's default output format. */
export const DEFAULT_SPEECH_FORMAT: SpeechFormat = 'mp3';

export interface SpeechFormatInfo {
	label: string;
	/**
	 * The file's media type. The interface does not list the response's media
	 * types, so these are the usual ones: OpenAI's opus is Ogg-encapsulated,
	 * and raw PCM is `audio/pcm` (not `audio/L16`, which means big-endian).
	 */
	mimeType: string;
	extension: string;
	/** Sample rates the format cannot use (interface: `opus` refuses 22050 and 44100). */
	refusedSampleRates: readonly number[];
	/** True when the bytes carry no header, so the JSON must say how to play them. */
	headerless: boolean;
}

export const SPEECH_FORMATS: Record<SpeechFormat, SpeechFormatInfo> = {
	mp3: { label: 'MP3', mimeType: 'audio/mpeg', extension: 'mp3', refusedSampleRates: [], headerless: false },
	pcm: {
		label: 'PCM (Raw 16-Bit Samples)',
		mimeType: 'audio/pcm',
		extension: 'pcm',
		refusedSampleRates: [],
		headerless: true,
	},
	wav: { label: 'WAV', mimeType: 'audio/wav', extension: 'wav', refusedSampleRates: [], headerless: false },
	opus: {
		label: 'Opus (Ogg)',
		mimeType: 'audio/ogg',
		extension: 'opus',
		refusedSampleRates: [22050, 44100],
		headerless: false,
	},
};

/** The sample-rate enum of the interface, in Hz. */
export const SPEECH_SAMPLE_RATES = [8000, 12000, 16000, 22050, 24000, 44100, 48000] as const;

/**
 * The rate the form sends unless changed. The interface gives no default, and
 * raw PCM is unplayable without knowing its rate, so the node always sends one
 * (24 kHz, OpenAI's PCM rate) and reports it with the file.
 */
export const DEFAULT_SAMPLE_RATE = 24000;

/**
 * PCM sample layout reported in the JSON. The interface does not state it;
 * this is OpenAI's PCM layout (signed 16-bit little-endian, mono).
 */
export const PCM_LAYOUT = { sampleFormat: 's16le', channels: 1 } as const;

export const SPEECH_STREAM_FORMATS = ['audio', 'sse'] as const;
export type SpeechStreamFormat = (typeof SPEECH_STREAM_FORMATS)[number];

/** Interface limits. */
export const SPEECH_LIMITS = {
	maxInputChars: 4096,
	maxInstructionsChars: 4096,
	speed: { min: 0.5, max: 2 },
	rate: { min: 0.5, max: 2 },
	seed: { min: 0, max: 65535 },
	volume: { min: 0, max: 100 },
} as const;
