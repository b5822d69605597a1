import type { INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_SAMPLE_RATE,
	DEFAULT_SPEECH_FORMAT,
	SPEECH_FORMAT_VALUES,
	SPEECH_FORMATS,
	SPEECH_LIMITS,
	SPEECH_SAMPLE_RATES,
	speechCatalog,
} from './catalog';
import { additionalBodyField, modelListField, optionsCollection, scoped } from '../descriptions';
import { field } from '../formFields';

/** The form of Speech → Synthesize; body.ts maps its names to the wire names. */

const firstModel = speechCatalog.models[0].id;
/** A new node's model is the first catalogued one; its Voice opens with that model's default voice. */
const firstVoice = speechCatalog.models[0].defaultVoice;

const voiceNotices: INodeProperties[] = speechCatalog.models.map((model) => ({
	displayName: `Voices for ${model.name} end in "${model.voiceSuffix}" (for example ${model.defaultVoice}); another suffix is refused before sending`,
	name: `voiceNotice_${model.id.replace(/[^A-Za-z0-9]/g, '_')}`,
	type: 'notice',
	default: '',
	displayOptions: speechCatalog.displayFor((m) => m.id === model.id),
}));

const properties: INodeProperties[] = [
	modelListField(
		speechCatalog.searchListMethod,
		firstModel,
		'The speech model. "By ID" accepts any model ID or alias the gateway knows; an ID this node does not know is sent as typed.',
	),
	...voiceNotices,
	field('Text', 'input', 'string', {
		typeOptions: { rows: 4 },
		default: '',
		required: true,
		description: `The text to read, at most ${SPEECH_LIMITS.maxInputChars} characters`,
	}),
	field('Voice', 'voice', 'string', {
		default: firstVoice,
		required: true,
		placeholder: `e.g. ${firstVoice}`,
		description:
			"The voice name. Its version suffix must match the model's. Options → Send Voice As can wrap it as an object with an ID.",
	}),
	field('Output Format', 'responseFormat', 'options', {
		default: DEFAULT_SPEECH_FORMAT,
		options: SPEECH_FORMAT_VALUES.map((value) => ({
			name: SPEECH_FORMATS[value].label,
			value,
			description: `File .${SPEECH_FORMATS[value].extension}, ${SPEECH_FORMATS[value].mimeType}`,
		})),
		description: 'The audio format of the output file',
	}),
	field('Stream Format', 'streamFormat', 'options', {
		default: 'audio',
		options: [
			{ name: 'Audio Bytes', value: 'audio', description: 'The gateway answers with the audio file' },
			{
				name: 'Server-Sent Events',
				value: 'sse',
				description:
					'The gateway streams the audio in pieces; the node joins them into the same file and adds the token usage',
			},
		],
		description: 'How the gateway delivers the audio. Both give one identical audio file.',
	}),
	field('Sample Rate', 'sampleRate', 'options', {
		default: DEFAULT_SAMPLE_RATE,
		options: SPEECH_SAMPLE_RATES.map((rate) => ({ name: `${rate} Hz`, value: rate })),
		description:
			'Samples per second of the audio. Opus cannot use 22050 or 44100. Always sent, so that raw PCM output can say its rate.',
	}),
	optionsCollection([
		field('Instructions', 'instructions', 'string', {
			typeOptions: { rows: 2 },
			default: '',
			description: `Style instruction (tone, pace, accent), at most ${SPEECH_LIMITS.maxInstructionsChars} characters. Wins over Native Instruction when both are set.`,
		}),
		field('Native Instruction', 'nativeInstruction', 'string', {
			default: '',
			description: "The model's native style instruction. Instructions wins when both are set.",
		}),
		field('Native Rate', 'nativeRate', 'number', {
			typeOptions: { minValue: 0.5, maxValue: 2, numberPrecision: 2 },
			default: 1,
			description: "The model's native speaking rate, 0.5 to 2. Speed wins when both are set.",
		}),
		field('Native Streaming Generation', 'nativeStreaming', 'boolean', {
			default: false,
			description:
				'Whether the model must generate in its native streaming mode. Stream Format still decides what the gateway returns.',
		}),
		field('Other Numeric Members', 'otherNumeric', 'fixedCollection', {
			typeOptions: { multipleValues: true },
			default: {},
			description:
				'Further numeric native members by name (the interface does not list them); sent in extra_body',
			options: [
				{
					displayName: 'Member',
					name: 'member',
					values: [
						field('Name', 'name', 'string', { default: '' }),
						field('Value', 'value', 'number', { default: 0 }),
					],
				},
			],
		}),
		field('Put Output File in Field', 'binaryPropertyName', 'string', {
			default: 'data',
			description: 'The binary field the audio file is written to',
		}),
		field('Seed', 'seed', 'number', {
			typeOptions: { minValue: 0, maxValue: 65535 },
			default: 0,
			description: 'Native seed, a whole number from 0 to 65535; the same seed repeats the same reading',
		}),
		field('Send Voice As', 'voiceAs', 'options', {
			default: 'name',
			options: [
				{ name: 'Name', value: 'name', description: 'Sends the voice as text' },
				{
					name: 'Object With ID',
					value: 'object',
					description: 'Sends the voice as an object: its identifier member holds the name',
				},
			],
		}),
		field('Speed', 'speed', 'number', {
			typeOptions: { minValue: 0.5, maxValue: 2, numberPrecision: 2 },
			default: 1,
			description: 'Speaking speed, 0.5 to 2 (1 is normal). Wins over Native Rate when both are set.',
		}),
		field('Volume', 'volume', 'number', {
			typeOptions: { minValue: 0, maxValue: 100 },
			default: 50,
			description: 'Native volume, a whole number from 0 to 100',
		}),
	]),
	additionalBodyField,
];

export const synthesizeFields = scoped('speech', 'synthesize', properties);
