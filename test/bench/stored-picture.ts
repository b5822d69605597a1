/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Shared by the benchmarks of binary inputs (binary-upload-memory, P11): a
 * picture stored in n8n's binary store (filesystem mode, as n8n 2.x keeps
 * binaries: on disk, the item holds a reference), and Video → Create sending
 * it as First Frame (a data URL inside the JSON body).
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import type { ICredentialDataDecryptedObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { registerNodeType, runWorkflow } from '../harness';

const PIECE_BYTES = 64 * 1024;

/**
 * Stores `size` bytes with a PNG signature as binary `data`. Written in
 * pieces: a whole-file buffer freed before a measurement would leave its
 * memory with the allocator, where the measured run could reuse it unseen.
 */
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
			const pieces = async function* () {
				for (let offset = 0; offset < size; offset += PIECE_BYTES) {
					const piece = randomBytes(Math.min(PIECE_BYTES, size - offset));
					if (offset === 0) Buffer.from('89504e470d0a1a0a', 'hex').copy(piece);
					yield piece;
				}
			};
			const data = await this.helpers.prepareBinaryData(Readable.from(pieces()), 'picture.png', 'image/png');
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

/** A workflow of the trigger and one node after it. */
const startThen = (name: string, node: Record<string, unknown>): WorkflowJson =>
	({
		name,
		nodes: [trigger, { id: 'n', position: [200, 0], typeVersion: 1, ...node }],
		connections: { Start: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	}) as unknown as WorkflowJson;

/** Stores a picture of `size` bytes; returns its item (the binary is a reference to the store). */
export async function storedPicture(size: number): Promise<INodeExecutionData> {
	registerNodeType('bench.pictureMaker', pictureMaker(size));
	const made = await runWorkflow(
		startThen('bench: store a picture', { name: 'Picture', type: 'bench.pictureMaker', parameters: {} }),
	);
	const [item] = made.output('Picture');
	if (!item?.binary?.data?.id) throw new Error('the picture was not stored in the filesystem store');
	return { json: {}, binary: item.binary };
}

/** Video → Create with the input item's binary `data` as First Frame; fails when the run does. */
export async function sendPicture(
	input: INodeExecutionData,
	credentials: Record<string, ICredentialDataDecryptedObject>,
): Promise<void> {
	const workflow = startThen('bench: send the picture', {
		name: 'Video',
		type: 'n8n-nodes-generation-gateway.generationGateway',
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
	});
	const result = await runWorkflow(workflow, { credentials, input: [input] });
	if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
}
