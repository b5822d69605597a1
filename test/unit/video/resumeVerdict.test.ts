/** What the package makes of n8n's answer to its own post to a resume URL (wait/callback/start.ts). */
import { resumeVerdict } from '../../../nodes/GenerationGateway/actions/video/wait/callback/start';

describe('resumeVerdict', () => {
	it.each<[string, number, unknown, 'done' | 'again']>([
		// n8n may still fail to resume with the items: the next post learns what became of them.
		['resumed', 200, { received: true, resumed: true }, 'again'],
		// Its build, in a process whose claim this one does not see, may still fail.
		['another callback builds the resume', 200, { received: true, resuming: 'another callback' }, 'again'],
		[
			'another process still checks a task',
			200,
			{ received: true, waiting: 'task v2 is in_progress' },
			'again',
		],
		[
			// Another request resumes it now (in queue mode this process never sees that): that resume may still fail.
			'the execution runs',
			409,
			{ code: 409, message: 'The execution "7" is running already.' },
			'again',
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
		[
			'the execution finished with an error',
			409,
			{ message: 'The execution "7" has finished with error.' },
			'done',
		],
		['the execution is gone', 404, { message: 'The execution "7" does not exist.' }, 'done'],
		['a wrong signature', 401, { error: 'Invalid token' }, 'done'],
		['n8n busy', 503, { message: 'Database is not ready!' }, 'again'],
		['the node could not confirm yet', 503, { error: 'The gateway does not confirm yet' }, 'again'],
		['no answer', 0, undefined, 'again'],
	])('%s (HTTP %s): %s', (_what, status, body, verdict) => {
		expect(resumeVerdict({ status, body })).toBe(verdict);
	});
});
