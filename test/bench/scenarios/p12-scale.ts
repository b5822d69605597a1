/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P12: how the node's cost grows with the number of items. Image → Generate,
 * Speech → Synthesize and Video → Create, each over 1, 10, 100 and 1,000
 * items at Max Concurrent Requests 1, through the in-process n8n engine
 * against the simulator over real HTTP.
 *
 * CPU, P6's method (p6-overhead.ts) per size: CPU of this process over the
 * whole workflow run (process.cpuUsage) ÷ items, for the node and for a bare
 * node that makes the same requests (same bodies, same credential) through
 * the same n8n helper, `httpRequestWithAuthentication`, and does nothing
 * else; the difference is what the node adds per item. The sides run back
 * to back in one child process, every size in every round (which goes first
 * rotates), after a warm-up, so all meet the same load of this shared
 * 2-core machine; each figure is the best of the rounds, and the
 * median of the rounds' differences is printed beside it as a noise gauge.
 * The kernel's part of the CPU is printed beside it (it is mostly n8n's
 * binary store writing files, and the noisiest part), and the garbage
 * collections during the run (a PerformanceObserver; median of the rounds).
 * For operations whose answer carries a file, a third side, "bare + store",
 * also writes that file with n8n's prepareBinaryData: what n8n's own binary
 * store costs per item, which the node pays and the bare loop does not.
 *
 * Memory: each side alone in a fresh child process (started with
 * --expose-gc): peak resident memory during the run above the RSS just
 * before it (after a full collection), from the kernel's high-water mark
 * (VmHWM, reset through /proc/self/clear_refs), the highest of its runs.
 *
 * The simulator runs in a process of its own, one per operation, so neither
 * its work nor its request log counts, and both sides meet the same one.
 *
 * Targets: overhead per item at 1,000 items <= 1.2 x the 100-item figure
 * and <= 2 ms; peak RSS of the node's 1,000-item run within 1.5 x the bare
 * loop's. Figures only: the verdicts are printed, nothing fails on them.
 *
 * One measurement by hand (e.g. with P12_CPU_PROFILE=/tmp/p12 for profiles),
 * with the simulator from `npx ts-node --transpile-only test/simulator/cli.ts`:
 *   node --expose-gc -r ts-node/register/transpile-only test/bench/scenarios/p12-scale.ts \
 *     cpu <image|speech|video> <simulator url> <bearer key> [sizes, e.g. 100,1000] [rounds]
 *   ... p12-scale.ts memory <image|speech|video> <node|bare> <url> <key> [sizes] [runs]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { disposeHarness, gatewayWorkflow, registerNodeType, runWorkflow } from '../../harness';
import { runMeasuringChild } from '../memory';
import { startChildSimulator } from './_child-simulator';

export const title =
	'scale: per-item CPU overhead and peak RSS over 1, 10, 100 and 1,000 items (Image → Generate, Speech → Synthesize, Video → Create; Max Concurrent Requests 1)';

const SIZES = [1, 10, 100, 1000];
const CPU_ROUNDS = 5;
const MEMORY_SIZES = [100, 1000];
const MEMORY_RUNS = 2;
const WARM_UP_ITEMS = 300;
const NODE = 'Gateway';
const BARE_TYPE = 'bench.scaleBareRequest';
const CREDENTIAL = 'generationGatewayBearerApi';

type Operation = 'image' | 'speech' | 'video';
/**
 * node: the node; bare: the same requests through the same helper, nothing
 * else; stored: bare, plus the answer's file written to n8n's binary store
 * with prepareBinaryData (what n8n itself costs per file, which the node
 * pays and the bare loop does not).
 */
type Variant = 'node' | 'bare' | 'stored';

interface OperationSetup {
	label: string;
	/** The node's parameters; the prompt (or text) comes from each item's `prompt`. */
	parameters: IDataObject;
	/** What the node sends for an item with this prompt (checked against the simulator's log by hand). */
	path: string;
	body: (prompt: string) => IDataObject;
	/** How the bare loop reads the answer: parsed JSON, or bytes (audio). */
	encoding: 'json' | 'arraybuffer';
	/** The file the answer carries, for the `stored` side (none: Video → Create returns a task). */
	file?: (answer: unknown) => { bytes: Buffer; fileName: string; mimeType: string };
}

const model = (value: string) => ({ __rl: true, mode: 'list', value });

