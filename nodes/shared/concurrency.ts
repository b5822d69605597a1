/**
 * Runs `task` for every index with at most `limit` running at once and
 * returns the results in index order, whatever order they finish in.
 * A task that rejects rejects the whole run after the running ones settle
 * (the router turns per-item failures into results before they get here).
 */
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
