/**
 * Binary inputs kept in n8n's filesystem binary store (n8n 2.x's default: the
 * item holds a reference, the file is on disk) are read as the request is
 * sent, a chunk at a time, and streamed with an exact Content-Length
 * (nodes/shared/base64Payload.ts). In real executions (n8n-core engine,
 * package from dist/, real HTTP to the simulator, which checks every data URL
 * and base64 block): the gateway gets the body the node sent before, the one
 * JSON.stringify writes over the base64 text; and a create sent again (after
 * a 429, after a 307/308 within the origin) carries the whole body again.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { gatewayWorkflow, registerNodeType, runWorkflow } from '../harness';
import { bytesFrom } from '../harness/bytes';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

/** A PNG signature, then bytes; sizes span several of the store's 192 KB chunks and end mid 3-byte group. */
useVirtualTime();

function picture(size: number, seed: number): Buffer {
	const bytes = bytesFrom(size, (i) => i * seed + (i >> 9));
	Buffer.from('89504e470d0a1a0a', 'hex').copy(bytes);
	return bytes;
}
const FIRST = picture(3 * 64 * 1024 * 2 + 1, 7);
const LAST = picture(100_000, 13);

/** Stores the files in n8n's binary store (filesystem mode), as an upstream node would. */
const STORE: INodeType = {
	description: {
		displayName: 'Store Pictures',
		name: 'storePictures',
		group: ['transform'],
		version: 1,
		description: 'test only',
		defaults: { name: 'Store Pictures' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		const data = await this.helpers.prepareBinaryData(FIRST, 'first.png', 'image/png');
		const end = await this.helpers.prepareBinaryData(LAST, 'last.png', 'image/png');
		return [[{ json: {}, binary: { data, end }, pairedItem: { item: 0 } }]];
	},
};

let sim: Simulator;
let stored: INodeExecutionData;
beforeAll(async () => {
	sim = await startSimulator();
	registerNodeType('test.storePictures', STORE);
	const made = await runWorkflow({
		name: 'store pictures',
		nodes: [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'p',
				name: 'Store',
				type: 'test.storePictures',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
		],
		connections: { Start: { main: [[{ node: 'Store', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson);
	const [item] = made.output('Store');
	stored = { json: {}, binary: item.binary };
});
afterAll(async () => {
	await sim.stop();
});

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

const videoCreate = () =>
	gatewayWorkflow({
		nodeName: 'Gateway',
		parameters: {
			resource: 'video',
			operation: 'create',
			model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
			prompt: 'the picture comes alive',
			duration: 5,
			firstFrameSource: 'binary',
			firstFrameBinary: 'data',
			lastFrameSource: 'binary',
			lastFrameBinary: 'end',
		},
		credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
	});

/** The body the video create sent before bodies were streamed. */
const VIDEO_BODY = {
	model: 'vidA-2.5',
	prompt: 'the picture comes alive',
	duration: 5,
	frame_images: [
		{ image_url: dataUrl(FIRST), frame_type: 'first_frame' },
		{ image_url: dataUrl(LAST), frame_type: 'last_frame' },
	],
};

/** Each create the simulator got: its status, its body, and whether its bytes were JSON.stringify's. */
function creates(path: string, since: number) {
	return sim
		.requestsTo(path, 'POST')
		.slice(since)
		.map((request) => ({
			status: request.status,
			body: request.body,
			contentLength: Number(request.headers['content-length']),
			chunked: request.headers['transfer-encoding'] !== undefined,
			compact: Buffer.byteLength(JSON.stringify(request.body)),
		}));
}

describe('binary inputs from the filesystem binary store are streamed', () => {
	it('the files are in the store, not in the items', () => {
		expect(stored.binary?.data.id).toMatch(/^filesystem/);
		expect(stored.binary?.end.id).toMatch(/^filesystem/);
	});

	it('Video → Create: the gateway gets the body as before, with its exact length (not chunked)', async () => {
		const since = sim.requestsTo('/v1/videos', 'POST').length;
		const result = await runWorkflow(videoCreate(), { credentials: sim.credentials(), input: [stored] });
		expect(result.status).toBe('success');
		const [sent] = creates('/v1/videos', since);
		expect(sent.status).toBe(202);
		expect(sent.body).toEqual(VIDEO_BODY);
		expect(sent.chunked).toBe(false);
		expect(sent.contentLength).toBe(Buffer.byteLength(JSON.stringify(VIDEO_BODY)));
		expect(sent.contentLength).toBe(sent.compact);
	});

	it('Message → Create: bare base64 blocks, the same', async () => {
		const since = sim.requestsTo('/v1/messages', 'POST').length;
		const workflow = gatewayWorkflow({
			nodeName: 'Gateway',
			parameters: {
				resource: 'message',
				operation: 'create',
				model: 'chat-model-1',
				turns: { turn: [{ role: 'user', text: 'Describe both.', binaryProperties: 'data, end' }] },
			},
			credentials: { generationGatewayApiKeyApi: { id: '1', name: 'Gateway' } },
		});
		const result = await runWorkflow(workflow, { credentials: sim.credentials(), input: [stored] });
		expect(result.status).toBe('success');
		const [sent] = creates('/v1/messages', since);
		const block = (bytes: Buffer) => ({
			type: 'image',
			source: { type: 'base64', media_type: 'image/png', data: bytes.toString('base64') },
		});
		expect((sent.body as { messages: unknown }).messages).toEqual([
			{ role: 'user', content: [block(FIRST), block(LAST), { type: 'text', text: 'Describe both.' }] },
		]);
		expect(sent.contentLength).toBe(sent.compact);
	});

	it('a create refused with 429 is sent again after Retry-After with the whole body, read from the store again', async () => {
		const since = sim.requestsTo('/v1/videos', 'POST').length;
		sim.inject({
			path: '/v1/videos',
			method: 'POST',
			fault: { kind: 'status', status: 429, retryAfter: '1' },
		});
		const result = await runWorkflow(videoCreate(), { credentials: sim.credentials(), input: [stored] });
		expect(result.status).toBe('success');
		const sent = creates('/v1/videos', since);
		expect(sent.map((s) => s.status)).toEqual([429, 202]);
		for (const attempt of sent) {
			expect(attempt.body).toEqual(VIDEO_BODY);
			expect(attempt.contentLength).toBe(attempt.compact);
		}
	});

	it.each([307, 308] as const)(
		'a %i within the origin is followed with the whole body again',
		async (status) => {
			const since = sim.requestsTo('/v1/videos', 'POST').length;
			sim.inject({
				path: '/v1/videos',
				method: 'POST',
				fault: { kind: 'redirect', status, location: '/v1/videos' },
			});
			const result = await runWorkflow(videoCreate(), { credentials: sim.credentials(), input: [stored] });
			expect(result.status).toBe('success');
			const sent = creates('/v1/videos', since);
			expect(sent.map((s) => s.status)).toEqual([status, 202]);
			for (const attempt of sent) {
				expect(attempt.body).toEqual(VIDEO_BODY);
				expect(attempt.contentLength).toBe(attempt.compact);
			}
		},
	);
});
