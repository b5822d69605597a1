/**
 * P2: polls made for a video task that completes 180 s after creation, and
 * how late the completion is seen. The simulator's task clock and the
 * poller's clock are the same simulated clock, so the run takes a moment;
 * the polls are real HTTP GET /v1/videos/{id} requests to the simulator.
 * Anchors: fixed 5 s polling (n8n Gemini node) 36 polls, fixed 10 s (n8n OpenAI node) 18.
 */
import { DEFAULT_WAIT_DEADLINE_MS, waitForAll } from '../../../nodes/shared/polling';
import type { Clock } from '../../../nodes/shared/time';
import { startSimulator } from '../../simulator';
import { videoTasks } from '../../simulator/video/tasks';

export const title = 'video polling: task completing after 180 s (simulated clock)';

const COMPLETES_AFTER_MS = 180_000;

export async function run(): Promise<Record<string, string | number>> {
	let now = 1_700_000_000_000;
	const clock: Clock = {
		now: () => now,
		sleep: async (ms) => {
			now += ms;
		},
	};
	const sim = await startSimulator();
	const tasks = videoTasks(sim);
	tasks.now = () => now;
	tasks.callbacksEnabled = false;
	try {
		const auth = { Authorization: `Bearer ${sim.keys.bearer}`, 'Content-Type': 'application/json' };
		const created = (await (
			await fetch(`${sim.url}/v1/videos`, {
				method: 'POST',
				headers: auth,
				body: JSON.stringify({
					model: 'vidA-2.5',
					prompt: `bench [after:${COMPLETES_AFTER_MS}]`,
					duration: 5,
				}),
			})
		).json()) as { id: string };
		const startedAt = now;
		const [outcome] = await waitForAll<{ status: string }>({
			tasks: [{ startedAt, deadlineMs: DEFAULT_WAIT_DEADLINE_MS }],
			read: async () => ({
				value: (await (await fetch(`${sim.url}/v1/videos/${created.id}`, { headers: auth })).json()) as {
					status: string;
				},
			}),
			isDone: (record) => ['completed', 'failed', 'cancelled', 'expired'].includes(record.status),
			clock,
		});
		if (outcome.kind !== 'done') throw new Error(`the wait ended ${outcome.kind}`);
		const result = outcome;
		const seenAfter = now - startedAt;
		const httpPolls = sim.requestsTo(`/v1/videos/${created.id}`, 'GET').length;
		return {
			'polls (target <= 12)': result.polls,
			'GET requests seen by the simulator': httpPolls,
			'completion seen after (s)': (seenAfter / 1000).toFixed(1),
			'detection delay (s, target <= 20)': ((seenAfter - COMPLETES_AFTER_MS) / 1000).toFixed(1),
			'fixed 5 s / 10 s polling would make': `${Math.ceil(COMPLETES_AFTER_MS / 5000)} / ${Math.ceil(COMPLETES_AFTER_MS / 10000)} polls`,
		};
	} finally {
		await sim.stop();
	}
}
