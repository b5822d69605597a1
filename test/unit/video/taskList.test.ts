/** The task list a callback wait keeps, and what one callback means for it (actions/video/wait/callback/taskList.ts). */
import type { CallbackState } from '../../../nodes/GenerationGateway/actions/video/wait/callback/taskList';
import {
	decodeState,
	encodeState,
	encodeStoredState,
	judgeCallback,
	parseStateText,
	slotsFit,
	stateKeyPrefix,
	stateText,
	storedStateId,
} from '../../../nodes/GenerationGateway/actions/video/wait/callback/taskList';

describe('task list in the execution custom data', () => {
	const prefix = stateKeyPrefix('5d1f2c3a-0b1e-4a51-9c2d-7e8f9a0b1c2d');

	it('uses a key n8n accepts (letters, digits, underscores; at most 50 with the chunk number)', () => {
		expect(prefix).toMatch(/^\w+$/);
		expect(`${prefix}9`.length).toBeLessThanOrEqual(50);
	});

	it('round-trips ids and creation errors, split in chunks under 512 characters', () => {
		const state: CallbackState = {
			startedAt: 1_700_000_000_000,
			reason: 'Wait Mode is Callback',
			download: true,
			slots: [...Array.from({ length: 60 }, (_, i) => `video_${i}_abcdefgh`), { error: 'x'.repeat(400) }],
		};
		const entries = encodeState(prefix, state);
		expect(Object.keys(entries).length).toBeGreaterThan(1);
		for (const value of Object.values(entries)) expect(value.length).toBeLessThanOrEqual(512);
		const back = decodeState(prefix, entries)!;
		expect(back.slots.slice(0, 60)).toEqual(state.slots.slice(0, 60));
		expect(back.slots[60]).toEqual({ error: 'x'.repeat(160) });
		expect(back).toMatchObject({ startedAt: state.startedAt, reason: state.reason, download: true });
	});

	it('a list kept as a file: one entry with its id, read back whole from the file text', () => {
		const state: CallbackState = {
			startedAt: 5,
			reason: 'Wait Mode is Callback',
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
			reason: 'Wait Mode is Callback',
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
			reason: 'Wait Mode is Callback',
			download: false,
			slots: Array(80).fill('video_long_id'),
		});
		const short = encodeState(prefix, { startedAt: 2, reason: 'r', download: false, slots: ['video_a'] });
		expect(decodeState(prefix, { ...long, ...short })?.slots).toEqual(['video_a']);
		const damaged = { ...long };
		delete damaged[`${prefix}1`];
		expect(decodeState(prefix, damaged)).toBeUndefined();
		expect(decodeState(prefix, {})).toBeUndefined();
	});

	it('reads back a list kept without its reason as a callback wait', () => {
		expect(parseStateText('{"t":1,"d":0,"s":["video_a"]}')).toEqual({
			startedAt: 1,
			reason: 'the wait was started by callback',
			download: false,
			slots: ['video_a'],
		});
	});

	it("fits only within n8n's 10 custom data entries", () => {
		const entries = encodeState(prefix, {
			startedAt: 1,
			reason: 'Wait Mode is Callback',
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

describe('judgeCallback', () => {
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
});
