import { NodeOperationError } from 'n8n-workflow';

import { videoCatalog } from '../../../nodes/GenerationGateway/actions/video/catalog';
import { assertValid } from '../../../nodes/shared/validation';
import {
	VIDEO_LABELS,
	buildVideoBody,
	videoModelFor,
} from '../../../nodes/GenerationGateway/actions/video/body';
import { videoBodySchema } from '../../../nodes/GenerationGateway/actions/video/schema';
import { accepted, rejected } from './videoTable';

/**
 * Accepted and rejected bodies per family, each row taken from the
 * interface's "POST /v1/videos" tables. A rejected row names the form label
 * the message must start with; every row would flip if its rule were removed.
 */

const node = {
	id: '1',
	name: 'Video',
	type: 't',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};
function check(body: Record<string, unknown>) {
	const model = videoModelFor(String(body.model));
	return assertValid(node, videoBodySchema(model), { prompt: 'a cat', ...body }, VIDEO_LABELS);
}

describe('POST /v1/videos rules', () => {
	it.each(accepted)('accepts: %s', (_name, body) => {
		expect(() => check(body)).not.toThrow();
	});

	it.each(rejected)('refuses: %s', (_name, body, label) => {
		let error: unknown;
		try {
			check(body);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message.startsWith(`${label}: `)).toBe(true);
		expect((error as NodeOperationError).description).toContain('not sent');
	});
});

describe('catalog and body builder', () => {
	it('knows every model of the four families and their snapshots', () => {
		const ids = [
			'vidA-2.5',
			'vidA-2.0',
			'vidA-2.0-mini',
			'vidB-1.5',
			'vidB',
			'vidB-1.5-fast',
			'vidC-1.1',
			'vidC-1.0',
			'vidD-h3',
		];
		for (const id of ids) expect(videoCatalog.resolve(id)?.id).toBe(id);
		expect(videoCatalog.resolve('vidC-1.0-2026-03-01')?.id).toBe('vidC-1.0');
		expect(videoCatalog.resolve('vidZ')).toBeUndefined();
	});

	it('builds the body with the assumed wire names and leaves empty members out', () => {
		const body = buildVideoBody({
			model: ' vidA-2.5 ',
			prompt: 'a fox',
			duration: 8,
			resolution: '',
			firstFrameUrl: 'https://x/f.png',
			lastFrameUrl: 'https://x/l.png',
			seed: 7,
			callbackUrl: 'https://cb',
			extensions: { cameraFixed: true, level: 3 },
		});
		expect(body).toEqual({
			model: 'vidA-2.5',
			prompt: 'a fox',
			duration: 8,
			frame_images: [
				{ image_url: 'https://x/f.png', frame_type: 'first_frame' },
				{ image_url: 'https://x/l.png', frame_type: 'last_frame' },
			],
			seed: 7,
			callback_url: 'https://cb',
			metadata: { camera_fixed: true, priority: 3 },
		});
		expect(
			buildVideoBody({
				model: 'vidB-1.5',
				prompt: 'p',
				references: [{ kind: 'audio', url: 'https://a', role: 'reference_audio', voiceId: 'v' }],
			}).input_references,
		).toEqual([{ type: 'audio_url', audio_url: 'https://a', role: 'reference_audio', voice_id: 'v' }]);
	});
});
