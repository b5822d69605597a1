/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The suite's jest runtime (test/harness/jest-runtime.js), in a jest run in a child process: three
 * test files in one worker each load an installed module, a module of their own and one an installed
 * module imports dynamically, write down what they saw, then change every one of those files on disk.
 * An installed file must be read once for the worker, yet evaluated afresh in each test file; the
 * others are read again each time. A fourth file mocks the installed module. In watch mode, whose
 * process outlives a run, nothing is kept.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const RUNTIME = join(ROOT, 'test', 'harness', 'jest-runtime.js');
const FILES = ['first', 'second', 'third'];

interface Seen {
	installed: number;
	count: number;
	dynamic: number;
	own: number;
	jestFn: string;
}

/** A module whose version its test files change on disk once they have loaded it. */
const versioned = (version: number, rest = '') =>
	`let count = 0;\nexports.version = ${version};\nexports.next = () => ++count;\n${rest}`;

describe('which runs keep installed files from one test file to the next', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript, for jest itself
	const { sharesInstalledFiles } = require(RUNTIME) as {
		sharesInstalledFiles: (globalConfig: object) => boolean;
	};
	it.each([
		{ settings: {}, shares: true },
		{ settings: { watch: false, watchAll: false }, shares: true },
		{ settings: { watch: true }, shares: false },
		{ settings: { watchAll: true }, shares: false },
	])('$settings -> $shares', ({ settings, shares }) => {
		expect(sharesInstalledFiles(settings)).toBe(shares);
	});
});

describe('the suite’s jest runtime (child process, one worker)', () => {
	let dir: string;
	let seen: Seen[];
	let output: string;
	let status: number | null;
	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'jest-runtime-'));
		const installed = join(dir, 'node_modules', 'probe');
		mkdirSync(installed, { recursive: true });
		const imports = "exports.imported = () => import('./later.js').then((later) => later.version);\n";
		writeFileSync(join(installed, 'index.js'), versioned(1, imports));
		writeFileSync(join(installed, 'later.js'), versioned(1));
		writeFileSync(join(dir, 'own.js'), versioned(1));
		const bump = (file: string) =>
			`fs.writeFileSync(${JSON.stringify(file)}, fs.readFileSync(${JSON.stringify(file)}, 'utf8')` +
			`.replace(/version = (\\d+)/, (_, v) => 'version = ' + (Number(v) + 1)));`;
		for (const name of FILES) {
			writeFileSync(
				join(dir, `${name}.test.js`),
				`const fs = require('node:fs');
				it('loads and changes the modules', async () => {
					const probe = require('probe');
					const seen = {
						installed: probe.version,
						count: probe.next(),
						dynamic: await probe.imported(),
						own: require('./own').version,
						jestFn: typeof jest.fn,
					};
					fs.appendFileSync(${JSON.stringify(join(dir, 'seen.jsonl'))}, JSON.stringify(seen) + '\\n');
					${bump(join(installed, 'index.js'))}
					${bump(join(installed, 'later.js'))}
					${bump(join(dir, 'own.js'))}
				});\n`,
			);
		}
		writeFileSync(
			join(dir, 'mocks.test.js'),
			`jest.mock('probe', () => ({ version: 'mocked' }));
			it('mocks an installed module', () => expect(require('probe').version).toBe('mocked'));\n`,
		);
		const config = {
			rootDir: dir,
			runtime: RUNTIME,
			testEnvironment: 'node',
			testMatch: ['**/*.test.js'],
		};
		writeFileSync(join(dir, 'jest.config.json'), JSON.stringify(config));
		const run = spawnSync(
			process.execPath,
			[require.resolve('jest/bin/jest'), '--config', join(dir, 'jest.config.json'), '--ci', '-w', '1'],
			{
				cwd: ROOT,
				encoding: 'utf8',
				timeout: 30_000,
				// The dynamic import needs Node's modules in vm contexts, as jest says.
				env: { ...process.env, FORCE_COLOR: '0', NODE_OPTIONS: '--experimental-vm-modules' },
			},
		);
		output = `${run.stdout}${run.stderr}`;
		status = run.status;
		seen = readFileSync(join(dir, 'seen.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Seen);
	}, 40_000); // starts jest in a child process
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it('runs all three test files, and a fourth that mocks the installed module', () => {
		expect(output).toContain('Tests:       4 passed, 4 total');
		expect(status).toBe(0);
		expect(seen).toHaveLength(3);
	});

	it('reads an installed file once for the worker: later test files see it as it was', () => {
		expect(seen.map((s) => s.installed)).toEqual([1, 1, 1]);
	});

	it('evaluates an installed module afresh in each test file: no state carried over', () => {
		expect(seen.map((s) => s.count)).toEqual([1, 1, 1]);
	});

	it('reads a module the tests own again in each test file', () => {
		expect(seen.map((s) => s.own)).toEqual([1, 2, 3]);
	});

	it('compiles an installed module that imports dynamically afresh, so each test file can import', () => {
		expect(seen.map((s) => s.dynamic)).toEqual([1, 1, 1]);
	});

	it('gives each module its jest object', () => {
		expect(seen.map((s) => s.jestFn)).toEqual(['function', 'function', 'function']);
	});
});
