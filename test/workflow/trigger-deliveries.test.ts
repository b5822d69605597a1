/**
 * The trigger under deliveries that arrive together (a batch of videos
 * ending at once, a sender that sends twice): every finished task starts the
 * workflow once, repeated news is dropped without a workflow write, and a
 * delivery the gateway does not confirm starts nothing.
 */
import { callWebhook } from '../harness/resume';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { videoTasks } from '../simulator/video/tasks';

import { SECRET, TRIGGER, triggerWorkflow } from './trigger-workflow';

const workflow = triggerWorkflow();

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
	videoTasks(sim).timing.doneAfterMs = 0;
});
afterAll(async () => {
	await sim.stop();
});

function completedTask() {
	const tasks = videoTasks(sim);
	return tasks.record(tasks.create({ model: 'vidA-2.5', prompt: 'done', duration: 4 }));
}

// Each call loads the workflow afresh, as n8n does for every request: no static data is shared.
const deliver = async (body: unknown) =>
	await callWebhook(workflow, TRIGGER, { body, query: { secret: SECRET }, credentials: sim.credentials() });

const started = (answers: Array<Awaited<ReturnType<typeof deliver>>>) =>
	answers.filter((answer) => answer.result.workflowData !== undefined);

describe('Generation Gateway Trigger: deliveries that arrive together', () => {
	it('20 copies of one final callback at once: one start, 19 duplicates, one gateway read', async () => {
		const record = completedTask();
		const answers = await Promise.all(Array.from({ length: 20 }, async () => await deliver(record)));
		expect(started(answers)).toHaveLength(1);
		expect(started(answers)[0].result.workflowData?.[0][0].json).toMatchObject({
			id: record.id,
			status: 'completed',
		});
		const duplicates = answers.filter((answer) => answer.response?.status === 200);
		expect(duplicates).toHaveLength(19);
		for (const answer of duplicates)
			expect(answer.response?.body).toEqual({ received: true, ignored: 'duplicate delivery' });
		expect(sim.requestsTo(`/v1/videos/${String(record.id)}`, 'GET')).toHaveLength(1);
	});

	it('100 tasks finishing together: each starts the workflow once, each read once, no static data written', async () => {
		const records = Array.from({ length: 100 }, completedTask);
		const answers = await Promise.all(records.map(async (record) => await deliver(record)));
		const ids = started(answers).map((answer) => answer.result.workflowData?.[0][0].json.id);
		expect(ids.sort()).toEqual(records.map((record) => record.id).sort());
		for (const answer of answers) expect(answer.staticData).toEqual({});
		for (const record of records)
			expect(sim.requestsTo(`/v1/videos/${String(record.id)}`, 'GET')).toHaveLength(1);
	});

	it('a redelivery after the start (the sender did not see the answer) is dropped without a read', async () => {
		const record = completedTask();
		expect(started([await deliver(record)])).toHaveLength(1);
		const again = await deliver(record);
		expect(again.response).toMatchObject({ status: 200, body: { ignored: 'duplicate delivery' } });
		expect(sim.requestsTo(`/v1/videos/${String(record.id)}`, 'GET')).toHaveLength(1);
	});

	it('copies of a callback for a task the gateway does not know: all 404, nothing starts, one read', async () => {
		const forged = { id: 'video_not_a_task', status: 'completed' };
		const answers = await Promise.all(Array.from({ length: 5 }, async () => await deliver(forged)));
		expect(started(answers)).toHaveLength(0);
		expect(answers.map((answer) => answer.response?.status)).toEqual(Array(5).fill(404));
		expect(sim.requestsTo('/v1/videos/video_not_a_task', 'GET')).toHaveLength(1);
		// Refused news is not remembered: a later delivery is judged again.
		expect((await deliver(forged)).response?.status).toBe(404);
		expect(sim.requestsTo('/v1/videos/video_not_a_task', 'GET')).toHaveLength(2);
	});
});
