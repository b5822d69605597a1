import { invalid } from '../http';

/**
 * A deterministic "model" for POST /v1/responses. The reply names the files it
 * received (decoding each data URL and base64 payload, so a broken one is
 * refused) and repeats the first sentence of the last user text. Test
 * affordances: `max_output_tokens` below the reply's word count gives an
 * `incomplete` response; the model ID `resp-fail` gives a `failed` one;
 * `background: true` answers `queued`.
 */

type Json = Record<string, unknown>;

const words = (text: string) => text.split(/\s+/).filter(Boolean);

function describeFile(block: Json, where: string): string | undefined {
	const dataUrl = (value: unknown, param: string) => {
		const match = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(String(value));
		if (!match) invalid(param, `${param}: must be a base64 data URL`);
		return { mime: match[1], bytes: Buffer.from(match[2], 'base64').length };
	};
	if (
		block.type === 'input_image' &&
		typeof block.image_url === 'string' &&
		block.image_url.startsWith('data:')
	) {
		const { mime, bytes } = dataUrl(block.image_url, `${where}.image_url`);
		if (!mime.startsWith('image/')) invalid(`${where}.image_url`, `${where}.image_url: not an image`);
		return `image ${mime} (${bytes} bytes)`;
	}
	if (block.type === 'input_audio') {
		const audio = block.input_audio as Json | undefined;
		if (typeof audio?.data !== 'string' || typeof audio.format !== 'string') {
			invalid(`${where}.input_audio`, `${where}.input_audio: needs data and format`);
		}
		return `audio ${audio.format} (${Buffer.from(audio.data, 'base64').length} bytes)`;
	}
	if (block.type === 'input_file' && typeof block.file_data === 'string') {
		const { mime, bytes } = dataUrl(block.file_data, `${where}.file_data`);
		return `file ${String(block.filename)} ${mime} (${bytes} bytes)`;
	}
	return undefined;
}

function readInput(input: unknown): { text: string; files: string[] } {
	if (typeof input === 'string') return { text: input, files: [] };
	const files: string[] = [];
	let text = '';
	((input as Json[] | undefined) ?? []).forEach((item, n) => {
		if (typeof item.content === 'string') {
			if (item.role === 'user') text = item.content;
			return;
		}
		((item.content as Json[] | undefined) ?? []).forEach((block, m) => {
			if (block.type === 'input_text' && item.role === 'user') text = String(block.text);
			const file = describeFile(block, `input.${n}.content.${m}`);
			if (file) files.push(file);
		});
	});
	return { text, files };
}

const ECHOED = [
	'instructions',
	'previous_response_id',
	'max_output_tokens',
	'max_tool_calls',
	'metadata',
	'parallel_tool_calls',
	'temperature',
	'top_p',
	'top_logprobs',
	'tools',
	'tool_choice',
	'truncation',
	'text',
	'reasoning',
	'service_tier',
	'background',
	'store',
	'safety_identifier',
	'prompt_cache_key',
	'prompt_cache_retention',
	'frequency_penalty',
	'presence_penalty',
];

