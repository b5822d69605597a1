/* eslint-disable @n8n/community-nodes/node-usable-as-tool, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The node's execution hints, in real executions: n8n keeps them on the
 * node's task data (`runData[node][run].hints`), and the editor shows them
 * above the node's output. One test per hint and per case where it must not
 * appear:
 * - Retry On Fail on an operation that creates paid work;
 * - Create and Wait that polled because n8n's resume URL is not https;
 * - a callback wait whose task list did not fit in the execution's custom data;
 * - items refused before sending under continue-on-fail.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	RETRY_ON_FAIL_MESSAGE,
	customDataFullHint,
	refusedItemsHint,
	retryOnFailHint,
} from '../../nodes/GenerationGateway/actions/hints';
import type { RunResult, WorkflowJson } from '../harness';
import { gatewayWorkflow, registerNodeType, runWorkflow, until } from '../harness';
import { WaitingWebhookServer } from '../harness/resume';
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../harness/node-types';

/** The package as the harness loads it (dist/): what its process remembers of n8n's own address. */
const { forgetReachability } = require(join(PACKAGE_ROOT, 'dist/nodes/shared/ownAddress.js')) as {
	forgetReachability(): void;
};
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { videoTasks } from '../simulator/video/tasks';

import { VIDEO_NODE, promptItems, videoCallbackWorkflow } from './video-callback-workflow';

const NODE = 'Gateway';
const BEARER = { generationGatewayBearerApi: { id: '1', name: 'Gateway' } };
const listed = (value: string) => ({ __rl: true, mode: 'list', value });

/** The hints n8n recorded for a node's run. */
const hintsOf = (result: RunResult, node: string, run = 0): NodeExecutionHint[] =>
	result.run.data.resultData.runData[node]?.[run]?.hints ?? [];
/** A callback wait's hints but the one that says no Recover Waits pass ran here (video-recover-waits.test.ts has it). */
const waitHintsOf = (result: RunResult, node: string): NodeExecutionHint[] =>
	hintsOf(result, node).filter((hint) => !hint.message.startsWith('No Video Wait → Recover Waits pass'));

/** Test-only node: fills the execution's custom data with `entries` keys, as n8n's Execution Data node does. */
class CustomDataFiller implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Custom Data Filler',
		name: 'customDataFiller',
		group: ['transform'],
		version: 1,
		description: 'Sets custom data entries (test only)',
		defaults: { name: 'Filler' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Entries', name: 'entries', type: 'number', default: 0 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const entries = this.getNodeParameter('entries', 0) as number;
		for (let n = 0; n < entries; n++) this.customData.set(`earlier_${n}`, 'set by an earlier node');
		return [this.getInputData()];
	}
}
registerNodeType('test.customDataFiller', new CustomDataFiller());

/** Start → Filler (custom data entries) → Video (Create and Wait). */
function filledWorkflow(entries: number, parameters: IDataObject): WorkflowJson {
	const workflow = videoCallbackWorkflow(parameters);
	const video = workflow.nodes.find((node) => node.name === VIDEO_NODE)!;
	workflow.nodes.push({
		id: 'f',
		name: 'Filler',
		type: 'test.customDataFiller',
		typeVersion: 1,
		position: [100, 0],
		parameters: { entries },
	} as WorkflowJson['nodes'][number]);
	workflow.connections = {
		Start: { main: [[{ node: 'Filler', type: 'main', index: 0 }]] },
		Filler: { main: [[{ node: video.name, type: 'main', index: 0 }]] },
		[VIDEO_NODE]: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
	};
	return workflow;
}

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

const imageParameters = (prompt: string) => ({
	resource: 'image',
	operation: 'generate',
	model: listed('imagegen-2'),
	prompt,
	size: '1024x1024',
});

