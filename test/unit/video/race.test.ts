/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** The per-process memory of racing callbacks (actions/video/wait/callback/memory.ts and race.ts). */
import type { IDataObject } from 'n8n-workflow';

import { FakeClock } from '../shared/fakeClock';

import {
	CLAIM_HOLD_MS,
	MAX_WAITS,
	OTHERS_READ_AGAIN_MS,
	OTHERS_READS_PER_TASK,
} from '../../../nodes/shared/waitClocks';
import {
	CallbackMemory,
	type WaitMemory,
	claimHolds,
	handOver,
	releaseClaim,
	rememberFinals,
	tick,
	tryClaim,
} from '../../../nodes/GenerationGateway/actions/video/wait/callback/memory';
import {
	answerFinal,
	confirmOwnTask,
	othersMayRead,
	ownCallbackFailed,
	readAfter,
} from '../../../nodes/GenerationGateway/actions/video/wait/callback/race';

const T0 = 1_800_000_000_000;

describe('the claim of the resume', () => {
	it('goes to the first of racing callbacks only', () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		expect([tryClaim(memory, T0), tryClaim(memory, T0), tryClaim(memory, T0 + 1)]).toEqual([
			true,
			false,
			false,
		]);
	});

	it.each<[string, { since: number; handedOver?: number } | undefined, number, boolean]>([
		['no claim', undefined, T0, false],
		['building', { since: T0 }, T0 + 1000, true],
		// Long downloads: a second resume while the first is being built would resume twice.
		['building for an hour (its downloads have their own deadlines)', { since: T0 }, T0 + 3_600_000, true],
		['items handed to n8n moments ago', { since: T0, handedOver: T0 + 5 }, T0 + 1000, true],
		[
			'items handed over a minute ago and the execution still waiting',
			{ since: T0, handedOver: T0 + 5 },
			T0 + 5 + CLAIM_HOLD_MS,
			false,
		],
	])('%s', (_name, claim, now, holds) => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		memory.claim = claim;
		expect(claimHolds(memory, now)).toBe(holds);
		expect(tryClaim(memory, now)).toBe(!holds);
	});
});

