/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Bench P16 (p16.ts): a row's executions as n8n's REST API lists them, and the bench's patient waits. */
import { http } from '../src/http';
import type { N8n } from '../src/n8n';
import { sleep } from '../src/proc';

export async function waitUntil(
	what: string,
	done: () => Promise<boolean> | boolean,
	timeoutMs: number,
): Promise<boolean> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		if (await done()) return true;
		await sleep(500);
	}
	process.stderr.write(`P16: gave up waiting for ${what}\n`);
	return false;
}

export async function waitingCount(n8n: N8n, workflowId: string): Promise<number> {
	return await countOf(n8n, workflowId, 'waiting');
}

async function countOf(n8n: N8n, workflowId: string, status: string): Promise<number> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId, status: [status] }));
	const answer = await http(`${n8n.url}/rest/executions?filter=${filter}&limit=1`, {
		headers: { cookie: n8n.cookie },
	});
	return answer.status === 200 ? Number(answer.json<{ data: { count: number } }>().data.count) : 0;
}

/**
 * The row's executions that did not end in success, by status, with what n8n keeps of each: its Wait
 * Timeout and the node it stopped at (where a lost video went, and whether a post could still resume it).
 * The first 100 (n8n's most per page).
 */
export async function notSucceeded(n8n: N8n, workflowId: string): Promise<string[]> {
	// A run that reached Report is saved a moment later: the list waits for the running ones to end.
	await waitUntil(
		"the row's executions saved",
		async () => (await countOf(n8n, workflowId, 'running')) === 0,
		60_000,
	);
	const filter = encodeURIComponent(
		JSON.stringify({ workflowId, status: ['error', 'crashed', 'waiting', 'running', 'new', 'canceled'] }),
	);
	const answer = await http(`${n8n.url}/rest/executions?filter=${filter}&limit=100`, {
		headers: { cookie: n8n.cookie },
	}).catch(() => undefined);
	if (answer?.status !== 200) return [`the list answered ${answer?.status ?? 'nothing'}`];
	const rows = answer.json<{
		data: { results: Array<{ id: string; status: string; waitTill?: string | null }> };
	}>().data.results;
	return await Promise.all(
		rows.map(async (row) => {
			const record = await n8n.execution(row.id).catch(() => undefined);
			const last = record?.data.resultData.lastNodeExecuted ?? '?';
			return `${row.id} ${row.status} waitTill=${row.waitTill ?? 'none'} last=${last}`;
		}),
	);
}
