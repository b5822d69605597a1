/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The batch wait (waitForAll) with a fake clock: every task keeps its own
 * schedule, deadline and outcome; reads share the limiter and a sleeping
 * task holds none of it; a 429 pauses the round; a cancel ends every wait
 * (on the system clock too, on virtual time).
 */
import { createLimiter } from '../../../nodes/shared/concurrency';
import type { BatchWaitOptions, WaitOutcome, WaitingTask } from '../../../nodes/shared/polling';
import { waitForAll } from '../../../nodes/shared/polling';
import { useVirtualTime } from '../../harness/virtual-time';
import { FakeClock } from './fakeClock';

type Record = { status: string };

/** Tasks that turn `completed` at `doneAt[i]` ms of simulated time after `start`, with every read logged. */
function batch(clock: FakeClock, doneAt: number[], start = clock.now()) {
	const reads: Array<{ task: number; at: number }> = [];
	let inFlight = 0;
	let peak = 0;
	const read = async (task: number) => {
		inFlight++;
		peak = Math.max(peak, inFlight);
		reads.push({ task, at: clock.now() - start });
		await Promise.resolve();
		inFlight--;
		return { value: { status: clock.now() - start >= doneAt[task] ? 'completed' : 'in_progress' } };
	};
	return { reads, read, peak: () => peak, readsOf: (task: number) => reads.filter((r) => r.task === task) };
}

function wait(
	clock: FakeClock,
	tasks: WaitingTask[],
	read: BatchWaitOptions<Record>['read'],
	extra: Partial<BatchWaitOptions<Record>> = {},
): Promise<Array<WaitOutcome<Record>>> {
	return waitForAll<Record>({
		tasks,
		read,
		isDone: (record) => record.status === 'completed',
		isTransient: (error) => (error as { transient?: boolean }).transient === true,
		clock,
		...extra,
	});
}

const minutes = (n: number) => n * 60_000;

describe('batch wait: every task on its own schedule', () => {
	it('waits for 20 tasks of 12 s about as long as one, two reads each, one at a time', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const b = batch(clock, Array(20).fill(12_000));
		const tasks = Array.from({ length: 20 }, () => ({ startedAt: start, deadlineMs: minutes(15) }));
		const outcomes = await wait(clock, tasks, b.read, { limit: createLimiter(1) });
		expect(outcomes.every((o) => o.kind === 'done')).toBe(true);
		expect(outcomes.map((o) => o.polls)).toEqual(Array(20).fill(2));
		// Reads at 5 s and 12.5 s: the whole batch takes 12.5 s, not 20 x 12.5 s.
		expect(clock.now() - start).toBe(12_500);
		expect(b.peak()).toBe(1);
	});

	it('reads each task from its own create: 5 s after it, then x1.5 back-off', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const b = batch(clock, [40_000, 15_000], start);
		const outcomes = await wait(
			clock,
			[
				{ startedAt: start, deadlineMs: minutes(15) },
				{ startedAt: start + 3_000, deadlineMs: minutes(15) },
			],
			b.read,
			{ limit: createLimiter(4) },
		);
		expect(b.readsOf(0).map((r) => r.at)).toEqual([5_000, 12_500, 23_750, 40_625]);
		expect(b.readsOf(1).map((r) => r.at)).toEqual([8_000, 15_500]);
		expect(outcomes[0]).toMatchObject({ kind: 'done', polls: 4, waitedMs: 40_625 });
		expect(outcomes[1]).toMatchObject({ kind: 'done', polls: 2, waitedMs: 12_500 });
	});

	it('reads at once when asked (Wait for Completion), then 5 s later', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const b = batch(clock, [0, 4_000], start);
		const tasks = [0, 1].map(() => ({ startedAt: start, deadlineMs: minutes(1), readFirst: true }));
		const outcomes = await wait(clock, tasks, b.read);
		expect(b.reads.map((r) => [r.task, r.at])).toEqual([
			[0, 0],
			[1, 0],
			[1, 5_000],
		]);
		expect(outcomes.map((o) => o.polls)).toEqual([1, 2]);
	});

	it("honours a task's own Retry-After hint without moving the others", async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const reads: Array<[number, number]> = [];
		const outcomes = await wait(
			clock,
			[0, 1].map(() => ({ startedAt: start, deadlineMs: minutes(5) })),
			async (task) => {
				const at = clock.now() - start;
				reads.push([task, at]);
				const done = at >= 20_000;
				return {
					value: { status: done ? 'completed' : 'queue' },
					retryAfterMs: task === 0 ? 40_000 : undefined,
				};
			},
		);
		expect(reads.filter(([task]) => task === 0).map(([, at]) => at)).toEqual([5_000, 45_000]);
		expect(reads.filter(([task]) => task === 1).map(([, at]) => at)).toEqual([5_000, 12_500, 23_750]);
		expect(outcomes.map((o) => o.kind)).toEqual(['done', 'done']);
	});
});

