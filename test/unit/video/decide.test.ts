/** The way of waiting of Create and Wait, decided once per run (actions/video/wait/decide.ts). */
import {
	AUTO_CALLBACK_MAX_TASKS,
	decideWaitMode,
} from '../../../nodes/GenerationGateway/actions/video/wait/decide';

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

	it('a callback wait carries the resume URL its creates send', () => {
		expect(
			decideWaitMode({
				setting: 'callback',
				resumeUrl: 'https://x/w/1?signature=s',
				room: 'customData',
				tasks: 1,
			}),
		).toMatchObject({
			mode: 'callback',
			resumeUrl: 'https://x/w/1?signature=s',
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
			expect(decision.fallback).toContain('(http://localhost:5678/webhook-waiting/7)');
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
