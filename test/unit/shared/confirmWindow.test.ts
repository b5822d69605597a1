/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The confirmation window (nodes/shared/confirmWindow.ts), with a fake clock; the system clock's
 * cancellable sleep on virtual time (test/harness/virtual-time.ts).
 */
import { confirmReadTimes, confirmWithin } from '../../../nodes/shared/confirmWindow';
import type { ConfirmSchedule } from '../../../nodes/shared/waitClocks';
import { DEFAULT_CONFIRM_SCHEDULE } from '../../../nodes/shared/waitClocks';
import type { Clock } from '../../../nodes/shared/time';
import { systemClock } from '../../../nodes/shared/time';

import { useVirtualTime } from '../../harness/virtual-time';
import { FakeClock } from './fakeClock';

useVirtualTime();

/** A gateway whose reads show the task final `lagMs` after the window opened. */
function lagging(clock: Clock, lagMs: number) {
	const openedAt = clock.now();
	const readAt: number[] = [];
	const timeouts: number[] = [];
	return {
		readAt,
		timeouts,
		read: async (timeoutMs: number) => {
			readAt.push(clock.now() - openedAt);
			timeouts.push(timeoutMs);
			return { status: clock.now() - openedAt >= lagMs ? 'completed' : 'in_progress' };
		},
	};
}

const final = (record: { status: string }) => record.status === 'completed';

describe('the confirmation window schedule', () => {
	it('reads again 1 s, 3.5 s and 7.5 s after the read that did not confirm, all inside 8 s', () => {
		expect(confirmReadTimes()).toEqual([1_000, 3_500, 7_500]);
		expect(DEFAULT_CONFIRM_SCHEDULE.windowMs).toBeLessThanOrEqual(8_000);
		// Growing pauses.
		const pauses = DEFAULT_CONFIRM_SCHEDULE.pausesMs;
		expect(pauses.every((pause, n) => n === 0 || pause > pauses[n - 1])).toBe(true);
	});

	it('leaves out a read that would start with less than its minimum left in the window', () => {
		const schedule: ConfirmSchedule = {
			pausesMs: [500, 1_000, 2_000, 3_000],
			windowMs: 6_000,
			minReadMs: 250,
		};
		expect(confirmReadTimes(schedule)).toEqual([500, 1_500, 3_500]);
	});

	it.each<[string, number, number, number[]]>([
		['reads current a moment later (lag 0.5 s)', 500, 1, [1_000]],
		['lag 1 s', 1_000, 1, [1_000]],
		['lag 2 s', 2_000, 2, [1_000, 3_500]],
		['lag 3 s', 3_000, 2, [1_000, 3_500]],
		['lag 7 s', 7_000, 3, [1_000, 3_500, 7_500]],
	])('%s: confirmed at the first read after the lag, no pause after it', async (_name, lag, reads, at) => {
		const clock = new FakeClock();
		const gateway = lagging(clock, lag);
		const outcome = await confirmWithin({ read: gateway.read, isConfirmed: final, clock });
		expect(outcome).toMatchObject({ kind: 'confirmed', value: { status: 'completed' }, reads });
		expect(gateway.readAt).toEqual(at);
		expect(outcome.waitedMs).toBe(at.at(-1));
		expect(clock.sleeps).toHaveLength(reads);
	});

	it('a lag longer than the window: unconfirmed after 3 reads, within 8 s, each read bounded by what is left', async () => {
		const clock = new FakeClock();
		const gateway = lagging(clock, 9_000);
		const outcome = await confirmWithin({ read: gateway.read, isConfirmed: final, clock });
		expect(outcome).toMatchObject({ kind: 'unconfirmed', last: { status: 'in_progress' }, reads: 3 });
		expect(gateway.readAt).toEqual([1_000, 3_500, 7_500]);
		expect(outcome.waitedMs).toBe(7_500);
		expect(gateway.timeouts).toEqual([7_000, 4_500, 500]);
	});

	it('a failed read is no answer: the next read is tried, the failure kept when none confirms', async () => {
		const clock = new FakeClock();
		let reads = 0;
		const outcome = await confirmWithin({
			read: async () => {
				reads++;
				if (reads === 1) throw new Error('502');
				return { status: reads === 2 ? 'in_progress' : 'completed' };
			},
			isConfirmed: final,
			clock,
		});
		expect(outcome).toMatchObject({ kind: 'confirmed', reads: 3 });
		const failing = await confirmWithin({
			read: async () => await Promise.reject(new Error('502')),
			isConfirmed: final,
			clock: new FakeClock(),
		});
		expect(failing).toMatchObject({ kind: 'unconfirmed', reads: 3, last: undefined });
		expect((failing as { lastError: Error }).lastError.message).toBe('502');
	});

	it('a read that got its turn too late (the window nearly over) is not sent', async () => {
		const clock = new FakeClock();
		const readAt: number[] = [];
		const start = clock.now();
		const outcome = await confirmWithin({
			read: async () => {
				readAt.push(clock.now() - start);
				// The read waited for a request slot until 7.9 s.
				clock.time = start + 7_900;
				return { status: 'in_progress' };
			},
			isConfirmed: final,
			clock,
		});
		expect(readAt).toEqual([1_000]);
		expect(outcome).toMatchObject({ kind: 'unconfirmed', reads: 1 });
	});
});

describe('the confirmation window and cancellation', () => {
	it('a cancel during a pause ends the window at once (fake clock): no read after it', async () => {
		const clock = new FakeClock();
		const controller = new AbortController();
		let reads = 0;
		const outcome = await confirmWithin({
			read: async () => {
				reads++;
				controller.abort();
				return { status: 'in_progress' };
			},
			isConfirmed: final,
			signal: controller.signal,
			clock,
		});
		expect(outcome).toMatchObject({ kind: 'cancelled', reads: 1, waitedMs: 1_000 });
		expect(reads).toBe(1);
	});

	it('a cancel before the window opens reads nothing', async () => {
		const controller = new AbortController();
		controller.abort();
		const outcome = await confirmWithin({
			read: async () => ({ status: 'completed' }),
			isConfirmed: final,
			signal: controller.signal,
			clock: new FakeClock(),
		});
		expect(outcome).toMatchObject({ kind: 'cancelled', reads: 0 });
	});

	it('the system clock: a cancel during the 2.5 s pause ends the window at that instant (virtual time)', async () => {
		const controller = new AbortController();
		let reads = 0;
		let cancelledAt = 0;
		const outcome = await confirmWithin({
			read: async () => {
				reads++;
				setTimeout(() => {
					cancelledAt = Date.now();
					controller.abort();
				}, 100);
				return { status: 'in_progress' };
			},
			isConfirmed: final,
			signal: controller.signal,
			clock: systemClock,
		});
		expect(outcome).toMatchObject({ kind: 'cancelled', reads: 1, waitedMs: 1_100 });
		expect(reads).toBe(1);
		expect(Date.now()).toBe(cancelledAt);
	});
});
