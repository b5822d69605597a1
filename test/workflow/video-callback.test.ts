/**
 * Create and Wait, callback mode: the execution waits (no worker, no polls)
 * and is resumed by the gateway's https callbacks through n8n's
 * waiting-webhook path (test/harness/resume.ts), for every item.
 */
import {
	CONFIRMATIONS_AT_ONCE,
	FIRST_READ_BOUND_MS,
	RETRY_AFTER_SECONDS as CALLBACK_RETRY_AFTER_SECONDS,
} from '../../nodes/shared/waitClocks';
import { AUTO_CALLBACK_MAX_TASKS } from '../../nodes/GenerationGateway/actions/video/options';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';

import { runWorkflow, until } from '../harness';
import { ensureContainer } from '../harness/container';
import { WaitingWebhookServer, deliverToWaiting } from '../harness/resume';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { videoTasks } from '../simulator/video/tasks';

import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

const NODE = VIDEO_NODE;
const workflow = videoCallbackWorkflow;
const items = promptItems;
const polls = (ids: string[]) =>
	ids.reduce((sum, id) => sum + sim.requestsTo(`/v1/videos/${id}`, 'GET').length, 0);

useVirtualTime();

let sim: Simulator;
let n8n: WaitingWebhookServer;
beforeAll(async () => {
	sim = await startSimulator();
	// Thousands of callbacks: one TLS handshake per connection kept, not per callback.
	videoTasks(sim).keepConnections = true;
	n8n = await WaitingWebhookServer.start(sim.credentials());
});
// A row's kept connections end with it: hundreds of idle ones would weigh on every later row (virtual
// time looks at each open socket before each step).
afterEach(() => videoTasks(sim).closeIdleConnections());
afterAll(async () => {
	await n8n.stop();
	await sim.stop();
});

/**
 * Runs `body` with the simulator's clock stopped at its start: no task ends, however long the creates
 * take on a busy machine, until `body` moves the clock (`advance(ms)`: to `ms` after the start).
 */
async function withStoppedClock<T>(body: (advance: (ms: number) => void) => Promise<T>): Promise<T> {
	const clock = videoTasks(sim).stopClock();
	try {
		return await body(clock.advance);
	} finally {
		clock.release();
	}
}

async function startWaiting(prompts: string[], parameters: object = {}, settings: object = {}) {
	const result = await runWorkflow(workflow(parameters, settings), {
		credentials: sim.credentials(),
		input: items(prompts),
		instanceBaseUrl: n8n.url,
	});
	n8n.track(result);
	return result;
}

