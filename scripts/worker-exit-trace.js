/**
 * Diagnostic for jest's "A worker process has failed to exit gracefully": run jest with
 *   WORKER_EXIT_TRACE=/tmp/trace.jsonl NODE_OPTIONS="--require ./scripts/worker-exit-trace.js" npx jest
 * and read the trace with `node scripts/worker-exit-trace.js /tmp/trace.jsonl`.
 *
 * In jest's parent process it records, per worker, when jest asked it to end (CHILD_MESSAGE_END)
 * and when the parent saw it exit (code, signal). In each worker it records when the worker
 * stopped listening for jest's messages (its JS work is over), the resources still keeping its
 * event loop alive at that moment and every 100 ms after, its 'exit' event, and, if jest has to
 * SIGTERM it, what was still open then. A worker whose 'exit' event comes before jest's SIGTERM
 * had nothing open: the delay is the process teardown, not a leak.
 */
'use strict';
const fs = require('node:fs');

const file = process.env.WORKER_EXIT_TRACE;
const now = () => Number(process.hrtime.bigint() / 1000n) / 1000; // ms, monotonic, shared by all processes
const log = (event) =>
	file && fs.appendFileSync(file, `${JSON.stringify({ t: now(), pid: process.pid, ...event })}\n`);
const resources = () => process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');

if (require.main === module && process.argv[2]) {
	report(process.argv[2]);
} else if (file && process.env.JEST_WORKER_ID) {
	// A worker (jest-worker's processChild.js): its end() removes the 'message' listener.
	process.on('removeListener', (name) => {
		if (name !== 'message' || process.listenerCount('message') > 0) return;
		log({ event: 'worker-js-done', worker: process.env.JEST_WORKER_ID, open: resources() });
		setInterval(() => log({ event: 'worker-still-open', open: resources() }), 100).unref();
	});
	process.on('exit', (code) =>
		log({ event: 'worker-exit-event', code, rssMb: Math.round(process.memoryUsage().rss / 2 ** 20) }),
	);
	process.once('SIGTERM', () => {
		log({ event: 'worker-sigterm', open: resources() });
		process.exit(143);
	});
} else if (file) {
	// jest's parent: wrap fork to see END requests and exits.
	const childProcess = require('node:child_process');
	const fork = childProcess.fork;
	childProcess.fork = function tracedFork(...args) {
		const child = fork.apply(this, args);
		log({ event: 'parent-forked', child: child.pid, module: String(args[0]).split('node_modules/').pop() });
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

/** One line per worker: the times from jest's END request, and what was open. */
function report(path) {
	const events = fs
		.readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line));
	const children = [...new Set(events.filter((e) => e.child).map((e) => e.child))];
	for (const pid of children) {
		const mine = (name) => events.find((e) => e.event === name && (e.child === pid || e.pid === pid));
		const end = mine('parent-sent-end');
		if (!end) continue;
		const since = (e) => (e ? `${(e.t - end.t).toFixed(0)} ms` : '-');
		const js = mine('worker-js-done');
		const exitEvent = mine('worker-exit-event');
		const kill = events.find((e) => e.event === 'parent-kill' && e.child === pid);
		const sigterm = mine('worker-sigterm');
		const seen = mine('parent-saw-exit');
		console.log(
			[
				`worker ${pid}:`,
				`JS done ${since(js)} (open: ${js ? js.open.join(',') || 'nothing' : '-'})`,
				`exit event ${since(exitEvent)} (rss ${exitEvent?.rssMb ?? '-'} MB)`,
				`jest kill ${kill ? `${kill.signal} at ${since(kill)}` : 'none'}`,
				sigterm ? `open at SIGTERM: ${sigterm.open.join(',') || 'nothing'}` : '',
				`parent saw exit ${since(seen)} (code ${seen?.code}, signal ${seen?.signal})`,
			]
				.filter(Boolean)
				.join('  '),
		);
	}
}
