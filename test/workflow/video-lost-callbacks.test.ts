/**
 * A finished task reaches its execution, and the trigger's workflow, even when
 * the gateway's only final callback does not get through n8n (lost on the
 * way, or refused with 503 while n8n is busy): the n8n process that sent the
 * callback address reads the task itself and posts the news (nodes/shared/watch.ts).
 * Over real https against the simulator, on virtual time.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { runWorkflow, until } from '../harness';
import { WaitingWebhookServer, callWebhook } from '../harness/resume';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { startHttpsReceiver } from '../simulator/video/https';
import type { SimTask } from '../simulator/video/tasks';
import { videoTasks } from '../simulator/video/tasks';

import { SECRET, TRIGGER, createWithCallback, triggerWorkflow } from './trigger-workflow';
import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

useVirtualTime();

const FINAL = ['completed', 'failed', 'cancelled', 'expired'];
const isFinal = (status: unknown) => FINAL.includes(String(status));
/** A callback address nothing listens on: the gateway's delivery fails at once and is not tried again. */
const NOWHERE = 'https://127.0.0.1:1/lost';
const LONG = { timeoutMs: 30 * 60_000, everyMs: 1_000 };

let sim: Simulator;
let n8n: WaitingWebhookServer;
beforeAll(async () => {
	sim = await startSimulator();
	n8n = await WaitingWebhookServer.start(sim.credentials());
});
afterAll(async () => {
	await n8n.stop();
	await sim.stop();
});
afterEach(() => {
	const tasks = videoTasks(sim);
	tasks.routeCallback = undefined;
	tasks.secondCallbacks = { kind: 'default' };
	n8n.refuse = undefined;
	n8n.loseResume = undefined;
	n8n.holdOpen = undefined;
});

/** The gateway's final callbacks go nowhere, once: n8n never hears of the final status from the gateway. */
function loseFinalCallbacks(): void {
	const tasks = videoTasks(sim);
	tasks.secondCallbacks = { kind: 'off' };
	tasks.routeCallback = (url: string, task: SimTask) => (isFinal(task.notified) ? NOWHERE : url);
}

const reads = (id: string) => sim.requestsTo(`/v1/videos/${id}`, 'GET').length;
const virtualSleep = async (ms: number) => await sleep(ms);

/** One execution of Create and Wait (callback) with one video, left waiting. */
async function waitForOneVideo(prompt: string, nodeSettings: object = {}, parameters: object = {}) {
	const waiting = await runWorkflow(videoCallbackWorkflow(parameters, nodeSettings), {
		credentials: sim.credentials(),
		input: promptItems([prompt]),
		instanceBaseUrl: n8n.url,
	});
	n8n.track(waiting);
	expect(waiting.status).toBe('waiting');
	const id = String(waiting.output(VIDEO_NODE)[0].json.id);
	const mine = () => n8n.deliveries.filter((d) => d.executionId === waiting.executionId);
	const finalPosts = () => mine().filter((d) => isFinal((d.request as IDataObject | undefined)?.status));
	return { waiting, id, mine, finalPosts };
}

