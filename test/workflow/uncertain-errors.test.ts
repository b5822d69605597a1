/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * A request that costs credit and may have reached the gateway (its connection
 * closed after the gateway did the work, Request Timeout passed, a 500 or a
 * 502) fails with a message that says first that the work may have been done
 * and charged, and what to do, with no advice to retry; and it is sent exactly
 * once. A Video → Create whose failed answer still carries the creation result
 * names that task for Wait for Completion. A certificate n8n does not trust is
 * named, and nothing is said about charges (nothing was sent). Streams (message,
 * response, image, speech) that stall past Request Timeout, send only keep-alive
 * comments past it, break mid-way or end before their final event name the
 * stream and say how much had arrived. Real
 * executions against the simulator.
 */
import type { WorkflowJson } from '../harness';
import { gatewayWorkflow, runWorkflow, startWorkflow } from '../harness';
import { until } from '../harness/until';
import { useVirtualTime } from '../harness/virtual-time';
import type { Fault, Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { startHttpsReceiver } from '../simulator/video/https';
import { videoTasks } from '../simulator/video/tasks';

useVirtualTime();

const NODE = 'Gateway';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const BEARER = { generationGatewayBearerApi: { id: '1', name: 'Bearer' } };
const TIMEOUT = { requestOptions: { timeoutSeconds: 1 } };

interface Operation {
	name: string;
	path: string;
	parameters: Record<string, unknown>;
	credentials: Record<string, { id: string; name: string }>;
	/** The advice the message's description gives for this operation. */
	advice: RegExp;
}

const CHECK_ACCOUNT = /Check the account before running this item again/;
const OPERATIONS: Operation[] = [
	{
		name: 'Image → Generate',
		path: '/v1/images/generations',
		parameters: { resource: 'image', operation: 'generate', model: rl('imagegen-2'), prompt: 'a lighthouse' },
		credentials: BEARER,
		advice: CHECK_ACCOUNT,
	},
	{
		name: 'Video → Create',
		path: '/v1/videos',
		parameters: {
			resource: 'video',
			operation: 'create',
			model: rl('vidA-2.5'),
			prompt: 'a fox',
			duration: 5,
			resolution: '720p',
		},
		credentials: BEARER,
		advice: /A task may exist and be charged: look it up before creating another.*Wait for Completion/,
	},
	{
		name: 'Speech → Synthesize',
		path: '/v1/audio/speech',
		parameters: {
			resource: 'speech',
			operation: 'synthesize',
			model: rl('vendor/audioF-3.1-tts-flash'),
			input: 'Hello there.',
			voice: 'narrator_v3.1',
		},
		credentials: BEARER,
		advice: CHECK_ACCOUNT,
	},
	{
		name: 'Message → Create',
		path: '/v1/messages',
		parameters: {
			resource: 'message',
			operation: 'create',
			model: 'chat-model-1',
			turns: { turn: [{ role: 'user', text: 'Hi.' }] },
		},
		credentials: { generationGatewayApiKeyApi: { id: '1', name: 'API key' } },
		advice: CHECK_ACCOUNT,
	},
	{
		name: 'Response → Create',
		path: '/v1/responses',
		parameters: { resource: 'response', operation: 'create', model: 'resp-model-1', inputText: 'Hi.' },
		credentials: BEARER,
		advice: CHECK_ACCOUNT,
	},
	{
		name: 'Cached Content → Create',
		path: '/v1beta/cachedContents',
		parameters: {
			resource: 'cachedContent',
			operation: 'create',
			model: 'native-model-1',
			turns: { turn: [{ role: 'user', text: 'A long document.' }] },
		},
		credentials: { generationGatewayNativeKeyApi: { id: '1', name: 'Native' } },
		advice: CHECK_ACCOUNT,
	},
];

/** `timeout`: the row runs with Request Timeout 1 s (the others keep the default, so a slow machine cannot turn them into timeouts). */
const FAILURES: Array<{ name: string; fault: Fault; what: RegExp; timeout?: boolean }> = [
	{
		name: 'connection closed after the gateway did the work',
		fault: { kind: 'drop-after' },
		what: /^The gateway may have done this work and charged for it: the connection to the gateway closed before its answer arrived/,
	},
	{
		name: 'Request Timeout passed',
		fault: { kind: 'slow', delayMs: 1600 },
		timeout: true,
		what: /^The gateway may have done this work and charged for it: no answer arrived within Request Timeout \(1 s\)$/,
	},
	{
		name: 'HTTP 500',
		fault: { kind: 'status', status: 500 },
		what: /^The gateway may have done this work and charged for it: the gateway answered HTTP 500 \(Simulated failure \(HTTP 500\)\)$/,
	},
	{
		name: 'HTTP 502',
		fault: { kind: 'status', status: 502 },
		what: /^The gateway may have done this work and charged for it: the gateway answered HTTP 502 \(Simulated failure \(HTTP 502\)\)$/,
	},
];

function workflow(operation: Operation, extra: Record<string, unknown> = {}): WorkflowJson {
	return gatewayWorkflow({
		nodeName: NODE,
		parameters: { ...operation.parameters, ...extra },
		credentials: operation.credentials,
	});
}

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator({ sseChunkBytes: 16 });
});
afterAll(async () => {
	await sim.stop();
});
afterEach(() => sim.clearFaults());

