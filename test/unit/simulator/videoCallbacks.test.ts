/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The simulator's video callbacks: every status change in order; a delivery answered 5xx is tried
 * again, a 2xx or 4xx ends it. On virtual time (test/harness/virtual-time.ts): the task clock, the
 * delivery timer and the pauses between attempts are timers of that clock, so each delivery's
 * `sentAt` is exact and the assertions are orders, counts and schedules on it.
 */
import { until } from '../../harness/until';
import { useVirtualTime } from '../../harness/virtual-time';
import { startSimulator } from '../../simulator';
import { type HttpsReceiver, startHttpsReceiver } from '../../simulator/video/https';
import {
	type CallbackDelivery,
	type SecondCallbacks,
	type SimTask,
	videoTasks,
} from '../../simulator/video/tasks';

useVirtualTime();

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

type Tasks = ReturnType<typeof videoTasks>;
type Answer = { status: number; headers?: Record<string, string> };

/** When each of the task's deliveries was sent, in ms after its creation. */
const sentAfter = (tasks: Tasks, task: SimTask) =>
	tasks.deliveries.filter((d) => d.id === task.id).map((d) => d.sentAt! - task.createdAt);

/** The simulator's video tasks and an https receiver answering each callback by its status; all stopped after `body`. */
async function withReceiver(
	answer: (status: string) => Answer,
	body: (tasks: Tasks, url: string, receiver: HttpsReceiver) => Promise<void>,
) {
	const sim = await startSimulator();
	const receiver = await startHttpsReceiver(async (request) =>
		answer(String((request.body as { status: string }).status)),
	);
	const tasks = videoTasks(sim);
	try {
		await body(tasks, receiver.url, receiver);
	} finally {
		tasks.stop();
		await receiver.stop();
		await sim.stop();
	}
}

it('retries a callback answered 5xx up to 3 attempts, and stops at a 2xx or a 4xx', async () => {
	const final = [503, 500, 503];
	await withReceiver(
		(status) => ({ status: status === 'completed' ? final.shift()! : 409 }),
		async (tasks, url) => {
			tasks.callbackRetryDelayMs = 10;
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'retry [after:150]', callback_url: url });
			const finals = () => tasks.deliveries.filter((d) => d.id === task.id && d.status === 'completed');
			await until(() => finals().length === 3 && !task.delivering, 'three final deliveries');
			// Every status change, in order; a 4xx is not retried.
			expect(tasks.deliveries.map((d) => [d.status, d.httpStatus, d.attempt])).toEqual([
				['pending', 409, 1],
				['queue', 409, 1],
				['in_progress', 409, 1],
				['completed', 503, 1],
				['completed', 500, 2],
				['completed', 503, 3],
			]);
			// On the 20 ms delivery timer as each status begins (queue at 30, running at 60, done at 150), retries 10 ms apart.
			expect(sentAfter(tasks, task)).toEqual([20, 40, 60, 160, 170, 180]);
			await sleep(60_000);
			expect(finals()).toHaveLength(3);
		},
	);
});

it('delivers every status change in order even when the timer sees two at once', async () => {
	await withReceiver(
		() => ({ status: 200 }),
		async (tasks, url) => {
			// Queued and running both begin within one 20 ms tick.
			tasks.timing = { queueAfterMs: 25, runAfterMs: 35, doneAfterMs: 300 };
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:50]', callback_url: url });
			await until(() => task.notified === 'completed' && !task.delivering, 'the final delivery');
			expect(tasks.deliveries.map((d) => d.status)).toEqual(['pending', 'queue', 'in_progress', 'completed']);
			expect(sentAfter(tasks, task)).toEqual([20, 40, 40, 60]);
		},
	);
});

