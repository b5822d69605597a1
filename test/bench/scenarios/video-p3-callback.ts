/**
 * P3: waiting through the task callback instead of polling. A workflow runs
 * Video → Create with the Callback URL of a Generation Gateway Trigger (a
 * local https stand-in for n8n with the test-only certificate); the gateway
 * calls back on each status change and the trigger starts the follow-up
 * workflow. Reported: polls made while waiting (GET /v1/videos/{id} other
 * than the trigger's one confirmation read) and the time a worker was held.
 */
import type { WorkflowJson } from '../../harness';
import { runWorkflow } from '../../harness';
import { callWebhook } from '../../harness/resume';
import { startSimulator } from '../../simulator';
import { startHttpsReceiver } from '../../simulator/video/https';
import { videoTasks } from '../../simulator/video/tasks';

export const title = 'video callback wait: 0 polls, no worker held';

const SECRET = 'bench-secret-123';
const TASK_MS = 2000;

const node = (name: string, type: string, parameters: object, extra: object = {}) => ({
	id: name,
	name,
	type,
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters,
	credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
	...extra,
});

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	const trigger = {
		name: 'trigger',
		nodes: [
			node(
				'Finished',
				'n8n-nodes-generation-gateway.generationGatewayTrigger',
				{ secret: SECRET },
				{ webhookId: 'bench' },
			),
		],
		connections: {},
	} as unknown as WorkflowJson;
	let finishedAt = 0;
	const receiver = await startHttpsReceiver(async ({ query, body }) => {
		const answer = await callWebhook(trigger, 'Finished', { body, query, credentials: sim.credentials() });
		if (answer.result.workflowData) finishedAt = Date.now();
		return answer.response ?? { status: 200 };
	});
	try {
		const create = {
			name: 'create',
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', {}, { credentials: undefined }),
				node('Create', 'n8n-nodes-generation-gateway.generationGateway', {
					resource: 'video',
					operation: 'create',
					model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
					prompt: `bench [after:${TASK_MS}]`,
					duration: 5,
					videoOptions: { callbackUrl: `${receiver.url}/webhook/bench/video-task?secret=${SECRET}` },
				}),
			],
			connections: { Start: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } },
		} as unknown as WorkflowJson;
		const started = Date.now();
		const result = await runWorkflow(create, { credentials: sim.credentials() });
		const heldMs = Date.now() - started;
		const id = String(result.output('Create')[0]?.json.id);
		const deadline = Date.now() + 15_000;
		while (!finishedAt && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
		const reads = sim.requestsTo(`/v1/videos/${id}`, 'GET');
		const byCreate = reads.filter((r) => r.at <= started + heldMs).length;
		return {
			'polls by the creating workflow (target 0)': byCreate,
			'confirmation reads by the trigger': reads.length - byCreate,
			'callbacks delivered': videoTasks(sim).deliveries.filter((d) => d.id === id).length,
			'worker time held by the creating workflow (ms)': heldMs,
			'task length (ms)': TASK_MS,
			'finished workflow started after creation (ms)': finishedAt ? finishedAt - started : 'never',
		};
	} finally {
		await receiver.stop();
		await sim.stop();
	}
}
