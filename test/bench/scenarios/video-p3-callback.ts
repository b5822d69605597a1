/**
 * P3: Create and Wait in callback mode. Three items, tasks of 2-3 s; n8n is
 * the harness's https stand-in (test/harness/resume.ts), so the execution's
 * resume URL is https and the simulator's callbacks resume it. Reported: polls
 * made while waiting (reads of a task before any of its callbacks said it was
 * final; target 0), the reads made after final callbacks, and the worker time
 * held: time inside execute() plus time inside the webhook() calls (including
 * the resumed rest of the run), against the time the tasks took.
 */
import type { WorkflowJson } from '../../harness';
import { runWorkflow } from '../../harness';
import { WaitingWebhookServer } from '../../harness/resume';
import { startSimulator } from '../../simulator';
import { videoTasks } from '../../simulator/video/tasks';

export const title = 'video Create and Wait, callback mode: polls and worker time held';

const TASK_MS = [3000, 2000, 2500];

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator();
	const n8n = await WaitingWebhookServer.start(sim.credentials());
	try {
		const workflow = {
			name: 'p3',
			nodes: [
				{
					id: 's',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'p3-video-node',
					name: 'Video',
					type: 'n8n-nodes-generation-gateway.generationGateway',
					typeVersion: 1,
					position: [200, 0],
					parameters: {
						resource: 'video',
						operation: 'createAndWait',
						model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
						prompt: '={{ $json.prompt }}',
						duration: 5,
						requestOptions: { maxConcurrency: 3 },
						waitOptions: { mode: 'callback' },
					},
					credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
				},
			],
			connections: { Start: { main: [[{ node: 'Video', type: 'main', index: 0 }]] } },
		} as unknown as WorkflowJson;
		const started = Date.now();
		const waiting = await runWorkflow(workflow, {
			credentials: sim.credentials(),
			input: TASK_MS.map((ms, n) => ({ json: { prompt: `bench ${n} [after:${ms}]` } })),
			instanceBaseUrl: n8n.url,
		});
		const executeMs = Date.now() - started;
		n8n.track(waiting);
		const done = await n8n.finished(waiting.executionId, 20_000);
		const totalMs = Date.now() - started;
		const ids = waiting.output('Video').map((item) => String(item.json.id));
		const tasks = videoTasks(sim);
		let pollsWhileWaiting = 0;
		let readsAfterFinalCallbacks = 0;
		// Before the first task became final, no callback could have asked for a read.
		const firstFinal = Math.min(
			...ids.map((id) => tasks.tasks.get(id)!.createdAt + tasks.tasks.get(id)!.doneAfterMs),
		);
		for (const id of ids) {
			for (const read of sim.requestsTo(`/v1/videos/${id}`, 'GET')) {
				if (read.at < firstFinal) pollsWhileWaiting++;
				else readsAfterFinalCallbacks++;
			}
		}
		const mine = n8n.deliveries.filter((d) => d.executionId === waiting.executionId);
		const webhookMs = mine.reduce((sum, d) => sum + d.ms, 0);
		return {
			'execution status': `${waiting.status} -> ${done.status}`,
			'items (tasks)': ids.length,
			'polls while waiting (target 0)': pollsWhileWaiting,
			'gateway reads after final callbacks': readsAfterFinalCallbacks,
			'callbacks received (non-final answered 200)': mine.length,
			'worker time in execute() (ms)': executeMs,
			'worker time in webhook() calls incl. resumed run (ms)': webhookMs,
			'longest task (ms)': Math.max(...TASK_MS),
			'execution start to end (ms)': totalMs,
			'worker time held / wall time': `${(((executeMs + webhookMs) / totalMs) * 100).toFixed(1)} %`,
		};
	} finally {
		await n8n.stop();
		await sim.stop();
	}
}
