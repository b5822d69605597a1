/**
 * Image → Generate through n8n-core's engine over real HTTP to the simulator:
 * every variant produces real image binaries (data, data_1, ...) whose bytes
 * decode with the size asked for, the JSON keeps the metadata without Base64,
 * the request on the wire has the interface's members, URL results download.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { loadWorkflowFile, readBinary, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { inspectImage } from '../simulator/image/inspect';
import { IMAGE_EXAMPLE, IMAGE_NODE, IMAGE_PATH, imageWorkflow, model } from './image-workflow';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.stop());
afterEach(() => sim.clearFaults());

async function generate(parameters: IDataObject, input?: INodeExecutionData[]) {
	const before = sim.requestsTo(IMAGE_PATH).length;
	const result = await runWorkflow(imageWorkflow(parameters), { credentials: sim.credentials(), input });
	expect(result.error?.message).toBeUndefined();
	const sent = sim.requestsTo(IMAGE_PATH).slice(before);
	return { items: result.output(IMAGE_NODE), sent: sent.map((r) => r.body as IDataObject) };
}

async function images(item: INodeExecutionData) {
	const out = [];
	for (const [property, data] of Object.entries(item.binary ?? {})) {
		const bytes = await readBinary(data);
		out.push({ property, data, bytes, info: inspectImage(bytes) });
	}
	return out;
}

describe('Image → Generate (workflow): the example', () => {
	it('runs as shipped (schedule trigger started by hand): two 1536x1024 PNG cover images', async () => {
		const shipped = loadWorkflowFile(IMAGE_EXAMPLE);
		const parameters = shipped.nodes.find((n) => n.name === IMAGE_NODE)!.parameters;
		const { items, sent } = await generate(parameters);
		expect(sent[0]).toMatchObject({
			model: 'imagegen-2.5-sunburst',
			size: '1536x1024',
			quality: 'high',
			n: 2,
		});
		expect(sent[0].prompt).toMatch(/^A calm watercolor cover illustration for \w+day, \d+ \w+: a lighthouse/);
		const files = await images(items[0]);
		expect(files.map((f) => [f.property, f.info.format, f.info.width, f.info.height])).toEqual([
			['data', 'png', 1536, 1024],
			['data_1', 'png', 1536, 1024],
		]);
	});
});

describe('Image → Generate (workflow): variant B', () => {
	it('imagegen-2: two PNG binaries of the free size, JSON without Base64, exact members sent', async () => {
		const { items, sent } = await generate({
			model: model('imagegen-2'),
			prompt: 'a lighthouse at dawn',
			size: '512x384',
			quality: 'low',
			n: 2,
			options: { output_format: 'png', moderation: 'low', user: 'u-42' },
		});
		expect(sent).toEqual([
			{
				model: 'imagegen-2',
				prompt: 'a lighthouse at dawn',
				size: '512x384',
				n: 2,
				quality: 'low',
				user: 'u-42',
				moderation: 'low',
				output_format: 'png',
			},
		]);
		expect(items).toHaveLength(1);
		const files = await images(items[0]);
		expect(files.map((f) => f.property)).toEqual(['data', 'data_1']);
		for (const file of files) {
			expect(file.info).toMatchObject({ format: 'png', width: 512, height: 384 });
			expect(file.data).toMatchObject({ mimeType: 'image/png', fileExtension: 'png' });
		}
		expect(files[0].data.fileName).toBe('image-1.png');
		expect(files[0].bytes.equals(files[1].bytes)).toBe(false);
		const json = items[0].json;
		expect(JSON.stringify(json)).not.toContain('b64_json');
		expect(json).toMatchObject({
			size: '512x384',
			quality: 'low',
			background: 'opaque',
			output_format: 'png',
			usage: { total_tokens: 1100, input_tokens_details: { text_tokens: 100, image_tokens: 0 } },
			data: [{ binaryProperty: 'data' }, { binaryProperty: 'data_1' }],
		});
		expect(typeof json.created).toBe('number');
	});

	it.each([
		['jpeg', { output_format: 'jpeg', output_compression: 60 }, 'image/jpeg', 'jpg', false],
		['webp', { output_format: 'webp', background: 'transparent' }, 'image/webp', 'webp', true],
	])(
		'imagegen-2.5-flare: %s bytes with the right MIME type and extension',
		async (format, options, mime, ext, alpha) => {
			const { items, sent } = await generate({
				model: model('imagegen-2.5-flare'),
				prompt: 'a fox',
				size: '640x480',
				quality: 'max',
				options,
			});
			expect(sent[0]).toMatchObject({ ...options, quality: 'max', size: '640x480' });
			const [file] = await images(items[0]);
			expect(file.info).toMatchObject({ format, width: 640, height: 480 });
			if (alpha) expect(file.info.alpha).toBe(true);
			expect(file.data).toMatchObject({ mimeType: mime, fileExtension: ext, fileName: `image-1.${ext}` });
		},
	);

	it('imagegen-1-mini: listed size from the options list', async () => {
		const { items } = await generate({ model: model('imagegen-1-mini'), prompt: 'x', size: '1024x1536' });
		const [file] = await images(items[0]);
		expect(file.info).toMatchObject({ width: 1024, height: 1536 });
	});

	it('legacyimg-3 with response_format url: the URL stays in the JSON and the image is downloaded', async () => {
		const { items, sent } = await generate({
			model: model('legacyimg-3'),
			prompt: 'a castle',
			size: '1792x1024',
			quality: 'hd',
			options: { style: 'natural', response_format: 'url' },
		});
		expect(sent[0]).toEqual({
			model: 'legacyimg-3',
			prompt: 'a castle',
			size: '1792x1024',
			quality: 'hd',
			style: 'natural',
			response_format: 'url',
		});
		const data = items[0].json.data as IDataObject[];
		expect(data[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/images\/.+\.png$/);
		expect(data[0]).toMatchObject({
			binaryProperty: 'data',
			revised_prompt: expect.stringContaining('castle'),
		});
		const [file] = await images(items[0]);
		expect(file.info).toMatchObject({ format: 'png', width: 1792, height: 1024 });
		expect(sim.requestsTo(/^\/cdn\/images\//).length).toBeGreaterThan(0);
	});

	it('legacyimg-2 with Download URL Results off: URLs only, no binary', async () => {
		const { items } = await generate({
			model: model('legacyimg-2'),
			prompt: 'a boat',
			size: '256x256',
			n: 3,
			downloadUrls: false,
			options: { response_format: 'url' },
		});
		expect(items[0].binary).toBeUndefined();
		expect((items[0].json.data as IDataObject[]).map((d) => typeof d.url)).toEqual([
			'string',
			'string',
			'string',
		]);
	});

	it('legacyimg-2 Base64: three 256x256 images', async () => {
		const { items, sent } = await generate({
			model: model('legacyimg-2'),
			prompt: 'a boat',
			size: '256x256',
			n: 3,
		});
		expect(sent[0]).toEqual({ model: 'legacyimg-2', prompt: 'a boat', size: '256x256', n: 3 });
		const files = await images(items[0]);
		expect(files.map((f) => [f.property, f.info.width, f.info.height])).toEqual([
			['data', 256, 256],
			['data_1', 256, 256],
			['data_2', 256, 256],
		]);
	});
});

describe('Image → Generate (workflow): variants C and A', () => {
	const referencePng = async () => {
		const { items } = await generate({ model: model('imagegen-2'), prompt: 'reference', size: '256x256' });
		return items[0].binary!.data;
	};

	it('vendor/imgE-3.0-pro: reference images from a URL and from a binary (data URL), PNG result', async () => {
		const binary = await referencePng();
		const bytes = await readBinary(binary);
		const { items, sent } = await generate(
			{
				model: model('vendor/imgE-3.0-pro'),
				prompt: '一座灯塔, watercolor',
				size: '768x512',
				referenceImages: {
					images: [
						{ source: 'url', url: 'https://example.com/ref.png' },
						{ source: 'binary', binaryProperty: 'photo' },
					],
				},
				options: {
					prompt_extend: true,
					enable_thinking: true,
					seed: 42,
					watermark: true,
					negative_prompt: 'text',
				},
			},
			[{ json: {}, binary: { photo: { data: bytes.toString('base64'), mimeType: 'image/png' } } }],
		);
		expect(sent[0]).toEqual({
			model: 'vendor/imgE-3.0-pro',
			prompt: '一座灯塔, watercolor',
			size: '768x512',
			prompt_extend: true,
			enable_thinking: true,
			seed: 42,
			watermark: true,
			negative_prompt: 'text',
			images: ['https://example.com/ref.png', `data:image/png;base64,${bytes.toString('base64')}`],
		});
		const [file] = await images(items[0]);
		expect(file.info).toMatchObject({ format: 'png', width: 768, height: 512 });
		expect(items[0].json).toMatchObject({ background: 'opaque', output_format: 'png', size: '768x512' });
		expect(JSON.stringify(items[0].json)).not.toContain('b64_json');
	});

	it('imgE-3.0-pro (the alias) without size: the gateway default 1024x1024', async () => {
		const { items, sent } = await generate({ model: model('imgE-3.0-pro', 'id'), prompt: 'x' });
		expect(sent[0]).toEqual({ model: 'imgE-3.0-pro', prompt: 'x' });
		const [file] = await images(items[0]);
		expect(file.info).toMatchObject({ width: 1024, height: 1024 });
	});

	it('a model the node does not know: variant A, URL results downloaded into data and data_1', async () => {
		const { items, sent } = await generate({
			model: model('house-style-v2', 'id'),
			prompt: 'a map',
			size: '300x200',
			n: 2,
			referenceImages: { images: [{ source: 'url', url: 'https://example.com/style.png' }] },
			options: { enable_pro: true, quality: 'hd' },
		});
		expect(sent[0]).toEqual({
			model: 'house-style-v2',
			prompt: 'a map',
			size: '300x200',
			n: 2,
			enable_pro: true,
			quality: 'hd',
			images: ['https://example.com/style.png'],
		});
		const files = await images(items[0]);
		expect(files.map((f) => [f.property, f.info.width, f.info.height])).toEqual([
			['data', 300, 200],
			['data_1', 300, 200],
		]);
		expect(items[0].json).toMatchObject({ model: 'house-style-v2', data: [{ index: 0 }, { index: 1 }] });
	});

	it('variant A with Base64 results', async () => {
		const { items } = await generate({
			model: model('house-style-v2', 'id'),
			prompt: 'a map',
			options: { response_format: 'b64_json' },
		});
		const [file] = await images(items[0]);
		expect(file.info).toMatchObject({ format: 'png', width: 1024, height: 1024 });
	});

	it('one model per item from an expression: each item gets its variant', async () => {
		const { items, sent } = await generate(
			{ model: model('={{ $json.model }}', 'id'), prompt: '={{ $json.prompt }}', size: '={{ $json.size }}' },
			[
				{ json: { model: 'imagegen-2', prompt: 'one', size: '512x512' } },
				{ json: { model: 'vendor/imgE-3.0-pro', prompt: 'two', size: '640x640' } },
				{ json: { model: 'legacyimg-2', prompt: 'three', size: '256x256' } },
			],
		);
		expect(sent.map((b) => b.model)).toEqual(['imagegen-2', 'vendor/imgE-3.0-pro', 'legacyimg-2']);
		// Fields of other models (e.g. quality's default) are not sent where the model does not take them.
		expect(sent[1]).toEqual({ model: 'vendor/imgE-3.0-pro', prompt: 'two', size: '640x640' });
		const sizes = [];
		for (const item of items) sizes.push((await images(item))[0].info.width);
		expect(sizes).toEqual([512, 640, 256]);
	});
});