it('the delivery timer wakes only at the ticks where a status changes: a task running a minute costs 4 ticks', async () => {
	await withReceiver(
		() => ({ status: 200 }),
		async (tasks, url) => {
			const ticks = jest.spyOn(tasks, 'deliverCallbacks');
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:60000]', callback_url: url });
			await until(() => task.notified === 'completed' && !task.delivering, 'the final delivery', {
				timeoutMs: 120_000,
				everyMs: 1000,
			});
			expect(sentAfter(tasks, task)).toEqual([20, 40, 60, 60_000]);
			expect(ticks).toHaveBeenCalledTimes(4);
		},
	);
});

it('on a stopped clock callbacks wait for advance() and go at the next tick; turned off meanwhile, once turned on again', async () => {
	const received: Array<[string, number]> = [];
	await withReceiver(
		(status) => {
			received.push([status, Date.now()]);
			return { status: 200 };
		},
		async (tasks, url) => {
			// Queued 5 s after its creation: the timer sleeps that long, which the stopped clock never reaches.
			tasks.timing = { queueAfterMs: 5000, runAfterMs: 5500, doneAfterMs: 6000 };
			const clock = tasks.stopClock();
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x', callback_url: url });
			const settled = (status: string) => () => task.notified === status && !task.delivering;
			await until(settled('pending'), 'the first delivery');
			await sleep(1000);
			const advancedAt = Date.now();
			clock.advance(5000);
			await until(settled('queue'), 'the delivery of the queued status');
			// At the first tick (20 ms apart from the creation) after the advance.
			const queuedAt = received[1][1] - task.createdAt;
			expect([
				queuedAt % 20,
				queuedAt >= advancedAt - task.createdAt,
				queuedAt < advancedAt - task.createdAt + 20,
			]).toEqual([0, true, true]);
			tasks.callbacksEnabled = false;
			clock.advance(6000);
			await sleep(10_000);
			expect(received.map(([status]) => status)).toEqual(['pending', 'queue']);
			tasks.callbacksEnabled = true;
			await until(settled('completed'), 'the final delivery');
			expect(received.map(([status]) => status)).toEqual(['pending', 'queue', 'in_progress', 'completed']);
			// The stopped clock's time: the advances.
			expect(sentAfter(tasks, task)).toEqual([0, 5000, 6000, 6000]);
		},
	);
});

it('a task ended by endNow, or a task clock replaced by one an hour ahead, has its final posted at the next tick', async () => {
	await withReceiver(
		() => ({ status: 200 }),
		async (tasks, url) => {
			const create = (name: string) =>
				tasks.create({ model: 'vidA-2.5', prompt: `${name} [after:3600000]`, callback_url: url });
			const ended = create('ended');
			const jumped = create('jumped');
			const settled = (status: string, ...of: SimTask[]) => () =>
				of.every((task) => task.notified === status && !task.delivering);
			await until(settled('in_progress', ended, jumped), 'the running statuses');
			// Both end an hour from now, when the timer wakes next; each change below wakes it sooner.
			await sleep(1000);
			const endedAt = Date.now();
			tasks.endNow(ended);
			await until(settled('completed', ended), "the ended task's final delivery");
			const jumpedAt = Date.now();
			tasks.now = () => Date.now() + 3_600_000;
			await until(settled('completed', jumped), "the jumped task's final delivery");
			const finalOf = (task: SimTask) => tasks.deliveries.find((d) => d.id === task.id && d.status === 'completed');
			// The first tick (20 ms apart from the first creation) at or after the change, on the task clock.
			const tick = (at: number) => ended.createdAt + Math.ceil((at - ended.createdAt) / 20) * 20;
			expect([finalOf(ended)?.sentAt, finalOf(jumped)?.sentAt, tasks.status(jumped)]).toEqual([
				tick(endedAt),
				tick(jumpedAt) + 3_600_000,
				'completed',
			]);
		},
	);
});

it.each([
	['one connection per delivery by default', false, 4],
	['one connection for all of them when kept (keepConnections)', true, 1],
])('callbacks over https: %s', async (_name, keep, connections) => {
	await withReceiver(
		() => ({ status: 200 }),
		async (tasks, url, receiver) => {
			tasks.keepConnections = keep;
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:150]', callback_url: url });
			await until(() => task.notified === 'completed' && !task.delivering, 'the final delivery');
			expect(tasks.deliveries.map((d) => d.httpStatus)).toEqual([200, 200, 200, 200]);
			expect(receiver.connections).toBe(connections);
		},
	);
});

