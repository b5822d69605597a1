/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Video Wait → Recover Waits (examples/video-recover-waits.json) over real https: waits whose
 * gateway callbacks never came are found in n8n's waiting executions (its public API, served
 * here by the harness's n8n stand-in) and resume with their videos, once, through a recheck at
 * each wait's own address as n8n reaches it from inside. On virtual time.
 */
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { RunResult, WorkflowJson } from '../harness';
import { loadWorkflowFile, runWorkflow } from '../harness';
import { WaitingWebhookServer } from '../harness/resume';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import type { SimTask } from '../simulator/video/tasks';
import { videoTasks } from '../simulator/video/tasks';

import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

useVirtualTime();

const FINAL = ['completed', 'failed', 'cancelled', 'expired'];
const NOWHERE = 'https://127.0.0.1:1/lost';
const RECOVER = 'Recover Video Waits';
const example = loadWorkflowFile(join(__dirname, '..', '..', 'examples', 'video-recover-waits.json'));

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
beforeEach(() => {
	// The gateway's final callbacks are lost, once: only the recovery (or the watch) brings the news.
	const tasks = videoTasks(sim);
	tasks.secondCallbacks = { kind: 'off' };
	tasks.routeCallback = (url: string, task: SimTask) =>
		FINAL.includes(String(task.notified)) ? NOWHERE : url;
});
afterEach(() => {
	const tasks = videoTasks(sim);
	tasks.routeCallback = undefined;
	tasks.secondCallbacks = { kind: 'default' };
});

/** The example, run once by hand (its Schedule Trigger as a manual one), with n8n's address from inside. */
async function recoverOnce(baseUrl = n8n.url, apiKey = WaitingWebhookServer.API_KEY) {
	const workflow = JSON.parse(JSON.stringify(example)) as WorkflowJson;
	const trigger = workflow.nodes[0];
	Object.assign(trigger, { type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} });
	return await runWorkflow(workflow, {
		credentials: { ...sim.credentials(), generationGatewayN8nApi: { baseUrl, apiKey } },
	});
}

async function waitFor(prompts: string[], instanceBaseUrl = n8n.url) {
	const waiting = await runWorkflow(videoCallbackWorkflow(), {
		credentials: sim.credentials(),
		input: promptItems(prompts),
		instanceBaseUrl,
	});
	n8n.track(waiting);
	expect(waiting.status).toBe('waiting');
	const ids = waiting.output(VIDEO_NODE).map((item) => String(item.json.id));
	return { waiting, ids };
}

const hintsOf = (result: RunResult) => result.run.data.resultData.runData[VIDEO_NODE]?.[0]?.hints ?? [];
const reads = (id: string) => sim.requestsTo(`/v1/videos/${id}`, 'GET').length;
const resumes = (executionId: string) =>
	n8n.deliveries.filter((d) => d.executionId === executionId && d.resumed).length;

describe('Video Wait → Recover Waits', () => {
	it('says, on the waiting items, where the wait is and that no recovery ran in this process yet', async () => {
		const { waiting } = await waitFor(['clip [after:600000]']);
		const waitInfo = waiting.output(VIDEO_NODE)[0].json.waitInfo as IDataObject;
		expect(waitInfo.callbackAddress).toMatch(
			new RegExp(`^${n8n.url}/webhook-waiting/${waiting.executionId}/video-wait`),
		);
		expect(waitInfo.leftBehind).toMatch(/^No Video Wait → Recover Waits pass has run in this n8n process/);
		expect(hintsOf(waiting)).toContainEqual(
			expect.objectContaining({ type: 'info', message: waitInfo.leftBehind }),
		);
	});

	it('resumes a wait whose tasks ended and whose callbacks were lost, once, one read per task', async () => {
		const { waiting, ids } = await waitFor(['a [after:4000]', 'b [after:6000]']);
		await sleep(10_000);
		const before = ids.map(reads);
		const pass = await recoverOnce();

		expect(pass.status).toBe('success');
		const summary = pass.output(RECOVER)[0].json;
		expect(summary).toMatchObject({ videoWaits: expect.any(Number), resumed: 1 });
		expect(summary.waits).toContainEqual(
			expect.objectContaining({ executionId: waiting.executionId, taskIds: ids, outcome: 'resumed' }),
		);
		const done = await n8n.finished(waiting.executionId, 60_000);
		expect(done.status).toBe('success');
		expect(done.output(VIDEO_NODE).map((item) => item.json.status)).toEqual(['completed', 'completed']);
		expect(ids.map(reads)).toEqual(before.map((count) => count + 1));
		expect(resumes(waiting.executionId)).toBe(1);

		// A second pass finds nothing of it: the execution no longer waits.
		const again = await recoverOnce();
		expect(again.output(RECOVER)[0].json.waits).not.toContainEqual(
			expect.objectContaining({ executionId: waiting.executionId }),
		);
		expect(resumes(waiting.executionId)).toBe(1);
	});

	it('leaves a wait whose first task still runs, reading no task after it', async () => {
		const { waiting, ids } = await waitFor(['slow [after:600000]', 'quick [after:2000]']);
		await sleep(5_000);
		const before = ids.map(reads);
		const pass = await recoverOnce();

		expect(pass.output(RECOVER)[0].json.waits).toContainEqual(
			expect.objectContaining({ executionId: waiting.executionId, outcome: 'tasks running' }),
		);
		expect(ids.map(reads)).toEqual([before[0] + 1, before[1]]);
		expect(n8n.finishedNow(waiting.executionId)).toBeUndefined();
	});

	it("reaches n8n through the credential's address when n8n's public name does not resolve", async () => {
		const publicName = n8n.url.replace('127.0.0.1', 'n8n.invalid');
		const { waiting } = await waitFor(['clip [after:3000]'], publicName);
		expect(String((waiting.output(VIDEO_NODE)[0].json.waitInfo as IDataObject).callbackAddress)).toContain(
			'n8n.invalid',
		);
		await sleep(5_000);
		const pass = await recoverOnce();

		expect(pass.output(RECOVER)[0].json.waits).toContainEqual(
			expect.objectContaining({ executionId: waiting.executionId, outcome: 'resumed' }),
		);
		expect((await n8n.finished(waiting.executionId, 60_000)).output(VIDEO_NODE)[0].json.status).toBe(
			'completed',
		);
	});

	it('says nothing of the recovery on a wait begun after a pass in this process', async () => {
		await recoverOnce();
		const { waiting } = await waitFor(['clip [after:600000]']);
		expect(waiting.output(VIDEO_NODE)[0].json.waitInfo).not.toHaveProperty('leftBehind');
		expect(hintsOf(waiting).map((hint) => hint.message)).not.toContainEqual(
			expect.stringMatching(/Recover Waits pass/),
		);
	});

	it('fails with what to check when n8n refuses the API key, and posts to no wait', async () => {
		const { waiting } = await waitFor(['clip [after:2000]']);
		await sleep(4_000);
		const posts = n8n.deliveries.length;
		const pass = await recoverOnce(n8n.url, 'wrong-key');

		expect(pass.status).toBe('error');
		expect(pass.nodeError(RECOVER)?.message).toContain("Could not list n8n's waiting executions");
		expect(pass.nodeError(RECOVER)?.description).toContain('Recover Waits) API credential');
		expect(n8n.deliveries.length).toBe(posts);
		expect(n8n.finishedNow(waiting.executionId)).toBeUndefined();
	});
});
