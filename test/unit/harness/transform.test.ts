/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The tests' compiler (swc, as jest.config.js sets it) against the build's (tsc with tsconfig.json):
 * each row's modules, compiled both ways and run, give the same result, and the one the row expects.
 * The rows are what the suite's code relies on: class fields, imports of CommonJS modules, `export =`,
 * enums, live exports, imports used only as types; the last row, that a stack names the line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compileFunction } from 'node:vm';

import { createTransformer } from '@swc/jest';
import ts from 'typescript';

const root = path.join(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jestConfig = require(path.join(root, 'jest.config.js')) as {
	transform: Record<string, [string, object]>;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tsconfig = require(path.join(root, 'tsconfig.json')) as { compilerOptions: object };

type Compile = (source: string, fileName: string) => string;

const [, swcOptions] = jestConfig.transform['^.+\\.ts$'];
// One compiler each, made once: the jest transformer as the suite uses it, tsc with the build's options.
const swc = createTransformer(swcOptions as Parameters<typeof createTransformer>[0]) as {
	process(source: string, fileName: string, options: { supportsStaticESM: boolean }): { code: string };
};
const tscOptions = ts.convertCompilerOptionsFromJson(tsconfig.compilerOptions, root).options;
const compilers: Record<string, Compile> = {
	tsc: (source, fileName) => ts.transpileModule(source, { fileName, compilerOptions: tscOptions }).outputText,
	swc: (source, fileName) => swc.process(source, fileName, { supportsStaticESM: false }).code,
};

/** Runs `main` of `sources` compiled by `compile`; `installed` are CommonJS modules given as they load. */
function run(
	compile: Compile,
	sources: Record<string, string>,
	installed: Record<string, unknown> = {},
): unknown {
	const loaded = new Map<string, { exports: unknown }>();
	const load = (name: string): unknown => {
		if (name in installed) return installed[name];
		const source = sources[name.replace(/^\.\//, '')];
		if (source === undefined) throw new Error(`no module ${name}`);
		const known = loaded.get(name);
		if (known) return known.exports;
		const module = { exports: {} };
		loaded.set(name, module);
		compileFunction(compile(source, `${name}.ts`), ['exports', 'require', 'module'])(
			module.exports,
			load,
			module,
		);
		return module.exports;
	};
	return (load('./main') as { result: unknown }).result;
}

const esModule = Object.defineProperty({ answer: 42 }, '__esModule', { value: true });

const rows: Array<{
	row: string;
	sources: Record<string, string>;
	installed?: Record<string, unknown>;
	result: unknown;
}> = [
	{
		row: "a class field is defined on the instance, not assigned through its base class's setter",
		sources: {
			main: `class Base { log: string[] = []; set name(value: string) { this.log.push(value); } }
				class Child extends Base { name = 'field'; }
				const child = new Child();
				export const result = [Object.getOwnPropertyDescriptor(child, 'name')?.value, child.log];`,
		},
		result: ['field', []],
	},
	{
		row: 'a default import of a CommonJS module without __esModule is its module.exports',
		sources: { main: `import installed from 'installed'; export const result = installed.answer;` },
		installed: { installed: { answer: 42 } },
		result: 42,
	},
	{
		row: 'a namespace import of a module marked __esModule is that module itself (what a test may patch)',
		sources: {
			main: `import * as namespace from 'marked'; import required = require('marked');
				export const result = [namespace === required, namespace.answer];`,
		},
		installed: { marked: esModule },
		result: [true, 42],
	},
	{
		row: '`export =` makes the module its exports, and `import … = require` reads them',
		sources: {
			main: `import stand = require('./stand'); export const result = stand.answer;`,
			stand: `export = { answer: 42 };`,
		},
		result: 42,
	},
	{
		row: 'an enum maps names to values and values back to names',
		sources: { main: `enum Mode { Poll = 1, Callback } export const result = [Mode.Callback, Mode[1]];` },
		result: [2, 'Poll'],
	},
	{
		row: 'an export changed after it was imported is read as it is now',
		sources: {
			main: `import { count, bump } from './counter'; bump(); bump(); export const result = count;`,
			counter: `export let count = 0; export function bump() { count++; }`,
		},
		result: 2,
	},
	{
		row: 'an import used only as a type loads nothing',
		sources: {
			main: `import { Shape } from 'never-loaded'; const shape: Shape = { side: 3 }; export const result = shape.side;`,
		},
		result: 3,
	},
];

describe.each(Object.keys(compilers))('compiled by %s', (compiler) => {
	it.each(rows)('$row', ({ sources, installed, result }) => {
		expect(run(compilers[compiler], sources, installed)).toEqual(result);
	});
});

it("a stack names this file's TypeScript line", () => {
	const stack = new Error('here').stack ?? ''; // the line below looks for this mark: error-here
	const line =
		readFileSync(__filename, 'utf8')
			.split('\n')
			.findIndex((text) => text.endsWith('mark: error' + '-here')) + 1;
	expect(line).toBeGreaterThan(0);
	expect(stack).toContain(`${path.basename(__filename)}:${line}:`);
});
