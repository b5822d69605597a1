/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { GenerationGatewayApiKeyApi } from '../../../credentials/GenerationGatewayApiKeyApi.credentials';
import { GenerationGatewayBearerApi } from '../../../credentials/GenerationGatewayBearerApi.credentials';
import { GenerationGatewayNativeKeyApi } from '../../../credentials/GenerationGatewayNativeKeyApi.credentials';
import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';
import { SPEECH_FORMATS } from '../../../nodes/GenerationGateway/actions/speech/catalog';
import { GenerationGatewayTrigger } from '../../../nodes/GenerationGatewayTrigger/GenerationGatewayTrigger.node';
import { MEDIA_BY_FORMAT } from '../../../nodes/shared/binary';

/**
 * The README and the manual stay true to the package.
 *
 * - A field's default is quoted one way only, `**Field Name** (default `value`)` (a path such as
 *   `**Request Options → Max Concurrent Requests**` names its collection): every field of that name in
 *   the nodes' and credentials' descriptions must have that default, so changing a default in the code
 *   fails here until the page that quotes it changes too.
 * - A field followed by an option in italics (`**First Frame Source** *Input Binary Field*`), the first
 *   column of a manual table headed "Field" (`Options → Instructions`), a bold path whose head is a field,
 *   and "<Resource> → <Operation>" anywhere must name what the form shows.
 * - A few statements that are not a field's default are checked from a table (QUOTED below).
 * - Every relative link and image of README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md resolves,
 *   and every #anchor is a heading of its target as GitHub makes it (github-slugger's rules).
 * - The README and the manual speak to a user: no bench ids, measurement run letters, test-suite names or
 *   history (the figures page may name the commands that measure again, in its "Reproduce" paragraphs).
 */

const root = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const docsPages = readdirSync(join(root, 'docs'))
	.filter((f) => f.endsWith('.md'))
	.sort()
	.map((f) => `docs/${f}`);
/** Pages a user reads: field names and defaults are checked here. */
const USER_PAGES = ['README.md', ...docsPages];
/** Every page whose links must resolve. */
const LINKED_PAGES = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...docsPages];

// ---- the form, as n8n gets it ------------------------------------------------------------------

interface Field {
	/** Display names of the collections (and fixed-collection groups) it sits in, outermost first. */
	ancestors: string[];
	displayName: string;
	type: string;
	default: unknown;
	/** Option names and values (options, multiOptions). */
	options: Array<{ name: string; value: unknown }>;
	/** Display names of the fields inside it (collection, fixedCollection). */
	children: string[];
	/** Resources and operations it is shown for (undefined: every one). */
	resources?: string[];
	operations?: string[];
}

function isCollectionGroup(option: unknown): option is INodePropertyCollection {
	return (
		typeof option === 'object' && option !== null && Array.isArray((option as INodePropertyCollection).values)
	);
}

function isProperty(option: unknown): option is INodeProperties {
	return (
		typeof option === 'object' && option !== null && typeof (option as INodeProperties).type === 'string'
	);
}

function collectFields(
	properties: INodeProperties[],
	ancestors: string[] = [],
	into: Field[] = [],
	outer?: Field,
): Field[] {
	for (const property of properties) {
		const field: Field = {
			ancestors,
			displayName: property.displayName,
			type: property.type,
			default: property.default,
			options: [],
			children: [],
			// A field inside a collection is shown where its collection is.
			resources: outer ? outer.resources : (property.displayOptions?.show?.resource as string[] | undefined),
			operations: outer
				? outer.operations
				: (property.displayOptions?.show?.operation as string[] | undefined),
		};
		into.push(field);
		for (const option of property.options ?? []) {
			if (isCollectionGroup(option)) {
				field.children.push(...option.values.map((v) => v.displayName));
				collectFields(
					option.values,
					[...ancestors, property.displayName, option.displayName],
					into,
					outer ?? field,
				);
			} else if (isProperty(option)) {
				field.children.push(option.displayName);
				collectFields([option], [...ancestors, property.displayName], into, outer ?? field);
			} else {
				const { name, value } = option as INodePropertyOptions;
				field.options.push({ name, value });
			}
		}
	}
	return into;
}

const action: INodeTypeDescription = new GenerationGateway().description;
const trigger: INodeTypeDescription = new GenerationGatewayTrigger().description;
const credentials: ICredentialType[] = [
	new GenerationGatewayBearerApi(),
	new GenerationGatewayApiKeyApi(),
	new GenerationGatewayNativeKeyApi(),
];
const FIELDS = collectFields([
	...action.properties,
	...trigger.properties,
	...credentials.flatMap((c) => c.properties),
]);

const resourceField = action.properties.find((p) => p.name === 'resource')!;
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const segments = (path: string) => normalise(path).split(' → ');

