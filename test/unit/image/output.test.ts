/**
 * downloadImage: a URL result that cannot be downloaded says so, keeps the
 * HTTP client's words (even when they name a Node error code, which n8n's
 * NodeOperationError would swap for "You can retry the request immediately")
 * and says the image was generated and paid for.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { IBinaryData } from 'n8n-workflow';

import { downloadImage, nameImage } from '../../../nodes/GenerationGateway/actions/image/output';

const node = { name: 'Gateway', type: 'n8n-nodes-generation-gateway.generationGateway' } as INode;
const failingWith = (error: Error) =>
	({
		getNode: () => node,
		helpers: { httpRequest: async () => await Promise.reject(error) },
	}) as unknown as IExecuteFunctions;

describe('downloadImage', () => {
	it.each([
		['a refused connection', 'connect ECONNREFUSED 127.0.0.1:9'],
		['a reset', 'read ECONNRESET'],
		['a 404', 'Request failed with status code 404'],
	])('after %s: names the image, the URL and the cause; says it was paid for', async (_name, cause) => {
		const url = 'https://cdn.example/img.png';
		const error = await downloadImage(failingWith(new Error(cause)), url, 1, 1000, 4).catch(
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe(`Could not download image 2 from ${url}: ${cause}`);
		expect((error as NodeOperationError).description).toMatch(/generated \(and paid for\)/);
		expect((error as NodeOperationError).context.itemIndex).toBe(4);
	});
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
