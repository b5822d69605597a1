/**
 * Which answers of a failed Video → Create name a task. The interface gives a
 * task id in the creation result only (`id`, `status` pending or queue,
 * `polling_url`); its error envelope carries none. The advice names the id
 * when the answer has it, and says to look the task up otherwise.
 */
import {
	taskIdInAnswer,
	VIDEO_MAYBE_CREATED,
	videoMaybeCreated,
} from '../../../nodes/GenerationGateway/actions/video/task';

const creation = {
	id: 'video_abc',
	status: 'pending',
	polling_url: 'https://gw.example/v1/videos/video_abc',
};

describe('taskIdInAnswer: only an answer with the creation result names a task', () => {
	const rows: Array<[string, unknown, string | undefined]> = [
		['the whole creation result', creation, 'video_abc'],
		['status queue, no polling_url', { id: 'video_q', status: 'queue' }, 'video_q'],
		['polling_url, no status', { id: 'video_p', polling_url: 'https://gw/v1/videos/video_p' }, 'video_p'],
		[
			'the creation result beside an error envelope',
			{ ...creation, error: { message: 'upstream failed', type: 'api_error', code: 'x', param: '' } },
			'video_abc',
		],
		[
			'the error envelope only',
			{ error: { message: 'boom', type: 'api_error', code: 'x', param: '' } },
			undefined,
		],
		['an id alone (could name a request or an error)', { id: 'req_1' }, undefined],
		['an id with a status that is not a creation status', { id: 'video_x', status: 'failed' }, undefined],
		['an empty id', { ...creation, id: '' }, undefined],
		['a blank id', { ...creation, id: '  ' }, undefined],
		['a number id', { ...creation, id: 42 }, undefined],
		['an id in the envelope', { error: { id: 'video_e', status: 'pending' } }, undefined],
		['an array', [creation], undefined],
		['text (an HTML page)', '<html>Bad Gateway</html>', undefined],
		['no answer', undefined, undefined],
		['null', null, undefined],
	];
	it.each(rows)('%s', (_name, answer, expected) => {
		expect(taskIdInAnswer(answer)).toBe(expected);
	});
});

describe('videoMaybeCreated: the advice of a Video → Create that may have made a task', () => {
	it('names the task id and Wait for Completion when the answer gives it', () => {
		expect(videoMaybeCreated(creation)).toBe(
			"The gateway's answer names task video_abc: it may exist and be charged. Use Video → Wait for Completion with task ID video_abc to get its video (Video → Get shows its status) instead of creating another.",
		);
	});
	it.each([[undefined], [{ error: { message: 'boom' } }], ['Bad Gateway']])(
		'says to look the task up when the answer names none (%j)',
		(answer) => {
			expect(videoMaybeCreated(answer)).toBe(VIDEO_MAYBE_CREATED);
			expect(VIDEO_MAYBE_CREATED).toMatch(
				/^A task may exist and be charged: look it up before creating another/,
			);
		},
	);
	it('gives no retry advice', () => {
		for (const answer of [creation, undefined])
			expect(videoMaybeCreated(answer)).not.toMatch(/retry|try again/i);
	});
});
