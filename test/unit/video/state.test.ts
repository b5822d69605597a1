/** The pure decisions of Create and Wait's callback mode (actions/video/callbackState.ts). */
import type { CallbackState } from '../../../nodes/GenerationGateway/actions/video/wait/callbackState';
import {
	AUTO_CALLBACK_MAX_TASKS,
	callbackReason,
	decideWaitMode,
	decodeState,
	encodeState,
	encodeStoredState,
	firstUnfinished,
	judgeCallback,
	parseStateText,
	slotsFit,
	stateKeyPrefix,
	stateText,
	storedStateId,
} from '../../../nodes/GenerationGateway/actions/video/wait/callbackState';

describe('decideWaitMode', () => {
	const https = 'https://n8n.example.com/webhook-waiting/7?signature=abc';
	it.each<[string | undefined, string, number, 'callback' | 'polling', RegExp]>([
		['auto', https, 1, 'callback', /^Auto waits by callback for up to 5 tasks \(this batch has 1\)/],
		[undefined, https, 1, 'callback', /^Auto waits by callback/],
		// The boundary: Auto takes callbacks up to AUTO_CALLBACK_MAX_TASKS tasks, polls beyond.
		['auto', https, AUTO_CALLBACK_MAX_TASKS, 'callback', /this batch has 5\)/],
		['auto', https, AUTO_CALLBACK_MAX_TASKS + 1, 'polling', /^Auto polls batches of more than 5 tasks \(this one has 6\)/],
		['auto', https, 1000, 'polling', /this one has 1000\).*set Wait Mode to Callback/],
		// An explicit Callback stays callback whatever the size.
		['callback', https, 1, 'callback', /^Wait Mode is Callback$/],
		['callback', https, 1000, 'callback', /^Wait Mode is Callback$/],
		['polling', https, 1, 'polling', /^Wait Mode is Polling$/],
		['polling', https, 1000, 'polling', /^Wait Mode is Polling$/],
	])('%s with %s, %i tasks: %s', (setting, url, tasks, mode, reason) => {
		const decision = decideWaitMode(setting, url, true, tasks);
		expect(decision.mode).toBe(mode);
		expect(decision.reason).toMatch(reason);
		// Only a wait that could not be what was asked for is a fallback.
		expect(decision.fallback).toBeUndefined();
	});

	it('the reason a callback wait gives on its resume is the one it gave when it began', () => {
		for (const [setting, tasks] of [['auto', 3], ['callback', 500], [undefined, 5]] as const)
			expect(callbackReason(setting, tasks)).toBe(decideWaitMode(setting, 'https://x/', true, tasks).reason);
	});

	it.each([
		['auto', 1],
		['auto', 1000],
		['callback', 1],
	])('falls back to polling for an http resume URL (%s, %i tasks), naming it without its token', (setting, tasks) => {
		const decision = decideWaitMode(setting, 'http://localhost:5678/webhook-waiting/7?signature=secret', true, tasks);
		expect(decision.mode).toBe('polling');
		expect(decision.fallback).toContain('(http://localhost:5678/webhook-waiting/7)');
		expect(decision.fallback).not.toContain('secret');
		expect(decision.reason).toBe(decision.fallback);
	});

	it('falls back to polling where n8n keeps no custom data, whatever the setting', () => {
		for (const setting of ['auto', 'callback']) {
			const decision = decideWaitMode(setting, 'https://x/', false, 1);
			expect(decision).toEqual({ mode: 'polling', reason: decision.fallback, fallback: expect.stringContaining('custom data') });
		}
	});
});

