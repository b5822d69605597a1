/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The open-handle check of every test file (test/harness/open-handles-environment.ts): its
 * counting, its wait for closing handles, and, end to end, a jest run in a child process where
 * one test file leaks a timer, a server and a child process (fixtures/open-handles/): jest must
 * fail (non-zero exit) naming that file and what it left open, pass the file that closes the same
 * things, and end by itself (the leaked handles are unref'd once reported).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import vm from 'node:vm';

import { describeTypes, OpenResources } from '../../harness/open-handles-environment';
import { untracked } from '../../harness/untracked';

const ROOT = resolve(__dirname, '..', '..', '..');

describe('describeTypes', () => {
	it.each([
		{ types: [], text: '' },
		{ types: ['Timeout'], text: 'Timeout' },
		{ types: ['Timeout', 'TCPWRAP', 'Timeout'], text: 'Timeout x2, TCPWRAP' },
		{
			types: ['TCPSERVERWRAP', 'PROCESSWRAP', 'PIPEWRAP', 'PIPEWRAP'],
			text: 'TCPSERVERWRAP, PROCESSWRAP, PIPEWRAP x2',
		},
	])('$types -> "$text"', ({ types, text }) => {
		expect(describeTypes(types.map((type) => ({ type })))).toBe(text);
	});
});

describe('the test context', () => {
	it('is a plain global object where Node offers one (22.8 and later), not a contextified one', () => {
		expect(vm.isContext(globalThis)).toBe('DONT_CONTEXTIFY' in vm.constants);
	});
});

describe('OpenResources', () => {
	it('lists a listening server until it has released its handle, then nothing', async () => {
		const resources = new OpenResources();
		try {
			const server = createServer();
			await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
			expect(resources.open().map((r) => r.type)).toEqual(['TCPSERVERWRAP']);
			server.close();
			expect(await resources.settle(10_000)).toEqual([]);
		} finally {
			resources.stop();
		}
	});

	it('names a timer still armed after the grace period, and where it was set', async () => {
		const resources = new OpenResources();
		const timer = setTimeout(() => undefined, 60_000);
		try {
			const [left, ...more] = await resources.settle(50);
			expect(more).toEqual([]);
			expect(left.type).toBe('Timeout');
			expect(left.stack.split('\n')[0]).toContain('open-handles.test.ts');
		} finally {
			clearTimeout(timer);
		}
		expect(await resources.settle(50)).toEqual([]);
		resources.stop();
	});

	it('does not count a timer whose first frame outside Node is jest’s own (its reporter’s, in band)', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'open-handles-jest-'));
		const file = join(dir, 'node_modules', 'jest-reporter-stand-in', 'index.js');
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, 'module.exports = () => setTimeout(() => undefined, 60_000);\n');
		const resources = new OpenResources();
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file written just above
		const arm = require(file) as () => NodeJS.Timeout;
		const jests = arm();
		const own = setTimeout(() => undefined, 60_000);
		try {
			expect(resources.open().map((r) => r.stack.split('\n')[0])).toEqual([
				expect.stringContaining('open-handles.test.ts'),
			]);
		} finally {
			clearTimeout(jests);
			clearTimeout(own);
			resources.stop();
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('does not count a timer or an immediate whose callback is marked untracked (the virtual-time driver’s turns)', async () => {
		const resources = new OpenResources();
		const marked = setTimeout(
			untracked(() => undefined),
			60_000,
		);
		const own = setTimeout(() => undefined, 60_000);
		const turn = new Promise<void>((resolve) => setImmediate(untracked(() => resolve())));
		try {
			expect(resources.open().map((r) => r.stack.split('\n')[0])).toEqual([
				expect.stringContaining('open-handles.test.ts'),
			]);
			expect(resources.open().map((r) => r.type)).toEqual(['Timeout']);
		} finally {
			clearTimeout(marked);
			clearTimeout(own);
			await turn;
			resources.stop();
		}
	});

	it('does not count an unref’d timer (it does not keep the process alive) nor one opened before', async () => {
		const before = setTimeout(() => undefined, 60_000);
		const resources = new OpenResources();
		const timer = setTimeout(() => undefined, 60_000).unref();
		try {
			expect(await resources.settle(50)).toEqual([]);
		} finally {
			clearTimeout(timer);
			clearTimeout(before);
			resources.stop();
		}
	});
});

describe('the check in a jest run (child process)', () => {
	it('fails the run, naming the leaking file and what it left open; the clean file passes', () => {
		const run = spawnSync(
			process.execPath,
			// jest's own cache, as the suite's: the environment is compiled once, not on every run.
			[
				require.resolve('jest/bin/jest'),
				'--config',
				join(__dirname, 'fixtures', 'open-handles', 'jest.config.js'),
				'--ci',
			],
			{
				cwd: ROOT,
				encoding: 'utf8',
				timeout: 50_000,
				env: { ...process.env, FORCE_COLOR: '0', OPEN_HANDLES_LOG: '', WORKER_EXIT_TRACE: '' },
			},
		);
		const output = `${run.stdout}${run.stderr}`;
		expect(run.error).toBeUndefined();
		expect(run.status).toBe(1);
		expect(output).toMatch(/PASS \S*clean\.test\.js/);
		expect(output).toMatch(/FAIL \S*leak\.test\.js/);
		expect(output).toMatch(/leak\.test\.js left open: (?=.*Timeout)(?=.*TCPSERVERWRAP)(?=.*PROCESSWRAP)/);
		// The grace its config sets (testEnvironmentOptions.closeGraceMs), not the suite's 2 s.
		expect(output).toContain('still there 300 ms after its last afterAll');
		expect(output).toContain('Test Suites: 1 failed, 1 passed, 2 total');
	}, 60_000); // starts jest in a child process, with two workers
});
