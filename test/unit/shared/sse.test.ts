import type { INode } from 'n8n-workflow';
import { Readable } from 'node:stream';

import type { SseEvent } from '../../../nodes/shared/sse';
import { parseEventJson, readSseEvents, SseDecoder } from '../../../nodes/shared/sse';

const node = { name: 'Generation Gateway' } as INode;

function decodeInChunks(bytes: Buffer, cuts: number[]): SseEvent[] {
	const decoder = new SseDecoder();
	const events: SseEvent[] = [];
	let start = 0;
	for (const cut of [...cuts, bytes.length]) {
		events.push(...decoder.push(bytes.subarray(start, cut)));
		start = cut;
	}
	events.push(...decoder.end());
	return events;
}

// Every line ending, a comment, a multi-line data field, an id, and a
// multi-byte character that a chunk boundary can split.
const STREAM = Buffer.from(
	': keep-alive\r\n' +
		'event: speech.audio.delta\r\n' +
		'data: {"audio":"QUJD"}\r\n\r\n' +
		'data: line one\n' +
		'data: line two — ünïcödé 🎧\n\n' +
		'id: 7\r' +
		'event: done\r' +
		'data:{"ok":true}\r\r' +
		'data: trailing event without blank line',
);

const EXPECTED: SseEvent[] = [
	{ event: 'speech.audio.delta', data: '{"audio":"QUJD"}' },
	{ event: 'message', data: 'line one\nline two — ünïcödé 🎧' },
	{ event: 'done', data: '{"ok":true}', id: '7' },
	{ event: 'message', data: 'trailing event without blank line', id: '7' }, // the last event id persists (SSE spec)
];

describe('SseDecoder (PERFORMANCE.md R7)', () => {
	it('decodes the whole stream at once', () => {
		expect(decodeInChunks(STREAM, [])).toEqual(EXPECTED);
	});

	it('gives identical events for every single split of the stream', () => {
		for (let cut = 1; cut < STREAM.length; cut++) {
			expect(decodeInChunks(STREAM, [cut])).toEqual(EXPECTED);
		}
	});

	it('gives identical events when fed one byte at a time', () => {
		expect(
			decodeInChunks(
				STREAM,
				Array.from({ length: STREAM.length - 1 }, (_, i) => i + 1),
			),
		).toEqual(EXPECTED);
	});

	it('gives identical events for every pair of splits around the CRLF and multi-byte characters', () => {
		const interesting = [...STREAM.keys()].filter(
			(i) => STREAM[i] === 13 || STREAM[i] === 10 || STREAM[i] > 127,
		);
		for (const a of interesting) {
			for (const b of [a + 1, a + 2]) {
				if (b < STREAM.length) expect(decodeInChunks(STREAM, [a, b])).toEqual(EXPECTED);
			}
		}
	});
});

describe('readSseEvents', () => {
	it('reads events from a stream of chunks', async () => {
		const body = Readable.from([STREAM.subarray(0, 10), STREAM.subarray(10, 51), STREAM.subarray(51)]);
		const events: SseEvent[] = [];
		for await (const event of readSseEvents(body, { node })) events.push(event);
		expect(events).toEqual(EXPECTED);
	});

	it('reports a stream that fails mid-way as a node error', async () => {
		const body = new Readable({
			read() {
				this.push(Buffer.from('data: {"a":1}\n\n'));
				this.destroy(new Error('socket hang up'));
			},
		});
		const read = async () => {
			for await (const _event of readSseEvents(body, { node, itemIndex: 2 })) void _event;
		};
		await expect(read()).rejects.toMatchObject({
			message: 'The connection to the gateway broke mid-stream (socket hang up), after 1 event (15 bytes) had arrived',
			context: { itemIndex: 2, sseFailure: 'broken' },
		});
	});
});

describe('parseEventJson', () => {
	it('parses a JSON object', () => {
		expect(parseEventJson(node, { event: 'message', data: '{"type":"x"}' })).toEqual({ type: 'x' });
	});

	it.each(['{"type": broken', '[1,2]', '"text"', ''])('refuses %p naming the event', (data) => {
		expect(() => parseEventJson(node, { event: 'speech.audio.delta', data })).toThrow(
			/malformed "speech.audio.delta" event/,
		);
	});
});

describe('readSseEvents idle detection (R7)', () => {
	it('closes a stream that goes silent and fails with a clear message', async () => {
		const body = new Readable({ read() {} });
		body.push(Buffer.from('data: {"a":1}\n\n'));
		const events: SseEvent[] = [];
		const started = Date.now();
		const read = async () => {
			for await (const event of readSseEvents(body, { node, idleMs: 300 })) events.push(event);
		};
		await expect(read()).rejects.toMatchObject({
			message: 'The stream sent nothing for 0.3 s and was closed, after 1 event (15 bytes) had arrived',
			context: { sseFailure: 'idle' },
		});
		expect(events).toHaveLength(1);
		expect(body.destroyed).toBe(true);
		expect(Date.now() - started).toBeLessThan(1500);
	});

	it('does not fire while data keeps arriving, even when the whole stream outlasts the idle time', async () => {
		const body = new Readable({ read() {} });
		const events: SseEvent[] = [];
		const read = (async () => {
			for await (const event of readSseEvents(body, { node, idleMs: 400 })) events.push(event);
		})();
		for (let i = 0; i < 8; i++) {
			body.push(Buffer.from(`data: {"i":${i}}\n\n`));
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		body.push(null);
		await read;
		expect(events).toHaveLength(8);
	});
});
