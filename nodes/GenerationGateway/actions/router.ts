import type {
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../../shared/concurrency';
import { assertSupportedN8n } from '../../shared/n8nFeatures';
import { isRefusal } from '../../shared/validation';
import { readRequestSettings } from './descriptions';
import { errorItem, itemError } from './itemErrors';
import { RETRY_ON_FAIL_MESSAGE, addHints, refusedItemsHint, retryOnFailHint } from './hints';
import { withCreatedTasks } from './paidWork';
import { findOperation } from './resources';
import { runsAsTool, toolItems } from './tool';
import type { ItemResult } from './types';

/** n8n's Retry On Fail runs the whole node again: for an operation that creates paid work, say what that costs. */
function withRetryWarning<E extends Error>(error: E): E {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.description = error.description
			? `${error.description} ${RETRY_ON_FAIL_MESSAGE}`
			: RETRY_ON_FAIL_MESSAGE;
	}
	return error;
}

/**
 * Owns the item loop for every operation: runs the chosen operation for each
 * input item (at most "Max Concurrent Requests" at once, output in input
 * order), then, for an operation with a `settle` step, that step once for
 * the whole batch (video waits); attaches `pairedItem`, and applies
 * continue-on-fail: a failed item becomes `{ json: { error } }` in its place
 * instead of failing the node.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	assertSupportedN8n(this);
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0, '') as string;
	const module = findOperation(resource, operation);
	if (!module) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for resource "${resource}"`,
			{
				description:
					'Pick an operation from the list; this version of the node does not have the one saved in the workflow.',
			},
		);
	}
	// A tool call cannot put the execution to wait: Create and Wait polls, and errors become readable items.
	const asTool = runsAsTool(this);
	const plan = await module.plan?.(this, { asTool });
	const { maxConcurrency } = readRequestSettings(this, 0);
	const continueOnFail = asTool || this.continueOnFail();

	// A failed run with Retry On Fail is run again by n8n, every item of it: for paid work, a cost to name.
	const retries = module.createsPaidWork === true && this.getNode().retryOnFail === true;
	if (retries) addHints(this, retryOnFailHint());

	// Operations that start paid work check every item before the first request: a refusal of
	// item 3 must not come after items 0-2 were created and charged.
	const refused = new Map<number, Error>();
	if (module.check) {
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				await module.check.call(this, itemIndex);
			} catch (error) {
				const wrapped = itemError(this.getNode(), error, itemIndex);
				if (!continueOnFail) throw retries ? withRetryWarning(wrapped) : wrapped;
				refused.set(itemIndex, wrapped);
			}
		}
	}

	try {
		const refusedInRun = new Set(refused.keys());
		const started = await mapWithConcurrency(
			items.length,
			maxConcurrency,
			async (itemIndex): Promise<ItemResult> => {
				const refusal = refused.get(itemIndex);
				if (refusal) return { error: refusal };
				try {
					return { output: await module.execute.call(this, itemIndex, plan) };
				} catch (error) {
					const wrapped = itemError(this.getNode(), error, itemIndex);
					if (!continueOnFail) throw wrapped;
					if (isRefusal(wrapped)) refusedInRun.add(itemIndex);
					return { error: wrapped };
				}
			},
		);
		const results = module.settle ? await module.settle(this, started, plan) : started;
		// A batch fails only once every item has settled: the first failure, in item order.
		const failed = continueOnFail ? undefined : results.find((result) => 'error' in result);
		if (failed && 'error' in failed) throw failed.error;
		if (refusedInRun.size) addHints(this, refusedItemsHint(refusedInRun.size, items.length));
		const output = results.flatMap((result, itemIndex) =>
			'error' in result
				? [errorItem(result.error, itemIndex)]
				: result.output.map((item) => ({
						...item,
						pairedItem: item.pairedItem ?? { item: itemIndex },
					})),
		);
		return [asTool ? await toolItems(this, output) : output];
	} catch (error) {
		// The run fails: name the paid work it started, which goes on at the gateway.
		const failed = withCreatedTasks(this, error as Error);
		throw retries ? withRetryWarning(failed) : failed;
	}
}

/**
 * The node's webhook entry, beside `router` for execute: the request goes to
 * the webhook handler of the operation the node is set to (Create and Wait's
 * callbacks). A node set to an operation without one answers 404 and starts
 * nothing.
 */
export async function routeWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const resource = String(this.getNodeParameter('resource', ''));
	const operation = String(this.getNodeParameter('operation', ''));
	const module = findOperation(resource, operation);
	if (module?.webhook) return await module.webhook(this);
	this.getResponseObject()
		.status(404)
		.json({ error: `This node (${resource} → ${operation}) does not take callbacks` });
	return { noWebhookResponse: true };
}
