/**
 * Create and Wait, callback mode, under racing callbacks: whatever the
 * order and concurrency of the callbacks, and however the gateway's reads
 * lag behind them, no resume is lost: each task is read exactly once after
 * it is final (by a read a callback may rely on), each video is downloaded
 * once, no callback is answered 5xx but a deliberate 503 + Retry-After,
 * exactly one callback resumes the execution, and late callbacks get a 2xx
 * or n8n's 409. With several webhook processes (no memory shared) reads and
 * downloads are bounded per process. Forged callbacks resume nothing and
 * their addresses are never fetched. Scenarios: video-callback-race.ts.
 */
import type { RunResult } from '../harness';
import { WaitingWebhookServer } from '../harness/resume';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

import type { RaceFigures } from './video-callback-race';
import { FORGED_SCENARIO, RACE_SCENARIOS, runRace, startRace } from './video-callback-race';
import { VIDEO_NODE } from './video-callback-workflow';

useVirtualTime();

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

/** The figures every scenario must meet, given `processes` n8n processes serving the callbacks. */
function verdict(figures: RaceFigures, processes: number) {
	return {
		readsAfterFinal: figures.readsAfterFinal.map((reads) => reads >= 1 && reads <= processes),
		downloads: figures.downloads.map((count) => count >= 1 && count <= processes),
		// 503 + Retry-After is the one 5xx allowed: the gateway is asked to call again.
		server5xx: figures.statuses.filter((status) => status >= 500 && status !== 503),
		resumed: figures.resumed,
		lostResumes: figures.lostResumes,
		refusedResumeAtMost: figures.refusedResume <= processes - 1,
		late: figures.lateStatuses.map((status) => status === 409 || (status >= 200 && status < 300)),
	};
}

const MET = {
	readsAfterFinal: [true, true, true],
	downloads: [true, true, true],
	server5xx: [],
	resumed: 1,
	lostResumes: 0,
	refusedResumeAtMost: true,
	late: [true, true, true],
};

const singleProcess = RACE_SCENARIOS.filter((s) => !s.processes && !s.finalBeforeWait);

describe('Video → Create and Wait, callback mode: racing callbacks on one n8n process (workflow)', () => {
	it.each(named(singleProcess))('%s', async (_name, scenario) => {
		const figures = await runRace(sim, n8n, scenario);
		expect(verdict(figures, 1)).toEqual(MET);
		expect(figures.readsAfterFinal).toEqual([1, 1, 1]);
		expect(figures.downloads).toEqual([1, 1, 1]);
		expect(figures.refusedResume).toBe(0);
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

describe('Video → Create and Wait, callback mode: tasks final before the execution waits (workflow)', () => {
	it('every task final: the node reads each once and goes on without waiting', async () => {
		const scenario = RACE_SCENARIOS.find((s) => s.finalBeforeWait?.length === 3)!;
		const figures = await runRace(sim, n8n, scenario);
		expect(figures.readsAfterFinal).toEqual([1, 1, 1]);
		expect(figures.downloads).toEqual([1, 1, 1]);
		expect(figures.statuses).toEqual([]);
		expectResumedWithVideos(figures.execution);
	});

	it('two final before the wait (their callbacks lost to 409): the third callback resumes with all three', async () => {
		const scenario = RACE_SCENARIOS.find((s) => s.finalBeforeWait?.length === 2)!;
		const figures = await runRace(sim, n8n, scenario);
		expect(verdict(figures, 1)).toEqual(MET);
		// Tasks 0 and 1 were read as the wait began (final then), task 2 by its callback.
		expect(figures.readsAfterFinal).toEqual([1, 1, 1]);
		expect(figures.statuses).toEqual([200]);
		expectResumedWithVideos(figures.execution);
	});
});

describe('Video → Create and Wait, callback mode: forged callbacks (workflow)', () => {
	it('a "completed" body for a running task resumes nothing, is answered 503, and its URL is never fetched', async () => {
		const figures = await runRace(sim, n8n, FORGED_SCENARIO);
		expect(figures.resumed).toBe(0);
		expect(figures.forgedFetches).toBe(0);
		// Each forged callback read its task (still running) through the confirmation window and was
		// asked to call again, three times.
		expect(figures.statuses).toEqual(Array(9).fill(503));
		expect(figures.execution.status).toBe('waiting');
		expect(figures.downloads).toEqual([0, 0, 0]);
	});
});

describe('Video → Create and Wait, callback mode: a gateway read failing (workflow)', () => {
	it("answers 503 with Retry-After and claims nothing; the gateway's retry reads again and resumes", async () => {
		const race = await startRace(sim, n8n);
		for (const item of [0, 1, 2]) race.finish(item);
		const readsOf1 = () => sim.requestsTo(`/v1/videos/${race.ids[1]}`, 'GET').length;
		const videos = () =>
			sim.requestsTo(/^\/files\/videos\//, 'GET').filter((r) => race.ids.some((id) => r.path.includes(id)));
		const before = readsOf1();
		// Task 1's callback was lost; task 0's callback must read it, and the gateway fails 3 times.
		sim.inject({
			path: `/v1/videos/${race.ids[1]}`,
			method: 'GET',
			times: 3,
			fault: { kind: 'status', status: 502 },
		});
		const [failed, retried] = await race.send([0]);
		expect(failed).toMatchObject({ status: 503, resumed: false, headers: { 'retry-after': '30' } });
		expect(String((failed.body as { error: string }).error)).toMatch(
			new RegExp(`^Could not read video task ${race.ids[1]}: `),
		);
		expect(retried).toMatchObject({ status: 200, resumed: true, body: { received: true, resumed: true } });
		expectResumedWithVideos(retried.execution);
		// The transport's 3 attempts, then the retry's one read; each video downloaded once.
		expect(readsOf1() - before).toBe(4);
		expect(videos()).toHaveLength(3);
		const [late] = await race.send([2]);
		expect(late.status).toBe(409);
	});
});
