/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The steps of the queue-mode callback scenarios (callbacks.ts): a callback wait started and seen
 * waiting, its tasks ended at the simulator, each final callback posted to the process a scenario
 * names (a 503 retried after its Retry-After, as a gateway does), and the checks of what came of it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import { videoTasks, type SimTask, type VideoTasks } from '../../test/simulator/video/tasks';
import { checkExecution } from './examples';
import { http } from './http';
import type { ExecutionRecord, Item } from './executions';
import { outputOf, type N8n } from './n8n';
import { outputDir, sleep, waitFor } from './proc';
import { CREATE_AND_WAIT, callbackWorkflow, countEach, type Context, type Workflow } from './workflows';

export interface Processes {
	main: N8n;
	webhook: N8n;
	worker: N8n;
}

export type Target = 'main' | 'webhook';

export const ITEMS = 3;
/** Tasks never end on their own within a run: the suite ends each one when the scenario says. */
export const NEVER_MS = 600_000;
/** Deliveries of one callback at most (a gateway retries a 503, not forever). */
export const MAX_ATTEMPTS = 4;
/** The node asks for 30 s; the test does not need to wait that long to prove the retry. */
export const RETRY_AFTER_CAP_MS = 2000;

/** One POST of a final callback and what the process answered. */
export interface Delivery {
	item: number;
	task: string;
	target: Target;
	attempt: number;
	status: number;
	retryAfter?: string;
	answer: string;
}

/** One scenario's run: its execution and where the simulator's request log stood when it began. */
export interface Run {
	name: string;
	workflow: Workflow;
	workflowId: string;
	executionId: string;
	requestsBefore: number;
	deliveries: Delivery[];
	/** The n8n whose resume URLs the tasks carry: execution ids repeat across the suite's n8n instances. */
	n8nUrl: string;
}

export const TASK_READ = /^\/v1\/videos\/[^/]+$/;

/** A new workflow (so its executions can be counted alone), run manually: 3 tasks that do not end. */
export async function startWait(ctx: Context, name: string): Promise<Run> {
	const workflow = callbackWorkflow(ctx.credentials, ITEMS, NEVER_MS);
	workflow.name = `${workflow.name} (${name})`;
	const created = await ctx.n8n.createWorkflow(workflow);
	const requestsBefore = ctx.sim.requests.length;
	const executionId = await ctx.n8n.runManually(created.id, 'Start');
	ctx.checks.note(`${name}: workflow ${created.id}, execution ${executionId}`);
	return {
		name,
		workflow,
		workflowId: created.id,
		executionId,
		requestsBefore,
		deliveries: [],
		n8nUrl: ctx.n8n.url,
	};
}

export async function waitingNow(ctx: Context, run: Run): Promise<void> {
	const record = await ctx.n8n.waitExecution(run.executionId, 120_000, [
		'waiting',
		'success',
		'error',
		'crashed',
	]);
	ctx.checks.equal(`${run.name}: the execution waits for the callbacks`, record.status, 'waiting');
}

/**
 * The execution's tasks at the simulator, in item order: their callback address names the execution on
 * this run's n8n (an earlier part's n8n may have had an execution with the same id).
 */
export async function tasksOf(sim: Simulator, run: Run): Promise<SimTask[]> {
	// Each wait's own address: the execution's resume URL with /video-wait.
	const resume = new URL(`/webhook-waiting/${run.executionId}/video-wait`, run.n8nUrl);
	return await waitFor(
		`the ${ITEMS} tasks of execution ${run.executionId}`,
		() => {
			const found = [...videoTasks(sim).tasks.values()].filter((t) => {
				if (t.callbackUrl === undefined) return false;
				const url = new URL(t.callbackUrl);
				return url.host === resume.host && url.pathname === resume.pathname;
			});
			return found.length === ITEMS ? found.sort((a, b) => itemOf(a) - itemOf(b)) : undefined;
		},
		60_000,
	);
}

