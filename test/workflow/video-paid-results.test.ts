/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Nothing paid for is lost: a run of Video → Create or Create and Wait that
 * fails never leaves tasks nobody can find. Every item is checked before the
 * first create; a failure after some tasks were created names every one of
 * them (ids and items) with what to run next; a video that cannot be
 * downloaded leaves the task id, the gateway's record and its address. A
 * download is a read: a host that fails once is asked again, one that
 * trickles is stopped at the total deadline, and Stop ends it at once.
 */
import type { WorkflowJson } from '../harness';
import { runWorkflow, startWorkflow } from '../harness';
import { until } from '../harness/until';
import { WaitingWebhookServer } from '../harness/resume';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { videoTasks } from '../simulator/video/tasks';

import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

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
afterEach(() => sim.clearFaults());

/**
 * Makes the second video create of the run meet a 500 (it may have been done: not retried), the
 * first and later ones pass; returns what puts the simulator back.
 */
function failSecondCreate(): () => void {
	let calls = 0;
	const original = sim.takeFault.bind(sim);
	sim.takeFault = (method, path, kinds) => {
		if (method === 'POST' && path === '/v1/videos' && ++calls === 2) return { kind: 'status', status: 500 };
		return original(method, path, kinds);
	};
	return () => (sim.takeFault = original);
}

const creates = () => sim.requestsTo('/v1/videos', 'POST').length;
/** Item 1's Resolution is refused by vidA-2.5 (it accepts 480p, 720p, 1080p). */
const resolutionOf = '={{ $json.n === 1 ? "4K" : "720p" }}';

type Mode = 'callback' | 'polling';
const MODES: Array<[Mode, string | undefined]> = [
	['callback', undefined], // https resume URL: the harness's waiting-webhook server
	['polling', 'http://localhost:5678'],
];

function run(workflow: WorkflowJson, prompts: string[], baseUrl: string | undefined) {
	return runWorkflow(workflow, {
		credentials: sim.credentials(),
		input: promptItems(prompts),
		instanceBaseUrl: baseUrl ?? n8n.url,
	});
}

describe('Video: every item is checked before the first create (workflow)', () => {
	it.each(MODES)(
		'Create and Wait, %s mode: a refused item 1 fails the run before any task exists',
		async (_mode, baseUrl) => {
			const before = creates();
			const result = await run(
				videoCallbackWorkflow({ resolution: resolutionOf }),
				['ok [after:300]', 'refused', 'ok too [after:300]'],
				baseUrl,
			);
			expect(result.status).toBe('error');
			expect(result.nodeError(VIDEO_NODE)?.message).toBe('Resolution: vidA-2.5 accepts 480p, 720p, 1080p');
			expect(creates()).toBe(before);
		},
	);

	it('Create: the same, no task created', async () => {
		const before = creates();
		const result = await run(
			videoCallbackWorkflow({ operation: 'create', resolution: resolutionOf }),
			['ok', 'refused'],
			undefined,
		);
		expect(result.status).toBe('error');
		expect(creates()).toBe(before);
	});

	it.each(MODES)(
		'Create and Wait, %s mode, continue-on-fail: the refused item keeps its error, the others are created and finish',
		async (mode, baseUrl) => {
			const result = await run(
				videoCallbackWorkflow({ resolution: resolutionOf }, { onError: 'continueRegularOutput' }),
				['ok [after:300]', 'refused', 'ok too [after:300]'],
				baseUrl,
			);
			const done =
				result.status === 'waiting' ? (n8n.track(result), await n8n.finished(result.executionId)) : result;
			expect(done.status).toBe('success');
			const out = done.output(VIDEO_NODE);
			expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
			expect(out[0].json).toMatchObject({ status: 'completed', waitInfo: { mode } });
			expect(out[1].json.error).toBe('Resolution: vidA-2.5 accepts 480p, 720p, 1080p');
			expect(out[2].json).toMatchObject({ status: 'completed', waitInfo: { mode } });
		},
	);
});

