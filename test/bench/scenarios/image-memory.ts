/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P4: peak memory for one 20 MB image returned as Base64 (about 27 MB of
 * JSON). Target: at most 2x the image size above the baseline; a naive
 * decode (JSON.parse of the whole answer, then Buffer.from) costs about 5-7x.
 * The node streams the decoded image into n8n's binary store (filesystem
 * mode, n8n's default, as the harness sets it up); what remains is mostly
 * the socket's read buffers, which Node allocates per read and V8 collects
 * only after about 64 MB of them.
 *
 * The measured workflow runs in a child process (this file, started with
 * --expose-gc) so that the simulator, which builds the 27 MB answer, does not
 * count. Peak resident memory is the kernel's own high-water mark (VmHWM in
 * /proc/self/status, reset through /proc/self/clear_refs before the run); the
 * JS heap + buffers peak is sampled every 2 ms as a second figure. The same
 * child then measures the naive decode of the same answer for comparison.
 */
import { request } from 'node:http';

import { disposeHarness, readBinary, runWorkflow } from '../../harness';
import { imageState } from '../../simulator/routes/image';
import { startSimulator } from '../../simulator/server';
import { IMAGE_NODE, imageWorkflow, model } from '../../workflow/image-workflow';
import type { Peaks } from '../memory';
import { measurePeaks, runMeasuringChild } from '../memory';

export const title = 'peak memory for one 20 MB image returned as Base64';

/** 3840x1824 random RGB pixels stored uncompressed: a 21.0 MB PNG (20.0 MiB). */
const SIZE = '3840x1824';
const MB = 1024 * 1024;

function fetchText(url: string, token: string, body: object): Promise<string> {
	return new Promise((resolve, reject) => {
		const req = request(
			url,
			{ method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
			},
		);
		req.on('error', reject);
		req.end(JSON.stringify(body));
	});
}

/** The child: the node's run, then the naive decode, both against the parent's simulator. */
async function child(url: string, token: string): Promise<void> {
	const credentials = { generationGatewayBearerApi: { baseUrl: url, token } };
	const workflow = (size: string) => imageWorkflow({ model: model('imagegen-2'), prompt: 'noise', size });
	await runWorkflow(workflow('256x256'), { credentials }); // warm-up: engine, node, HTTP agent
	let imageBytes = 0;
	let binary: Parameters<typeof readBinary>[0] | undefined;
	const node = await measurePeaks(async () => {
		const result = await runWorkflow(workflow(SIZE), { credentials });
		if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
		binary = result.output(IMAGE_NODE)[0].binary!.data;
	});
	const nodeLive = await measurePeaks(async () => {
		const result = await runWorkflow(workflow(SIZE), { credentials });
		if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
	}, true);
	const naive = await measurePeaks(async () => {
		const text = await fetchText(`${url}/v1/images/generations`, token, {
			model: 'imagegen-2',
			prompt: 'noise',
			size: SIZE,
		});
		const json = JSON.parse(text) as { data: Array<{ b64_json: string }> };
		const bytes = Buffer.from(json.data[0].b64_json, 'base64');
		if (bytes.length < MB) throw new Error('naive decode: no image');
	});
	const naiveLive = await measurePeaks(async () => {
		const text = await fetchText(`${url}/v1/images/generations`, token, {
			model: 'imagegen-2',
			prompt: 'noise',
			size: SIZE,
		});
		Buffer.from((JSON.parse(text) as { data: Array<{ b64_json: string }> }).data[0].b64_json, 'base64');
	}, true);
	// Read last: reading the file back makes a 20 MB buffer that would skew the baselines above.
	imageBytes = (await readBinary(binary!)).length;
	process.stdout.write(`RESULT ${JSON.stringify({ imageBytes, node, naive, nodeLive, naiveLive })}\n`);
	disposeHarness();
}

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	imageState(sim).noise = true;
	try {
		const { imageBytes, node, naive, nodeLive, naiveLive } = await runMeasuringChild<
			Record<'node' | 'naive' | 'nodeLive' | 'naiveLive', Peaks> & { imageBytes: number }
		>(__filename, [sim.url, sim.keys.bearer]);
		const ratio = (bytes: number) => `${(bytes / imageBytes).toFixed(2)}x`;
		return {
			'image size (MB)': (imageBytes / MB).toFixed(1),
			'node: peak RSS above baseline (MB)': (node.peakRss / MB).toFixed(1),
			'node: peak RSS / image size': ratio(node.peakRss),
			'node: peak JS heap + buffers / image size (sampled)': ratio(node.peakHeap),
			'node: peak live memory (collected before each sample) / image size': ratio(nodeLive.peakHeap),
			'naive JSON.parse + Buffer.from: peak RSS / image size': ratio(naive.peakRss),
			'naive: peak JS heap + buffers / image size (sampled)': ratio(naive.peakHeap),
			'naive: peak live memory / image size': ratio(naiveLive.peakHeap),
			target: '<= 2x',
			'within target (peak RSS)': node.peakRss <= 2 * imageBytes ? 'yes' : 'no',
			'within target (live memory)': nodeLive.peakHeap <= 2 * imageBytes ? 'yes' : 'no',
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
