/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import type { INode } from 'n8n-workflow';
import { Readable } from 'node:stream';

import type { SseEvent, SseFailure } from '../../../nodes/shared/sse';
import { naming, parseEventJson, readSseEvents, SseDecoder, sseError } from '../../../nodes/shared/sse';
import { useVirtualTime } from '../../harness/virtual-time';

// The idle and keep-alive rules are about time: on virtual time their pauses are exact.
useVirtualTime();

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

describe('SseDecoder: every split of a stream gives the same events', () => {
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
			message:
				'The connection to the gateway broke mid-stream (socket hang up), after 1 event (15 bytes) had arrived',
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
		expect(Date.now() - started).toBe(300);
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

describe('readSseEvents: keep-alive comments are not activity', () => {
	/** Pushes `chunk` every `everyMs` until the reader closes the body; the timer goes with it. */
	function repeating(first: string, chunk: string, everyMs: number): Readable {
		let timer: NodeJS.Timeout | undefined;
		return new Readable({
			read() {
				if (timer) return;
				this.push(Buffer.from(first));
				timer = setInterval(() => this.push(Buffer.from(chunk)), everyMs);
			},
			destroy(cause, callback) {
				clearInterval(timer);
				callback(cause);
			},
		});
	}

	it.each([
		['comment lines', ': keep-alive\n\n'],
		['bare comment markers', ':\n'],
		['a comment split across chunks', ': keep'],
	])('%s past Request Timeout close the stream as idle, naming the rule', async (_name, comment) => {
		const body = repeating('data: {"a":1}\n\n', comment, 50);
		await expect(
			(async () => {
				for await (const _event of readSseEvents(body, { node, timeoutMs: 400, idleMs: 60_000 })) void _event;
			})(),
		).rejects.toMatchObject({
			message: expect.stringMatching(
				/^The stream sent only keep-alive comments for longer than Request Timeout \(0\.4 s\) and was closed, after 1 event \(\d+ bytes\) had arrived$/,
			),
			context: { sseFailure: 'idle' },
		});
		expect(body.destroyed).toBe(true);
	});

	it('one event among the comments is activity: the stream lives on and ends normally', async () => {
		const body = new Readable({ read() {} });
		const events: SseEvent[] = [];
		const read = (async () => {
			for await (const event of readSseEvents(body, { node, timeoutMs: 300 })) events.push(event);
		})();
		for (let i = 0; i < 10; i++) {
			body.push(Buffer.from(i % 2 ? ': keep-alive\n\n' : `data: {"i":${i}}\n\n`));
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		body.push(null);
		await read;
		expect(events).toHaveLength(5);
	});

	it('a long event arriving in pieces is activity, though no event completes for a while', async () => {
		const body = new Readable({ read() {} });
		const events: SseEvent[] = [];
		const read = (async () => {
			for await (const event of readSseEvents(body, { node, timeoutMs: 300 })) events.push(event);
		})();
		body.push(Buffer.from('data: "'));
		for (let i = 0; i < 8; i++) {
			body.push(Buffer.from('x'.repeat(10)));
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		body.push(Buffer.from('"\n\n'));
		body.push(null);
		await read;
		expect(events).toHaveLength(1);
		expect(events[0].data).toBe(`"${'x'.repeat(80)}"`);
	});
});

/** A body that sends `chunks`, then, after `silentMs` of silence, fails with `error` (or ends). */
function failingBody(chunks: Array<Buffer | string>, error?: Error, silentMs = 0): Readable {
	let timer: NodeJS.Timeout | undefined;
	return new Readable({
		objectMode: true,
		read() {
			if (timer) return;
			for (const chunk of chunks) this.push(chunk);
			timer = setTimeout(() => (error ? this.destroy(error) : this.push(null)), silentMs);
		},
		destroy(cause, callback) {
			clearTimeout(timer); // closed by the reader (idle): no timer outlives the test
			callback(cause);
		},
	});
}

async function failureOf(body: Readable, options: Omit<Parameters<typeof readSseEvents>[1], 'node'>) {
	try {
		for await (const _event of readSseEvents(body, { node, ...options })) void _event;
	} catch (error) {
		const e = error as { message: string; description: string; context: Record<string, unknown> };
		return { message: e.message, description: e.description, reason: e.context.sseFailure };
	}
	return undefined;
}

describe('readSseEvents: every failure says what happened, how much had arrived, and (given `what`) which stream', () => {
	const EVENT = 'data: {"a":1}\n\n'; // 15 bytes
	const rows: Array<
		[string, Readable, Omit<Parameters<typeof readSseEvents>[1], 'node'>, string, SseFailure]
	> = [
		[
			'broken, with the cause',
			failingBody([EVENT, EVENT], new Error('socket hang up')),
			{},
			'The connection to the gateway broke mid-stream (socket hang up), after 2 events (30 bytes) had arrived',
			'broken',
		],
		[
			'broken, the cause naming a Node error code: the message is kept (n8n would replace it with its own retry advice)',
			failingBody([EVENT], Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
			{ what: 'The message stream failed' },
			'The message stream failed: the connection to the gateway broke mid-stream (read ECONNRESET), after 1 event (15 bytes) had arrived',
			'broken',
		],
		[
			'broken, the code without text',
			failingBody([EVENT], Object.assign(new Error(''), { code: 'ECONNRESET' })),
			{},
			'The connection to the gateway broke mid-stream (ECONNRESET), after 1 event (15 bytes) had arrived',
			'broken',
		],
		[
			'broken, the cause without text, nothing arrived',
			failingBody([], new Error('')),
			{},
			'The connection to the gateway broke mid-stream, after 0 events (0 bytes) had arrived',
			'broken',
		],
		[
			'broken, named: "The image stream failed: ..."',
			failingBody([EVENT], new Error('aborted')),
			{ what: 'The image stream failed' },
			'The image stream failed: the connection to the gateway broke mid-stream (aborted), after 1 event (15 bytes) had arrived',
			'broken',
		],
		[
			'broken early, before Request Timeout: not called a timeout',
			failingBody([EVENT], new Error('aborted')),
			{ timeoutMs: 60_000 },
			'The connection to the gateway broke mid-stream (aborted), after 1 event (15 bytes) had arrived',
			'broken',
		],
		[
			'closed by the HTTP client after Request Timeout of silence',
			failingBody([EVENT], new Error('aborted'), 150),
			{ timeoutMs: 100, what: 'The speech stream failed' },
			'The speech stream failed: the stream sent nothing for longer than Request Timeout (0.1 s) and was closed, after 1 event (15 bytes) had arrived',
			'timeout',
		],
		[
			'idle, named',
			failingBody([EVENT], undefined, 10_000),
			{ idleMs: 100, what: 'The message stream failed' },
			'The message stream failed: the stream sent nothing for 0.1 s and was closed, after 1 event (15 bytes) had arrived',
			'idle',
		],
		[
			'bytes are counted as bytes, not characters (text chunks with multi-byte characters)',
			failingBody(['data: "ünï 🎧"\n\n'], new Error('reset')),
			{},
			'The connection to the gateway broke mid-stream (reset), after 1 event (20 bytes) had arrived',
			'broken',
		],
	];
	it.each(rows)('%s', async (_name, body, options, message, reason) => {
		const failure = await failureOf(body, options);
		expect(failure).toMatchObject({ message, reason });
		expect(failure?.description).toMatch(/^The gateway may have done this work and charged for it/);
	});
});

describe('sseError: the description of each reason', () => {
	const CHARGED =
		"The gateway may have done this work and charged for it although the stream did not finish: check the account before running the item again (Account → Get Balance, or the gateway's usage records).";
	const rows: Array<[SseFailure, string]> = [
		['idle', `${CHARGED} If the model is slow to answer, turn streaming off for this request.`],
		['timeout', `${CHARGED} For long answers raise "Request Timeout" (Request Options).`],
		['broken', `${CHARGED} The connection broke: check the network between n8n and the gateway.`],
		['truncated', `${CHARGED} If it repeats, turn streaming off.`],
		[
			'malformed',
			`${CHARGED} The gateway sent a stream this node could not read: if it repeats, turn streaming off.`,
		],
		['upstream', 'The gateway reported an error in the stream; the message says what it was.'],
	];
	it.each(rows)('%s', (reason, description) => {
		const error = sseError(node, 'The stream failed', reason, 1);
		expect(error.description).toBe(description);
		expect(error.context).toMatchObject({ sseFailure: reason, itemIndex: 1 });
		expect(description).not.toMatch(/\bretry|try again/i);
	});
});

describe('naming and parseEventJson: which stream, which event', () => {
	it.each([
		[undefined, 'The stream ended', 'The stream ended'],
		['The image stream failed', 'The stream ended', 'The image stream failed: the stream ended'],
	])('naming(%p, %p)', (what, message, expected) => {
		expect(naming(what, message)).toBe(expected);
	});

	it('names the stream and shortens a long event to 120 characters', () => {
		const data = `{"x":"${'a'.repeat(200)}`;
		expect(() => parseEventJson(node, { event: 'message', data }, 0, 'The speech stream failed')).toThrow(
			`The speech stream failed: the stream sent a malformed "message" event: ${data.slice(0, 120)}…`,
		);
	});
});
