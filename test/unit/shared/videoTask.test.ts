import { readCallbackBody, secretMatches } from '../../../nodes/shared/videoTask';

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
