/**
 * Create and Wait, callback mode, when the gateway's reads trail its
 * callbacks: a final callback that a read does not confirm is read again
 * within the confirmation window (1 s, 3.5 s, 7.5 s; answered within 8 s),
 * so a lag up to the window needs no second callback; a longer lag needs
 * one (at fixed pauses, or after the Retry-After). Every row: resumes, reads
 * per task, the answers to the final callbacks, downloads. Rows and figures:
 * video-callback-lag.ts.
 */
import { OTHERS_READS_PER_TASK } from '../../nodes/shared/waitClocks';
import { confirmReadTimes } from '../../nodes/shared/confirmWindow';
import { useVirtualTime } from '../harness/virtual-time';
import type { Fault } from '../simulator/types';
import type { LagFigures, LagRow } from './video-callback-lag';
import { FAST_SECOND, HONOURING_SECOND, NO_SECOND, runLagRow } from './video-callback-lag';

/**
 * Resumed once with every video, each downloaded once. How long an answer took is the bench's
 * figure (P8), not a test's: the window's schedule is asserted on a fake clock
 * (test/unit/shared/confirmWindow.test.ts).
 */
function expectResumed(f: LagFigures, tasks: number) {
	expect(f.status).toBe('success');
	expect(f.resumed).toBe(1);
	expect(f.videos).toBe(tasks);
	expect(f.downloads).toEqual(Array(tasks).fill(1));
}

/**
 * The most reads of one task the design allows in a batch whose gateway sends each callback once,
 * whatever the machine's load: the read as the wait began, its final callback's read, the window's
 * reads up to the first one at or after the lag (a callback that comes later needs fewer), and the
 * other tasks' callbacks' reads (at most OTHERS_READS_PER_TASK, and one more by a callback that
 * finds every other task final).
 */
function readsBound(lagMs: number): number {
	const windowReads = confirmReadTimes().findIndex((at) => at >= lagMs) + 1;
	return 1 + 1 + windowReads + OTHERS_READS_PER_TASK + 1;
}

useVirtualTime();

/** A row with the gateway's callbacks on kept connections: the 300-task row sends 1,200 of them. */
const run = async (row: LagRow) => await runLagRow(row, { keepConnections: true });

const answered = (f: LagFigures) => Object.keys(f.finalAnswers).sort();

