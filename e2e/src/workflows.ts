/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * What the suite's workflows are made of: the workflow type, the example files and their
 * credentials in an n8n, and the builders of the workflows the parts run (a manual trigger's items
 * into Create and Wait by callback, the Create node, held task ends). Running and checking them:
 * examples.ts (the examples, the trigger from its production URL) and callbackWait.ts (Create and
 * Wait by callback with several items, its Wait Timeout).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import { videoTasks } from '../../test/simulator/video/tasks';
import type { Checks } from './checks';
import type { N8n } from './n8n';
import { repoRoot } from './n8n';

export const PACKAGE = 'n8n-nodes-generation-gateway';
export const TRIGGER_TYPE = `${PACKAGE}.generationGatewayTrigger`;

export interface Workflow {
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		webhookId?: string;
		[key: string]: unknown;
	}>;
	/** By source node and kind of connection: for each output, the nodes it leads to. */
	connections: Record<string, Partial<Record<ConnectionKind, Array<Array<Connection>>>>>;
	[key: string]: unknown;
}

/**
 * n8n's kinds of connection (NodeConnectionTypes): `main` carries items from node to node; the ai_*
 * kinds join an AI root node (AI Agent, MCP Server Trigger) to its sub-nodes (model, tools, memory).
 */
export type ConnectionKind =
	| 'main'
	| 'ai_agent'
	| 'ai_chain'
	| 'ai_document'
	| 'ai_embedding'
	| 'ai_languageModel'
	| 'ai_memory'
	| 'ai_outputParser'
	| 'ai_retriever'
	| 'ai_reranker'
	| 'ai_textSplitter'
	| 'ai_tool'
	| 'ai_vectorStore';

/** One end of a connection: the node it leads to, the kind and that node's input. */
export interface Connection {
	node: string;
	type?: ConnectionKind;
	index?: number;
}

export interface Context {
	n8n: N8n;
	sim: Simulator;
	checks: Checks;
	/** Credential ids in this n8n, by credential type. */
	credentials: Record<string, string>;
	/** Label for output folders (e2e-output/<label>/<example>/). */
	label: string;
}

export const examplesDir = join(repoRoot, 'examples');

export function exampleFiles(): string[] {
	return readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => join(examplesDir, f));
}

export function loadWorkflow(file: string): Workflow {
	return JSON.parse(readFileSync(file, 'utf8')) as Workflow;
}

/** The name each credential type gets here, as a user would name it (the README's pictures show it). */
export function credentialName(type: string): string {
	const names: Record<string, string> = {
		generationGatewayBearerApi: 'Generation Gateway account',
		generationGatewayApiKeyApi: 'Generation Gateway API key',
		generationGatewayNativeKeyApi: 'Generation Gateway native key',
		generationGatewayN8nApi: 'Generation Gateway (Recover Waits)',
	};
	return names[type] ?? type;
}

/**
 * Creates one credential of each gateway type, pointing at the simulator, and Recover Waits' own:
 * `inside`, n8n's address as its processes reach it (the suite's own n8n: its URL), and an API key
 * of the owner.
 */
export async function createCredentials(
	n8n: N8n,
	sim: Simulator,
	inside = n8n.url,
): Promise<Record<string, string>> {
	const ids: Record<string, string> = {};
	for (const [type, data] of Object.entries(sim.credentials())) {
		ids[type] = await n8n.createCredential(type, credentialName(type), data);
	}
	const apiKey = await n8n.createApiKey('Recover Waits');
	ids.generationGatewayN8nApi = await n8n.createCredential(
		'generationGatewayN8nApi',
		credentialName('generationGatewayN8nApi'),
		{ baseUrl: inside, apiKey, ignoreSslIssues: false },
	);
	return ids;
}

/** The workflow with its credential references pointing at this n8n's credentials. */
export function withCredentials(workflow: Workflow, ids: Record<string, string>): Workflow {
	const copy = JSON.parse(JSON.stringify(workflow)) as Workflow;
	for (const node of copy.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			node.credentials![type] = { id: ids[type], name: credentialName(type) };
		}
	}
	return copy;
}

/** Item i's prompt: its task ends `afterMs` after its create, or at the instant `endsAt` (ms since 1970). */
export const callbackPrompt = (i: number, afterMs: number, endsAt?: number) =>
	`Callback item ${i + 1} ${endsAt === undefined ? `[after:${afterMs}]` : `[at:${endsAt}]`}`;
