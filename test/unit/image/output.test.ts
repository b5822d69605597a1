/**
 * downloadImage: a URL result that cannot be downloaded says so, keeps the
 * HTTP client's words (even when they name a Node error code, which n8n's
 * NodeOperationError would swap for "You can retry the request immediately")
 * and says the image was generated and paid for.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { downloadImage } from '../../../nodes/GenerationGateway/actions/image/output';

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