describe('Video: a run that fails after creating tasks names every one of them (workflow)', () => {
	it.each(MODES)(
		'Create and Wait, %s mode: item 1 create fails (500) after item 0 was created',
		async (_mode, baseUrl) => {
			// Item 0's create succeeds; item 1's meets a 500 (it may have been done: not retried).
			const restore = failSecondCreate();
			try {
				const before = creates();
				const result = await run(
					videoCallbackWorkflow({ requestOptions: { maxConcurrency: 1 } }),
					['first [after:200]', 'second [after:200]', 'third [after:200]'],
					baseUrl,
				);
				expect(result.status).toBe('error');
				// The third item is not sent once the second failed.
				expect(creates() - before).toBe(2);
				const firstId = [...videoTasks(sim).tasks.values()].at(-1)!.id;
				const error = result.nodeError(VIDEO_NODE)!;
				expect(error.message).toMatch(/500/);
				expect(String(error.description)).toContain(
					`Before it failed, this run created the video task ${firstId} (item 0): it keeps running at the gateway and is charged. Get its video with Video → Wait for Completion and this task ID`,
				);
				// The create's own advice (it may have been done and charged) is kept.
				expect(String(error.description)).toMatch(/may (exist|have)/);
			} finally {
				restore();
			}
		},
	);

	it.each(MODES)(
		'Create and Wait, %s mode, continue-on-fail: the failed create keeps its advice (it may exist and be charged) in the final output',
		async (mode, baseUrl) => {
			const restore = failSecondCreate();
			try {
				const started = await run(
					videoCallbackWorkflow(
						{ requestOptions: { maxConcurrency: 1 } },
						{ onError: 'continueRegularOutput' },
					),
					['first [after:200]', 'second [after:200]'],
					baseUrl,
				);
				const done =
					mode === 'callback' ? (n8n.track(started), await n8n.finished(started.executionId)) : started;
				expect(done.status).toBe('success');
				const [first, second] = done.output(VIDEO_NODE);
				expect(first.json.status).toBe('completed');
				expect(String(second.json.error)).toMatch(/may have done this work and charged for it/);
				expect(String(second.json.errorDescription)).toMatch(/A task may exist and be charged: look it up/);
				expect(second.pairedItem).toEqual({ item: 1 });
			} finally {
				restore();
			}
		},
	);

	it('Create: item 1 fails after item 0 was created; the error names item 0 task', async () => {
		const restore = failSecondCreate();
		try {
			const result = await run(
				videoCallbackWorkflow({ operation: 'create', requestOptions: { maxConcurrency: 1 } }),
				['first', 'second'],
				undefined,
			);
			expect(result.status).toBe('error');
			const firstId = [...videoTasks(sim).tasks.values()].at(-1)!.id;
			expect(String(result.nodeError(VIDEO_NODE)?.description)).toContain(`video task ${firstId} (item 0)`);
		} finally {
			restore();
		}
	});
});

describe('Video: a video that cannot be downloaded keeps its task (workflow)', () => {
	const missingVideo = () =>
		sim.inject({
			path: /^\/files\/videos\//,
			method: 'GET',
			times: 50,
			fault: { kind: 'status', status: 404 },
		});

	it('callback mode: the item keeps the task id, the gateway record and the video address beside the error', async () => {
		missingVideo();
		const waiting = await run(
			videoCallbackWorkflow({ waitOptions: { download: true } }),
			['clip [after:300]'],
			undefined,
		);
		n8n.track(waiting);
		const done = await n8n.finished(waiting.executionId);
		expect(done.status).toBe('success');
		const [item] = done.output(VIDEO_NODE);
		const id = String(waiting.output(VIDEO_NODE)[0].json.id);
		expect(item.json).toMatchObject({
			id,
			status: 'completed',
			data: { url: `${sim.url}/files/videos/${id}.mp4` },
			waitInfo: { mode: 'callback' },
		});
		expect(String(item.json.error)).toContain(id);
		expect(item.binary).toBeUndefined();
	});

	it('polling mode: the node error names the task id and what to run next', async () => {
		missingVideo();
		const result = await run(
			videoCallbackWorkflow({ waitOptions: { download: true, mode: 'polling' } }),
			['clip [after:300]'],
			undefined,
		);
		expect(result.status).toBe('error');
		const id = [...videoTasks(sim).tasks.values()].at(-1)!.id;
		const error = result.nodeError(VIDEO_NODE)!;
		expect(`${error.message} ${String(error.description)}`).toContain(id);
		expect(String(error.description)).toMatch(/Wait for Completion|Video → Get/);
	});
});

