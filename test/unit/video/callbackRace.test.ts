/** The per-process memory of racing callbacks (actions/video/callbackRace.ts). */
import type { IDataObject } from 'n8n-workflow';

import {
	CLAIM_HOLD_MS,
	CallbackMemory,
	claimHolds,
	isWholeFinalRecord,
	sharedRead,
	tryClaim,
} from '../../../nodes/GenerationGateway/actions/video/callbackRace';

const T0 = 1_800_000_000_000;

describe('isWholeFinalRecord: a callback body that can stand for the task without a read', () => {
	it.each<[string, IDataObject, boolean]>([
		['completed with data', { id: 'video_1', status: 'completed', data: { url: 'https://x/v.mp4' } }, true],
		['completed with a data string', { id: 'video_1', status: 'completed', data: 'https://x/v.mp4' }, true],
		['failed (no data expected)', { id: 'video_1', status: 'failed' }, true],
		['expired', { id: 'video_1', status: 'expired' }, true],
		['cancelled', { id: 'video_1', status: 'cancelled' }, true],
		['completed without data', { id: 'video_1', status: 'completed' }, false],
		['completed with data null', { id: 'video_1', status: 'completed', data: null }, false],
		['not final', { id: 'video_1', status: 'in_progress' }, false],
		['unknown status', { id: 'video_1', status: 'done', data: {} }, false],
		['no id', { status: 'failed' }, false],
		['numeric id', { id: 7, status: 'failed' }, false],
	])('%s', (_name, record, expected) => {
		expect(isWholeFinalRecord(record)).toBe(expected);
	});
});

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
		['building', { since: T0 }, T0 + CLAIM_HOLD_MS.building - 1, true],
		['building for too long (a stuck callback)', { since: T0 }, T0 + CLAIM_HOLD_MS.building, false],
		['items handed to n8n moments ago', { since: T0, handedOver: T0 + 5 }, T0 + 1000, true],
		[
			'items handed over a minute ago and the execution still waiting',
			{ since: T0, handedOver: T0 + 5 },
			T0 + 5 + CLAIM_HOLD_MS.handedOver,
			false,
		],
	])('%s', (_name, claim, now, holds) => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		memory.claim = claim;
		expect(claimHolds(memory, now)).toBe(holds);
		expect(tryClaim(memory, now)).toBe(!holds);
	});
});

describe('sharedRead', () => {
	function gateway(records: IDataObject[]) {
		let calls = 0;
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		return {
			read: async () => {
				const record = records[Math.min(calls++, records.length - 1)];
				await gate;
				if (record.fail) throw new Error(String(record.fail));
				return record;
			},
			calls: () => calls,
			release: () => release(),
		};
	}

	it('reads once for racing callbacks and remembers a final record', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([{ id: 'a', status: 'completed', data: {} }]);
		const racing = [1, 2, 3].map(async () => await sharedRead(memory, 'a', gw.read));
		gw.release();
		const records = await Promise.all(racing);
		expect(records.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
		await sharedRead(memory, 'a', gw.read);
		expect(gw.calls()).toBe(1);
		expect(memory.reads.size).toBe(0);
	});

	it('does not remember a running task, nor a failed read', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const gw = gateway([{ status: 'in_progress' }, { fail: 'HTTP 502' }, { id: 'a', status: 'failed' }]);
		gw.release();
		expect((await sharedRead(memory, 'a', gw.read)).status).toBe('in_progress');
		await expect(sharedRead(memory, 'a', gw.read)).rejects.toThrow('HTTP 502');
		expect((await sharedRead(memory, 'a', gw.read)).status).toBe('failed');
		expect((await sharedRead(memory, 'a', gw.read)).status).toBe('failed');
		expect(gw.calls()).toBe(3);
	});

	it('uses a final record a callback brought, without reading', async () => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		memory.finals.set('a', { id: 'a', status: 'expired' });
		const gw = gateway([{ id: 'a', status: 'in_progress' }]);
		expect((await sharedRead(memory, 'a', gw.read)).status).toBe('expired');
		expect(gw.calls()).toBe(0);
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

	it('drops a memory once its wait is surely over (longest wait plus an hour)', () => {
		const table = new CallbackMemory();
		table.of('old|n|1', T0);
		table.of('new|n|1', T0 + 3 * 60 * 60_000 + 1);
		expect(table.size).toBe(1);
	});
});