describe('Create and Wait by callback: the final callback does not get through', () => {
	it('lost on the way: the package reads the task every 30 s and resumes the execution once, 15 s after', async () => {
		loseFinalCallbacks();
		const startedAt = Date.now();
		const { waiting, id, mine, finalPosts } = await waitForOneVideo('clip [after:40000]');
		const done = await n8n.finished(waiting.executionId, LONG.timeoutMs);
		const resumedAt = Date.now() - startedAt;

		expect(done.status).toBe('success');
		expect(done.output(VIDEO_NODE).map((item) => item.json)).toEqual([
			expect.objectContaining({
				id,
				status: 'completed',
				waitInfo: expect.objectContaining({ mode: 'callback' }),
			}),
		]);
		expect(done.output('After')).toHaveLength(1);
		// The gateway's final callback never arrived: the one final post is the package's, and it resumed.
		expect(videoTasks(sim).deliveries.filter((d) => d.id === id && isFinal(d.status))).toEqual([
			expect.objectContaining({ url: NOWHERE, error: expect.stringContaining('ECONNREFUSED') }),
		]);
		expect(finalPosts().map((d) => [d.status, d.resumed])).toEqual([[200, true]]);
		expect(mine().filter((d) => d.resumed)).toHaveLength(1);
		// Reads: once as the wait began, then at 30 s (running) and 60 s (final); the resume reads nothing.
		expect(reads(id)).toBe(3);
		expect(resumedAt).toBeGreaterThanOrEqual(75_000);
		expect(resumedAt).toBeLessThan(76_000);
		// Once the claim's hold has passed, one more post learns from n8n that the execution finished.
		await virtualSleep(5 * 60_000);
		expect(finalPosts().map((d) => [d.status, d.resumed])).toEqual([
			[200, true],
			[409, false],
		]);
	});

	it('refused with 503 by a busy n8n, the package too at first: its next post resumes the execution once', async () => {
		videoTasks(sim).secondCallbacks = { kind: 'off' };
		let refusals = 0;
		// This wait's posts only: an earlier wait's watch may still post its last one.
		n8n.refuse = (request) => {
			const body = request.body as IDataObject | undefined;
			return isFinal(body?.status) && body?.prompt === 'refused [after:40000]' && refusals++ < 2;
		};
		const { waiting, id, mine, finalPosts } = await waitForOneVideo('refused [after:40000]');
		const done = await n8n.finished(waiting.executionId, LONG.timeoutMs);

		expect(done.status).toBe('success');
		expect(done.output(VIDEO_NODE)[0].json).toMatchObject({ id, status: 'completed' });
		// The gateway's final callback and the package's first post were refused before the node ran.
		expect(n8n.refused.filter((r) => (r.body as IDataObject).id === id)).toHaveLength(2);
		expect(videoTasks(sim).deliveries.filter((d) => d.id === id && isFinal(d.status))).toEqual([
			expect.objectContaining({ httpStatus: 503 }),
		]);
		expect(finalPosts().map((d) => [d.status, d.resumed])).toEqual([[200, true]]);
		expect(mine().filter((d) => d.resumed)).toHaveLength(1);
		expect(reads(id)).toBe(3);
	});

	it('the callback hands its items to n8n, which never resumes with them: once the claim lapses the package posts, and the execution resumes once', async () => {
		videoTasks(sim).secondCallbacks = { kind: 'off' };
		let lost = 0;
		n8n.loseResume = (request) => isFinal((request.body as IDataObject | undefined)?.status) && lost++ < 1;
		const startedAt = Date.now();
		const { waiting, id, mine, finalPosts } = await waitForOneVideo('clip [after:10000]');
		const done = await n8n.finished(waiting.executionId, LONG.timeoutMs);
		const resumedAt = Date.now() - startedAt;

		expect(done.status).toBe('success');
		expect(done.output(VIDEO_NODE)[0].json).toMatchObject({ id, status: 'completed' });
		// The gateway's callback was answered and its items lost; the package's post resumed the execution.
		expect(finalPosts().map((d) => [d.status, d.resumed, d.lostResume])).toEqual([
			[200, false, true],
			[200, true, false],
		]);
		expect(mine().filter((d) => d.resumed)).toHaveLength(1);
		// The watch knows the task final at 30 s and leaves the gateway 15 s; its post then waits while the
		// claim holds (a minute after its hand-over at 10 s), looking again every 30 s.
		expect(resumedAt).toBeGreaterThanOrEqual(75_000);
		expect(resumedAt).toBeLessThan(76_000);
		// Once as the wait began, once by the callback: the watch knew the task final.
		expect(reads(id)).toBe(2);
	});

	it('the gateway calls back: the package reads nothing more and posts once, after the claim held, to learn that the execution finished', async () => {
		const { waiting, id, mine } = await waitForOneVideo('clip [after:10000]');
		const done = await n8n.finished(waiting.executionId, LONG.timeoutMs);
		expect(done.status).toBe('success');
		await virtualSleep(5 * 60_000);
		const gatewayPosts = videoTasks(sim).deliveries.filter((d) => d.id === id);
		expect(mine()).toHaveLength(gatewayPosts.length + 1);
		expect(mine().at(-1)).toMatchObject({ status: 409, resumed: false });
		expect(mine().filter((d) => d.resumed)).toHaveLength(1);
		// Once as the wait began, once by the final callback.
		expect(reads(id)).toBe(2);
	});

	it('a post n8n holds open without answering is posted once: the watch ends at its timeout', async () => {
		loseFinalCallbacks();
		n8n.holdOpen = (request) => {
			const body = request.body as IDataObject | undefined;
			return isFinal(body?.status) && body?.prompt === 'held [after:40000]';
		};
		const { waiting, finalPosts } = await waitForOneVideo('held [after:40000]');
		await virtualSleep(20 * 60_000);
		expect(n8n.heldOpen.filter((r) => r.path.includes(`/${waiting.executionId}/`))).toHaveLength(1);
		expect(finalPosts()).toEqual([]);
	});

	it('a gateway callback that comes after the package resumed the execution resumes nothing', async () => {
		loseFinalCallbacks();
		const { waiting, id, mine } = await waitForOneVideo('clip [after:40000]');
		await n8n.finished(waiting.executionId, LONG.timeoutMs);
		const resumeUrl = String((sim.requestsTo('/v1/videos', 'POST').at(-1)!.body as IDataObject).callback_url);
		const late = await n8n.deliver(waiting.executionId, {
			query: Object.fromEntries(new URL(resumeUrl).searchParams),
			body: { id, status: 'completed' },
		});
		expect(late.status).toBe(409);
		expect(mine().filter((d) => d.resumed)).toHaveLength(1);
	});

	it('tasks that outlast the Wait Timeout: the package stops reading at the deadline and posts nothing', async () => {
		loseFinalCallbacks();
		// It ends at 2 min, past the 1 min deadline and well inside the 16 min watched below.
		const { waiting, id, finalPosts } = await waitForOneVideo(
			'long [after:120000]',
			{},
			{ waitOptions: { timeoutMinutes: 1 } },
		);
		await virtualSleep(61_000);
		expect(await n8n.resumeAtWaitTill(waiting.executionId)).toBe(true);
		await virtualSleep(15 * 60_000);
		expect(finalPosts()).toEqual([]);
		// Once as the wait began, then at 30 s and 60 s: the next read would be past the deadline.
		expect(reads(id)).toBe(3);
	});

	it('callbacks load the credential once, not once per request', async () => {
		const nodeId = 'c0ffee00-0000-4000-8000-000000000001';
		const waiting = await runWorkflow(videoCallbackWorkflow({}, { id: nodeId }), {
			credentials: sim.credentials(),
			input: promptItems(['a [after:2000]', 'b [after:2000]', 'c [after:2500]', 'd [after:3000]']),
			instanceBaseUrl: n8n.url,
		});
		n8n.track(waiting);
		const done = await n8n.finished(waiting.executionId, LONG.timeoutMs);
		expect(done.status).toBe('success');
		const mine = n8n.deliveries.filter((d) => d.executionId === waiting.executionId);
		const finals = mine.filter((d) => isFinal((d.request as IDataObject | null)?.status));
		expect(finals.length).toBeGreaterThanOrEqual(4);
		expect(mine.reduce((sum, d) => sum + d.credentialLoads, 0)).toBe(1);
	});
});