it('closeIdleConnections closes the kept connections no delivery uses: the next delivery opens a new one', async () => {
	await withReceiver(
		() => ({ status: 200 }),
		async (tasks, url, receiver) => {
			tasks.keepConnections = true;
			const delivered = (task: SimTask) => () => task.notified === 'completed' && !task.delivering;
			const first = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:150]', callback_url: url });
			await until(delivered(first), "the first task's final delivery");
			tasks.closeIdleConnections();
			const second = tasks.create({ model: 'vidA-2.5', prompt: 'y [after:150]', callback_url: url });
			await until(delivered(second), "the second task's final delivery");
			expect(tasks.deliveries.map((d) => d.httpStatus)).toEqual(Array(8).fill(200));
			expect(receiver.connections).toBe(2);
		},
	);
});

it('posts each status change to every address a route names, at once, each retried on its own', async () => {
	let refused = 0;
	const second = await startHttpsReceiver(async (request) => ({
		// The second address refuses the final callback once.
		status: (request.body as { status: string }).status === 'completed' && !refused++ ? 503 : 200,
	}));
	try {
		await withReceiver(
			() => ({ status: 200 }),
			async (tasks, url) => {
				tasks.callbackRetryDelayMs = 10;
				tasks.routeCallback = (address) => [address, second.url];
				const task = tasks.create({ model: 'vidA-2.5', prompt: 'twice [after:150]', callback_url: url });
				await until(
					() => tasks.deliveries.filter((d) => d.status === 'completed').length === 3 && !task.delivering,
					'the final deliveries',
				);
				const by = (address: string) =>
					tasks.deliveries
						.filter((d) => d.url === address)
						.map((d) => [d.status, d.httpStatus, d.attempt, d.sentAt! - task.createdAt]);
				expect(by(url)).toEqual([
					['pending', 200, 1, 20],
					['queue', 200, 1, 40],
					['in_progress', 200, 1, 60],
					['completed', 200, 1, 160],
				]);
				expect(by(second.url)).toEqual([
					['pending', 200, 1, 20],
					['queue', 200, 1, 40],
					['in_progress', 200, 1, 60],
					['completed', 503, 1, 160],
					['completed', 200, 2, 170],
				]);
			},
		);
	} finally {
		await second.stop();
	}
});

