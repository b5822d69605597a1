/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P10: one 200 MB video downloaded into n8n's binary store (filesystem mode,
 * n8n's default, as the harness sets it up). Target: peak resident memory
 * above the baseline at most 0.5x the file: the download streams into the
 * store and is never held whole. For comparison, the same file read whole
 * (n8n's HTTP helper with an arraybuffer answer, then prepareBinaryData),
 * which is how videos were downloaded before.
 *
 * Video → Create and Wait (polling, Download Video on) runs in a child
 * process started with --expose-gc (memory.ts), so that the simulator, which
 * serves the file from the parent, does not count. The stored file's size is
 * checked against the file served.
 */
import { request } from 'node:http';

import { disposeHarness, runWorkflow } from '../../harness';
import { startSimulator } from '../../simulator/server';
import { videoTasks } from '../../simulator/video/tasks';
import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from '../../workflow/video-callback-workflow';
import type { Peaks } from '../memory';
import { measurePeaks, runMeasuringChild } from '../memory';

export const title = 'peak memory for one 200 MB video downloaded into the binary store';

const MB = 1024 * 1024;
const FILE_BYTES = 200 * MB;

/** The old way: the whole file in one buffer. */
function fetchWhole(url: string): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		request(url, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => resolve(Buffer.concat(chunks)));
		})
			.on('error', reject)
			.end();
	});
}

async function child(url: string, token: string): Promise<void> {
	const credentials = { generationGatewayBearerApi: { baseUrl: url, token } };
	const workflow = (download: boolean) =>
		videoCallbackWorkflow({ waitOptions: { download, mode: 'polling' }, requestOptions: { maxConcurrency: 1 } });
	const options = { credentials, input: promptItems(['bench [after:200]']), instanceBaseUrl: 'http://localhost:5678' };
	await runWorkflow(workflow(false), options); // warm-up: engine, node, HTTP agent
	let stored = 0;
	let videoUrl = '';
	const node = await measurePeaks(async () => {
		const result = await runWorkflow(workflow(true), options);
		if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
		const [item] = result.output(VIDEO_NODE);
		stored = Number(item.binary?.data.bytes ?? 0);
		videoUrl = String((item.json.data as { url?: string } | undefined)?.url);
	});
	const whole = await measurePeaks(async () => {
		const bytes = await fetchWhole(videoUrl);
		if (bytes.length !== FILE_BYTES) throw new Error('whole read: short file');
	});
	process.stdout.write(`RESULT ${JSON.stringify({ stored, node, whole })}\n`);
	disposeHarness();
}

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	videoTasks(sim).fileBytes = FILE_BYTES;
	try {
		const { stored, node, whole } = await runMeasuringChild<{ stored: number; node: Peaks; whole: Peaks }>(
			__filename,
			[sim.url, sim.keys.bearer],
		);
		const ratio = (bytes: number) => `${(bytes / FILE_BYTES).toFixed(2)}x`;
		return {
			'file size (MB)': (FILE_BYTES / MB).toFixed(0),
			'stored in the binary store (MB)': (stored / MB).toFixed(1),
			'node: peak RSS above baseline (MB)': (node.peakRss / MB).toFixed(1),
			'node: peak RSS / file size': ratio(node.peakRss),
			'node: peak JS heap + buffers / file size (sampled)': ratio(node.peakHeap),
			'read whole (the earlier download): peak RSS / file size': ratio(whole.peakRss),
			target: '<= 0.5x',
			'within target': stored === FILE_BYTES && node.peakRss <= 0.5 * FILE_BYTES ? 'yes' : 'no',
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
