import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { binaryByteSize, runsAsToolType } from '../../shared/n8nFeatures';
import { isObject } from '../../shared/validation';

/**
 * The node as an AI Agent tool: the agent reads only the items' JSON, as text. So
 * each item lists its files (name, type, size, the gateway's `url`) instead of
 * carrying them, and a failure becomes a readable `{error, errorDescription}` item.
 */

export function runsAsTool(ctx: IExecuteFunctions): boolean {
	return runsAsToolType(ctx.getNode().type);
}

export const FILES_NOTE_WITH_URL =
	'The files are kept in n8n, not in this result. Where a file has a url, that is the gateway address to open or download it (it may expire).';
export const FILES_NOTE_NO_URL =
	'The files are kept in n8n, not in this result; the gateway gave no address to open them.';

/** An image's `data` entry naming the property, or a video task's `data.url`. */
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

function toolItem(
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
