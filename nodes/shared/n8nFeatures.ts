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
 * What the package uses of n8n that not every n8n it supports has, in one
 * place: per feature, which n8n has it and what the node does without it.
 *
 * Features are detected on what n8n hands the node (its context and helpers),
 * never from a version number: n8n gives a node none, and a feature may be
 * back-ported. The versions below say where each one was checked.
 *
 * | feature                          | where                                   | without it                          |
 * |----------------------------------|-----------------------------------------|-------------------------------------|
 * | requests, binary files, hints    | every supported n8n (1.123 and newer)   | the node fails, naming n8n 1.123    |
 * | Stop ends waits and downloads    | every supported n8n                     | waits end at their deadline         |
 * | tool mode (AI Agent)             | every supported n8n                     | —                                   |
 * | streaming into n8n's chat        | every supported n8n                     | the whole text at once              |
 * | files read from the binary store | every supported n8n                     | the file is read whole              |
 * | execution custom data: context   | recent n8n 2.x (`ctx.customData`)       | `$execution.customData` (below)     |
 * | execution custom data: $execution| n8n 1.123 and 2.0 and newer             | callback mode waits by polling      |
 * | resume URL with a resume token   | recent n8n 2.x                          | the bare URL (older n8n signs none) |
 *
 * The form's display conditions are plain values and `startsWith`, which
 * every supported n8n evaluates alike (see `scopeModelConditions` in
 * catalog.ts for the one difference older n8n has).
 */

/** The oldest n8n this package is proven on (its end-to-end suite runs it). */
export const OLDEST_N8N = '1.123';

function missingFeature(node: INode, what: string): NodeOperationError {
	return new NodeOperationError(node, `This node needs n8n ${OLDEST_N8N} or newer: this n8n has no ${what}`, {
		description: `Update n8n to ${OLDEST_N8N} or newer (any 2.x release works).`,
	});
}

/** The helpers every operation uses; each is in every supported n8n. */
const REQUIRED_HELPERS = ['httpRequestWithAuthentication', 'httpRequest', 'prepareBinaryData'] as const;

/**
 * Fails with an error naming the n8n version the node needs when the n8n it
 * runs on lacks what every operation uses, instead of a TypeError in the
 * middle of an item.
 */
export function assertSupportedN8n(ctx: Pick<IExecuteFunctions, 'getNode' | 'helpers'>): void {
	const helpers = ctx.helpers as unknown as Record<string, unknown> | undefined;
	for (const name of REQUIRED_HELPERS) {
		if (typeof helpers?.[name] !== 'function') throw missingFeature(ctx.getNode(), `helpers.${name}`);
	}
}

/** The execution's cancel signal (the user pressed Stop); undefined on an n8n without one. */
export function cancelSignalOf(ctx: object): AbortSignal | undefined {
	const get = (ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>).getExecutionCancelSignal;
	return typeof get === 'function' ? get.call(ctx) : undefined;
}

/**
 * Whether the node runs as an AI Agent's tool. n8n runs a `usableAsTool` node
 * as a tool under its own type name with `Tool` appended
 * (`…generationGatewayTool`); newer n8n-workflow exports `isToolType` for the
 * same test, older ones do not, and the node's own type needs no more.
 */
export function runsAsToolType(nodeType: string): boolean {
	return nodeType.endsWith('Tool');
}

/** n8n's chat streaming, where the execution context has it. */
export interface ChatStreaming {
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

/** A file of n8n's binary store read a chunk at a time, and its recorded size, where n8n has them. */
export interface BinaryStoreReader {
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

/** How many bytes Base64 text decodes to. */
function base64Bytes(data: string): number {
	const text = data.replace(/\s/g, '');
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	return Math.floor((text.length * 3) / 4) - padding;
}

/**
 * A stored file's size in bytes. Recent n8n (2.x, about 2.10 on) counts it on
 * the binary (`bytes`); n8n 1.x and 2.0 give only a text (`fileSize`, e.g.
 * "64.6 kB"): there the binary store's record of the file has the count
 * (`getBinaryMetadata`), and a file kept in the item itself (no id) is its
 * Base64 data. Undefined when none of them says.
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

/** The execution's custom data: kept with the execution, read again when a waiting execution is resumed. */
export interface ExecutionCustomData {
	getAll(): Record<string, string>;
	setAll(entries: Record<string, string>): void;
}

const isCustomData = (value: unknown): value is ExecutionCustomData =>
	typeof value === 'object' &&
	value !== null &&
	typeof (value as IDataObject).getAll === 'function' &&
	typeof (value as IDataObject).setAll === 'function';

/** What an expression sees as `$execution` (n8n 1.x and early 2.x keep the custom data there). */
type ExecutionKeys = { $execution?: { customData?: unknown } } | undefined;

/**
 * Where each n8n keeps the execution's custom data, newest first:
 * - recent n8n 2.x: on the context, `ctx.customData`;
 * - n8n 1.x and 2.0, a run (execute): `$execution.customData` of the
 *   workflow data proxy, the store the Code node writes to;
 * - n8n 1.x and 2.0, a callback (webhook): the same object, on the keys the
 *   context hands its expressions (that context has no data proxy);
 * - last, an expression: n8n's legacy expression engine returns the object
 *   itself, its sandboxed engine (the default of recent 1.x) strips functions.
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

/**
 * The execution's custom data, wherever this n8n keeps it (above). Undefined
 * when it keeps none: callback mode then waits by polling, and says why.
 */
export function executionCustomDataOf(
	ctx: IExecuteFunctions | IWebhookFunctions,
): ExecutionCustomData | undefined {
	for (const source of CUSTOM_DATA_SOURCES) {
		let found: unknown;
		try {
			found = source(ctx as unknown as Record<string, unknown>);
		} catch {
			// Recent n8n throws when the context has no execution data; an expression may fail: try the next.
			continue;
		}
		if (isCustomData(found)) return found;
	}
	return undefined;
}

/** What the callback wait says when this n8n keeps no custom data for a waiting execution. */
export const NO_CUSTOM_DATA = `this n8n keeps no custom data for a waiting execution (n8n ${OLDEST_N8N} and every 2.x do)`;
