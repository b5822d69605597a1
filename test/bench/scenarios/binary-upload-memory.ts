/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Peak memory for sending one 20 MB binary as base64 inside a JSON
 * body (Video → Create with the binary as First Frame, a data URL). The node
 * streams the body, reading the file from n8n's store a chunk at a time and
 * writing its base64 on the way (nodes/shared/base64Payload.ts; P11,
 * p11-streamed-inputs, measures 20 and 200 MB by resident memory); a naive
 * build holds the file, the base64 string, the data URL, the JSON text and
 * the request buffer.
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

import type { INodeExecutionData } from 'n8n-workflow';

import { disposeHarness } from '../../harness';
import { startSimulator } from '../../simulator/server';
import type { Peaks } from '../memory';
import { measurePeaks, runMeasuringChild } from '../memory';
import { sendPicture, storedPicture } from '../stored-picture';

export const title = 'peak memory for sending one 20 MB binary as base64 in a JSON body';

const MB = 1024 * 1024;
const FILE_BYTES = 20 * MB;

async function child(url: string, token: string): Promise<void> {
	const credentials = { generationGatewayBearerApi: { baseUrl: url, token } };
	const send = async (input: INodeExecutionData) => await sendPicture(input, credentials);
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
