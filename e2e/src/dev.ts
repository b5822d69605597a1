/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The `dev` part: `./scripts/run n8n` as a user runs it. A child process in a process group of its
 * own (as a terminal starts it), its n8n data in a fresh temporary folder (GG_N8N_DEV_DIR), so a
 * developer's own .n8n-dev/ is never touched. From what it prints (address, login): sign in in
 * Chromium, open the video example from the workflow list, execute it from the editor and find the
 * task the simulator ran in the node's output (screenshots in e2e-output/dev/); `npm run build`
 * reloads the package in the running n8n; Ctrl-C (SIGINT to the group) leaves no process and no
 * port. A second start on the same folder is warm and creates nothing twice.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Checks } from './checks';
import { launchChromium, login, newPage } from './editor';
import { http } from './http';
import { repoRoot } from './n8n';
import { outputDir, start, waitFor, type Proc } from './proc';
import type { PartInput } from './start';

const shotsDir = join(outputDir, 'dev');
const VIDEO_EXAMPLE = 'Generation Gateway: create a video and wait for it';
const VIDEO_NODE = 'Create Video and Wait';

/** What the command printed once n8n was ready. */
interface Banner {
	url: string;
	email: string;
	password: string;
	simulator: string;
	seconds: number;
}

function readBanner(log: string): Banner | undefined {
	const ready = /is ready with .* \(([\d.]+) s\)/.exec(log);
	const url = /Editor:\s+(http:\/\/\S+)/.exec(log);
	const login = /Sign in:\s+(\S+) \/ (\S+)/.exec(log);
	const simulator = /Simulator:\s+(http:\/\/\S+)/.exec(log);
	if (!ready || !url || !login || !simulator) return undefined;
	return {
		url: url[1],
		email: login[1],
		password: login[2],
		simulator: simulator[1],
		seconds: Number(ready[1]),
	};
}

/** The pids of a process and all its descendants now (from /proc). */
function processTree(root: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// gone meanwhile
		}
	}
	const tree: number[] = [];
	const walk = (pid: number) => {
		tree.push(pid);
		for (const child of children.get(pid) ?? []) walk(child);
	};
	walk(root);
	return tree;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** A process's state letter (R, S, Z for a zombie...), or '' once it is gone. */
function processState(pid: number): string {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
	} catch {
		return '';
	}
}

function commandOf(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 120);
	} catch {
		return '';
	}
}

async function portOpen(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const socket = connect({ host: '127.0.0.1', port, timeout: 2_000 });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
		socket.once('timeout', () => {
			socket.destroy();
			resolve(false);
		});
	});
}

async function signIn(url: string, email: string, password: string): Promise<string> {
	const answer = await http(`${url}/rest/login`, {
		method: 'POST',
		body: { emailOrLdapLoginId: email, password },
	});
	if (answer.status !== 200) throw new Error(`sign-in -> ${answer.status}`);
	const cookie = ([] as string[])
		.concat(answer.headers['set-cookie'] ?? [])
		.map((c) => c.split(';')[0])
		.find((c) => c.startsWith('n8n-auth='));
	if (!cookie) throw new Error('sign-in gave no cookie');
	return cookie;
}

async function restList(url: string, cookie: string, path: string): Promise<Array<Record<string, unknown>>> {
	const answer = await http(`${url}/rest${path}`, { headers: { cookie } });
	if (answer.status !== 200) throw new Error(`GET /rest${path} -> ${answer.status}`);
	return answer.json<{ data: Array<Record<string, unknown>> }>().data;
}

/** Starts the command and waits for its banner (bounded). */
async function launch(checks: Checks, name: string, dir: string): Promise<{ proc: Proc; banner: Banner }> {
	const proc = start(name, join(repoRoot, 'scripts', 'run'), ['n8n'], {
		cwd: repoRoot,
		env: { ...process.env, GG_N8N_DEV_DIR: dir },
	});
	let exited = false;
	void proc.exited.then(() => (exited = true));
	const banner = await waitFor(
		`${name}: ./scripts/run n8n to print that n8n is ready`,
		() => {
			if (exited) throw new Error(`./scripts/run n8n exited; see ${proc.logFile}`);
			return readBanner(proc.log());
		},
		300_000,
		500,
	);
	checks.ok(`${name}: ./scripts/run n8n printed the editor's address and the login`, true, {
		url: banner.url,
		login: banner.email,
		ready: `${banner.seconds} s`,
	});
	checks.ok(
		`${name}: the editor is on loopback over plain http`,
		/^http:\/\/localhost:\d+$/.test(banner.url),
	);
	return { proc, banner };
}

