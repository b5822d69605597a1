/** Waits left behind, found from n8n's records (actions/video/wait/callback/recover.ts) and rechecked (race.ts). */
import type { IDataObject } from 'n8n-workflow';

import {
	CallbackMemory,
	handOver,
	tryClaim,
} from '../../../nodes/GenerationGateway/actions/video/wait/callback/memory';
import { answerRecheck } from '../../../nodes/GenerationGateway/actions/video/wait/callback/race';
import {
	insideAddress,
	isRecheck,
	leftWaitOf,
	notePass,
	recheckOutcome,
	recoverySeen,
} from '../../../nodes/GenerationGateway/actions/video/wait/callback/recover';
import { RECOVERY_SEEN_MS } from '../../../nodes/shared/waitClocks';
import { FakeClock } from '../shared/fakeClock';

const ADDRESS = 'https://n8n.example.com/webhook-waiting/42/video-wait?signature=abc';
const waiting = (id: string, extra: IDataObject = {}) => ({
	json: {
		id,
		status: 'queued',
		waitInfo: {
			mode: 'callback',
			state: 'waiting',
			waitTill: '2026-01-01T00:00:00.000Z',
			callbackAddress: ADDRESS,
		},
		...extra,
	},
});
function execution(
	items: unknown[],
	{ node = 'Video', stackNode = node }: { node?: string; stackNode?: string } = {},
) {
	return {
		id: '42',
		workflowId: 'wf1',
		status: 'waiting',
		data: {
			executionData: { nodeExecutionStack: [{ node: { name: stackNode } }] },
			resultData: { lastNodeExecuted: stackNode, runData: { [node]: [{ data: { main: [items] } }] } },
		},
	};
}

describe('leftWaitOf: the video wait a listed execution waits at', () => {
	it.each<[string, unknown, ReturnType<typeof leftWaitOf>]>([
		[
			'two tasks waiting by callback',
			execution([waiting('video_1'), waiting('video_2')]),
			{
				executionId: '42',
				workflowId: 'wf1',
				node: 'Video',
				address: ADDRESS,
				taskIds: ['video_1', 'video_2'],
			},
		],
		[
			'an item whose create failed (continue-on-fail) has no task and is skipped',
			execution([waiting('video_1'), { json: { error: 'refused', waitInfo: waiting('x').json.waitInfo } }]),
			{ executionId: '42', workflowId: 'wf1', node: 'Video', address: ADDRESS, taskIds: ['video_1'] },
		],
		['no data (listed without includeData)', { id: '42', status: 'waiting' }, undefined],
		[
			'waits at another node (a Wait node after the video)',
			execution([waiting('video_1')], { stackNode: 'Approve' }),
			undefined,
		],
		['a polling wait', execution([{ json: { id: 'video_1', waitInfo: { mode: 'polling' } } }]), undefined],
		[
			'items of a wait that timed out',
			execution([
				{
					json: {
						id: 'video_1',
						waitInfo: { mode: 'callback', state: 'timed out', callbackAddress: ADDRESS },
					},
				},
			]),
			undefined,
		],
		[
			'waiting items without an address (a wait begun by an older version)',
			execution([{ json: { id: 'video_1', waitInfo: { mode: 'callback', state: 'waiting' } } }]),
			undefined,
		],
		['not an object', null, undefined],
	])('%s', (_name, listed, expected) => {
		expect(leftWaitOf(listed)).toEqual(expected);
	});
});

describe("insideAddress: the wait's address under n8n's address from inside", () => {
	it.each([
		['http://localhost:5678', 'http://localhost:5678/webhook-waiting/42/video-wait?signature=abc'],
		['http://localhost:5678/', 'http://localhost:5678/webhook-waiting/42/video-wait?signature=abc'],
		['http://n8n:5678/n8n', 'http://n8n:5678/n8n/webhook-waiting/42/video-wait?signature=abc'],
	])('%s', (base, expected) => {
		expect(insideAddress(ADDRESS, base)).toBe(expected);
	});

	it('keeps the endpoint, the execution id and the path when the public address has a prefix of its own', () => {
		expect(
			insideAddress('https://example.com/tools/n8n/webhook-waiting/7/video-wait', 'http://127.0.0.1:5678'),
		).toBe('http://127.0.0.1:5678/webhook-waiting/7/video-wait');
	});
});

