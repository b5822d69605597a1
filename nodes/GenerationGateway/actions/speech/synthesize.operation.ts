import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readWholeWav } from './audioFile';
import type { SpeechFormat, SpeechStreamFormat } from './catalog';
import { PCM_LAYOUT, speechCatalog } from './catalog';
import type { SpeechFormValues } from './body';
import { buildSpeechBody, mergeAdditionalSpeechBody, otherNumericProblem } from './body';
import { SPEECH_LABELS, effectiveSpeechOutput, speechBodySchema } from './schema';
import type { SpeechUsage } from './stream';
import { readSpeechStream } from './stream';
import { headerValue } from '../../../shared/errors';
import { gatewayRequest } from '../../../shared/transport';
import { readModelForm } from '../../../shared/modelFields';
import { assertValid, refusal } from '../../../shared/validation';
import { readAdditionalBody, readRequestSettings } from '../descriptions';
import type { OperationModule } from '../types';
import { synthesizeFields } from './fields';

/** One item -> one audio file; in `sse` mode the pieces are joined into the bytes `audio` mode returns. */

const PATH = '/v1/audio/speech';

/** Read through the shared mechanism although every field fits every model today. */
const SPEECH_FORM = { properties: synthesizeFields, catalog: speechCatalog };

function readForm(ctx: IExecuteFunctions, itemIndex: number): SpeechFormValues {
	const model = ctx.getNodeParameter('model', itemIndex, '', { extractValue: true }) as string;
	const form = readModelForm(ctx, itemIndex, SPEECH_FORM, String(model ?? ''));
	const options = form.collection('options');
	const members = ((options.otherNumeric as IDataObject | undefined)?.member ?? []) as IDataObject[];
	const otherNumeric = members.map((member) => ({
		name: String(member.name ?? '').trim(),
		value: member.value as number,
	}));
	for (const { name, value } of otherNumeric) {
		const problem = otherNumericProblem(name, value);
		if (problem) throw refusal(ctx.getNode(), 'Options → Other Numeric Members', problem, itemIndex);
	}
	const optional = <T>(name: string) => options[name] as T | undefined;
	return {
		model,
		input: ctx.getNodeParameter('input', itemIndex, '') as string,
		voice: String(ctx.getNodeParameter('voice', itemIndex, '')),
		voiceAs: optional<'name' | 'object'>('voiceAs') ?? 'name',
		responseFormat: ctx.getNodeParameter('responseFormat', itemIndex) as SpeechFormat,
		streamFormat: ctx.getNodeParameter('streamFormat', itemIndex) as SpeechStreamFormat,
		sampleRate: ctx.getNodeParameter('sampleRate', itemIndex) as number,
		instructions: optional<string>('instructions'),
		speed: optional<number>('speed'),
		nativeRate: optional<number>('nativeRate'),
		nativeInstruction: optional<string>('nativeInstruction'),
		seed: optional<number>('seed'),
		nativeStreaming: optional<boolean>('nativeStreaming'),
		volume: optional<number>('volume'),
		otherNumeric,
	};
}

async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const values = readForm(this, itemIndex);
	const body = mergeAdditionalSpeechBody(buildSpeechBody(values), readAdditionalBody(this, itemIndex));
	assertValid(node, speechBodySchema, body, SPEECH_LABELS, itemIndex);
	const output = effectiveSpeechOutput(body);
	const { timeoutMs } = readRequestSettings(this, itemIndex);
	const sse = output.streamFormat === 'sse';
	const response = await gatewayRequest<AsyncIterable<Uint8Array> | Buffer>(this, {
		method: 'POST',
		path: PATH,
		body,
		kind: 'create',
		responseType: sse ? 'stream' : 'buffer',
		headers: sse ? { Accept: 'text/event-stream' } : undefined,
		timeoutMs,
		itemIndex,
	});
	const contentType = (headerValue(response.headers, 'content-type') ?? '').toLowerCase();
	let audio: Buffer;
	let usage: SpeechUsage | undefined;
	if (sse) {
		if (contentType && !contentType.startsWith('text/event-stream')) {
			throw new NodeOperationError(
				node,
				`The gateway answered with ${contentType} instead of an event stream`,
				{
					itemIndex,
					description:
						'Stream Format is "Server-Sent Events". Try "Audio Bytes" if the gateway does not stream.',
				},
			);
		}
		const events = response.body as AsyncIterable<Uint8Array>;
		({ audio, usage } = await readSpeechStream(events, { node, itemIndex, timeoutMs }));
	} else {
		if (/^(application\/json|text\/)/.test(contentType)) {
			// A 200 that carries text is not audio; say what came instead of saving it as a file.
			throw new NodeOperationError(node, `The gateway answered with ${contentType} instead of audio`, {
				itemIndex,
				description: (response.body as Buffer).toString('utf8').slice(0, 500),
			});
		}
		audio = response.body as Buffer;
	}

	if (audio.length === 0) {
		throw new NodeOperationError(node, 'The gateway returned no audio bytes', { itemIndex });
	}
	const json: IDataObject = {
		model: body.model,
		format: output.format,
		streamFormat: output.streamFormat,
		mimeType: output.info.mimeType,
		fileSize: audio.length,
	};
	if (output.format === 'wav') {
		const wav = readWholeWav(audio);
		if ('problem' in wav) {
			throw new NodeOperationError(node, `The WAV audio is not a whole file: ${wav.problem}`, {
				itemIndex,
				description: 'Nothing was saved. Try again, or choose another output format.',
			});
		}
		const { sampleRate, channels, bitsPerSample, dataBytes } = wav.info;
		const seconds = dataBytes / (sampleRate * channels * (bitsPerSample / 8));
		Object.assign(json, { sampleRate, channels, durationSeconds: Math.round(seconds * 1000) / 1000 });
	} else if (output.info.headerless) {
		// Raw PCM has no header: the JSON is the only place that says how to play it.
		json.sampleRate = output.sampleRate;
		json.sampleFormat = PCM_LAYOUT.sampleFormat;
		json.channels = PCM_LAYOUT.channels;
	} else if (output.sampleRate !== undefined) {
		json.sampleRate = output.sampleRate;
	}
	if (usage) json.usage = { ...usage };

	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const property = String(options.binaryPropertyName ?? 'data').trim() || 'data';
	const fileName = `speech.${output.info.extension}`;
	const binary = await this.helpers.prepareBinaryData(audio, fileName, output.info.mimeType);
	json.fileName = fileName;
	return [{ json, binary: { [property]: binary } }];
}

export const synthesize: OperationModule = {
	description: synthesizeFields,
	createsPaidWork: true,
	execute,
};
