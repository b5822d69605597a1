/**
 * Demo steps for examples/video-recover-waits.json: a Create and Wait by callback whose gateway
 * callback of the final status is lost (as when n8n was down when the gateway called), then one
 * pass of the example against a stand-in for n8n's waiting-webhook route and public API: the wait
 * is found, rechecked and resumed with its video.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { runWorkflow } from '../../harness';
import { WaitingWebhookServer } from '../../harness/resume';
import type { SimTask } from '../../simulator/video/tasks';
import { videoTasks } from '../../simulator/video/tasks';
import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from '../../workflow/video-callback-workflow';
import type { DemoContext } from '../run-demo';

const FINAL = ['completed', 'failed', 'cancelled', 'expired'];

export async function run(ctx: DemoContext, workflow: WorkflowJson): Promise<void> {
	const n8n = await WaitingWebhookServer.start(ctx.sim.credentials());
	const tasks = videoTasks(ctx.sim);
	const routeBefore = tasks.routeCallback;
	tasks.routeCallback = (url: string, task: SimTask) =>
		FINAL.includes(String(task.notified)) ? 'https://127.0.0.1:1/n8n-was-down' : url;
	try {
		const waiting = await runWorkflow(videoCallbackWorkflow(), {
			credentials: ctx.sim.credentials(),
			input: promptItems(['A paper boat on a rainy street [after:2000]']),
			instanceBaseUrl: n8n.url,
		});
		n8n.track(waiting);
		const taskId = String(waiting.output(VIDEO_NODE)[0]?.json.id);
		ctx.say(`a Create and Wait by callback waits for task ${taskId}; its final callback will be lost`);
		await sleep(4000);
		const pass = await ctx.run(workflow, undefined, undefined, {
			generationGatewayN8nApi: { baseUrl: n8n.url, apiKey: WaitingWebhookServer.API_KEY },
		});
		const summary = pass.output('Recover Video Waits')[0]?.json ?? {};
		ctx.say(`the pass: ${summary.videoWaits} video wait(s) found, ${summary.resumed} resumed`);
		const done = await n8n.finished(waiting.executionId, 30_000);
		const item = done.output(VIDEO_NODE)[0]?.json as IDataObject;
		if (item?.status !== 'completed')
			throw new Error(`the wait did not resume with its video: ${JSON.stringify(item)}`);
		ctx.say(`the wait resumed: task ${String(item.id)} ${String(item.status)}`);
	} finally {
		tasks.routeCallback = routeBefore;
		await n8n.stop();
	}
}
