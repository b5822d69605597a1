import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { isTriggerAddress, readCallbackBody, readTask, secretMatches } from '../../../nodes/shared/videoTask';

describe('secretMatches', () => {
	it.each([
		['the same secret', 's3cret-value', 's3cret-value', true],
		['a wrong secret of the same length', 's3cret-value', 's3cret-valuX', false],
		['a shorter secret', 's3cret-value', 's3cret', false],
		['no secret', 's3cret-value', undefined, false],
		['an array (repeated query parameter)', 's3cret-value', ['s3cret-value'], false],
		['an empty configured secret', '', '', false],
	])('%s', (_name, expected, given, result) => {
		expect(secretMatches(expected, given)).toBe(result);
	});
});

describe('readCallbackBody', () => {
	const record = { id: 'video_1', status: 'completed', model: 'vidA-2.5', created: 1 };
	it.each([
		['the task record', record, { id: 'video_1', status: 'completed' }],
		['the record inside data', { data: record }, { id: 'video_1', status: 'completed' }],
	])('accepts %s', (_name, body, claim) => {
		expect(readCallbackBody(body)).toMatchObject({ ...claim, record });
	});

	it.each([
		['no body', undefined, 'JSON object'],
		['an array', [record], 'JSON object'],
		['no id', { status: 'completed' }, '"id"'],
		['an empty id', { id: ' ', status: 'completed' }, '"id"'],
		['an unknown status', { id: 'v', status: 'done' }, '"status"'],
		['no status', { id: 'v' }, '"status"'],
	])('refuses %s', (_name, body, problem) => {
		const verdict = readCallbackBody(body);
		expect('problem' in verdict && verdict.problem).toContain(problem);
	});
});

describe('isTriggerAddress: a Video → Create whose callback goes to a Generation Gateway Trigger', () => {
	it.each<[unknown, boolean]>([
		['https://n8n.example.com/webhook/6f1c/video-task?secret=s3cr3t', true],
		['https://n8n.example.com/webhook-test/6f1c/video-task/?secret=s3cr3t', true],
		['https://n8n.example.com/webhook/6f1c/video-task', false],
		['http://n8n.example.com/webhook/6f1c/video-task?secret=s3cr3t', false],
		['https://n8n.example.com/webhook/6f1c/other?secret=s3cr3t', false],
		['https://n8n.example.com/webhook/6f1c/my-video-task?secret=s3cr3t', false],
		['not a url', false],
		[undefined, false],
	])('%s: %s', (url, expected) => {
		expect(isTriggerAddress(url)).toBe(expected);
	});
});

describe('readTask: a record is used only for the task it was read for', () => {
	const node = { name: 'Gateway', type: 'generationGateway' } as INode;
	const contextAnswering = (body: unknown) =>
		({
			getNode: () => node,
			getCredentials: async () => ({ baseUrl: 'https://gateway.test' }),
			helpers: {
				httpRequestWithAuthentication: async () => ({ statusCode: 200, headers: {}, body }),
			},
		}) as unknown as IExecuteFunctions;

	it.each<[string, unknown, string | undefined]>([
		['its own record', { id: 'video_1', status: 'completed' }, undefined],
		['the record of another task', { id: 'video_2', status: 'completed' }, 'with the record of "video_2"'],
		['a record without an id', { status: 'completed' }, 'with the record of null'],
		['no record at all', null, 'with the record of null'],
	])('%s', async (_what, body, refused) => {
		const read = readTask(contextAnswering(body), 'video_1', { attempts: 1 });
		if (refused === undefined) await expect(read).resolves.toMatchObject({ record: body });
		else await expect(read).rejects.toThrow(`The gateway answered the read of video task video_1 ${refused}`);
	});
});
