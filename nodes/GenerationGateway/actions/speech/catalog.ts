import type { CatalogModel } from '../../../shared/catalog';
import { defineCatalog } from '../../../shared/catalog';

/** What POST /v1/audio/speech accepts, as data: the form, the schema and the output read it. */

interface SpeechModel extends CatalogModel {
	family: 'audioF';
	voiceSuffix: string;
	/** The interface lists no voice names: this is the one the examples use. */
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

export const DEFAULT_SPEECH_FORMAT: SpeechFormat = 'mp3';

export interface SpeechFormatInfo {
	label: string;
	/** Not listed by the interface; raw PCM is `audio/pcm`, since `audio/L16` means big-endian. */
	mimeType: string;
	extension: string;
	refusedSampleRates: readonly number[];
	/** The JSON must then say how to play the bytes. */
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

export const SPEECH_SAMPLE_RATES = [8000, 12000, 16000, 22050, 24000, 44100, 48000] as const;

/** Always sent (OpenAI's PCM rate): raw PCM is unplayable without knowing its rate. */
export const DEFAULT_SAMPLE_RATE = 24000;

/** OpenAI's PCM layout: the interface does not state one. */
export const PCM_LAYOUT = { sampleFormat: 's16le', channels: 1 } as const;

export const SPEECH_STREAM_FORMATS = ['audio', 'sse'] as const;
export type SpeechStreamFormat = (typeof SPEECH_STREAM_FORMATS)[number];

export const SPEECH_LIMITS = {
	maxInputChars: 4096,
	maxInstructionsChars: 4096,
	speed: { min: 0.5, max: 2 },
	rate: { min: 0.5, max: 2 },
	seed: { min: 0, max: 65535 },
	volume: { min: 0, max: 100 },
} as const;