export const itemOf = (task: SimTask) => Number(/Callback item (\d+)/.exec(task.prompt)?.[1] ?? 0);

/** Ends the task at the simulator, then delivers its final callback to `target`. */
export async function finishAndDeliver(
	ctx: Context,
	procs: Processes,
	run: Run,
	item: number,
	task: SimTask,
	target: Target,
): Promise<void> {
	const tasks = videoTasks(ctx.sim);
	tasks.endNow(task);
	await deliver(tasks, procs, run, item, task, target);
}

/**
 * Posts the task's final callback to the resume URL the node gave the task,
 * on the chosen process. A 503 is sent again after its Retry-After (capped),
 * a refused connection after a second, at most MAX_ATTEMPTS times in all.
 */
export async function deliver(
	tasks: VideoTasks,
	procs: Processes,
	run: Run,
	item: number,
	task: SimTask,
	target: Target,
): Promise<void> {
	const resumeUrl = new URL(task.callbackUrl!);
	const url = `${procs[target].url}${resumeUrl.pathname}${resumeUrl.search}`;
	const body = tasks.record(task);
	for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
		let delivery: Delivery;
		try {
			const answer = await http(url, { method: 'POST', body, timeoutMs: 120_000 });
			const retryAfter = answer.headers['retry-after'];
			delivery = {
				item,
				task: task.id,
				target,
				attempt,
				status: answer.status,
				retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
				answer: answer.text().slice(0, 300),
			};
		} catch (error) {
			delivery = { item, task: task.id, target, attempt, status: 0, answer: (error as Error).message };
		}
		run.deliveries.push(delivery);
		if (delivery.status !== 0 && delivery.status !== 503) return;
		const hinted = Number(delivery.retryAfter) * 1000;
		await sleep(Number.isFinite(hinted) && hinted > 0 ? Math.min(hinted, RETRY_AFTER_CAP_MS) : 1000);
	}
}

/**
 * Waits for the end of the execution and checks what the gateway and n8n saw:
 * creates, reads, downloads, the answers by status and by process, the
 * executions of the workflow, where the resume ran. Returns the record.
 */