const OPERATIONS: Record<Operation, OperationSetup> = {
	image: {
		label: 'Image → Generate',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: model('imagegen-2'),
			prompt: '={{ $json.prompt }}',
			size: '256x256',
		},
		path: '/v1/images/generations',
		body: (prompt) => ({ model: 'imagegen-2', prompt, n: 1, size: '256x256' }),
		encoding: 'json',
		file: (answer) => ({
			bytes: Buffer.from((answer as { data: Array<{ b64_json: string }> }).data[0].b64_json, 'base64'),
			fileName: 'image-1.png',
			mimeType: 'image/png',
		}),
	},
	speech: {
		label: 'Speech → Synthesize',
		parameters: {
			resource: 'speech',
			operation: 'synthesize',
			model: model('vendor/audioF-3.1-tts-flash'),
			input: '={{ $json.prompt }}',
			voice: 'narrator_v3.1',
		},
		path: '/v1/audio/speech',
		body: (input) => ({
			model: 'vendor/audioF-3.1-tts-flash',
			input,
			voice: 'narrator_v3.1',
			response_format: 'mp3',
			stream_format: 'audio',
			extra_body: { sample_rate: 24000 },
		}),
		encoding: 'arraybuffer',
		file: (answer) => ({
			bytes: Buffer.from(answer as ArrayBuffer),
			fileName: 'speech.mp3',
			mimeType: 'audio/mpeg',
		}),
	},
	video: {
		label: 'Video → Create',
		parameters: {
			resource: 'video',
			operation: 'create',
			model: model('vidA-2.5'),
			prompt: '={{ $json.prompt }}',
			duration: 5,
			resolution: '720p',
		},
		path: '/v1/videos',
		body: (prompt) => ({ model: 'vidA-2.5', prompt, duration: 5, resolution: '720p' }),
		encoding: 'json',
	},
};

/** Quoted, not measured here. */
const EARLIER: Partial<Record<Operation, string>> = {
	image:
		'"overhead 1.2 ms/item at 100 items, 2.8 ms/item at 1,000 (node 6.5 vs bare 3.7 ms/item); peak RSS 141 MB vs 72 MB bare"',
	speech: '"overhead 0.2 ms/item at 100 items, 1.3 ms/item at 1,000"',
};
const EARLIER_SOURCE = 'team measurement, main at 5f68144, NOT measured by this run';

/** This bench's own figures before a change it led to, quoted (not measured by this run). */
const BEFORE: Partial<Record<Operation, [string, string]>> = {
	image: [
		'before the schema cache (this bench on 24970d5, image/schema.ts building a zod schema per item; NOT measured by this run)',
		'"1,000 items: overhead 1.897 ms/item (1.433 without the kernel part), 11 garbage collections per run (0.128 ms/item of pauses; bare 3), peak RSS above start 58.1 MB (process peak 383.7 MB; bare 55.6 / 309.0)"',
	],
};

/** One bare request per item, the same one the node sends, through the same helper; nothing else. */
const bareRequest: INodeType = {
	description: {
		displayName: 'Bare Gateway Request',
		name: 'scaleBareRequest',
		group: ['transform'],
		version: 1,
		description: 'One httpRequestWithAuthentication per item, nothing else',
		defaults: { name: 'Bare Gateway Request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: CREDENTIAL, required: true }],
		properties: [
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'image' },
			{ displayName: 'Store the File', name: 'store', type: 'boolean', default: false },
		],
	},
	async execute(this: IExecuteFunctions) {
		const setup = OPERATIONS[this.getNodeParameter('operation', 0) as Operation];
		const store = this.getNodeParameter('store', 0) as boolean;
		const { baseUrl } = await this.getCredentials(CREDENTIAL);
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			const answer = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
				method: 'POST',
				url: `${String(baseUrl)}${setup.path}`,
				body: setup.body(String(items[i].json.prompt)),
				json: true,
				...(setup.encoding === 'arraybuffer' ? { encoding: 'arraybuffer' as const } : {}),
			})) as unknown;
			const json: IDataObject =
				setup.encoding === 'json'
					? { ok: answer !== undefined }
					: { bytes: (answer as ArrayBuffer).byteLength };
			if (store && setup.file) {
				const { bytes, fileName, mimeType } = setup.file(answer);
				const data = await this.helpers.prepareBinaryData(bytes, fileName, mimeType);
				out.push({ json, binary: { data }, pairedItem: { item: i } });
			} else out.push({ json, pairedItem: { item: i } });
		}
		return [out];
	},
};

