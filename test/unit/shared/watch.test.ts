/** The package's own news of finished tasks (nodes/shared/watch.ts), on a fake clock. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PostAnswer, UnreachableCause } from '../../../nodes/shared/ownAddress';

import { createLimiter } from '../../../nodes/shared/concurrency';
import type { DeliveryVerdict, Watch } from '../../../nodes/shared/watch';
import { deliveryVerdict, postToN8n, startWatch, watchTasks } from '../../../nodes/shared/watch';
import { WATCH_SCHEDULE } from '../../../nodes/shared/waitClocks';
import { FakeClock } from './fakeClock';

const START = 1_000_000;

/** Tasks that end at the given times (ms after START); every read and delivery is logged with its time. */
function fixture(
	endsAt: Record<string, number>,
	answers: DeliveryVerdict[] = ['done'],
	until = START + 3_600_000,
) {
	const clock = new FakeClock(START);
	const reads: Array<[string, number]> = [];
	const deliveries: Array<[string[], number]> = [];
	const finalsSeen: string[] = [];
	const state = { delivered: false, known: new Map<string, IDataObject>() };
	const watch: Watch = {
		taskIds: Object.keys(endsAt),
		until,
		known: (id) => state.known.get(id),
		delivered: () => state.delivered,
		read: async (id) => {
			reads.push([id, clock.now() - START]);
			return { id, status: clock.now() - START >= endsAt[id] ? 'completed' : 'in_progress' };
		},
		deliver: async (records) => {
			deliveries.push([records.map((r) => String(r.id)), clock.now() - START]);
			return answers.shift() ?? 'done';
		},
		onFinal: (record) => finalsSeen.push(String(record.id)),
	};
	const slots = { reads: createLimiter(8), deliveries: createLimiter(4) };
	return {
		clock,
		reads,
		deliveries,
		finalsSeen,
		state,
		run: async () => await watchTasks(watch, clock, WATCH_SCHEDULE, slots),
	};
}

describe('watchTasks', () => {
	it('reads every 30 s until all are final, gives the callback 15 s, then posts once', async () => {
		const f = fixture({ a: 40_000, b: 70_000 });
		await expect(f.run()).resolves.toBe('posted');
		expect(f.reads).toEqual([
			['a', 30_000],
			['b', 30_000],
			['a', 60_000],
			['b', 60_000],
			['b', 90_000],
		]);
		expect(f.finalsSeen).toEqual(['a', 'b']);
		expect(f.deliveries).toEqual([[['a', 'b'], 105_000]]);
	});

	it('reads nothing the process already knows final, and stops once the news got through here', async () => {
		const f = fixture({ a: 40_000, b: 70_000 });
		f.state.known.set('a', { id: 'a', status: 'completed' });
		const running = f.run();
		await expect(running).resolves.toBe('posted');
		expect(f.reads.map(([id]) => id)).toEqual(['b', 'b', 'b']);
		expect(f.finalsSeen).toEqual(['b']);

		const g = fixture({ a: 10_000 });
		g.state.delivered = true;
		await expect(g.run()).resolves.toBe('delivered');
		expect(g.reads).toEqual([]);
		expect(g.deliveries).toEqual([]);
	});

	it('posts again while n8n does not take it: 5, 10, 20, 40, then every 60 s', async () => {
		const f = fixture({ a: 0 }, ['again', 'again', 'again', 'again', 'again', 'again', 'done']);
		await expect(f.run()).resolves.toBe('posted');
		expect(f.deliveries.map(([, at]) => at)).toEqual([
			45_000, 50_000, 60_000, 80_000, 120_000, 180_000, 240_000,
		]);
	});

	it('a delivery that throws is sent again, and the news arriving meanwhile ends the watch', async () => {
		const f = fixture({ a: 0 });
		let calls = 0;
		const watch: Watch = {
			taskIds: ['a'],
			until: START + 3_600_000,
			known: () => undefined,
			delivered: () => calls >= 2,
			read: async () => ({ id: 'a', status: 'failed' }),
			deliver: async () => {
				calls++;
				throw new Error('socket hang up');
			},
		};
		const slots = { reads: createLimiter(1), deliveries: createLimiter(1) };
		await expect(watchTasks(watch, f.clock, WATCH_SCHEDULE, slots)).resolves.toBe('delivered');
		expect(calls).toBe(2);
	});

	it('stops at its deadline: no read or post after it', async () => {
		const f = fixture({ a: 500_000 }, ['done'], START + 100_000);
		await expect(f.run()).resolves.toBe('deadline');
		expect(f.reads.map(([, at]) => at)).toEqual([30_000, 60_000, 90_000]);
		expect(f.deliveries).toEqual([]);

		const g = fixture({ a: 0 }, ['again', 'again', 'again'], START + 60_000);
		await expect(g.run()).resolves.toBe('deadline');
		expect(g.deliveries.map(([, at]) => at)).toEqual([45_000, 50_000, 60_000]);
	});

	/** A claim in force over [from, to) ms after START: a callback builds the resume, or handed it to n8n. */
	it.each<[string, [number, number], number[], string]>([
		// The build fails (the claim is released): the watch posts once the claim is gone.
		['a claim built as the tasks end, then released', [10_000, 130_000], [135_000], 'posted'],
		// Handed over, n8n never resumed: the hold passes and the watch posts.
		[
			'a claim handed over as the first post was due, its resume never started',
			[40_000, 100_000],
			[105_000],
			'posted',
		],
		['a claim still in force at the deadline', [40_000, 10_000_000], [], 'deadline'],
	])(
		'%s: the watch only pauses its posts, looking again every 30 s',
		async (_what, [from, to], posts, end) => {
			const f = fixture({ a: 0 }, ['done'], START + 600_000);
			const watch: Watch = {
				taskIds: ['a'],
				until: START + 600_000,
				known: () => undefined,
				delivered: () => false,
				paused: () => f.clock.now() - START >= from && f.clock.now() - START < to,
				read: async (id) => ({ id, status: 'completed' }),
				deliver: async (records) => {
					f.deliveries.push([records.map((r) => String(r.id)), f.clock.now() - START]);
					return 'done';
				},
			};
			const slots = { reads: createLimiter(1), deliveries: createLimiter(1) };
			await expect(watchTasks(watch, f.clock, WATCH_SCHEDULE, slots)).resolves.toBe(end);
			expect(f.deliveries.map(([, at]) => at)).toEqual(posts);
		},
	);

	it('a read that fails is no answer: the task is read again at the next round', async () => {
		const f = fixture({ a: 0 });
		let failures = 1;
		const watch: Watch = {
			taskIds: ['a'],
			until: START + 3_600_000,
			known: () => undefined,
			delivered: () => false,
			read: async () => {
				if (failures-- > 0) throw new Error('503');
				return { id: 'a', status: 'completed' };
			},
			deliver: async () => 'done',
		};
		await expect(
			watchTasks(watch, f.clock, WATCH_SCHEDULE, { reads: createLimiter(1), deliveries: createLimiter(1) }),
		).resolves.toBe('posted');
		expect(f.clock.sleeps).toEqual([30_000, 30_000, 15_000]);
	});
});

