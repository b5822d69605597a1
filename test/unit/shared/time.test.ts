/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { cancellableSleep } from '../../../nodes/shared/time';

describe('cancellableSleep', () => {
	it('sleeps the time asked without a signal', async () => {
		const started = Date.now();
		await cancellableSleep(120);
		expect(Date.now() - started).toBeGreaterThanOrEqual(110);
	});

	it('sleeps the whole time, across slices, when nothing aborts', async () => {
		const controller = new AbortController();
		const started = Date.now();
		await cancellableSleep(1300, controller.signal);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1290);
	});

	it('returns early when the signal aborts', async () => {
		const controller = new AbortController();
		const started = Date.now();
		const sleeping = cancellableSleep(30_000, controller.signal);
		setTimeout(() => controller.abort(), 50);
		await sleeping;
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it('returns at once for an aborted signal or a non-positive time', async () => {
		const controller = new AbortController();
		controller.abort();
		const started = Date.now();
		await cancellableSleep(30_000, controller.signal);
		await cancellableSleep(0);
		await cancellableSleep(-5);
		// Far below the 30 s asked for: no sleep happened (a loaded machine may stall the loop for a while).
		expect(Date.now() - started).toBeLessThan(5_000);
	});
});