/** A resource's own page quotes that resource's fields (docs/cached-content.md: cachedContent). */
function resourceOfPage(page: string): string | undefined {
	const name = /^docs\/([a-z-]+)\.md$/
		.exec(page)?.[1]
		?.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
	return name && (resourceField.options as INodePropertyOptions[]).some((o) => o.value === name)
		? name
		: undefined;
}

/**
 * Fields named by a path: its last segment is the field, the others are collections it sits in, in order.
 * On a resource's own page, only that resource's fields (and those shown everywhere).
 */
function fieldsAt(path: string, page?: string): Field[] {
	const parts = segments(path);
	const name = parts.pop()!;
	const resource = page && resourceOfPage(page);
	return FIELDS.filter((f) => {
		if (f.displayName !== name) return false;
		if (resource && f.resources && !f.resources.includes(resource)) return false;
		let at = 0;
		for (const ancestor of f.ancestors) if (ancestor === parts[at]) at++;
		return at === parts.length;
	});
}

const fieldNames = new Set(FIELDS.map((f) => f.displayName));
const RESOURCES = (resourceField.options as INodePropertyOptions[]).map((o) => ({
	name: o.name,
	value: String(o.value),
	operations: action.properties
		.filter((p) => p.name === 'operation' && (p.displayOptions?.show?.resource ?? []).includes(o.value))
		.flatMap((p) =>
			(p.options as INodePropertyOptions[]).map((op) => ({ name: op.name, value: String(op.value) })),
		),
}));

/** How the docs may write a field's default: the value, an option's name, on/off for a switch, a list joined. */
function defaultSpellings(field: Field): string[] {
	const value = field.default;
	if (typeof value === 'boolean') return value ? ['on', 'true'] : ['off', 'false'];
	if (Array.isArray(value)) return [value.map(String).join(', ')];
	if (value && typeof value === 'object' && 'value' in value)
		return [String((value as { value: unknown }).value)];
	const spellings = [String(value)];
	for (const option of field.options) if (option.value === value) spellings.push(option.name);
	return spellings;
}

// ---- the pages, as a reader sees them ----------------------------------------------------------

/** The page without fenced code blocks (their lines kept empty, so line numbers stay). */
function prose(text: string): string {
	let fenced = false;
	return text
		.split('\n')
		.map((line) => {
			if (/^\s*```/.test(line)) {
				fenced = !fenced;
				return '';
			}
			return fenced ? '' : line;
		})
		.join('\n');
}

const withoutCode = (text: string) => prose(text).replace(/`[^`\n]*`/g, '');
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

interface Quote {
	page: string;
	line: number;
	text: string;
}

function matches(pages: string[], pattern: RegExp): Array<Quote & { groups: string[] }> {
	return pages.flatMap((page) => {
		const text = prose(read(page));
		return [...text.matchAll(pattern)].map((m) => ({
			page,
			line: lineOf(text, m.index),
			text: normalise(m[0]),
			groups: m.slice(1).map((g) => normalise(g ?? '')),
		}));
	});
}

describe("the defaults the docs quote are the code's", () => {
	const quoted = matches(USER_PAGES, /\*\*([^*]+?)\*\*\s*\(default\s+`([^`]*)`/g);

	it('finds the quoted defaults', () => {
		expect(quoted.length).toBeGreaterThanOrEqual(12);
	});

	it.each(quoted.map((q) => [`${q.page}:${q.line} ${q.text}`, q] as const))('%s', (_title, q) => {
		const [path, spelled] = q.groups;
		const fields = fieldsAt(path, q.page);
		expect({ path, fieldsInTheForm: fields.length > 0 }).toEqual({ path, fieldsInTheForm: true });
		for (const field of fields) {
			expect({ path, ancestors: field.ancestors, default: defaultSpellings(field) }).toEqual({
				path,
				ancestors: field.ancestors,
				default: expect.arrayContaining([spelled]) as unknown,
			});
		}
	});

	it('quotes every default one way: **Field** (default `value`)', () => {
		const loose = matches(USER_PAGES, /\*\*([^*]+?)\*\*\s*\(default(?: is|:)? (?!`)[^)]*\)/g);
		expect(loose.map((q) => `${q.page}:${q.line} ${q.text}`)).toEqual([]);
	});
});

