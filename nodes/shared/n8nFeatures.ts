import type {
	ChunkType,
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INode,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * What the package uses of n8n that not every supported n8n has, detected on the
 * context and helpers n8n hands the node, never from a version number (n8n gives
 * none). Without a feature: Stop ends waits at their deadline, chat streaming gives
 * the whole text, the binary store is read whole, callback mode waits by polling.
 */

export const OLDEST_N8N = '1.123';

function missingFeature(node: INode, what: string): NodeOperationError {
	return new NodeOperationError(node, `This node needs n8n ${OLDEST_N8N} or newer: this n8n has no ${what}`, {
		description: `Update n8n to ${OLDEST_N8N} or newer (any 2.x release works).`,
	});
}

const REQUIRED_HELPERS = ['httpRequestWithAuthentication', 'httpRequest', 'prepareBinaryData'] as const;

/** Names the n8n version needed instead of failing with a TypeError in the middle of an item. */
export function assertSupportedN8n(ctx: Pick<IExecuteFunctions, 'getNode' | 'helpers'>): void {
	const helpers = ctx.helpers as unknown as Record<string, unknown> | undefined;
	for (const name of REQUIRED_HELPERS) {
		if (typeof helpers?.[name] !== 'function') throw missingFeature(ctx.getNode(), `helpers.${name}`);
	}
}

export function cancelSignalOf(ctx: object): AbortSignal | undefined {
	const get = (ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>).getExecutionCancelSignal;
	return typeof get === 'function' ? get.call(ctx) : undefined;
}

/** n8n runs a `usableAsTool` node as a tool under its type name with `Tool` appended. */
export function runsAsToolType(nodeType: string): boolean {
	return nodeType.endsWith('Tool');
}

interface ChatStreaming {
	isStreaming(): boolean;
	sendChunk(type: ChunkType, itemIndex: number, content?: string): unknown;
}

export function chatStreamingOf(ctx: object): ChatStreaming | undefined {
	const { isStreaming, sendChunk } = ctx as Partial<Record<keyof ChatStreaming, unknown>>;
	if (typeof isStreaming !== 'function' || typeof sendChunk !== 'function') return undefined;
	return {
		isStreaming: () => Boolean(isStreaming.call(ctx)),
		sendChunk: (type, itemIndex, content) => sendChunk.call(ctx, type, itemIndex, content),
	};
}

type BinaryHelpers = IExecuteFunctions['helpers'];

interface BinaryStoreReader {
	stream: BinaryHelpers['getBinaryStream'];
	metadata?: BinaryHelpers['getBinaryMetadata'];
}

export function binaryStoreReaderOf(helpers: Partial<BinaryHelpers>): BinaryStoreReader | undefined {
	const { getBinaryStream, getBinaryMetadata } = helpers;
	if (typeof getBinaryStream !== 'function') return undefined;
	return {
		stream: getBinaryStream,
		metadata: typeof getBinaryMetadata === 'function' ? getBinaryMetadata : undefined,
	};
}

function base64Bytes(data: string): number {
	const text = data.replace(/\s/g, '');
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	return Math.floor((text.length * 3) / 4) - padding;
}

/**
 * Recent n8n counts a file's bytes on the binary; older ones give only a text
 * ("64.6 kB"), so the store's record or the item's Base64 data is counted instead.
 */
export async function binaryByteSize(
	helpers: Partial<BinaryHelpers>,
	file: IBinaryData,
): Promise<number | undefined> {
	if (typeof file.bytes === 'number') return file.bytes;
	const { getBinaryMetadata } = helpers;
	if (file.id && typeof getBinaryMetadata === 'function') {
		try {
			const recorded = (await getBinaryMetadata(file.id)).fileSize as unknown;
			if (typeof recorded === 'number') return recorded;
		} catch {
			// No record of the file: no count.
		}
	}
	if (!file.id && typeof file.data === 'string' && file.data) return base64Bytes(file.data);
	return undefined;
}

/** Kept with the execution, read again when a waiting execution is resumed. */
interface ExecutionCustomData {
	getAll(): Record<string, string>;
	setAll(entries: Record<string, string>): void;
}

const isCustomData = (value: unknown): value is ExecutionCustomData =>
	typeof value === 'object' &&
	value !== null &&
	typeof (value as IDataObject).getAll === 'function' &&
	typeof (value as IDataObject).setAll === 'function';

type ExecutionKeys = { $execution?: { customData?: unknown } } | undefined;

/**
 * Where each n8n keeps the execution's custom data, newest first: the context; the
 * data proxy's `$execution` (a run); the expression keys (a webhook has no proxy);
 * an expression (the legacy engine returns the object, the sandboxed one strips it).
 */
const CUSTOM_DATA_SOURCES: Array<(ctx: Record<string, unknown>) => unknown> = [
	(ctx) => ctx.customData,
	(ctx) =>
		typeof ctx.getWorkflowDataProxy === 'function'
			? (ctx.getWorkflowDataProxy(0) as ExecutionKeys)?.$execution?.customData
			: undefined,
	(ctx) => (ctx.additionalKeys as ExecutionKeys)?.$execution?.customData,
	(ctx) =>
		typeof ctx.evaluateExpression === 'function'
			? ctx.evaluateExpression('{{ $execution.customData }}', 0)
			: undefined,
];

export function executionCustomDataOf(
	ctx: IExecuteFunctions | IWebhookFunctions,
): ExecutionCustomData | undefined {
	for (const source of CUSTOM_DATA_SOURCES) {
		let found: unknown;
		try {
			found = source(ctx as unknown as Record<string, unknown>);
		} catch {
			// Recent n8n throws when the context has no execution data.
			continue;
		}
		if (isCustomData(found)) return found;
	}
	return undefined;
}

export const NO_CUSTOM_DATA = `this n8n keeps no custom data for a waiting execution (n8n ${OLDEST_N8N} and every 2.x do)`;