describe('a request that costs credit and may have been done', () => {
	const rows = OPERATIONS.flatMap((operation) => FAILURES.map((failure) => ({ operation, failure })));
	it.each(rows.map((row) => [row.operation.name, row.failure.name, row] as const))(
		'%s, %s: says it may have been charged, what to do, no retry advice; sent once',
		async (_operation, _failure, { operation, failure }) => {
			const before = sim.requestsTo(operation.path, 'POST').length;
			sim.inject({ path: operation.path, fault: failure.fault });
			const result = await runWorkflow(workflow(operation, failure.timeout ? TIMEOUT : {}), {
				credentials: sim.credentials(),
			});
			expect(result.status).toBe('error');
			const error = result.nodeError(NODE);
			expect(error?.message).toMatch(failure.what);
			expect(error?.description).toMatch(operation.advice);
			expect(error?.description).toMatch(/Do not simply run it again\.$/);
			expect(`${error?.message} ${error?.description}`).not.toMatch(/\bretry|try again|perhaps/i);
			expect(sim.requestsTo(operation.path, 'POST').length - before).toBe(1);
		},
	);

	it.each([500, 502])(
		'Video → Create answered HTTP %p with the creation result: the advice names the task id, and Wait for Completion with it gives the video',
		async (status) => {
			const video = OPERATIONS[1];
			const before = sim.requestsTo(video.path, 'POST').length;
			const tasksBefore = new Set(videoTasks(sim).tasks.keys());
			sim.inject({ path: video.path, fault: { kind: 'status-after', status } });
			const result = await runWorkflow(workflow(video), { credentials: sim.credentials() });
			const error = result.nodeError(NODE);
			const created = [...videoTasks(sim).tasks.keys()].filter((id) => !tasksBefore.has(id));
			expect(created).toHaveLength(1);
			const [id] = created;
			expect(error?.message).toBe(
				`The gateway may have done this work and charged for it: the gateway answered HTTP ${status}`,
			);
			expect(error?.description).toMatch(
				new RegExp(`^HTTP ${status}, request id: req_\\w+\\. The gateway's answer`),
			);
			expect(error?.description).toContain(
				`The gateway's answer names task ${id}: it may exist and be charged. Use Video → Wait for Completion with task ID ${id} to get its video (Video → Get shows its status) instead of creating another. Do not simply run it again.`,
			);
			expect(`${error?.message} ${error?.description}`).not.toMatch(/\bretry|try again|perhaps/i);
			expect(sim.requestsTo(video.path, 'POST').length - before).toBe(1);

			// The simulator's task finishes about 0.4 s after creation (as in video.test.ts).
			await new Promise((resolve) => setTimeout(resolve, 500));
			const waited = await runWorkflow(workflow(video, { operation: 'waitForCompletion', taskId: id }), {
				credentials: sim.credentials(),
			});
			expect(waited.status).toBe('success');
			expect(waited.output(NODE)[0].json).toMatchObject({ id, status: 'completed' });
		},
	);

	it('Video → Create whose answer names no task (the error envelope, a dropped connection): the advice says to look it up', async () => {
		const video = OPERATIONS[1];
		for (const fault of [{ kind: 'status', status: 502 }, { kind: 'drop-after' }] as Fault[]) {
			sim.inject({ path: video.path, fault });
			const result = await runWorkflow(workflow(video), { credentials: sim.credentials() });
			expect(result.nodeError(NODE)?.description).toMatch(
				/A task may exist and be charged: look it up before creating another \(the gateway's task list, or Video → Get with its ID if you have one\)\./,
			);
			expect(result.nodeError(NODE)?.description).not.toMatch(/names task/);
		}
	});

	it('a read that times out says so with the setting, and is retried (Account → Get Balance)', async () => {
		const before = sim.requestsTo('/v1/user/balance').length;
		sim.inject({ path: '/v1/user/balance', fault: { kind: 'slow', delayMs: 1600 }, times: 3 });
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: { resource: 'account', operation: 'getBalance', ...TIMEOUT },
				credentials: BEARER,
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.nodeError(NODE)?.message).toBe('No answer arrived within Request Timeout (1 s)');
		expect(result.nodeError(NODE)?.description).toMatch(/Tried 3 times\.$/);
		expect(sim.requestsTo('/v1/user/balance').length - before).toBe(3);
	});

	it('a connection that was never opened is named as such, retried, and nothing is said about charges', async () => {
		const credentials = sim.credentials() as Record<string, Record<string, unknown>>;
		const closed = { ...credentials.generationGatewayBearerApi, baseUrl: 'http://127.0.0.1:9' };
		const result = await runWorkflow(workflow(OPERATIONS[0]), {
			credentials: { ...credentials, generationGatewayBearerApi: closed } as never,
		});
		const error = result.nodeError(NODE);
		expect(error?.message).toBe('The gateway could not be reached (ECONNREFUSED); the request was not sent');
		expect(error?.description).toMatch(/Tried 3 times\.$/);
		expect(`${error?.message} ${error?.description}`).not.toMatch(/charged/);
	});

	it.each([
		['Image → Generate (a create)', OPERATIONS[0].parameters],
		['Account → Get Balance (a read)', { resource: 'account', operation: 'getBalance' }],
	])(
		'%s against a server whose TLS certificate n8n does not trust: says so, nothing sent, one attempt, nothing about charges',
		async (_name, parameters) => {
			let received = 0;
			const selfSigned = await startHttpsReceiver(
				async () => {
					received++;
					return { status: 200, body: {} };
				},
				{ untrusted: true },
			);
			try {
				const credentials = sim.credentials() as Record<string, Record<string, unknown>>;
				const bearer = { ...credentials.generationGatewayBearerApi, baseUrl: selfSigned.url };
				const result = await runWorkflow(
					gatewayWorkflow({ nodeName: NODE, parameters, credentials: BEARER }),
					{ credentials: { ...credentials, generationGatewayBearerApi: bearer } as never },
				);
				const error = result.nodeError(NODE);
				expect(error?.message).toBe(
					"The gateway's TLS certificate was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT); the request was not sent",
				);
				expect(error?.description).toBe(
					'The server at the Base URL showed a TLS certificate that n8n does not trust (self-signed, expired, or made out for another host name). Check the Base URL; for a gateway with its own certificate authority, give n8n that CA (NODE_EXTRA_CA_CERTS).',
				);
				expect(received).toBe(0);
			} finally {
				await selfSigned.stop();
			}
		},
	);
});

