import { createHash } from 'node:crypto';

import { RequestInvalid } from '../http';

/**
 * A deterministic "model" for POST /v1/messages: the reply is the first
 * sentence of the last user turn, so tests can predict it. Thinking blocks it
 * issues carry a signature derived from their text; a thinking block sent back
 * with another signature is "unmatched" and handled by the request's
 * `thinking.unmatched_blocks` setting (`error` -> HTTP 400, `drop_block` or
 * unset -> dropped and reported in `input_transformations`).
 */

type Json = Record<string, unknown>;

export function signatureFor(thinking: string): string {
	return `sig_${createHash('sha256').update(thinking).digest('base64')}`;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

function textOf(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return (content as Json[])
		.filter((block) => block.type === 'text')
		.map((block) => String(block.text ?? ''))
		.join(' ');
}

/** Drops (or refuses) thinking blocks whose signature this simulator did not issue. */
function checkThinkingBlocks(body: Json): Json[] {
	const setting = (body.thinking as Json | null | undefined)?.unmatched_blocks;
	const transformations: Json[] = [];
	(body.messages as Json[]).forEach((turn, n) => {
		if (!Array.isArray(turn.content)) return;
		turn.content = (turn.content as Json[]).filter((block, m) => {
			if (block.type !== 'thinking') return true;
			if (block.signature === signatureFor(String(block.thinking ?? ''))) return true;
			const path = `messages.${n}.content.${m}`;
			if (setting === 'error') {
				throw new RequestInvalid(
					path,
					`${path}: thinking block signature does not match any block this service issued`,
					'unmatched_thinking_block',
				);
			}
			transformations.push({ path, reason: 'unmatched_signature', type: 'thinking_block_dropped' });
			return false;
		});
	});
	return transformations;
}

export function generateMessage(body: Json, id: string): Json {
	const transformations = checkThinkingBlocks(body);
	const turns = body.messages as Json[];
	const lastUser = [...turns].reverse().find((turn) => turn.role === 'user');
	const source = textOf(lastUser?.content).trim();
	let reply = source.split(/(?<=[.!?])\s/)[0] || 'Hello.';
	const maxTokens = body.max_tokens as number;
	const thinking = body.thinking as Json | null | undefined;
	const content: Json[] = [];
	let stopReason = 'end_turn';
	let stopSequence: string | null = null;

	if (maxTokens > 0 && (thinking?.type === 'enabled' || thinking?.type === 'adaptive')) {
		const thought = `The user wrote ${words(source).length} words.`;
		content.push({
			type: 'thinking',
			thinking: thinking.display === 'omitted' ? '' : thought,
			signature: signatureFor(thinking.display === 'omitted' ? '' : thought),
		});
	}
	const choice = body.tool_choice as Json | undefined;
	const tools = (body.tools as Json[] | undefined) ?? [];
	if (maxTokens > 0 && tools.length && (choice?.type === 'any' || choice?.type === 'tool')) {
		const name = choice.type === 'tool' ? String(choice.name) : String(tools[0].name);
		content.push({
			type: 'tool_use',
			id: `toolu_${createHash('sha256')
				.update(name + reply)
				.digest('hex')
				.slice(0, 20)}`,
			name,
			input: { query: reply },
		});
		stopReason = 'tool_use';
	} else if (maxTokens === 0) {
		stopReason = 'max_tokens';
	} else {
		for (const sequence of (body.stop_sequences as string[] | undefined) ?? []) {
			const at = reply.indexOf(sequence);
			if (at >= 0) {
				reply = reply.slice(0, at);
				stopReason = 'stop_sequence';
				stopSequence = sequence;
				break;
			}
		}
		const replyWords = words(reply);
		if (replyWords.length > maxTokens) {
			reply = replyWords.slice(0, maxTokens).join(' ');
			stopReason = 'max_tokens';
		}
		content.push({ type: 'text', text: reply });
	}
	const inputTokens = words(
		`${String(body.system ?? '')} ${turns.map((t) => textOf(t.content)).join(' ')}`,
	).length;
	const message: Json = {
		id,
		type: 'message',
		role: 'assistant',
		model: body.model,
		content,
		stop_reason: stopReason,
		stop_sequence: stopSequence,
		usage: {
			input_tokens: inputTokens,
			output_tokens: content.reduce(
				(sum, block) => sum + words(String(block.text ?? block.thinking ?? '')).length,
				0,
			),
			cache_creation_input_tokens: maxTokens === 0 ? inputTokens : 0,
			cache_read_input_tokens: 0,
			service_tier: 'standard',
			speed: body.speed ?? 'standard',
			inference_geo: body.inference_geo ?? 'global',
		},
	};
	if (transformations.length) message.input_transformations = transformations;
	if (body.diagnostics) message.diagnostics = { cache_miss_reason: null };
	return message;
}

/** The Anthropic Messages event sequence for a message, with text split into small deltas. */
export function messageEvents(message: Json): Array<{ event: string; data: Json }> {
	const event = (data: Json) => ({ event: String(data.type), data });
	const usage = message.usage as Json;
	const out = [
		event({
			type: 'message_start',
			message: {
				...message,
				content: [],
				stop_reason: null,
				stop_sequence: null,
				usage: { ...usage, output_tokens: 1 },
			},
		}),
		event({ type: 'ping' }),
	];
	const pieces = (text: string) => text.match(/[\s\S]{1,7}/g) ?? [];
	(message.content as Json[]).forEach((block, index) => {
		if (block.type === 'thinking') {
			out.push(
				event({
					type: 'content_block_start',
					index,
					content_block: { type: 'thinking', thinking: '', signature: '' },
				}),
			);
			for (const piece of pieces(String(block.thinking)))
				out.push(
					event({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } }),
				);
			out.push(
				event({
					type: 'content_block_delta',
					index,
					delta: { type: 'signature_delta', signature: block.signature },
				}),
			);
		} else if (block.type === 'tool_use') {
			out.push(event({ type: 'content_block_start', index, content_block: { ...block, input: {} } }));
			for (const piece of pieces(JSON.stringify(block.input)))
				out.push(
					event({
						type: 'content_block_delta',
						index,
						delta: { type: 'input_json_delta', partial_json: piece },
					}),
				);
		} else {
			out.push(event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
			for (const piece of pieces(String(block.text)))
				out.push(event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
		}
		out.push(event({ type: 'content_block_stop', index }));
	});
	out.push(
		event({
			type: 'message_delta',
			delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
			usage: { output_tokens: usage.output_tokens },
		}),
	);
	out.push(event({ type: 'message_stop' }));
	return out;
}
