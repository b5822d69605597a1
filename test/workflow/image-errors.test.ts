/**
 * Image → Generate, streaming and failures, through n8n-core's engine over
 * real HTTP: the SSE mode gives the final image (and partial images on
 * request) whatever the chunking; a stream without its final image fails
 * clearly; refused items never reach the gateway and, with continue-on-fail,
 * stand in their place among valid ones; gateway errors reach the user.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { readBinary, runWorkflow } from '../harness';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { inspectImage } from '../simulator/image/inspect';
import { IMAGE_NODE, IMAGE_PATH, imageWorkflow, model } from './image-workflow';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.stop());
afterEach(() => {
	sim.clearFaults();
	sim.sseChunkBytes = 0;
});

const STREAMED = {
	model: model('imagegen-2'),
	prompt: 'a lighthouse, streamed',
	// Small, so that the 7-byte chunk run (about a thousand writes) stays quick.
	size: '64x48',
	options: { stream: true, partial_images: 2, includePartialImages: true, output_format: 'webp' },
};

async function run(parameters: IDataObject, settings: IDataObject = {}, input?: INodeExecutionData[]) {
	const before = sim.requestsTo(IMAGE_PATH).length;
	const result = await runWorkflow(imageWorkflow(parameters, settings), {
		credentials: sim.credentials(),
		input,
	});
	return { result, items: result.output(IMAGE_NODE), sent: sim.requestsTo(IMAGE_PATH).length - before };
}

describe('Image → Generate (workflow): streaming', () => {
	it.each([0, 7, 1000])(
		'gives the final and the partial images (SSE written in %p-byte chunks)',
		async (chunk) => {
			sim.sseChunkBytes = chunk;
			const { result, items } = await run(STREAMED);
			expect(result.error?.message).toBeUndefined();
			const binary = items[0].binary!;
			expect(Object.keys(binary)).toEqual(['data', 'partial', 'partial_1']);
			for (const data of Object.values(binary)) {
				expect(inspectImage(await readBinary(data))).toMatchObject({
					format: 'webp',
					width: 64,
					height: 48,
				});
				expect(data.mimeType).toBe('image/webp');
			}
			expect(binary.partial.fileName).toBe('partial-1.webp');
			expect(items[0].json).toMatchObject({
				output_format: 'webp',
				size: '64x48',
				usage: { total_tokens: 1100 },
				data: [{ index: 0, binaryProperty: 'data' }],
				partial_images: [
					{ partial_image_index: 0, binaryProperty: 'partial' },
					{ partial_image_index: 1, binaryProperty: 'partial_1' },
				],
			});
			expect(JSON.stringify(items[0].json)).not.toContain('b64_json');
			expect(sim.requestsTo(IMAGE_PATH).at(-1)!.body).toMatchObject({ stream: true, partial_images: 2 });
		},
	);

	it('streams the same final image as a non-streamed request', async () => {
		const streamed = await run({ ...STREAMED, options: { stream: true, partial_images: 1 } });
		const plain = await run({ ...STREAMED, options: {} });
		const a = await readBinary(streamed.items[0].binary!.data);
		const b = await readBinary(plain.items[0].binary!.data);
		expect(Object.keys(streamed.items[0].binary!)).toEqual(['data']);
		expect(a.equals(b)).toBe(true);
	});

	it('fails clearly when the stream ends without its final image', async () => {
		sim.inject({ path: IMAGE_PATH, fault: { kind: 'sse-truncate', afterEvents: 2 } });
		const { result } = await run(STREAMED);
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(
			/^The image stream failed: the stream ended without its final image \(no "image_generation\.completed" event\)$/,
		);
	});

	it('fails clearly on a malformed event', async () => {
		sim.inject({ path: IMAGE_PATH, fault: { kind: 'sse-malformed' } });
		const { result } = await run(STREAMED);
		expect(result.error?.message).toMatch(/^The image stream failed: the stream sent a malformed "/);
	});
});

describe('Image → Generate (workflow): refusals and errors', () => {
	// The download's back-off on virtual time: no real wait, and its pause read on the clock.
	useVirtualTime();

	it.each<[string, IDataObject, RegExp]>([
		[
			'a size outside the 1:3-3:1 ratio',
			{ model: model('imagegen-2'), prompt: 'x', size: '1600x512' },
			/^Size: the aspect ratio/,
		],
		[
			'transparent JPEG',
			{
				model: model('imagegen-2'),
				prompt: 'x',
				options: { background: 'transparent', output_format: 'jpeg' },
			},
			/^Background: transparent requires/,
		],
		[
			'n through Additional Body Fields on imgE',
			{ model: model('vendor/imgE-3.0-pro'), prompt: 'x', additionalBodyFields: '{"n": 1}' },
			/^Number of Images/,
		],
		[
			'style through Additional Body Fields on imagegen',
			{ model: model('imagegen-2'), prompt: 'x', additionalBodyFields: '{"style": "vivid"}' },
			/^Style: imagegen-2 does not accept it/,
		],
		[
			'a too long legacyimg-2 prompt',
			{ model: model('legacyimg-2'), prompt: 'x'.repeat(1001) },
			/^Prompt: must be at most 1000/,
		],
		[
			'agent mode with a reference image',
			{
				model: model('vendor/imgE-3.0-pro'),
				prompt: 'x',
				referenceImages: { images: [{ source: 'url', url: 'https://example.com/a.png' }] },
				options: { prompt_extend_mode: 'agent' },
			},
			/^Prompt Extend Mode/,
		],
		[
			'a missing binary reference',
			{
				model: model('vendor/imgE-3.0-pro'),
				prompt: 'x',
				referenceImages: { images: [{ source: 'binary', binaryProperty: 'nope' }] },
			},
			/nope/,
		],
	])('refuses %s before sending', async (_name, parameters, message) => {
		const { result, sent } = await run(parameters);
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(message);
		expect(sent).toBe(0);
	});

	it('continue-on-fail: a refused item stands in its place among valid ones, and is not sent', async () => {
		const { result, items, sent } = await run(
			{ model: model('imagegen-2'), prompt: '={{ $json.prompt }}', size: '={{ $json.size }}' },
			{ onError: 'continueRegularOutput' },
			[
				{ json: { prompt: 'first', size: '256x256' } },
				{ json: { prompt: 'second', size: '1000x1000' } },
				{ json: { prompt: 'third', size: '512x256' } },
			],
		);
		expect(result.status).toBe('success');
		expect(sent).toBe(2);
		expect(items).toHaveLength(3);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toMatch(/^Size: both sides must be multiples of 16/);
		expect(items[1].binary).toBeUndefined();
		expect(inspectImage(await readBinary(items[0].binary!.data))).toMatchObject({ width: 256, height: 256 });
		expect(inspectImage(await readBinary(items[2].binary!.data))).toMatchObject({ width: 512, height: 256 });
	});

	it('shows the gateway error envelope and status when the gateway refuses', async () => {
		// A future snapshot passes the node's checks (it behaves as its base model); the gateway judges.
		const { result, sent } = await run({ model: model('imagegen-2-2099-01-01', 'id'), prompt: 'x' });
		expect(sent).toBe(1);
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/model must be one of/);
		expect(JSON.stringify(result.error)).toMatch(/400/);
	});

	it('never sends a creation twice after a 500 (no automatic retry)', async () => {
		sim.inject({ path: IMAGE_PATH, fault: { kind: 'status', status: 500 } });
		const { result, sent } = await run({ model: model('imagegen-2'), prompt: 'x', size: '256x256' });
		expect(result.status).toBe('error');
		expect(sent).toBe(1);
	});

	it('reports a failed URL download and says the image was generated', async () => {
		sim.inject({ path: /^\/cdn\/images\//, method: 'GET', fault: { kind: 'status', status: 404 } });
		const { result, sent } = await run({
			model: model('legacyimg-2'),
			prompt: 'x',
			size: '256x256',
			options: { response_format: 'url' },
		});
		expect(sent).toBe(1);
		expect(result.error?.message).toMatch(
			/^Could not download image 1 from http:\/\/127\.0\.0\.1:\d+\/cdn\/images\//,
		);
		expect(JSON.stringify(result.error)).toMatch(/generated \(and paid for\)/);
	});

	it('a URL result whose host fails once (503) is downloaded again: the image arrives, generated once', async () => {
		sim.inject({ path: /^\/cdn\/images\//, method: 'GET', fault: { kind: 'status', status: 503 } });
		const downloads = () => sim.requests.filter((r) => r.path.startsWith('/cdn/images/'));
		const before = downloads().length;
		const { result, sent } = await run({
			model: model('legacyimg-2'),
			prompt: 'x',
			size: '256x256',
			options: { response_format: 'url' },
		});
		expect(result.status).toBe('success');
		expect(sent).toBe(1);
		const [first, second] = downloads().slice(before);
		expect(
			downloads()
				.slice(before)
				.map((r) => r.status),
		).toEqual([503, 200]);
		// The first back-off of a read: 0.5 s scaled by 0.75-1.0.
		expect(second.at - first.at).toBeGreaterThanOrEqual(375);
		expect(second.at - first.at).toBeLessThanOrEqual(500);
		expect(result.output(IMAGE_NODE)[0].binary?.data).toMatchObject({
			mimeType: 'image/png',
			fileName: 'image-1.png',
		});
	});
});