describe('task list in the execution custom data', () => {
	const prefix = stateKeyPrefix('5d1f2c3a-0b1e-4a51-9c2d-7e8f9a0b1c2d');

	it('uses a key n8n accepts (letters, digits, underscores; at most 50 with the chunk number)', () => {
		expect(prefix).toMatch(/^\w+$/);
		expect(`${prefix}9`.length).toBeLessThanOrEqual(50);
	});

	it('round-trips ids and creation errors, split in chunks under 512 characters', () => {
		const state: CallbackState = {
			startedAt: 1_700_000_000_000,
			download: true,
			slots: [...Array.from({ length: 60 }, (_, i) => `video_${i}_abcdefgh`), { error: 'x'.repeat(400) }],
		};
		const entries = encodeState(prefix, state);
		expect(Object.keys(entries).length).toBeGreaterThan(1);
		for (const value of Object.values(entries)) expect(value.length).toBeLessThanOrEqual(512);
		const back = decodeState(prefix, entries)!;
		expect(back.slots.slice(0, 60)).toEqual(state.slots.slice(0, 60));
		expect(back.slots[60]).toEqual({ error: 'x'.repeat(160) });
		expect(back).toMatchObject({ startedAt: state.startedAt, download: true });
	});

	it('a list kept as a file: one entry with its id, read back whole from the file text', () => {
		const state: CallbackState = {
			startedAt: 5,
			download: false,
			slots: [
				...Array.from({ length: 1000 }, (_, i) => `video_${i}_abcdefgh`),
				{ error: 'refused', charged: 1 },
			],
		};
		const id = 'filesystem-v2:workflows/w1/executions/42/binary_data/3f1c';
		const entries = encodeStoredState(prefix, id);
		expect(entries).toEqual({ [`${prefix}0`]: `file:${id}` });
		expect(storedStateId(prefix, entries)).toBe(id);
		// The entry is no inline state; leftovers of an earlier inline run do not make it one.
		const earlier = encodeState(prefix, {
			startedAt: 1,
			download: false,
			slots: Array(80).fill('video_old'),
		});
		expect(decodeState(prefix, { ...earlier, ...entries })).toBeUndefined();
		expect(storedStateId(prefix, earlier)).toBeUndefined();
		expect(parseStateText(stateText(state))).toEqual(state);
		expect(parseStateText('{"t":5,"s":[')).toBeUndefined();
	});

	it('ignores leftovers of a longer earlier run and reports a missing chunk as no state', () => {
		const long = encodeState(prefix, {
			startedAt: 1,
			download: false,
			slots: Array(80).fill('video_long_id'),
		});
		const short = encodeState(prefix, { startedAt: 2, download: false, slots: ['video_a'] });
		expect(decodeState(prefix, { ...long, ...short })?.slots).toEqual(['video_a']);
		const damaged = { ...long };
		delete damaged[`${prefix}1`];
		expect(decodeState(prefix, damaged)).toBeUndefined();
		expect(decodeState(prefix, {})).toBeUndefined();
	});

	it("fits only within n8n's 10 custom data entries", () => {
		const entries = encodeState(prefix, {
			startedAt: 1,
			download: false,
			slots: Array(40).fill('video_0001_abcdef'),
		});
		const used = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`user_${i}`, 'v']));
		const count = Object.keys(entries).length;
		expect(slotsFit(entries, used(10 - count))).toBe(true);
		expect(slotsFit(entries, used(11 - count))).toBe(false);
		// Our own keys from an earlier run do not count twice.
		expect(slotsFit(entries, { ...entries, ...used(10 - count) })).toBe(true);
	});
});

describe('judgeCallback and firstUnfinished', () => {
	const slots = ['video_a', { error: 'not created' }, 'video_b'];

	it.each([
		[
			'video_x',
			'completed',
			{ action: 'ignore', reason: "task video_x is not one of this execution's tasks" },
		],
		['video_a', 'in_progress', { action: 'wait', reason: 'task video_a is in_progress' }],
		['video_a', 'queue', { action: 'wait', reason: 'task video_a is queue' }],
		['video_b', 'completed', { action: 'read' }],
		['video_b', 'failed', { action: 'read' }],
		['video_b', 'expired', { action: 'read' }],
		['video_b', 'cancelled', { action: 'read' }],
	])('%s %s', (id, status, verdict) => {
		expect(judgeCallback(slots, id, status)).toEqual(verdict);
	});

	it('finds the first task not final', () => {
		expect(firstUnfinished([{ status: 'completed' }, { status: 'failed' }])).toBe(-1);
		expect(firstUnfinished([{ status: 'completed' }, { status: 'queue' }, { status: 'failed' }])).toBe(1);
		expect(firstUnfinished([undefined])).toBe(0);
	});
});
