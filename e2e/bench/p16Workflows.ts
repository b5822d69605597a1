/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/** Bench P16 (p16.ts): its rows (GG_P16_ROWS) and the rows' workflows. */
import { randomBytes, randomUUID } from 'node:crypto';

import { PACKAGE, createAndWaitNode, createVideoNode, type Workflow } from '../src/workflows';
import type { Collector } from './p16Collector';

export type Way =
	| 'wait'
	| 'wait-restart'
	| 'wait-down'
	| 'wait-node'
	| 'wait-node-restart'
	| 'wait-node-down'
	| 'trigger'
	| 'trigger-create'
	| 'webhook'
	| 'webhook-get';
const WAYS: Way[] = [
	'wait',
	'wait-restart',
	'wait-down',
	'wait-node',
	'wait-node-restart',
	'wait-node-down',
	'trigger',
	'trigger-create',
	'webhook',
	'webhook-get',
];
export const TRIGGER_KEY = randomBytes(16).toString('hex');
const DEFAULT_ROWS = 'wait-node:300 wait:300 webhook:300 trigger:300 trigger-create:300';

export interface Row {
	way: Way;
	count: number;
}

export function parseRows(text = process.env.GG_P16_ROWS || DEFAULT_ROWS): Row[] {
	return text
		.split(/\s+/)
		.filter(Boolean)
		.map((spec) => {
			const [way, count] = spec.split(':');
			if (!WAYS.includes(way as Way) || !(Number(count) > 0)) {
				throw new Error(`P16 row "${spec}": way:count, way one of ${WAYS.join(' ')}`);
			}
			return { way: way as Way, count: Number(count) };
		});
}

function post(
	name: string,
	url: string,
	fields: Record<string, string>,
	x: number,
): Workflow['nodes'][number] {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [x, 0],
		parameters: {
			method: 'POST',
			url,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ ${Object.entries(fields)
				.map(([key, value]) => `${key}: ${value}`)
				.join(', ')} }) }}`,
		},
	};
}

function webhookNode(path: string, webhookId: string): Workflow['nodes'][number] {
	return {
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
}

const chain = (...names: string[]): Workflow['connections'] =>
	Object.fromEntries(
		names.slice(0, -1).map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** The workflow with the package's nodes at GG_P16_TYPE_VERSION when set. */
export function atTypeVersion(workflow: Workflow): Workflow {
	const version = Number(process.env.GG_P16_TYPE_VERSION);
	if (!version) return workflow;
	const nodes = workflow.nodes.map((node) =>
		String(node.type).startsWith('n8n-nodes-generation-gateway.') ? { ...node, typeVersion: version } : node,
	);
	return { ...workflow, nodes };
}

/** The row's workflow, and the URL that starts one execution (wait rows) or takes the calls. */
export function workflowOf(way: Way, collector: Collector, hookId: string, path: string): Workflow {
	const report = (id: string) => post('Report', `${collector.url}/seen`, { id }, 600);
	switch (way) {
		case 'wait':
		case 'wait-restart':
		case 'wait-down': {
			const wait = createAndWaitNode({ mode: 'auto', download: false }, [300, 0]);
			(wait.parameters as Record<string, unknown>).prompt = '={{ $json.body.prompt }}';
			return {
				name: `P16 ${path}`,
				nodes: [webhookNode(path, hookId), wait, report("$('Start').item.json.body.id")],
				connections: chain('Start', String(wait.name), 'Report'),
			};
		}
		case 'wait-node':
		case 'wait-node-restart':
		case 'wait-node-down':
			return {
				name: `P16 ${path}`,
				nodes: [
					webhookNode(path, hookId),
					post('Tell', `${collector.url}/resume`, { url: '$execution.resumeUrl' }, 200),
					{
						name: 'Wait',
						type: 'n8n-nodes-base.wait',
						typeVersion: 1.1,
						position: [400, 0],
						webhookId: randomUUID(),
						parameters: {
							resume: 'webhook',
							httpMethod: 'POST',
							limitWaitTime: true,
							resumeAmount: 20,
							resumeUnit: 'minutes',
						},
					},
					report("$('Start').item.json.body.id"),
				],
				connections: chain('Start', 'Tell', 'Wait', 'Report'),
			};
		case 'trigger':
		case 'trigger-create':
			return {
				name: `P16 ${path}`,
				nodes: [
					{
						name: 'Video Finished',
						type: `${PACKAGE}.generationGatewayTrigger`,
						typeVersion: 1,
						position: [0, 0],
						webhookId: hookId,
						parameters: { secret: TRIGGER_KEY },
						credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
					},
					report('$json.id'),
				],
				connections: chain('Video Finished', 'Report'),
			};
		case 'webhook':
			return {
				name: `P16 ${path}`,
				nodes: [webhookNode(path, hookId), report('$json.body.id')],
				connections: chain('Start', 'Report'),
			};
		case 'webhook-get':
			return {
				name: `P16 ${path}`,
				nodes: [
					webhookNode(path, hookId),
					{
						name: 'Get Video',
						type: `${PACKAGE}.generationGateway`,
						typeVersion: 1,
						position: [300, 0],
						parameters: { resource: 'video', operation: 'get', taskId: '={{ $json.body.id }}' },
						credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
					},
					// The running statuses' callbacks start it too: only a final record counts.
					report("$json.status === 'completed' ? $json.id : 'not final'"),
				],
				connections: chain('Start', 'Get Video', 'Report'),
			};
	}
}

/** Webhook → Video → Create with the trigger's address as its callback: one task per execution. */
export function creatorOf(path: string, hookId: string, triggerUrl: string): Workflow {
	return {
		name: `P16 ${path} creator`,
		nodes: [webhookNode(path, hookId), createVideoNode('={{ $json.body.prompt }}', triggerUrl, [300, 0])],
		connections: chain('Start', 'Create Video'),
	};
}
