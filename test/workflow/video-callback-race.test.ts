/**
 * Create and Wait, callback mode, under racing callbacks (issue 10 item 4):
 * whatever the order and concurrency of the callbacks, each task is read at
 * most once after it is final, each video is downloaded exactly once, no
 * callback is answered 5xx, exactly one callback resumes the execution, and
 * late callbacks get a 2xx or n8n's 409. Scenarios: video-callback-race.ts.
 */
import { WaitingWebhookServer } from '../harness/resume';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

import { RACE_SCENARIOS, runRace } from './video-callback-race';
import { VIDEO_NODE } from './video-callback-workflow';

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

describe('Video → Create and Wait, callback mode: racing callbacks (workflow)', () => {
	it.each(RACE_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
		'%s',
		async (_name, scenario) => {
			const figures = await runRace(sim, n8n, scenario);
			expect({
				readsAfterFinal: figures.readsAfterFinal.map((reads) => reads <= 1),
				downloads: figures.downloads,
				server5xx: figures.statuses.filter((status) => status >= 500),
				resumed: figures.resumed,
				lostResume: figures.lostResume,
				late: figures.lateStatuses.map((status) => status === 409 || (status >= 200 && status < 300)),
			}).toEqual({
				readsAfterFinal: [true, true, true],
				downloads: [1, 1, 1],
				server5xx: [],
				resumed: 1,
				lostResume: 0,
				late: [true, true, true],
			});
			const done = figures.execution;
			expect(done.status).toBe('success');
			const out = done.output(VIDEO_NODE);
			expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
			for (const item of out) {
				expect(item.json).toMatchObject({ status: 'completed', waitInfo: { mode: 'callback', polls: 0 } });
				expect(item.binary?.data.mimeType).toBe('video/mp4');
			}
			expect(done.output('After')).toHaveLength(3);
		},
	);
});
