/** The way of waiting of Create and Wait, decided once per run (actions/video/wait/plan.ts). */
import { AUTO_CALLBACK_MAX_TASKS } from '../../../nodes/GenerationGateway/actions/video/options';
import type { IExecuteFunctions } from 'n8n-workflow';

import type { RunInfo } from '../../../nodes/GenerationGateway/actions/types';
import { decideWaitMode, planWait } from '../../../nodes/GenerationGateway/actions/video/wait/plan';

describe('decideWaitMode', () => {
	const https = 'https://n8n.example.com/webhook-waiting/7?signature=abc';
	it.each<[string | undefined, string, number, 'callback' | 'polling', RegExp]>([
		['auto', https, 1, 'callback', /^Auto waits by callback for up to 5 tasks \(this batch has 1\)/],
		[undefined, https, 1, 'callback', /^Auto waits by callback/],
		// The boundary: Auto takes callbacks up to AUTO_CALLBACK_MAX_TASKS tasks, polls beyond.
		['auto', https, AUTO_CALLBACK_MAX_TASKS, 'callback', /this batch has 5\)/],
		[
			'auto',
			https,
			AUTO_CALLBACK_MAX_TASKS + 1,
			'polling',
			/^Auto polls batches of more than 5 tasks \(this one has 6\)/,
		],
		['auto', https, 1000, 'polling', /this one has 1000\).*set Wait Mode to Callback/],
		// An explicit Callback stays callback whatever the size.
		['callback', https, 1, 'callback', /^Wait Mode is Callback$/],
		['callback', https, 1000, 'callback', /^Wait Mode is Callback$/],
		['polling', https, 1, 'polling', /^Wait Mode is Polling$/],
		['polling', https, 1000, 'polling', /^Wait Mode is Polling$/],
	])('%s with %s, %i tasks: %s', (setting, url, tasks, mode, reason) => {
		const decision = decideWaitMode({ setting: setting, resumeUrl: url, room: 'customData', tasks: tasks });
		expect(decision.mode).toBe(mode);
		expect(decision.reason).toMatch(reason);
		// Only a wait that could not be what was asked for is a fallback.
		expect(decision.fallback).toBeUndefined();
	});

	it.each(['auto', 'callback', undefined])(
		'a tool call polls (%s): it cannot put its execution to wait',
		(setting) => {
			expect(
				decideWaitMode({
					setting: setting,
					resumeUrl: 'https://x/',
					room: 'customData',
					tasks: 1,
					asTool: true,
				}),
			).toEqual({
				mode: 'polling',
				reason: 'a tool call of an AI agent cannot put the execution to wait',
			});
		},
	);

	it.each([
		['https://x/w/1?signature=s', 'https://x/w/1/video-wait?signature=s'],
		['https://x/w/1', 'https://x/w/1/video-wait'],
		['https://x/w/1/', 'https://x/w/1/video-wait'],
		[
			'https://n8n.example.com/sub/webhook-waiting/7?signature=abc',
			'https://n8n.example.com/sub/webhook-waiting/7/video-wait?signature=abc',
		],
	])("a callback wait's creates send its own address: %s -> %s", (resumeUrl, callbackUrl) => {
		expect(decideWaitMode({ setting: 'callback', resumeUrl, room: 'customData', tasks: 1 })).toMatchObject({
			mode: 'callback',
			callbackUrl,
		});
	});

	it.each([
		['auto', 1],
		['auto', 1000],
		['callback', 1],
	])(
		'falls back to polling for an http resume URL (%s, %i tasks), naming it without its token',
		(setting, tasks) => {
			const decision = decideWaitMode({
				setting: setting,
				resumeUrl: 'http://localhost:5678/webhook-waiting/7?signature=secret',
				room: 'customData',
				tasks: tasks,
			});
			expect(decision.mode).toBe('polling');
			expect(decision.fallback).toContain('(http://localhost:5678/webhook-waiting/7?…)');
			expect(decision.fallback).not.toContain('secret');
			expect(decision.reason).toBe(decision.fallback);
		},
	);

	it('falls back to polling where n8n keeps no custom data, whatever the setting', () => {
		for (const setting of ['auto', 'callback']) {
			const decision = decideWaitMode({ setting: setting, resumeUrl: 'https://x/', room: 'none', tasks: 1 });
			expect(decision).toEqual({
				mode: 'polling',
				reason: decision.fallback,
				fallback: expect.stringContaining('custom data'),
			});
		}
	});

	it.each([
		['callback', 1],
		['callback', 300],
		['auto', 3],
	])(
		'a task list with no room anywhere (%s, %i tasks) polls from the start, saying why',
		(setting, tasks) => {
			const decision = decideWaitMode({ setting, resumeUrl: 'https://x/', room: 'full', tasks });
			expect(decision).toEqual({
				mode: 'polling',
				reason: decision.fallback,
				fallback: `the task list of ${tasks} items fits neither in the execution's custom data (n8n keeps at most 10 entries of 512 characters) nor in n8n's binary data store`,
			});
		},
	);

	it.each<['customData' | 'file']>([['customData'], ['file']])(
		'a task list with room (%s) waits by callback',
		(room) => {
			expect(decideWaitMode({ setting: 'callback', resumeUrl: 'https://x/', room, tasks: 300 }).mode).toBe(
				'callback',
			);
		},
	);
});