describe('the field names the docs quote are in the form', () => {
	it('a field followed by an option in italics names one of its options', () => {
		const quoted = matches(USER_PAGES, /\*\*([^*]+?)\*\* \*([^*\s][^*]*?)\*/g).filter((q) =>
			fieldNames.has(segments(q.groups[0]).pop()!),
		);
		expect(quoted.length).toBeGreaterThanOrEqual(1);
		const wrong = quoted.filter(
			(q) => !fieldsAt(q.groups[0], q.page).some((f) => f.options.some((o) => o.name === q.groups[1])),
		);
		expect(wrong.map((q) => `${q.page}:${q.line} ${q.text}`)).toEqual([]);
	});

	/** "A → B → C": A is a field; each next segment is a field inside the previous one or one of its options. */
	function pathProblem(path: string): string | undefined {
		const parts = segments(path.replace(/\*\*|`/g, ''));
		let current = FIELDS.filter((f) => f.displayName === parts[0]);
		if (!current.length) return `"${parts[0]}" is no field`;
		for (const part of parts.slice(1)) {
			const children = FIELDS.filter(
				(f) => f.displayName === part && current.some((c) => c.children.includes(part)),
			);
			if (children.length) current = children;
			else if (current.some((c) => c.options.some((o) => o.name === part))) current = [];
			else return `"${part}" is neither a field inside nor an option of "${parts[parts.indexOf(part) - 1]}"`;
		}
		return undefined;
	}

	/** The rows of every manual table headed "Field": the field (first cell) and the rest of the row. */
	const fieldRows = USER_PAGES.flatMap((page) => {
		const lines = prose(read(page)).split('\n');
		return lines.flatMap((line, i) => {
			if (!/^\| *Field *\|/.test(line)) return [];
			const rows: Array<Quote & { rest: string }> = [];
			for (let j = i + 2; j < lines.length && lines[j].startsWith('|'); j++) {
				const cells = lines[j].split('|');
				rows.push({ page, line: j + 1, text: cells[1].trim(), rest: cells.slice(2).join('|') });
			}
			return rows;
		});
	});

	it('the first column of every manual table headed "Field"', () => {
		expect(fieldRows.length).toBeGreaterThan(40);
		const wrong = fieldRows.flatMap((r) => {
			const problem = pathProblem(r.text);
			return problem ? [`${r.page}:${r.line} ${r.text}: ${problem}`] : [];
		});
		expect(wrong).toEqual([]);
	});

	it('a value marked "(default)" in such a table is that field\'s default', () => {
		const marked = fieldRows.flatMap((r) =>
			[...r.rest.matchAll(/`?([^\s`,(]+)`? \(default\)/g)].map((m) => ({ ...r, spelled: m[1] })),
		);
		expect(marked.length).toBeGreaterThanOrEqual(4);
		const wrong = marked.flatMap((r) => {
			const fields = fieldsAt(r.text.replace(/\*\*|`/g, ''), r.page);
			const ok = fields.length > 0 && fields.every((f) => defaultSpellings(f).includes(r.spelled));
			return ok ? [] : [`${r.page}:${r.line} ${r.text}: "${r.spelled}" is not its default`];
		});
		expect(wrong).toEqual([]);
	});

	it('a bold path whose head is a field', () => {
		const paths = matches(USER_PAGES, /\*\*([^*]+? → [^*]+?)\*\*/g).filter((q) =>
			fieldNames.has(segments(q.groups[0])[0]),
		);
		expect(paths.length).toBeGreaterThanOrEqual(3);
		const wrong = paths.flatMap((q) => {
			const problem = pathProblem(q.groups[0]);
			return problem ? [`${q.page}:${q.line} ${q.text}: ${problem}`] : [];
		});
		expect(wrong).toEqual([]);
	});

	it('"<Resource> → <Operation>" names an operation of that resource', () => {
		const wrong: string[] = [];
		let seen = 0;
		for (const page of USER_PAGES) {
			const text = normalise(withoutCode(read(page)).replace(/\*\*/g, ''));
			for (const resource of RESOURCES) {
				for (const m of text.matchAll(new RegExp(`\\b${resource.name} → `, 'g'))) {
					seen++;
					const after = text.slice(m.index + m[0].length);
					if (!resource.operations.some((op) => after.startsWith(op.name)))
						wrong.push(`${page}:${lineOf(text, m.index)} ${resource.name} → ${after.slice(0, 30)}`);
				}
			}
		}
		expect(seen).toBeGreaterThan(50);
		expect(wrong).toEqual([]);
	});
});

/** Operations (resource.operation) that show a field of this name. */
function operationsWith(name: string): string[] {
	const property = action.properties.filter((p) => p.name === name);
	return RESOURCES.flatMap((r) => r.operations.map((op) => ({ r, op })))
		.filter(({ r, op }) =>
			property.some(
				(p) =>
					(p.displayOptions?.show?.resource ?? [r.value]).includes(r.value) &&
					(p.displayOptions?.show?.operation ?? [op.value]).includes(op.value),
			),
		)
		.map(({ r, op }) => `${r.name} → ${op.name}`);
}

const everyOperation = RESOURCES.flatMap((r) => r.operations.map((op) => `${r.name} → ${op.name}`));

/** Statements that are not a field's default: the page, the words it says, and what the code must then hold. */
const QUOTED: Array<{ page: string; says: string; holds: () => unknown; expected: unknown }> = [
	{
		page: 'README.md',
		says: 'Every operation has **Request Options**',
		holds: () => operationsWith('requestOptions'),
		expected: everyOperation,
	},
	{
		page: 'README.md',
		says: 'Every operation that sends a body (all but Account → Get Balance, Video → Get, Video → Wait for Completion and Video Wait → Recover Waits) has **Additional Body Fields (JSON)**',
		holds: () => everyOperation.filter((op) => !operationsWith('additionalBodyFields').includes(op)),
		expected: [
			'Account → Get Balance',
			'Video → Get',
			'Video → Wait for Completion',
			'Video Wait → Recover Waits',
		],
	},
	{
		page: 'docs/waiting-and-callbacks.md',
		says: 'by callback for a batch of up to 5 items when the resume URL is https',
		holds: () =>
			fieldsAt('Wait Options → Wait Mode')
				.flatMap((f) => f.options)
				.some((o) => o.name === 'Auto'),
		expected: true,
	},
	{
		page: 'README.md',
		says: 'Generation Gateway (Bearer Token) API | Auth Token',
		holds: () => credentials[0].displayName + ' | ' + credentials[0].properties[1].displayName,
		expected: 'Generation Gateway (Bearer Token) API | Auth Token',
	},
];

describe('statements the docs make about the form', () => {
	it.each(QUOTED.map((q) => [`${q.page}: ${q.says}`, q] as const))('%s', (_title, q) => {
		expect(normalise(read(q.page))).toContain(q.says);
		expect(q.holds()).toEqual(q.expected);
	});

	it('Auto waits by callback for as many items as the form says', () => {
		const auto = action.properties
			.filter((p) => p.displayName === 'Wait Options')
			.flatMap((p) => p.options ?? [])
			.filter(isProperty)
			.filter((p) => p.displayName === 'Wait Mode')
			.flatMap((p) => (p.options ?? []) as INodePropertyOptions[])
			.find((o) => o.name === 'Auto');
		const inForm = /up to (\d+) items/.exec(auto?.description ?? '')?.[1];
		expect(inForm).toBeDefined();
		for (const page of ['README.md', 'docs/waiting-and-callbacks.md', 'docs/limits.md', 'docs/video.md']) {
			const said = [...normalise(read(page)).matchAll(/by callback for (?:a batch of )?up to (\d+) items/g)];
			expect({ page, quotes: said.length > 0 }).toEqual({ page, quotes: true });
			for (const m of said) expect({ page, items: m[1] }).toEqual({ page, items: inForm });
		}
	});
});

// ---- links ---------------------------------------------------------------------------------------

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
	const seen = new Map<string, number>();
	const anchors = new Set<string>();
	const text = prose(readFileSync(file, 'utf8'));
	for (const m of text.matchAll(/<a [^>]*(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
	for (const line of text.split('\n')) {
		const heading = /^#{1,6} +(.*?)#*\s*$/.exec(line);
		if (!heading) continue;
		const plain = heading[1]
			.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/<[^>]+>/g, '')
			.replace(/[*_`]/g, (c) => (c === '_' ? c : ''));
		const base = plain
			.toLowerCase()
			.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count ? `${base}-${count}` : base);
	}
	return anchors;
}

interface Link {
	page: string;
	line: number;
	target: string;
}

function linksOf(page: string): Link[] {
	const text = prose(read(page)).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
	const found: Link[] = [];
	const patterns = [/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g, /\b(?:src|href)="([^"]+)"/g];
	for (const pattern of patterns) {
		for (const m of text.matchAll(pattern)) found.push({ page, line: lineOf(text, m.index), target: m[1] });
	}
	return found;
}

describe('every relative link and anchor resolves', () => {
	const links = LINKED_PAGES.flatMap(linksOf).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));

	it('finds the links', () => {
		expect(links.length).toBeGreaterThan(80);
	});

	it.each(LINKED_PAGES)('%s', (page) => {
		const broken: string[] = [];
		for (const link of links.filter((l) => l.page === page)) {
			const [path, anchor] = link.target.split('#');
			const file = path ? resolve(dirname(join(root, page)), decodeURIComponent(path)) : join(root, page);
			const where = `${page}:${link.line} ${link.target}`;
			if (!existsSync(file)) {
				broken.push(`${where}: ${relative(root, file)} does not exist`);
				continue;
			}
			if (anchor === undefined) continue;
			if (statSync(file).isDirectory() || !file.endsWith('.md'))
				broken.push(`${where}: an anchor into a file that is not a page`);
			else if (!anchorsOf(file).has(anchor))
				broken.push(`${where}: no heading "#${anchor}" in ${relative(root, file)}`);
		}
		expect(broken).toEqual([]);
	});
});