describe('readAfter: a read a callback may rely on began after its own point', () => {
	function gateway(records: IDataObject[]) {
		let calls = 0;
		const gates: Array<() => void> = [];
		return {
			read: async () => {
				const record = records[Math.min(calls++, records.length - 1)];
				await new Promise<void>((resolve) => gates.push(resolve));
				if (record.fail) throw new Error(String(record.fail));
				return record;
			},
			calls: () => calls,
			/** Lets the oldest read still held answer. */
			release: () => gates.shift()?.(),
			releaseAll: () => gates.splice(0).forEach((open) => open()),
		};
	}

	it('shares one read among callbacks that arrived before it began, and remembers a final record', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([{ id: 'a', status: 'completed', data: {} }]);
		const arrivals = [tick(memory), tick(memory), tick(memory)];
		const racing = arrivals.map(async (at) => await readAfter(memory, 'a', at, gw.read));
		gw.releaseAll();
		const records = await Promise.all(racing);
		expect(records.map((r: IDataObject) => r.status)).toEqual(['completed', 'completed', 'completed']);
		await readAfter(memory, 'a', tick(memory), gw.read);
		expect(gw.calls()).toBe(1);
		expect(memory.reads.size).toBe(0);
	});

	const settle = async () => await new Promise((resolve) => setImmediate(resolve));

	it('does not rely on a "still running" from a read that began before the callback arrived', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		// The first read was sent while the task was running; the task then ended and its callback came.
		const gw = gateway([
			{ id: 'b', status: 'in_progress' },
			{ id: 'b', status: 'completed', data: {} },
		]);
		const early = readAfter(memory, 'b', tick(memory), gw.read);
		const own = readAfter(memory, 'b', tick(memory), gw.read, true);
		expect(gw.calls()).toBe(1);
		gw.release();
		expect((await early).status).toBe('in_progress');
		await settle();
		expect(gw.calls()).toBe(2);
		gw.release();
		expect((await own).status).toBe('completed');
		expect(memory.finals.get('b')).toMatchObject({ status: 'completed' });
	});

	it('uses a final answer of a read that began before the callback arrived (final never changes)', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([{ id: 'b', status: 'completed', data: {} }]);
		const early = readAfter(memory, 'b', tick(memory), gw.read);
		const own = readAfter(memory, 'b', tick(memory), gw.read, true);
		gw.release();
		expect([(await early).status, (await own).status]).toEqual(['completed', 'completed']);
		expect(gw.calls()).toBe(1);
	});

	it("shares another callback's confirmation read of its own task, whatever it answers", async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([{ id: 'b', status: 'in_progress' }]);
		const confirmation = readAfter(memory, 'b', tick(memory), gw.read, true);
		const check = readAfter(memory, 'b', tick(memory), gw.read);
		gw.release();
		expect([(await confirmation).status, (await check).status]).toEqual(['in_progress', 'in_progress']);
		expect(gw.calls()).toBe(1);
	});

	it("does not share another callback's confirmation to confirm its own callback", async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([
			{ id: 'b', status: 'in_progress' },
			{ id: 'b', status: 'in_progress' },
		]);
		const first = readAfter(memory, 'b', tick(memory), gw.read, true);
		const second = readAfter(memory, 'b', tick(memory), gw.read, true);
		gw.release();
		await first;
		await settle();
		expect(gw.calls()).toBe(2);
		gw.release();
		expect((await second).status).toBe('in_progress');
	});

	it('joins a read that began after its point', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([{ id: 'c', status: 'failed' }]);
		const point = tick(memory);
		const first = readAfter(memory, 'c', point, gw.read);
		const second = readAfter(memory, 'c', point, gw.read);
		gw.releaseAll();
		expect([(await first).status, (await second).status]).toEqual(['failed', 'failed']);
		expect(gw.calls()).toBe(1);
	});

	it('does not remember a running task, nor a failed read', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([{ status: 'in_progress' }, { fail: 'HTTP 502' }, { id: 'a', status: 'failed' }]);
		const next = async () => {
			const pending = readAfter(memory, 'a', tick(memory), gw.read);
			gw.release();
			return await pending;
		};
		expect((await next()).status).toBe('in_progress');
		await expect(next()).rejects.toThrow('HTTP 502');
		expect((await next()).status).toBe('failed');
		expect((await readAfter(memory, 'a', tick(memory), gw.read)).status).toBe('failed');
		expect(gw.calls()).toBe(3);
	});

	it('uses a final record read as the wait began, without reading; never a running one', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		rememberFinals(memory, [
			{ id: 'a', status: 'expired' },
			{ id: 'b', status: 'in_progress' },
		]);
		const gw = gateway([{ id: 'x', status: 'completed', data: {} }]);
		expect((await readAfter(memory, 'a', tick(memory), gw.read)).status).toBe('expired');
		expect(gw.calls()).toBe(0);
		expect(memory.finals.has('b')).toBe(false);
	});
});

