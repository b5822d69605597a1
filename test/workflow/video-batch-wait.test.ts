/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * A batch waits as long as its slowest task: Video → Create and Wait
 * (polling) and Wait for Completion over several items, through n8n-core's
 * engine against the simulator over real HTTP. Every create goes out first;
 * then every task waits at once, each on its own schedule and deadline,
 * with its own outcome; reads and downloads share Max Concurrent Requests.
 */
import type { IDataObject } from 'n8n-workflow';

import { readBinary, runWorkflow, startWorkflow } from '../harness';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { videoTasks } from '../simulator/video/tasks';

import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

useVirtualTime();

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

/** Create and Wait by polling, Max Concurrent Requests 1 (the default) unless given. */
function polling(parameters: object = {}, settings: object = {}) {
	return videoCallbackWorkflow(
		{ waitOptions: { mode: 'polling' }, requestOptions: {}, ...parameters },
		settings,
	);
}

const run = (workflow: ReturnType<typeof polling>, prompts: string[]) =>
	runWorkflow(workflow, { credentials: sim.credentials(), input: promptItems(prompts) });

const taskReads = (id: string) => sim.requestsTo(`/v1/videos/${id}`, 'GET');
const requestsSince = (from: number) =>
	sim.requests.slice(from).filter((r) => r.path.startsWith('/v1/videos'));

describe('Video → Create and Wait, polling: the batch waits together', () => {
	it('sends every create first, then reads the tasks side by side; order and pairing kept', async () => {
		const from = sim.requests.length;
		// 6 s, 1 s and 3 s: one slot, yet the short tasks are not read only after the long one ends.
		const result = await run(polling({ waitOptions: { mode: 'polling', download: true } }), [
			'long [after:6000]',
			'short [after:1000]',
			'mid [after:3000]',
		]);
		expect(result.status).toBe('success');
		const out = result.output(VIDEO_NODE);
		expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		expect(out.map((item) => item.json.prompt)).toEqual([
			'long [after:6000]',
			'short [after:1000]',
			'mid [after:3000]',
		]);
		for (const item of out) {
			expect(item.json).toMatchObject({ status: 'completed', waitInfo: { mode: 'polling' } });
			expect((await readBinary(item.binary!.data)).length).toBeGreaterThan(0);
		}
		const seen = requestsSince(from);
		const creates = seen.filter((r) => r.method === 'POST' && r.path === '/v1/videos');
		const firstRead = seen.findIndex((r) => r.method === 'GET');
		expect(creates).toHaveLength(3);
		expect(seen.slice(0, 3).every((r) => r.method === 'POST')).toBe(true);
		expect(firstRead).toBe(3);
		// Every task is read 5 s after its create: the long task's first read does not wait for the others.
		const ids = out.map((item) => String(item.json.id));
		const firstReads = ids.map((id) => taskReads(id)[0].at);
		expect(Math.max(...firstReads) - Math.min(...firstReads)).toBeLessThan(2_000);
		// Short tasks are done at their first read (5 s); the long one needs a second (12.5 s).
		expect(ids.map((id) => taskReads(id).length)).toEqual([2, 1, 1]);
		expect(out.map((item) => (item.json.waitInfo as IDataObject).polls)).toEqual([2, 1, 1]);
	});

	it('continue-on-fail: a failed task is its error item; the others complete', async () => {
		const result = await run(polling({}, { onError: 'continueRegularOutput' }), ['ok', 'x [fail]', 'ok too']);
		expect(result.status).toBe('success');
		const out = result.output(VIDEO_NODE);
		expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		expect(out[0].json.status).toBe('completed');
		expect(String(out[1].json.error)).toMatch(/^Video task video_\S+ ended with status "failed"$/);
		expect(out[2].json.status).toBe('completed');
	});

	it('continue-on-fail off: the node fails once every task settled, naming the completed ones with their records', async () => {
		const from = sim.requests.length;
		const result = await run(polling(), ['x [fail]', 'ok [after:2000]', 'ok [after:6000]']);
		expect(result.status).toBe('error');
		const error = result.nodeError(VIDEO_NODE) as unknown as {
			message: string;
			description: string;
			context: { completedTasks: Array<{ itemIndex: number; taskId: string; record: IDataObject }> };
		};
		expect(error.message).toMatch(/^Video task video_\S+ ended with status "failed"$/);
		const created = requestsSince(from).filter((r) => r.method === 'POST');
		expect(created).toHaveLength(3);
		const ids = [...videoTasks(sim).tasks.values()].slice(-3).map((task) => task.id);
		// The long task was waited for although item 0 had failed at its first read: read until it
		// completed (its record is among the completed tasks below). Once on a loaded machine, whose
		// first read came after the task had ended; twice on a quiet one.
		expect(taskReads(ids[2]).length).toBeGreaterThanOrEqual(1);
		expect(error.context.completedTasks.map((task) => [task.itemIndex, task.taskId])).toEqual([
			[1, ids[1]],
			[2, ids[2]],
		]);
		expect(error.context.completedTasks[0].record).toMatchObject({ id: ids[1], status: 'completed' });
		expect(error.description).toContain(
			`2 video tasks ${ids[1]} (item 1), ${ids[2]} (item 2) completed before the run failed`,
		);
		expect(error.description).toContain(JSON.stringify(error.context.completedTasks[1].record));
	});

	it("one task's Wait Timeout ends its wait only; the others complete", async () => {
		const result = await run(
			polling(
				{ waitOptions: { mode: 'polling', timeoutMinutes: '={{ $json.n === 0 ? 0.1 : 15 }}' } },
				{
					onError: 'continueRegularOutput',
				},
			),
			['long [after:600000]', 'ok [after:1000]'],
		);
		expect(result.status).toBe('success');
		const out = result.output(VIDEO_NODE);
		expect(String(out[0].json.error)).toMatch(
			/^Video task video_\S+ did not finish within 6 s \(last status: in_progress\)$/,
		);
		expect(out[0].json.errorDescription).toMatch(/Wait for Completion with task ID video_\S+/);
		expect(out[1].json.status).toBe('completed');
	});

	it('a read answered 429 pauses the round and fails no task', async () => {
		sim.inject({
			path: /^\/v1\/videos\/.+/,
			method: 'GET',
			fault: { kind: 'status', status: 429, retryAfter: '1' },
		});
		const result = await run(polling(), ['a', 'b', 'c']);
		expect(result.status).toBe('success');
		const out = result.output(VIDEO_NODE);
		expect(out.map((item) => item.json.status)).toEqual(['completed', 'completed', 'completed']);
		const reads = sim.requestsTo(/^\/v1\/videos\/.+/, 'GET').slice(-4);
		expect(reads.map((read) => read.status)).toEqual([429, 200, 200, 200]);
		// Nothing was read during the second the gateway asked for.
		expect(reads[1].at - reads[0].at).toBeGreaterThanOrEqual(900);
	});

	it('Stop during the wait ends every task wait within a second', async () => {
		const handle = startWorkflow(polling(), {
			credentials: sim.credentials(),
			input: promptItems(['long [after:600000]', 'long [after:600000]', 'long [after:600000]']),
		});
		await new Promise((resolve) => setTimeout(resolve, 6_000));
		const cancelledAt = Date.now();
		handle.cancel();
		const result = await handle.promise;
		expect(Date.now() - cancelledAt).toBeLessThan(1000);
		if (result.status !== 'canceled') {
			expect(result.nodeError(VIDEO_NODE)?.message).toMatch(
				/^Waiting for video task video_\S+ was cancelled$/,
			);
		}
	});
});