/** Ctrl-C as a terminal sends it (SIGINT to the foreground process group), then nothing may be left. */
async function interrupt(checks: Checks, name: string, proc: Proc, banner: Banner): Promise<void> {
	const pid = proc.child.pid!;
	const tree = processTree(pid);
	checks.ok(`${name}: the command runs n8n (processes before Ctrl-C)`, tree.length >= 2, tree);
	process.kill(-pid, 'SIGINT');
	const code = await Promise.race([
		proc.exited,
		new Promise((resolve) => setTimeout(() => resolve('timeout'), 60_000)),
	]);
	checks.equal(`${name}: the command ended after Ctrl-C, exit code`, code, 0);
	checks.ok(`${name}: it said it stopped everything`, /stopped: nothing left running/.test(proc.log()));
	// A process ends a moment after its parent: allow a few seconds.
	const left = await waitFor(
		'every process of the command to end',
		() => {
			const running = tree.filter(alive).filter((pid) => processState(pid) !== 'Z');
			return running.length === 0 ? running : undefined;
		},
		10_000,
		250,
	).catch(() => tree.filter(alive).map((pid) => `${pid} ${processState(pid)} ${commandOf(pid)}`));
	checks.ok(`${name}: no process left`, left.length === 0, { of: tree.length, left });
	const zombies = tree.filter(alive);
	if (zombies.length)
		checks.note(`exited, not yet reaped by their new parent (zombies): ${zombies.join(', ')}`);
	const ports = [Number(new URL(banner.url).port), Number(new URL(banner.simulator).port)];
	const open: number[] = [];
	for (const port of ports) if (await portOpen(port)) open.push(port);
	checks.ok(`${name}: no port left (n8n's, the simulator's)`, open.length === 0, {
		n8n: ports[0],
		simulator: ports[1],
		open,
	});
}

