/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Demo steps for examples/video-trigger.json: a local https "n8n" (the
 * test-only self-signed certificate) receives the simulator's task callbacks
 * and hands each one to the trigger's webhook(), as n8n's webhook server
 * would; an accepted delivery runs the rest of the workflow.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { callWebhook } from '../../harness/resume';
import { startHttpsReceiver } from '../../simulator/video/https';
import { videoTasks } from '../../simulator/video/tasks';
import type { DemoContext } from '../run-demo';

const TRIGGER = 'Video Task Finished';

export async function run(ctx: DemoContext, workflow: WorkflowJson): Promise<void> {
	const trigger = workflow.nodes.find((n) => n.name === TRIGGER)!;
	const secret = String(trigger.parameters.secret);
	let staticData = {};
	let emitted: INodeExecutionData[] | undefined;
	const receiver = await startHttpsReceiver(async ({ query, body }) => {
		const answer = await callWebhook(workflow, TRIGGER, {
			body,
			query,
			credentials: ctx.sim.credentials(),
			staticData,
		});
		staticData = answer.staticData;
		const status = (body as { status?: string })?.status;
		if (answer.result.workflowData) {
			emitted = answer.result.workflowData[0];
			ctx.say(`callback "${status}": accepted, starting the workflow`);
		} else ctx.say(`callback "${status}": answered ${JSON.stringify(answer.response?.body)}`);
		return answer.response ?? { status: 200, body: answer.result.webhookResponse };
	});
	try {
		const callbackUrl = `${receiver.url}/webhook/${trigger.webhookId}/video-task?secret=${encodeURIComponent(secret)}`;
		const create = await fetch(`${ctx.sim.url}/v1/videos`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${ctx.sim.keys.bearer}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({
				model: 'vidA-2.5',
				prompt: 'A lighthouse at dusk',
				duration: 5,
				callback_url: callbackUrl,
			}),
		});
		const task = (await create.json()) as { id: string };
		ctx.say(`created task ${task.id} with callback ${callbackUrl.replace(secret, '<secret>')}`);
		const deadline = Date.now() + 10_000;
		while (!emitted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
		if (!emitted) throw new Error('no callback started the workflow within 10 s');
		ctx.say(
			`deliveries: ${videoTasks(ctx.sim)
				.deliveries.map((d) => `${d.status}->${d.httpStatus}`)
				.join(', ')}`,
		);
		// Run the rest of the workflow with the trigger's output, the trigger standing as the start node.
		const run = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
		const start = run.nodes.find((n) => n.name === TRIGGER)!;
		Object.assign(start, { type: 'n8n-nodes-base.manualTrigger', parameters: {}, credentials: undefined });
		await ctx.run(run, 'workflow after the callback', emitted);
	} finally {
		await receiver.stop();
	}
}
