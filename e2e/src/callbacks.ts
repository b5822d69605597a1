/**
 * Queue mode, the callback wait as a gateway meets it: Video → Create and
 * Wait (callback mode, 3 items) in a real n8n with a main process, a worker
 * and a dedicated webhook process (`n8n webhook`), and no resume ever lost.
 *
 * The simulator's own callback posting is off here: the suite ends each task
 * at the simulator itself, then posts the task's final callback (the record
 * `GET /v1/videos/{id}` answers, as the simulator would send it) to the
 * process it chooses, retrying a 503 after its Retry-After as a gateway would.
 *
 *   split     the three final callbacks go to webhook, main, webhook; the
 *             last is answered 503 once (gateway reads stale for longer than
 *             the node's confirmation window) and retried
 *   early     one task's final callback arrives before n8n has saved the
 *             execution as waiting (n8n refuses it and nobody sends it again)
 *   restart   main and webhook processes are restarted while the execution
 *             waits; the callbacks come after the restart
 */
import { videoTasks } from '../../test/simulator/video/tasks';
import {
	checkOutput,
	finishAndDeliver,
	NEVER_MS,
	report,
	startWait,
	TASK_READ,
	tasksOf,
	waitingNow,
	type Processes,
	type Run,
} from './callbackDelivery';
import { waitFor } from './proc';
import type { Context } from './workflows';

export async function runCallbackScenarios(ctx: Context, procs: Processes): Promise<void> {
	const tasks = videoTasks(ctx.sim);
	const wasEnabled = tasks.callbacksEnabled;
	tasks.callbacksEnabled = false;
	const scenarios: Array<[string, (ctx: Context, procs: Processes) => Promise<void>]> = [
		['final callbacks split between the webhook process and main, one 503 retried', splitDelivery],
		['a final callback before the execution is waiting', earlyCallback],
		['main and webhook processes restarted while the execution waits', restartWhileWaiting],
	];
	try {
		for (const [title, scenario] of scenarios) {
			ctx.checks.begin(`queue mode, callback wait: ${title}`);
			try {
				await scenario(ctx, procs);
			} catch (error) {
				ctx.checks.broke(title, error);
			}
		}
	} finally {
		// The suite delivered (or gave up on) these tasks: the simulator must not post them later.
		for (const task of tasks.tasks.values()) {
			if (task.doneAfterMs === NEVER_MS) tasks.endNow(task);
			task.notified = tasks.status(task);
		}
		tasks.callbacksEnabled = wasEnabled;
	}
}

/** 2 final callbacks to the webhook process, 1 to main; the last one first meets stale reads (8 s of them). */
async function splitDelivery(ctx: Context, procs: Processes): Promise<void> {
	const run = await startWait(ctx, 'callback-split');
	await waitingNow(ctx, run);
	const [first, second, third] = await tasksOf(ctx.sim, run);
	await finishAndDeliver(ctx, procs, run, 0, first, 'webhook');
	await finishAndDeliver(ctx, procs, run, 1, second, 'main');
	// Its reads after it ended still say in_progress, the callback's own and the three of its
	// confirmation window: the node must answer 503, not 200.
	videoTasks(ctx.sim).staleReads.set(third.id, 4);
	await finishAndDeliver(ctx, procs, run, 2, third, 'webhook');
	const record = await report(ctx, procs, run);
	const answers = run.deliveries.map((d) => `${d.target}:${d.status}`);
	ctx.checks.equal(`${run.name}: answers in order`, answers, [
		'webhook:200',
		'main:200',
		'webhook:503',
		'webhook:200',
	]);
	ctx.checks.ok(
		`${run.name}: the webhook process resumed it (its second delivery of task 3)`,
		/"resumed":\s*true/.test(run.deliveries.at(-1)?.answer ?? ''),
		run.deliveries.at(-1)?.answer,
	);
	if (record) await checkOutput(ctx, run, record);
}

/**
 * A task ends while the node is still reading the tasks it created (the
 * simulator holds that read): its final callback reaches n8n before the
 * execution is saved as waiting, n8n refuses it with a 4xx (seen: 401
 * "Invalid token" or 409 "running already", depending on what n8n has saved
 * of the execution by then), and a gateway does not send a refused callback
 * again. Task 1 must be known final from the read the node makes of every
 * task as the wait begins.
 */
async function earlyCallback(ctx: Context, procs: Processes): Promise<void> {
	const { sim, checks } = ctx;
	const gate = sim.hold(TASK_READ);
	let run: Run;
	try {
		run = await startWait(ctx, 'callback-early');
		await waitFor(
			'the node to read its first task (held)',
			() => (gate.waiting > 0 ? true : undefined),
			120_000,
		);
		const [first] = await tasksOf(sim, run);
		const before = (await ctx.n8n.execution(run.executionId)).status;
		await finishAndDeliver(ctx, procs, run, 0, first, 'webhook');
		const after = (await ctx.n8n.execution(run.executionId)).status;
		const early = run.deliveries[0];
		checks.note(`${run.name}: execution status ${before} before and ${after} after the early callback`);
		checks.ok(`${run.name}: the execution was not waiting yet`, before !== 'waiting' && after !== 'waiting', {
			before,
			after,
		});
		checks.ok(
			`${run.name}: n8n refused the early callback with a 4xx (a gateway does not send it again)`,
			early.status >= 400 && early.status < 500,
			`${early.status} ${early.answer}`,
		);
	} finally {
		gate.open();
	}
	await waitingNow(ctx, run);
	const [first, second, third] = await tasksOf(sim, run);
	const firstRead = videoTasks(sim).reads.find((r) => r.id === first.id);
	checks.equal(
		`${run.name}: the read as the wait began saw task 1 completed`,
		firstRead?.status,
		'completed',
	);
	await finishAndDeliver(ctx, procs, run, 1, second, 'main');
	await finishAndDeliver(ctx, procs, run, 2, third, 'webhook');
	const record = await report(ctx, procs, run);
	if (record) await checkOutput(ctx, run, record);
}

/** The execution waits; main and webhook processes stop and start again; then the callbacks come. */
async function restartWhileWaiting(ctx: Context, procs: Processes): Promise<void> {
	const { checks } = ctx;
	const run = await startWait(ctx, 'callback-restart');
	await waitingNow(ctx, run);
	const pids = () => `main pid ${procs.main.proc?.child.pid}, webhook pid ${procs.webhook.proc?.child.pid}`;
	checks.note(`${run.name}: before the restart: ${pids()}`);
	await checks.timed('queue: main and webhook restart', async () => {
		await Promise.all([procs.webhook.stop(), procs.main.stop()]);
		await procs.main.start();
		await procs.webhook.start();
	});
	await procs.main.login();
	checks.note(
		`${run.name}: after the restart: ${pids()} (same ports ${procs.main.port}, ${procs.webhook.port})`,
	);
	checks.equal(
		`${run.name}: n8n still reports the execution waiting after the restart`,
		(await procs.main.execution(run.executionId)).status,
		'waiting',
	);
	const [first, second, third] = await tasksOf(ctx.sim, run);
	await finishAndDeliver(ctx, procs, run, 0, first, 'main');
	await finishAndDeliver(ctx, procs, run, 1, second, 'webhook');
	await finishAndDeliver(ctx, procs, run, 2, third, 'main');
	const record = await report(ctx, procs, run);
	if (record) await checkOutput(ctx, run, record);
}
