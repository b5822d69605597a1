/** What the package makes of n8n's answer to its own post to a resume URL (wait/callback/start.ts). */
import { resumeVerdict } from '../../../nodes/GenerationGateway/actions/video/wait/callback/start';

describe('resumeVerdict', () => {
	it.each<[string, number, unknown, 'done' | 'again']>([
		['resumed', 200, { received: true, resumed: true }, 'done'],
		['another callback resumes it', 200, { received: true, resuming: 'another callback' }, 'done'],
		[
			'another process still checks a task',
			200,
			{ received: true, waiting: 'task v2 is in_progress' },
			'again',
		],
		[
			'the execution runs (it resumed: in queue mode this process never sees that)',
			409,
			{ message: 'The execution "7" is running already.' },
			'done',
		],
		[
			'the execution waits at another node (a Wait node after the video)',
			404,
			{
				message:
					'The workflow for execution "7" does not contain a waiting webhook with a matching path/method.',
			},
			'done',
		],
		['the execution finished', 409, { message: 'The execution "7 has finished already.' }, 'done'],
		['the execution is gone', 404, { message: 'The execution "7" does not exist.' }, 'done'],
		['a wrong signature', 401, { error: 'Invalid token' }, 'done'],
		['n8n busy', 503, { message: 'Database is not ready!' }, 'again'],
		['the node could not confirm yet', 503, { error: 'The gateway does not confirm yet' }, 'again'],
		['no answer', 0, undefined, 'again'],
	])('%s (HTTP %s): %s', (_what, status, body, verdict) => {
		expect(resumeVerdict({ status, body })).toBe(verdict);
	});
});
