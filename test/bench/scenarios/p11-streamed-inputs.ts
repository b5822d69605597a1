/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P11: peak memory for sending one binary input (Video → Create with the
 * binary as First Frame, a data URL inside the JSON body) of 20 MB and of
 * 200 MB, with n8n's filesystem binary mode (the harness's default, as n8n
 * 2.x keeps binaries). Target: peak resident memory above the baseline at
 * most 1.5x the file: the body is written as the file is read from n8n's
 * store, a chunk at a time, and streamed to the gateway with its exact
 * Content-Length, so neither the file nor its base64 is ever held whole.
 *
 * Each size runs in a child process of its own (started with --expose-gc,
 * see memory.ts), so that the simulator, which parses the request in the
 * parent, does not count, and one size's garbage does not weigh on the
 * other. A first, unmeasured run of a test-only node stores the file as an
 * n8n binary; a warm-up send of a 1 KB file loads the engine, the node and
 * the HTTP agent; the measured run gets the stored item as its input and
 * only sends it: reading the file from the store, building and sending the
 * request. The simulator checks that the data URL decodes to the file's
 * size.
 *
 * Each size is measured twice: with glibc's allocator as it is, and with
 * fixed thresholds that give a freed large block back to the system at once
 * (see ALLOCATORS). "before" is this bench run on commit 1375b85, before the
 * body was streamed: the node read the file whole (getBinaryDataBuffer) and
 * wrote the JSON body into one buffer of its exact size, a path no longer in
 * the package.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { disposeHarness } from '../../harness';
import { startSimulator } from '../../simulator/server';
import type { Peaks } from '../memory';
import { measurePeaks, runMeasuringChild } from '../memory';
import { sendPicture, storedPicture } from '../stored-picture';

export const title = 'peak memory for sending a 20 MB and a 200 MB binary input (streamed request body)';

const MB = 1024 * 1024;
const SIZES_MB = [20, 200];
const TARGET = 1.5;

/**
 * Peak RSS above baseline ÷ file size measured with this bench on commit
 * 1375b85 (file read whole, body in one buffer), per allocator setting: the
 * median of three runs (20 MB: 4.14 to 4.33x and 3.24 to 4.33x; 200 MB:
 * 2.56 to 2.65x and 2.50 to 2.61x).
 */
const BEFORE: Record<number, Record<string, string>> = {
	20: { default: '4.24x', 'freed blocks returned': '3.27x' },
	200: { default: '2.63x', 'freed blocks returned': '2.58x' },
};

async function child(url: string, token: string, sizeMb: number): Promise<void> {
	const credentials = { generationGatewayBearerApi: { baseUrl: url, token } };
	const send = async (input: INodeExecutionData) => await sendPicture(input, credentials);
	await send(await storedPicture(1024)); // warm-up: engine, node, HTTP agent
	const picture = await storedPicture(sizeMb * MB);
	const node = await measurePeaks(async () => await send(picture));
	process.stdout.write(`RESULT ${JSON.stringify({ node })}\n`);
	disposeHarness();
}

/** glibc's allocator settings for a child: adaptive (its default), or fixed thresholds. */
const ALLOCATORS = {
	default: {},
	// A freed block of 128 KB or more goes back to the system at once, so memory freed before the
	// measurement (storing the file) is not left resident for the measured run to reuse unseen;
	// with the adaptive thresholds, tens of MB can stay behind and hide the run's own garbage.
	'freed blocks returned': { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' },
} as const;

/** Sends a stored file of `sizeMb` from a child whose allocator is set by `env`; checks what the gateway got. */
async function measure(sizeMb: number, env: Record<string, string>): Promise<Peaks> {
	const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
	Object.assign(process.env, env);
	const sim = await startSimulator();
	try {
		const { node } = await runMeasuringChild<{ node: Peaks }>(__filename, [
			sim.url,
			sim.keys.bearer,
			String(sizeMb),
		]);
		const creates = sim.requestsTo('/v1/videos', 'POST');
		const frame = (creates[creates.length - 1]?.body as { frame_images?: Array<{ image_url?: string }> })
			?.frame_images?.[0]?.image_url;
		const decoded = frame ? Buffer.byteLength(frame.slice(frame.indexOf(',') + 1), 'base64') : 0;
		if (decoded !== sizeMb * MB) throw new Error(`the gateway got ${decoded} bytes, not ${sizeMb} MB`);
		return node;
	} finally {
		await sim.stop();
		for (const [name, value] of Object.entries(saved)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	}
}

export async function run(): Promise<Record<string, string | number>> {
	const figures: Record<string, string | number> = {};
	let within = true;
	for (const sizeMb of SIZES_MB) {
		const ratio = (bytes: number) => bytes / (sizeMb * MB);
		for (const [allocator, env] of Object.entries(ALLOCATORS)) {
			const node = await measure(sizeMb, env);
			within &&= ratio(node.peakRss) <= TARGET;
			const label = `${sizeMb} MB, allocator ${allocator}`;
			figures[`${label}: peak RSS above baseline (MB)`] = (node.peakRss / MB).toFixed(1);
			figures[`${label}: peak RSS / file size`] = `${ratio(node.peakRss).toFixed(2)}x`;
			figures[`${label}: peak JS heap + buffers / file size (sampled every 2 ms, garbage included)`] =
				`${ratio(node.peakHeap).toFixed(2)}x`;
			figures[`${label}: before (file read whole, body in one buffer): peak RSS / file size`] =
				BEFORE[sizeMb]?.[allocator] ?? 'not measured';
		}
	}
	figures.target = `<= ${TARGET}x`;
	figures['within target'] = within ? 'yes' : 'no';
	return figures;
}

if (require.main === module) {
	const [url, token, sizeMb] = process.argv.slice(2);
	child(url, token, Number(sizeMb)).catch((error: Error) => {
		process.stdout.write(`ERROR ${error.stack}\n`);
		process.exitCode = 1;
	});
}
