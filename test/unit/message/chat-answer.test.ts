/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Streaming into n8n's chat, piece by piece: the Message assembler passes on
 * text deltas only, and ChatAnswer (nodes/shared/sse.ts) sends n8n's chunks in
 * order, begin/item…/end, an error chunk only where n8n's engine will not send
 * one, and nothing at all when the execution does not stream, the node runs as
 * a tool, or n8n has no `isStreaming`.
 */
import type { ChunkType } from 'n8n-workflow';

import { MessageStreamAssembler } from '../../../nodes/GenerationGateway/actions/message/stream';
import { ChatAnswer, chatAnswer } from '../../../nodes/shared/sse';
import { useVirtualTime } from '../../harness/virtual-time';

// A slow chunk hook is a timer: on virtual time it delays without waiting.
useVirtualTime();

type Sent = Array<[ChunkType, number, unknown]>;

function context(
	streaming: boolean | undefined,
	options: { continueOnFail?: boolean; async?: boolean } = {},
) {
	const sent: Sent = [];
	const ctx = {
		continueOnFail: () => options.continueOnFail === true,
		...(streaming === undefined
			? {}
			: {
					isStreaming: () => streaming,
					sendChunk(type: ChunkType, itemIndex: number, content?: unknown) {
						// n8n's sendChunk is async: a slow hook must not reorder the chunks.
						if (options.async) {
							return new Promise<void>((resolve) =>
								setTimeout(
									() => {
										sent.push([type, itemIndex, content]);
										resolve();
									},
									type === 'item' ? 5 : 0,
								),
							);
						}
						sent.push([type, itemIndex, content]);
						return undefined;
					},
				}),
	};
	return { ctx, sent };
}

describe('MessageStreamAssembler onText', () => {
	it('passes on text deltas only, as they are applied', () => {
		const pieces: string[] = [];
		const assembler = new MessageStreamAssembler((text) => pieces.push(text));
		const apply = (data: Record<string, unknown>) => assembler.apply(String(data.type), data);
		apply({ type: 'message_start', message: { id: 'm', content: [] } });
		apply({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } });
		apply({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } });
		apply({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 's' } });
		apply({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } });
		apply({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hel' } });
		apply({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'lo 🌍' } });
		apply({
			type: 'content_block_start',
			index: 2,
			content_block: { type: 'tool_use', id: 't', name: 'x', input: {} },
		});
		apply({
			type: 'content_block_delta',
			index: 2,
			delta: { type: 'input_json_delta', partial_json: '{"a":1}' },
		});
		apply({ type: 'content_block_stop', index: 2 });
		apply({ type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } });
		apply({ type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: '!' } });
		// A delta for a block that was never started is a failure, not text.
		apply({ type: 'content_block_delta', index: 9, delta: { type: 'text_delta', text: 'lost' } });
		expect(pieces).toEqual(['Hel', 'lo 🌍', '!']);
		expect(assembler.finish()).toMatchObject({ ok: false, reason: 'malformed' });
	});

	it('works without a callback (the node outside a chat)', () => {
		const assembler = new MessageStreamAssembler();
		assembler.apply('message_start', { type: 'message_start', message: { id: 'm', content: [] } });
		assembler.apply('x', {
			type: 'content_block_start',
			index: 0,
			content_block: { type: 'text', text: '' },
		});
		assembler.apply('x', {
			type: 'content_block_delta',
			index: 0,
			delta: { type: 'text_delta', text: 'ok' },
		});
		assembler.apply('message_stop', { type: 'message_stop' });
		expect(assembler.finish()).toMatchObject({ ok: true, value: { content: [{ text: 'ok' }] } });
	});
});

describe('chatAnswer', () => {
	it('is off when the execution does not stream, the node is a tool, or n8n has no isStreaming', async () => {
		for (const [streaming, asTool] of [
			[false, false],
			[true, true],
			[undefined, false],
		] as const) {
			const { ctx, sent } = context(streaming);
			const chat = chatAnswer(ctx, 0, asTool);
			expect(chat.on).toBe(false);
			chat.begin();
			chat.text('x');
			await chat.end();
			await chat.fail(new Error('e'));
			expect(sent).toEqual([]);
		}
	});

	it('sends begin, an item per non-empty piece, end, for its item index, in order even when the hook is slow', async () => {
		const { ctx, sent } = context(true, { async: true });
		const chat = chatAnswer(ctx, 2, false);
		expect(chat.on).toBe(true);
		chat.begin();
		chat.begin();
		chat.text('a');
		chat.text('');
		chat.text('b');
		await chat.end();
		chat.text('late');
		await chat.end();
		expect(sent).toEqual([
			['begin', 2, undefined],
			['item', 2, 'a'],
			['item', 2, 'b'],
			['end', 2, undefined],
		]);
	});

	it('opens on the first piece of text, and an answer with no text still begins and ends', async () => {
		const first = context(true);
		const chat = chatAnswer(first.ctx, 0, false);
		chat.text('whole');
		await chat.end();
		expect(first.sent.map(([type]) => type)).toEqual(['begin', 'item', 'end']);
		const empty = context(true);
		await chatAnswer(empty.ctx, 0, false).end();
		expect(empty.sent.map(([type]) => type)).toEqual(['begin', 'end']);
	});

	it('on failure: an error chunk with the message under continue-on-fail, else nothing (n8n sends its own)', async () => {
		const failing = async (continueOnFail: boolean, begun: boolean) => {
			const { ctx, sent } = context(true, { continueOnFail });
			const chat = chatAnswer(ctx, 1, false);
			await expect(
				chat.around(async () => {
					if (begun) chat.text('part');
					throw new Error('The stream failed: cut');
				}),
			).rejects.toThrow('The stream failed: cut');
			chat.text('after');
			return sent;
		};
		expect(await failing(true, true)).toEqual([
			['begin', 1, undefined],
			['item', 1, 'part'],
			['error', 1, 'The stream failed: cut'],
		]);
		expect(await failing(false, true)).toEqual([
			['begin', 1, undefined],
			['item', 1, 'part'],
		]);
		// Nothing was begun (the request failed before its answer): nothing to close.
		expect(await failing(true, false)).toEqual([]);
	});

	it('around() returns the result and ends the answer', async () => {
		const { ctx, sent } = context(true);
		const chat = chatAnswer(ctx, 0, false);
		await expect(chat.around(async () => 42)).resolves.toBe(42);
		expect(sent.map(([type]) => type)).toEqual(['begin', 'end']);
	});

	it('a chunk n8n cannot deliver is dropped; the rest still go out', async () => {
		const sent: string[] = [];
		const chat = new ChatAnswer((type, content) => {
			if (content === 'bad') throw new Error('the chat went away');
			sent.push(`${type}:${content ?? ''}`);
		});
		chat.text('ok');
		chat.text('bad');
		chat.text('more');
		await chat.end();
		expect(sent).toEqual(['begin:', 'item:ok', 'item:more', 'end:']);
	});
});
