/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * P9: the time n8n spends resolving the node's parameters, as the server does
 * when a workflow is built (`NodeHelpers.getNodeParameters`, with defaults) and
 * when an execution starts (`getNodeParametersIssues`, in
 * checkReadyForExecution), for each resource's main operation. Next to it the
 * same calls on a node of n8n's own shape with plain conditions
 * (fixtures/plainConditionsNode.ts). Also counts the display conditions, and
 * how many of them are `regex` (each runs in n8n's sandbox with a watchdog).
 * The node is loaded from dist/, as n8n loads it: run `npm run build` first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { plainConditionsNode } from '../fixtures/plainConditionsNode';

export const title = "n8n resolving the node's parameters (getNodeParameters, getNodeParametersIssues)";

const RUNS = 300;
const WARMUP = 30;
const root = join(__dirname, '..', '..', '..');
const rl = (value: string) => ({ __rl: true, mode: 'list', value });

/** Each resource's main operation, with the values a user types (the rest comes from defaults). */
const OPERATIONS: Array<[string, INodeParameters]> = [
	[
		'image generate',
		{ resource: 'image', operation: 'generate', model: rl('imagegen-2'), prompt: 'a lighthouse' },
	],
	[
		'video create and wait',
		{ resource: 'video', operation: 'createAndWait', model: rl('vidA-2.5'), prompt: 'waves' },
	],
	[
		'speech synthesize',
		{
			resource: 'speech',
			operation: 'synthesize',
			model: rl('vendor/audioF-3.1-tts-flash'),
			input: 'Hello',
			voice: 'narrator_v3.1',
		},
	],
	['message create', { resource: 'message', operation: 'create', model: 'chat-model' }],
	['response create', { resource: 'response', operation: 'create', model: 'chat-model' }],
	['cached content create', { resource: 'cachedContent', operation: 'create', model: 'chat-model' }],
	['account get balance', { resource: 'account', operation: 'getBalance' }],
];

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};

function time(call: () => unknown): number {
	for (let i = 0; i < WARMUP; i++) call();
	const samples: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const start = performance.now();
		call();
		samples.push(performance.now() - start);
	}
	return median(samples);
}

/** The medians of both calls for one node's parameters, as n8n makes them. */
function measure(description: INodeTypeDescription, parameters: INodeParameters): [number, number] {
	const node: INode = {
		id: 'p9',
		name: 'P9',
		type: description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const resolve = () =>
		NodeHelpers.getNodeParameters(description.properties, parameters, true, false, node, description);
	const full = resolve();
	if (!full) throw new Error('getNodeParameters returned null');
	const resolved: INode = { ...node, parameters: full };
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, resolved, description);
	if (issues) throw new Error(`unexpected parameter issues: ${JSON.stringify(issues)}`);
	return [
		time(resolve),
		time(() => NodeHelpers.getNodeParametersIssues(description.properties, resolved, description)),
	];
}

/** Display conditions in a description: every `_cnd` object, and the `regex` ones. */
export function countConditions(description: INodeTypeDescription): { all: number; regex: number } {
	const counts = { all: 0, regex: 0 };
	const walk = (value: unknown) => {
		if (Array.isArray(value)) return value.forEach(walk);
		if (!value || typeof value !== 'object') return;
		const cnd = (value as { _cnd?: Record<string, unknown> })._cnd;
		if (cnd) {
			counts.all++;
			if ('regex' in cnd) counts.regex++;
		}
		Object.values(value).forEach(walk);
	};
	walk(description.properties);
	return counts;
}

/**
 * What the per-item model check costs: readModelForm over Image → Generate's
 * form with every field filled (a model chosen by expression keeps them all),
 * for an item whose model accepts them. A minimal execution context stands in
 * for n8n's (the values are already resolved).
 */
function perItemFormCheck(): number {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- built files, loaded by path as n8n loads them
	const load = (path: string) => require(join(root, 'dist', path));
	const { readModelForm } = load('nodes/shared/modelFields.js');
	const { imageCatalog } = load('nodes/GenerationGateway/actions/image/catalog.js');
	const { generateFields } = load('nodes/GenerationGateway/actions/image/fields.js');
	const parameters: INodeParameters = {
		resource: 'image',
		operation: 'generate',
		model: { __rl: true, mode: 'id', value: '={{ $json.m }}' },
		prompt: 'x',
		size: '1024x1024',
		n: 2,
		quality: 'high',
		referenceImages: {},
		downloadUrls: true,
		options: { background: 'opaque', output_format: 'png', stream: false, user: 'u' },
	};
	const ctx = {
		getNode: () => ({ parameters }),
		getNodeParameter: (name: string, _item: number, fallback?: unknown) => parameters[name] ?? fallback,
	};
	const form = { properties: generateFields, catalog: imageCatalog, notSent: ['downloadUrls'] };
	return time(() => {
		const read = readModelForm(ctx, 0, form, 'imagegen-2');
		read.collection('options');
		read.value('n', null);
	});
}

export async function run(): Promise<Record<string, string | number>> {
	const built = join(root, 'dist/nodes/GenerationGateway/GenerationGateway.node.js');
	if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` first');
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- built files, loaded by path as n8n loads them
	const { GenerationGateway } = require(built) as {
		GenerationGateway: new () => { description: INodeTypeDescription };
	};
	const ours = new GenerationGateway().description;
	const figures: Record<string, string | number> = {};
	const conditions = countConditions(ours);
	figures['display conditions (_cnd) in the description'] = conditions.all;
	figures['of which regex (sandboxed, 250 ms watchdog)'] = conditions.regex;
	const fmt = ([params, issues]: [number, number]) =>
		`getNodeParameters ${params.toFixed(3)} ms, getNodeParametersIssues ${issues.toFixed(3)} ms`;
	let worst = 0;
	for (const [label, parameters] of OPERATIONS) {
		const result = measure(ours, parameters);
		worst = Math.max(worst, ...result);
		figures[`${label}, median of ${RUNS}`] = fmt(result);
	}
	figures['plain-conditions fixture (n8n shape) image generate'] = fmt(
		measure(plainConditionsNode, {
			resource: 'image',
			operation: 'generate',
			model: 'pic-image-1',
			prompt: 'x',
		}),
	);
	figures['worst of ours (ms, target <= 2)'] = worst.toFixed(3);
	figures['per item at run time: the form read against the resolved model (shared/modelFields), image'] =
		`${perItemFormCheck().toFixed(3)} ms`;
	return figures;
}