/**
 * Manual trigger `Start` → a Set node holding `values` under `field` → Split Out: one item per value,
 * each with `field` (the last node is `split`).
 */
/** n8n's manual trigger named "Start": where a workflow run from the editor or the API begins. */
export function startNode(): Workflow['nodes'][number] {
	return {
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

export function manualItems(
	field: string,
	values: unknown[],
	names = { list: 'Prompts', split: 'One Item per Prompt' },
): Workflow['nodes'] {
	return [
		startNode(),
		{
			name: names.list,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ [field]: values }) },
		},
		{
			name: names.split,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
			parameters: { fieldToSplitOut: field, include: 'noOtherFields' },
		},
	];
}

/** The name of the Create and Wait node that createAndWaitNode() and callbackWaitOf() make. */
export const CREATE_AND_WAIT = 'Create Videos and Wait';

/** Video → Create and Wait (vidA-2.5, 5 s) named CREATE_AND_WAIT, a task per item's `prompts`. */
export function createAndWaitNode(
	waitOptions: Record<string, unknown>,
	position = [600, 0],
): Workflow['nodes'][number] {
	return {
		name: CREATE_AND_WAIT,
		type: `${PACKAGE}.generationGateway`,
		typeVersion: 1,
		position,
		parameters: {
			resource: 'video',
			operation: 'createAndWait',
			model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
			prompt: '={{ $json.prompts }}',
			duration: 5,
			waitOptions,
		},
		credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
	};
}

/** Video → Create (vidA-2.5, 5 s) named `Create Video`, its task calling `callbackUrl` back. */
export function createVideoNode(
	prompt: string,
	callbackUrl: string,
	position = [200, 0],
): Workflow['nodes'][number] {
	return {
		name: 'Create Video',
		type: `${PACKAGE}.generationGateway`,
		typeVersion: 1,
		position,
		parameters: {
			resource: 'video',
			operation: 'create',
			model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
			prompt,
			duration: 5,
			videoOptions: { callbackUrl },
		},
		credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
	};
}

/** Manual trigger -> `items` prompts as items -> Create and Wait in callback mode (download on). */
export function callbackWorkflow(
	ids: Record<string, string>,
	items: number,
	afterMs: number,
	endsAt?: number,
): Workflow {
	const prompts = Array.from({ length: items }, (_, i) => callbackPrompt(i, afterMs, endsAt));
	return callbackWaitOf(ids, `Create and Wait, callback mode, ${items} items`, prompts, 5);
}

/** Manual trigger -> one item per prompt -> Create and Wait by callback (download on), this Wait Timeout. */
export function callbackWaitOf(
	ids: Record<string, string>,
	name: string,
	prompts: string[],
	timeoutMinutes: number,
): Workflow {
	return withCredentials(
		{
			name,
			nodes: [
				...manualItems('prompts', prompts),
				createAndWaitNode({ mode: 'callback', download: true, timeoutMinutes }),
			],
			connections: {
				Start: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
				Prompts: { main: [[{ node: 'One Item per Prompt', type: 'main', index: 0 }]] },
				'One Item per Prompt': { main: [[{ node: CREATE_AND_WAIT, type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}

/** How often each value occurs, as "value×n", in order of first appearance. */
export function countEach(values: string[]): string {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts].map(([value, n]) => `${value}×${n}`).join(', ') || 'none';
}

/** How far the simulator's clock jumps when a held batch ends (`holdTaskEnds`). */
const HELD_FOR_MS = 3_600_000;

/**
 * Tasks created with `[at:${endsAt}]` run (pending, queue, in_progress, as a gateway's tasks start
 * while the node still creates the others) and end only when `release()` moves the simulator's clock
 * past `endsAt`: every one of them ends in that instant, however long the creates took. Returns
 * the instant of the release. The clock never goes back (a task that ended stays ended): it runs on
 * from there, an hour ahead of the wall clock for each release.
 */
export function holdTaskEnds(sim: Simulator): { endsAt: number; release(): number } {
	const tasks = videoTasks(sim);
	return {
		endsAt: tasks.now() + HELD_FOR_MS,
		release: () => {
			const offset = tasks.now() - Date.now() + HELD_FOR_MS;
			tasks.now = () => Date.now() + offset;
			return Date.now();
		},
	};
}