function workflow(operation: Operation, variant: Variant): WorkflowJson {
	const wf = gatewayWorkflow({
		nodeName: NODE,
		parameters:
			variant === 'node'
				? { ...OPERATIONS[operation].parameters, requestOptions: { maxConcurrency: 1 } }
				: { operation, store: variant === 'stored' },
		credentials: { [CREDENTIAL]: { id: '1', name: 'Gateway' } },
	});
	if (variant !== 'node') wf.nodes.find((node) => node.name === NODE)!.type = BARE_TYPE;
	return wf;
}

/** A field of /proc/self/status (VmRSS, VmHWM), in bytes. */
const status = (field: string) =>
	Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

/** One workflow run: CPU of this process per item (of it in the kernel), wall time, peak RSS. */
interface RunFigures {
	cpuMsPerItem: number;
	systemMsPerItem: number;
	/** Garbage collections during the run, and their pauses of the main thread (ms per item). */
	gcEvents: number;
	gcPauseMsPerItem: number;
	wallS: number;
	/** Peak RSS during the run above the RSS just before it (after a full collection), bytes. */
	peakRssAbove: number;
	/** The process's peak RSS during the run, bytes. */
	peakRss: number;
}

/** Per size and side, from the CPU child: every round's figures (the sides run back to back). */
type CpuFigures = { items: number } & Partial<Record<Variant, RunFigures[]>>;

/** Per size, from a memory child: the highest of its runs. */
interface MemoryFigures {
	items: number;
	peakRssAbove: number;
	peakRss: number;
}

/** With P12_CPU_PROFILE=<path prefix>, the CPU child profiles one more run of each size and side (not counted). */
const profileTo = process.env.P12_CPU_PROFILE;

async function profiled(file: string, work: () => Promise<unknown>): Promise<void> {
	const session = new Session();
	session.connect();
	await session.post('Profiler.enable');
	await session.post('Profiler.start');
	try {
		await work();
	} finally {
		const { profile } = await session.post('Profiler.stop');
		writeFileSync(file, JSON.stringify(profile));
		session.disconnect();
	}
}

/** Runs the workflow of (operation, variant) over `items` items against the simulator at `url`. */
function runner(operation: Operation, url: string, token: string) {
	registerNodeType(BARE_TYPE, bareRequest);
	const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
	const collections = { events: 0, pauseMs: 0 };
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) {
			collections.events++;
			collections.pauseMs += entry.duration;
		}
	}).observe({ entryTypes: ['gc'] });
	// GC entries arrive after the collection: wait for them before counting from zero, and before reading.
	const settle = async () => await new Promise((resolve) => setTimeout(resolve, 20));
	const credentials = { [CREDENTIAL]: { baseUrl: url, token } };
	const workflows = {
		node: workflow(operation, 'node'),
		bare: workflow(operation, 'bare'),
		stored: workflow(operation, 'stored'),
	};
	return async (variant: Variant, items: number): Promise<RunFigures> => {
		const input = Array.from({ length: items }, (_, i) => ({ json: { prompt: `bench item ${i}` } }));
		gc();
		gc();
		await settle();
		collections.events = 0;
		collections.pauseMs = 0;
		const base = status('VmRSS');
		writeFileSync('/proc/self/clear_refs', '5'); // VmHWM := current RSS
		const started = Date.now();
		const cpuBefore = process.cpuUsage();
		const result = await runWorkflow(workflows[variant], { credentials, input });
		const cpu = process.cpuUsage(cpuBefore);
		const wallS = (Date.now() - started) / 1000;
		const peakRss = status('VmHWM');
		await settle();
		const { events: gcEvents, pauseMs } = collections;
		if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
		const output = result.output(NODE);
		if (output.length !== items) throw new Error(`${output.length} items out for ${items} in`);
		return {
			cpuMsPerItem: (cpu.user + cpu.system) / 1000 / items,
			systemMsPerItem: cpu.system / 1000 / items,
			gcEvents,
			gcPauseMsPerItem: pauseMs / items,
			wallS,
			peakRssAbove: peakRss - base,
			peakRss,
		};
	};
}

/** The sides an operation is measured with (`stored` only where the answer carries a file). */
const sidesOf = (operation: Operation): Variant[] =>
	OPERATIONS[operation].file ? ['node', 'bare', 'stored'] : ['node', 'bare'];