describe('Video: a download is retried, bounded and stopped like a read (workflow)', () => {
	const downloads = () => sim.requests.filter((r) => r.path.startsWith('/files/videos/')).length;
	const fileFault = (fault: Parameters<Simulator['inject']>[0]['fault']) =>
		sim.inject({ path: /^\/files\/videos\//, method: 'GET', fault });

	it.each(
		MODES.flatMap(([mode, baseUrl]) => [
			[mode, 'a 503', baseUrl, { kind: 'status', status: 503 }] as const,
			[mode, 'a dropped connection', baseUrl, { kind: 'drop' }] as const,
			[mode, 'a body cut short', baseUrl, { kind: 'cut-after', bytes: 10 }] as const,
		]),
	)(
		'%s mode: after %s the video is downloaded again and arrives whole',
		async (mode, _what, baseUrl, fault) => {
			fileFault(fault);
			const before = downloads();
			const started = await run(
				videoCallbackWorkflow({ waitOptions: { download: true } }),
				['clip [after:300]'],
				baseUrl,
			);
			const done =
				mode === 'callback' ? (n8n.track(started), await n8n.finished(started.executionId)) : started;
			expect(done.status).toBe('success');
			const [item] = done.output(VIDEO_NODE);
			expect(item.json).toMatchObject({ status: 'completed', waitInfo: { mode } });
			expect(item.json.error).toBeUndefined();
			expect(item.binary?.data).toMatchObject({
				mimeType: 'video/mp4',
				fileName: `${String(item.json.id)}.mp4`,
			});
			expect(downloads() - before).toBe(2);
		},
	);

	it('polling mode: a host trickling bytes is stopped at the total deadline (10 x Request Timeout); the error names the task', async () => {
		fileFault({ kind: 'trickle', bytes: 1, everyMs: 400 });
		const result = await run(
			videoCallbackWorkflow({
				waitOptions: { download: true, mode: 'polling' },
				requestOptions: { maxConcurrency: 1, timeoutSeconds: 1 },
			}),
			['clip [after:300]'],
			undefined,
		);
		expect(result.status).toBe('error');
		const id = [...videoTasks(sim).tasks.values()].at(-1)!.id;
		const error = result.nodeError(VIDEO_NODE)!;
		expect(error.message).toMatch(
			new RegExp(
				`^Could not download the video of task ${id} from http://127\\.0\\.0\\.1:\\d+/files/videos/${id}\\.mp4: it took longer than 10 s in all \\(10 x Request Timeout\\), after \\d+ bytes$`,
			),
		);
		expect(String(error.description)).toContain(`Video → Wait for Completion with task ID ${id}`);
	});

	it('polling mode: Stop while the video trickles in ends the execution within a second or so', async () => {
		fileFault({ kind: 'trickle', bytes: 1, everyMs: 400 });
		const before = downloads();
		const handle = startWorkflow(
			videoCallbackWorkflow({ waitOptions: { download: true, mode: 'polling' } }),
			{
				credentials: sim.credentials(),
				input: promptItems(['clip [after:300]']),
				instanceBaseUrl: 'http://localhost:5678',
			},
		);
		await until(() => downloads() > before, 'the download to begin', { timeoutMs: 20_000 });
		await new Promise((resolve) => setTimeout(resolve, 300));
		const stoppedAt = Date.now();
		handle.cancel();
		const result = await handle.promise;
		expect(Date.now() - stoppedAt).toBeLessThan(1500);
		if (result.status !== 'canceled') {
			expect(result.nodeError(VIDEO_NODE)?.message).toMatch(/: the execution was stopped$/);
		}
		expect(downloads() - before).toBe(1);
	});
});
