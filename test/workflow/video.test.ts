/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Workflow tests of Video → Create, Get, Wait for Completion and
 * Create and Wait (polling mode) run through n8n-core's engine against the
 * simulator over real HTTP, one test per terminal state.
 */
import type { WorkflowJson } from '../harness';
import { readBinary, runWorkflow, startWorkflow } from '../harness';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { videoTasks } from '../simulator/video/tasks';

useVirtualTime();

const NODE = 'Video';

function videoWorkflow(parameters: object, settings: object = {}): WorkflowJson {
	return {
		name: 'video test',
		nodes: [
			{
				id: 't',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'v',
				name: NODE,
				type: 'n8n-nodes-generation-gateway.generationGateway',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'video', ...parameters },
				credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
				...settings,
			} as WorkflowJson['nodes'][number],
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
	} as WorkflowJson;
}

const model = (value: string) => ({ __rl: true, mode: 'list', value });
const items = (prompts: string[]) => prompts.map((prompt) => ({ json: { prompt } }));
const createFields = {
	model: model('vidA-2.5'),
	prompt: '={{ $json.prompt }}',
	duration: 5,
	resolution: '720p',
};

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

describe('Video → Create (workflow)', () => {
	it('returns id, status and an https polling_url, and sends the assumed wire names', async () => {
		const result = await runWorkflow(
			videoWorkflow({
				operation: 'create',
				...createFields,
				firstFrameUrl: 'https://img.example.com/first.png',
				videoOptions: { seed: 42, cameraFixed: true, level: 4 },
			}),
			{ credentials: sim.credentials(), input: items(['a red fox']) },
		);
		expect(result.status).toBe('success');
		const [item] = result.output(NODE);
		expect(item.json.id).toMatch(/^video_/);
		expect(['pending', 'queue']).toContain(item.json.status);
		expect(String(item.json.polling_url)).toMatch(/^https:\/\/.+\/v1\/videos\//);
		const [request] = sim.requestsTo('/v1/videos', 'POST').slice(-1);
		expect(request.body).toEqual({
			model: 'vidA-2.5',
			prompt: 'a red fox',
			duration: 5,
			resolution: '720p',
			frame_images: [{ image_url: 'https://img.example.com/first.png', frame_type: 'first_frame' }],
			seed: 42,
			metadata: { camera_fixed: true, priority: 4 },
		});
	});

	it('refuses a bad combination before sending, naming the field', async () => {
		const before = sim.requestsTo('/v1/videos', 'POST').length;
		const result = await runWorkflow(
			videoWorkflow({ operation: 'create', ...createFields, resolution: '4K' }),
			{
				credentials: sim.credentials(),
				input: items(['x']),
			},
		);
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.message).toBe('Resolution: vidA-2.5 accepts 480p, 720p, 1080p');
		expect(sim.requestsTo('/v1/videos', 'POST').length).toBe(before);
	});

	it('never sends a create twice, even after a 500 (it may have arrived)', async () => {
		sim.inject({ path: '/v1/videos', method: 'POST', fault: { kind: 'status', status: 500 } });
		const before = sim.requestsTo('/v1/videos', 'POST').length;
		const result = await runWorkflow(videoWorkflow({ operation: 'create', ...createFields }), {
			credentials: sim.credentials(),
			input: items(['x']),
		});
		expect(result.status).toBe('error');
		expect(sim.requestsTo('/v1/videos', 'POST').length - before).toBe(1);
	});
});

describe('Video → Get and Wait for Completion (workflow)', () => {
	it('Get returns the record; Wait for Completion returns the completed record and downloads the video', async () => {
		const created = await runWorkflow(videoWorkflow({ operation: 'create', ...createFields }), {
			credentials: sim.credentials(),
			input: items(['a boat']),
		});
		const id = String(created.output(NODE)[0].json.id);
		const got = await runWorkflow(videoWorkflow({ operation: 'get', taskId: id }), {
			credentials: sim.credentials(),
		});
		expect(got.output(NODE)[0].json).toMatchObject({ id, model: 'vidA-2.5', prompt: 'a boat' });
		await new Promise((resolve) => setTimeout(resolve, 400));
		const waited = await runWorkflow(
			videoWorkflow({ operation: 'waitForCompletion', taskId: id, waitOptions: { download: true } }),
			{ credentials: sim.credentials() },
		);
		expect(waited.status).toBe('success');
		const [item] = waited.output(NODE);
		expect(item.json).toMatchObject({ id, status: 'completed', usage: { video_seconds: 5 } });
		expect(item.json.data).toEqual(videoTasks(sim).record(videoTasks(sim).tasks.get(id)!).data);
		expect(item.json.waitInfo).toMatchObject({ mode: 'polling', polls: 1 });
		expect(item.binary?.data.mimeType).toBe('video/mp4');
		expect((await readBinary(item.binary!.data)).subarray(4, 8).toString()).toBe('ftyp');
	});

	it('Get of an unknown id shows the gateway 404 with the id', async () => {
		const result = await runWorkflow(videoWorkflow({ operation: 'get', taskId: 'video_missing' }), {
			credentials: sim.credentials(),
		});
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.message).toContain('video_missing');
	});

	it('an empty Task ID is refused before any request', async () => {
		const result = await runWorkflow(videoWorkflow({ operation: 'get', taskId: ' ' }), {
			credentials: sim.credentials(),
		});
		expect(result.nodeError(NODE)?.message).toBe(
			'Task ID: must not be empty (use the id that Create returned)',
		);
	});
});