describe('deliveryVerdict', () => {
	it.each<[number, DeliveryVerdict]>([
		[200, 'done'],
		[204, 'done'],
		[400, 'done'],
		[401, 'done'],
		[404, 'done'],
		[409, 'done'],
		[0, 'again'],
		[429, 'again'],
		[500, 'again'],
		[503, 'again'],
		[504, 'again'],
	])('HTTP %s: %s', (status, verdict) => {
		expect(deliveryVerdict({ status, body: {} })).toBe(verdict);
	});

	const cause = (c: UnreachableCause): PostAnswer => ({
		status: 0,
		body: undefined,
		unreachable: { cause: c, said: c, fix: '' },
	});
	it.each<[string, DeliveryVerdict, PostAnswer]>([
		// n8n's words while another request resumes the execution: that resume may still fail.
		[
			'409 "is running already"',
			'again',
			{ status: 409, body: { code: 409, message: 'The execution "7" is running already.' } },
		],
		[
			'409 "has finished already"',
			'done',
			{ status: 409, body: { code: 409, message: 'The execution "7 has finished already.' } },
		],
		[
			'409 "has finished with error"',
			'done',
			{ status: 409, body: { code: 409, message: 'The execution "7" has finished with error.' } },
		],
		// n8n holds a post open while the execution waits at a node followed by a Wait or Form node.
		["no answer within the post's timeout", 'done', cause('timeout')],
		['a refused connection', 'again', cause('refused')],
		['a connection that broke', 'again', cause('other')],
		['a certificate n8n does not trust', 'again', cause('certificate')],
	])('%s: %s', (_what, verdict, answer) => {
		expect(deliveryVerdict(answer)).toBe(verdict);
	});
});

describe('postToN8n: what n8n answered goes to its log', () => {
	it('a post that got no answer in time is not sent again, and its one line says so', async () => {
		const lines: string[] = [];
		const ctx = {
			logger: { info: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) },
			helpers: {
				httpRequest: async () => {
					throw Object.assign(new Error('timeout of 60000ms exceeded'), { code: 'ECONNABORTED' });
				},
			},
		} as unknown as IExecuteFunctions;
		const url = 'https://n8n.example.com/webhook-waiting/7/video-wait?signature=s';
		const verdict = await postToN8n(ctx, url, { id: 'a', status: 'completed' }, { now: START });
		expect(verdict).toBe('done');
		expect(lines).toEqual([
			expect.stringMatching(/no answer within 60 s.*Wait or Form node.*not posted again/),
		]);
	});
});

describe('startWatch: a bound on the watches one process keeps', () => {
	it('starts watches up to the bound, refuses the next with one log line, and starts again once one ended', async () => {
		const clock = new FakeClock(START);
		const lines: string[] = [];
		const count = { active: 0, max: 3, logged: false };
		let ended = false;
		const watch = (id: string): Watch => ({
			taskIds: [id],
			until: START + 3_600_000,
			known: () => undefined,
			delivered: () => ended,
			read: async () => ({ id, status: 'in_progress' }),
			deliver: async () => 'done',
			log: (_level, message) => lines.push(message),
		});
		const started = ['a', 'b', 'c', 'd', 'e'].map((id) => startWatch(watch(id), clock, count));
		expect(started).toEqual([true, true, true, false, false]);
		expect(count.active).toBe(3);
		expect(lines).toEqual([expect.stringContaining("watches 3 video tasks' waits already, its most")]);
		// The watches see their news delivered at their next look and end.
		ended = true;
		for (let turn = 0; turn < 10 && count.active > 0; turn++) await Promise.resolve();
		await clock.sleep(0);
		for (let turn = 0; turn < 50 && count.active > 0; turn++) await Promise.resolve();
		expect(count.active).toBe(0);
		expect(startWatch(watch('f'), clock, count)).toBe(true);
	});
});
