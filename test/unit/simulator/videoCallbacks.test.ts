/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** The simulator's video callbacks: every status change in order; a delivery answered 5xx is tried again, a 2xx or 4xx ends it. */
import { startSimulator } from '../../simulator';
import { startHttpsReceiver } from '../../simulator/video/https';
import { videoTasks } from '../../simulator/video/tasks';

it('retries a callback answered 5xx up to 3 attempts, and stops at a 2xx or a 4xx', async () => {
	const sim = await startSimulator();
	const final = [503, 500, 503];
	const receiver = await startHttpsReceiver(async (request) => {
		const status = String((request.body as { status: string }).status);
		return { status: status === 'completed' ? final.shift()! : 409 };
	});
	try {
		const tasks = videoTasks(sim);
		tasks.callbackRetryDelayMs = 10;
		const task = tasks.create({ model: 'vidA-2.5', prompt: 'retry [after:150]', callback_url: receiver.url });
		const until = Date.now() + 5000;
		const done = () => tasks.deliveries.filter((d) => d.id === task.id && d.status === 'completed').length;
		while (done() < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
		const mine = tasks.deliveries.filter((d) => d.id === task.id);
		// Every status change, in order, even when the 20 ms timer saw two at once; a 4xx is not retried.
		expect(mine.map((d) => [d.status, d.httpStatus, d.attempt])).toEqual([
			['pending', 409, 1],
			['queue', 409, 1],
			['in_progress', 409, 1],
			['completed', 503, 1],
			['completed', 500, 2],
			['completed', 503, 3],
		]);
	} finally {
		videoTasks(sim).stopTimer();
		await receiver.stop();
		await sim.stop();
	}
});

describe('read lag and second callbacks (fault switches of the video tasks)', () => {
	/** A task ending at once whose final callback the receiver answers with `final` (its headers too). */
	async function run(
		configure: (tasks: ReturnType<typeof videoTasks>) => void,
		final: { status: number; headers?: Record<string, string> },
		finalDeliveries: number,
	) {
		const sim = await startSimulator();
		const receiver = await startHttpsReceiver(async (request) =>
			String((request.body as { status: string }).status) === 'completed' ? final : { status: 200 },
		);
		const tasks = videoTasks(sim);
		configure(tasks);
		try {
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:50]', callback_url: receiver.url });
			const finals = () => tasks.deliveries.filter((d) => d.id === task.id && d.status === 'completed');
			const until = Date.now() + 5000;
			while (finals().length < finalDeliveries && Date.now() < until)
				await new Promise((r) => setTimeout(r, 10));
			// Nothing more comes.
			await new Promise((r) => setTimeout(r, 300));
			return { task, tasks, finals: finals(), sim };
		} finally {
			tasks.stop();
			await receiver.stop();
			await sim.stop();
		}
	}

	it('readLagMs: reads answer the status before the final one until that long after the final callback was sent', async () => {
		const sim = await startSimulator();
		const receiver = await startHttpsReceiver(async () => ({ status: 200 }));
		const tasks = videoTasks(sim);
		// Long enough that a loaded machine still reads within it.
		tasks.readLagMs = 3_000;
		try {
			const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:150]', callback_url: receiver.url });
			const until = Date.now() + 5000;
			while (task.finalSentAt === undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
			expect(tasks.status(task)).toBe('completed');
			expect(tasks.readRecord(task).status).toBe('in_progress');
			expect(tasks.finalReadableAt(task)).toBe(task.finalSentAt! + 3_000);
			while (Date.now() < task.finalSentAt! + 3_000) await new Promise((r) => setTimeout(r, 20));
			expect(tasks.readRecord(task)).toMatchObject({ status: 'completed', data: { format: 'mp4' } });
			expect(tasks.reads.filter((r) => r.id === task.id).map((r) => [r.status, r.stale])).toEqual([
				['in_progress', true],
				['completed', false],
			]);
		} finally {
			tasks.stop();
			await receiver.stop();
			await sim.stop();
		}
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

	it('second callbacks off: a final callback answered 503 is not sent again', async () => {
		const { finals } = await run((t) => (t.secondCallbacks = { kind: 'off' }), { status: 503 }, 1);
		expect(finals.map((d) => [d.httpStatus, d.attempt])).toEqual([[503, 1]]);
	});

	it('second callbacks at fixed pauses (0.1 s, 0.2 s) ignore Retry-After', async () => {
		const { finals } = await run(
			(t) => (t.secondCallbacks = { kind: 'fixed', pausesMs: [100, 200] }),
			{ status: 503, headers: { 'Retry-After': '30' } },
			3,
		);
		expect(finals.map((d) => [d.httpStatus, d.attempt, d.retryAfter])).toEqual([
			[503, 1, '30'],
			[503, 2, '30'],
			[503, 3, '30'],
		]);
		expect(finals[1].sentAt! - finals[0].sentAt!).toBeGreaterThanOrEqual(100);
		expect(finals[2].sentAt! - finals[1].sentAt!).toBeGreaterThanOrEqual(200);
	});

	it('second callbacks honouring Retry-After wait what the answer asks, up to the attempts', async () => {
		const { finals } = await run(
			(t) => (t.secondCallbacks = { kind: 'retry-after', attempts: 2 }),
			{ status: 503, headers: { 'Retry-After': '0.3' } },
			2,
		);
		expect(finals.map((d) => [d.httpStatus, d.attempt])).toEqual([
			[503, 1],
			[503, 2],
		]);
		expect(finals[1].sentAt! - finals[0].sentAt!).toBeGreaterThanOrEqual(300);
	});

	it('a pause for a second callback ends when the simulator stops (no timer left)', async () => {
		const sim = await startSimulator();
		const receiver = await startHttpsReceiver(async () => ({
			status: 503,
			headers: { 'Retry-After': '30' },
		}));
		const tasks = videoTasks(sim);
		tasks.secondCallbacks = { kind: 'retry-after', attempts: 3 };
		const task = tasks.create({ model: 'vidA-2.5', prompt: 'x [after:0]', callback_url: receiver.url });
		const until = Date.now() + 5000;
		while (!tasks.deliveries.some((d) => d.id === task.id) && Date.now() < until)
			await new Promise((r) => setTimeout(r, 10));
		tasks.stop();
		await receiver.stop();
		await sim.stop();
		expect(tasks.deliveries.filter((d) => d.id === task.id)).toHaveLength(1);
	});
});