describe('Video → Create and Wait, polling (workflow)', () => {
	it('gives one result per item for every terminal state, with continue-on-fail', async () => {
		const result = await runWorkflow(
			videoWorkflow(
				{ operation: 'createAndWait', ...createFields, requestOptions: { maxConcurrency: 4 } },
				{ onError: 'continueRegularOutput' },
			),
			{ credentials: sim.credentials(), input: items(['ok', 'x [fail]', 'x [expire]', 'x [cancel]']) },
		);
		expect(result.status).toBe('success');
		const out = result.output(NODE);
		expect(out.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(out[0].json).toMatchObject({ status: 'completed', waitInfo: { mode: 'polling', polls: 1 } });
		for (const [index, status] of [
			[1, 'failed'],
			[2, 'expired'],
			[3, 'cancelled'],
		] as const) {
			expect(String(out[index].json.error)).toMatch(
				new RegExp(`^Video task video_\\S+ ended with status "${status}"$`),
			);
			// The record shown is the one the last poll read, and says where it comes from.
			const id = String(out[index].json.error).split(' ')[2];
			const task = videoTasks(sim).tasks.get(id)!;
			expect(out[index].json.errorDescription).toBe(
				`The gateway's record of the task, read with GET /v1/videos/${id}: ${JSON.stringify(videoTasks(sim).record(task))}`,
			);
		}
	});

	it('a 429 with Retry-After on a poll is waited out, not failed', async () => {
		sim.inject({
			path: /^\/v1\/videos\/.+/,
			method: 'GET',
			fault: { kind: 'status', status: 429, retryAfter: '1' },
		});
		const result = await runWorkflow(videoWorkflow({ operation: 'createAndWait', ...createFields }), {
			credentials: sim.credentials(),
			input: items(['rate limited']),
		});
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json.status).toBe('completed');
		const polls = sim.requestsTo(/^\/v1\/videos\/.+/, 'GET').slice(-2);
		expect(polls.map((p) => p.status)).toEqual([429, 200]);
		expect(polls[1].at - polls[0].at).toBeGreaterThanOrEqual(900);
	});

	it('a timeout names the task id and how to resume', async () => {
		const result = await runWorkflow(
			videoWorkflow({ operation: 'createAndWait', ...createFields, waitOptions: { timeoutMinutes: 0.02 } }),
			{ credentials: sim.credentials(), input: items(['long [after:600000]']) },
		);
		expect(result.status).toBe('error');
		const error = result.nodeError(NODE) as unknown as { message: string; description: string };
		expect(error.message).toMatch(/^Video task (video_\S+) did not finish within 1\.2 s/);
		const id = /video_\S+/.exec(error.message)![0];
		expect(error.description).toContain(`Wait for Completion with task ID ${id}`);
	});

	it('stops within a second when the execution is cancelled while waiting', async () => {
		const handle = startWorkflow(videoWorkflow({ operation: 'createAndWait', ...createFields }), {
			credentials: sim.credentials(),
			input: items(['long [after:600000]']),
		});
		await new Promise((resolve) => setTimeout(resolve, 500));
		const cancelledAt = Date.now();
		handle.cancel();
		const result = await handle.promise;
		expect(Date.now() - cancelledAt).toBeLessThan(1000);
		// n8n records the run as cancelled, or as failed with the node's "cancelled" error naming the task.
		if (result.status !== 'canceled') {
			expect(result.nodeError(NODE)?.message).toMatch(/^Waiting for video task video_\S+ was cancelled$/);
		}
	});
});