export function generateResponse(body: Json, id: string, now: number): Json {
	const { text, files } = readInput(body.input);
	const sentence = text.trim().split(/(?<=[.!?])\s/)[0] ?? '';
	let reply =
		[files.length ? `Received ${files.join(', ')}.` : '', sentence].filter(Boolean).join(' ') || 'Hello.';
	let status = 'completed';
	let incomplete: Json | null = null;
	let error: Json | null = null;
	const max = body.max_output_tokens as number | undefined;
	if (max !== undefined && words(reply).length > max) {
		reply = words(reply).slice(0, max).join(' ');
		status = 'incomplete';
		incomplete = { reason: 'max_output_tokens' };
	}
	if (body.model === 'resp-fail') {
		status = 'failed';
		error = { code: 'server_error', message: 'The upstream model failed' };
	}
	const output: Json[] = [];
	const reasoning = body.reasoning as Json | undefined;
	if (reasoning?.summary) {
		output.push({
			id: `rs_${id.slice(5)}`,
			type: 'reasoning',
			summary: [{ type: 'summary_text', text: 'Read the input.' }],
		});
	}
	if (status !== 'failed') {
		output.push({
			id: `msg_${id.slice(5)}`,
			type: 'message',
			role: 'assistant',
			status: status === 'completed' ? 'completed' : 'incomplete',
			content: [{ type: 'output_text', text: reply, annotations: [], logprobs: [] }],
		});
	}
	const background = body.background === true;
	const inputTokens = words(`${String(body.instructions ?? '')} ${text}`).length + files.length * 85;
	const outputTokens = status === 'failed' ? 0 : words(reply).length;
	const response: Json = {
		id,
		object: 'response',
		created_at: Math.floor(now / 1000),
		model: body.model,
		status: background ? 'queued' : status,
		output: background ? [] : output,
		output_text: background || status === 'failed' ? '' : reply,
		usage: background
			? null
			: {
					input_tokens: inputTokens,
					input_tokens_details: { cached_tokens: 0 },
					output_tokens: outputTokens,
					output_tokens_details: { reasoning_tokens: reasoning ? 3 : 0 },
					total_tokens: inputTokens + outputTokens,
				},
		error: background ? null : error,
		incomplete_details: background ? null : incomplete,
	};
	if (response.status === 'completed') response.completed_at = Math.floor(now / 1000);
	for (const name of ECHOED) response[name] = body[name] ?? null;
	response.conversation = body.conversation ?? null;
	return response;
}

/** The OpenAI Responses event sequence for a finished response. */
export function responseEvents(response: Json): Array<{ event: string; data: Json }> {
	const events: Json[] = [];
	const shell: Json = {
		...response,
		status: 'in_progress',
		output: [],
		output_text: '',
		usage: null,
		error: null,
		incomplete_details: null,
	};
	delete shell.completed_at;
	events.push(
		{ type: 'response.created', response: shell },
		{ type: 'response.in_progress', response: shell },
	);
	(response.output as Json[]).forEach((item, output_index) => {
		if (item.type === 'reasoning') {
			events.push({ type: 'response.output_item.added', output_index, item: { ...item, summary: [] } });
			(item.summary as Json[]).forEach((part, summary_index) => {
				events.push({
					type: 'response.reasoning_summary_part.added',
					output_index,
					item_id: item.id,
					summary_index,
					part: { ...part, text: '' },
				});
				events.push({
					type: 'response.reasoning_summary_text.delta',
					output_index,
					item_id: item.id,
					summary_index,
					delta: part.text,
				});
				events.push({
					type: 'response.reasoning_summary_text.done',
					output_index,
					item_id: item.id,
					summary_index,
					text: part.text,
				});
			});
		} else {
			events.push({
				type: 'response.output_item.added',
				output_index,
				item: { ...item, status: 'in_progress', content: [] },
			});
			(item.content as Json[]).forEach((part, content_index) => {
				const ids = { output_index, item_id: item.id, content_index };
				events.push({ type: 'response.content_part.added', ...ids, part: { ...part, text: '' } });
				for (const delta of String(part.text).match(/[\s\S]{1,6}/g) ?? []) {
					events.push({ type: 'response.output_text.delta', ...ids, delta, logprobs: [] });
				}
				events.push({ type: 'response.output_text.done', ...ids, text: part.text, logprobs: [] });
				events.push({ type: 'response.content_part.done', ...ids, part });
			});
		}
		events.push({ type: 'response.output_item.done', output_index, item });
	});
	const terminal =
		response.status === 'failed'
			? 'response.failed'
			: response.status === 'incomplete'
				? 'response.incomplete'
				: 'response.completed';
	events.push({ type: terminal, response });
	return events.map((data, sequence_number) => ({
		event: String(data.type),
		data: { ...data, sequence_number },
	}));
}
