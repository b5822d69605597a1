/**
 * Queue mode with two webhook processes, and a gateway that sends each callback twice at once, a copy
 * to each process (an at-least-once sender behind a balancer): the worst case for a second resume.
 * Several executions of one task each wait by callback; every task ends in one instant.
 *
 * n8n 2.x claims a waiting execution in its database before it resumes it: one resume each, always.
 * n8n 1.123 resumes without that claim, so both processes may resume the same execution; the package
 * holds one resume per process, so at most two. The run counts them (the worker's log: each resume is
 * a job it starts), and checks that every execution still ends with its video.
 */
import { videoTasks } from '../../test/simulator/video/tasks';
import { startWaits } from './callbackWait';
import { outputOf } from './n8n';
import { waitFor } from './proc';
import type { PackagedN8n } from './start';
import { CREATE_AND_WAIT, callbackWaitOf, countEach, holdTaskEnds } from './workflows';

const EXECUTIONS = 8;
const FINAL = ['completed', 'failed', 'expired', 'cancelled'];

/** `claims`: whether this n8n claims an execution before resuming it (2.x), so one resume is required. */
export async function runDoubleResume(ctx: PackagedN8n, { claims }: { claims: boolean }): Promise<void> {
	const { n8n, sim, checks, webhooks } = ctx;
	const worker = ctx.worker!;
	const name = `double-callbacks (${EXECUTIONS} executions, each final callback to ${webhooks.length} webhook processes at once)`;
	const tasks = videoTasks(sim);
	const saved = {
		timeout: tasks.callbackTimeoutMs,
		second: tasks.secondCallbacks,
		route: tasks.routeCallback,
	};
	tasks.callbackTimeoutMs = 10_000;
	tasks.secondCallbacks = { kind: 'off' };
	tasks.routeCallback = (url) =>
		webhooks.map((process) => {
			const target = new URL(url);
			target.port = String(process.port);
			return target.toString();
		});
	const startsOf = (id: string) =>
		worker
			.proc!.log()
			.split('\n')
			.filter((line) => line.includes(`Worker started execution ${id} (`)).length;
	const deliveriesBefore = tasks.deliveries.length;
	const held = holdTaskEnds(sim);
	let released = false;
	const release = () => {
		if (!released) held.release();
		released = true;
	};
	try {
		const workflow = callbackWaitOf(
			ctx.credentials,
			`Double callbacks ${Date.now()}`,
			[`Double callbacks [at:${held.endsAt}]`],
			5,
		);
		const created = await n8n.createWorkflow(workflow);
		const { ids, taskIds } = await startWaits(ctx, name, created.id, EXECUTIONS);
		const startsBefore = new Map(ids.map((id) => [id, startsOf(id)]));
		release();
		const records = await Promise.all(ids.map(async (id) => await n8n.waitExecution(id, 120_000)));
		// Every copy answered: each process has handed its resume to n8n, or not, by now.
		const finals = () =>
			tasks.deliveries
				.slice(deliveriesBefore)
				.filter((d) => FINAL.includes(d.status) && taskIds.includes(d.id));
		await waitFor(
			'every copy of the final callbacks answered',
			() => (finals().length >= taskIds.length * webhooks.length ? true : undefined),
			60_000,
		);
		checks.note(
			`${name}: answers to the final callbacks: ${countEach(finals().map((d) => `${d.httpStatus ?? d.error}`))}`,
		);
		// A resume handed over is a job the worker starts; wait for the jobs under way to be logged.
		const resumes = () => ids.map((id) => startsOf(id) - startsBefore.get(id)!);
		const settled = await waitFor(
			"the worker's jobs for these executions",
			() => {
				const log = worker.proc!.log();
				const open = ids.some(
					(id) =>
						log.split(`Worker started execution ${id} (`).length !==
						log.split(`Worker finished execution ${id} (`).length,
				);
				return open ? undefined : resumes();
			},
			60_000,
		);
		checks.equal(
			`${name}: every execution ends with its video`,
			records.map((record) => [record.status, outputOf(record, CREATE_AND_WAIT)[0]?.json.status]),
			ids.map(() => ['success', 'completed']),
		);
		const twice = settled.filter((count) => count > 1).length;
		checks.note(
			`${name}: resumes per execution (worker jobs after the wait): ${settled.join(', ')}; resumed twice: ${twice} of ${EXECUTIONS}`,
		);
		if (claims)
			checks.equal(
				`${name}: each execution resumed once (n8n claims it before a resume)`,
				settled,
				ids.map(() => 1),
			);
		else
			checks.ok(
				`${name}: each execution resumed, at most once per webhook process (n8n 1.123 has no claim: counted)`,
				settled.every((count) => count >= 1 && count <= webhooks.length),
				settled,
			);
	} finally {
		tasks.callbackTimeoutMs = saved.timeout;
		tasks.secondCallbacks = saved.second;
		tasks.routeCallback = saved.route;
		release();
	}
}
