/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Bench P15 (burst.ts): its rows (GG_P15_ROWS, GG_P15_QUEUE_ROWS) and the rows' workflows. */
import { PACKAGE, createAndWaitNode, manualItems, withCredentials, type Workflow } from '../src/workflows';

export type Way = 'auto' | 'callback' | 'polling' | 'wait-node' | 'restart';

export interface BurstRow {
	way: Way;
	items: number;
	/** How the gateway treats a failed callback: never again, or twice more. */
	gateway: 'once' | 'retries';
}

const DEFAULT_ROWS =
	'auto:30 auto:100 auto:300 auto:1000 callback:30 callback:100 callback:300 callback:300:retries wait-node:30 wait-node:100 wait-node:300 polling:30 restart:300 restart:30';

export function parseRows(text = process.env.GG_P15_ROWS || DEFAULT_ROWS): BurstRow[] {
	return text
		.split(/\s+/)
		.filter(Boolean)
		.map((spec) => {
			const [way, items, gateway] = spec.split(':');
			if (!['auto', 'callback', 'polling', 'wait-node', 'restart'].includes(way) || !(Number(items) > 0))
				throw new Error(
					`P15 row "${spec}": way:items[:once|retries], way one of auto callback polling wait-node restart`,
				);
			return { way: way as Way, items: Number(items), gateway: gateway === 'retries' ? 'retries' : 'once' };
		});
}

export const NODE = 'Create Videos and Wait';
/** Download Video (on unless GG_P15_DOWNLOAD=0, the node's default: the record with its video's URL). */
export const DOWNLOAD = process.env.GG_P15_DOWNLOAD !== '0';
export const WAIT = 'Wait';
export const CALLBACK_TIMEOUT_MS = 10_000;

function prompts(count: number, endsAt: number): string[] {
	return Array.from({ length: count }, (_, i) => `burst ${i} [at:${endsAt}]`);
}

export function batchWorkflow(ids: Record<string, string>, row: BurstRow, endsAt: number): Workflow {
	const wait: Workflow['nodes'][number] =
		row.way === 'wait-node'
			? {
					name: WAIT,
					type: 'n8n-nodes-base.wait',
					typeVersion: 1.1,
					position: [800, 0],
					webhookId: '5f0f7d4e-8a52-4f4e-9d61-0c6f3b7e2a11',
					parameters: {
						resume: 'webhook',
						httpMethod: 'POST',
						limitWaitTime: true,
						resumeAmount: 10,
						resumeUnit: 'minutes',
					},
				}
			: createAndWaitNode({ mode: row.way === 'restart' ? 'auto' : row.way, download: DOWNLOAD }, [800, 0]);
	const last = String(wait.name);
	return withCredentials(
		{
			name: `P15 ${row.way} ${row.items} ${row.gateway}`,
			nodes: [
				...manualItems('prompts', prompts(row.items, endsAt)),
				{
					name: 'Resume URL',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [600, 0],
					parameters: {
						includeOtherFields: true,
						assignments: {
							assignments: [
								{ id: 'u', name: 'resumeUrl', value: '={{ $execution.resumeUrl }}', type: 'string' },
							],
						},
					},
				},
				wait,
			],
			connections: {
				Start: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
				Prompts: { main: [[{ node: 'One Item per Prompt', type: 'main', index: 0 }]] },
				'One Item per Prompt': { main: [[{ node: 'Resume URL', type: 'main', index: 0 }]] },
				'Resume URL': { main: [[{ node: last, type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}

/** A Wait for Completion run over task ids found after a restart (what a user would run). */
export function waitForCompletionWorkflow(ids: Record<string, string>, taskIds: string[]): Workflow {
	return withCredentials(
		{
			name: 'P15 restart: Wait for Completion',
			nodes: [
				...manualItems('ids', taskIds, { list: 'Task IDs', split: 'One Item per Task' }),
				{
					name: NODE,
					type: `${PACKAGE}.generationGateway`,
					typeVersion: 1,
					position: [600, 0],
					parameters: {
						resource: 'video',
						operation: 'waitForCompletion',
						taskId: '={{ $json.ids }}',
						waitOptions: { download: true },
					},
					credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
				},
			],
			connections: {
				Start: { main: [[{ node: 'Task IDs', type: 'main', index: 0 }]] },
				'Task IDs': { main: [[{ node: 'One Item per Task', type: 'main', index: 0 }]] },
				'One Item per Task': { main: [[{ node: NODE, type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}
