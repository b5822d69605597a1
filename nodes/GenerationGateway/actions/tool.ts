import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { runsAsToolType } from '../../shared/n8nFeatures';

/**
 * The node as an AI Agent tool. n8n runs a `usableAsTool` node as a tool
 * under its type name + `Tool` and hands the agent only the JSON of the
 * output items. So, as a tool, each item's JSON lists its files (binary
 * property, file name, MIME type, size) instead of carrying them, and a
 * refusal or gateway error becomes a readable `{error, errorDescription}`
 * item, never a crash of the agent's run.
 */

/** Whether this run is a tool call of an AI Agent. */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	return runsAsToolType(ctx.getNode().type);
}

/** What an agent can read of an item: its JSON, plus `files` describing its binaries (no Base64). */
export function toolItem(item: INodeExecutionData): INodeExecutionData {
	const { binary, ...rest } = item;
	if (!binary || !Object.keys(binary).length) return rest;
	const files: IDataObject[] = Object.entries(binary).map(([property, file]) => ({
		binaryProperty: property,
		fileName: file.fileName,
		mimeType: file.mimeType,
		fileSize: file.bytes ?? file.fileSize,
	}));
	return { ...rest, json: { ...item.json, files } };
}