export async function report(ctx: Context, procs: Processes, run: Run): Promise<ExecutionRecord | undefined> {
	const { checks, sim, n8n } = ctx;
	let record: ExecutionRecord | undefined;
	try {
		record = await n8n.waitExecution(run.executionId, 120_000);
	} catch (error) {
		checks.broke(`${run.name}: execution ${run.executionId} did not finish (a lost resume?)`, error);
	}
	const seen = sim.requests.slice(run.requestsBefore);
	const creates = seen.filter((r) => r.method === 'POST' && r.path === '/v1/videos');
	// This run's tasks only: the worker still watches the tasks of the scenarios before.
	const own = new Set((await tasksOf(sim, run)).map((t) => `/v1/videos/${t.id}`));
	const reads = seen.filter((r) => r.method === 'GET' && own.has(r.path));
	const watchRounds = Math.floor(((seen.at(-1)?.at ?? Date.now()) - (seen[0]?.at ?? Date.now())) / 30_000);
	const downloads = seen.filter((r) => r.method === 'GET' && r.path.startsWith('/files/videos/'));
	const executions = await n8n.executions(run.workflowId);
	const lost = record?.status === 'success' ? 0 : 1;
	const dir = join(outputDir, 'queue', run.name);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'deliveries.json'), JSON.stringify(run.deliveries, null, 2));
	for (const d of run.deliveries) {
		checks.note(
			`${run.name}: item ${d.item + 1} ${d.task} -> ${d.target} (attempt ${d.attempt}): ${d.status}${d.retryAfter ? ` Retry-After ${d.retryAfter}` : ''} ${d.answer}`,
		);
	}
	checks.note(
		`${run.name}: ${creates.length} creates, ${reads.length} task reads (${countEach(reads.map((r) => r.path.split('/').pop()!))}), ${downloads.length} downloads; answers by status: ${countEach(run.deliveries.map((d) => String(d.status)))}; by process: ${countEach(run.deliveries.map((d) => `${d.target}:${d.status}`))}; ${executions.length} execution(s); lost resumes: ${lost}`,
	);
	checks.equal(`${run.name}: tasks created`, creates.length, ITEMS);
	// Each task is read once as the wait begins, at most once by each callback, and once every 30 s by
	// the worker that watches the wait in case a callback is lost.
	checks.ok(
		`${run.name}: task reads between ${ITEMS} and ${ITEMS} + ${ITEMS} per delivery and per 30 s of the wait`,
		reads.length >= ITEMS && reads.length <= ITEMS * (1 + run.deliveries.length + watchRounds),
		{ reads: reads.length, watchRounds },
	);
	const videos = (await tasksOf(sim, run)).map((t) => `/files/videos/${t.id}.mp4`);
	checks.equal(`${run.name}: videos downloaded`, downloads.length, ITEMS);
	checks.equal(
		`${run.name}: each task's video downloaded once`,
		downloads.map((r) => r.path).sort(),
		videos.sort(),
	);
	const bad = run.deliveries.filter((d) => d.status >= 500 && !(d.status === 503 && d.retryAfter));
	checks.ok(`${run.name}: no callback answered 5xx but a 503 with Retry-After`, bad.length === 0, bad);
	const unanswered = run.deliveries.filter((d) => d.status === 0);
	checks.ok(`${run.name}: every delivery got an answer`, unanswered.length === 0, unanswered);
	const lastOfEach = [...new Map(run.deliveries.map((d) => [d.task, d])).values()];
	checks.ok(
		`${run.name}: every callback's last delivery was answered below 500 (none left to retry)`,
		lastOfEach.every((d) => d.status > 0 && d.status < 500),
		lastOfEach.map((d) => `${d.task}:${d.status}`),
	);
	checks.equal(`${run.name}: one execution of the workflow`, executions.length, 1);
	checks.equal(`${run.name}: lost resumes`, lost, 0);
	const started = (procs.worker.proc?.log() ?? '')
		.split('\n')
		.filter((l) => l.includes(`Worker started execution ${run.executionId} (`)).length;
	checks.ok(`${run.name}: the worker ran the execution and then its resume`, started >= 2, started);
	return record;
}

/** One item per input, in order, each its own task completed, with its video, waited by callback, no polls. */
export async function checkOutput(ctx: Context, run: Run, record: ExecutionRecord): Promise<void> {
	const { checks, sim } = ctx;
	await checkExecution(ctx, run.name, run.workflow, record);
	const output = outputOf(record, CREATE_AND_WAIT);
	const tasks = await tasksOf(sim, run);
	const paired = (item: Item) => (item.pairedItem as { item?: number } | undefined)?.item;
	checks.equal(`${run.name}: one item per input, in order`, output.map(paired), [0, 1, 2]);
	checks.equal(
		`${run.name}: item i is task i`,
		output.map((i) => i.json.id),
		tasks.map((t) => t.id),
	);
	checks.ok(
		`${run.name}: every item completed, with its video`,
		output.length === ITEMS &&
			output.every((i) => i.json.status === 'completed' && i.binary?.data !== undefined),
		output.map((i) => ({ status: i.json.status, binary: Object.keys(i.binary ?? {}) })),
	);
	checks.ok(
		`${run.name}: every item waited by callback, with no polls`,
		output.every((i) => {
			const info = i.json.waitInfo as { mode?: string; polls?: number } | undefined;
			return info?.mode === 'callback' && info.polls === 0;
		}),
		output.map((i) => i.json.waitInfo),
	);
	checks.equal(
		`${run.name}: the node ran once in the record (resumed once)`,
		record.data.resultData.runData[CREATE_AND_WAIT]?.length,
		1,
	);
}