// ---- words a user does not know ------------------------------------------------------------------

describe('the README and the manual speak to a user', () => {
	/** The figures page may name the commands that measure again, in its paragraphs that begin "**Reproduce**". */
	const userText = (page: string) =>
		page === 'docs/figures.md'
			? read(page)
					.split(/\n\s*\n/)
					.filter((paragraph) => !paragraph.startsWith('**Reproduce**'))
					.join('\n\n')
			: read(page);

	const FORBIDDEN: Array<[string, RegExp]> = [
		['a bench id (P15)', /\bP\d+\b/],
		['a measurement run letter', /\bruns? [b-d]\b|\bruns? a(?=[,;:.)]| and [b-d]\b)/i],
		['the test suites', /e2e|end-to-end|the suite\b|simulator/i],
		['history', /before this change|earlier builds?|since then|an earlier run|fresh-clone/i],
		['a developer command', /npm run bench/],
		['a variable of the test suite', /\bGG_[A-Z0-9_]+/],
		['the internal name of the API reference', /\bthe interface\b/i],
		['a phrase the reader cannot place', /resume URL without a token/i],
	];

	it.each(USER_PAGES)('%s', (page) => {
		const text = userText(page);
		const found = FORBIDDEN.flatMap(([what, pattern]) => {
			const m = pattern.exec(text);
			return m ? [`${what}: "${m[0]}" at line ${lineOf(text, m.index)}`] : [];
		});
		expect(found).toEqual([]);
	});

	it('the commands the figures page gives to measure again exist', () => {
		const figures = read('docs/figures.md');
		const benches = readdirSync(join(root, 'test', 'bench', 'scenarios'));
		const e2eMain = read('e2e/src/main.ts');
		const missing: string[] = [];
		let seen = 0;
		for (const m of figures.matchAll(/\.\/scripts\/run (bench|e2e) ([a-z0-9-]+)/g)) {
			seen++;
			const [, tool, name] = m;
			const exists = tool === 'bench' ? benches.some((f) => f.includes(name)) : e2eMain.includes(`'${name}'`);
			if (!exists) missing.push(m[0]);
		}
		for (const m of figures.matchAll(/npx jest ([^\s`]+)/g)) {
			seen++;
			if (!existsSync(join(root, m[1]))) missing.push(m[0]);
		}
		expect(seen).toBeGreaterThanOrEqual(10);
		expect(missing).toEqual([]);
	});

	it('the README is at most 150 lines, with Install right after the pictures', () => {
		const readme = read('README.md');
		expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
		const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
		expect(headings[0]).toBe('Install');
		expect(readme.indexOf('</table>')).toBeLessThan(readme.indexOf('## Install'));
	});

	it('the README keeps the fresh-machine commands: the package in n8n, the demo, the tests', () => {
		const readme = read('README.md');
		for (const command of ['./scripts/run n8n', './scripts/run demo', './scripts/run test']) {
			expect(readme).toContain(`\`${command}\``);
		}
	});

	it('waiting-and-callbacks.md is at most 200 lines', () => {
		expect(read('docs/waiting-and-callbacks.md').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
	});
});

// ---- n8n's variables and the files the node makes ------------------------------------------------

/**
 * Variables the newest supported n8n (2.41) reports as deprecated in favour of another name at start
 * (its deprecation service). A page, a hint or an example may name the old one only beside the
 * current one, for the older releases that read only the old name.
 */
const RENAMED_VARIABLES: Array<{ old: string; current: string }> = [
	{ old: 'WEBHOOK_URL', current: 'N8N_WEBHOOK_URL' },
	{ old: 'N8N_BINARY_DATA_STORAGE_PATH', current: 'N8N_STORAGE_PATH' },
	{ old: 'N8N_DB_PING_TIMEOUT', current: 'DB_PING_TIMEOUT_MS' },
];
/** How far, in characters either side, the current name must be from the old one. */
const BESIDE = 300;

function renamedWithoutCurrent(text: string): string[] {
	return RENAMED_VARIABLES.flatMap(({ old, current }) =>
		[...text.matchAll(new RegExp(`(?<![A-Z0-9_])${old}(?![A-Z0-9_])`, 'g'))]
			.filter(
				(m) => !text.slice(Math.max(0, m.index - BESIDE), m.index + old.length + BESIDE).includes(current),
			)
			.map((m) => `${old} without ${current} at line ${lineOf(text, m.index)}`),
	);
}

function filesUnder(folder: string, ending: string): string[] {
	return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
		const path = `${folder}/${entry.name}`;
		if (entry.isDirectory()) return filesUnder(path, ending);
		return entry.name.endsWith(ending) ? [path] : [];
	});
}

