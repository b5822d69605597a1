import type { IDataObject } from 'n8n-workflow';

import { NO_CUSTOM_DATA } from '../../../../shared/n8nFeatures';
import { isTerminalStatus } from '../../../../shared/videoTask';

/**
 * Pure decisions of Create and Wait's callback mode (unit-tested without n8n):
 * which mode runs, how the task list survives the wait, when the wait is over.
 *
 * Why the execution's custom data holds the task list: when a callback
 * arrives, n8n's waiting-webhook handler has already dropped the waiting
 * node's own output (it pops the node's last run before calling `webhook()`),
 * and static data is read from the workflow snapshot taken when the execution
 * started. The custom data (`resultData.metadata`) is saved with the waiting
 * execution and readable from `webhook()`. n8n keeps at most 10 entries of
 * at most 512 characters per execution, so the list is split over a few
 * entries. A longer list (a batch of hundreds of tasks) is kept as a file in
 * n8n's binary data store, which belongs to the execution as well and is
 * shared by every n8n process (filesystem in regular mode, database or S3 in
 * queue mode); the custom data then holds only the file's id. Only where
 * neither holds it does the node wait by polling instead.
 */

export type WaitModeSetting = 'auto' | 'callback' | 'polling';

export interface WaitModeDecision {
	mode: 'callback' | 'polling';
	/** Why this mode runs (the output's `waitInfo.reason`). */
	reason: string;
	/** Why callback mode was not used although it was possible to ask for it (auto or callback). */
	fallback?: string;
}

/**
 * Auto waits by callback for at most this many tasks, by polling beyond.
 * Every request to a waiting execution's resume URL makes n8n load that
 * whole execution from its database before the node runs, and the gateway
 * calls on every status change of every task; the waiting execution grows
 * with the batch, so a batch's callbacks cost n8n about the square of its
 * size. Polling costs two or three reads per task and one execution kept
 * running. Measured in a real n8n 2.41 on its default SQLite (docs: "Which
 * way Auto waits"): 5 tasks ending together kept n8n's API within 2 s, 10
 * held it for 3.7 s, 30 for 6 to 12 s, 300 for a minute, while polling the
 * same batches kept it under 2 s and brought every video within 30 s.
 */
export const AUTO_CALLBACK_MAX_TASKS = 5;

/**
 * Callback mode needs an https resume URL (the gateway calls only https
 * addresses) and the execution's custom data, where the task list waits.
 * Auto also needs a batch small enough for n8n to take its callbacks
 * (`AUTO_CALLBACK_MAX_TASKS`); an explicit Callback is kept whatever the size.
 */
export function decideWaitMode(
	setting: unknown,
	resumeUrl: unknown,
	keepsCustomData = true,
	tasks = 1,
): WaitModeDecision {
	const wanted = setting === 'callback' || setting === 'polling' ? setting : 'auto';
	if (wanted === 'polling') return { mode: 'polling', reason: 'Wait Mode is Polling' };
	if (!keepsCustomData) return { mode: 'polling', reason: NO_CUSTOM_DATA, fallback: NO_CUSTOM_DATA };
	if (typeof resumeUrl !== 'string' || !/^https:\/\//i.test(resumeUrl)) {
		const fallback = `n8n's resume URL is not https (${shownResumeUrl(resumeUrl)}); the gateway calls only https addresses. Set WEBHOOK_URL to n8n's public https address to wait by callback.`;
		return { mode: 'polling', reason: fallback, fallback };
	}
	if (wanted === 'auto' && tasks > AUTO_CALLBACK_MAX_TASKS) {
		return {
			mode: 'polling',
			reason: `Auto polls batches of more than ${AUTO_CALLBACK_MAX_TASKS} tasks (this one has ${tasks}): each callback makes n8n load the whole waiting execution, and a batch's callbacks arriving together would hold n8n's editor and API for seconds; set Wait Mode to Callback to wait by callback anyway`,
		};
	}
	return { mode: 'callback', reason: callbackReason(wanted, tasks) };
}

/** Why a wait runs by callback, as `waitInfo.reason` says it (also on the resume, from the same setting). */
export function callbackReason(setting: unknown, tasks: number): string {
	return setting === 'callback'
		? 'Wait Mode is Callback'
		: `Auto waits by callback for up to ${AUTO_CALLBACK_MAX_TASKS} tasks (this batch has ${tasks}) when n8n's resume URL is https: no worker is held and the wait survives an n8n restart`;
}

/** The resume URL as a message shows it: without its query (the signature that lets anyone resume). */
export function shownResumeUrl(resumeUrl: unknown): string {
	return typeof resumeUrl === 'string' && resumeUrl ? resumeUrl.replace(/\?.*$/, '') : 'none';
}

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

/** What survives the wait: when it began, the download option, one slot per input item. */
export interface CallbackState {
	startedAt: number;
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
	return JSON.stringify({ t: state.startedAt, d: state.download ? 1 : 0, s: slots });
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
		const raw = JSON.parse(text) as { t?: unknown; d?: unknown; s?: unknown };
		if (typeof raw.t !== 'number' || !Array.isArray(raw.s)) return undefined;
		return { startedAt: raw.t, download: raw.d === 1, slots: raw.s as TaskSlot[] };
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

/** The first task still running, given the records read so far (in item order). */
export function firstUnfinished(records: Array<IDataObject | undefined>): number {
	return records.findIndex((record) => !record || !isTerminalStatus(record.status));
}
