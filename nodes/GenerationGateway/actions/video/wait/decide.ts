import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { NO_CUSTOM_DATA, executionCustomDataOf } from '../../../../shared/n8nFeatures';
import { addHints, noCustomDataHint, pollingFallbackHint } from '../../hints';
import type { RunInfo } from '../../types';

/** Auto waits by callback for at most this many tasks: each callback makes n8n load the whole waiting execution. */
export const AUTO_CALLBACK_MAX_TASKS = 5;

/** How a run of Create and Wait waits, decided once before the first create and kept with the wait. */
export type WaitPlan =
	| { mode: 'callback'; resumeUrl: string; reason: string; fallback?: undefined }
	| { mode: 'polling'; reason: string; fallback?: string };

/**
 * The way of waiting, from the Wait Mode setting and what n8n offers: a
 * callback needs an https resume URL (the gateway calls only https) and the
 * execution's custom data (where the task list waits). Auto also needs a
 * batch small enough for n8n to take its callbacks together; an explicit
 * Callback is kept whatever the size. A tool call cannot put its execution
 * to wait, so it polls.
 */
export function decideWaitMode(
	setting: unknown,
	resumeUrl: unknown,
	keepsCustomData = true,
	tasks = 1,
	asTool = false,
): WaitPlan {
	const wanted = setting === 'callback' || setting === 'polling' ? setting : 'auto';
	if (wanted === 'polling') return { mode: 'polling', reason: 'Wait Mode is Polling' };
	if (asTool)
		return { mode: 'polling', reason: 'a tool call of an AI agent cannot put the execution to wait' };
	if (!keepsCustomData) return { mode: 'polling', reason: NO_CUSTOM_DATA, fallback: NO_CUSTOM_DATA };
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
	const reason =
		wanted === 'callback'
			? 'Wait Mode is Callback'
			: `Auto waits by callback for up to ${AUTO_CALLBACK_MAX_TASKS} tasks (this batch has ${tasks}) when n8n's resume URL is https: no worker is held and the wait survives an n8n restart`;
	return { mode: 'callback', resumeUrl, reason };
}

/** The resume URL as a message shows it: without its query (the signature that lets anyone resume). */
export function shownResumeUrl(resumeUrl: unknown): string {
	return typeof resumeUrl === 'string' && resumeUrl ? resumeUrl.replace(/\?.*$/, '') : 'none';
}

/** The router's once-per-run decision for Create and Wait; a fallback from a callback asked for is shown as a hint. */
export function planWait(ctx: IExecuteFunctions, run: RunInfo): WaitPlan {
	const options = ctx.getNodeParameter('waitOptions', 0, {}) as IDataObject;
	const resumeUrl = ctx.evaluateExpression('{{ $execution.resumeUrl }}', 0);
	const keepsCustomData = executionCustomDataOf(ctx) !== undefined;
	// Every input item makes a task unless it is refused: the batch's size as Auto weighs it.
	const plan = decideWaitMode(
		options.mode,
		resumeUrl,
		keepsCustomData,
		ctx.getInputData().length,
		run.asTool,
	);
	if (plan.mode === 'polling' && plan.fallback) {
		addHints(ctx, keepsCustomData ? pollingFallbackHint(shownResumeUrl(resumeUrl)) : noCustomDataHint());
	}
	return plan;
}
