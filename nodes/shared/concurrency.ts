/** Results in index order; a task that rejects rejects the whole run once the running ones settle. */
export async function mapWithConcurrency<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	const width = Math.max(1, Math.min(Math.floor(limit) || 1, count));
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < count) {
			const index = next++;
			try {
				results[index] = await task(index);
			} catch (error) {
				failure = failure ?? { error };
			}
		}
	};
	await Promise.all(Array.from({ length: width }, worker));
	if (failure) throw failure.error;
	return results;
}

export type Limiter = <T>(run: () => Promise<T>) => Promise<T>;

/** Slots shared by several kinds of request: first come, first served. */
export function createLimiter(limit: number): Limiter {
	const width = Math.max(1, Math.floor(limit) || 1);
	let running = 0;
	const queue: Array<() => void> = [];
	return async <T>(run: () => Promise<T>): Promise<T> => {
		// A finishing function hands its slot straight to the next in line, so none is taken twice.
		if (running < width) running++;
		else await new Promise<void>((resolve) => queue.push(resolve));
		try {
			return await run();
		} finally {
			const next = queue.shift();
			if (next) next();
			else running--;
		}
	};
}