describe('hint: Retry On Fail on an operation that creates paid work', () => {
	it('Image → Generate with Retry On Fail: a warning with the run', async () => {
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: imageParameters('a lighthouse'),
				credentials: BEARER,
				settings: { retryOnFail: true },
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		expect(hintsOf(result, NODE)).toEqual([retryOnFailHint()]);
	});

	it('without Retry On Fail: no hint', async () => {
		const result = await runWorkflow(
			gatewayWorkflow({ nodeName: NODE, parameters: imageParameters('a lighthouse'), credentials: BEARER }),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		expect(hintsOf(result, NODE)).toEqual([]);
	});

	it('Account → Get Balance (a read) with Retry On Fail: no hint', async () => {
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: { resource: 'account', operation: 'getBalance' },
				credentials: BEARER,
				settings: { retryOnFail: true },
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		expect(hintsOf(result, NODE)).toEqual([]);
	});

	it('a create that fails with Retry On Fail: its error says what each retry costs', async () => {
		sim.inject({ path: '/v1/images/generations', times: 5, fault: { kind: 'status', status: 400 } });
		const before = sim.requestsTo('/v1/images/generations', 'POST').length;
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: imageParameters('a lighthouse'),
				credentials: BEARER,
				settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('error');
		expect(result.nodeError(NODE)?.description).toContain(RETRY_ON_FAIL_MESSAGE);
		// n8n ran the node twice: two requests, each of which would have been billed.
		expect(sim.requestsTo('/v1/images/generations', 'POST').length - before).toBe(2);
	});
});

describe('hint: Create and Wait polled because the resume URL is not https', () => {
	it('Auto mode with an http resume URL: one hint for the run, whatever the items', async () => {
		const result = await runWorkflow(videoCallbackWorkflow(), {
			credentials: sim.credentials(),
			input: promptItems(['one [after:200]', 'two [after:200]']),
		});
		expect(result.status).toBe('success');
		const hints = hintsOf(result, VIDEO_NODE);
		expect(hints).toHaveLength(1);
		expect(hints[0]).toEqual({
			type: 'warning',
			location: 'outputPane',
			message: `Create and Wait polled the gateway instead of waiting for its callback, because n8n's resume URL is not https (http://localhost:5678/webhook-waiting/${result.executionId}?…): set N8N_WEBHOOK_URL (older n8n such as 2.0 and 1.123: WEBHOOK_URL) to n8n's public https address so that the execution waits for the callback without holding a worker.`,
		});
	});

	it('an https resume URL: the execution waits for the callback, no hint', async () => {
		const result = await runWorkflow(videoCallbackWorkflow(), {
			credentials: sim.credentials(),
			input: promptItems(['long [after:600000]']),
			instanceBaseUrl: n8n.url,
		});
		expect(result.status).toBe('waiting');
		expect(waitHintsOf(result, VIDEO_NODE)).toEqual([]);
	});

	it("n8n's own address out of its reach (a certificate its Node does not trust): one line in n8n's log, then a warning on the node and waitInfo.ownNewsOff on each item of the waits after", async () => {
		const untrusted = await WaitingWebhookServer.start(sim.credentials(), { untrusted: true });
		const logger = Container.get(Logger);
		const warn = jest.spyOn(logger, 'warn');
		forgetReachability();
		try {
			const run = async () =>
				await runWorkflow(videoCallbackWorkflow(), {
					credentials: sim.credentials(),
					input: promptItems(['long [after:600000]', 'longer [after:600000]']),
					instanceBaseUrl: untrusted.url,
				});
			// The first wait does not wait for the check of n8n's own address: it knows nothing yet.
			const first = await run();
			expect(first.status).toBe('waiting');
			expect(waitHintsOf(first, VIDEO_NODE)).toEqual([]);
			expect(first.output(VIDEO_NODE)[0].json.waitInfo).not.toHaveProperty('ownNewsOff');
			const lines = () => warn.mock.calls.map(([message]) => String(message));
			await until(
				() => lines().some((line) => line.includes("cannot reach n8n's own address")),
				"the check's line in n8n's log",
			);
			const result = await run();
			expect(result.status).toBe('waiting');
			expect(waitHintsOf(result, VIDEO_NODE)).toEqual([
				expect.objectContaining({
					type: 'warning',
					message: expect.stringMatching(
						/^This n8n process cannot reach n8n's own address \(https:\/\/127\.0\.0\.1:\d+\/webhook-waiting\/harness-\d+\/video-wait\?…\): .*self-signed certificate.*NODE_EXTRA_CA_CERTS/,
					),
				}),
			]);
			for (const item of result.output(VIDEO_NODE))
				expect(item.json.waitInfo).toMatchObject({
					state: 'waiting',
					ownNewsOff: expect.stringMatching(/DEPTH_ZERO_SELF_SIGNED_CERT.*NODE_EXTRA_CA_CERTS/),
				});
			// A third wait meanwhile says so too; n8n's log said it once.
			expect(waitHintsOf(await run(), VIDEO_NODE)).toHaveLength(1);
			expect(lines().filter((line) => line.includes("cannot reach n8n's own address"))).toHaveLength(1);
			expect(lines().join(' ')).not.toMatch(/signature=/);
		} finally {
			warn.mockRestore();
			forgetReachability();
			await untrusted.stop();
		}
	});

	it('Polling mode (chosen): no hint', async () => {
		const result = await runWorkflow(videoCallbackWorkflow({ waitOptions: { mode: 'polling' } }), {
			credentials: sim.credentials(),
			input: promptItems(['one [after:200]']),
		});
		expect(result.status).toBe('success');
		expect(hintsOf(result, VIDEO_NODE)).toEqual([]);
	});
});

describe("hint: the callback wait's task list did not fit in the execution's custom data", () => {
	it('9 entries set by an earlier node, 30 items: the list goes to the binary store, one entry points to it; no hint', async () => {
		const prompts = Array.from({ length: 30 }, (_, n) => `clip ${n} [after:200]`);
		// The tasks end when the wait begins, however fast or slow the creates were: the simulator's
		// clock stands still from here, and the wait's reads of the tasks are held until the first
		// one has arrived and the clock has moved past the tasks' end.
		const clock = videoTasks(sim).stopClock();
		const creates = sim.requestsTo('/v1/videos', 'POST').length;
		const reads = sim.hold(/^\/v1\/videos\/video_/);
		let result: RunResult;
		try {
			// Wait Mode Callback: Auto polls a batch this size.
			const running = runWorkflow(
				filledWorkflow(9, { requestOptions: { maxConcurrency: 30 }, waitOptions: { mode: 'callback' } }),
				{
					credentials: sim.credentials(),
					input: promptItems(prompts),
					instanceBaseUrl: n8n.url,
				},
			);
			await until(() => reads.waiting > 0, 'the first read of the wait');
			// Every create was sent before the wait began.
			expect(sim.requestsTo('/v1/videos', 'POST').length - creates).toBe(30);
			clock.advance(200);
			reads.open();
			result = await running;
		} finally {
			reads.open();
			clock.release();
		}
		// Every task was final when the wait began, so the node went on at once, by callback mode's rules.
		expect(result.status).toBe('success');
		const out = result.output(VIDEO_NODE);
		expect(out.every((item) => item.json.status === 'completed')).toBe(true);
		expect(out.every((item) => (item.json.waitInfo as { mode: string }).mode === 'callback')).toBe(true);
		expect(hintsOf(result, VIDEO_NODE)).toEqual([]);
	});

	it('10 entries set by an earlier node: no room at all, polled from the start, and the hint says so', async () => {
		const creates = sim.requestsTo('/v1/videos', 'POST').length;
		const result = await runWorkflow(filledWorkflow(10, {}), {
			credentials: sim.credentials(),
			input: promptItems(['clip [after:200]']),
			instanceBaseUrl: n8n.url,
		});
		expect(result.status).toBe('success');
		expect(hintsOf(result, VIDEO_NODE)).toEqual([customDataFullHint(1, 0)]);
		// Decided before the create: no callback address was sent for a wait that could not be kept.
		const sent = sim.requestsTo('/v1/videos', 'POST').slice(creates);
		expect(sent.map((request) => (request.body as { callback_url?: string }).callback_url)).toEqual([
			undefined,
		]);
		expect(result.output(VIDEO_NODE)[0].json.waitInfo).toMatchObject({ mode: 'polling' });
	});
});

describe('hint: items refused before sending (continue-on-fail)', () => {
	it('Video → Create, 1 of 3 items refused by its checks: the others are created, one hint', async () => {
		const before = sim.requestsTo('/v1/videos', 'POST').length;
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: {
					resource: 'video',
					operation: 'create',
					model: listed('vidA-2.5'),
					prompt: 'waves',
					duration: '={{ $json.d }}',
				},
				credentials: BEARER,
				settings: { onError: 'continueRegularOutput' },
			}),
			{ credentials: sim.credentials(), input: [{ json: { d: 5 } }, { json: { d: 'ten' } }, { json: {} }] },
		);
		expect(result.status).toBe('success');
		const out = result.output(NODE);
		expect(out[1].json.error).toBe('Duration (Seconds): "ten" is not a number');
		expect(sim.requestsTo('/v1/videos', 'POST').length - before).toBe(2);
		expect(hintsOf(result, NODE)).toEqual([refusedItemsHint(1, 3)]);
	});

	it('Image → Generate, 2 of 3 items refused while running: one hint', async () => {
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: { ...imageParameters('={{ $json.p }}'), model: listed('legacyimg-2') },
				credentials: BEARER,
				settings: { onError: 'continueRegularOutput' },
			}),
			{
				credentials: sim.credentials(),
				input: [{ json: { p: 'x'.repeat(1001) } }, { json: { p: 'a boat' } }, { json: { p: '' } }],
			},
		);
		expect(result.status).toBe('success');
		expect(hintsOf(result, NODE)).toEqual([refusedItemsHint(2, 3)]);
	});

	it('an item the gateway refused (HTTP 400) is not counted: it was sent', async () => {
		sim.inject({ path: '/v1/images/generations', times: 1, fault: { kind: 'status', status: 400 } });
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: imageParameters('a lighthouse'),
				credentials: BEARER,
				settings: { onError: 'continueRegularOutput' },
			}),
			{ credentials: sim.credentials() },
		);
		expect(result.status).toBe('success');
		expect(result.output(NODE)[0].json.error).toEqual(expect.any(String));
		expect(hintsOf(result, NODE)).toEqual([]);
	});
});
