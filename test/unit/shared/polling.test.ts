import {
	DEFAULT_WAIT_DEADLINE_MS,
	MAX_WAIT_DEADLINE_MS,
	scheduledDelay,
	waitDeadlineMs,
	waitForAll,
} from '../../../nodes/shared/polling';
import { FakeClock } from './fakeClock';

/** A task that turns `completed` at `doneAt` ms of simulated time after start. */
function task(clock: FakeClock, doneAt: number) {
	const start = clock.now();
	const seen: number[] = [];
	return {
		seen,
		read: async () => {
			seen.push(clock.now() - start);
			return { value: { status: clock.now() - start >= doneAt ? 'completed' : 'in_progress' } };
		},
	};
}

/** One task's wait, as the batch wait runs it for a batch of one. */
async function waitForOne(
	clock: FakeClock,
	read: () => Promise<{ value: { status: string }; retryAfterMs?: number }>,
	options: {
		deadlineMs?: number;
		readFirst?: boolean;
		isTransient?: () => boolean;
		signal?: AbortSignal;
	} = {},
) {
	const [outcome] = await waitForAll<{ status: string }>({
		tasks: [
			{
				startedAt: clock.now(),
				deadlineMs: options.deadlineMs ?? DEFAULT_WAIT_DEADLINE_MS,
				readFirst: options.readFirst,
			},
		],
		read,
		isDone: (value) => value.status === 'completed',
		isTransient: options.isTransient,
		signal: options.signal,
		clock,
	});
	return outcome;
}

describe('poll schedule', () => {
	it('backs off from 5 s by x1.5 and caps at 30 s', () => {
		expect([0, 1, 2, 3, 4, 5, 6, 10].map((i) => scheduledDelay(i))).toEqual([
			5000, 7500, 11250, 16875, 25313, 30000, 30000, 30000,
		]);
	});

	it('finds a task done after 180 s in at most 12 polls, within 20 s, with no sleep after it', async () => {
		const clock = new FakeClock();
		const outcome = await waitForOne(clock, task(clock, 180_000).read);
		expect(outcome.kind).toBe('done');
		if (outcome.kind !== 'done') return;
		expect(outcome.polls).toBeLessThanOrEqual(12);
		expect(outcome.waitedMs - 180_000).toBeLessThanOrEqual(20_000);
		expect(clock.sleeps).toHaveLength(outcome.polls); // one pause before each poll, none after the last
	});

	it('reads at once with readFirst and ends without any pause when already terminal', async () => {
		const clock = new FakeClock();
		const outcome = await waitForOne(clock, task(clock, 0).read, { deadlineMs: 60_000, readFirst: true });
		expect(outcome).toMatchObject({ kind: 'done', polls: 1 });
		expect(clock.sleeps).toEqual([]);
	});

	it('honours a longer Retry-After hint and never sleeps past the deadline', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		const outcome = await waitForOne(
			clock,
			async () => ({ value: { status: 'queue' }, retryAfterMs: 40_000 }),
			{
				deadlineMs: 100_000,
			},
		);
		expect(outcome).toMatchObject({ kind: 'timeout', last: { status: 'queue' } });
		expect(clock.sleeps).toEqual([5000, 40_000, 40_000, 15_000]);
		expect(clock.now() - start).toBe(100_000);
	});

	it('reads through transient errors and keeps the last one when the deadline passes', async () => {
		const clock = new FakeClock();
		let calls = 0;
		const failure = new Error('HTTP 503');
		const outcome = await waitForOne(
			clock,
			async () => {
				calls++;
				throw failure;
			},
			{ deadlineMs: 20_000, isTransient: () => true },
		);
		expect(outcome).toEqual({ kind: 'timeout', last: undefined, polls: 3, lastError: failure });
		expect(calls).toBe(3);
	});

	it('ends with a read error that is not transient, unchanged', async () => {
		const failure = new Error('HTTP 404 for task_1');
		const outcome = await waitForOne(new FakeClock(), async () => {
			throw failure;
		});
		expect(outcome).toEqual({ kind: 'failed', error: failure, last: undefined, polls: 1 });
	});

	it('stops at the next check when cancelled between polls (fake clock)', async () => {
		const clock = new FakeClock();
		const controller = new AbortController();
		let polls = 0;
		const outcome = await waitForOne(
			clock,
			async () => {
				if (++polls === 3) controller.abort();
				return { value: { status: 'in_progress' } };
			},
			{ signal: controller.signal },
		);
		expect(outcome).toMatchObject({ kind: 'cancelled', polls: 3 });
		expect(polls).toBe(3);
	});
});

describe('wait deadline', () => {
	it.each([
		[undefined, DEFAULT_WAIT_DEADLINE_MS],
		[0, DEFAULT_WAIT_DEADLINE_MS],
		[1, 60_000],
		[120, MAX_WAIT_DEADLINE_MS],
		[500, MAX_WAIT_DEADLINE_MS],
	])('%s minutes -> %s ms', (minutes, expected) => {
		expect(waitDeadlineMs(minutes)).toBe(expected);
	});
});
