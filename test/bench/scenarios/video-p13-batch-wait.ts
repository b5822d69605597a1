/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P13: a batch of video tasks waited for together. Video → Create and Wait
 * (Wait Mode: Polling) over 4, 20, 100 and 1,000 items, and Video → Wait for
 * Completion over 20 and 1,000 task ids created just before by HTTP, at
 * default settings (Max Concurrent Requests 1) and at Max Concurrent
 * Requests 10. Every task ends 12 s after its create; Download Video is on.
 * Real workflow runs through the in-process n8n engine against the simulator
 * over real HTTP.
 *
 * Per row: wall time; the time to send the creates (first to last create the
 * simulator saw); the longest task; target = 1.5 x (longest task + create
 * time); reads per task (GET /v1/videos/{id} per task, mean and max);
 * downloads; peak RSS increase over the row (process RSS sampled every
 * 100 ms, simulator included: it runs in this process); verdict "met" when
 * wall <= target and max reads per task <= 4. Wait for Completion's wall
 * time counts from its first create (the tasks' clock starts there), and
 * its run alone is shown beside it.
 *
 * The "before" figures are quoted from the team's earlier measurement, not
 * measured here.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { RunResult, WorkflowJson } from '../../harness';
import { disposeHarness, runWorkflow } from '../../harness';
import type { LoggedRequest, Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { videoTasks } from '../../simulator/video/tasks';
import { VIDEO_NODE, videoCallbackWorkflow } from '../../workflow/video-callback-workflow';

export const title =
	'video batch wait: Create and Wait (polling) and Wait for Completion over many items, tasks ending 12 s after create, Download on';

const NODE = VIDEO_NODE;
const TASK_MS = 12_000;
/** A row's run is cancelled (and the row fails) after this long: no row can hang the bench. */
const ROW_LIMIT_MS = 180_000;
/** Parallel POSTs when creating Wait for Completion's tasks directly. */
const DIRECT_CREATE_CONCURRENCY = 10;

type Operation = 'createAndWait' | 'waitForCompletion';

interface Row {
	operation: Operation;
	items: number;
	/** Undefined: the node's default (1). */
	maxConcurrency?: number;
}

const ROWS: Row[] = [
	...[4, 20, 100, 1000].flatMap((items): Row[] => [
		{ operation: 'createAndWait', items },
		{ operation: 'createAndWait', items, maxConcurrency: 10 },
	]),
	...[20, 1000].flatMap((items): Row[] => [
		{ operation: 'waitForCompletion', items },
		{ operation: 'waitForCompletion', items, maxConcurrency: 10 },
	]),
];

const BEFORE: Record<string, string> = {
	'before (earlier measurement, 2026-11-24, main at 5f68144, NOT measured by this run)':
		'polling, Download on, tasks ending 12 s after create',
	'before: 4 items, default': '"50 s, 2 reads/task"',
	'before: 20 items, default': '"250 s, 2 reads/task"',
	'before: 1,000 items, Max Concurrent Requests 50': '"251 s, 2 reads/task"',
	'before: 1,000 items, callback mode falling back to polling, default':
		'"119 tasks read in 600 s (about 83 min projected)"',
};

const createFields = {
	resource: 'video',
	model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
	prompt: '={{ $json.prompt }}',
	duration: 5,
	resolution: '720p',
};

function rowParameters(row: Row): Record<string, unknown> {
	const parameters: Record<string, unknown> =
		row.operation === 'createAndWait'
			? { ...createFields, operation: 'createAndWait', waitOptions: { mode: 'polling', download: true } }
			: {
					resource: 'video',
					operation: 'waitForCompletion',
					taskId: '={{ $json.id }}',
					waitOptions: { download: true },
				};
	// Empty Request Options: the node's default Max Concurrent Requests (1).
	parameters.requestOptions = row.maxConcurrency === undefined ? {} : { maxConcurrency: row.maxConcurrency };
	return parameters;
}

/** The workflow of the video workflow tests (Start → Video → After), with the row's parameters. */
const workflow = (parameters: Record<string, unknown>): WorkflowJson => videoCallbackWorkflow(parameters);

const prompt = (i: number) => `bench item ${i} [after:${TASK_MS}]`;

/** Creates `count` tasks by HTTP POST, DIRECT_CREATE_CONCURRENCY at a time; their ids in order. */
async function createDirectly(sim: Simulator, count: number): Promise<string[]> {
	const headers = { Authorization: `Bearer ${sim.keys.bearer}`, 'Content-Type': 'application/json' };
	const ids = new Array<string>(count);
	let next = 0;
	const worker = async () => {
		for (let i = next++; i < count; i = next++) {
			const response = await fetch(`${sim.url}/v1/videos`, {
				method: 'POST',
				headers,
				body: JSON.stringify({ model: 'vidA-2.5', prompt: prompt(i), duration: 5 }),
			});
			if (!response.ok) throw new Error(`direct create ${i}: HTTP ${response.status}`);
			ids[i] = ((await response.json()) as { id: string }).id;
		}
	};
	await Promise.all(Array.from({ length: Math.min(count, DIRECT_CREATE_CONCURRENCY) }, worker));
	return ids;
}

/** Samples process RSS every 100 ms; `stop` gives the peak above the RSS at the start, in bytes. */
function rssSampler(): { stop(): number } {
	const base = process.memoryUsage().rss;
	let peak = base;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 100);
	return {
		stop() {
			clearInterval(timer);
			peak = Math.max(peak, process.memoryUsage().rss);
			return peak - base;
		},
	};
}

/** Throws unless the run succeeded with one completed item carrying its video per input item. */
function checkRun(result: RunResult, items: number): INodeExecutionData[] {
	if (result.status !== 'success')
		throw new Error(`run ended ${result.status}: ${result.error?.message ?? '(no error message)'}`);
	const output = result.output(NODE);
	if (output.length !== items) throw new Error(`${output.length} items out for ${items} in`);
	const bad = output.findIndex(
		(item) => item.json.status !== 'completed' || item.binary?.data?.mimeType !== 'video/mp4',
	);
	if (bad >= 0)
		throw new Error(
			`item ${bad} not completed with its video: ${JSON.stringify(output[bad].json).slice(0, 300)}`,
		);
	return output;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const isTaskRead = (r: LoggedRequest) => r.method === 'GET' && /^\/v1\/videos\/[^/]+$/.test(r.path);
const isDownload = (r: LoggedRequest) => r.method === 'GET' && /^\/files\/videos\/[^/]+\.mp4$/.test(r.path);

interface RowFigures {
	line: string;
	met: boolean;
}

async function measure(sim: Simulator, row: Row): Promise<RowFigures> {
	const tasks = videoTasks(sim);
	const from = sim.requests.length;
	const memory = rssSampler();
	let peakRss: number;
	const started = Date.now();
	let runStarted: number;
	let result: RunResult;
	try {
		const input =
			row.operation === 'createAndWait'
				? Array.from({ length: row.items }, (_, i) => ({ json: { prompt: prompt(i) } }))
				: (await createDirectly(sim, row.items)).map((id) => ({ json: { id } }));
		runStarted = Date.now();
		result = await runWorkflow(workflow(rowParameters(row)), {
			credentials: sim.credentials(),
			input,
			cancelAfterMs: ROW_LIMIT_MS,
		});
	} finally {
		peakRss = memory.stop();
	}
	const ended = Date.now();
	const output = checkRun(result, row.items);

	const requests = sim.requests.slice(from);
	const creates = requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos');
	if (creates.length !== row.items) throw new Error(`${creates.length} creates seen for ${row.items} items`);
	const createMs = creates[creates.length - 1].at - creates[0].at;
	const ids = output.map((item) => String(item.json.id));
	const longestMs = Math.max(...ids.map((id) => tasks.tasks.get(id)?.doneAfterMs ?? Number.NaN));
	const readsById = new Map(ids.map((id) => [id, 0]));
	for (const r of requests.filter(isTaskRead)) {
		const id = decodeURIComponent(r.path.slice('/v1/videos/'.length));
		if (readsById.has(id)) readsById.set(id, readsById.get(id)! + 1);
	}
	const reads = [...readsById.values()];
	const meanReads = reads.reduce((a, b) => a + b, 0) / reads.length;
	const maxReads = Math.max(...reads);
	const downloads = requests.filter(isDownload);
	const lastDownloadAt = Math.max(...downloads.map((r) => r.at));

	// Create and Wait counts from the run's start; Wait for Completion from its first create.
	const wallMs = ended - started;
	const targetMs = 1.5 * (longestMs + createMs);
	const met = wallMs <= targetMs && maxReads <= 4;
	const parts = [
		`wall ${seconds(wallMs)} s${row.operation === 'waitForCompletion' ? ` (from first create; run alone ${seconds(ended - runStarted!)} s)` : ''}`,
		`creates ${seconds(createMs)} s`,
		`longest task ${seconds(longestMs)} s`,
		`target <= ${seconds(targetMs)} s`,
		`last create to end ${seconds(ended - creates[creates.length - 1].at)} s`,
		`last download at ${seconds(lastDownloadAt - started)} s`,
		`reads/task mean ${meanReads.toFixed(2)} max ${maxReads} (min ${Math.min(...reads)})`,
		`downloads ${downloads.length}`,
		`peak RSS +${(peakRss / 2 ** 20).toFixed(0)} MB`,
		met
			? 'met'
			: `NOT met (${[wallMs > targetMs ? 'wall over target' : '', maxReads > 4 ? 'max reads over 4' : ''].filter(Boolean).join(', ')})`,
	];
	return { line: parts.join('; '), met };
}

function label(row: Row): string {
	const op = row.operation === 'createAndWait' ? 'Create and Wait (polling)' : 'Wait for Completion';
	const mc =
		row.maxConcurrency === undefined
			? 'default (Max Concurrent Requests 1)'
			: `Max Concurrent Requests ${row.maxConcurrency}`;
	return `${op}, ${row.items.toLocaleString('en-US')} items, ${mc}`;
}

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	videoTasks(sim).callbacksEnabled = false;
	try {
		// Warm-up: loads the node, the credential types and the HTTP agent (a plain Create of one item).
		const warm = await runWorkflow(workflow({ ...createFields, operation: 'create' }), {
			credentials: sim.credentials(),
			input: [{ json: { prompt: 'warm-up [after:100]' } }],
		});
		if (warm.status !== 'success') throw new Error(`warm-up failed: ${warm.error?.message}`);

		const figures: Record<string, string> = {};
		let unmet = 0;
		for (const row of ROWS) {
			const { line, met } = await measure(sim, row);
			figures[label(row)] = line;
			if (!met) unmet++;
		}
		figures['verdict (every row: wall <= 1.5 x (longest task + create time), max reads/task <= 4)'] =
			unmet === 0 ? `met in all ${ROWS.length} rows` : `NOT met in ${unmet} of ${ROWS.length} rows`;
		return { ...figures, ...BEFORE };
	} finally {
		await sim.stop();
		disposeHarness();
	}
}
