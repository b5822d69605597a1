/**
 * Who answered a final callback 5xx (e2e/src/finalAnswers.ts): the node asking again, n8n's database
 * pool, n8n's torn read of an execution another callback resumed, or anything else, a defect. n8n's
 * answers are built as n8n 2.41.1 sends them (its error body with the stack) and cut as the simulator
 * keeps them.
 */
import { whoAnswered5xx } from '../../../e2e/src/finalAnswers';
import { ANSWER_CHARS } from '../../simulator/video/tasks';

const dist = '/usr/local/lib/node_modules/n8n/dist';

/** n8n's 500 for a TypeError on `property`, thrown at `frame`, as the simulator keeps it. */
function n8n500(property: string, frame: string): string {
	const message = `Cannot read properties of undefined (reading '${property}')`;
	const stacktrace = `TypeError: ${message}\n    at ${frame}\n    at WaitingWebhooks.executeWebhook (${dist}/webhooks/waiting-webhooks.js:225:27)`;
	return JSON.stringify({ code: 0, message, stacktrace }).slice(0, ANSWER_CHARS);
}

const TORN = 'n8n read the execution while another process resumed it';

test.each([
	[
		"the node's 503 with Retry-After",
		{ httpStatus: 503, retryAfter: '5', answer: '{"error":"the task is not final at the gateway yet"}' },
		'the node asks again (Retry-After)',
	],
	[
		"n8n's database pool",
		{ httpStatus: 503, answer: '{"code":503,"message":"Database is not ready!"}' },
		"n8n's database pool timed out",
	],
	[
		'a run already taken, in preserveInputOverride',
		{
			httpStatus: 500,
			answer: n8n500('inputOverride', `preserveInputOverride (${dist}/workflow-helpers.js:366:47)`),
		},
		TORN,
	],
	[
		'an emptied stack, in disableNode',
		{
			httpStatus: 500,
			answer: n8n500('node', `WaitingWebhooks.disableNode (${dist}/webhooks/waiting-webhooks.js:85:60)`),
		},
		TORN,
	],
])('%s', (_, delivery, expected) => {
	expect(whoAnswered5xx(delivery)).toBe(expected);
});

test.each([
	[
		'the same TypeError thrown elsewhere',
		{ httpStatus: 500, answer: n8n500('node', 'runWebhook (/app/x.js:1:1)') },
	],
	[
		'the torn-read message without a stack',
		{
			httpStatus: 500,
			answer: `{"code":0,"message":"Cannot read properties of undefined (reading 'node')"}`,
		},
	],
	[
		'a 503 without Retry-After',
		{ httpStatus: 503, answer: '{"error":"the task is not final at the gateway yet"}' },
	],
	['a 503 with Retry-After from a proxy', { httpStatus: 503, retryAfter: '5', answer: '<html>busy</html>' }],
	['a 502', { httpStatus: 502, answer: 'Bad Gateway' }],
])('%s is a defect', (_, delivery) => {
	expect(whoAnswered5xx(delivery)).toMatch(new RegExp(`^other: ${delivery.httpStatus} `));
});