export async function runDev({ checks }: PartInput): Promise<void> {
	mkdirSync(shotsDir, { recursive: true });
	const dir = mkdtempSync(join(tmpdir(), 'gg-n8n-dev-'));
	const examples = readdirSync(join(repoRoot, 'examples')).filter((f) => f.endsWith('.json')).length;
	try {
		checks.begin('dev: ./scripts/run n8n, first start');
		const first = await launch(checks, 'dev-first', dir);
		const { url, email, password } = first.banner;
		const cookie = await signIn(url, email, password);
		const nodeTypes = (await http(`${url}/types/nodes.json`, { headers: { cookie } })).json<
			Array<{ name: string }>
		>();
		checks.ok(
			'dev: n8n lists the package nodes',
			nodeTypes.some((t) => t.name === 'n8n-nodes-generation-gateway.generationGateway'),
		);
		checks.equal(
			'dev: every example is in place',
			(await restList(url, cookie, '/workflows')).length,
			examples,
		);
		checks.equal(
			"dev: the three gateway credentials and Recover Waits' are in place",
			(await restList(url, cookie, '/credentials')).length,
			4,
		);

		checks.begin('dev: the editor in Chromium, with the printed login');
		const browser = await launchChromium();
		try {
			const page = await newPage(browser);
			await login(page, url, { email, password });
			checks.ok('dev: signed in with the printed login', true, page.url());
			await page.goto(`${url}/home/workflows`);
			await page.getByText(VIDEO_EXAMPLE, { exact: true }).first().click();
			await page.waitForURL(/\/workflow\/[^/]+$/, { timeout: 30_000 });
			const workflowId = /\/workflow\/([^/?]+)/.exec(page.url())![1];
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${VIDEO_NODE}"]`).waitFor();
			checks.ok('dev: opened the video example from the workflow list', true, workflowId);
			const startedAt = Date.now();
			await page.locator('[data-test-id="execute-workflow-button"]').first().click();
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const run = await waitFor(
				'the run started in the editor to finish',
				async () => {
					const answer = await http(`${url}/rest/executions?filter=${filter}`, { headers: { cookie } });
					const { results } = answer.json<{ data: { results: Array<{ id: string; status: string }> } }>()
						.data;
					return results.find((e) => !['running', 'new', 'waiting'].includes(e.status));
				},
				90_000,
				500,
			);
			checks.equal('dev: the run from the editor succeeded', run.status, 'success');
			checks.note(`Create and Wait from the editor: ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
			await page.screenshot({ path: join(shotsDir, 'video-example-canvas.png') });
			// The command appends the simulator's requests to its log once a second.
			const simLog = await waitFor(
				"the video task's requests in the simulator's log",
				() => {
					const log = readFileSync(join(dir, 'simulator.log'), 'utf8');
					return /GET \/files\/videos\//.test(log) ? log : undefined;
				},
				10_000,
				500,
			).catch(() => readFileSync(join(dir, 'simulator.log'), 'utf8'));
			const taskId = /GET \/v1\/videos\/(video_\w+) -> 200/.exec(simLog)?.[1];
			checks.ok(
				'dev: the simulator ran the video task and served its file',
				!!taskId && /GET \/files\/videos\//.test(simLog),
				taskId,
			);
			await page.locator(`[data-test-id="canvas-node"][data-node-name="${VIDEO_NODE}"]`).dblclick();
			const output = page.locator('[data-test-id="output-panel"]');
			await output.waitFor();
			await waitFor(
				'the task in the output pane',
				async () => ((await output.innerText()).includes(taskId ?? '?') ? true : undefined),
				20_000,
				500,
			).catch(() => undefined);
			const text = (await output.innerText()).replace(/\s+/g, ' ');
			checks.ok(
				"dev: the node's output shows the simulator's task",
				!!taskId && text.includes(taskId),
				text.slice(0, 300),
			);
			await page.screenshot({ path: join(shotsDir, 'video-example-output.png') });
			checks.note(
				'screenshots: e2e-output/dev/video-example-canvas.png, e2e-output/dev/video-example-output.png',
			);
		} finally {
			await browser.close();
		}

		checks.begin('dev: npm run build reloads the package in the running n8n');
		const before = readFileSync(join(dir, 'n8n.log'), 'utf8').split(
			'Hot reload triggered for n8n-nodes-generation-gateway',
		).length;
		execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'ignore', timeout: 180_000 });
		const reloaded = await waitFor(
			'n8n to reload the package',
			() => {
				const now = readFileSync(join(dir, 'n8n.log'), 'utf8').split(
					'Hot reload triggered for n8n-nodes-generation-gateway',
				).length;
				return now > before ? true : undefined;
			},
			30_000,
			500,
		).catch(() => false);
		checks.ok(
			'dev: the command copied the new build',
			/dist\/ changed: package copied/.test(first.proc.log()),
		);
		checks.ok('dev: n8n reloaded the package ("Hot reload triggered")', reloaded === true);
		// n8n answers again once the reload is over (a request during it may be cut off).
		const afterReload = await waitFor(
			"n8n's node types after the reload",
			async () => {
				const answer = await http(`${url}/types/nodes.json`, { headers: { cookie } });
				return answer.status === 200 ? answer.json<Array<{ name: string }>>() : undefined;
			},
			30_000,
			500,
		);
		checks.ok(
			'dev: the reloaded package still lists its nodes',
			afterReload.some((t) => t.name === 'n8n-nodes-generation-gateway.generationGatewayTrigger'),
		);

		checks.begin('dev: Ctrl-C');
		await interrupt(checks, 'dev-first', first.proc, first.banner);

		checks.begin('dev: a second start on the same folder (warm)');
		const second = await launch(checks, 'dev-second', dir);
		const again = await signIn(second.banner.url, second.banner.email, second.banner.password);
		checks.equal(
			'dev-second: examples not duplicated',
			(await restList(second.banner.url, again, '/workflows')).length,
			examples,
		);
		checks.equal(
			'dev-second: credentials not duplicated',
			(await restList(second.banner.url, again, '/credentials')).length,
			4,
		);
		checks.note(
			`ready: first start ${first.banner.seconds} s (install cached, fresh data), second ${second.banner.seconds} s`,
		);
		await interrupt(checks, 'dev-second', second.proc, second.banner);
	} finally {
		if (!process.env.E2E_KEEP) rmSync(dir, { recursive: true, force: true });
	}
}