/**
 * The CPU child: the sides in one process, run back to back for every size
 * in every round (which goes first rotates), so that they meet the same
 * load of this shared machine, JIT state and heap history.
 */
async function cpuChild(
	operation: Operation,
	url: string,
	token: string,
	sizes: number[],
	rounds: number,
): Promise<CpuFigures[]> {
	const once = runner(operation, url, token);
	const sides = sidesOf(operation);
	// Loads the engine, the node, the credential types and the HTTP agent, and lets the JIT settle.
	for (const side of sides) await once(side, WARM_UP_ITEMS);
	const figures: CpuFigures[] = sizes.map((items) => ({ items }));
	for (let round = 0; round < rounds; round++) {
		for (const size of figures) {
			const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
			for (const side of order) (size[side] ??= []).push(await once(side, size.items));
		}
	}
	if (profileTo) {
		for (const items of sizes) {
			for (const side of sides) {
				await profiled(
					`${profileTo}-${operation}-${side}-${items}.cpuprofile`,
					async () => await once(side, items),
				);
			}
		}
	}
	return figures;
}

/** A memory child: one side alone in a fresh process, sizes smallest first, the highest peak of `runs` runs each. */
async function memoryChild(
	operation: Operation,
	variant: Variant,
	url: string,
	token: string,
	sizes: number[],
	runs: number,
): Promise<MemoryFigures[]> {
	const once = runner(operation, url, token);
	await once(variant, WARM_UP_ITEMS);
	const figures: MemoryFigures[] = [];
	for (const items of sizes) {
		const measured: RunFigures[] = [];
		for (let run = 0; run < runs; run++) measured.push(await once(variant, items));
		figures.push({
			items,
			peakRssAbove: Math.max(...measured.map((m) => m.peakRssAbove)),
			peakRss: Math.max(...measured.map((m) => m.peakRss)),
		});
	}
	return figures;
}

const MB = 1024 * 1024;
const ms = (value: number) => value.toFixed(3);
const mb = (bytes: number) => (bytes / MB).toFixed(1);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The round with the least CPU per item. */
const bestOf = (runs: RunFigures[]) => runs.reduce((a, b) => (b.cpuMsPerItem < a.cpuMsPerItem ? b : a));

