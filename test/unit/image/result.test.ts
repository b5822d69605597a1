import { randomBytes } from 'node:crypto';

import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ImageEvent, IncomingImage } from '../../../nodes/GenerationGateway/actions/image/result';
import {
	B64_MARKER,
	Base64ResultReader,
	readImageResult,
} from '../../../nodes/GenerationGateway/actions/image/result';
import { RELEASES_MEMORY } from '../../harness/runtime';

/**
 * The streaming reader of image results: whatever the chunking, it returns
 * the same decoded images and the same JSON (Base64 replaced by markers).
 */

const node = { name: 'Generation Gateway' } as INode;

const first = randomBytes(3001);
const second = randomBytes(1024);
// JSON may escape "/" as "\/": the first image is written that way.
const escaped = first.toString('base64').replace(/\//g, '\\/');
const documentText =
	`{"created":1700000000,"note":"a value that says b64_json","data":[` +
	`{"b64_json":"${escaped}","revised_prompt":"Ein \\"Leuchtturm\\" – 灯塔 {b64_json}","index":0},` +
	`{"index":1, "b64_json" :  "${second.toString('base64')}"}],` +
	`"usage":{"total_tokens":3,"input_tokens_details":{"text_tokens":1}},"b64_json_like":"x"}`;
const bytes = Buffer.from(documentText);

function chunks(size: number): Buffer[] {
	const out: Buffer[] = [];
	for (let offset = 0; offset < bytes.length; offset += size) out.push(bytes.subarray(offset, offset + size));
	return out;
}

/** Feeds the parts to a reader and gathers the images its events describe. */
function read(parts: Buffer[]) {
	const reader = new Base64ResultReader();
	const images: Buffer[][] = [];
	let open = false;
	// Plain checks, not expect(): this runs for every event of thousands of splits.
	const follow = (event: ImageEvent) => {
		if (event.kind === 'start') {
			if (open) throw new Error('an image began inside another');
			images.push([]);
			open = true;
		} else if (event.kind === 'end') {
			if (!open) throw new Error('an image ended that had not begun');
			open = false;
		} else {
			if (!open || !event.bytes.length) throw new Error('bytes outside an image, or empty bytes');
			images[images.length - 1].push(event.bytes);
		}
	};
	for (const part of parts) reader.push(part).forEach(follow);
	return { reader, images: images.map((pieces) => Buffer.concat(pieces)), json: JSON.parse(reader.text()) };
}

function expectResult({ reader, images, json }: ReturnType<typeof read>) {
	expect(reader.truncated).toBe(false);
	expect(reader.images).toBe(2);
	expect(images).toHaveLength(2);
	expect(images[0].equals(first)).toBe(true);
	expect(images[1].equals(second)).toBe(true);
	expect(json.data[0]).toEqual({
		b64_json: `${B64_MARKER}0`,
		revised_prompt: 'Ein "Leuchtturm" – 灯塔 {b64_json}',
		index: 0,
	});
	expect(json.data[1]).toEqual({ index: 1, b64_json: `${B64_MARKER}1` });
	expect(json.note).toBe('a value that says b64_json');
	expect(json.usage.input_tokens_details.text_tokens).toBe(1);
}

/** Whether two reads gave the same outcome, images and JSON. */
function sameResult(a: ReturnType<typeof read>, b: ReturnType<typeof read>): boolean {
	return (
		a.reader.truncated === b.reader.truncated &&
		a.reader.images === b.reader.images &&
		a.images.length === b.images.length &&
		a.images.every((image, index) => image.equals(b.images[index])) &&
		JSON.stringify(a.json) === JSON.stringify(b.json)
	);
}

describe('Base64ResultReader', () => {
	it.each([1, 2, 3, 5, 7, 64, 1000, bytes.length])('reads the result in chunks of %p bytes', (size) => {
		expectResult(read(chunks(size)));
	});

	it('reads the result split in two at every byte', () => {
		const whole = read([bytes]);
		expectResult(whole);
		// Every split gives what the whole document gives (plain comparisons: thousands of splits).
		const differing: number[] = [];
		for (let split = 0; split <= bytes.length; split++) {
			if (!sameResult(read([bytes.subarray(0, split), bytes.subarray(split)]), whole)) differing.push(split);
		}
		expect(differing).toEqual([]);
	});

	it('decodes each chunk into a buffer of its own, which the store may give back once written', () => {
		const big = randomBytes(200_000);
		const text = `{"data":[{"b64_json":"${big.toString('base64')}"}]}`;
		const reader = new Base64ResultReader();
		const pieces: Buffer[] = [];
		for (let offset = 0; offset < text.length; offset += 4096) {
			for (const event of reader.push(Buffer.from(text.slice(offset, offset + 4096)))) {
				if (event.kind === 'bytes') pieces.push(event.bytes);
			}
		}
		expect(Buffer.concat(pieces).equals(big)).toBe(true);
		for (const piece of pieces) {
			expect(piece.byteOffset).toBe(0);
			expect(piece.buffer.byteLength - piece.length).toBeLessThanOrEqual(3);
		}
		expect(new Set(pieces.map((piece) => piece.buffer)).size).toBe(pieces.length);
	});

	it('reports a stream that ends inside a Base64 value', () => {
		const reader = new Base64ResultReader();
		reader.push(bytes.subarray(0, 200));
		expect(reader.truncated).toBe(true);
	});
});

describe('readImageResult', () => {
	async function* from(parts: Buffer[]) {
		for (const part of parts) yield part;
	}

	/** A sink like the node's: reads every image to its end; records what it was handed. */
	function collect() {
		const handed: Array<{ index: number; head: Buffer; bytes: Buffer }> = [];
		const sink = async (image: IncomingImage) => {
			const pieces: Buffer[] = [];
			for await (const piece of image.bytes) pieces.push(piece);
			const entry = { index: image.index, head: image.head, bytes: Buffer.concat(pieces) };
			handed.push(entry);
			return entry;
		};
		return { handed, sink };
	}

	it('hands each image to the sink while it arrives and returns the JSON with markers', async () => {
		const { handed, sink } = collect();
		const { json, images } = await readImageResult(node, from(chunks(50)), sink);
		expect(handed.map((image) => image.index)).toEqual([0, 1]);
		expect(handed[0].bytes.equals(first)).toBe(true);
		expect(handed[1].bytes.equals(second)).toBe(true);
		expect(handed[0].head.equals(first.subarray(0, 16))).toBe(true);
		expect(images).toEqual(handed);
		expect((json.data as Array<{ b64_json: string }>).map((item) => item.b64_json)).toEqual([
			`${B64_MARKER}0`,
			`${B64_MARKER}1`,
		]);
	});

	it('hands the head whole even when the first chunks carry fewer than 16 bytes', async () => {
		const { handed, sink } = collect();
		await readImageResult(node, from(chunks(3)), sink);
		expect(handed[0].head.equals(first.subarray(0, 16))).toBe(true);
		expect(handed[0].bytes.equals(first)).toBe(true);
	});

	it('hands a tiny image with a head of its own size, and skips an empty value', async () => {
		const { handed, sink } = collect();
		const text = '{"data":[{"b64_json":""},{"b64_json":"AQID"}]}';
		const { images } = await readImageResult(node, from([Buffer.from(text)]), sink);
		expect(images[0]).toBeUndefined();
		expect(handed).toHaveLength(1);
		expect(handed[0]).toMatchObject({
			index: 1,
			head: Buffer.from([1, 2, 3]),
			bytes: Buffer.from([1, 2, 3]),
		});
	});

	it('skips what a sink leaves unread and goes on with the next image', async () => {
		const seen: number[] = [];
		const { images } = await readImageResult(node, from(chunks(64)), async (image) => {
			seen.push(image.index);
			return image.head.length; // reads nothing
		});
		expect(seen).toEqual([0, 1]);
		expect(images).toEqual([16, 16]);
	});

	it('gives a network chunk that owns its memory back once decoded, and leaves views of shared memory alone', async () => {
		const own = Buffer.allocUnsafeSlow(bytes.length);
		bytes.copy(own);
		const shared = Buffer.concat([bytes, bytes]).subarray(0, bytes.length);
		const { sink } = collect();
		await readImageResult(node, from([own]), sink);
		await readImageResult(node, from([shared]), sink);
		expect(own.length).toBe(RELEASES_MEMORY ? 0 : bytes.length); // detached: its memory is free
		expect(shared.equals(bytes)).toBe(true);
	});

	it.each([
		['an HTML page', '<html>Bad gateway</html>', /not an image result/],
		['an empty body', '', /not an image result/],
		['a JSON array', '[1,2]', /not an image result/],
	])('refuses %s', async (_name, text, message) => {
		await expect(readImageResult(node, from([Buffer.from(text)]), collect().sink)).rejects.toThrow(message);
	});

	it('says when the answer ended early', async () => {
		await expect(readImageResult(node, from([bytes.subarray(0, 300)]), collect().sink)).rejects.toMatchObject(
			{
				description: expect.stringMatching(/ended early/),
			},
		);
	});

	async function* breaking(after: number, message = 'aborted') {
		yield bytes.subarray(0, after);
		throw Object.assign(new Error(message), { code: 'ECONNRESET' });
	}

	it.each([
		[
			'the connection breaks while an image arrives',
			{ contentLength: bytes.length },
			`The gateway may have done this work and charged for it: the connection to the gateway broke while the image answer was arriving (aborted, ECONNRESET), after 300 of ${bytes.length} bytes had arrived`,
		],
		[
			'the answer stops for longer than Request Timeout',
			{ timeoutMs: 0 },
			'The gateway may have done this work and charged for it: the image answer stopped for longer than Request Timeout (0 s) and was closed, after 300 bytes had arrived',
		],
	])('says what happened when %s, not what the sink saw', async (_name, options, message) => {
		const error = await readImageResult(node, breaking(300), collect().sink, {
			itemIndex: 2,
			...options,
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(message);
		expect((error as NodeOperationError).description).toMatch(
			/Check the account before running this item again.*Do not simply run it again\./,
		);
		expect((error as NodeOperationError).description).not.toMatch(/retry|try again/i);
	});
});
