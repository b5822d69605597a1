/**
 * The Generation Gateway Trigger's webhook() through n8n-core's
 * WebhookContext (test/harness/resume.ts), confirming against the simulator
 * over real HTTP; an accepted delivery then runs the workflow.
 */
import type { IDataObject } from 'n8n-workflow';

import { runWorkflow, until } from '../harness';
import { callWebhook } from '../harness/resume';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { startHttpsReceiver } from '../simulator/video/https';
import type { SecondCallbacks } from '../simulator/video/tasks';
import { videoTasks } from '../simulator/video/tasks';

import { SECRET, TRIGGER, createWithCallback, triggerWorkflow } from './trigger-workflow';

useVirtualTime();

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
	videoTasks(sim).timing.doneAfterMs = 0; // tasks are completed at once
});
afterAll(async () => {
	await sim.stop();
});

/** A real task in the simulator, completed. */
function completedTask() {
	const tasks = videoTasks(sim);
	return tasks.record(tasks.create({ model: 'vidA-2.5', prompt: 'done', duration: 4 }));
}

const deliver = (
	body: unknown,
	extra: { query?: Record<string, string>; staticData?: IDataObject; params?: object } = {},
) =>
	callWebhook(triggerWorkflow(extra.params), TRIGGER, {
		body,
		query: extra.query ?? { secret: SECRET },
		credentials: sim.credentials(),
		staticData: extra.staticData,
	});

describe('Generation Gateway Trigger (webhook)', () => {
	it('answers 401 and starts nothing without the secret or with a wrong one', async () => {
		const record = completedTask();
		for (const query of [{}, { secret: 'wrong' }, { secret: `${SECRET}x` }] as Array<
			Record<string, string>
		>) {
			const answer = await deliver(record, { query });
			expect(answer.response?.status).toBe(401);
			expect(answer.result).toEqual({ noWebhookResponse: true });
		}
	});

	it('answers 400 for a body that is not a task callback', async () => {
		const answer = await deliver({ hello: 'world' });
		expect(answer.response).toMatchObject({
			status: 400,
			body: { error: '"id" must be a non-empty string' },
		});
		expect(answer.result.workflowData).toBeUndefined();
	});

	it('confirms with GET /v1/videos/{id} and emits the gateway record, not the caller claim', async () => {
		const record = completedTask();
		const before = sim.requestsTo(`/v1/videos/${String(record.id)}`).length;
		const answer = await deliver({
			...record,
			prompt: 'forged',
			data: { url: 'https://evil.example/x.mp4' },
		});
		expect(sim.requestsTo(`/v1/videos/${String(record.id)}`).length - before).toBe(1);
		expect(answer.result.workflowData?.[0][0].json).toEqual(record);
		const run = await runWorkflow(triggerWorkflow(), {
			startNode: TRIGGER,
			mode: 'webhook',
			input: answer.result.workflowData![0],
		});
		expect(run.status).toBe('success');
		expect(run.output('Next')[0].json).toEqual(record);
	});

	it('refuses a task the gateway does not know (404) when confirming', async () => {
		const answer = await deliver({ id: 'video_forged', status: 'completed' });
		expect(answer.response?.status).toBe(404);
		expect(answer.result.workflowData).toBeUndefined();
	});

	it.each<[string, (id: string) => void, number, RegExp]>([
		[
			"a final status the gateway's reads do not show within the confirmation window (the first read and the window's three)",
			(id) => videoTasks(sim).staleReads.set(id, 4),
			503,
			/^The gateway does not confirm yet that task \S+ is completed: it still reads "in_progress" after a few seconds/,
		],
		[
			'the gateway failing on every attempt of the confirmation read',
			(id) =>
				sim.inject({
					path: `/v1/videos/${id}`,
					method: 'GET',
					times: 3,
					fault: { kind: 'status', status: 502 },
				}),
			503,
			/^Could not confirm task \S+ now$/,
		],
	])(
		'%s: 503 with Retry-After (never a 200 that stops the retries), no workflow start; the retry starts it',
		async (_name, fault, status, error) => {
			const record = completedTask();
			fault(String(record.id));
			const first = await deliver(record);
			expect(first.response?.status).toBe(status);
			expect(first.response?.headers['retry-after']).toBe('30');
			expect(String((first.response?.body as { error: string }).error)).toMatch(error);
			expect(first.result.workflowData).toBeUndefined();
			// The sender calls again: now confirmed, the workflow starts with the gateway's record.
			const again = await deliver(record, { staticData: first.staticData });
			expect(again.result.workflowData?.[0][0].json).toMatchObject({ id: record.id, status: 'completed' });
		},
		30_000,
	);

	it('without confirmation emits the body as received', async () => {
		const body = { id: 'video_unconfirmed', status: 'failed', prompt: 'p' };
		const answer = await deliver(body, { params: { confirm: false } });
		expect(answer.result.workflowData?.[0][0].json).toEqual(body);
	});

	it('filters by status (default: terminal states) and answers 200 for the others', async () => {
		const ignored = await deliver({ id: 'video_x', status: 'in_progress' }, { params: { confirm: false } });
		expect(ignored.response).toMatchObject({
			status: 200,
			body: { received: true, ignored: 'status in_progress' },
		});
		const chosen = await deliver(
			{ id: 'video_x', status: 'in_progress' },
			{ params: { confirm: false, statuses: ['in_progress'] } },
		);
		expect(chosen.result.workflowData).toHaveLength(1);
	});

	it('drops a repeated delivery of the same id and status', async () => {
		const record = completedTask();
		const first = await deliver(record);
		expect(first.result.workflowData).toHaveLength(1);
		const again = await deliver(record, { staticData: first.staticData });
		expect(again.response).toMatchObject({
			status: 200,
			body: { received: true, ignored: 'duplicate delivery' },
		});
		expect(again.result.workflowData).toBeUndefined();
	});

	it('end to end over https: Create with the trigger URL, callbacks on each change, one workflow start', async () => {
		let staticData: IDataObject = {};
		const started: IDataObject[] = [];
		const receiver = await startHttpsReceiver(async ({ query, body }) => {
			const answer = await deliver(body, { query, staticData });
			staticData = answer.staticData;
			if (answer.result.workflowData) started.push(answer.result.workflowData[0][0].json);
			return answer.response ?? { status: 200, body: answer.result.webhookResponse };
		});
		try {
			const callbackUrl = `${receiver.url}/webhook/hook-1/video-task?secret=${SECRET}`;
			const create = await runWorkflow(createWithCallback('waves [after:300]', callbackUrl), {
				credentials: sim.credentials(),
			});
			const id = String(create.output('Create')[0].json.id);
			const mine = () => videoTasks(sim).deliveries.filter((d) => d.id === id);
			// The simulator logs a delivery once its answer is read: the final one comes last.
			await until(
				() => mine().some((d) => d.status === 'completed'),
				'the answer to the "completed" callback',
			);
			const deliveries = mine();
			expect(deliveries.map((d) => [d.status, d.httpStatus])).toEqual([
				['pending', 200],
				['queue', 200],
				['in_progress', 200],
				['completed', 200],
			]);
			expect(started).toEqual([expect.objectContaining({ id, status: 'completed' })]);
			expect(sim.requestsTo('/v1/videos', 'POST').slice(-1)[0].body).toMatchObject({
				callback_url: callbackUrl,
			});
		} finally {
			await receiver.stop();
		}
	});
});

