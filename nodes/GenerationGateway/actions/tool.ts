import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { binaryByteSize, runsAsToolType } from '../../shared/n8nFeatures';

/**
 * The node as an AI Agent tool. n8n runs a `usableAsTool` node as a tool
 * under its type name + `Tool` and hands the agent (or an MCP client, through
 * n8n's MCP Server Trigger) only the JSON of the output items, as text. So, as
 * a tool, each item's JSON lists its files (binary property, file name, MIME
 * type, size, and the gateway's `url` for the file where the gateway gave
 * one) instead of carrying them, says in `filesNote` that the files stay in
 * n8n, and a refusal or gateway error becomes a readable
 * `{error, errorDescription}` item, never a crash of the agent's run.
 */

/** Whether this run is a tool call of an AI Agent. */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	return runsAsToolType(ctx.getNode().type);
}

export const FILES_NOTE_WITH_URL =
	'The files are kept in n8n, not in this result. Where a file has a url, that is the gateway address to open or download it (it may expire).';
export const FILES_NOTE_NO_URL =
	'The files are kept in n8n, not in this result; the gateway gave no address to open them.';

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The gateway's address of the file in `property`, where its answer gave one:
 * an entry of `data` naming the property (images returned as URLs), or a
 * video task's `data.url` for the video downloaded into `data`.
 */
function gatewayUrl(json: IDataObject, property: string): string | undefined {
	const data = json.data;
	const url = Array.isArray(data)
		? data.find((entry) => isObject(entry) && entry.binaryProperty === property)
		: property === 'data' && isObject(data)
			? data
			: undefined;
	const value = isObject(url) ? url.url : undefined;
	return typeof value === 'string' && /^https?:\/\//.test(value) ? value : undefined;
}

/**
 * What an agent can read of an item: its JSON, plus `files` describing its
 * binaries (no Base64). `sizes`: each binary property's size in bytes
 * (`fileSize`), left out where unknown.
 */
export function toolItem(
	item: INodeExecutionData,
	sizes: Record<string, number | undefined> = {},
): INodeExecutionData {
	const { binary, ...rest } = item;
	if (!binary || !Object.keys(binary).length) return rest;
	const files: IDataObject[] = Object.entries(binary).map(([property, file]) => {
		const url = gatewayUrl(item.json, property);
		const bytes = sizes[property] ?? (typeof file.bytes === 'number' ? file.bytes : undefined);
		return {
			binaryProperty: property,
			fileName: file.fileName,
			mimeType: file.mimeType,
			...(bytes === undefined ? {} : { fileSize: bytes }),
			...(url ? { url } : {}),
		};
	});
	const filesNote = files.some((file) => file.url) ? FILES_NOTE_WITH_URL : FILES_NOTE_NO_URL;
	return { ...rest, json: { ...item.json, files, filesNote } };
}

/**
 * The items as an agent reads them (toolItem), each file's size in bytes
 * found however this n8n keeps it (n8n 1.x and 2.0 give only a text such as
 * "64.6 kB" on the binary; see binaryByteSize).
 */
export async function toolItems(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const read: INodeExecutionData[] = [];
	for (const item of items) {
		const sizes: Record<string, number | undefined> = {};
		for (const [property, file] of Object.entries(item.binary ?? {})) {
			sizes[property] = await binaryByteSize(ctx.helpers, file);
		}
		read.push(toolItem(item, sizes));
	}
	return read;
}