/** n8n's own words on its legacy expression engine (its deprecation notice in 1.123 and 2.41). */
const LEGACY_ENGINE_WORDS =
	'runs expressions without isolation, is no longer considered secure, and will be removed in a future version';

describe("n8n's variables are named as the newest supported n8n reads them", () => {
	const checked = [
		...USER_PAGES,
		'CONTRIBUTING.md',
		...filesUnder('examples', '.json'),
		...filesUnder('nodes', '.ts'),
		...filesUnder('credentials', '.ts'),
	];

	it('the check finds an old name alone, and accepts it beside the current one', () => {
		expect(renamedWithoutCurrent('Set WEBHOOK_URL to your https address.')).toHaveLength(1);
		expect(renamedWithoutCurrent('Set N8N_WEBHOOK_URL (WEBHOOK_URL on n8n 2.0).')).toEqual([]);
		expect(renamedWithoutCurrent('N8N_WEBHOOK_URL=https://n8n.example.com/')).toEqual([]);
	});

	it.each(checked)('%s names no renamed variable without its current name', (file) => {
		expect(renamedWithoutCurrent(read(file))).toEqual([]);
	});

	it('a page that names the legacy expression engine quotes what n8n says of it', () => {
		const pages = USER_PAGES.filter((page) => read(page).includes('N8N_EXPRESSION_ENGINE=legacy'));
		expect(pages.length).toBeGreaterThanOrEqual(1);
		const silent = pages.filter((page) => !normalise(read(page)).includes(LEGACY_ENGINE_WORDS));
		expect(silent).toEqual([]);
	});

	it('N8N_UNVERIFIED_PACKAGES_ENABLED is asked to be set explicitly (n8n 2.41 warns its default will change)', () => {
		const loose = USER_PAGES.flatMap((page) => {
			const text = normalise(read(page));
			return [...text.matchAll(/N8N_UNVERIFIED_PACKAGES_ENABLED/g)]
				.filter((m) => !/explicitly/.test(text.slice(Math.max(0, m.index - BESIDE), m.index + BESIDE)))
				.map((m) => `${page}: "${text.slice(m.index, m.index + 80)}"`);
		});
		expect(loose).toEqual([]);
	});
});

