import type { IDataObject } from 'n8n-workflow';

import { RECOVERY_SEEN_MS } from '../../../../../shared/waitClocks';

/**
 * Waits left behind (a restart, a killed worker, callbacks lost while n8n was
 * down), found again from n8n's records: a waiting execution keeps the items
 * the node returned as it began to wait, with its tasks and its own address.
 * Video Wait → Recover Waits asks each such wait to check its tasks (a recheck).
 */

/** The body of a recheck: no claim of any task, only a request to read them. */
export const RECHECK_BODY = { recheck: true } as const;

export function isRecheck(body: unknown): boolean {
	return typeof body === 'object' && body !== null && (body as IDataObject).recheck === true;
}

/** One video wait found in a waiting execution. */
export interface LeftWait {
	executionId: string;
	workflowId: string;
	node: string;
	/** The wait's own address as n8n handed it out (its public name). */
	address: string;
	taskIds: string[];
}

/** The parts of an execution of n8n's public API (`includeData=true`) that a recovery reads. */
interface ListedExecution {
	id?: unknown;
	workflowId?: unknown;
	status?: unknown;
	data?: {
		executionData?: { nodeExecutionStack?: Array<{ node?: { name?: unknown } }> };
		resultData?: {
			lastNodeExecuted?: unknown;
			runData?: Record<string, Array<{ data?: { main?: Array<Array<{ json?: IDataObject }> | null> } }>>;
		};
	};
}

/** The video wait an execution waits at, if any: the node's last output items, waiting by callback. */
export function leftWaitOf(execution: unknown): LeftWait | undefined {
	const listed = (execution ?? {}) as ListedExecution;
	const data = listed.data;
	if (!data || (typeof listed.id !== 'string' && typeof listed.id !== 'number')) return undefined;
	const node = data.executionData?.nodeExecutionStack?.[0]?.node?.name ?? data.resultData?.lastNodeExecuted;
	if (typeof node !== 'string') return undefined;
	const runs = data.resultData?.runData?.[node];
	const items = runs?.[runs.length - 1]?.data?.main?.[0] ?? [];
	let address: string | undefined;
	const taskIds: string[] = [];
	for (const item of items) {
		const json = item?.json ?? {};
		const waitInfo = (json.waitInfo ?? {}) as IDataObject;
		if (waitInfo.mode !== 'callback' || waitInfo.state !== 'waiting') continue;
		if (typeof waitInfo.callbackAddress === 'string') address ??= waitInfo.callbackAddress;
		if (typeof json.id === 'string' && json.id && !json.error) taskIds.push(json.id);
	}
	if (!address || !taskIds.length) return undefined;
	return {
		executionId: String(listed.id),
		workflowId: String(listed.workflowId ?? ''),
		node,
		address,
		taskIds,
	};
}

/**
 * The wait's address under n8n's address from inside: its endpoint, execution
 * id, own path and signature, so a set-up whose public name n8n cannot reach recovers too.
 */
export function insideAddress(address: string, n8nBaseUrl: string): string {
	const wait = new URL(address);
	const base = new URL(n8nBaseUrl);
	const tail = wait.pathname.split('/').filter(Boolean).slice(-3).join('/');
	base.pathname = `${base.pathname.replace(/\/+$/, '')}/${tail}`;
	base.search = wait.search;
	base.hash = '';
	return base.toString();
}

/** What one recheck came to, in the words of the recovery's output. */
export type RecheckOutcome = 'resumed' | 'tasks running' | 'being resumed' | 'not waiting' | 'try again';

/** n8n's or the wait's answer to a recheck, as an outcome. */
export function recheckOutcome(status: number, body: unknown): RecheckOutcome {
	const answer = (body ?? {}) as IDataObject;
	if (status === 200 && answer.resumed === true) return 'resumed';
	if (status === 200 && answer.waiting !== undefined) return 'tasks running';
	if (status === 200 && answer.resuming !== undefined) return 'being resumed';
	if (status === 200 && answer.ignored !== undefined) return 'not waiting';
	// n8n: the execution no longer waits at this wait (resumed, finished, gone, or waits at another node).
	if (status === 404 || (status === 409 && /finished/i.test(String(answer.message ?? ''))))
		return 'not waiting';
	return 'try again';
}

/** When this process last ran a recovery pass (0: never): a wait begun here says whether one runs. */
let lastPassAt = 0;

export function notePass(now: number): void {
	lastPassAt = now;
}

export function recoverySeen(now: number): boolean {
	return lastPassAt > 0 && now - lastPassAt < RECOVERY_SEEN_MS;
}
