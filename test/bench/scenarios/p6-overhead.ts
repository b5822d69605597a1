/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P6: CPU per item spent by the node itself, against a bare request through
 * the same n8n helper. The simulator runs in a child process so that only
 * this process's CPU (engine + node + HTTP client) is counted; both runs use
 * the same engine, credentials and HTTP client, so the difference is what the
 * node adds (parameter reading, transport, retry and error bookkeeping).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { WorkflowJson } from '../../harness';
import { disposeHarness, loadWorkflowFile, registerNodeType, runWorkflow } from '../../harness';

export const title = 'per-item CPU of the node against a bare request through the same helper';

const ITEMS = 300;
const ROUNDS = 5;
const root = join(__dirname, '..', '..', '..');

const bareRequest: INodeType = {
	description: {
		displayName: 'Bare Request',
		name: 'bareRequest',
		group: ['transform'],
		version: 1,
		description: 'One httpRequestWithAuthentication per item, nothing else',
		defaults: { name: 'Bare Request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'generationGatewayBearerApi', required: true }],
		properties: [],
	},
	async execute(this: IExecuteFunctions) {
		const { baseUrl } = await this.getCredentials('generationGatewayBearerApi');
		const out = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const json = await this.helpers.httpRequestWithAuthentication.call(this, 'generationGatewayBearerApi', {
				method: 'GET',
				url: `${baseUrl}/v1/user/balance`,
				headers: { 'Content-Type': 'none' },
				json: true,
			});
			out.push({ json, pairedItem: { item: i } });
		}
		return [out];
	},
};

async function startChildSimulator(): Promise<{ url: string; keys: { bearer: string }; stop(): void }> {
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', join(root, 'test/simulator/cli.ts')],
		{
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let output = '';
	for await (const chunk of child.stdout) {
		output += String(chunk);
		if (output.includes('Keys:') && output.trim().endsWith('}')) break;
	}
	const url = /listening on (\S+)/.exec(output)![1];
	const keys = JSON.parse(/Keys: (.*)/.exec(output)![1]) as { bearer: string };
	return { url, keys, stop: () => child.kill() };
}

export async function run(): Promise<Record<string, string | number>> {
	registerNodeType('bench.bareRequest', bareRequest);
	const sim = await startChildSimulator();
	try {
		const credentials = { generationGatewayBearerApi: { baseUrl: sim.url, token: sim.keys.bearer } };
		const input = Array.from({ length: ITEMS }, (_, i) => ({ json: { i } }));
		const node = loadWorkflowFile(join(root, 'examples', 'account-balance.json'));
		const bare = JSON.parse(JSON.stringify(node)) as WorkflowJson;
		Object.assign(bare.nodes.find((n) => n.name === 'Get Balance')!, {
			type: 'bench.bareRequest',
			parameters: {},
		});

		const cpuPerItem = async (wf: WorkflowJson) => {
			const before = process.cpuUsage();
			const result = await runWorkflow(wf, { credentials, input });
			const used = process.cpuUsage(before);
			if (result.status !== 'success') throw new Error(`run failed: ${result.error?.message}`);
			return (used.user + used.system) / 1000 / ITEMS;
		};
		await cpuPerItem(node); // warm-up
		await cpuPerItem(bare);
		const nodeRuns: number[] = [];
		const bareRuns: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			nodeRuns.push(await cpuPerItem(node));
			bareRuns.push(await cpuPerItem(bare));
		}
		const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
		const nodeMs = median(nodeRuns);
		const bareMs = median(bareRuns);
		return {
			items: ITEMS,
			'node, CPU per item (ms)': nodeMs.toFixed(3),
			'bare request through the same helper, CPU per item (ms)': bareMs.toFixed(3),
			'node overhead per item (ms)': (nodeMs - bareMs).toFixed(3),
			'ratio node / bare': `${(nodeMs / bareMs).toFixed(2)}x`,
			'target (node overhead)': '<= 2 ms',
		};
	} finally {
		sim.stop();
		disposeHarness();
	}
}
