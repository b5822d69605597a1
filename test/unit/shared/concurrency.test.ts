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
		await expect(
			mapWithConcurrency(6, 2, async (index) => {
				started.push(index);
				await tick();
				if (index === 1) throw new Error('item 1 failed');
				return index;
			}),
		).rejects.toThrow('item 1 failed');
		expect(started.length).toBeLessThan(6);
	});
});