describe('batch wait: one task never stops the others', () => {
	it("one task's deadline ends its wait only; its last read comes at the deadline", async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const b = batch(clock, [600_000, 30_000], start);
		const outcomes = await wait(
			clock,
			[
				{ startedAt: start, deadlineMs: 20_000 },
				{ startedAt: start, deadlineMs: minutes(15) },
			],
			b.read,
		);
		expect(outcomes[0]).toMatchObject({ kind: 'timeout', polls: 3, last: { status: 'in_progress' } });
		expect(b.readsOf(0).map((r) => r.at)).toEqual([5_000, 12_500, 20_000]);
		expect(outcomes[1]).toMatchObject({ kind: 'done' });
	});

	it('a read that fails for good fails its task only', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const b = batch(clock, [0, 0, 0], start);
		const gone = new Error('HTTP 404');
		const outcomes = await wait(
			clock,
			[0, 1, 2].map(() => ({ startedAt: start, deadlineMs: minutes(1) })),
			async (task) => {
				if (task === 1) throw gone;
				return await b.read(task);
			},
		);
		expect(outcomes.map((o) => o.kind)).toEqual(['done', 'failed', 'done']);
		expect(outcomes[1]).toMatchObject({ error: gone, polls: 1 });
	});

	it('a transient failure is read again after retryDelay, the schedule unmoved; then by the schedule', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const reads: number[] = [];
		const outcomes = await wait(
			clock,
			[{ startedAt: start, deadlineMs: 30_000 }],
			async () => {
				reads.push(clock.now() - start);
				throw Object.assign(new Error('HTTP 503'), { transient: true });
			},
			{ retryDelay: (_error, failures) => (failures < 3 ? 500 * failures : undefined) },
		);
		// 5 s, two quick retries (0.5 s, 1 s), the schedule's next pause (7.5 s), two quick retries again...
		expect(reads.slice(0, 6)).toEqual([5_000, 5_500, 6_500, 14_000, 14_500, 15_500]);
		expect(outcomes[0]).toMatchObject({ kind: 'timeout', lastError: expect.any(Error) });
		expect(reads[reads.length - 1]).toBe(30_000);
	});

	it('tells each task as soon as it settles, while the others still wait', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const b = batch(clock, [5_000, 60_000], start);
		const settledAt: Array<[number, number]> = [];
		await wait(
			clock,
			[0, 1].map(() => ({ startedAt: start, deadlineMs: minutes(5) })),
			b.read,
			{ onSettled: (task) => settledAt.push([task, clock.now() - start]) },
		);
		expect(settledAt).toEqual([
			[0, 5_000],
			[1, expect.any(Number)],
		]);
		expect(settledAt[1][1]).toBeGreaterThanOrEqual(60_000);
	});
});

describe('batch wait: requests slots and rate limits', () => {
	it('never has more reads in flight than the limiter allows', async () => {
		const clock = new FakeClock();
		const b = batch(clock, Array(30).fill(20_000));
		const tasks = Array.from({ length: 30 }, () => ({ startedAt: clock.now(), deadlineMs: minutes(5) }));
		await wait(clock, tasks, b.read, { limit: createLimiter(3) });
		expect(b.peak()).toBe(3);
	});

	it('a 429 pauses every read until its Retry-After, and fails no task', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const b = batch(clock, [0, 0, 0], start);
		let refused = false;
		const outcomes = await wait(
			clock,
			[0, 1, 2].map(() => ({ startedAt: start, deadlineMs: minutes(1) })),
			async (task) => {
				if (task === 0 && !refused) {
					refused = true;
					throw Object.assign(new Error('HTTP 429'), { transient: true, pauseMs: 3_000 });
				}
				return await b.read(task);
			},
			{
				limit: createLimiter(1),
				pauseAfter: (error) => (error as { pauseMs?: number }).pauseMs,
			},
		);
		expect(outcomes.map((o) => o.kind)).toEqual(['done', 'done', 'done']);
		// Tasks 1 and 2 were due with task 0, waited in the queue, and went after the pause with it.
		expect(b.reads.map((r) => [r.task, r.at])).toEqual([
			[0, 8_000],
			[1, 8_000],
			[2, 8_000],
		]);
		expect(outcomes.map((o) => o.polls)).toEqual([2, 1, 1]);
	});
});

describe('batch wait: cancel', () => {
	it('ends every pending wait at once; the tasks already done keep their outcome', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const controller = new AbortController();
		const b = batch(clock, [5_000, 600_000, 600_000], start);
		const outcomes = await wait(
			clock,
			[0, 1, 2].map(() => ({ startedAt: start, deadlineMs: minutes(15) })),
			async (task) => {
				const answer = await b.read(task);
				if (clock.now() - start >= 23_750) controller.abort();
				return answer;
			},
			{ signal: controller.signal },
		);
		expect(outcomes.map((o) => o.kind)).toEqual(['done', 'cancelled', 'cancelled']);
		expect(outcomes[1]).toMatchObject({ last: { status: 'in_progress' } });
		// No read after the cancel.
		expect(Math.max(...b.reads.map((r) => r.at))).toBe(23_750);
	});
});

describe('the system clock (virtual time)', () => {
	useVirtualTime();

	it('a cancel during the first 5 s pause ends every wait at that instant, before any read', async () => {
		const controller = new AbortController();
		const started = Date.now();
		let reads = 0;
		setTimeout(() => controller.abort(), 100);
		const outcomes = await waitForAll<Record>({
			tasks: [0, 1].map(() => ({ startedAt: Date.now(), deadlineMs: minutes(15) })),
			read: async () => {
				reads++;
				return { value: { status: 'in_progress' } };
			},
			isDone: () => false,
			signal: controller.signal,
		});
		expect(outcomes.map((o) => o.kind)).toEqual(['cancelled', 'cancelled']);
		expect(reads).toBe(0);
		expect(Date.now() - started).toBe(100);
	});
});
