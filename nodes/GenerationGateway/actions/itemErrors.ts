import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** An item's failure as n8n shows it, and its error item under continue-on-fail: one shape for all. */

/** A node error keeps its own text. */
export function itemError(node: INode, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context = { ...error.context, itemIndex };
		return error;
	}
	return new NodeOperationError(node, error as Error, { itemIndex });
}

/** An error as output JSON: `error` (the message) and `errorDescription` (what to do), nothing else. */
export function errorJson(error: Error): IDataObject {
	const { description } = error as NodeOperationError;
	return { error: error.message, ...(description ? { errorDescription: description } : {}) };
}

export function errorItem(error: Error, itemIndex: number, extra: IDataObject = {}): INodeExecutionData {
	return { json: { ...extra, ...errorJson(error) }, pairedItem: { item: itemIndex } };
}
