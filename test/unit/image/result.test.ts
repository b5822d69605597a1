import { randomBytes } from 'node:crypto';

import type { INode } from 'n8n-workflow';

import {
	B64_MARKER,
	Base64ResultReader,
	readImageResult,
} from '../../../nodes/GenerationGateway/actions/image/result';

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

function read(parts: Buffer[], expected = 0) {
	const reader = new Base64ResultReader(expected);
	for (const part of parts) reader.push(part);
	return { reader, json: JSON.parse(reader.text()) };
}

function expectResult({ reader, json }: ReturnType<typeof read>) {
	expect(reader.truncated).toBe(false);
	expect(reader.images).toHaveLength(2);
	expect(reader.images[0].equals(first)).toBe(true);
	expect(reader.images[1].equals(second)).toBe(true);
	expect(json.data[0]).toEqual({
		b64_json: `${B64_MARKER}0`,
		revised_prompt: 'Ein "Leuchtturm" – 灯塔 {b64_json}',
		index: 0,
	});
	expect(json.data[1]).toEqual({ index: 1, b64_json: `${B64_MARKER}1` });
	expect(json.note).toBe('a value that says b64_json');
	expect(json.usage.input_tokens_details.text_tokens).toBe(1);
}

describe('Base64ResultReader', () => {
	it.each([1, 2, 3, 5, 7, 64, 1000, bytes.length])('reads the result in chunks of %p bytes', (size) => {
		expectResult(read(chunks(size)));
	});

	it('reads the result split in two at every byte', () => {
		for (let split = 0; split <= bytes.length; split++) {
			expectResult(read([bytes.subarray(0, split), bytes.subarray(split)]));
		}
	});

	it('decodes into one allocation when the size is known, and grows when it is not', () => {
		expectResult(read(chunks(100), Math.ceil((bytes.length * 3) / 4)));
		expectResult(read(chunks(100), 10));
	});

	it('keeps finished images intact when the buffer has to grow', () => {
		const big = randomBytes(200_000);
		const text = `{"data":[{"b64_json":"${first.toString('base64')}"},{"b64_json":"${big.toString('base64')}"}]}`;
		const reader = new Base64ResultReader(4000);
		for (let offset = 0; offset < text.length; offset += 4096)
			reader.push(Buffer.from(text.slice(offset, offset + 4096)));
		expect(reader.images[0].equals(first)).toBe(true);
		expect(reader.images[1].equals(big)).toBe(true);
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

	it('returns the JSON and the images', async () => {
		const { json, images } = await readImageResult(node, from(chunks(50)), bytes.length);
		expect(images.map((image) => image.length)).toEqual([first.length, second.length]);
		expect((json.data as unknown[]).length).toBe(2);
	});

	it.each([
		['an HTML page', '<html>Bad gateway</html>', /not an image result/],
		['an empty body', '', /not an image result/],
		['a JSON array', '[1,2]', /not an image result/],
	])('refuses %s', async (_name, text, message) => {
		await expect(readImageResult(node, from([Buffer.from(text)]), undefined)).rejects.toThrow(message);
	});

	it('says when the answer ended early', async () => {
		await expect(readImageResult(node, from([bytes.subarray(0, 300)]), undefined)).rejects.toMatchObject({
			description: expect.stringMatching(/ended early/),
		});
	});
});
