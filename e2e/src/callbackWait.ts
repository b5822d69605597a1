/**
 * Create and Wait by callback in a real n8n: several items, their tasks ending after a while or all
 * in one instant (a burst of final callbacks), checked from n8n's execution record and the
 * simulator's requests; and a wait whose Wait Timeout passes first.
 */
import { videoTasks } from '../../test/simulator/video/tasks';
import { checkExecution, pairedIndex } from './examples';
import type { ExecutionRecord } from './executions';
import { whoAnswered5xx } from './finalAnswers';
import { outputOf } from './n8n';
import {
	CREATE_AND_WAIT,
	callbackPrompt,
	callbackWaitOf,
	callbackWorkflow,
	countEach,
	holdTaskEnds,
	type Context,
} from './workflows';

/**
 * Create and Wait by callback whose Wait Timeout (1 minute) passes before its tasks end: n8n's
 * WaitTracker resumes the execution at the deadline without running the node and passes the
 * node's items through; each must still name its task, say what happened and what to run next,
 * while the node before keeps its own output.
 */
export async function runCallbackTimeout(ctx: Context): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const name = 'callback-timeout';
	const marker = `timeout-${Date.now()}`;
	const prompts = [0, 1].map((i) => `${marker} ${i} [after:3600000]`);
	const workflow = callbackWaitOf(
		ctx.credentials,
		'Create and Wait, callback mode, Wait Timeout 1 minute',
		prompts,
		1,
	);
	const created = await n8n.createWorkflow(workflow);
	const executionId = await n8n.runManually(created.id, 'Start');
	const waiting = await n8n.waitExecution(executionId, 120_000, ['waiting', 'success', 'error', 'crashed']);
	checks.equal(`${name}: the execution waits for the callbacks`, waiting.status, 'waiting');
	// n8n's WaitTracker looks for due executions once a minute: the resume comes 1 to 2 minutes later.
	const record = await n8n.waitExecution(executionId, 240_000);
	checks.equal(`${name}: the execution went on at its Wait Timeout`, record.status, 'success');
	const ids = [...videoTasks(sim).tasks.values()]
		.filter((task) => task.prompt.includes(marker))
		.map((task) => task.id);
	const output = outputOf(record, CREATE_AND_WAIT);
	checks.equal(
		`${name}: one item per task, each naming its task id`,
		output.map((item) => item.json.id),
		ids,
	);
	for (const [index, item] of output.entries()) {
		const waitInfo = item.json.waitInfo as { state?: string } | undefined;
		checks.equal(`${name}[${index}]: waitInfo.state`, waitInfo?.state, 'timed out');
		checks.ok(
			`${name}[${index}]: the error says the wait reached its Wait Timeout, and what to run with the task id`,
			String(item.json.error).includes('Wait Timeout (1 min)') &&
				String(item.json.errorDescription).includes(`Wait for Completion with task ID ${String(ids[index])}`),
			{ error: item.json.error, errorDescription: item.json.errorDescription },
		);
	}
	checks.equal(
		`${name}: the node before keeps its own output (no task id on its items)`,
		outputOf(record, 'One Item per Prompt').map((item) => Object.keys(item.json)),
		[['prompts'], ['prompts']],
	);
}

/**
 * A callback wait of `items` tasks, each ending `afterMs` after its create, or (`together`) all in
 * one instant once the execution waits: a burst of final callbacks, each of which makes n8n's route
 * load the execution from its database. The simulator's clock stands still until n8n reports the
 * execution waiting, so that no final callback comes before (n8n would refuse it, and a gateway
 * does not send it again), however long the creates take. The execution resumes once with every
 * item in order, and nothing polls. `processes`: the n8n processes that take the callbacks.
 */
