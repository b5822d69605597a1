import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * How an item's failure becomes an error n8n shows for that item, and the
 * item that takes its place under continue-on-fail. One shape for every
 * operation and for the video callback path: the message, and what to do
 * about it (the description, where "may have been charged" advice lives).
 */

/** The error as a node error of item `itemIndex` (a node error keeps its own text). */
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

/** The item that stands for a failed input item under continue-on-fail. */
export function errorItem(error: Error, itemIndex: number, extra: IDataObject = {}): INodeExecutionData {
	return { json: { ...extra, ...errorJson(error) }, pairedItem: { item: itemIndex } };
}
