/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Waits for a condition a test means (a delivery logged, requests in flight), never for a fixed
 * time: checks it every `everyMs` and resolves as soon as it holds; rejects, naming it, after
 * `timeoutMs` (so a broken condition fails the test instead of hanging it).
 */
export async function until(
	condition: () => boolean,
	what: string,
	{ timeoutMs = 10_000, everyMs = 10 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
