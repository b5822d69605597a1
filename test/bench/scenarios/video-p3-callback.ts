/**
 * P3: Create and Wait in callback mode. Three items, tasks of 2-3 s, and a
 * batch of 1,000 items, tasks of about 15 s, whose task list is too long for
 * the execution's custom data (kept as a file in the binary store); n8n is
 * the harness's https stand-in (test/harness/resume.ts), so the execution's
 * resume URL is https and the simulator's callbacks resume it. Reported: polls
 * (none: nothing reads on a timer), the reads of each task (once as the wait
 * begins; reads of a task still running, made by another task's final
 * callback that checks the batch; reads after it ended), downloads, and the worker time
 * held: time inside execute() plus time inside the webhook() calls (including
 * the resumed rest of the run), against the time the tasks took.
 */
import { runWorkflow } from '../../harness';
import { WaitingWebhookServer } from '../../harness/resume';
import { startSimulator } from '../../simulator';
import { videoTasks } from '../../simulator/video/tasks';
import { VIDEO_NODE, videoCallbackWorkflow } from '../../workflow/video-callback-workflow';

export const title = 'video Create and Wait, callback mode: polls and worker time held (3 and 1,000 items)';

/** One batch waited by callback: `taskMs[i]` is task i's length. */
async function batch(
	sim: Awaited<ReturnType<typeof startSimulator>>,
	n8n: WaitingWebhookServer,
	taskMs: number[],
	maxConcurrency: number,
): Promise<Record<string, string | number>> {
	const workflow = videoCallbackWorkflow({
		requestOptions: { maxConcurrency },
		waitOptions: { mode: 'callback', download: true },
	});
	const started = Date.now();
	const waiting = await runWorkflow(workflow, {
		credentials: sim.credentials(),
		input: taskMs.map((ms, n) => ({ json: { prompt: `bench ${n} [after:${ms}]` } })),
		instanceBaseUrl: n8n.url,
	});
	const executeEnded = Date.now();
	if (waiting.status !== 'waiting') throw new Error(`the execution did not wait: ${waiting.status}`);
	n8n.track(waiting);
	const done = await n8n.finished(waiting.executionId, 120_000);
	const totalMs = Date.now() - started;
	const ids = waiting.output(VIDEO_NODE).map((item) => String(item.json.id));
	const out = done.output(VIDEO_NODE);
	if (
		out.length !== ids.length ||
		!out.every((item) => item.json.status === 'completed' && item.binary?.data)
	) {
		throw new Error('not every item completed with its video');
	}
	const tasks = videoTasks(sim);
	let readsAsWaitBegan = 0;
	let readsOfRunningTasks = 0;
	let readsOfFinalTasks = 0;
	for (const id of ids) {
		const task = tasks.tasks.get(id)!;
		for (const read of sim.requestsTo(`/v1/videos/${id}`, 'GET')) {
			if (read.at <= executeEnded) readsAsWaitBegan++;
			else if (read.at < task.createdAt + task.doneAfterMs) readsOfRunningTasks++;
			else readsOfFinalTasks++;
		}
	}
	const downloads = ids.reduce((sum, id) => sum + sim.requestsTo(`/files/videos/${id}.mp4`, 'GET').length, 0);
	const mine = n8n.deliveries.filter((d) => d.executionId === waiting.executionId);
	// Callbacks are answered side by side: the time held is the time at least one answer was in progress.
	const spans = mine.map((d) => [d.endedAt - d.ms, d.endedAt]).sort((a, b) => a[0] - b[0]);
	let webhookMs = 0;
	let coveredTo = 0;
	for (const [from, to] of spans) {
		if (to > coveredTo) webhookMs += to - Math.max(from, coveredTo);
		coveredTo = Math.max(coveredTo, to);
	}
	const executeMs = executeEnded - started;
	// The callback that resumed the execution answered once the rest of the run was over.
	const resumedMs = mine.find((d) => d.resumed)?.ms ?? 0;
	const perTask = (n: number) => (n / ids.length).toFixed(2);
	return {
		'execution status': `${waiting.status} -> ${done.status}`,
		'custom data kept': Object.values(waiting.runExecutionData.resultData.metadata ?? {})
			.map((value) => (String(value).startsWith('file:') ? 'a file id' : `${String(value).length} chars`))
			.join(', '),
		'reads per task: as the wait began / of running tasks (callback scans) / after final': `${perTask(readsAsWaitBegan)} / ${perTask(readsOfRunningTasks)} / ${perTask(readsOfFinalTasks)}`,
		'downloads per task': perTask(downloads),
		'callbacks received': mine.length,
		'worker time: execute() + the resumed run (ms)': `${executeMs} + ${resumedMs}`,
		// n8n's webhook handler: the main or webhook process in queue mode, never a worker.
		'time with a callback being answered (ms)': webhookMs,
		'longest task (ms)': Math.max(...taskMs),
		'execution start to end (ms)': totalMs,
		'worker time held / wall time': `${(((executeMs + resumedMs) / totalMs) * 100).toFixed(1)} %`,
	};
}

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	const n8n = await WaitingWebhookServer.start(sim.credentials());
	try {
		const small = await batch(sim, n8n, [3000, 2000, 2500], 3);
		const large = await batch(
			sim,
			n8n,
			Array.from({ length: 1000 }, (_, n) => 15_000 + (n % 10) * 100),
			50,
		);
		return {
			...Object.fromEntries(Object.entries(small).map(([key, value]) => [`3 items: ${key}`, value])),
			...Object.fromEntries(Object.entries(large).map(([key, value]) => [`1,000 items: ${key}`, value])),
		};
	} finally {
		await n8n.stop();
		await sim.stop();
	}
}