describe('Video → Create and Wait, callback mode (workflow)', () => {
	it('waits without polling and resumes once all 3 tasks called back, order and pairing kept', async () => {
		// The simulator's clock is the test's: each task ends when the test moves the clock past its
		// [after:] time, and the next step waits for that callback's answer (the gateway reads it
		// caused are done by then), so the reads below do not depend on the machine's speed.
		await withStoppedClock(resumesOnceAllCalledBack);
	});

	/** `setClock(ms)` moves the simulator's clock to `ms` after the tasks' creation. */
	async function resumesOnceAllCalledBack(setClock: (ms: number) => void) {
		const answered = (id: string, status: string) =>
			videoTasks(sim).deliveries.some(
				(d) => d.id === id && d.status === status && d.httpStatus !== undefined,
			);
		const waiting = await startWaiting(['slow [after:1200]', 'fast [after:500]', 'mid [after:800]']);
		expect(waiting.status).toBe('waiting');
		expect(waiting.waitTill!.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
		const created = waiting.output(NODE);
		const ids = created.map((item) => String(item.json.id));
		expect(created.map((item) => item.json.waitInfo)).toEqual(
			ids.map(() => expect.objectContaining({ mode: 'callback', state: 'waiting' })),
		);
		const posted = sim.requestsTo('/v1/videos', 'POST').slice(-3);
		for (const request of posted) {
			expect((request.body as { callback_url: string }).callback_url).toMatch(
				new RegExp(`^${n8n.url}/webhook-waiting/${waiting.executionId}/video-wait\\?signature=\\w+`),
			);
		}
		// One read of each task as the wait begins (a task may have ended before n8n saved the
		// execution as waiting, and its callback would then be lost), then none until a final callback.
		expect(polls(ids)).toBe(3);
		const [slow, fast, mid] = ids;
		setClock(100); // all three in progress
		await until(() => ids.every((id) => answered(id, 'in_progress')), 'the in_progress callbacks');
		expect(polls(ids)).toBe(3);
		// A final callback reads its own task (a read that began after it arrived: never a callback
		// body), then the others in item order, stopping at the first one still running.
		setClock(500); // fast ends: reads fast (completed), then slow (running)
		await until(() => answered(fast, 'completed'), 'the answer to the completed callback of "fast"');
		expect(polls(ids)).toBe(5);
		setClock(800); // mid ends: reads mid (completed), then slow (running); fast is known final
		await until(() => answered(mid, 'completed'), 'the answer to the completed callback of "mid"');
		expect(polls(ids)).toBe(7);
		setClock(1200); // slow ends: reads slow; fast and mid are known final; it resumes

		const done = await n8n.finished(waiting.executionId);
		expect(done.status).toBe('success');
		const out = done.output(NODE);
		expect(out.map((item) => item.json.id)).toEqual(ids);
		expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		for (const item of out) {
			expect(item.json).toMatchObject({ status: 'completed', waitInfo: { mode: 'callback', polls: 0 } });
		}
		expect(done.output('After').map((item) => item.json.id)).toEqual(ids);
		// Each task read exactly once after its final status.
		expect(polls(ids)).toBe(8);
		const mine = n8n.deliveries.filter((d) => d.executionId === waiting.executionId);
		expect(mine.filter((d) => d.resumed)).toHaveLength(1);
		expect((mine.find((d) => d.resumed)!.request as { id: string }).id).toBe(slow);
		// Non-final callbacks (queue, in_progress) were answered 200 and kept it waiting.
		expect(mine.filter((d) => !d.resumed && d.status === 200).length).toBeGreaterThanOrEqual(4);
	}

	it('a task list too long for custom data (300 items) is kept as a file in the binary store: still no polls', async () => {
		await withStoppedClock(async (advance) => {
			const prompts = Array.from({ length: 300 }, (_, n) => `clip ${n} [after:6000]`);
			// Callback explicitly: Auto polls a batch this size (the Auto rows below).
			const waiting = await startWaiting(prompts, {
				requestOptions: { maxConcurrency: 50 },
				waitOptions: { mode: 'callback' },
			});
			expect(waiting.status).toBe('waiting');
			// The list's file, read by the callbacks: once in this process, however many arrive together.
			const fileId = String(
				Object.entries(waiting.runExecutionData.resultData.metadata ?? {}).find(([key]) =>
					key.startsWith('ggvideo_'),
				)?.[1],
			).replace(/^file:/, '');
			const store = Container.get(BinaryDataService);
			const reads = jest.spyOn(store, 'getAsStream');
			try {
				advance(6000);
				await bigBatchResumes(waiting);
				expect(reads.mock.calls.filter(([id]) => id === fileId)).toHaveLength(1);
			} finally {
				reads.mockRestore();
			}
		});
	}, 300_000); // 300 creates, then 300 callbacks and their reads over real HTTP: the longest rows of the suite

	it('a stored task list that cannot be read is answered 503 + Retry-After, and the next callback reads it again', async () => {
		await withStoppedClock(async () => {
			// 300 items: more than the custom data holds, so the list is a file. No task ends here, and
			// the simulator calls back for none: only the two callbacks below read the list.
			const tasks = videoTasks(sim);
			tasks.callbacksEnabled = false;
			const prompts = Array.from({ length: 300 }, (_, n) => `kept ${n} [after:6000]`);
			const waiting = await startWaiting(prompts, {
				requestOptions: { maxConcurrency: 50 },
				waitOptions: { mode: 'callback' },
			});
			expect(waiting.status).toBe('waiting');
			expect(Object.values(waiting.runExecutionData.resultData.metadata ?? {})).toEqual([
				expect.stringMatching(/^file:\S+/),
			]);
			const fileId = String(
				Object.values(waiting.runExecutionData.resultData.metadata ?? {}).find((value) =>
					String(value).startsWith('file:'),
				),
			).replace(/^file:/, '');
			const id = String(waiting.output(NODE)[0].json.id);
			const query = { signature: waiting.runExecutionData.resumeToken! };
			const options = { credentials: sim.credentials(), instanceBaseUrl: n8n.url };
			const store = Container.get(BinaryDataService);
			const reads = jest.spyOn(store, 'getAsStream');
			try {
				reads.mockRejectedValueOnce(new Error('the database is busy'));
				const failed = await deliverToWaiting(waiting, { query, body: { id, status: 'completed' } }, options);
				expect(failed).toMatchObject({
					status: 503,
					resumed: false,
					headers: { 'retry-after': String(CALLBACK_RETRY_AFTER_SECONDS) },
				});
				expect(String((failed.body as { error?: string }).error)).toContain(
					"Could not read this execution's task list",
				);
				expect(failed.execution.status).toBe('waiting');
				// The failed read is not kept: the next callback reads the file again and is answered.
				const next = await deliverToWaiting(waiting, { query, body: { id, status: 'in_progress' } }, options);
				expect(next).toMatchObject({
					status: 200,
					resumed: false,
					body: { waiting: `task ${id} is in_progress` },
				});
				expect(reads.mock.calls.filter(([file]) => file === fileId)).toHaveLength(2);
			} finally {
				reads.mockRestore();
				// These tasks never call back: 1,200 callbacks to this waiting execution would weigh on later rows.
				for (const task of tasks.tasks.values())
					if (task.prompt.startsWith('kept ')) task.callbackUrl = undefined;
				tasks.callbacksEnabled = true;
			}
		});
	}, 60_000); // 300 creates over real HTTP before its two callbacks

	async function bigBatchResumes(waiting: Awaited<ReturnType<typeof startWaiting>>) {
		// One custom data entry: the id of the file that holds the list, no chunks of the list itself.
		const metadata = waiting.runExecutionData.resultData.metadata ?? {};
		const entries = Object.entries(metadata).filter(([key]) => key.startsWith('ggvideo_'));
		expect(entries).toHaveLength(1);
		expect(entries[0][1]).toMatch(/^file:\S+/);
		const ids = waiting.output(NODE).map((item) => String(item.json.id));
		expect(new Set(ids).size).toBe(300);

		// A bound for a hang, not a measure: a loaded machine answers 300 callbacks slowly.
		const done = await n8n.finished(waiting.executionId, 240_000);
		expect(done.status).toBe('success');
		const out = done.output(NODE);
		expect(out.map((item) => item.json.id)).toEqual(ids);
		expect(out.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		expect(out.every((item) => item.json.status === 'completed')).toBe(true);
		expect(out.every((item) => (item.json.waitInfo as { polls: number }).polls === 0)).toBe(true);
		const mine = n8n.deliveries.filter((d) => d.executionId === waiting.executionId);
		expect(mine.filter((d) => d.resumed)).toHaveLength(1);
		// The read as the wait began, each task's confirmation, and scans that stopped at a running task.
		expect(polls(ids) / ids.length).toBeLessThanOrEqual(3);
	}

	it('an early (non-final) callback is answered 200 without reads; an unconfirmed final one 503', async () => {
		const waiting = await startWaiting(['long [after:600000]']);
		const id = String(waiting.output(NODE)[0].json.id);
		const query = { signature: waiting.runExecutionData.resumeToken! };
		const answer = await deliverToWaiting(
			waiting,
			{ query, body: { id, status: 'in_progress' } },
			{ credentials: sim.credentials(), instanceBaseUrl: n8n.url },
		);
		expect(answer).toMatchObject({
			status: 200,
			resumed: false,
			body: { waiting: `task ${id} is in_progress` },
		});
		expect(answer.execution.status).toBe('waiting');
		// A "completed" claim the gateway does not confirm, not even within the confirmation window
		// (read again 1 s, 3.5 s and 7.5 s later): 503 + Retry-After (the gateway calls again), still waiting.
		const claimed = await deliverToWaiting(
			waiting,
			{ query, body: { id, status: 'completed' } },
			{ credentials: sim.credentials(), instanceBaseUrl: n8n.url },
		);
		expect(claimed).toMatchObject({ status: 503, resumed: false, headers: { 'retry-after': '30' } });
		expect(String((claimed.body as { error: string }).error)).toMatch(
			new RegExp(
				`^The gateway does not confirm yet that task ${id} is completed: it still reads "(pending|queue|in_progress)" after a few seconds`,
			),
		);
		expect(claimed.execution.status).toBe('waiting');
		// The read as the wait began, the one that checked the claim and the window's three.
		expect(polls([id])).toBe(5);
	}, 60_000); // follows the 300-item rows, whose heap slows every step here

	it('a final callback whose first read the gateway does not answer is answered 503 + Retry-After before its sender gives up', async () => {
		const tasks = videoTasks(sim);
		// Only this test's own callbacks reach the execution: the simulator posts none meanwhile.
		tasks.callbacksEnabled = false;
		try {
			const waiting = await startWaiting(['held [after:1500]']);
			const id = String(waiting.output(NODE)[0].json.id);
			const task = tasks.tasks.get(id)!;
			await until(() => tasks.status(task) === 'completed', 'the task to end at the gateway');
			sim.inject({ method: 'GET', path: `/v1/videos/${id}`, fault: { kind: 'slow', delayMs: 30_000 } });
			const query = { signature: waiting.runExecutionData.resumeToken! };
			const options = { credentials: sim.credentials(), instanceBaseUrl: n8n.url };
			const sentAt = Date.now();
			const held = await deliverToWaiting(waiting, { query, body: { id, status: 'completed' } }, options);
			expect(Date.now() - sentAt).toBeLessThanOrEqual(FIRST_READ_BOUND_MS);
			expect(held).toMatchObject({ status: 503, resumed: false, headers: { 'retry-after': '30' } });
			expect(held.execution.status).toBe('waiting');
			// Sent again once the gateway answers: confirmed and resumed.
			const again = await deliverToWaiting(waiting, { query, body: { id, status: 'completed' } }, options);
			expect(again).toMatchObject({ status: 200, resumed: true });
		} finally {
			tasks.callbacksEnabled = true;
		}
	});

	it('ignores a callback for a task of another execution, refuses a malformed body and a wrong signature', async () => {
		const waiting = await startWaiting(['long [after:600000]']);
		const options = { credentials: sim.credentials(), instanceBaseUrl: n8n.url };
		const query = { signature: waiting.runExecutionData.resumeToken! };
		const other = await deliverToWaiting(
			waiting,
			{ query, body: { id: 'video_someone_else', status: 'completed' } },
			options,
		);
		expect(other).toMatchObject({
			status: 200,
			resumed: false,
			body: { ignored: "task video_someone_else is not one of this execution's tasks" },
		});
		expect(sim.requestsTo('/v1/videos/video_someone_else', 'GET')).toHaveLength(0);
		const malformed = await deliverToWaiting(waiting, { query, body: { hello: 1 } }, options);
		expect(malformed.status).toBe(400);
		const forged = await deliverToWaiting(
			waiting,
			{ query: { signature: 'nope' }, body: { id: 'x', status: 'completed' } },
			options,
		);
		expect(forged.status).toBe(401);
	});

	it('a failed task becomes its error item; the other items complete', async () => {
		const waiting = await startWaiting(
			['ok [after:400]', 'bad [fail] [after:600]'],
			{},
			{ onError: 'continueRegularOutput' },
		);
		const done = await n8n.finished(waiting.executionId);
		expect(done.status).toBe('success');
		const [ok, bad] = done.output(NODE);
		expect(ok.json).toMatchObject({ status: 'completed', waitInfo: { mode: 'callback' } });
		expect(String(bad.json.error)).toMatch(/^Video task video_\S+ ended with status "failed"$/);
		expect(bad.pairedItem).toEqual({ item: 1 });
	});

	it("a failed task's error shows the record read from the gateway, never the callback's body", async () => {
		const tasks = videoTasks(sim);
		// Only this test's own callback reaches the execution: the simulator posts none meanwhile.
		tasks.callbacksEnabled = false;
		try {
			const waiting = await startWaiting(
				['bad [fail] [after:1500]'],
				{},
				{ onError: 'continueRegularOutput' },
			);
			const id = String(waiting.output(NODE)[0].json.id);
			const task = tasks.tasks.get(id)!;
			await until(() => tasks.status(task) === 'failed', 'the task to fail at the gateway');
			const answer = await deliverToWaiting(
				waiting,
				{
					query: { signature: waiting.runExecutionData.resumeToken! },
					body: { id, status: 'failed', model: 'claimed-by-the-caller', note: 'not the record' },
				},
				{ credentials: sim.credentials(), instanceBaseUrl: n8n.url },
			);
			expect(answer).toMatchObject({ status: 200, resumed: true });
			const [bad] = answer.execution.output(NODE);
			const record = tasks.record(task);
			expect(bad.json).toMatchObject({ ...record, error: `Video task ${id} ended with status "failed"` });
			expect(bad.json.errorDescription).toBe(
				`The gateway's record of the task, read with GET /v1/videos/${id}: ${JSON.stringify(record)}`,
			);
			expect(String(bad.json.errorDescription)).not.toMatch(/claimed-by-the-caller|not the record/);
		} finally {
			tasks.callbacksEnabled = true;
		}
	});

	it('downloads the videos on resume when asked', async () => {
		const waiting = await startWaiting(['clip [after:400]'], { waitOptions: { download: true } });
		const done = await n8n.finished(waiting.executionId);
		expect(done.output(NODE)[0].binary?.data.mimeType).toBe('video/mp4');
	});

	it('falls back to polling when the resume URL is not https, and says so', async () => {
		const result = await runWorkflow(workflow({ waitOptions: { mode: 'callback' } }), {
			credentials: sim.credentials(),
			input: items(['plain [after:200]']),
		});
		expect(result.status).toBe('success');
		const [item] = result.output(NODE);
		expect(item.json.waitInfo).toMatchObject({ mode: 'polling', polls: 1 });
		expect(String((item.json.waitInfo as { fallback: string }).fallback)).toMatch(
			/^n8n's resume URL is not https \(http:\/\/localhost:5678\/webhook-waiting\/harness-\d+\?…\)/,
		);
		expect(sim.requestsTo('/v1/videos', 'POST').at(-1)!.body as object).not.toHaveProperty('callback_url');
	});

	it('polling mode stays polling even with an https resume URL', async () => {
		const result = await runWorkflow(workflow({ waitOptions: { mode: 'polling' } }), {
			credentials: sim.credentials(),
			input: items(['plain [after:200]']),
			instanceBaseUrl: n8n.url,
		});
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json.waitInfo).toEqual({
			mode: 'polling',
			polls: 1,
			waitedSeconds: expect.any(Number),
			reason: 'Wait Mode is Polling',
		});
	});

	it(`a burst of final callbacks confirms its tasks side by side (${CONFIRMATIONS_AT_ONCE} at once), not behind Max Concurrent Requests 1`, async () => {
		await withStoppedClock(async (advance) => {
			const count = 6;
			const waiting = await startWaiting(
				Array.from({ length: count }, (_, n) => `clip ${n} [after:500]`),
				{ requestOptions: { maxConcurrency: 1 }, waitOptions: { mode: 'callback' } },
			);
			expect(waiting.status).toBe('waiting');
			const ids = waiting.output(NODE).map((item) => String(item.json.id));
			// Every read of a task is held from now on: what the node has in flight at once shows.
			const gate = sim.hold(/^\/v1\/videos\/video_/);
			try {
				advance(500);
				await until(() => gate.waiting === count, `${count} confirmation reads in flight together`, {
					timeoutMs: 30_000,
				});
			} finally {
				gate.open();
			}
			expect(gate.maxWaiting).toBe(count);
			const done = await n8n.finished(waiting.executionId, 60_000);
			expect(done.status).toBe('success');
			expect(done.output(NODE).map((item) => item.json.id)).toEqual(ids);
			// The downloads and the other tasks' reads keep Max Concurrent Requests: none was needed here
			// beyond the own reads (every task confirmed by its own callback).
			expect(done.output(NODE).every((item) => item.json.status === 'completed')).toBe(true);
		});
	});

	describe('Auto weighs the batch: callback up to AUTO_CALLBACK_MAX_TASKS tasks, polling beyond', () => {
		const prompts = (count: number) => Array.from({ length: count }, (_, n) => `clip ${n} [after:400]`);

		it(`${AUTO_CALLBACK_MAX_TASKS + 1} items: polls, asks for no callback, and says why in waitInfo.reason`, async () => {
			const createsBefore = sim.requestsTo('/v1/videos', 'POST').length;
			const deliveriesBefore = videoTasks(sim).deliveries.length;
			// n8n-core's contexts log through the container's Logger, set up with the harness.
			await ensureContainer();
			const logged = jest.spyOn(Container.get(Logger), 'info');
			let result: Awaited<ReturnType<typeof runWorkflow>>;
			let lines: string[];
			try {
				result = await runWorkflow(workflow({ requestOptions: { maxConcurrency: 10 } }), {
					credentials: sim.credentials(),
					input: items(prompts(AUTO_CALLBACK_MAX_TASKS + 1)),
					instanceBaseUrl: n8n.url,
				});
				// (mockRestore clears the calls: read them first.)
				lines = logged.mock.calls
					.map(([message]) => String(message))
					.filter((m) => m.includes('waits by polling'));
			} finally {
				logged.mockRestore();
			}
			// As the polling wait began, one line of n8n's log named every task: what a restart leaves.
			expect(lines).toHaveLength(1);
			expect(lines[0]).toBe(
				`Generation Gateway: execution ${result.executionId}, node "${NODE}" waits by polling for ${AUTO_CALLBACK_MAX_TASKS + 1} video tasks; if n8n stops before they finish, run Video → Wait for Completion with these task ids: ${result
					.output(NODE)
					.map((item) => item.json.id)
					.join(' ')}`,
			);
			expect(result.status).toBe('success');
			const out = result.output(NODE);
			expect(out).toHaveLength(AUTO_CALLBACK_MAX_TASKS + 1);
			for (const item of out) {
				expect(item.json.status).toBe('completed');
				expect(item.json.waitInfo).toMatchObject({
					mode: 'polling',
					reason: `Auto polls batches of more than ${AUTO_CALLBACK_MAX_TASKS} tasks (this one has ${AUTO_CALLBACK_MAX_TASKS + 1}): each callback makes n8n load the whole waiting execution, and a batch's callbacks arriving together would hold n8n's editor and API for seconds; set Wait Mode to Callback to wait by callback anyway`,
				});
				// The rule, not a fallback from what was asked for: no hint, no fallback.
				expect(item.json.waitInfo).not.toHaveProperty('fallback');
			}
			const creates = sim.requestsTo('/v1/videos', 'POST').slice(createsBefore);
			expect(creates).toHaveLength(AUTO_CALLBACK_MAX_TASKS + 1);
			for (const create of creates) expect(create.body as object).not.toHaveProperty('callback_url');
			// No callback for any of this run's tasks (an earlier test's may still be on their way).
			const ids = new Set(out.map((item) => String(item.json.id)));
			expect(
				videoTasks(sim)
					.deliveries.slice(deliveriesBefore)
					.filter((d) => ids.has(d.id)),
			).toHaveLength(0);
		});

		it(`${AUTO_CALLBACK_MAX_TASKS} items: waits by callback with no polls, and says why`, async () => {
			const done = await withStoppedClock(async (advance) => {
				const waiting = await startWaiting(prompts(AUTO_CALLBACK_MAX_TASKS), {
					requestOptions: { maxConcurrency: 10 },
				});
				expect(waiting.status).toBe('waiting');
				expect(waiting.output(NODE)[0].json.waitInfo).toMatchObject({ mode: 'callback', state: 'waiting' });
				advance(400);
				return await n8n.finished(waiting.executionId, 60_000);
			});
			expect(done.status).toBe('success');
			const out = done.output(NODE);
			expect(out).toHaveLength(AUTO_CALLBACK_MAX_TASKS);
			for (const item of out) {
				expect(item.json.waitInfo).toMatchObject({
					mode: 'callback',
					polls: 0,
					reason: `Auto waits by callback for up to ${AUTO_CALLBACK_MAX_TASKS} tasks (this batch has ${AUTO_CALLBACK_MAX_TASKS}) when n8n's resume URL is https: no worker is held and the wait survives an n8n restart`,
				});
			}
		});
	});

	it('deadline: at the Wait Timeout n8n passes the items through without running the node; they carry each task id, an error and what to run next', async () => {
		// The middle item has no prompt: refused before any create, its error kept (continue-on-fail).
		const waiting = await startWaiting(
			['long [after:600000]', '', 'second [after:600000]'],
			{ waitOptions: { timeoutMinutes: 1 } },
			{ onError: 'continueRegularOutput' },
		);
		expect(waiting.status).toBe('waiting');
		const created = waiting.runExecutionData.waitTill!.getTime() - 60_000;
		expect(Math.abs(created - Date.now())).toBeLessThan(5_000);
		const ids = waiting.output(NODE).map((item) => item.json.id);
		// What n8n's WaitTracker does at waitTill: resume the saved execution, no webhook.
		expect(await n8n.resumeAtWaitTill(waiting.executionId)).toBe(true);
		const done = await n8n.finished(waiting.executionId);
		expect(done.status).toBe('success');
		const output = done.output(NODE);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		for (const index of [0, 2]) {
			const { json } = output[index];
			expect(json).toMatchObject({ id: ids[index], status: expect.any(String) });
			expect(json.error).toBe(
				`Video task ${String(ids[index])}: the batch's wait reached its Wait Timeout (1 min) before every task was confirmed final, so n8n went on without the videos`,
			);
			expect(json.errorDescription).toContain(
				`use Video → Wait for Completion with task ID ${String(ids[index])} to pick it up`,
			);
			expect(json.waitInfo).toMatchObject({
				mode: 'callback',
				state: 'timed out',
				waitTill: waiting.runExecutionData.waitTill!.toISOString(),
			});
		}
		// The item whose create was refused keeps its own error.
		expect(output[1].json).not.toHaveProperty('id');
		expect(String(output[1].json.error)).toMatch(/prompt/i);
		expect(output[1].json.waitInfo).toMatchObject({ state: 'timed out' });
		// The node before it keeps its own output: the node changed its own copies of the items only.
		expect(done.output('Start').map((item) => Object.keys(item.json).sort())).toEqual(
			Array.from({ length: 3 }, () => ['n', 'prompt']),
		);
		expect(done.output('After')).toHaveLength(3);
		// The task's callback, when it finally comes, finds the execution ended: n8n's 409.
		const id = String(ids[0]);
		const late = await n8n.deliver(waiting.executionId, {
			query: { signature: waiting.runExecutionData.resumeToken! },
			body: { id, status: 'completed', data: { url: `${sim.url}/files/videos/${id}.mp4` } },
		});
		expect(late).toMatchObject({ status: 409, resumed: false });
	});
});
