/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Queue mode: PostgreSQL and Redis in temp folders on loopback ports, an n8n
 * main process and a worker, binary data kept in the database. The image,
 * speech, trigger and callback-wait workflows must succeed, and the resumed
 * execution must run on the worker (its log names the execution). A dedicated
 * webhook process (`n8n webhook`) runs beside them: callbacks.ts delivers the
 * callback wait's callbacks to it and to main, before the wait and across a
 * restart, and checks that no resume is lost.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { videoTasks } from '../../test/simulator/video/tasks';
import { runCallbackScenarios } from './callbacks';
import { runCallbackWait } from './callbackWait';
import { runDoubleResume } from './doubleResume';
import { runExample } from './examples';
import { runLaterWait } from './laterWait';
import { waitFor } from './proc';
import { startN8n, type PartInput } from './start';
import { examplesDir } from './workflows';

export async function runQueue(input: PartInput): Promise<void> {
	const { sim, checks } = input;
	checks.begin('queue mode: PostgreSQL, Redis, main and worker');
	const ctx = await startN8n(input, { name: 'queue', queue: { webhooks: 2 } });
	const { n8n: main, onWorker } = ctx;
	const worker = ctx.worker!;
	const [webhook, webhook2] = ctx.webhooks;
	try {
		for (const example of ['image-scheduled-generation', 'speech-synthesize', 'video-trigger']) {
			const file = join(examplesDir, `${example}.json`);
			if (!existsSync(file)) {
				checks.ok(`examples/${example}.json exists`, false);
				continue;
			}
			checks.begin(`queue mode: examples/${example}.json`);
			try {
				const record = await runExample(ctx, file);
				if (record) {
					await waitFor(
						`worker log of execution ${record.id}`,
						() => (onWorker(record.id) ? true : undefined),
						10_000,
					).catch(() => undefined);
					checks.ok(`${example}: the execution ran on the worker (worker log)`, onWorker(record.id), {
						execution: record.id,
					});
				}
			} catch (error) {
				checks.broke(example, error);
			}
		}
		checks.begin('queue mode: Create and Wait by callback, 3 items');
		try {
			const record = await runCallbackWait(ctx, 3);
			await waitFor('worker log', () => (onWorker(record.id) ? true : undefined), 10_000).catch(
				() => undefined,
			);
			const lines = worker
				.proc!.log()
				.split('\n')
				.filter((l) => l.includes(`execution ${record.id} (`));
			checks.note(`worker log for execution ${record.id}: ${lines.map((l) => l.trim()).join(' | ')}`);
			checks.ok(
				'callback wait: the resumed execution ran on the worker (started there twice: run, then resume)',
				lines.filter((l) => l.includes('Worker started execution')).length >= 2,
				{ execution: record.id },
			);
		} catch (error) {
			checks.broke('callback wait', error);
		}
		// Queue mode keeps binary data in the database: the list a worker stored is read by the process
		// that takes the callback.
		checks.begin(
			'queue mode: Create and Wait by callback, 300 items ending in one instant, callbacks spread over two webhook processes (task list kept in the binary store)',
		);
		const tasks = videoTasks(sim);
		const saved = { timeout: tasks.callbackTimeoutMs, second: tasks.secondCallbacks };
		// A gateway that waits 10 s for an answer and never calls twice; a balancer in front of the
		// two webhook processes, taking turns.
		tasks.callbackTimeoutMs = 10_000;
		tasks.secondCallbacks = { kind: 'off' };
		tasks.routeCallback = ctx.balancer();
		try {
			// The creates go one at a time on the worker; the tasks all end once the execution waits.
			await runCallbackWait(ctx, 300, 0, true, 2);
		} catch (error) {
			checks.broke('callback wait, 300 items', error);
		} finally {
			tasks.routeCallback = undefined;
			tasks.callbackTimeoutMs = saved.timeout;
			tasks.secondCallbacks = saved.second;
		}
		checks.begin(
			'queue mode: a Wait node after Create and Wait by callback, callbacks through two webhook processes',
		);
		tasks.routeCallback = ctx.balancer();
		try {
			await runLaterWait(ctx, () => worker.proc!.log());
		} catch (error) {
			checks.broke('later wait (queue mode)', error);
		} finally {
			tasks.routeCallback = undefined;
		}
		checks.begin(
			'queue mode: each final callback sent twice at once, a copy to each webhook process (n8n claims the execution)',
		);
		try {
			await runDoubleResume(ctx, { claims: true });
		} catch (error) {
			checks.broke('double callbacks (queue mode)', error);
		}
		await webhook2.stop();
		await runCallbackScenarios(ctx, { main, webhook, worker });
	} finally {
		await ctx.stop();
	}
}