describe('confirmOwnTask: one confirmation window per task, shared by its callbacks', () => {
	/** A gateway whose reads show task `a` final from `finalAt` (the fake clock) on; every read logged. */
	function lagging(clock: FakeClock, finalAt: number) {
		const reads: number[] = [];
		return {
			reads,
			read: async () => {
				reads.push(clock.now());
				await Promise.resolve();
				return { id: 'a', status: clock.now() >= finalAt ? 'completed' : 'in_progress' };
			},
		};
	}

	it('a read that trails by 2 s: read again 1 s and 3.5 s later, confirmed, remembered', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = lagging(clock, T0 + 2_000);
		const record = await confirmOwnTask(memory, 'a', tick(memory), gw.read, { clock });
		expect(record.status).toBe('completed');
		expect(gw.reads.map((at) => at - T0)).toEqual([0, 1_000, 3_500]);
		expect(memory.finals.get('a')).toMatchObject({ status: 'completed' });
		expect(memory.windows.size).toBe(0);
		// A later callback of the task reads nothing.
		await confirmOwnTask(memory, 'a', tick(memory), gw.read, { clock });
		expect(gw.reads).toHaveLength(3);
	});

	it('callbacks of the same task arriving together share one window: the reads of one callback', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = lagging(clock, T0 + 3_000);
		const arrivals = [tick(memory), tick(memory), tick(memory), tick(memory)];
		const records = await Promise.all(
			arrivals.map(async (at) => await confirmOwnTask(memory, 'a', at, gw.read, { clock })),
		);
		expect(records.map((r) => r.status)).toEqual(Array(4).fill('completed'));
		expect(gw.reads.map((at) => at - T0)).toEqual([0, 1_000, 3_500]);
	});

	it('a callback arriving while the window is open joins it instead of reading', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = lagging(clock, T0 + 3_000);
		const first = confirmOwnTask(memory, 'a', tick(memory), gw.read, { clock });
		for (let turn = 0; turn < 5 && memory.windows.size === 0; turn++) await Promise.resolve();
		expect(memory.windows.has('a')).toBe(true);
		const late = confirmOwnTask(memory, 'a', tick(memory), gw.read, { clock });
		expect([(await first).status, (await late).status]).toEqual(['completed', 'completed']);
		expect(gw.reads).toHaveLength(3);
	});

	it('a window that passes unconfirmed answers every callback it served with the running record', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = lagging(clock, T0 + 60_000);
		const both = await Promise.all(
			[tick(memory), tick(memory)].map(
				async (at) => await confirmOwnTask(memory, 'a', at, gw.read, { clock }),
			),
		);
		expect(both.map((r) => r.status)).toEqual(['in_progress', 'in_progress']);
		expect(gw.reads.map((at) => at - T0)).toEqual([0, 1_000, 3_500, 7_500]);
		expect(clock.now() - T0).toBeLessThanOrEqual(8_000);
		expect(memory.finals.has('a')).toBe(false);
		expect(memory.windows.size).toBe(0);
	});

	it('the reads of the window are given what is left of it; the first read is the usual one', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const timeouts: Array<number | undefined> = [];
		await confirmOwnTask(
			memory,
			'a',
			tick(memory),
			async (timeoutMs) => {
				timeouts.push(timeoutMs);
				return { id: 'a', status: 'queue' };
			},
			{ clock },
		);
		expect(timeouts).toEqual([undefined, 7_000, 4_500, 500]);
	});

	it('a cancel ends the window at once; the callback gets the running record (and its 503)', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const controller = new AbortController();
		let reads = 0;
		const record = await confirmOwnTask(
			memory,
			'a',
			tick(memory),
			async () => {
				if (++reads === 2) controller.abort();
				return { id: 'a', status: 'in_progress' };
			},
			{ clock, signal: controller.signal },
		);
		expect(record.status).toBe('in_progress');
		expect(reads).toBe(2);
		expect(clock.now() - T0).toBe(1_000);
	});

	it('the first read failing rejects (the callback is answered 503 at once), no window', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		await expect(
			confirmOwnTask(memory, 'a', tick(memory), async () => await Promise.reject(new Error('HTTP 502')), {
				clock: new FakeClock(T0),
			}),
		).rejects.toThrow('HTTP 502');
		expect(memory.windows.size).toBe(0);
	});
});

