/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { NodeOperationError } from 'n8n-workflow';

import {
	DEFAULT_WAIT_DEADLINE_MS,
	MAX_WAIT_DEADLINE_MS,
	pollUntilDone,
	scheduledDelay,
	waitDeadlineMs,
} from '../../../nodes/shared/polling';
import { systemClock } from '../../../nodes/shared/time';
import { FakeClock } from './fakeClock';

const node = {
	id: '1',
	name: 'Video',
	type: 't',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};
const timeout = (last: { status: string } | undefined) =>
	new NodeOperationError(node, `Task task_1 still ${last?.status ?? 'unknown'} at the deadline`);
const cancel = () => new NodeOperationError(node, 'Task task_1: wait cancelled');

/** A task that turns `completed` at `doneAt` ms of simulated time after start. */
function task(clock: FakeClock, doneAt: number) {
	const start = clock.now();
	const seen: number[] = [];
	return {
		seen,
		fetch: async () => {
			seen.push(clock.now() - start);
			return { value: { status: clock.now() - start >= doneAt ? 'completed' : 'in_progress' } };
		},
	};
}

describe('poll schedule', () => {
	it('backs off from 5 s by x1.5 and caps at 30 s', () => {
		expect([0, 1, 2, 3, 4, 5, 6, 10].map((i) => scheduledDelay(i))).toEqual([
			5000, 7500, 11250, 16875, 25313, 30000, 30000, 30000,
		]);
	});

	it('finds a task done after 180 s in at most 12 polls, within 20 s, with no sleep after it', async () => {
		const clock = new FakeClock();
		const t = task(clock, 180_000);
		const result = await pollUntilDone({
			fetch: t.fetch,
			isDone: (v) => v.status === 'completed',
			deadlineMs: DEFAULT_WAIT_DEADLINE_MS,
			onTimeout: timeout,
			onCancel: cancel,
			onError: (e) => e as Error,
			clock,
		});
		expect(result.polls).toBeLessThanOrEqual(12);
		expect(result.waitedMs - 180_000).toBeLessThanOrEqual(20_000);
		expect(clock.sleeps).toHaveLength(result.polls); // one pause before each poll, none after the last
	});

	it('reads at once with pollFirst and returns without any pause when already terminal', async () => {
		const clock = new FakeClock();
		const t = task(clock, 0);
		const result = await pollUntilDone({
			fetch: t.fetch,
			isDone: (v) => v.status === 'completed',
			deadlineMs: 60_000,
			onTimeout: timeout,
			onCancel: cancel,
			onError: (e) => e as Error,
			pollFirst: true,
			clock,
		});
		expect(result.polls).toBe(1);
		expect(clock.sleeps).toEqual([]);
	});

	it('honours a longer Retry-After hint and never sleeps past the deadline', async () => {
		const clock = new FakeClock();
		const start = clock.now();
		await expect(
			pollUntilDone({
				fetch: async () => ({ value: { status: 'queue' }, retryAfterMs: 40_000 }),
				isDone: () => false,
				deadlineMs: 100_000,
				onTimeout: timeout,
				onCancel: cancel,
				onError: (e) => e as Error,
				clock,
			}),
		).rejects.toThrow('Task task_1 still queue at the deadline');
		expect(clock.sleeps).toEqual([5000, 40_000, 40_000, 15_000]);
		expect(clock.now() - start).toBe(100_000);
	});

	it('polls through transient errors and names the task when the deadline passes', async () => {
		const clock = new FakeClock();
		let calls = 0;
		await expect(
			pollUntilDone({
				fetch: async () => {
					calls++;
					throw new NodeOperationError(node, 'HTTP 503');
				},
				isDone: () => false,
				isTransient: () => true,
				deadlineMs: 20_000,
				onTimeout: (_last, polls, error) =>
					new NodeOperationError(
						node,
						`Task task_1 timed out after ${polls} polls (${(error as Error).message})`,
					),
				onCancel: cancel,
				onError: (e) => e as Error,
				clock,
			}),
		).rejects.toThrow('Task task_1 timed out after 3 polls (HTTP 503)');
		expect(calls).toBe(3);
	});

	it('passes a non-transient error through unchanged', async () => {
		const failure = new NodeOperationError(node, 'HTTP 404 for task_1');
		await expect(
			pollUntilDone({
				fetch: async () => {
					throw failure;
				},
				isDone: () => false,
				deadlineMs: 60_000,
				onTimeout: timeout,
				onCancel: cancel,
				onError: (e) => e as Error,
				clock: new FakeClock(),
			}),
		).rejects.toBe(failure);
	});

	it('stops at the next check when cancelled between polls (fake clock)', async () => {
		const clock = new FakeClock();
		const controller = new AbortController();
		let polls = 0;
		await expect(
			pollUntilDone({
				fetch: async () => {
					if (++polls === 3) controller.abort();
					return { value: { status: 'in_progress' } };
				},
				isDone: () => false,
				deadlineMs: DEFAULT_WAIT_DEADLINE_MS,
				onTimeout: timeout,
				onCancel: cancel,
				onError: (e) => e as Error,
				signal: controller.signal,
				clock,
			}),
		).rejects.toThrow('wait cancelled');
		expect(polls).toBe(3);
	});

	it('stops within a second of a cancel that arrives during a 5 s pause (real clock)', async () => {
		const controller = new AbortController();
		const started = Date.now();
		setTimeout(() => controller.abort(), 100);
		await expect(
			pollUntilDone({
				fetch: async () => ({ value: { status: 'in_progress' } }),
				isDone: () => false,
				deadlineMs: DEFAULT_WAIT_DEADLINE_MS,
				onTimeout: timeout,
				onCancel: cancel,
				onError: (e) => e as Error,
				signal: controller.signal,
				clock: systemClock,
			}),
		).rejects.toThrow('wait cancelled');
		expect(Date.now() - started).toBeLessThan(1000);
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