// ---- the Docker files and the releases of n8n the docs name --------------------------------------

const RELEASES = ['2.41', '2.0', '1.123'] as const;
type Release = (typeof RELEASES)[number];
const EVERY: Release[] = [...RELEASES];

/**
 * The n8n variables the docs and docker/ name, with the releases whose code reads them (read in n8n
 * 2.41.1, 2.0.3 and 1.123.81 with @n8n/config and n8n-core). A variable a page names must be here.
 */
const N8N_VARIABLES: Record<string, Release[]> = {
	N8N_HOST: EVERY,
	N8N_WEBHOOK_URL: ['2.41'],
	WEBHOOK_URL: EVERY,
	N8N_EDITOR_BASE_URL: EVERY,
	N8N_PROXY_HOPS: EVERY,
	N8N_ENCRYPTION_KEY: EVERY,
	N8N_USER_FOLDER: EVERY,
	N8N_PAYLOAD_SIZE_MAX: EVERY,
	N8N_COMMUNITY_PACKAGES_ENABLED: EVERY,
	N8N_COMMUNITY_PACKAGES_REGISTRY: EVERY,
	N8N_UNVERIFIED_PACKAGES_ENABLED: EVERY,
	N8N_REINSTALL_MISSING_PACKAGES: EVERY,
	N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: ['2.41'],
	N8N_COMMUNITY_PACKAGES: ['2.41'],
	// Named only to say it is gone.
	N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: [],
	N8N_EXPRESSION_ENGINE: ['2.41', '1.123'],
	N8N_EXPRESSION_ENGINE_POOL_SIZE: ['2.41', '1.123'],
	N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: ['2.41'],
	N8N_EXPRESSION_ENGINE_COMPILE_CACHE: ['2.41'],
	N8N_SSRF_PROTECTION_ENABLED: ['2.41'],
	N8N_SSRF_ALLOWED_HOSTNAMES: ['2.41'],
	N8N_SSRF_ALLOWED_IP_RANGES: ['2.41'],
	N8N_DEFAULT_BINARY_DATA_MODE: EVERY,
	N8N_AVAILABLE_BINARY_DATA_MODES: ['1.123'],
	N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: EVERY,
	N8N_BINARY_DATA_STORAGE_PATH: EVERY,
	N8N_STORAGE_PATH: ['2.41'],
	N8N_DB_PING_TIMEOUT: ['2.41'],
	DB_PING_TIMEOUT_MS: ['2.41'],
	EXECUTIONS_MODE: EVERY,
	OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: EVERY,
	QUEUE_BULL_REDIS_HOST: EVERY,
	QUEUE_HEALTH_CHECK_ACTIVE: EVERY,
	DB_TYPE: EVERY,
	DB_POSTGRESDB_HOST: EVERY,
	DB_POSTGRESDB_DATABASE: EVERY,
	DB_POSTGRESDB_USER: EVERY,
	DB_POSTGRESDB_PASSWORD: EVERY,
	DB_POSTGRESDB_POOL_SIZE: EVERY,
};
/** Variables that look like n8n's but are not: Node's, and the compose files' own (docker/.env.example). */
const NOT_N8N = [
	'NODE_EXTRA_CA_CERTS',
	'N8N_VERSION',
	'COMPOSE_PROJECT_NAME',
	'PUBLIC_URL',
	'PROXY_LISTEN',
	'POSTGRES_PASSWORD',
];
const VARIABLE =
	/\b(?:N8N_[A-Z0-9_]+|DB_[A-Z0-9_]+|QUEUE_[A-Z0-9_]+|EXECUTIONS_[A-Z0-9_]+|OFFLOAD_[A-Z0-9_]+|WEBHOOK_URL|NODE_[A-Z0-9_]+)\b/g;

