/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';
import { GenerationGatewayTrigger } from '../../../nodes/GenerationGatewayTrigger/GenerationGatewayTrigger.node';

/**
 * The codex files (<Node>.node.json beside each node) decide whether n8n's
 * node panel shows a node at all, under which heading, and which words find
 * it. What n8n's editor (node creator, n8n 2.41) does with them:
 *
 * - a node whose `categories` include "AI" is dropped from the panel's search
 *   and lists unless `subcategories.AI` includes "Root Nodes"
 *   (useViewStacks.filterOutAiNodes);
 * - a node whose `subcategories.AI` include "Tools" but not "Root Nodes" gets
 *   no actions (useActionsGenerator.generateNodeActions), and a root node may
 *   not be a tool (filterAiRootNodes);
 * - in the AI panel, "Agents" puts a root node on the panel's first page (n8n's
 *   own OpenAI and Google Gemini nodes: AI / Agents, Miscellaneous, Root Nodes),
 *   "Miscellaneous" under Other AI nodes;
 * - search matches the display name and every `alias` (a sublime search over
 *   properties.displayName and properties.codex.alias);
 * - a trigger whose app also has an action node is listed under the app's name
 *   ("Generation Gateway", not "... Trigger") and, as the e2e suite saw in n8n
 *   2.41, found by the action node's aliases: the trigger's words are aliases
 *   of the action node too.
 *
 * The rules below are written as a table of accepted and rejected codexes; the
 * package's own files must pass every rule.
 */

interface Codex {
	node: string;
	nodeVersion: string;
	codexVersion: string;
	categories: string[];
	subcategories?: Record<string, string[]>;
	alias?: string[];
	resources?: { primaryDocumentation?: Array<{ url: string }> };
}

const root = join(__dirname, '..', '..', '..');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	name: string;
	main?: string;
	files: string[];
	n8n: { nodes: string[]; credentials: string[] };
};