describe("othersMayRead: reads of a task by the other tasks' callbacks are bounded by design", () => {
	const slots = ['video_a', 'video_b', 'video_c', { error: 'refused' }];
	const fresh = () => new CallbackMemory().of('e|n|1', T0);
	const known = (memory: ReturnType<typeof fresh>, ...ids: string[]) => {
		for (const id of ids) memory.finals.set(id, { id, status: 'completed' });
	};

	it(`at most ${OTHERS_READS_PER_TASK} while another task is not known final either, however many callbacks ask`, () => {
		const memory = fresh();
		known(memory, 'video_a');
		const answers = Array.from({ length: 20 }, () => othersMayRead(memory, 'video_b', slots, T0));
		expect(answers.filter(Boolean)).toHaveLength(OTHERS_READS_PER_TASK);
		// The first ones read, the later ones leave it to the task's own callback.
		expect(answers.slice(0, OTHERS_READS_PER_TASK)).toEqual(Array(OTHERS_READS_PER_TASK).fill(true));
		// Each task has its own count.
		expect(othersMayRead(memory, 'video_c', slots, T0)).toBe(true);
	});

	it('always when every other task is known final (the callback may be the last to come)', () => {
		const memory = fresh();
		for (let n = 0; n < OTHERS_READS_PER_TASK; n++) othersMayRead(memory, 'video_b', slots, T0);
		expect(othersMayRead(memory, 'video_b', slots, T0)).toBe(false);
		// A slot with an error has no task: it is never waited for.
		known(memory, 'video_a', 'video_c');
		expect([
			othersMayRead(memory, 'video_b', slots, T0),
			othersMayRead(memory, 'video_b', slots, T0),
		]).toEqual([true, true]);
	});

	it.each([
		[OTHERS_READ_AGAIN_MS - 1, false],
		[OTHERS_READ_AGAIN_MS, true],
		[10 * 60_000, true],
	])(
		"again %i ms after the last such read (the package's own post must be able to confirm): %s",
		(later, allowed) => {
			const memory = fresh();
			for (let n = 0; n < OTHERS_READS_PER_TASK; n++) othersMayRead(memory, 'video_b', slots, T0);
			expect(othersMayRead(memory, 'video_b', slots, T0 + later)).toBe(allowed);
			// Once allowed, a fresh share of reads: the bound holds again from there.
			if (allowed) {
				expect(othersMayRead(memory, 'video_b', slots, T0 + later)).toBe(true);
				expect(othersMayRead(memory, 'video_b', slots, T0 + later)).toBe(false);
			}
		},
	);

	it("again after the task's own final callback was answered 503 (it may never come back)", () => {
		const memory = fresh();
		for (let n = 0; n < OTHERS_READS_PER_TASK; n++) othersMayRead(memory, 'video_b', slots, T0);
		expect(othersMayRead(memory, 'video_b', slots, T0)).toBe(false);
		ownCallbackFailed(memory, 'video_b');
		expect(othersMayRead(memory, 'video_b', slots, T0)).toBe(true);
	});
});

describe('CallbackMemory', () => {
	it('keeps one memory per wait and drops the oldest beyond its size', () => {
		const table = new CallbackMemory(2);
		const first = table.of('e1|n|1', T0);
		expect(table.of('e1|n|1', T0 + 1)).toBe(first);
		table.of('e2|n|1', T0);
		table.of('e3|n|1', T0);
		expect(table.size).toBe(2);
		expect(table.of('e1|n|1', T0)).not.toBe(first);
	});

	// The table's bound is the watches' bound: newer waits up to it never push out a wait that must be kept.
	it.each<[string, (memory: WaitMemory) => void, boolean]>([
		['a wait whose callback builds its resume', (memory) => tryClaim(memory, T0), true],
		[
			'a wait whose resume was handed to n8n moments ago',
			(memory) => {
				tryClaim(memory, T0);
				handOver(memory, T0);
			},
			true,
		],
		['a wait whose watch runs', (memory) => (memory.watched = true), false],
	])('%s keeps its memory past the bound: never claimed twice', (_what, setUp, claimed) => {
		const table = new CallbackMemory();
		const kept = table.of('old|n|1', T0);
		setUp(kept);
		for (let wait = 0; wait < MAX_WAITS; wait++) table.of(`new${wait}|n|1`, T0 + 1);
		const again = table.of('old|n|1', T0 + 2);
		expect(again).toBe(kept);
		expect(tryClaim(again, T0 + 2)).toBe(!claimed);
	});

	it('drops a memory once its wait is surely over (longest wait plus an hour)', () => {
		const table = new CallbackMemory();
		table.of('old|n|1', T0);
		table.of('new|n|1', T0 + 3 * 60 * 60_000 + 1);
		expect(table.size).toBe(1);
	});
});

