/**
 * Tells what jest's "A worker process has failed to exit gracefully and has been force exited"
 * was: a worker kept alive by something left open, or a worker that had finished but whose
 * process took longer than jest's 500 ms to go away (a ~900 MB process under load: see CONTRIBUTING.md,
 * "The test command and open handles"). `./scripts/run test` runs jest with it:
 *   WORKER_EXIT_TRACE=/tmp/trace.jsonl NODE_OPTIONS="--require ./scripts/worker-exit-trace.js" npx jest
 *   node scripts/worker-exit-trace.js /tmp/trace.jsonl            one line per worker
 *   node scripts/worker-exit-trace.js --verdict /tmp/trace.jsonl  exit 1 if jest killed a busy worker
 * (`workersOf` and `judge` are exported for test/unit/harness/worker-exit-trace.test.ts).
 *
 * In jest's process it records, per worker, when jest asked it to end (CHILD_MESSAGE_END), when
 * jest signalled it, and when it saw it exit. In each worker it records when the worker stopped
 * listening for jest's messages (its work is over), what then still kept its event loop alive,
 * its 'exit' event (emitted only once the event loop is empty: nothing open), and, if jest had to
 * SIGTERM it before that, what was still open. Other processes (started by tests) are left alone.
 */
'use strict';
const fs = require('node:fs');

const file = process.env.WORKER_EXIT_TRACE;
const now = () => Number(process.hrtime.bigint() / 1000n) / 1000; // ms, CLOCK_MONOTONIC: shared by all processes
const log = (event) =>
	fs.appendFileSync(file, `${JSON.stringify({ t: now(), pid: process.pid, ...event })}\n`);
const resources = () => process.getActiveResourcesInfo();
const script = String(process.argv[1] ?? '');

if (require.main === module) {
	const verdict = process.argv[2] === '--verdict';
	const path = process.argv[verdict ? 3 : 2];
	if (!path) {
		console.error('usage: node scripts/worker-exit-trace.js [--verdict] <trace.jsonl>');
		process.exit(2);
	}
	const workers = readTrace(path);
	if (verdict) process.exit(judge(workers));
	for (const worker of workers) console.log(describe(worker));
} else if (file && script.endsWith('jest-worker/build/workers/processChild.js')) {
	// A jest worker: jest-worker's end() removes its 'message' listener and lets the event loop drain.
	process.on('removeListener', (name) => {
		if (name !== 'message' || process.listenerCount('message') > 0) return;
		log({ event: 'worker-js-done', open: resources() });
	});
	process.on('exit', (code) =>
		log({ event: 'worker-exit-event', code, rssMb: Math.round(process.memoryUsage().rss / 2 ** 20) }),
	);
	process.once('SIGTERM', () => {
		// Runs only while the event loop still turns, i.e. something is open.
		log({ event: 'worker-sigterm', open: resources() });
		process.exit(143);
	});
} else if (file && /[/\\]jest(\.js)?$/.test(script)) {
	// jest's own process: wrap fork to see the END requests, the kills and the exits of its workers.
	const childProcess = require('node:child_process');
	const fork = childProcess.fork;
	childProcess.fork = function tracedFork(...args) {
		const child = fork.apply(this, args);
		if (!String(args[0]).endsWith('processChild.js')) return child;
		const send = child.send;
		child.send = function tracedSend(message, ...rest) {
			if (Array.isArray(message) && message[0] === 2) log({ event: 'parent-sent-end', child: child.pid });
			return send.call(this, message, ...rest);
		};
		const kill = child.kill;
		child.kill = function tracedKill(signal) {
			log({ event: 'parent-kill', child: child.pid, signal });
			return kill.call(this, signal);
		};
		child.on('exit', (code, signal) => log({ event: 'parent-saw-exit', child: child.pid, code, signal }));
		return child;
	};
}

/** Per worker that jest asked to end: the times (ms) after that request, and what was open. */
function readTrace(path) {
	return workersOf(
		fs
			.readFileSync(path, 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line)),
	);
}

/** The workers of a trace's events (readTrace). */
function workersOf(events) {
	return events
		.filter((e) => e.event === 'parent-sent-end')
		.map((end) => {
			const pid = end.child;
			const of = (name) => events.find((e) => e.event === name && (e.child === pid || e.pid === pid));
			const after = (e) => (e ? Math.round(e.t - end.t) : undefined);
			const [js, exitEvent, kill, sigterm, seen] = [
				'worker-js-done',
				'worker-exit-event',
				'parent-kill',
				'worker-sigterm',
				'parent-saw-exit',
			].map(of);
			return {
				pid,
				jsDoneMs: after(js),
				exitEventMs: after(exitEvent),
				rssMb: exitEvent?.rssMb,
				killedMs: after(kill),
				openAtKill: sigterm?.open,
				goneMs: after(seen),
				signal: seen?.signal,
			};
		});
}

function describe(w) {
	const ms = (v) => (v === undefined ? '-' : `${v} ms`);
	return [
		`worker ${w.pid}: work over ${ms(w.jsDoneMs)} after jest's end request`,
		`event loop empty ('exit' event) ${ms(w.exitEventMs)} (rss ${w.rssMb ?? '-'} MB)`,
		w.killedMs === undefined ? 'not killed' : `SIGTERM from jest at ${ms(w.killedMs)}`,
		w.openAtKill
			? `process.getActiveResourcesInfo() then: ${w.openAtKill.join(', ') || 'nothing'} (a worker thread is not listed)`
			: '',
		`process gone at ${ms(w.goneMs)}${w.signal ? ` (${w.signal})` : ''}`,
	]
		.filter(Boolean)
		.join('; ');
}

/**
 * 1 if jest killed a worker whose event loop still turned (something left open), else 0. A worker
 * whose SIGTERM handler ran was still turning: the handler lists what was open. One whose 'exit' event
 * came after jest's SIGTERM without the handler running was not: it emptied its loop without another
 * turn, late only because the process did not run in time (a loaded machine). A worker that left
 * neither fails too: nothing says it ended by itself.
 */
function judge(workers) {
	const killed = workers.filter((w) => w.killedMs !== undefined);
	const busy = killed.filter((w) => w.openAtKill !== undefined || w.exitEventMs === undefined);
	for (const w of killed) console.error(`worker-exit-trace: ${describe(w)}`);
	if (busy.length) {
		console.error(
			'worker-exit-trace: FAILED: jest killed a worker that still had something open (listed above); ' +
				'find what opened it with npx jest --detectOpenHandles.',
		);
		return 1;
	}
	if (killed.length) {
		console.error(
			"worker-exit-trace: not a leak: every worker jest killed emptied its event loop without handling the SIGTERM (before it, or in the turn it was in); its process was still being torn down, or not yet run, by the system when jest's 500 ms grace ran out (slow machine or heavy load).",
		);
	}
	return 0;
}

module.exports = { workersOf, judge };