export async function runCallbackWait(
	ctx: Context,
	items = 3,
	afterMs = 2500,
	together = false,
	processes = 1,
): Promise<ExecutionRecord> {
	const { n8n, sim, checks } = ctx;
	const name = `callback-wait-${items}-items`;
	const held = together ? holdTaskEnds(sim) : undefined;
	const endsAt = held?.endsAt;
	const workflow = callbackWorkflow(ctx.credentials, items, afterMs, endsAt);
	const created = await n8n.createWorkflow(workflow);
	const tasks = videoTasks(sim);
	const requestsBefore = sim.requests.length;
	const deliveriesBefore = tasks.deliveries.length;
	let waiting: ExecutionRecord;
	let executionId: string;
	try {
		executionId = await n8n.runManually(created.id, 'Start');
		waiting = await n8n.waitExecution(executionId, 120_000, ['waiting', 'success', 'error', 'crashed']);
	} finally {
		const burst = held?.release();
		if (burst) checks.note(`${name}: every task ends now, in one instant (${new Date(burst).toISOString()})`);
	}
	checks.equal(`${name}: the execution waits for the callbacks`, waiting.status, 'waiting');
	// Beyond about 25 tasks per custom data entry, the task list is kept as a file in n8n's binary data
	// store and one entry holds its id.
	const kept = Object.entries(waiting.data.resultData.metadata ?? {}).filter(([key]) =>
		key.startsWith('ggvideo_'),
	);
	checks.note(
		`${name}: custom data while waiting: ${kept.map(([key, value]) => `${key}=${value.slice(0, 80)}`).join(', ')}`,
	);
	if (items > 100) {
		checks.ok(
			`${name}: the task list is kept as a file, one custom data entry points to it`,
			kept.length === 1 && kept[0][1].startsWith('file:'),
			kept,
		);
	}
	let record: ExecutionRecord | undefined;
	let failure: unknown;
	try {
		record = await n8n.waitExecution(executionId, Math.max(60_000, items * 500));
	} catch (error) {
		failure = error;
	}
	const seen = sim.requests.slice(requestsBefore);
	const created_ = seen.filter((r) => r.method === 'POST' && r.path === '/v1/videos');
	const reads = seen.filter((r) => r.method === 'GET' && /^\/v1\/videos\/[^/]+$/.test(r.path));
	const downloads = seen.filter((r) => r.method === 'GET' && r.path.startsWith('/files/videos/'));
	const deliveries = tasks.deliveries.slice(deliveriesBefore);
	checks.note(
		`${name}: simulator saw ${created_.length} creates, ${reads.length} task reads, ${downloads.length} downloads; ${deliveries.length} callback deliveries (${countEach(deliveries.map((d) => `${d.status}->${d.httpStatus ?? d.error}`))})`,
	);
	if (endsAt !== undefined) {
		// A burst: how fast n8n and the node answered the final callbacks that came together.
		const finals = deliveries.filter(
			(d) => d.attempt === 1 && !['pending', 'queue', 'in_progress'].includes(d.status),
		);
		const took = finals.map((d) => d.tookMs ?? 0).sort((a, b) => a - b);
		const at = (q: number) => took[Math.min(took.length - 1, Math.ceil(q * took.length) - 1)] ?? 0;
		checks.note(
			`${name}: first answers to the ${finals.length} final callbacks: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${took.at(-1) ?? 0} ms; by route ${countEach(finals.map((d) => `${new URL(d.url).port}->${d.httpStatus ?? d.error}`))}`,
		);
		// Every final callback answered 5xx must be one the gateway is asked to send again, or n8n's torn
		// read of an execution another callback resumed (whoAnswered5xx); the checks below prove that
		// one resumed (one execution, every item its video). How many answers came after the sender's
		// 10 s is the machine's and n8n's speed, noted above (bench P15).
		const failed = deliveries.filter(
			(d) => !['pending', 'queue', 'in_progress'].includes(d.status) && (d.httpStatus ?? 0) >= 500,
		);
		if (failed.length)
			checks.note(`${name}: final callbacks answered 5xx: ${countEach(failed.map(whoAnswered5xx))}`);
		checks.equal(
			`${name}: every final callback answered 5xx was asked to come again (the node's 503 + Retry-After, n8n's database-not-ready 503) or came while another process resumed the execution`,
			failed.filter((d) => whoAnswered5xx(d).startsWith('other')).map((d) => `${d.id}: ${whoAnswered5xx(d)}`),
			[],
		);
	}
	if (!record) throw failure;
	await checkExecution(ctx, name, workflow, record);
	const output = outputOf(record, CREATE_AND_WAIT);
	const ids = created_.map((_, i) => i);
	checks.equal(`${name}: one item per input, in order`, output.map(pairedIndex), ids);
	checks.equal(
		`${name}: item i is the task created for prompt i`,
		output.map((i) => i.json.prompt),
		Array.from({ length: items }, (_, i) => callbackPrompt(i, afterMs, endsAt)),
	);
	checks.ok(
		`${name}: every item waited by callback, with no polls`,
		output.every(
			(i) =>
				(i.json.waitInfo as { mode?: string; polls?: number })?.mode === 'callback' &&
				(i.json.waitInfo as { polls?: number }).polls === 0,
		),
		output.map((i) => i.json.waitInfo),
	);
	checks.equal(`${name}: one execution only`, (await n8n.executions(created.id)).length, 1);
	checks.note(
		`${name}: runs of the node in the record: ${record.data.resultData.runData[CREATE_AND_WAIT]?.length}`,
	);
	if (processes === 1) {
		checks.equal(`${name}: each video downloaded once`, downloads.length, items);
	} else {
		// Processes share no memory: each may claim the resume and download (n8n keeps one resume).
		const perVideo = countEach(downloads.map((d) => d.path));
		checks.ok(
			`${name}: each video downloaded at least once and at most once per webhook process (${processes})`,
			new Set(downloads.map((d) => d.path)).size === items &&
				[...perVideo.matchAll(/×(\d+)/g)].every(([, n]) => Number(n) <= processes),
			`${downloads.length} downloads`,
		);
	}
	return record;
}

/**
 * Runs a callback-wait workflow (callbackWaitOf) `count` times by hand and checks, as `name`, that each
 * execution then waits for its callback: the executions, their records as they wait, and the task each
 * one waits for.
 */
export async function startWaits(
	{ n8n, checks }: Pick<Context, 'n8n' | 'checks'>,
	name: string,
	workflowId: string,
	count: number,
): Promise<{ ids: string[]; waiting: ExecutionRecord[]; taskIds: string[] }> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) ids.push(await n8n.runManually(workflowId, 'Start'));
	const waiting = await Promise.all(
		ids.map(async (id) => await n8n.waitExecution(id, 120_000, ['waiting', 'success', 'error', 'crashed'])),
	);
	checks.equal(
		`${name}: every execution waits for its callback`,
		waiting.map((record) => record.status),
		ids.map(() => 'waiting'),
	);
	const taskIds = waiting.map((record) => String(outputOf(record, CREATE_AND_WAIT)[0]?.json.id ?? ''));
	return { ids, waiting, taskIds };
}
