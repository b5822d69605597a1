import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { NO_CUSTOM_DATA, executionCustomDataOf } from '../../../../shared/n8nFeatures';
import { printableUrl } from '../../../../shared/urls';
import { addHints, customDataFullHint, noCustomDataHint, pollingFallbackHint } from '../../hints';
import type { RunInfo } from '../../types';
import { AUTO_CALLBACK_MAX_TASKS } from '../options';
import { waitAddress } from './callback/answer';
import type { CallbackState } from './callback/taskList';
import { encodeState, encodeStoredState, fittingItems, slotsFit, stateKeyPrefix } from './callback/taskList';

/**
 * Where a callback wait keeps its task list: in the execution's custom data,
 * as a file in n8n's binary data store (custom data then holds its id), or
 * nowhere (`full`: no room in custom data and no store; `none`: this n8n
 * keeps no custom data), found out before any create.
 */
export type TaskListRoom = 'customData' | 'file' | 'full' | 'none';

/** How a run of Create and Wait waits, decided once before the first create and kept with the wait. */
export type WaitPlan =
	| { mode: 'callback'; callbackUrl: string; reason: string; fallback?: undefined }
	| { mode: 'polling'; reason: string; fallback?: string };

/** What the way of waiting is decided from. */
export interface WaitSituation {
	/** The Wait Mode setting. */
	setting: unknown;
	resumeUrl: unknown;
	/** The batch's size (every input item makes a task unless it is refused). */
	tasks: number;
	room: TaskListRoom;
	asTool?: boolean;
}

/**
 * The way of waiting, from the Wait Mode setting and what n8n offers: a
 * callback needs an https resume URL (the gateway calls only https) and the
 * execution's custom data (where the task list waits). Auto also needs a
 * batch small enough for n8n to take its callbacks together; an explicit
 * Callback is kept whatever the size. A tool call cannot put its execution
 * to wait, so it polls.
 */
export function decideWaitMode({ setting, resumeUrl, tasks, room, asTool = false }: WaitSituation): WaitPlan {
	const wanted = setting === 'callback' || setting === 'polling' ? setting : 'auto';
	if (wanted === 'polling') return { mode: 'polling', reason: 'Wait Mode is Polling' };
	if (asTool)
		return { mode: 'polling', reason: 'a tool call of an AI agent cannot put the execution to wait' };
	if (room === 'none') return { mode: 'polling', reason: NO_CUSTOM_DATA, fallback: NO_CUSTOM_DATA };
	if (typeof resumeUrl !== 'string' || !/^https:\/\//i.test(resumeUrl)) {
		const fallback = `n8n's resume URL is not https (${shownResumeUrl(resumeUrl)}); the gateway calls only https addresses. Set N8N_WEBHOOK_URL (older n8n such as 2.0 and 1.123: WEBHOOK_URL) to n8n's public https address to wait by callback.`;
		return { mode: 'polling', reason: fallback, fallback };
	}
	if (wanted === 'auto' && tasks > AUTO_CALLBACK_MAX_TASKS) {
		return {
			mode: 'polling',
			reason: `Auto polls batches of more than ${AUTO_CALLBACK_MAX_TASKS} tasks (this one has ${tasks}): each callback makes n8n load the whole waiting execution, and a batch's callbacks arriving together would hold n8n's editor and API for seconds; set Wait Mode to Callback to wait by callback anyway`,
		};
	}
	if (room === 'full') {
		const fallback = `the task list of ${tasks} items fits neither in the execution's custom data (n8n keeps at most 10 entries of 512 characters) nor in n8n's binary data store`;
		return { mode: 'polling', reason: fallback, fallback };
	}
	const reason =
		wanted === 'callback'
			? 'Wait Mode is Callback'
			: `Auto waits by callback for up to ${AUTO_CALLBACK_MAX_TASKS} tasks (this batch has ${tasks}) when n8n's resume URL is https: no worker is held and the wait survives an n8n restart`;
	return { mode: 'callback', callbackUrl: waitAddress(resumeUrl), reason };
}

/** The resume URL as a message shows it: without its query (the signature that lets anyone resume). */
export function shownResumeUrl(resumeUrl: unknown): string {
	return typeof resumeUrl === 'string' && resumeUrl ? printableUrl(resumeUrl) : 'none';
}

/** The longest task id the task list is sized for before the creates (the gateway's ids are shorter). */
const ID_CHARS_PLANNED = 64;

/** A task list as large as the run's could be: every id of the planned length, a 13-digit start. */
function plannedState(tasks: number, reason: string): CallbackState {
	const slots = Array.from({ length: tasks }, () => 'x'.repeat(ID_CHARS_PLANNED));
	return { startedAt: 1e12, reason, download: true, slots };
}

/**
 * Where `tasks` task ids would be kept, found out before any create: in the
 * custom data's free entries when ids of the planned length fit there; else
 * in the binary data store, if a probe write there gives back an id.
 */
async function findRoom(ctx: IExecuteFunctions, tasks: number, reason: string): Promise<TaskListRoom> {
	const customData = executionCustomDataOf(ctx);
	if (!customData) return 'none';
	const prefix = stateKeyPrefix(ctx.getNode().id);
	const planned = plannedState(tasks, reason);
	const existing = customData.getAll();
	if (slotsFit(encodeState(prefix, planned), existing)) return 'customData';
	if (!slotsFit(encodeStoredState(prefix, 'file'), existing)) return 'full';
	const probe = await ctx.helpers
		.prepareBinaryData(Buffer.from('{}'), 'video-tasks.json', 'application/json')
		.catch(() => undefined);
	return probe?.id ? 'file' : 'full';
}

/**
 * The router's once-per-run decision for Create and Wait, made before any
 * create: the way of waiting, and for a callback wait where its task list
 * will be kept. A fallback from a callback asked for is shown as a hint.
 */
export async function planWait(ctx: IExecuteFunctions, run: RunInfo): Promise<WaitPlan> {
	const options = ctx.getNodeParameter('waitOptions', 0, {}) as IDataObject;
	const situation = {
		setting: options.mode,
		resumeUrl: ctx.evaluateExpression('{{ $execution.resumeUrl }}', 0),
		tasks: ctx.getInputData().length,
		asTool: run.asTool,
	};
	// Where the list would be kept is looked for only for a callback wait (a probe write may be made).
	let plan = decideWaitMode({ ...situation, room: executionCustomDataOf(ctx) ? 'customData' : 'none' });
	if (plan.mode === 'callback')
		plan = decideWaitMode({ ...situation, room: await findRoom(ctx, situation.tasks, plan.reason) });
	if (plan.mode === 'polling' && plan.fallback)
		addHints(ctx, fallbackHint(ctx, situation.tasks, plan.fallback, situation.resumeUrl));
	return plan;
}

function fallbackHint(ctx: IExecuteFunctions, tasks: number, fallback: string, resumeUrl: unknown) {
	if (fallback === NO_CUSTOM_DATA) return noCustomDataHint();
	const customData = executionCustomDataOf(ctx);
	if (!customData || !fallback.startsWith('the task list'))
		return pollingFallbackHint(shownResumeUrl(resumeUrl));
	const fitting = fittingItems(
		stateKeyPrefix(ctx.getNode().id),
		plannedState(tasks, ''),
		customData.getAll(),
	);
	return customDataFullHint(tasks, Math.min(fitting, tasks - 1));
}
