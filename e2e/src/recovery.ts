/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Waits left behind, in a real n8n (one instance, or queue mode with a worker and a webhook
 * process): five executions of one video each wait by callback, then n8n stops (every process), the
 * tasks end while it is down (the gateway's only final callbacks are refused: nothing listens), and
 * n8n starts again. The watches that would have brought the news died with their processes; the
 * shipped example (examples/video-recover-waits.json, Schedule Trigger every minute → Video Wait →
 * Recover Waits), active in that n8n with n8n's API key, finds the waits in n8n's records and each
 * resumes once with its video.
 */
import { join } from 'node:path';

import { videoTasks } from '../../test/simulator/video/tasks';
import { startWaits } from './callbackWait';
import { N8N_VERSION, outputOf } from './n8n';
import { waitFor } from './proc';
import { startN8n, type PackagedN8n, type PartInput } from './start';
import { CREATE_AND_WAIT, callbackWaitOf, examplesDir, holdTaskEnds, loadWorkflow } from './workflows';

const WAITS = 5;
const FINAL = ['completed', 'failed', 'expired', 'cancelled'];
/** n8n up, a pass at the next minute, the resumes: the promise is "within a couple of minutes". */
const RECOVERED_WITHIN_MS = 180_000;

/** Every process of this n8n stopped, then started again on the same ports (main first, as a deployment does). */
export async function stopAll(ctx: PackagedN8n): Promise<void> {
	for (const process of [...ctx.webhooks, ...(ctx.worker ? [ctx.worker] : []), ctx.n8n]) await process.stop();
}

export async function startAll(ctx: PackagedN8n): Promise<void> {
	for (const process of [ctx.n8n, ...(ctx.worker ? [ctx.worker] : []), ...ctx.webhooks])
		await process.start();
	await ctx.n8n.login();
}

/**
 * The execution once it has finished and its data is saved. n8n 1.123, starting, marks every
 * execution its event log saw begin and not end "crashed" and, a moment later, "waiting" again
 * when it still waits: a crashed execution with a Wait Timeout set has not ended. n8n 1.123 also
 * marks an execution finished a moment before it saves the resumed run, and a read in between
 * sees the wait's run popped.
 */
async function finishedWithData(ctx: PackagedN8n, id: string) {
	const finished = await waitFor(
		`execution ${id} to end`,
		async () => {
			const record = await ctx.n8n.execution(id);
			const ended = ['success', 'error', 'canceled'].includes(record.status);
			return ended || (record.status === 'crashed' && !record.waitTill) ? record : undefined;
		},
		RECOVERED_WITHIN_MS,
		300,
	);
	if (finished.status !== 'success') return finished;
	return await waitFor(
		`execution ${id}'s resumed run saved`,
		async () => {
			const record = await ctx.n8n.execution(id);
			return record.data.resultData.runData[CREATE_AND_WAIT]?.length ? record : undefined;
		},
		30_000,
		500,
	).catch(() => finished);
}

export async function runRecovery(ctx: PackagedN8n, title: string): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const name = `recovery (${title}): ${WAITS} waits, n8n down while their tasks end`;
	const tasks = videoTasks(sim);
	const saved = { second: tasks.secondCallbacks, route: tasks.routeCallback };
	tasks.secondCallbacks = { kind: 'off' };
	tasks.routeCallback = undefined;
	const held = holdTaskEnds(sim);
	try {
		await ctx.importWorkflow(loadWorkflow(join(examplesDir, 'video-recover-waits.json')), {
			activate: true,
		});
		const waits = await ctx.importWorkflow(
			callbackWaitOf(ctx.credentials, `Recovery ${Date.now()}`, [`Recovery [at:${held.endsAt}]`], 30),
		);
		const { ids, waiting, taskIds } = await startWaits(ctx, name, waits.id, WAITS);
		const address = outputOf(waiting[0], CREATE_AND_WAIT)[0]?.json.waitInfo as
			| Record<string, unknown>
			| undefined;
		checks.ok(
			`${name}: a waiting item carries the wait's own address`,
			/\/webhook-waiting\/[^/]+\/video-wait/.test(String(address?.callbackAddress)),
		);

		await checks.timed(`${name}: stop`, async () => await stopAll(ctx));
		held.release();
		const finals = await waitFor(
			'the final callbacks to be tried while n8n is down',
			() => {
				const tried = tasks.deliveries.filter((d) => taskIds.includes(d.id) && FINAL.includes(d.status));
				return tried.length >= taskIds.length ? tried : undefined;
			},
			60_000,
		);
		checks.ok(
			`${name}: the gateway's only final callbacks were refused (n8n down)`,
			finals.every((d) => d.httpStatus === undefined),
			finals.map((d) => d.error ?? d.httpStatus),
		);

		await checks.timed(`${name}: start`, async () => await startAll(ctx));
		const upAt = Date.now();
		const records = await Promise.all(ids.map(async (id) => await finishedWithData(ctx, id)));
		checks.note(`${name}: n8n ready to the last video: ${((Date.now() - upAt) / 1000).toFixed(1)} s`);
		checks.equal(
			`${name}: every execution resumed with its video`,
			records.map((record) => {
				const item = outputOf(record, CREATE_AND_WAIT)[0];
				return [record.status, item?.json.status, Boolean(item?.binary?.data)];
			}),
			ids.map(() => ['success', 'completed', true]),
		);
		checks.equal(
			`${name}: each resumed once (one run of the video node after the wait)`,
			records.map((record) => record.data.resultData.runData[CREATE_AND_WAIT]?.length),
			ids.map(() => 1),
		);
		checks.equal(`${name}: one execution per run`, (await n8n.executions(waits.id)).length, WAITS);
	} finally {
		tasks.secondCallbacks = saved.second;
		tasks.routeCallback = saved.route;
	}
}

/** The releases and set-ups the part proves: the suite's n8n and 1.123 each alone and in queue mode, 2.0 alone. */
const SETUPS: Array<[string, { webhooks: number } | undefined]> = [
	[N8N_VERSION, undefined],
	[N8N_VERSION, { webhooks: 1 }],
	['1.123.81', undefined],
	['1.123.81', { webhooks: 1 }],
	['2.0.3', undefined],
];

/** The part: the recovery on each of SETUPS, each its own n8n. */
export async function runRecoveryPart(input: PartInput): Promise<void> {
	for (const [version, queue] of SETUPS) {
		const title = `n8n ${version}${queue ? ', queue mode' : ''}`;
		const label = `recovery-${version}${queue ? '-queue' : ''}`;
		input.checks.begin(`recovery: ${title}`);
		let ctx: PackagedN8n | undefined;
		try {
			ctx = await startN8n(input, { name: label, version, queue });
			const started = ctx;
			await input.checks.timed(label, async () => await runRecovery(started, title));
		} catch (error) {
			input.checks.broke(`recovery: ${title}`, error);
		} finally {
			await ctx?.stop();
		}
	}
}
