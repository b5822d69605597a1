/**
 * The node on an n8n that lacks what recent n8n gives it (nodes/shared/n8nFeatures.ts),
 * in real executions: n8n-core's contexts are changed for one test at a time to
 * look like an older n8n's.
 *
 * - n8n 1.x and early 2.x have no `customData` on the node's context: callback
 *   mode keeps its task list through `$execution.customData` and resumes as usual.
 * - An n8n with neither: Create and Wait polls, says why, and every video arrives.
 */
import { NodeExecutionContext } from 'n8n-core/dist/execution-engine/node-execution-context/node-execution-context';
import * as additionalKeysModule from 'n8n-core/dist/execution-engine/node-execution-context/utils/get-additional-keys';

import { runWorkflow } from '../harness';
import { WaitingWebhookServer } from '../harness/resume';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

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

const proto = NodeExecutionContext.prototype as unknown as Record<string, unknown>;
const keysModule = additionalKeysModule as {
	getAdditionalKeys: typeof additionalKeysModule.getAdditionalKeys;
};

type Keys = { $execution?: Record<string, unknown> };

/**
 * Runs `work` with n8n-core's contexts looking like an older n8n's, then puts them back:
 * - `noContextCustomData`: no `customData` on the context (n8n 1.x, 2.0), and expressions
 *   that return no functions (the sandboxed expression engine, n8n 1.123's default);
 * - `noExecutionCustomData`: no `$execution.customData` either.
 */
async function asOlderN8n<T>(
	changes: { noContextCustomData?: boolean; noExecutionCustomData?: boolean },
	work: () => Promise<T>,
): Promise<T> {
	const customData = Object.getOwnPropertyDescriptor(proto, 'customData')!;
	const { getAdditionalKeys } = keysModule;
	const evaluateExpression = proto.evaluateExpression as (
		this: unknown,
		expression: string,
		item?: number,
	) => unknown;
	if (changes.noContextCustomData) {
		Object.defineProperty(proto, 'customData', { configurable: true, get: () => undefined });
		proto.evaluateExpression = function (this: unknown, expression: string, item?: number) {
			const value = evaluateExpression.call(this, expression, item);
			return typeof value === 'object' &&
				value !== null &&
				Object.values(value).some((v) => typeof v === 'function')
				? undefined
				: value;
		};
	}
	if (changes.noExecutionCustomData) {
		// What every context hands its expressions and data proxy as `$execution`, without custom data.
		keysModule.getAdditionalKeys = (...args: Parameters<typeof getAdditionalKeys>) => {
			const keys = getAdditionalKeys(...args) as Keys;
			return { ...keys, $execution: { ...keys.$execution, customData: undefined } } as ReturnType<
				typeof getAdditionalKeys
			>;
		};
	}
	try {
		return await work();
	} finally {
		Object.defineProperty(proto, 'customData', customData);
		keysModule.getAdditionalKeys = getAdditionalKeys;
		proto.evaluateExpression = evaluateExpression;
	}
}

const reads = (ids: string[]) =>
	ids.reduce((sum, id) => sum + sim.requestsTo(`/v1/videos/${id}`, 'GET').length, 0);

describe('Create and Wait on an older n8n', () => {
	it("without the context's customData, expressions returning no functions (n8n 1.123): waits by callback through $execution.customData", async () => {
		await asOlderN8n({ noContextCustomData: true }, async () => {
			const waiting = await runWorkflow(videoCallbackWorkflow(), {
				credentials: sim.credentials(),
				input: promptItems(['a [after:400]', 'b [after:600]', 'c [after:800]']),
				instanceBaseUrl: n8n.url,
			});
			n8n.track(waiting);
			expect(waiting.status).toBe('waiting');
			const metadata = waiting.runExecutionData.resultData.metadata ?? {};
			expect(Object.keys(metadata).filter((key) => key.startsWith('ggvideo_')).length).toBeGreaterThan(0);
			const ids = waiting.output(VIDEO_NODE).map((item) => String(item.json.id));
			const done = await n8n.finished(waiting.executionId);
			expect(done.status).toBe('success');
			const out = done.output(VIDEO_NODE);
			expect(out.map((item) => item.json.id)).toEqual(ids);
			for (const item of out) {
				expect(item.json).toMatchObject({ status: 'completed', waitInfo: { mode: 'callback', polls: 0 } });
			}
			const mine = n8n.deliveries.filter((d) => d.executionId === waiting.executionId);
			expect(mine.filter((d) => d.resumed)).toHaveLength(1);
			// Reads only as the wait began and on final callbacks (each reads its task, then the others
			// in item order up to the first still running): at most 3 per task, never a polling loop.
			expect(reads(ids)).toBeLessThanOrEqual(3 * ids.length);
		});
	});

	it('with no custom data at all: polls instead, says why, and every video arrives', async () => {
		await asOlderN8n({ noContextCustomData: true, noExecutionCustomData: true }, async () => {
			const result = await runWorkflow(videoCallbackWorkflow(), {
				credentials: sim.credentials(),
				input: promptItems(['a [after:300]', 'b [after:300]']),
				instanceBaseUrl: n8n.url,
			});
			expect(result.status).toBe('success');
			const out = result.output(VIDEO_NODE);
			expect(out.map((item) => item.json.status)).toEqual(['completed', 'completed']);
			expect(out.map((item) => (item.json.waitInfo as { mode: string }).mode)).toEqual([
				'polling',
				'polling',
			]);
			// No task was sent the resume URL as its callback: nothing would take the call.
			const posted = sim.requestsTo('/v1/videos', 'POST').slice(-2);
			expect(posted.map((request) => (request.body as { callback_url?: string }).callback_url)).toEqual([
				undefined,
				undefined,
			]);
			const hints = (result.run.data.resultData.runData[VIDEO_NODE]?.[0]?.hints ?? []).map(
				(hint) => hint.message,
			);
			expect(hints).toEqual(
				expect.arrayContaining([expect.stringContaining('keeps no custom data for a waiting execution')]),
			);
		});
	});
});
