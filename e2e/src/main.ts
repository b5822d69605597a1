/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The end-to-end suite (`./scripts/run e2e`): the package in a real n8n.
 *
 *   single    one n8n over https with the packed package installed as a
 *             community package: every example, the trigger's production URL,
 *             Create and Wait by callback with several items, the AI tool
 *   browser   the editor in Chromium on that same n8n (node panel, forms)
 *   chat      on that same n8n, a public Chat Trigger in response mode
 *             Streaming → Message → Create: the chat answer streams (chat.ts)
 *   registry  a fresh n8n installs the package from a local npm registry
 *             through its own Community Nodes installer, runs it, uninstalls it
 *   queue     main + worker + webhook process, Redis, PostgreSQL, binary data
 *             in the database; callback-wait callbacks split between webhook
 *             process and main, before the wait, across a restart
 *   compat    the older n8n releases the package supports (1.123.x, 2.0.x; every
 *             folder of e2e/n8n/ but 2.41.1), each under Node 22: examples,
 *             callback wait, trigger, chat streaming, one form (compat.ts)
 *   agents    the tool as people reach it, on every supported n8n (2.41.1 and the
 *             compat releases): an AI Agent on a stand-in OpenAI-compatible model
 *             calling it (image, speech, video, message), the agent behind a
 *             streaming Chat Trigger, and an MCP client calling n8n's MCP Server
 *             Trigger with it over streamable HTTP and SSE (agents.ts)
 *   p15       (only when named) bench P15: batches of 30 to 1,000 video tasks ending in
 *             one instant, each way of waiting and n8n's Wait node, in one n8n (e2e/bench/burst.ts)
 *   pictures  (only when named) the README's and docs' pictures, taken as the
 *             browser part takes them, copied into docs/images/ (pictures.ts)
 *   own-address  an n8n whose Node does not trust its own certificate: a callback
 *             wait says in n8n's log and on its items that the package's own news
 *             is off, and still resumes by the gateway's callbacks (ownAddress.ts)
 *   recovery  waits left behind: n8n stopped while five waits' tasks end, started again; the
 *             example Video Wait → Recover Waits resumes each once (2.41.1 and 1.123.81 alone
 *             and in queue mode, 2.0.3 alone) (recovery.ts)
 *   dev       `./scripts/run n8n` as a user runs it: the editor with the printed
 *             login, an example executed from it, reload on build, Ctrl-C (dev.ts)
 *   docker    the repository's docker/ folder (Dockerfile, compose files for one
 *             instance and queue mode, nginx) in containers of Debian's dockerd, on
 *             stand-ins for n8n's, PostgreSQL's, Redis's and nginx's images (docker.ts)
 *
 * `./scripts/run e2e single browser` runs only the named parts. Everything
 * started is stopped at the end, also on failure. Results: e2e-output/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator } from '../../test/simulator';
import { Checks } from './checks';
import { checkToolVariant } from './examples';
import { certificate } from './certificate';
import { repoRoot } from './n8n';
import { installExitHandlers, outputDir, stopAll } from './proc';
import { runSingle } from './single';
import { startN8n, type PackagedN8n, type PartInput } from './start';

const PARTS = [
	'single',
	'browser',
	'chat',
	'registry',
	'queue',
	'compat',
	'agents',
	'own-address',
	'recovery',
	'dev',
	'docker',
] as const;
/** Parts that run only when named: `pictures` writes into the checkout (docs/images/), `p15` and `p15-queue` are benches of 15 to 30 minutes. */
const ON_REQUEST = ['pictures', 'p15', 'p15-queue', 'p16'] as const;
type Part = (typeof PARTS)[number] | (typeof ON_REQUEST)[number];

/** The parts that start their own n8n, in the order they run: the part, its timing's label, its code. */
const OWN_N8N: Array<[Part, string, () => Promise<(input: PartInput) => Promise<void>>]> = [
	[
		'registry',
		'registry: install from a local registry',
		async () => (await import('./registry')).runRegistry,
	],
	['compat', 'compat: older n8n', async () => (await import('./compat')).runCompat],
	['agents', 'agents: AI Agent, streaming chat, MCP', async () => (await import('./agents')).runAgents],
	['p15', 'p15: batches ending in one instant', async () => (await import('../bench/burst')).runBurst],
	[
		'p15-queue',
		'p15-queue: batches ending in one instant, queue mode',
		async () => (await import('../bench/burst')).runBurstQueue,
	],
	[
		'p16',
		'p16: executions and trigger callbacks ending in one instant',
		async () => (await import('../bench/p16')).runP16,
	],
	['queue', 'queue mode', async () => (await import('./queue')).runQueue],
	[
		'own-address',
		'own-address: n8n unable to reach itself',
		async () => (await import('./ownAddress')).runOwnAddress,
	],
	[
		'recovery',
		'recovery: waits left behind by n8n down',
		async () => (await import('./recovery')).runRecoveryPart,
	],
	['dev', 'dev: ./scripts/run n8n', async () => (await import('./dev')).runDev],
	['docker', 'docker: the docker/ folder in containers', async () => (await import('./docker')).runDocker],
];

