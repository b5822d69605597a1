import { isTerminalStatus } from '../../../../../shared/videoTask';

/**
 * The task list a callback wait keeps, and what one callback means for it
 * (pure, unit-tested without n8n). The list lives in the execution's custom
 * data: n8n saves it with the waiting execution and hands it to `webhook()`,
 * while the node's own output and static data are not there on a callback.
 * n8n keeps at most 10 entries of 512 characters per execution, so the list
 * is split over a few entries; a longer one is kept as a file in n8n's
 * binary data store (shared by every n8n process) and custom data holds its id.
 */

/**
 * One item's slot: its task id, or why its task was not created
 * (continue-on-fail), with `charged: 1` when its create may have reached the
 * gateway (its item then says again, on resume, to look the task up).
 */
export type TaskSlot = string | { error: string; charged?: 1 };

export const MAX_CUSTOM_DATA_ENTRIES = 10;
/** n8n cuts a custom data value at 512 characters; stay below it. */
const CHUNK_CHARS = 500;
const MAX_ERROR_CHARS = 160;

/** The custom data key prefix for one node (letters, digits and underscores only, short). */
export function stateKeyPrefix(nodeId: string): string {
	return `ggvideo_${nodeId.replace(/[^A-Za-z0-9]/g, '').slice(0, 32)}_`;
}

/** What survives the wait: when it began, why it waits by callback, the download option, one slot per input item. */
export interface CallbackState {
	startedAt: number;
	reason: string;
	download: boolean;
	slots: TaskSlot[];
}

/**
 * The entries that hold the state: `<prefix>0` = `<count>:<first chunk>`,
 * then `<prefix>1`... The count makes leftovers of an earlier, longer run of
 * the same node (a loop) harmless.
 */
export function encodeState(prefix: string, state: CallbackState): Record<string, string> {
	const text = stateText(state);
	const chunks: string[] = [];
	for (let at = 0; at < text.length; at += CHUNK_CHARS) chunks.push(text.slice(at, at + CHUNK_CHARS));
	chunks[0] = `${chunks.length}:${chunks[0]}`;
	return Object.fromEntries(chunks.map((chunk, index) => [`${prefix}${index}`, chunk]));
}

/** The state as the text kept in custom data or in the stored file. */
export function stateText(state: CallbackState): string {
	const slots = state.slots.map((slot) =>
		typeof slot === 'string'
			? slot
			: { error: slot.error.slice(0, MAX_ERROR_CHARS), ...(slot.charged ? { charged: 1 } : {}) },
	);
	return JSON.stringify({ t: state.startedAt, r: state.reason, d: state.download ? 1 : 0, s: slots });
}

/** Marks an entry that holds the id of the stored file with the state, not the state itself. */
const STORED_MARK = 'file:';

/** The one entry that points to the state kept as a file in n8n's binary data store. */
export function encodeStoredState(prefix: string, binaryDataId: string): Record<string, string> {
	return { [`${prefix}0`]: `${STORED_MARK}${binaryDataId}` };
}

/** The id of the stored file with the state, when the custom data points to one. */
export function storedStateId(prefix: string, data: Record<string, string>): string | undefined {
	const entry = data[`${prefix}0`];
	return entry?.startsWith(STORED_MARK) ? entry.slice(STORED_MARK.length) : undefined;
}

/** The state back from the execution's custom data, or undefined if absent, damaged or stored as a file. */
export function decodeState(prefix: string, data: Record<string, string>): CallbackState | undefined {
	const head = /^(\d+):/.exec(data[`${prefix}0`] ?? '');
	if (!head) return undefined;
	let text = data[`${prefix}0`].slice(head[0].length);
	for (let index = 1; index < Number(head[1]); index++) {
		const chunk = data[`${prefix}${index}`];
		if (chunk === undefined) return undefined;
		text += chunk;
	}
	return parseStateText(text);
}

/** The state from its text, or undefined if the text is damaged. */
export function parseStateText(text: string): CallbackState | undefined {
	try {
		const raw = JSON.parse(text) as { t?: unknown; r?: unknown; d?: unknown; s?: unknown };
		if (typeof raw.t !== 'number' || !Array.isArray(raw.s)) return undefined;
		const reason = typeof raw.r === 'string' ? raw.r : 'the wait was started by callback';
		return { startedAt: raw.t, reason, download: raw.d === 1, slots: raw.s as TaskSlot[] };
	} catch {
		return undefined;
	}
}

/** Whether the entries fit next to the custom data the execution already has. */
export function slotsFit(entries: Record<string, string>, existing: Record<string, string>): boolean {
	const keys = new Set([...Object.keys(existing), ...Object.keys(entries)]);
	return keys.size <= MAX_CUSTOM_DATA_ENTRIES;
}

/**
 * The most items of `state` whose task list would fit next to the custom
 * data the execution already has (0 when not even one would): what a run has
 * to be split into to wait by callback.
 */
export function fittingItems(prefix: string, state: CallbackState, existing: Record<string, string>): number {
	for (let count = state.slots.length; count > 0; count--) {
		const part = { ...state, slots: state.slots.slice(0, count) };
		if (slotsFit(encodeState(prefix, part), existing)) return count;
	}
	return 0;
}

export type CallbackVerdict =
	| { action: 'ignore'; reason: string }
	| { action: 'wait'; reason: string }
	| { action: 'read' };

/**
 * What one callback means, before any gateway read: a task of another
 * execution or a non-final status keeps the execution waiting untouched; a
 * final status of one of this execution's tasks asks for the records.
 */
export function judgeCallback(slots: TaskSlot[], id: string, status: string): CallbackVerdict {
	if (!slots.includes(id))
		return { action: 'ignore', reason: `task ${id} is not one of this execution's tasks` };
	if (!isTerminalStatus(status)) return { action: 'wait', reason: `task ${id} is ${status}` };
	return { action: 'read' };
}