const DOCKER_FILES = readdirSync(join(root, 'docker'))
	.filter((f) => f.startsWith('docker-compose') || f === '.env.example' || f === 'Dockerfile')
	.map((f) => `docker/${f}`);
const COMPOSE_FILES = DOCKER_FILES.filter((f) => f.endsWith('.yml'));

/** The environment keys a compose file gives its n8n services (the ones built from the Dockerfile). */
function n8nEnvironment(file: string): string[] {
	const keys: string[] = [];
	let inEnvironment = false;
	let indent = 0;
	for (const line of read(file).split('\n')) {
		const m = /^(\s*)([A-Za-z0-9_<-]+):/.exec(line);
		if (m && m[2] === 'environment') {
			inEnvironment = true;
			indent = m[1].length;
			continue;
		}
		if (inEnvironment && m && m[1].length <= indent) inEnvironment = false;
		if (inEnvironment && m && !line.trimStart().startsWith('#')) keys.push(m[2]);
	}
	return keys.filter((k) => !k.startsWith('POSTGRES_'));
}

/** The code of the local e2e install of n8n 2.41.1 that names its variables. */
const N8N_2_41_DIRS = ['n8n/dist', '@n8n/config/dist', '@n8n/backend-common/dist', 'n8n-core/dist'].map((d) =>
	join(root, 'e2e', 'n8n', '2.41.1', 'node_modules', d),
);
/** Decided as the file is collected: without the install, the test shows as skipped, never as passed. */
const itWithN8n241 = N8N_2_41_DIRS.every((d) => existsSync(d)) ? it : it.skip;

/** The variables of n8n that the local e2e install of n8n 2.41.1 names in its code. */
function namedByInstalledN8n(): Set<string> {
	const named = new Set<string>();
	for (const dir of N8N_2_41_DIRS) {
		for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
			if (!file.endsWith('.js')) continue;
			for (const m of readFileSync(join(dir, file), 'utf8').matchAll(
				/['"`]([A-Z][A-Z0-9_]+)['"`]|process\.env\.([A-Z][A-Z0-9_]+)/g,
			))
				named.add(m[1] ?? m[2]);
		}
	}
	return named;
}

describe('the Docker files and the releases of n8n the docs name', () => {
	it("every variable named is known: n8n reads it in a release listed here, or it is not n8n's", () => {
		const unknown = [...USER_PAGES, ...DOCKER_FILES].flatMap((file) =>
			[...read(file).matchAll(VARIABLE)]
				.map((m) => m[0])
				.filter((v) => !(v in N8N_VARIABLES) && !NOT_N8N.includes(v))
				.map((v) => `${file}: ${v}`),
		);
		expect([...new Set(unknown)]).toEqual([]);
	});

	it('every variable a compose file gives n8n is read by n8n 2.41, the release the files are run on', () => {
		const keys = COMPOSE_FILES.flatMap((file) => n8nEnvironment(file).map((key) => ({ file, key })));
		expect(keys.length).toBeGreaterThan(10);
		expect(
			keys.filter(({ key }) => !NOT_N8N.includes(key) && !(N8N_VARIABLES[key] ?? []).includes('2.41')),
		).toEqual([]);
	});

	it('the settings table of docs/deployment.md names, per release, variables that release reads', () => {
		const lines = read('docs/deployment.md').split('\n');
		const header = lines.findIndex((l) => /^\| what \| n8n 2\.41 \| n8n 2\.0 \| n8n 1\.123 \|/.test(l));
		expect(header).toBeGreaterThan(0);
		const wrong: string[] = [];
		let rows = 0;
		for (let i = header + 2; lines[i]?.startsWith('|'); i++) {
			rows++;
			const cells = lines[i].split('|').slice(2, 5);
			let previous = '';
			cells.forEach((cell, column) => {
				const text = /^\s*the same\s*$/.test(cell) ? previous : cell;
				previous = text;
				for (const m of text.matchAll(VARIABLE)) {
					const releases = N8N_VARIABLES[m[0]];
					// A variable named to say a release lacks it ("no such setting") is not in the cell.
					if (releases && !releases.includes(RELEASES[column]))
						wrong.push(`line ${i + 1}: ${m[0]} in the n8n ${RELEASES[column]} column`);
				}
			});
		}
		expect(rows).toBeGreaterThanOrEqual(8);
		expect(wrong).toEqual([]);
	});

	itWithN8n241(
		'the variables given for n8n 2.41 are named in the code of the installed n8n 2.41.1 (when e2e/n8n/2.41.1 is installed)',
		() => {
			const named = namedByInstalledN8n();
			const missing = Object.entries(N8N_VARIABLES)
				.filter(([, releases]) => releases.includes('2.41'))
				.map(([name]) => name)
				.filter((name) => !named.has(name));
			expect(missing).toEqual([]);
		},
	);

	it('every compose file sets the encryption key from .env, and refuses to start without it', () => {
		for (const file of COMPOSE_FILES) {
			expect({ file, key: /N8N_ENCRYPTION_KEY: \$\{N8N_ENCRYPTION_KEY:\?[^}]*\}/.test(read(file)) }).toEqual({
				file,
				key: true,
			});
		}
	});

	it('every variable a compose file takes from .env is in .env.example', () => {
		const example = new Set([...read('docker/.env.example').matchAll(/^([A-Z0-9_]+)=/gm)].map((m) => m[1]));
		const used = COMPOSE_FILES.flatMap((file) =>
			[...read(file).matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => ({ file, name: m[1] })),
		);
		expect(used.length).toBeGreaterThan(5);
		expect(used.filter(({ name }) => !example.has(name))).toEqual([]);
	});

	it('a page that says "activate" says "publish" beside it (n8n 2.x has no Active switch)', () => {
		const loose = USER_PAGES.flatMap((page) => {
			const text = normalise(read(page));
			return [...text.matchAll(/\bactivat\w*/gi)]
				.filter((m) => !/publish/i.test(text.slice(Math.max(0, m.index - BESIDE), m.index + BESIDE)))
				.map((m) => `${page}: "${text.slice(Math.max(0, m.index - 40), m.index + 40)}"`);
		});
		expect(loose).toEqual([]);
	});
});