export async function run(): Promise<Record<string, string | number>> {
	const figures: Record<string, string | number> = {
		method: `CPU of the n8n process per item over the whole workflow run (process.cpuUsage, user + kernel; "kernel" is the kernel's part), best of ${CPU_ROUNDS} rounds after a ${WARM_UP_ITEMS}-item warm-up. Sides, back to back in one process: the node; bare = the same requests through httpRequestWithAuthentication, nothing else; bare + store = bare, plus prepareBinaryData of the answer's file (n8n's own binary store, filesystem mode). Overhead = node - bare (in brackets: the median of the rounds' differences, a noise gauge). Garbage collections: during the run, median of the rounds. Peak RSS: a fresh process per side, the highest of ${MEMORY_RUNS} runs. Simulator: a process of its own per operation`,
		'target: overhead per item at 1,000 items': '<= 1.2 x the 100-item figure and <= 2 ms',
		'target: peak RSS of the node (1,000 items)': 'within 1.5 x the bare loop',
	};
	const verdicts: Record<string, string> = {};
	for (const operation of Object.keys(OPERATIONS) as Operation[]) {
		const { label } = OPERATIONS[operation];
		const sim = await startChildSimulator();
		let cpu: CpuFigures[];
		const memory: Partial<Record<Variant, MemoryFigures[]>> = {};
		try {
			const args = [sim.url, sim.keys.bearer];
			cpu = await runMeasuringChild<CpuFigures[]>(__filename, [
				'cpu',
				operation,
				...args,
				SIZES.join(','),
				String(CPU_ROUNDS),
			]);
			for (const variant of ['node', 'bare'] as const) {
				memory[variant] = await runMeasuringChild<MemoryFigures[]>(__filename, [
					'memory',
					operation,
					variant,
					...args,
					MEMORY_SIZES.join(','),
					String(MEMORY_RUNS),
				]);
			}
		} finally {
			sim.stop();
		}
		const at = (items: number) => cpu.find((f) => f.items === items)!;
		const overhead = (items: number) =>
			bestOf(at(items).node!).cpuMsPerItem - bestOf(at(items).bare!).cpuMsPerItem;
		for (const size of cpu) {
			const node = bestOf(size.node!);
			const bare = bestOf(size.bare!);
			const paired = median(
				size.node!.map((run, round) => run.cpuMsPerItem - size.bare![round].cpuMsPerItem),
			);
			figures[`${label}, ${size.items} items: CPU per item node / bare / overhead (ms)`] =
				`${ms(node.cpuMsPerItem)} / ${ms(bare.cpuMsPerItem)} / ${ms(overhead(size.items))} (${ms(paired)}); kernel ${ms(node.systemMsPerItem)} / ${ms(bare.systemMsPerItem)}, overhead without it ${ms(node.cpuMsPerItem - node.systemMsPerItem - (bare.cpuMsPerItem - bare.systemMsPerItem))}; wall ${node.wallS.toFixed(2)} / ${bare.wallS.toFixed(2)} s`;
			figures[
				`${label}, ${size.items} items: garbage collections during the run, node / bare (pause ms per item)`
			] =
				`${median(size.node!.map((r) => r.gcEvents))} / ${median(size.bare!.map((r) => r.gcEvents))} (${ms(median(size.node!.map((r) => r.gcPauseMsPerItem)))} / ${ms(median(size.bare!.map((r) => r.gcPauseMsPerItem)))})`;
			if (size.stored) {
				const stored = bestOf(size.stored);
				figures[`${label}, ${size.items} items: bare + store, CPU per item (ms); node - (bare + store)`] =
					`${ms(stored.cpuMsPerItem)} (kernel ${ms(stored.systemMsPerItem)}); ${ms(node.cpuMsPerItem - stored.cpuMsPerItem)}`;
			}
		}
		for (const [index, node] of memory.node!.entries()) {
			const bare = memory.bare![index];
			figures[`${label}, ${node.items} items: peak RSS above the start of the run, node / bare (MB)`] =
				`${mb(node.peakRssAbove)} / ${mb(bare.peakRssAbove)} (process peak ${mb(node.peakRss)} / ${mb(bare.peakRss)})`;
		}
		const at100 = overhead(100);
		const at1000 = overhead(1000);
		const ratio = at1000 / at100;
		const rss = (variant: Variant) => memory[variant]!.find((f) => f.items === 1000)!.peakRssAbove;
		const rssRatio = rss('node') / rss('bare');
		figures[`${label}: overhead per item, 1,000 / 100 items`] = `${ratio.toFixed(2)}x`;
		figures[`${label}: peak RSS above start at 1,000 items, node / bare`] = `${rssRatio.toFixed(2)}x`;
		const earlier = EARLIER[operation];
		if (earlier) figures[`${label}: earlier figures (${EARLIER_SOURCE})`] = earlier;
		const before = BEFORE[operation];
		if (before) figures[`${label}: ${before[0]}`] = before[1];
		verdicts[`verdict: ${label}`] = [
			`overhead at 1,000 items ${ms(at1000)} ms ${at1000 <= 2 ? '<=' : '>'} 2 ms`,
			`1,000 / 100 ${ratio.toFixed(2)}x ${ratio <= 1.2 ? '<=' : '>'} 1.2x`,
			`peak RSS ${rssRatio.toFixed(2)}x ${rssRatio <= 1.5 ? '<=' : '>'} 1.5x`,
			at1000 <= 2 && ratio <= 1.2 && rssRatio <= 1.5 ? 'met' : 'NOT met',
		].join('; ');
	}
	return { ...figures, ...verdicts };
}

if (require.main === module && (process.argv[2] === 'cpu' || process.argv[2] === 'memory')) {
	const [, , mode, operation, ...rest] = process.argv;
	const list = (text: string) => text.split(',').map(Number);
	const work =
		mode === 'cpu'
			? cpuChild(
					operation as Operation,
					rest[0],
					rest[1],
					list(rest[2] ?? SIZES.join(',')),
					Number(rest[3] ?? CPU_ROUNDS),
				)
			: memoryChild(
					operation as Operation,
					rest[0] as Variant,
					rest[1],
					rest[2],
					list(rest[3] ?? MEMORY_SIZES.join(',')),
					Number(rest[4] ?? MEMORY_RUNS),
				);
	work
		.then((figures) => {
			disposeHarness();
			// Ends at once: a kept-alive connection to the simulator must not hold the bench.
			process.stdout.write(`RESULT ${JSON.stringify(figures)}\n`, () => process.exit(0));
		})
		.catch((error: Error) => {
			process.stdout.write(`ERROR ${error.stack}\n`, () => process.exit(1));
		});
}
