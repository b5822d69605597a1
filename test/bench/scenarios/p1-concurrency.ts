/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P1: 20 items against a gateway that takes 1 s per request, with Max
 * Concurrent Requests 5 and then 1 (one after another, as n8n's own
 * OpenAI and Gemini nodes run items). Target: <= 1.3 x ceil(20/5) x 1 s.
 */
import { join } from 'node:path';

import type { WorkflowJson } from '../../harness';
import { disposeHarness, loadWorkflowFile, runWorkflow } from '../../harness';
import { startSimulator } from '../../simulator';

export const title = 'concurrency: 20 items, 1 s gateway latency';

const ITEMS = 20;

function workflow(maxConcurrency: number): WorkflowJson {
	const wf = loadWorkflowFile(join(__dirname, '..', '..', '..', 'examples', 'account-balance.json'));
	const node = wf.nodes.find((n) => n.name === 'Get Balance')!;
	node.parameters.requestOptions = { maxConcurrency };
	return wf;
}

export async function run(): Promise<Record<string, string | number>> {
	const sim = await startSimulator({ latencyMs: 1000 });
	try {
		const input = Array.from({ length: ITEMS }, (_, i) => ({ json: { i } }));
		const time = async (maxConcurrency: number) => {
			const started = Date.now();
			const result = await runWorkflow(workflow(maxConcurrency), { credentials: sim.credentials(), input });
			if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
			return (Date.now() - started) / 1000;
		};
		await time(20); // warm-up: loads the node, the credential types and the HTTP agent
		const concurrent = await time(5);
		const sequential = await time(1);
		const target = 1.3 * Math.ceil(ITEMS / 5);
		return {
			'Max Concurrent Requests 5 (s)': concurrent.toFixed(2),
			'Max Concurrent Requests 1, sequential (s)': sequential.toFixed(2),
			'speed-up': `${(sequential / concurrent).toFixed(2)}x`,
			'target (s)': `<= ${target.toFixed(1)}`,
			'within target': concurrent <= target ? 'yes' : 'no',
		};
	} finally {
		await sim.stop();
		disposeHarness();
	}
}