/** The files the node makes: MIME type and extension, as the code names them. */
const PRODUCED: Array<{ mimeType: string; extension: string }> = [
	...Object.values(MEDIA_BY_FORMAT),
	...Object.values(SPEECH_FORMATS),
];
const producedExtensions = new Set(PRODUCED.map((p) => p.extension));
/** Extensions a page might give a media file, produced or not. */
const MEDIA_EXTENSION =
	/^(png|jpe?g|webp|gif|bmp|tiff?|heic|avif|mp3|wav|opus|ogg|oga|pcm|flac|aac|m4a|mp4|m4v|mov|qt|webm|mkv|avi|mpe?g)$/i;

/** File names a page quotes: `image-1.png`, `<task id>.mp4`, `.jpg`, and "fileName" in JSON examples. */
function quotedFileNames(text: string): Array<{ index: number; extension: string }> {
	const patterns = [
		/`((?:<[^>`]*>|[^`\s])*)\.([A-Za-z0-9]{2,5})`/g,
		/"fileName":\s*"[^"]*\.([A-Za-z0-9]{2,5})"/g,
	];
	return patterns.flatMap((pattern) =>
		[...text.matchAll(pattern)]
			.map((m) => ({ index: m.index, extension: (m[2] ?? m[1]).toLowerCase() }))
			.filter((f) => MEDIA_EXTENSION.test(f.extension)),
	);
}

/** Table rows one by one, other text sentence by sentence. */
function statements(text: string): string[] {
	return prose(text)
		.split(/\n\s*\n/)
		.flatMap((block) =>
			block.trimStart().startsWith('|')
				? block.split('\n')
				: normalise(block).split(/(?<=[.!?])\s+(?=[A-Z*`(])/),
		);
}

/** Problems of one statement: an extension the code does not make, or a MIME type named without its extension. */
function fileProblems(statement: string): string[] {
	const files = quotedFileNames(statement);
	const problems = files
		.filter((f) => !producedExtensions.has(f.extension))
		.map((f) => `.${f.extension} is no extension the node gives a file`);
	const kindOf = (mimeType: string) => mimeType.split('/')[0];
	const fileKinds = new Set(
		files.flatMap((f) => PRODUCED.filter((p) => p.extension === f.extension).map((p) => kindOf(p.mimeType))),
	);
	const named = new Set(files.map((f) => f.extension));
	for (const m of statement.matchAll(/`([a-z]+\/[A-Za-z0-9.+-]+)`/g)) {
		const forMime = PRODUCED.filter((p) => p.mimeType === m[1]);
		if (!forMime.length || !fileKinds.has(kindOf(m[1]))) continue;
		if (!forMime.some((p) => named.has(p.extension)))
			problems.push(`${m[1]} is named beside file names without its extension .${forMime[0].extension}`);
	}
	return problems;
}

describe('the file names the docs quote are the ones the node makes', () => {
	it('the check finds a missing or foreign extension', () => {
		expect(fileProblems('(`video/mp4` or `video/quicktime`, named `<task id>.mp4`).')).toHaveLength(1);
		expect(fileProblems('named `<task id>.mkv`')).toHaveLength(1);
		expect(fileProblems('(`video/mp4` or `video/quicktime`, named `<task id>.mp4` or `.mov`).')).toEqual([]);
	});

	it.each(USER_PAGES)('%s', (page) => {
		expect(
			statements(read(page)).flatMap((s) => fileProblems(s).map((p) => `${p}: "${s.slice(0, 100)}"`)),
		).toEqual([]);
	});
});