describe('recheckOutcome: what n8n or the wait answered', () => {
	it.each<[number, unknown, string]>([
		[200, { received: true, resumed: true }, 'resumed'],
		[200, { received: true, waiting: 'task video_1 is in_progress' }, 'tasks running'],
		[200, { received: true, resuming: 'another callback of this execution is resuming it' }, 'being resumed'],
		[404, { message: 'The workflow for execution "42" does not contain a waiting webhook' }, 'not waiting'],
		[409, { message: 'The execution "42 has finished already.' }, 'not waiting'],
		[409, { message: 'The execution "42" is running already.' }, 'try again'],
		[503, { error: 'Could not read video task video_1' }, 'try again'],
		[0, undefined, 'try again'],
		[200, { received: true, ignored: 'this execution is not waiting for video tasks' }, 'not waiting'],
		[200, {}, 'try again'],
	])('%s %j → %s', (status, body, outcome) => {
		expect(recheckOutcome(status, body)).toBe(outcome);
	});
});

describe('isRecheck', () => {
	it.each<[unknown, boolean]>([
		[{ recheck: true }, true],
		[{ recheck: 'true' }, false],
		[{ id: 'video_1', status: 'completed' }, false],
		[null, false],
		['recheck', false],
	])('%j → %s', (body, expected) => {
		expect(isRecheck(body)).toBe(expected);
	});
});

describe('recoverySeen: a pass ran in this process lately', () => {
	it('is false before any pass, true within the window, false after it', () => {
		const now = 1_900_000_000_000;
		expect(recoverySeen(now)).toBe(false);
		notePass(now);
		expect([recoverySeen(now + RECOVERY_SEEN_MS - 1), recoverySeen(now + RECOVERY_SEEN_MS)]).toEqual([
			true,
			false,
		]);
	});
});

describe('answerRecheck: every task read once, in item order, until one is not final', () => {
	const T0 = 1_800_000_000_000;
	const setup = (statuses: Record<string, string[]>) => {
		const memory = new CallbackMemory().of('e|n|1', T0);
		const reads: string[] = [];
		const read = async (_item: number, id: string): Promise<IDataObject> => {
			reads.push(id);
			const next = statuses[id].shift();
			if (next === 'error') throw new Error('socket hang up');
			return { id, status: next };
		};
		return { memory, reads, read, clock: new FakeClock(T0) };
	};

	it('resumes when every task is final, one read each, and claims the resume', async () => {
		const { memory, reads, read, clock } = setup({ a: ['completed'], b: ['failed'] });
		const answer = await answerRecheck(memory, ['a', { error: 'refused' }, 'b'], read, clock);
		expect(answer).toEqual({
			resume: [{ id: 'a', status: 'completed' }, undefined, { id: 'b', status: 'failed' }],
		});
		expect(reads).toEqual(['a', 'b']);
		expect(tryClaim(memory, T0)).toBe(false);
	});

	it('stops at the first task not final: the tasks after it are not read', async () => {
		const { memory, reads, read, clock } = setup({ a: ['in_progress'], b: ['completed'] });
		expect(await answerRecheck(memory, ['a', 'b'], read, clock)).toEqual({
			status: 200,
			body: { received: true, waiting: 'task a is in_progress' },
		});
		expect(reads).toEqual(['a']);
		expect(tryClaim(memory, T0)).toBe(true);
	});

	it('reads again on the next pass, and a final record already known is not read again', async () => {
		const { memory, reads, read, clock } = setup({ a: ['completed'], b: ['in_progress', 'completed'] });
		await answerRecheck(memory, ['a', 'b'], read, clock);
		expect(await answerRecheck(memory, ['a', 'b'], read, clock)).toHaveProperty('resume');
		expect(reads).toEqual(['a', 'b', 'b']);
	});

	it('answers 503 when a read fails, and claims nothing', async () => {
		const { memory, read, clock } = setup({ a: ['error'] });
		expect(await answerRecheck(memory, ['a'], read, clock)).toEqual({
			status: 503,
			body: { error: 'Could not read video task a: socket hang up' },
		});
		expect(tryClaim(memory, T0)).toBe(true);
	});

	it('reads nothing while another request holds the resume', async () => {
		const { memory, reads, read, clock } = setup({ a: ['completed'] });
		tryClaim(memory, T0);
		handOver(memory, T0);
		expect(await answerRecheck(memory, ['a'], read, clock)).toMatchObject({
			status: 200,
			body: { resuming: expect.any(String) },
		});
		expect(reads).toEqual([]);
	});
});
