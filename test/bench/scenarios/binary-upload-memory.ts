/**
 * Peak memory for sending one 20 MB binary as base64 inside a JSON
 * body (Video → Create with the binary as First Frame, a data URL). The node
 * writes the base64 straight into the request bytes (nodes/shared/base64Payload.ts);
 * a naive build holds the base64 string, the data URL, the JSON text and the
 * request buffer besides the file.
 *
 * The workflow runs in a child process (started with --expose-gc) so that the
 * simulator, which parses the 27 MB request, does not count. A first, unmeasured
 * run of a test-only node stores a 20 MB PNG as an n8n binary (filesystem mode,
 * as n8n 2.x keeps binaries); the measured run gets that item as its input and
 * only sends it, so the figure is the node's alone: reading the file from n8n's
 * store, building and sending the request. The naive figure likewise starts
 * from nothing and includes reading the file. Peak resident memory is the
 * kernel's high-water mark (VmHWM, reset through /proc/self/clear_refs); peak
 * live memory samples heap + buffers every 2 ms after a full collection, i.e.
 * what the code really holds.
 */
import { randomBytes } from 'node:crypto';

import type { IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { disposeHarness, registerNodeType, runWorkflow } from '../../harness';
import { startSimulator } from '../../simulator/server';
import type { Peaks } from '../memory';
import { measurePeaks, runMeasuringChild } from '../memory';

export const title = 'peak memory for sending one 20 MB binary as base64 in a JSON body';

const MB = 1024 * 1024;
const FILE_BYTES = 20 * MB;

/** Stores `size` bytes with a PNG signature as binary `data` (n8n's filesystem mode: on disk, not in the item). */
function pictureMaker(size: number): INodeType {
	return {
		description: {
			displayName: 'Picture Maker',
			name: 'pictureMaker',
			group: ['transform'],
			version: 1,
			description: 'bench only',
			defaults: { name: 'Picture Maker' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const bytes = randomBytes(size);
			Buffer.from('89504e470d0a1a0a', 'hex').copy(bytes);
			const data = await this.helpers.prepareBinaryData(bytes, 'picture.png', 'image/png');
			return [[{ json: {}, binary: { data }, pairedItem: { item: 0 } }]];
		},
	};
}

const trigger = {
	id: 's',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Start → Picture Maker: stores the picture in n8n's binary store. */
function makerWorkflow(): WorkflowJson {
	return {
		name: 'binary upload bench: make the file',
		nodes: [
			trigger,
			{
				id: 'p',
				name: 'Picture',
				type: 'bench.pictureMaker',
				typeVersion: 1,
				position: [200, 0],
				parameters: {},
			},
		],
		connections: { Start: { main: [[{ node: 'Picture', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
}

/** Start (emitting the stored picture's item) → Video → Create with the binary as First Frame. */
function sendWorkflow(): WorkflowJson {
	return {
		name: 'binary upload bench: send the file',
		nodes: [
			trigger,
			{
				id: 'v',
				name: 'Video',
				type: 'n8n-nodes-generation-gateway.generationGateway',
				typeVersion: 1,
				position: [200, 0],
				parameters: {
					resource: 'video',
					operation: 'create',
					model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
					prompt: 'bench',
					duration: 5,
					firstFrameSource: 'binary',
					firstFrameBinary: 'data',
				},
				credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Video', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
}

/** Stores a picture of `size` bytes; returns its item (the binary is a reference to the store). */
async function storedPicture(size: number): Promise<INodeExecutionData> {
	registerNodeType('bench.pictureMaker', pictureMaker(size));
	const made = await runWorkflow(makerWorkflow());
	const [item] = made.output('Picture');
	if (!item?.binary?.data?.id) throw new Error('the picture was not stored in the filesystem store');
	return { json: {}, binary: item.binary };
}

async function child(url: string, token: string): Promise<void> {
	const credentials = { generationGatewayBearerApi: { baseUrl: url, token } };
	const send = async (input: INodeExecutionData) => {
		const result = await runWorkflow(sendWorkflow(), { credentials, input: [input] });
		if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
	};
	await send(await storedPicture(1024)); // warm-up: engine, node, HTTP agent
	const picture = await storedPicture(FILE_BYTES);
	const node = await measurePeaks(async () => await send(picture), true);
	const naive = await measurePeaks(async () => {
		const bytes = randomBytes(FILE_BYTES); // the file, read into memory
		const body = {
			model: 'vidA-2.5',
			prompt: 'bench',
			frame_images: [
				{ image_url: `data:image/png;base64,${bytes.toString('base64')}`, frame_type: 'first_frame' },
			],
		};
		const sent = Buffer.from(JSON.stringify(body));
		if (sent.length < FILE_BYTES) throw new Error('naive: no body');
	}, true);
	process.stdout.write(`RESULT ${JSON.stringify({ node, naive })}\n`);
	disposeHarness();
}

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	try {
		const { node, naive } = await runMeasuringChild<Record<'node' | 'naive', Peaks>>(__filename, [
			sim.url,
			sim.keys.bearer,
		]);
		const ratio = (n: number) => `${(n / FILE_BYTES).toFixed(2)}x`;
		return {
			'file size (MB)': (FILE_BYTES / MB).toFixed(1),
			'node (read the binary, build and send the request): peak live memory / file size': ratio(
				node.peakHeap,
			),
			'node: peak RSS / file size': ratio(node.peakRss),
			'naive (file, base64 string, data URL, JSON.stringify, Buffer): peak live memory / file size': ratio(
				naive.peakHeap,
			),
			'naive: peak RSS / file size': ratio(naive.peakRss),
		};
	} finally {
		await sim.stop();
	}
}

if (require.main === module) {
	const [url, token] = process.argv.slice(2);
	child(url, token).catch((error: Error) => {
		process.stdout.write(`ERROR ${error.stack}\n`);
		process.exitCode = 1;
	});
}
