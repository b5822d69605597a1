import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mapWithConcurrency } from '../../shared/concurrency';
import { readRequestSettings } from './descriptions';
import { findOperation } from './resources';
import { runsAsTool, toolItem } from './tool';

function withItemIndex(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context = { ...error.context, itemIndex };
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Owns the item loop for every operation: runs the chosen operation for each
 * input item (at most "Max Concurrent Requests" at once, output in input
 * order), attaches `pairedItem`, and applies continue-on-fail: a failed item
 * becomes `{ json: { error } }` in its place instead of failing the node.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
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
	const whole = asTool ? undefined : await module.executeAll?.(this);
	if (whole) return whole;
	const { maxConcurrency } = readRequestSettings(this, 0);
	const continueOnFail = asTool || this.continueOnFail();

	const perItem = await mapWithConcurrency(items.length, maxConcurrency, async (itemIndex) => {
		try {
			const output = (await module.execute.call(this, itemIndex)).map((item) =>
				asTool ? toolItem(item) : item,
			);
			return output.map((item) => ({ ...item, pairedItem: item.pairedItem ?? { item: itemIndex } }));
		} catch (error) {
			const wrapped = withItemIndex(this, error, itemIndex);
			if (!continueOnFail) throw wrapped;
			const description = (wrapped as NodeOperationError).description;
			return [
				{
					json: { error: wrapped.message, ...(description ? { errorDescription: description } : {}) },
					pairedItem: { item: itemIndex },
				},
			];
		}
	});
	return [perItem.flat()];
}
