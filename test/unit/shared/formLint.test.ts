/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';
import { IMAGE_MODELS } from '../../../nodes/GenerationGateway/actions/image/catalog';
import { VIDEO_MODELS } from '../../../nodes/GenerationGateway/actions/video/catalog';
import { GenerationGatewayTrigger } from '../../../nodes/GenerationGatewayTrigger/GenerationGatewayTrigger.node';

/**
 * n8n's form rules (the lint's node-param rules) read object literals in the
 * source, so a field a factory builds escapes them. Here they read the form
 * as n8n receives it: both nodes' properties, written out as one literal and
 * linted with the package's own ESLint config. Besides the choices below,
 * made on purpose, nothing is reported.
 */

const ROOT = join(__dirname, '..', '..', '..');
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A value as TypeScript source: keys unquoted where they can be, one member per line. */
function literal(value: unknown, indent = ''): string {
	const inner = `${indent}\t`;
	if (Array.isArray(value)) {
		if (!value.length) return '[]';
		return `[\n${value.map((entry) => inner + literal(entry, inner)).join(',\n')},\n${indent}]`;
	}
	if (value && typeof value === 'object') {
		const entries = Object.entries(value).filter(([, member]) => member !== undefined);
		if (!entries.length) return '{}';
		const lines = entries.map(
			([key, member]) =>
				`${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${literal(member, inner)}`,
		);
		return `{\n${lines.join(',\n')},\n${indent}}`;
	}
	return JSON.stringify(value);
}

interface Finding {
	ruleId: string | null;
	line: number;
	message: string;
	/** The line reported, and the one after it. */
	at: string;
	next: string;
}

/** Properties as the source of a file that declares them. */
function sourceOf(properties: INodeProperties[]): string {
	return `import type { INodeProperties } from 'n8n-workflow';\n\nexport const properties: INodeProperties[] = ${literal(properties)};\n`;
}

/** Each text's findings, from one ESLint run in a child process (starting ESLint is most of its cost). */
function lintSources(texts: string[]): Finding[][] {
	const run = spawnSync(
		process.execPath,
		[join(__dirname, 'lintDescription.mjs'), ROOT, join(ROOT, 'nodes', 'GenerationGateway', 'Form.node.ts')],
		{ input: JSON.stringify(texts), encoding: 'utf8', timeout: 120_000 },
	);
	if (run.status !== 0) throw new Error(`ESLint did not run: ${run.stderr}`);
	return (JSON.parse(run.stdout) as Finding[][]).map((findings, index) => {
		const lines = texts[index].split('\n');
		return findings.map((finding) => ({
			...finding,
			at: lines[finding.line - 1].trim(),
			next: lines[finding.line]?.trim() ?? '',
		}));
	});
}

const MODEL_IDS = new Set([...VIDEO_MODELS, ...IMAGE_MODELS].map((model) => model.id));
const stringIn = (line: string) => /^\w+: (".*"),?$/.exec(line)?.[1];

/** Why a finding is a choice made on purpose, or undefined. */
function deliberate(finding: Finding): string | undefined {
	const rule = finding.ruleId?.replace('n8n-nodes-base/', '');
	if (
		rule === 'node-param-options-type-unsorted-items' ||
		rule === 'node-param-multi-options-type-unsorted-items'
	)
		return 'choices in their own order (low to high, small to large, the default first)';
	if (rule === 'node-param-display-name-miscased' && finding.at.startsWith('name: ')) {
		// A choice shown as the gateway names it: the value, or the value with spaces for underscores.
		const name = JSON.parse(stringIn(finding.at) ?? '""') as string;
		const value = JSON.parse(stringIn(finding.next) ?? '""') as string;
		if (finding.next.startsWith('value: ') && name.toLowerCase().replace(/ /g, '_') === value.toLowerCase())
			return 'a choice named by its wire value';
	}
	if (rule === 'node-param-description-lowercase-first-char' && finding.at.startsWith('description: ')) {
		const description = JSON.parse(stringIn(finding.at) ?? '""') as string;
		if (MODEL_IDS.has(description.split(/[:,]/)[0])) return 'a description that begins with a model ID';
	}
	return undefined;
}

/** A form that breaks the rules twice: a miscased name and a boolean described without "whether". */
const BROKEN: INodeProperties[] = [
	{
		displayName: 'dry run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description: 'Turns the dry run on',
	},
	{
		displayName: 'Quality',
		name: 'quality',
		type: 'options',
		options: [
			{ name: 'best', value: 'high' },
			{ name: 'Low', value: 'low' },
		],
		default: 'low',
	},
];

describe("n8n's form rules on the form as n8n receives it", () => {
	let both: Finding[];
	let broken: Finding[];
	beforeAll(() => {
		const properties = [
			...new GenerationGateway().description.properties,
			...new GenerationGatewayTrigger().description.properties,
		];
		[both, broken] = lintSources([sourceOf(properties), sourceOf(BROKEN)]);
	}, 60_000); // ESLint in a child process: loading its config and n8n's rule plugins takes seconds

	it('both nodes: nothing reported but the deliberate choices', () => {
		expect(both.filter((finding) => !deliberate(finding))).toEqual([]);
	});

	it('reports a field that breaks the rules (so the check above can fail)', () => {
		const rules = broken.filter((finding) => !deliberate(finding)).map((finding) => finding.ruleId);
		expect(rules).toEqual(
			expect.arrayContaining([
				'n8n-nodes-base/node-param-display-name-miscased',
				'n8n-nodes-base/node-param-description-boolean-without-whether',
			]),
		);
		// The lower-case choice is not its value: reported, not excused.
		expect(broken.filter((finding) => finding.at === 'name: "best",').map(deliberate)).toEqual([undefined]);
	});
});