describe('planWait: where the task list will be kept is found before any create', () => {
	/** What planWait reads of a run: the setting, the resume URL, the items, custom data and the binary store. */
	function run(options: {
		tasks: number;
		customData?: Record<string, string> | 'absent';
		probe: 'id' | 'no id' | 'fails';
	}) {
		const entries = options.customData === 'absent' ? undefined : (options.customData ?? {});
		const hints: Array<{ message: string }> = [];
		const probes: string[] = [];
		const ctx = {
			...(entries && { customData: { getAll: () => ({ ...entries }), setAll: () => undefined } }),
			getNodeParameter: () => ({ mode: 'callback' }),
			evaluateExpression: () => 'https://n8n.example.com/webhook-waiting/7?signature=abc',
			getInputData: () => Array.from({ length: options.tasks }, () => ({ json: {} })),
			getNode: () => ({ id: 'node-1', name: 'Create and Wait' }),
			addExecutionHints: (...added: Array<{ message: string }>) => hints.push(...added),
			helpers: {
				prepareBinaryData: async (data: Buffer) => {
					probes.push(data.toString());
					if (options.probe === 'fails') throw new Error('the store is not writable');
					return options.probe === 'id' ? { id: 'filesystem-v2:probe' } : { data: 'e30=' };
				},
			},
		} as unknown as IExecuteFunctions;
		return { ctx, hints, probes };
	}

	it.each<[string, Parameters<typeof run>[0], 'callback' | 'polling', number, RegExp | undefined]>([
		['a few tasks fit in custom data: no probe', { tasks: 3, probe: 'fails' }, 'callback', 0, undefined],
		['many tasks, the store gives an id: a file', { tasks: 300, probe: 'id' }, 'callback', 1, undefined],
		[
			'many tasks, the store fails',
			{ tasks: 300, probe: 'fails' },
			'polling',
			1,
			/did not fit in the execution's custom data/,
		],
		[
			'many tasks, the store keeps data in memory (no id)',
			{ tasks: 300, probe: 'no id' },
			'polling',
			1,
			/did not fit in the execution's custom data/,
		],
		[
			'custom data full of other entries, the store fails',
			{
				tasks: 1,
				probe: 'fails',
				customData: Object.fromEntries(Array.from({ length: 10 }, (_, n) => [`other${n}`, 'x'])),
			},
			'polling',
			0,
			/had no room for the task list/,
		],
		[
			'no custom data in this n8n: no probe',
			{ tasks: 3, probe: 'id', customData: 'absent' },
			'polling',
			0,
			/custom data/,
		],
	])('%s', async (_name, options, mode, probes, hint) => {
		const { ctx, hints, probes: made } = run(options);
		const plan = await planWait(ctx, { asTool: false } as RunInfo);
		expect(plan.mode).toBe(mode);
		expect(made).toHaveLength(probes);
		if (hint) expect(hints.map((h) => h.message).join('\n')).toMatch(hint);
		else expect(hints).toEqual([]);
	});
});