describe('Video → Create and Wait, callback mode: reads that trail the callbacks, no second callback (workflow)', () => {
	it.each<[string, LagRow, number]>([
		[
			'reads current, 1 task: the wait read, the confirmation',
			{ name: 'lag 0', tasks: 1, lagMs: 0, second: NO_SECOND },
			2,
		],
		[
			'reads trail by 1 s, 1 task: the first read stale, the window read 1 s later confirms',
			{ name: 'lag 1 s', tasks: 1, lagMs: 1_000, second: NO_SECOND },
			3,
		],
		[
			'reads trail by 3 s, 1 task: confirmed by the window read 3.5 s after the stale one',
			{ name: 'lag 3 s', tasks: 1, lagMs: 3_000, second: NO_SECOND },
			4,
		],
	])(
		'%s',
		async (_name, row, reads) => {
			const f = await run(row);
			expectResumed(f, 1);
			expect(f.readsPerTask).toEqual([reads]);
			expect(f.finalAnswers).toEqual({ 200: 1 });
			expect(f.secondCallbacks).toBe(0);
		},
		30_000,
	);

	it.each<[string, Fault]>([
		['answers 503', { kind: 'status', status: 503 }],
		['breaks the connection', { kind: 'drop' }],
	])(
		"reads trail by 3 s and the window's first read %s: the next one confirms, resumed with the video",
		async (_fault, fault) => {
			const f = await run({
				name: 'lag 3 s, a window read fails',
				tasks: 1,
				lagMs: 3_000,
				second: NO_SECOND,
				readFault: { atRead: 3, fault },
			});
			expectResumed(f, 1);
			// The wait read, the callback's stale read, the failed window read, the one that confirms.
			expect(f.readsPerTask).toEqual([4]);
			expect(f.finalAnswers).toEqual({ 200: 1 });
		},
		30_000,
	);

	it('reads trail by 3 s, 3 tasks ending together: resumed once, reads per task within the design bound, no 5xx', async () => {
		const f = await run({ name: '3 tasks lag 3 s', tasks: 3, lagMs: 3_000, second: NO_SECOND });
		expectResumed(f, 3);
		expect(Math.max(...f.readsPerTask)).toBeLessThanOrEqual(readsBound(3_000));
		expect(answered(f)).toEqual(['200']);
		expect(f.secondCallbacks).toBe(0);
	});

	it('reads trail by 2 s, 5 tasks ending together (the reported case): resumed once with every video', async () => {
		const f = await run({ name: '5 tasks lag 2 s', tasks: 5, lagMs: 2_000, second: NO_SECOND });
		expectResumed(f, 5);
		expect(Math.max(...f.readsPerTask)).toBeLessThanOrEqual(readsBound(2_000));
		expect(answered(f)).toEqual(['200']);
	});

	it('reads trail by 3 s, 300 tasks ending together (Wait Mode Callback): resumed once with all 300 videos, reads per task within the design bound', async () => {
		const f = await run({ name: '300 tasks lag 3 s', tasks: 300, lagMs: 3_000, second: NO_SECOND });
		expectResumed(f, 300);
		// 7 by design, whatever the load (a busy machine once drove one task to 17 reads before the bound).
		expect(readsBound(3_000)).toBe(7);
		expect(Math.max(...f.readsPerTask)).toBeLessThanOrEqual(readsBound(3_000));
		// No final callback answered 5xx: 200, or, once resumed, the route's refusal (409; 404 from the
		// harness's route once the execution went past the node). On a loaded machine some answers come
		// after the sender's 15 s and count as unanswered there: that is the machine's speed (the bench's
		// figure), not the node's behaviour.
		// Which of them the sender still saw answered depends on the machine: the resume by one of them is
		// what the row asserts (expectResumed), not a count of 200s.
		expect(answered(f).filter((status) => /^5\d\d$/.test(status))).toEqual([]);
		expect(f.secondCallbacks).toBe(0);
	}, 300_000); // 300 creates, then 300 callbacks and their reads over real HTTP: the longest rows of the suite

	it('reads trail by more than the window (9 s): one 503 + Retry-After, no resume (a second callback is needed)', async () => {
		const f = await run({ name: 'lag 9 s', tasks: 1, lagMs: 9_000, second: NO_SECOND });
		expect(f.status).toBe('waiting');
		expect(f.resumed).toBe(0);
		expect(f.finalAnswers).toEqual({ 503: 1 });
		// The wait read, the callback's read and the window's three.
		expect(f.readsPerTask).toEqual([5]);
		expect(f.downloads).toEqual([0]);
	});
});

describe('Video → Create and Wait, callback mode: reads that trail the callbacks, second callbacks (workflow)', () => {
	it('reads trail by 2 s, the gateway would call again at 0.5 s and 1 s: no need, 5 tasks resumed by their first callbacks', async () => {
		const f = await run({
			name: '5 tasks lag 2 s fast second',
			tasks: 5,
			lagMs: 2_000,
			second: FAST_SECOND,
		});
		expectResumed(f, 5);
		expect(f.secondCallbacks).toBe(0);
		expect(answered(f)).toEqual(['200']);
		expect(Math.max(...f.readsPerTask)).toBeLessThanOrEqual(readsBound(2_000));
	});

	it('reads trail by 9 s, second callbacks 0.5 s and 1 s after the 503 (Retry-After ignored): the second one resumes', async () => {
		const f = await run({ name: 'lag 9 s fast second', tasks: 1, lagMs: 9_000, second: FAST_SECOND });
		expectResumed(f, 1);
		expect(f.finalAnswers).toEqual({ 503: 1, 200: 1 });
		expect(f.secondCallbacks).toBe(1);
		// Five reads for the first callback; the second one's read at 8.5 s is stale, its window's first at 9.5 s confirms.
		expect(f.readsPerTask).toEqual([7]);
	});

	it('reads trail by 9 s, the gateway honours Retry-After (30 s): the callback 30 s later resumes', async () => {
		const f = await run({
			name: 'lag 9 s honouring',
			tasks: 1,
			lagMs: 9_000,
			second: HONOURING_SECOND,
		});
		expectResumed(f, 1);
		expect(f.finalAnswers).toEqual({ 503: 1, 200: 1 });
		expect(f.secondCallbacks).toBe(1);
		// Five reads for the first callback, one for the second (current by then).
		expect(f.readsPerTask).toEqual([6]);
		expect(f.seconds).toBeGreaterThanOrEqual(30);
	});
});