describe('Generation Gateway Trigger: reads that trail the callbacks (confirmation window, over https)', () => {
	const isFinal = (status: string) => ['completed', 'failed', 'cancelled', 'expired'].includes(status);

	/**
	 * `tasks` tasks ending together whose callbacks the simulator posts over https to the trigger's
	 * webhook, its reads trailing the callbacks by `lagMs`; the gateway calls again after a 5xx as
	 * `second` says. Returns the workflow starts, reads per task and the answers to final callbacks.
	 */
	let lagRows = 0;
	async function triggerLagRow(tasksCount: number, lagMs: number, second: SecondCallbacks) {
		const own = await startSimulator();
		const tasks = videoTasks(own);
		tasks.readLagMs = lagMs;
		tasks.secondCallbacks = second;
		let staticData: IDataObject = {};
		const started: IDataObject[] = [];
		// A simulator of its own is a gateway of its own: a credential of its own, so no copy kept
		// for another row's webhooks (read again only after a 401/403) is used here.
		const workflow = triggerWorkflow();
		workflow.nodes[0].credentials = {
			generationGatewayBearerApi: { id: `lag-${++lagRows}`, name: 'Gateway' },
		};
		const receiver = await startHttpsReceiver(async ({ query, body }) => {
			const answer = await callWebhook(workflow, TRIGGER, {
				body,
				query,
				credentials: own.credentials(),
				staticData,
			});
			staticData = answer.staticData;
			if (answer.result.workflowData) started.push(answer.result.workflowData[0][0].json);
			return answer.response ?? { status: 200, body: answer.result.webhookResponse };
		});
		try {
			const callback = `${receiver.url}/webhook/hook-1/video-task?secret=${SECRET}`;
			const mine = Array.from({ length: tasksCount }, (_, n) =>
				tasks.create({ model: 'vidA-2.5', prompt: `clip ${n} [after:300]`, callback_url: callback }),
			);
			const settled = () => mine.every((task) => isFinal(task.notified ?? '') && !task.delivering);
			await until(settled, 'the answers to the final callbacks', { timeoutMs: 30_000 });
			const finals = tasks.deliveries.filter((d) => isFinal(d.status));
			return {
				started: started.map((record) => [record.id, record.status]),
				ids: mine.map((task) => task.id),
				readsPerTask: mine.map((task) => own.requestsTo(`/v1/videos/${task.id}`, 'GET').length),
				answers: finals.map((d) => d.httpStatus),
				retryAfter: finals.map((d) => d.retryAfter),
			};
		} finally {
			tasks.stop();
			await receiver.stop();
			await own.stop();
		}
	}

	it.each<[string, number, number]>([
		['reads current: one read, the workflow starts', 0, 1],
		['reads trail by 1 s: the window read 1 s later confirms, the workflow starts', 1_000, 2],
		['reads trail by 3 s: the window read 3.5 s later confirms, the workflow starts', 3_000, 3],
	])(
		'%s (no second callback)',
		async (_name, lag, reads) => {
			const row = await triggerLagRow(1, lag, { kind: 'off' });
			expect(row.started).toEqual([[row.ids[0], 'completed']]);
			expect(row.readsPerTask).toEqual([reads]);
			expect(row.answers).toEqual([200]);
		},
		30_000,
	);

	it('reads trail by 3 s, 3 tasks ending together: each starts its workflow once, 3 reads each', async () => {
		const row = await triggerLagRow(3, 3_000, { kind: 'off' });
		expect(row.started.map(([id]) => id).sort()).toEqual([...row.ids].sort());
		expect(row.readsPerTask).toEqual([3, 3, 3]);
		expect(row.answers).toEqual([200, 200, 200]);
	});

	it('reads trail by 9 s, no second callback: 503 + Retry-After after the window, nothing starts', async () => {
		const row = await triggerLagRow(1, 9_000, { kind: 'off' });
		expect(row.started).toEqual([]);
		expect(row.answers).toEqual([503]);
		expect(row.retryAfter).toEqual(['30']);
		expect(row.readsPerTask).toEqual([4]);
	});

	it('reads trail by 9 s, second callbacks at 0.5 s and 1 s: the second one starts the workflow', async () => {
		const row = await triggerLagRow(1, 9_000, { kind: 'fixed', pausesMs: [500, 1000] });
		expect(row.started).toEqual([[row.ids[0], 'completed']]);
		expect(row.answers).toEqual([503, 200]);
		// Four reads in the first answer; the second callback's read at 8.5 s is stale, 1 s later current.
		expect(row.readsPerTask).toEqual([6]);
	});

	it('the same final callback delivered twice at once shares one window: one start, the window read once', async () => {
		const own = await startSimulator();
		const tasks = videoTasks(own);
		tasks.readLagMs = 2_000;
		try {
			const record = tasks.record(tasks.create({ model: 'vidA-2.5', prompt: 'twice [after:0]' }));
			const workflow = triggerWorkflow();
			workflow.nodes[0].credentials = { generationGatewayBearerApi: { id: 'twice', name: 'Gateway' } };
			const call = () =>
				callWebhook(workflow, TRIGGER, {
					body: record,
					query: { secret: SECRET },
					credentials: own.credentials(),
				});
			const answers = await Promise.all([call(), call()]);
			expect(answers.map((a) => a.response?.status ?? 200)).toEqual([200, 200]);
			expect(answers.filter((a) => a.result.workflowData)).toHaveLength(1);
			expect(answers.map((a) => a.response?.body).filter(Boolean)).toEqual([
				{ received: true, ignored: 'duplicate delivery' },
			]);
			// The first read (stale), then the window's reads at 1 s (stale) and 3.5 s (current).
			expect(own.requestsTo(`/v1/videos/${String(record.id)}`, 'GET')).toHaveLength(3);
		} finally {
			tasks.stop();
			await own.stop();
		}
	});
});