describe('Video → Wait for Completion over many items', () => {
	it('reads every task at once, then waits for the unfinished ones together', async () => {
		const tasks = videoTasks(sim);
		const ids = [tasks.create({ model: 'vidA-2.5', prompt: 'done [after:0]' }).id];
		ids.push(tasks.create({ model: 'vidA-2.5', prompt: 'soon [after:3000]' }).id);
		ids.push(tasks.create({ model: 'vidA-2.5', prompt: 'x [fail]' }).id);
		await new Promise((resolve) => setTimeout(resolve, 400));
		const workflow = videoCallbackWorkflow(
			{ operation: 'waitForCompletion', taskId: '={{ $json.prompt }}', requestOptions: {} },
			{ onError: 'continueRegularOutput' },
		);
		const result = await runWorkflow(workflow, {
			credentials: sim.credentials(),
			input: promptItems(ids),
		});
		expect(result.status).toBe('success');
		const out = result.output(VIDEO_NODE);
		expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		expect(out[0].json).toMatchObject({ id: ids[0], status: 'completed', waitInfo: { polls: 1 } });
		expect(out[1].json).toMatchObject({ id: ids[1], status: 'completed', waitInfo: { polls: 2 } });
		expect(String(out[2].json.error)).toBe(`Video task ${ids[2]} ended with status "failed"`);
		const firstReads = ids.map((id) => taskReads(id)[0].at);
		expect(Math.max(...firstReads) - Math.min(...firstReads)).toBeLessThan(1_000);
	});
});