describe('Video → Create with the trigger as its callback address: the final callback does not get through', () => {
	/** The trigger's workflow behind https, as n8n serves its production URL; `refuse` answers 503 first. */
	async function startTrigger(refuse: (body: IDataObject) => boolean = () => false) {
		const started: IDataObject[] = [];
		const answers: Array<{ body: IDataObject; status: number; credentialLoads: number }> = [];
		const receiver = await startHttpsReceiver(async ({ query, body }) => {
			if (refuse(body as IDataObject)) {
				answers.push({ body: body as IDataObject, status: 503, credentialLoads: 0 });
				return { status: 503, body: { code: 503, message: 'Database is not ready!' } };
			}
			const answer = await callWebhook(triggerWorkflow(), TRIGGER, {
				body,
				query,
				credentials: sim.credentials(),
			});
			if (answer.result.workflowData) started.push(answer.result.workflowData[0][0].json);
			const status = answer.response?.status ?? 200;
			answers.push({ body: body as IDataObject, status, credentialLoads: answer.credentialLoads });
			return answer.response ?? { status, body: answer.result.webhookResponse };
		});
		return { receiver, started, answers, url: `${receiver.url}/webhook/hook-1/video-task?secret=${SECRET}` };
	}

	/** `n8nUrl`: this n8n's own address (its webhook URL); the trigger's by default. */
	async function create(
		prompt: string,
		callbackUrl: string,
		n8nUrl = new URL(callbackUrl).origin,
	): Promise<string> {
		const run = await runWorkflow(createWithCallback(prompt, callbackUrl), {
			credentials: sim.credentials(),
			instanceBaseUrl: n8nUrl,
		});
		expect(run.status).toBe('success');
		return String(run.output('Create')[0].json.id);
	}

	it('lost on the way: the package posts the record and the workflow starts once', async () => {
		loseFinalCallbacks();
		const trigger = await startTrigger();
		try {
			const id = await create('waves [after:40000]', trigger.url);
			await until(() => trigger.started.length > 0, 'the workflow start', LONG);
			await virtualSleep(10 * 60_000);
			expect(trigger.started).toEqual([expect.objectContaining({ id, status: 'completed' })]);
			const finals = trigger.answers.filter((a) => isFinal(a.body.status));
			expect(finals.map((a) => a.status)).toEqual([200]);
			// The package's reads at 30 s (running) and 60 s (final), then the trigger's confirmation.
			expect(reads(id)).toBe(3);
		} finally {
			await trigger.receiver.stop();
		}
	});

	it('refused with 503 by a busy n8n: the package posts again and the workflow starts once', async () => {
		videoTasks(sim).secondCallbacks = { kind: 'off' };
		let refusals = 0;
		const trigger = await startTrigger((body) => isFinal(body.status) && refusals++ < 2);
		try {
			const id = await create('waves [after:40000]', trigger.url);
			await until(() => trigger.started.length > 0, 'the workflow start', LONG);
			await virtualSleep(10 * 60_000);
			expect(trigger.started).toEqual([expect.objectContaining({ id, status: 'completed' })]);
			expect(trigger.answers.filter((a) => isFinal(a.body.status)).map((a) => a.status)).toEqual([
				503, 503, 200,
			]);
		} finally {
			await trigger.receiver.stop();
		}
	});

	it('the gateway calls back: the workflow starts once and the package posts nothing', async () => {
		const trigger = await startTrigger();
		try {
			const id = await create('waves [after:10000]', trigger.url);
			await until(() => trigger.started.length > 0, 'the workflow start', LONG);
			await virtualSleep(10 * 60_000);
			expect(trigger.started).toEqual([expect.objectContaining({ id, status: 'completed' })]);
			const gatewayPosts = videoTasks(sim).deliveries.filter((d) => d.id === id);
			expect(trigger.answers).toHaveLength(gatewayPosts.length);
			// The trigger's confirmation only: the package's watch saw the start before its first read.
			expect(reads(id)).toBe(1);
		} finally {
			await trigger.receiver.stop();
		}
	});

	it("a trigger's address on another n8n is not watched: the package posts only under this n8n's webhook URL", async () => {
		loseFinalCallbacks();
		const trigger = await startTrigger();
		try {
			const id = await create('waves [after:40000]', trigger.url, 'https://n8n.other.example');
			await virtualSleep(10 * 60_000);
			expect(trigger.started).toEqual([]);
			// The gateway's early callbacks came; the final one was lost, and nobody posted it.
			expect(trigger.answers.filter((a) => isFinal(a.body.status))).toEqual([]);
			// Nobody read the task: no watch.
			expect(reads(id)).toBe(0);
		} finally {
			await trigger.receiver.stop();
		}
	});

	it('a Create whose callback address is not a trigger is not watched', async () => {
		loseFinalCallbacks();
		const id = await create('waves [after:1000]', 'https://example.invalid/hooks/video');
		await virtualSleep(10 * 60_000);
		expect(reads(id)).toBe(0);
	});
});

describe('Generation Gateway Trigger: deliveries arriving together load the credential once', () => {
	it('20 final callbacks of 20 tasks at once: one credential load', async () => {
		const tasks = videoTasks(sim);
		const ids = Array.from(
			{ length: 20 },
			(_, n) => tasks.record(tasks.create({ model: 'vidA-2.5', prompt: `clip ${n} [after:0]` })).id as string,
		);
		await virtualSleep(1_000);
		const workflow = { ...triggerWorkflow(), id: 'burst-credential-loads' } as WorkflowJson;
		const answers = await Promise.all(
			ids.map(
				async (id) =>
					await callWebhook(workflow, TRIGGER, {
						body: { id, status: 'completed' },
						query: { secret: SECRET },
						credentials: sim.credentials(),
					}),
			),
		);
		expect(answers.filter((a) => a.result.workflowData)).toHaveLength(20);
		expect(answers.reduce((sum, a) => sum + a.credentialLoads, 0)).toBe(1);
	});
});