describe('answerFinal: one final callback by the rules, on a fake clock', () => {
	/** A gateway whose tasks read final from `finalAt[id]` (fake clock) on; every read logged. */
	function gatewayOf(clock: FakeClock, finalAt: Record<string, number>, fail: Record<string, string> = {}) {
		const reads: string[] = [];
		const read = async (id: string): Promise<IDataObject> => {
			reads.push(`${id}@${clock.now() - T0}`);
			await Promise.resolve();
			if (fail[id]) throw new Error(fail[id]);
			return { id, status: clock.now() >= T0 + finalAt[id] ? 'completed' : 'in_progress' };
		};
		return {
			reads,
			readsFor: (id: string) => ({
				own: async () => await read(id),
				other: async (_item: number, other: string) => await read(other),
			}),
		};
	}
	const call = (
		memory: ReturnType<CallbackMemory['of']>,
		id: string,
		slots: string[],
		gw: ReturnType<typeof gatewayOf>,
		clock: FakeClock,
	) => answerFinal(memory, { taskId: id, claimed: 'completed', slots }, gw.readsFor(id), clock);

	it('one task read final: resumes with its record; a later callback of the wait is told it is resuming', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gatewayOf(clock, { a: 0 });
		expect(await call(memory, 'a', ['a'], gw, clock)).toEqual({ resume: [{ id: 'a', status: 'completed' }] });
		handOver(memory, clock.now());
		expect(await call(memory, 'a', ['a'], gw, clock)).toMatchObject({
			status: 200,
			body: { resuming: expect.any(String) },
		});
		expect(gw.reads).toEqual(['a@0']);
	});

	it('two tasks whose callbacks arrive together: exactly one resume, each task read once', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gatewayOf(clock, { a: 0, b: 0 });
		const answers = await Promise.all(
			['a', 'b'].map(async (id) => await call(memory, id, ['a', 'b'], gw, clock)),
		);
		expect(answers.filter((answer) => 'resume' in answer)).toHaveLength(1);
		expect(answers.filter((answer) => 'status' in answer && answer.status === 200)).toHaveLength(1);
		expect(gw.reads.sort()).toEqual(['a@0', 'b@0']);
	});

	it('a forged final callback (the gateway reads the task running throughout): 503 after the window, no resume', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gatewayOf(clock, { a: 60_000 });
		const answer = await call(memory, 'a', ['a'], gw, clock);
		expect(answer).toEqual({
			status: 503,
			body: { error: expect.stringContaining('does not confirm yet that task a is completed') },
		});
		expect(gw.reads).toEqual(['a@0', 'a@1000', 'a@3500', 'a@7500']);
		expect(memory.claim).toBeUndefined();
		expect(memory.underWay.size).toBe(0);
	});

	it('a read that trails the callback by 3 s: confirmed within the window, resumed', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gatewayOf(clock, { a: 3_000 });
		expect(await call(memory, 'a', ['a'], gw, clock)).toMatchObject({ resume: [{ status: 'completed' }] });
		expect(gw.reads).toEqual(['a@0', 'a@1000', 'a@3500']);
	});

	it('its own read failing: 503, and the other tasks may read it again', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		memory.othersReads.set('a', { count: OTHERS_READS_PER_TASK, at: T0 });
		const gw = gatewayOf(clock, { a: 0 }, { a: 'HTTP 502' });
		expect(await call(memory, 'a', ['a'], gw, clock)).toEqual({
			status: 503,
			body: { error: 'Could not read video task a: HTTP 502' },
		});
		expect(memory.othersReads.has('a')).toBe(false);
	});

	it("another task's read failing: 503 (this callback may be the last), nothing claimed", async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gatewayOf(clock, { a: 0, b: 0 }, { b: 'timeout' });
		expect(await call(memory, 'a', ['a', 'b'], gw, clock)).toEqual({
			status: 503,
			body: { error: 'Could not read video task b: timeout' },
		});
		expect(memory.claim).toBeUndefined();
	});

	it('another task still running: 200 waiting; once the claim is released the next final callback resumes', async () => {
		const clock = new FakeClock(T0);
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gatewayOf(clock, { a: 0, b: 5_000 });
		expect(await call(memory, 'a', ['a', 'b'], gw, clock)).toMatchObject({
			status: 200,
			body: { waiting: 'task b is in_progress' },
		});
		clock.time = T0 + 5_000;
		const resumed = await call(memory, 'b', ['a', 'b'], gw, clock);
		expect(resumed).toMatchObject({ resume: [{ id: 'a' }, { id: 'b' }] });
		releaseClaim(memory);
		expect(await call(memory, 'b', ['a', 'b'], gw, clock)).toMatchObject({
			resume: [{ id: 'a' }, { id: 'b' }],
		});
	});
});