describe('an image answer (JSON with Base64) that breaks off while it arrives', () => {
	const image = OPERATIONS[0];
	it.each([
		[
			'the connection breaks',
			{ kind: 'cut-after', bytes: 4000 } as Fault,
			{},
			/^The gateway may have done this work and charged for it: the connection to the gateway broke while the image answer was arriving \(.+\), after 4000 of \d+ bytes had arrived$/,
		],
		[
			'the answer stops for longer than Request Timeout',
			{ kind: 'cut-after', bytes: 4000, stall: true } as Fault,
			TIMEOUT,
			/^The gateway may have done this work and charged for it: the image answer stopped for longer than Request Timeout \(1 s\) and was closed, after 4000 of \d+ bytes had arrived$/,
		],
	])('%s: the message says so and how much had arrived; sent once', async (_name, fault, extra, what) => {
		sim.inject({ path: image.path, fault });
		const before = sim.requests.filter((r) => r.path === image.path).length;
		const result = await runWorkflow(workflow(image, { size: '1024x1024', ...extra }), {
			credentials: sim.credentials(),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(what);
		expect(result.error?.description).toMatch(CHECK_ACCOUNT);
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(/retry|try again|perhaps/i);
		expect(sim.requests.filter((r) => r.path === image.path).length - before).toBe(1);
	});
});

describe('streams that stall or break', () => {
	/** Every streamed create; `truncated` is how each says its stream ended before its final event. */
	const STREAMS = [
		{
			operation: OPERATIONS[3],
			what: 'The message stream failed',
			stream: { options: { stream: true } },
			truncated: /the stream ended before message_stop/,
		},
		{
			operation: OPERATIONS[4],
			what: 'The response stream failed',
			stream: { options: { stream: true } },
			truncated: /the stream ended before response\.completed, response\.failed or response\.incomplete/,
		},
		{
			operation: OPERATIONS[0],
			what: 'The image stream failed',
			// Small, so that the partial images written 16 bytes at a time stay quick.
			stream: { size: '64x48', options: { stream: true, partial_images: 2 } },
			truncated:
				/^The image stream failed: the stream ended without its final image \(no "image_generation\.completed" event\)$/,
		},
		{
			operation: OPERATIONS[2],
			what: 'The speech stream failed',
			stream: { streamFormat: 'sse' },
			truncated:
				/^The speech stream failed: the stream ended before its final speech\.audio\.done event \(2 audio pieces, \d+ bytes received\): the audio would be incomplete, so no file was made$/,
		},
	];
	type StreamRow = (typeof STREAMS)[number];

	/** Runs the streamed create with the fault; the node's error, checked for what every stream failure says. */
	async function streamFailure({ operation, what, stream }: StreamRow, fault: Fault, extra = {}) {
		const before = sim.requestsTo(operation.path, 'POST').length;
		sim.inject({ path: operation.path, fault });
		const result = await runWorkflow(workflow(operation, { ...stream, ...extra }), {
			credentials: sim.credentials(),
		});
		expect(result.status).toBe('error');
		const error = result.nodeError(NODE)!;
		expect(error.message.startsWith(`${what}: `)).toBe(true);
		expect(error.description).toMatch(/^The gateway may have done this work and charged for it/);
		expect(`${error.message} ${error.description}`).not.toMatch(/\bretry|try again|perhaps/i);
		expect(sim.requestsTo(operation.path, 'POST').length - before).toBe(1);
		return error;
	}

	it.each(STREAMS.map((row) => [row.operation.name, row] as const))(
		'%s: a stream silent past Request Timeout says so, with how much had arrived; sent once',
		async (_name, row) => {
			const error = await streamFailure(row, { kind: 'sse-idle', afterEvents: 2 }, TIMEOUT);
			expect(error.message).toMatch(
				new RegExp(
					`^${row.what}: the stream sent nothing for longer than Request Timeout \\(1 s\\) and was closed, after 2 events \\(\\d+ bytes\\) had arrived$`,
				),
			);
			expect(error.description).toMatch(/raise "Request Timeout"/);
		},
	);

	it.each(STREAMS.map((row) => [row.operation.name, row] as const))(
		'%s: a stream that sends only keep-alive comments past Request Timeout fails as idle; sent once',
		async (_name, row) => {
			const error = await streamFailure(
				row,
				{ kind: 'sse-keepalive', afterEvents: 2, everyMs: 200 },
				TIMEOUT,
			);
			expect(error.message).toMatch(
				new RegExp(
					`^${row.what}: the stream sent only keep-alive comments for longer than Request Timeout \\(1 s\\) and was closed, after 2 events \\(\\d+ bytes\\) had arrived$`,
				),
			);
			expect(error.description).toMatch(/turn streaming off/);
		},
	);

	it('Stop while a stream waits for its next event ends the execution within a second or so', async () => {
		const [row] = STREAMS;
		sim.inject({ path: row.operation.path, fault: { kind: 'sse-idle', afterEvents: 2 } });
		const before = sim.requestsTo(row.operation.path, 'POST').length;
		const handle = startWorkflow(workflow(row.operation, row.stream), { credentials: sim.credentials() });
		await until(() => sim.requestsTo(row.operation.path, 'POST').length > before, 'the stream to begin');
		await new Promise((resolve) => setTimeout(resolve, 300));
		const stoppedAt = Date.now();
		handle.cancel();
		const result = await handle.promise;
		expect(Date.now() - stoppedAt).toBeLessThan(1500);
		expect(result.status).not.toBe('success');
	});

	it.each(STREAMS.map((row) => [row.operation.name, row] as const))(
		'%s: a connection that breaks mid-stream says so, with how much had arrived; sent once',
		async (_name, row) => {
			const error = await streamFailure(row, { kind: 'sse-drop', afterEvents: 2 });
			expect(error.message).toMatch(
				new RegExp(
					`^${row.what}: the connection to the gateway broke mid-stream.*, after 2 events \\(\\d+ bytes\\) had arrived$`,
				),
			);
			expect(error.description).toMatch(/The connection broke: check the network/);
		},
	);

	it.each(STREAMS.map((row) => [row.operation.name, row] as const))(
		'%s: a stream that ends without its final event says so and that the work may have been charged; sent once',
		async (_name, row) => {
			const error = await streamFailure(row, { kind: 'sse-truncate', afterEvents: 2 });
			expect(error.message).toMatch(row.truncated);
		},
	);
});
