/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { cancellableSleep } from '../../../nodes/shared/time';
import { useVirtualTime } from '../../harness/virtual-time';

// n8n-workflow's sleep (setTimeout) and Date.now() on virtual time: every pause below is exact.
useVirtualTime();

/** The delays of the timers `run` sets, and the virtual time it takes. */
async function timed(run: () => Promise<void>): Promise<{ elapsed: number; timers: number[] }> {
	const spy = jest.spyOn(globalThis, 'setTimeout');
	const started = Date.now();
	try {
		await run();
		return { elapsed: Date.now() - started, timers: spy.mock.calls.map((call) => call[1] ?? 0) };
	} finally {
		spy.mockRestore();
	}
}

describe('cancellableSleep', () => {
	it('sleeps the time asked without a signal', async () => {
		expect(await timed(async () => await cancellableSleep(120))).toEqual({ elapsed: 120, timers: [120] });
	});

	it('sleeps the whole time, across slices, when nothing aborts', async () => {
		const controller = new AbortController();
		expect(await timed(async () => await cancellableSleep(1300, controller.signal))).toEqual({
			elapsed: 1300,
			timers: [200, 200, 200, 200, 200, 200, 100],
		});
	});

	it('returns early when the signal aborts', async () => {
		const controller = new AbortController();
		const { elapsed } = await timed(async () => {
			setTimeout(() => controller.abort(), 50);
			await cancellableSleep(30_000, controller.signal);
		});
		expect(elapsed).toBe(50);
	});

	it('returns at once for an aborted signal or a non-positive time', async () => {
		const controller = new AbortController();
		controller.abort();
		const { elapsed, timers } = await timed(async () => {
			await cancellableSleep(30_000, controller.signal);
			await cancellableSleep(0);
			await cancellableSleep(-5);
		});
		expect({ elapsed, timers }).toEqual({ elapsed: 0, timers: [] });
	});
});
