/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The verdict of scripts/worker-exit-trace.js on jest's "A worker process has failed to exit
 * gracefully": `./scripts/run test` fails only when jest killed a worker whose event loop still
 * turned (its SIGTERM handler ran, listing what was open) or that left no trace of its end.
 */
import { join } from 'node:path';

interface Worker {
	pid: number;
}

/** The script, loaded without its tracing (which a traced run's worker would otherwise install twice). */
function script(): { workersOf: (events: object[]) => Worker[]; judge: (workers: Worker[]) => number } {
	const trace = process.env.WORKER_EXIT_TRACE;
	delete process.env.WORKER_EXIT_TRACE;
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, run by Node before jest
		return require(join(__dirname, '..', '..', '..', 'scripts', 'worker-exit-trace.js'));
	} finally {
		if (trace !== undefined) process.env.WORKER_EXIT_TRACE = trace;
	}
}

const { workersOf, judge } = script();

/** A worker's trace, times in ms after jest's end request: undefined leaves the event out. */
function trace(times: { done?: number; exit?: number; kill?: number; handled?: string[]; gone?: number }) {
	const pid = 100;
	const events: object[] = [{ t: 0, event: 'parent-sent-end', child: pid }];
	if (times.done !== undefined) events.push({ t: times.done, pid, event: 'worker-js-done', open: [] });
	if (times.exit !== undefined) events.push({ t: times.exit, pid, event: 'worker-exit-event', rssMb: 900 });
	if (times.kill !== undefined) events.push({ t: times.kill, event: 'parent-kill', child: pid });
	if (times.handled)
		events.push({ t: (times.kill ?? 0) + 1, pid, event: 'worker-sigterm', open: times.handled });
	if (times.gone !== undefined) events.push({ t: times.gone, event: 'parent-saw-exit', child: pid });
	return events;
}

describe('worker-exit-trace verdict', () => {
	beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
	afterEach(() => jest.restoreAllMocks());

	it.each([
		{ name: 'not killed', times: { done: 1, exit: 2, gone: 60 }, verdict: 0 },
		{
			name: 'killed after its event loop emptied',
			times: { done: 1, exit: 2, kill: 501, gone: 560 },
			verdict: 0,
		},
		{
			name: 'killed while its event loop turned: the SIGTERM handler ran and listed what was open',
			// The handler's process.exit(143) emits the 'exit' event after it.
			times: { done: 1, kill: 501, handled: ['Timeout'], exit: 503, gone: 510 },
			verdict: 1,
		},
		{
			name: 'killed, its event loop emptied 25 ms later without handling the SIGTERM (not run in time)',
			times: { done: 8, exit: 526, kill: 501, gone: 969 },
			verdict: 0,
		},
		{ name: 'killed, with no trace of its end', times: { done: 1, kill: 501, gone: 560 }, verdict: 1 },
	])('$name -> $verdict', ({ times, verdict }) => {
		expect(judge(workersOf(trace(times)))).toBe(verdict);
	});
});