describe('read lag and second callbacks (fault switches of the video tasks)', () => {
	/**
	 * The final deliveries of a task ending at once whose final callback is answered with `final`,
	 * once they are over and a virtual minute passed with nothing more sent; when each was sent, in
	 * ms after the first.
	 */
	async function finalDeliveries(second: SecondCallbacks, final: Answer) {
		let result: { finals: CallbackDelivery[]; sentAfter: number[] } | undefined;
		await withReceiver(
			(status) => (status === 'completed' ? final : { status: 200 }),
			async (tasks, url) => {
				tasks.secondCallbacks = second;
				const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:50]', callback_url: url });
				const finals = () => tasks.deliveries.filter((d) => d.status === 'completed');
				await until(() => finals().length > 0 && !task.delivering, 'the final deliveries to end');
				const count = finals().length;
				await sleep(60_000);
				expect(finals()).toHaveLength(count);
				result = { finals: finals(), sentAfter: finals().map((d) => d.sentAt! - finals()[0].sentAt!) };
			},
		);
		return result!;
	}

	it('readLagMs: reads answer the status before the final one until that long after the final callback was sent', async () => {
		await withReceiver(
			() => ({ status: 200 }),
			async (tasks, url) => {
				tasks.readLagMs = 3_000;
				const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:150]', callback_url: url });
				await until(() => task.finalSentAt !== undefined, 'the final callback');
				expect(tasks.status(task)).toBe('completed');
				expect(tasks.readRecord(task).status).toBe('in_progress');
				expect(tasks.finalReadableAt(task)).toBe(task.finalSentAt! + 3_000);
				await sleep(task.finalSentAt! + 3_000 - 1 - Date.now());
				expect(tasks.readRecord(task).status).toBe('in_progress');
				await sleep(1);
				expect(tasks.readRecord(task)).toMatchObject({ status: 'completed', data: { format: 'mp4' } });
				expect(tasks.reads.map((r) => [r.status, r.stale])).toEqual([
					['in_progress', true],
					['in_progress', true],
					['completed', false],
				]);
			},
		);
	});

	it('readLagMs without callbacks counts from the moment the task ended', async () => {
		const sim = await startSimulator();
		const tasks = videoTasks(sim);
		tasks.readLagMs = 1000;
		let now = 1_000_000;
		tasks.now = () => now;
		try {
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:100]' });
			now += 100;
			expect(tasks.readRecord(task).status).toBe('in_progress');
			now += 999;
			expect(tasks.readRecord(task).status).toBe('in_progress');
			now += 1;
			expect(tasks.readRecord(task).status).toBe('completed');
		} finally {
			await sim.stop();
		}
	});

	it("a stopped clock, moved past a task's end and released, never runs back: the task stays completed", async () => {
		const sim = await startSimulator();
		const tasks = videoTasks(sim);
		try {
			const clock = tasks.stopClock();
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:6000]' });
			expect(tasks.status(task)).toBe('pending');
			clock.advance(6000);
			expect(tasks.status(task)).toBe('completed');
			// Date.now is still at the stop (virtual time has not moved): released, the clock keeps 6 s.
			clock.release();
			expect(tasks.status(task)).toBe('completed');
			expect(tasks.now()).toBeGreaterThanOrEqual(task.createdAt + 6000);
		} finally {
			await sim.stop();
		}
	});

	it('second callbacks off: a final callback answered 503 is not sent again', async () => {
		const { finals } = await finalDeliveries({ kind: 'off' }, { status: 503 });
		expect(finals.map((d) => [d.httpStatus, d.attempt])).toEqual([[503, 1]]);
	});

	it('second callbacks at fixed pauses (0.1 s, 0.2 s) ignore Retry-After', async () => {
		const { finals, sentAfter } = await finalDeliveries(
			{ kind: 'fixed', pausesMs: [100, 200] },
			{ status: 503, headers: { 'Retry-After': '30' } },
		);
		expect(finals.map((d) => [d.httpStatus, d.attempt, d.retryAfter])).toEqual([
			[503, 1, '30'],
			[503, 2, '30'],
			[503, 3, '30'],
		]);
		expect(sentAfter).toEqual([0, 100, 300]);
	});

	it('second callbacks honouring Retry-After wait what the answer asks, up to the attempts', async () => {
		const { finals, sentAfter } = await finalDeliveries(
			{ kind: 'retry-after', attempts: 2 },
			{ status: 503, headers: { 'Retry-After': '0.3' } },
		);
		expect(finals.map((d) => [d.httpStatus, d.attempt])).toEqual([
			[503, 1],
			[503, 2],
		]);
		expect(sentAfter).toEqual([0, 300]);
	});

	it('a pause for a second callback ends when the simulator stops (no timer left)', async () => {
		await withReceiver(
			() => ({ status: 503, headers: { 'Retry-After': '30' } }),
			async (tasks, url) => {
				tasks.secondCallbacks = { kind: 'retry-after', attempts: 3 };
				const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:0]', callback_url: url });
				await until(() => tasks.deliveries.length > 0, 'the first delivery');
				const firstSentAt = tasks.deliveries[0].sentAt!;
				tasks.stop();
				await until(() => !task.delivering, 'the deliveries to end');
				expect(tasks.deliveries).toHaveLength(1);
				// Ended by the stop, not by the 30 s pause running out, and no timer of the simulator is left.
				expect(Date.now() - firstSentAt).toBeLessThan(30_000);
				expect(jest.getTimerCount()).toBe(0);
			},
		);
	});
});
