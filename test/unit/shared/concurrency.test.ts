/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { mapWithConcurrency } from '../../../nodes/shared/concurrency';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('mapWithConcurrency', () => {
	it('keeps index order whatever order tasks finish in, and never exceeds the bound', async () => {
		let running = 0;
		let peak = 0;
		const results = await mapWithConcurrency(10, 3, async (index) => {
			running++;
			peak = Math.max(peak, running);
			for (let i = 0; i < 10 - index; i++) await tick(); // later items finish first
			running--;
			return index * 2;
		});
		expect(results).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
		expect(peak).toBe(3);
	});

	it.each([
		[0, 1],
		[1, 5],
		[4, 0],
		[4, Number.NaN],
	])('count %p with limit %p still runs every task', async (count, limit) => {
		const results = await mapWithConcurrency(count, limit, async (index) => index);
		expect(results).toEqual(Array.from({ length: count }, (_, i) => i));
	});

	it('rejects with the first failure and starts nothing new after it', async () => {
		const started: number[] = [];
		const settle = new Map<number, { resolve: (value: number) => void; reject: (error: Error) => void }>();
		let outcome: string | undefined;
		const run = mapWithConcurrency(
			6,
			2,
			async (index) =>
				await new Promise<number>((resolve, reject) => {
					started.push(index);
					settle.set(index, { resolve, reject });
				}),
		).then(
			() => (outcome = 'resolved'),
			(error: Error) => (outcome = error.message),
		);
		await tick();
		expect(started).toEqual([0, 1]);
		settle.get(1)!.reject(new Error('item 1 failed'));
		await tick();
		// Item 0 still runs: the run waits for it, and its slot takes nothing new.
		expect({ started, outcome }).toEqual({ started: [0, 1], outcome: undefined });
		settle.get(0)!.resolve(0);
		await run;
		expect({ started, outcome }).toEqual({ started: [0, 1], outcome: 'item 1 failed' });
	});
});
