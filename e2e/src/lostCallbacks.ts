/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Final callbacks that never get through n8n, in a real n8n: the gateway's final callback of a task
 * goes nowhere (lost) or to a stand-in that answers 503 as a busy n8n or its proxy does (refused),
 * once each, never again. Create and Wait by callback still resumes once with the video, and a task
 * that Video → Create made with the trigger's address still starts the trigger's workflow once: the
 * n8n process that sent the address reads the task and posts the news itself (about 45 s after the
 * task ends: its reads are 30 s apart, then the gateway's own callback has 15 s).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { SimTask } from '../../test/simulator/video/tasks';
import { videoTasks } from '../../test/simulator/video/tasks';
import { http } from './http';
import type { ExecutionRecord } from './executions';
import { outputOf, webhookAnswer } from './n8n';
import { sleep, waitFor } from './proc';
import type { Context, Workflow } from './workflows';
import {
	CREATE_AND_WAIT,
	TRIGGER_TYPE,
	callbackWaitOf,
	createVideoNode,
	withCredentials,
	startNode,
} from './workflows';

const FINAL = ['completed', 'failed', 'cancelled', 'expired'];
const NOWHERE = 'https://127.0.0.1:1/lost';
/** Time for the package's own news: the task's end, 30 s reads, the 15 s head start, n8n's resume. */
const NEWS_WITHIN_MS = 150_000;

/** An http stand-in that answers every request 503 "Database is not ready!". */
async function startRefuser(): Promise<{ url: string; hits: () => number; stop: () => Promise<void> }> {
	let hits = 0;
	const server: Server = createServer((req, res) => {
		hits++;
		req.resume();
		req.on('end', () => {
			res.writeHead(503, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ code: 503, message: 'Database is not ready!' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/refused`,
		hits: () => hits,
		stop: async () =>
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/** Trigger (Confirm on) → No Operation, active on its production URL. */
function triggerWorkflow(ids: Record<string, string>, secret: string, webhookId: string): Workflow {
	return withCredentials(
		{
			name: 'Lost callbacks: trigger',
			nodes: [
				{
					name: 'Video Finished',
					type: TRIGGER_TYPE,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { secret, confirm: true },
					credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
				},
				{ name: 'Next', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 0], parameters: {} },
			],
			connections: { 'Video Finished': { main: [[{ node: 'Next', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}

/** Manual trigger → Video → Create with `callbackUrl`. */
function createWorkflow(ids: Record<string, string>, prompt: string, callbackUrl: string): Workflow {
	return withCredentials(
		{
			name: 'Lost callbacks: create',
			nodes: [startNode(), createVideoNode(prompt, callbackUrl)],
			connections: { Start: { main: [[{ node: 'Create Video', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}

export async function runLostCallbacks(ctx: Context): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const tasks = videoTasks(sim);
	const refuser = await startRefuser();
	const marker = `lost-${Date.now()}`;
	const before = tasks.routeCallback;
	const savedSecond = tasks.secondCallbacks;
	// Only this part's final callbacks are diverted; the others go where they went.
	tasks.routeCallback = (url: string, task: SimTask) => {
		if (task.prompt.includes(marker) && FINAL.includes(String(task.notified))) {
			return task.prompt.includes('[refused]') ? refuser.url : NOWHERE;
		}
		return before ? before(url, task) : url;
	};
	tasks.secondCallbacks = { kind: 'off' };
	try {
		const waits = ['lost', 'refused'].map(async (kind) => {
			const name = `lost-callbacks: Create and Wait, final callback ${kind}`;
			const prompt = `${marker} wait [${kind}] [after:2500]`;
			const workflow = callbackWaitOf(ctx.credentials, `Lost callbacks: wait (${kind})`, [prompt], 5);
			const created = await n8n.createWorkflow(workflow);
			const executionId = await n8n.runManually(created.id, 'Start');
			const record = await n8n.waitExecution(executionId, NEWS_WITHIN_MS);
			checkWaitResumed(ctx, name, record, prompt);
			checks.equal(`${name}: one execution only`, (await n8n.executions(created.id)).length, 1);
		});

		const trigger = (async () => {
			const name = 'lost-callbacks: trigger, task created by Video → Create, final callback lost';
			const secret = `secret-${marker}`;
			const webhookId = `lost-${marker}`;
			const workflow = triggerWorkflow(ctx.credentials, secret, webhookId);
			const created = await n8n.createWorkflow(workflow);
			await n8n.activate(created.id, created.versionId);
			const callbackUrl = `${n8n.url}/webhook/${webhookId}/video-task?secret=${encodeURIComponent(secret)}`;
			const prompt = `${marker} trigger [after:2500]`;
			const creator = await n8n.createWorkflow(createWorkflow(ctx.credentials, prompt, callbackUrl));
			const productionUrl = callbackUrl.replace(/\?.*$/, '');
			await webhookAnswer('the production webhook to be registered', () =>
				http(productionUrl, {
					method: 'POST',
					body: { id: 'video_x', status: 'completed' },
				}),
			);
			const run = await n8n.waitExecution(await n8n.runManually(creator.id, 'Start'), 60_000);
			const taskId = String(outputOf(run, 'Create Video')[0]?.json.id);
			const started = await waitFor(
				'the trigger workflow to start',
				async () => {
					const found = await n8n.executions(created.id);
					return found.length > 0 && found.every((e) => !['running', 'new'].includes(e.status))
						? found
						: undefined;
				},
				NEWS_WITHIN_MS,
				1_000,
			);
			const finals = tasks.deliveries.filter((d) => d.id === taskId && FINAL.includes(d.status));
			checks.ok(
				`${name}: the gateway's only final callback did not arrive`,
				finals.length === 1 && finals[0].httpStatus === undefined,
				finals,
			);
			// A second start would come right after the first: the package posts nothing more.
			await sleep(20_000);
			const all = await n8n.executions(created.id);
			checks.equal(`${name}: the trigger's workflow started once`, all.length, 1);
			const record = await n8n.waitExecution(started[0].id, 60_000);
			checks.equal(
				`${name}: with the gateway's record of the task`,
				outputOf(record, 'Video Finished')[0]?.json.id,
				taskId,
			);
			checks.equal(
				`${name}: status completed`,
				outputOf(record, 'Video Finished')[0]?.json.status,
				'completed',
			);
		})();

		const outcomes = await Promise.allSettled([...waits, trigger]);
		for (const outcome of outcomes)
			if (outcome.status === 'rejected') checks.broke('lost-callbacks', outcome.reason);
		checks.ok(
			"lost-callbacks: the refusing stand-in was called (the gateway's final callback)",
			refuser.hits() >= 1,
			refuser.hits(),
		);
	} finally {
		tasks.routeCallback = before;
		tasks.secondCallbacks = savedSecond;
		await refuser.stop();
	}
}

function checkWaitResumed(ctx: Context, name: string, record: ExecutionRecord, prompt: string): void {
	const { checks, sim } = ctx;
	checks.equal(`${name}: the execution went on`, record.status, 'success');
	const [item] = outputOf(record, CREATE_AND_WAIT);
	checks.equal(`${name}: its item is the task's completed record`, item?.json.status, 'completed');
	checks.equal(`${name}: for the prompt it was created for`, item?.json.prompt, prompt);
	checks.ok(`${name}: with its video`, Boolean(item?.binary?.data), Object.keys(item?.binary ?? {}));
	const taskId = String(item?.json.id);
	const finals = videoTasks(sim).deliveries.filter((d) => d.id === taskId && FINAL.includes(d.status));
	checks.ok(
		`${name}: the gateway's only final callback did not get through`,
		finals.length === 1 && (finals[0].httpStatus === undefined || finals[0].httpStatus === 503),
		finals,
	);
}
