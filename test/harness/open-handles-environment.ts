/**
 * The jest environment of every test file (jest.config.js): node's, plus a check that the file
 * closed what it opened. When the file is over (its tests and afterAll hooks have run), the
 * process must hold no more timers, sockets, servers, child processes or pending requests than
 * before the file started; otherwise the file fails with "left open: ..." naming the resource
 * types. A leaked handle would keep jest's worker alive after the run (jest then prints "A worker
 * process has failed to exit gracefully" and kills it), or wake up inside the next test file.
 *
 * process.getActiveResourcesInfo() counts only what keeps the event loop alive (an unref'd timer
 * or socket is not listed). Sockets and servers close asynchronously (their handle is released a
 * turn or two of the event loop after destroy()/close()), so the check waits for the count to
 * come back to the baseline, at most CLOSE_GRACE_MS; a timer is cleared synchronously, so a
 * timer still armed after that is a leak whatever its delay.
 */
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import NodeEnvironment from 'jest-environment-node';
import { appendFileSync } from 'node:fs';

export const CLOSE_GRACE_MS = 2000;

/** The resource types in `now` that are not in `baseline` (a multiset difference), counted. */
export function leftOpen(baseline: string[], now: string[]): string[] {
	const remaining = new Map<string, number>();
	for (const type of baseline) remaining.set(type, (remaining.get(type) ?? 0) + 1);
	const extra = new Map<string, number>();
	for (const type of now) {
		const left = remaining.get(type) ?? 0;
		if (left > 0) remaining.set(type, left - 1);
		else extra.set(type, (extra.get(type) ?? 0) + 1);
	}
	return [...extra].map(([type, count]) => (count > 1 ? `${type} x${count}` : type));
}

/** Resolves once the open resources are back to `baseline` or `graceMs` have passed; returns what is left. */
export async function waitForClose(baseline: string[], graceMs = CLOSE_GRACE_MS): Promise<string[]> {
	const until = Date.now() + graceMs;
	for (;;) {
		// Between two checks the event loop turns (closing handles are released in its close phase).
		await new Promise<void>((resolve) => setImmediate(resolve));
		const extra = leftOpen(baseline, process.getActiveResourcesInfo());
		if (!extra.length || Date.now() >= until) return extra;
		await new Promise<void>((resolve) => setTimeout(resolve, 10).unref());
	}
}

export default class OpenHandlesEnvironment extends NodeEnvironment {
	private readonly baseline = process.getActiveResourcesInfo();

	private readonly testPath: string;

	constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
		super(config, context);
		this.testPath = context.testPath;
	}

	async teardown(): Promise<void> {
		await super.teardown();
		const start = Date.now();
		const atEnd = leftOpen(this.baseline, process.getActiveResourcesInfo());
		const extra = await waitForClose(this.baseline);
		if (process.env.OPEN_HANDLES_LOG) {
			// Figures for the README: what each file still had open at its end, and how long it took to close.
			appendFileSync(
				process.env.OPEN_HANDLES_LOG,
				`${JSON.stringify({ file: this.testPath, atEnd, closedAfterMs: Date.now() - start, extra })}\n`,
			);
		}
		if (extra.length) {
			const error = new Error(
				`${this.testPath} left open: ${extra.join(', ')} (still there ${CLOSE_GRACE_MS} ms after its last ` +
					'afterAll). Close it in the test (server.close(), socket.destroy(), clearTimeout(), ' +
					'child.kill()...) or in the package code that opened it; `npx jest --detectOpenHandles <file>` ' +
					'shows where it was created.',
			);
			error.stack = error.message; // the place of the check says nothing about the leak
			throw error;
		}
	}
}
