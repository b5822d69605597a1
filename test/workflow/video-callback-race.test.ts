/**
 * Create and Wait, callback mode, under racing callbacks (issue 10 item 4):
 * whatever the order and concurrency of the callbacks reaching one n8n
 * process, each task is read at most once after it is final, each video is
 * downloaded exactly once, no callback is answered 5xx, exactly one callback
 * resumes the execution, and late callbacks get a 2xx or n8n's 409. With
 * several webhook processes (no memory shared) the bound is per process.
 * Scenarios: video-callback-race.ts.
 */
import type { RunResult } from '../harness';
import { WaitingWebhookServer } from '../harness/resume';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

import type { RaceFigures } from './video-callback-race';
import { RACE_SCENARIOS, runRace, startRace } from './video-callback-race';
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

const named = (list: typeof RACE_SCENARIOS) => list.map((scenario) => [scenario.name, scenario] as const);

function expectResumedWithVideos(done: RunResult) {
	expect(done.status).toBe('success');
	const out = done.output(VIDEO_NODE);
	expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
	for (const item of out) {
		expect(item.json).toMatchObject({ status: 'completed', waitInfo: { mode: 'callback', polls: 0 } });
		expect(item.binary?.data.mimeType).toBe('video/mp4');
	}
	expect(done.output('After')).toHaveLength(3);
}

/** The figures every scenario must meet, given at most `perTask` claims of the resume. */
function verdict(figures: RaceFigures, perTask: number) {
	return {
		readsAfterFinal: figures.readsAfterFinal.map((reads) => reads <= perTask),
		downloads: figures.downloads.map((count) => count >= 1 && count <= perTask),
		server5xx: figures.statuses.filter((status) => status >= 500),
		resumed: figures.resumed,
		lostResumeAtMost: figures.lostResume <= perTask - 1,
		late: figures.lateStatuses.map((status) => status === 409 || (status >= 200 && status < 300)),
	};
}

const MET = {
	readsAfterFinal: [true, true, true],
	downloads: [true, true, true],
	server5xx: [],
	resumed: 1,
	lostResumeAtMost: true,
	late: [true, true, true],
};

describe('Video → Create and Wait, callback mode: racing callbacks on one n8n process (workflow)', () => {
	it.each(named(RACE_SCENARIOS.filter((s) => !s.processes)))('%s', async (_name, scenario) => {
		const figures = await runRace(sim, n8n, scenario);
		expect(verdict(figures, 1)).toEqual(MET);
		expect(figures.downloads).toEqual([1, 1, 1]);
		expect(figures.lostResume).toBe(0);
		expectResumedWithVideos(figures.execution);
	});
});

describe('Video → Create and Wait, callback mode: racing callbacks on several webhook processes (workflow)', () => {
	it.each(named(RACE_SCENARIOS.filter((s) => s.processes)))(
		'%s: per process at most once',
		async (_name, scenario) => {
			const figures = await runRace(sim, n8n, scenario);
			expect(verdict(figures, scenario.processes!)).toEqual(MET);
			expectResumedWithVideos(figures.execution);
		},
	);
});

describe('Video → Create and Wait, callback mode: a gateway read failing while callbacks race (workflow)', () => {
	it('answers 503 with Retry-After, claims nothing, and the retried callback resumes', async () => {
		const race = await startRace(sim, n8n);
		for (const item of [0, 1, 2]) race.finish(item);
		// Task 1's callback was lost; task 0's callback must read it, and the gateway fails.
		sim.inject({
			path: `/v1/videos/${race.ids[1]}`,
			method: 'GET',
			times: 3,
			fault: { kind: 'status', status: 502 },
		});
		const [failed, concurrent] = await race.send([0, 2]);
		expect(failed).toMatchObject({ status: 503, resumed: false, headers: { 'retry-after': '30' } });
		expect(String((failed.body as { error: string }).error)).toMatch(
			new RegExp(`^Could not read video task ${race.ids[1]}: `),
		);
		// The concurrent callback shared that read: the same answer, no second read.
		expect(concurrent).toMatchObject({ status: 503, resumed: false });
		expect(sim.requestsTo(`/v1/videos/${race.ids[1]}`, 'GET')).toHaveLength(3);
		expect(
			sim.requestsTo(/^\/files\/videos\//, 'GET').filter((r) => race.ids.some((id) => r.path.includes(id))),
		).toHaveLength(0);

		const [retried] = await race.send([0]);
		expect(retried).toMatchObject({ status: 200, resumed: true, body: { received: true, resumed: true } });
		expectResumedWithVideos(retried.execution);
		expect(sim.requestsTo(`/v1/videos/${race.ids[1]}`, 'GET')).toHaveLength(4);
	});
});
