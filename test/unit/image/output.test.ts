/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * downloadImage: a URL result that cannot be downloaded says so, keeps the
 * HTTP client's words (even when they name a Node error code, which n8n's
 * NodeOperationError would swap for "You can retry the request immediately")
 * and says the image was generated and paid for (every failure of a download
 * is in test/unit/shared/download.test.ts).
 */
import { Readable } from 'node:stream';

import type { IBinaryData, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { downloadImage, nameImage } from '../../../nodes/GenerationGateway/actions/image/output';
import { useVirtualTime } from '../../harness/virtual-time';

// The download's back-off between attempts on virtual time.
useVirtualTime();

const node = { name: 'Gateway', type: 'n8n-nodes-generation-gateway.generationGateway' } as INode;
/** A context whose HTTP helper throws `error`, or answers with `status` and no body; `sent` counts its requests. */
const hostThat = (outcome: Error | number, sent = { count: 0 }) =>
	({
		getNode: () => node,
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequest: async () => {
				sent.count++;
				return outcome instanceof Error
					? await Promise.reject(outcome)
					: { statusCode: outcome, headers: {}, body: Readable.from([]) };
			},
		},
	}) as unknown as IExecuteFunctions;

describe('downloadImage', () => {
	it.each([
		[
			'a refused connection',
			new Error('connect ECONNREFUSED 127.0.0.1:9'),
			'the connection failed (connect ECONNREFUSED 127.0.0.1:9)',
			3,
		],
		['a reset', new Error('read ECONNRESET'), 'the connection failed (read ECONNRESET)', 3],
		['a 404', 404, 'the file host answered HTTP 404', 1],
	])(
		'after %s: names the image, the URL and the cause; says it was paid for',
		async (_name, outcome, cause, attempts) => {
			const url = 'https://cdn.example/img.png';
			const sent = { count: 0 };
			const error = await downloadImage(hostThat(outcome, sent), url, 1, 'png', 1000, 4).catch(
				(e: unknown) => e,
			);
			expect(sent.count).toBe(attempts);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as NodeOperationError).message).toBe(`Could not download image 2 from ${url}: ${cause}`);
			expect((error as NodeOperationError).description).toMatch(/generated \(and paid for\)/);
			expect((error as NodeOperationError).context.itemIndex).toBe(4);
		},
	);
});

describe('nameImage: a stored image is named after its place in the answer, typed as the answer reports', () => {
	const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
	const stored = () => ({
		binary: {
			data: 'filesystem-v2',
			mimeType: 'image/png',
			fileName: 'image-1.png',
			fileExtension: 'png',
		} as IBinaryData,
		head: PNG_HEAD,
	});
	it.each([
		[
			'no format reported: the bytes decide',
			undefined,
			'image-1',
			{ fileName: 'image-1.png', mimeType: 'image/png', fileExtension: 'png', fileType: 'image' },
		],
		[
			'a format reported: it wins, as for every generated image',
			'webp',
			'image-1',
			{ fileName: 'image-1.webp', mimeType: 'image/webp', fileExtension: 'webp' },
		],
		[
			'second in the data list although first in the stream',
			'jpeg',
			'image-2',
			{ fileName: 'image-2.jpg', mimeType: 'image/jpeg', fileExtension: 'jpg' },
		],
	])('%s', (_name, format, stem, expected) => {
		const image = stored();
		expect(nameImage(image, stem, format)).toMatchObject(expected);
		expect(image.binary).toMatchObject(expected);
	});
});