/** npm pack of the built package (what npm publish would upload). */
function pack(dir: string): { tarball: string; version: string; files: string[] } {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: repoRoot,
		encoding: 'utf8',
	});
	const [info] = JSON.parse(out.slice(out.indexOf('['))) as Array<{
		filename: string;
		version: string;
		files: Array<{ path: string }>;
	}>;
	return { tarball: join(dir, info.filename), version: info.version, files: info.files.map((f) => f.path) };
}

async function main(): Promise<void> {
	const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
	const parts = new Set<Part>(wanted.length ? (wanted as Part[]) : PARTS);
	const known: readonly Part[] = [...PARTS, ...ON_REQUEST];
	for (const part of parts)
		if (!known.includes(part)) throw new Error(`unknown part "${part}"; parts: ${known.join(' ')}`);
	rmSync(outputDir, { recursive: true, force: true });
	mkdirSync(outputDir, { recursive: true });
	const work = mkdtempSync(join(tmpdir(), 'gg-e2e-'));
	const checks = new Checks();
	const started = Date.now();
	const sim = await startSimulator();
	try {
		// Each part runs through checks.part: a part that throws still counts the checks it did not reach.
		const input = await checks.part('setup', async (): Promise<PartInput> => {
			checks.begin('setup');
			const cert = certificate(work);
			checks.note(`certificate made for this run: ${cert.cert}`);
			const packed = await checks.timed('npm pack', async () => pack(work));
			checks.ok('npm pack: the tarball has package.json', packed.files.includes('package.json'), {
				files: packed.files.length,
			});
			const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { main?: string };
			checks.ok(
				`the tarball contains package.json "main" (${manifest.main})`,
				!manifest.main || packed.files.includes(manifest.main),
			);
			checks.note(`simulator on ${sim.url}`);
			return { work, cert, packed, sim, checks };
		});
		const ready = <T>(value: T | undefined, what: string): T => {
			if (value === undefined) throw new Error(`not run: ${what} failed`);
			return value;
		};

		// single, browser, chat and pictures share one n8n.
		const shared = (['single', 'chat', 'browser', 'pictures'] as const).filter((part) => parts.has(part));
		if (shared.length) {
			let ctx: PackagedN8n | undefined;
			await checks.part('single-start', async () => {
				checks.begin('single instance: start');
				ctx = await startN8n(ready(input, 'setup'), { name: 'single' });
				await checkToolVariant(ctx);
			});
			const loaded = () => ready(ctx, 'the single instance start');
			if (parts.has('single')) await checks.part('single', () => runSingle(loaded(), 'single instance'));
			if (parts.has('chat')) {
				await checks.part('chat', async () => {
					checks.begin("single instance: streaming into n8n's chat (Chat Trigger → Message Create)");
					const { runChat } = await import('./chat');
					await checks.timed('chat: streaming', () => runChat(loaded()));
				});
			}
			if (parts.has('browser')) {
				await checks.part('browser', async () => {
					const { runBrowser } = await import('./browser');
					await checks.timed('browser: editor', () => runBrowser(loaded()));
				});
			}
			if (parts.has('pictures')) {
				await checks.part('pictures', async () => {
					checks.begin('pictures: the README and docs pictures, into docs/images/');
					const { runPictures } = await import('./pictures');
					await checks.timed('pictures', () => runPictures(loaded()));
				});
			}
			await ctx?.stop();
		}
		// The other parts start their own n8n, one after another.
		for (const [part, label, load] of OWN_N8N) {
			if (!parts.has(part)) continue;
			// E2E_AGENTS_N8N limits the agents part to some releases: its list names them all.
			const listed = !(part === 'agents' && process.env.E2E_AGENTS_N8N);
			await checks.part(
				part,
				async () => {
					const runPart = await load();
					await checks.timed(label, () => runPart(ready(input, 'setup')));
				},
				listed,
			);
		}
	} catch (error) {
		checks.broke('the suite stopped early', error);
	} finally {
		await stopAll();
		await sim.stop();
		if (!process.env.E2E_KEEP) rmSync(work, { recursive: true, force: true });
	}
	checks.begin('summary');
	for (const [label, ms] of checks.timings) checks.note(`${label}: ${(ms / 1000).toFixed(1)} s`);
	checks.note(`total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
	const unreached = checks.notReached ? ` (${checks.notReached} of them not reached)` : '';
	const summary = `${checks.passed} checks passed, ${checks.failures.length} failed${unreached}`;
	process.stdout.write(`\n${summary}\n${checks.failures.map((f) => `  - ${f}`).join('\n')}\n`);
	writeFileSync(
		join(outputDir, 'summary.json'),
		JSON.stringify(
			{
				passed: checks.passed,
				failures: checks.failures,
				notReached: checks.notReached,
				timings: checks.timings,
			},
			null,
			2,
		),
	);
	process.exitCode = checks.failures.length ? 1 : 0;
}

installExitHandlers();
void main().catch((error) => {
	process.stderr.write(`${(error as Error).stack ?? error}\n`);
	void stopAll().finally(() => process.exit(1));
});
