/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The form as each supported n8n evaluates it. n8n resolves a node's
 * parameters (`getNodeParameters`) and checks them (`getNodeParametersIssues`)
 * with its own n8n-workflow before every run and in the editor; older releases
 * evaluate some display conditions differently (see `scopeModelConditions`).
 * Here the oldest n8n-workflow of each supported line (1.120.31 is n8n
 * 1.123's, 2.0.1 is n8n 2.0's, installed as aliases) must give exactly what
 * the installed one gives: every field of every resource and operation, every
 * model row of the visibility table, every example workflow's nodes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { NodeHelpers as NodeHelpers120 } from 'n8n-workflow-1.120';
import { NodeHelpers as NodeHelpers20 } from 'n8n-workflow-2.0';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';
import { RESOURCES } from '../../../nodes/GenerationGateway/actions/resources';
import { GenerationGatewayTrigger } from '../../../nodes/GenerationGatewayTrigger/GenerationGatewayTrigger.node';
import { visibilityTable } from './visibility';

type Helpers = Pick<typeof NodeHelpers, 'getNodeParameters' | 'getNodeParametersIssues' | 'displayParameter'>;

const RELEASES: Array<[string, Helpers]> = [
	['n8n-workflow 1.120.31 (n8n 1.123)', NodeHelpers120 as unknown as Helpers],
	['n8n-workflow 2.0.1 (n8n 2.0)', NodeHelpers20 as unknown as Helpers],
];

const action = new GenerationGateway().description;
const trigger = new GenerationGatewayTrigger().description;

function node(description: INodeTypeDescription, parameters: INodeParameters, name = 'Node'): INode {
	return {
		id: 'e6f0bbf4-7c52-4c1a-9a3e-1f0a7c1d2b3c',
		name,
		type: `n8n-nodes-generation-gateway.${description.name}`,
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
}

/** What n8n makes of a node's saved parameters: the resolved values and their issues. */
function resolve(helpers: Helpers, description: INodeTypeDescription, saved: INodeParameters) {
	const values = helpers.getNodeParameters(
		description.properties,
		saved,
		true,
		false,
		node(description, saved),
		description,
	);
	const issues = helpers.getNodeParametersIssues(
		description.properties,
		node(description, values ?? {}),
		description,
	);
	return { values, issues };
}

/** Every resource and operation as a user picks it, with the form's defaults for the rest. */
const pairs = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => [
		`${resource.value} → ${operation.value}`,
		resource.value,
		operation.value,
	]),
);

/** The nodes of the package in every example workflow. */
const exampleNodes = readdirSync(join(__dirname, '../../../examples'))
	.filter((file) => file.endsWith('.json'))
	.flatMap((file) => {
		const workflow = JSON.parse(readFileSync(join(__dirname, '../../../examples', file), 'utf8')) as {
			nodes: Array<{ name: string; type: string; parameters: INodeParameters }>;
		};
		return workflow.nodes
			.filter((n) => n.type.startsWith('n8n-nodes-generation-gateway.'))
			.map(
				(n) => [`${file}: ${n.name}`, n.type.endsWith('Trigger') ? trigger : action, n.parameters] as const,
			);
	});

describe.each(RELEASES)('the form in %s', (_release, helpers) => {
	it.each(pairs)('%s resolves and checks as in the installed n8n-workflow', (_label, resource, operation) => {
		const saved = { resource, operation };
		expect(resolve(helpers, action, saved)).toEqual(resolve(NodeHelpers, action, saved));
	});

	it('the trigger resolves and checks as in the installed n8n-workflow', () => {
		expect(resolve(helpers, trigger, {})).toEqual(resolve(NodeHelpers, trigger, {}));
	});

	it.each(exampleNodes)(
		'example %s resolves and checks as in the installed n8n-workflow',
		(_label, description, saved) => {
			const old = resolve(helpers, description, saved);
			expect(old).toEqual(resolve(NodeHelpers, description, saved));
			expect(old.issues).toBeNull();
		},
	);

	it('shows the same fields for every model row of the visibility table', () => {
		expect(visibilityTable(helpers)).toEqual(visibilityTable());
	});
});

it('the examples cover nodes with no model (the case older n8n-workflow failed on)', () => {
	const labels = exampleNodes.map(([label]) => label);
	expect(labels.some((label) => label.startsWith('account-balance.json'))).toBe(true);
	expect(pairs.map(([label]) => label)).toEqual(
		expect.arrayContaining(['account → getBalance', 'video → get']),
	);
});

/** The values package code takes from n8n-workflow (type imports vanish when compiled), and NodeHelpers' members. */
function n8nWorkflowValuesUsed(): { imports: string[]; nodeHelpers: string[] } {
	const root = join(__dirname, '../../..');
	const files = (dir: string): string[] =>
		readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
			entry.isDirectory()
				? files(join(dir, entry.name))
				: entry.name.endsWith('.ts')
					? [join(root, dir, entry.name)]
					: [],
		);
	const imports = new Set<string>();
	const nodeHelpers = new Set<string>();
	for (const file of [...files('nodes'), ...files('credentials'), join(root, 'index.ts')]) {
		const text = readFileSync(file, 'utf8');
		for (const [, names] of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'n8n-workflow'/g)) {
			for (const name of names.split(',').map((n) => n.trim()))
				if (name && !name.startsWith('type ')) imports.add(name);
		}
		for (const [, member] of text.matchAll(/NodeHelpers\.(\w+)/g)) nodeHelpers.add(member);
	}
	return { imports: [...imports].sort(), nodeHelpers: [...nodeHelpers].sort() };
}

describe.each([
	['n8n-workflow 1.120.31 (n8n 1.123)', 'n8n-workflow-1.120'],
	['n8n-workflow 2.0.1 (n8n 2.0)', 'n8n-workflow-2.0'],
])('what package code takes from %s', (_release, alias) => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const release = require(alias) as Record<string, unknown> & { NodeHelpers: Record<string, unknown> };
	const used = n8nWorkflowValuesUsed();

	it('finds the imports it checks', () => {
		expect(used.imports).toEqual(
			expect.arrayContaining(['NodeOperationError', 'NodeApiError', 'NodeHelpers']),
		);
	});

	it.each(used.imports)('exports %s', (name) => {
		expect(release[name]).toBeDefined();
	});

	it.each(used.nodeHelpers)('has NodeHelpers.%s', (name) => {
		expect(typeof release.NodeHelpers[name]).toBe('function');
	});
});