/** Category names n8n's node panel knows (n8n's codex categories). */
const CATEGORIES = [
	'AI',
	'Analytics',
	'Communication',
	'Core Nodes',
	'Data & Storage',
	'Development',
	'Finance & Accounting',
	'HITL',
	'Marketing',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

/** subcategories.AI names the editor's AI panel uses (CODEX_AI_SUBCATEGORIES). */
const AI_SUBCATEGORIES = [
	'Agents',
	'Chains',
	'Document Loaders',
	'Embeddings',
	'Language Models',
	'Memory',
	'Miscellaneous',
	'Model Context Protocol',
	'Output Parsers',
	'Retrievers',
	'Root Nodes',
	'Text Splitters',
	'Tools',
	'Vector Stores',
];

/** Every rule a codex must pass; each returns the problem, or undefined. */
const RULES: Array<[string, (codex: Codex) => string | undefined]> = [
	[
		'categories are names the node panel knows',
		(c) => {
			const unknown = c.categories.filter((name) => !CATEGORIES.includes(name));
			return c.categories.length === 0
				? 'no category'
				: unknown.length
					? `unknown categories ${unknown.join(', ')}`
					: undefined;
		},
	],
	[
		'subcategories only refine listed categories',
		(c) => {
			const stray = Object.keys(c.subcategories ?? {}).filter((name) => !c.categories.includes(name));
			return stray.length ? `subcategories for unlisted categories ${stray.join(', ')}` : undefined;
		},
	],
	[
		'an AI node is a root node, else the panel hides it',
		(c) =>
			c.categories.includes('AI') && !(c.subcategories?.AI ?? []).includes('Root Nodes')
				? 'categories include "AI" but subcategories.AI lacks "Root Nodes"'
				: undefined,
	],
	[
		'AI subcategories are the AI panel names, and a root node is not a tool',
		(c) => {
			const ai = c.subcategories?.AI ?? [];
			const unknown = ai.filter((name) => !AI_SUBCATEGORIES.includes(name));
			if (unknown.length) return `unknown AI subcategories ${unknown.join(', ')}`;
			return ai.includes('Tools') ? '"Tools" removes the node\'s actions from the panel' : undefined;
		},
	],
	[
		'aliases are lower-case, unique and not empty',
		(c) => {
			const alias = c.alias ?? [];
			if (!alias.length) return 'no alias: only the display name finds the node';
			const bad = alias.filter((a) => a !== a.toLowerCase() || !a.trim());
			if (bad.length) return `aliases not lower-case: ${bad.join(', ')}`;
			return new Set(alias).size === alias.length ? undefined : 'duplicate aliases';
		},
	],
	[
		'versions and documentation are set',
		(c) =>
			c.nodeVersion !== '1.0' || c.codexVersion !== '1.0'
				? 'nodeVersion and codexVersion must be "1.0"'
				: c.resources?.primaryDocumentation?.[0]?.url.startsWith('https://')
					? undefined
					: 'no https primaryDocumentation url',
	],
];

const problems = (codex: Codex) =>
	RULES.map(([name, rule]) => [name, rule(codex)] as const).filter(([, problem]) => problem !== undefined);

const valid: Codex = {
	node: 'pkg.node',
	nodeVersion: '1.0',
	codexVersion: '1.0',
	categories: ['AI'],
	subcategories: { AI: ['Agents', 'Miscellaneous', 'Root Nodes'] },
	alias: ['image', 'text to speech'],
	resources: { primaryDocumentation: [{ url: 'https://example.com' }] },
};

describe('codex rules', () => {
	it.each<[string, Partial<Codex>]>([
		["as n8n's OpenAI node: AI / Agents, Miscellaneous, Root Nodes", {}],
		['an app category only, no subcategories', { categories: ['Marketing'], subcategories: undefined }],
		['AI and an app category', { categories: ['AI', 'Marketing'] }],
	])('accepts %s', (_name, change) => {
		expect(problems({ ...valid, ...change })).toEqual([]);
	});

	it.each<[string, Partial<Codex>, string]>([
		[
			'AI without Root Nodes (the panel hides it)',
			{ subcategories: { AI: ['Agents', 'Miscellaneous'] } },
			'an AI node is a root node, else the panel hides it',
		],
		[
			'AI with no subcategories at all',
			{ subcategories: undefined },
			'an AI node is a root node, else the panel hides it',
		],
		[
			'a root node that is also a tool',
			{ subcategories: { AI: ['Tools', 'Root Nodes'] } },
			'AI subcategories are the AI panel names, and a root node is not a tool',
		],
		[
			'a misspelt AI subcategory',
			{ subcategories: { AI: ['Root nodes', 'Root Nodes'] } },
			'AI subcategories are the AI panel names, and a root node is not a tool',
		],
		['an unknown category', { categories: ['AI', 'Media'] }, 'categories are names the node panel knows'],
		[
			'no category',
			{ categories: [], subcategories: undefined },
			'categories are names the node panel knows',
		],
		[
			'subcategories of a category not listed',
			{ categories: ['Marketing'] },
			'subcategories only refine listed categories',
		],
		['no alias', { alias: [] }, 'aliases are lower-case, unique and not empty'],
		['a capitalised alias', { alias: ['Image'] }, 'aliases are lower-case, unique and not empty'],
		['a duplicate alias', { alias: ['tts', 'tts'] }, 'aliases are lower-case, unique and not empty'],
		['no documentation', { resources: undefined }, 'versions and documentation are set'],
	])('rejects %s', (_name, change, rule) => {
		expect(problems({ ...valid, ...change }).map(([name]) => name)).toEqual([rule]);
	});
});

/** The words a user would type to find each node, all of which must be aliases. */
const NODES: Array<{ file: string; description: INodeTypeDescription; words: string[] }> = [
	{
		file: 'nodes/GenerationGateway/GenerationGateway.node.json',
		description: new GenerationGateway().description,
		words: [
			'image',
			'video',
			'speech',
			'text to speech',
			'tts',
			'message',
			'response',
			'cache',
			'balance',
			'gateway',
			// the trigger's words (see above)
			'callback',
			'webhook',
		],
	},
	{
		file: 'nodes/GenerationGatewayTrigger/GenerationGatewayTrigger.node.json',
		description: new GenerationGatewayTrigger().description,
		words: ['video', 'callback', 'webhook', 'gateway'],
	},
];

describe.each(NODES.map((n) => [n.file, n] as const))('%s', (file, { description, words }) => {
	const codex = JSON.parse(readFileSync(join(root, file), 'utf8')) as Codex;

	it('passes every codex rule', () => {
		expect(problems(codex)).toEqual([]);
	});

	it('names the node type n8n registers: <package name>.<node name>', () => {
		expect(codex.node).toBe(`${packageJson.name}.${description.name}`);
	});

	it('is found by the words a user types', () => {
		expect(words.filter((word) => !(codex.alias ?? []).includes(word))).toEqual([]);
	});

	it('sits beside the node file that package.json lists, so the build copies it to dist/', () => {
		const built = file.replace(/\.node\.json$/, '.node.js');
		expect(packageJson.n8n.nodes).toContain(`dist/${built}`);
	});
});

describe('package.json', () => {
	/** dist/<path>.js is compiled from <path>.ts (tsconfig: outDir dist, sources from the root). */
	const sourceOf = (distPath: string) => join(root, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));

	it('main points into the published files, at a file the build makes', () => {
		expect(packageJson.main).toMatch(/^dist\/.+\.js$/);
		expect(packageJson.files).toContain('dist');
		expect(existsSync(sourceOf(packageJson.main!))).toBe(true);
	});

	it.each([...packageJson.n8n.nodes, ...packageJson.n8n.credentials])(
		'%s is built from a source file',
		(path) => {
			expect(path.startsWith('dist/')).toBe(true);
			expect(existsSync(sourceOf(path))).toBe(true);
		},
	);
});
