/**
 * The node's webhook entry goes through the router: a request reaches the
 * webhook handler of the operation the node is set to, and a node set to an
 * operation that takes no callbacks answers 404 and starts nothing.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { nodeWebhooks } from '../../../nodes/GenerationGateway/actions/resources';
import { routeWebhook } from '../../../nodes/GenerationGateway/actions/router';
import { createAndWait } from '../../../nodes/GenerationGateway/actions/video/createAndWait.operation';

function webhookContext(parameters: Record<string, string>) {
	const answered: Array<{ status: number; body: unknown }> = [];
	const response = {
		status(status: number) {
			return { json: (body: unknown) => answered.push({ status, body }) };
		},
	};
	const ctx = {
		getNodeParameter: (name: string, fallback: unknown) => parameters[name] ?? fallback,
		getResponseObject: () => response,
	} as unknown as IWebhookFunctions;
	return { ctx, answered };
}

describe('routeWebhook', () => {
	it.each([
		['image', 'generate'],
		['video', 'create'],
		['video', 'nothing'],
	])('%s → %s takes no callbacks: 404, no workflow data', async (resource, operation) => {
		const { ctx, answered } = webhookContext({ resource, operation });
		const result = await routeWebhook.call(ctx);
		expect(result).toEqual({ noWebhookResponse: true });
		expect(answered).toEqual([
			{ status: 404, body: { error: `This node (${resource} → ${operation}) does not take callbacks` } },
		]);
	});

	it('video → Create and Wait: the callback reaches its handler', async () => {
		const handler = jest.fn(async () => ({ noWebhookResponse: true }));
		const original = createAndWait.webhook;
		createAndWait.webhook = handler;
		try {
			const { ctx, answered } = webhookContext({ resource: 'video', operation: 'createAndWait' });
			await routeWebhook.call(ctx);
			expect(handler).toHaveBeenCalledWith(ctx);
			expect(answered).toEqual([]);
		} finally {
			createAndWait.webhook = original;
		}
	});

	it("the node's webhooks are the operations' own, each once", () => {
		expect(nodeWebhooks()).toEqual(createAndWait.webhooks);
	});
});
