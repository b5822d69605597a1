/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The docker part's queue mode (docker-compose.queue.yml, two webhook processes) on the one-instance
 * volume: the docs' import, examples on the worker with the moved credentials, the package in every
 * process, a callback wait through the proxy, the trigger, the big video in n8n's database, the docs'
 * upgrade and removal through packages/.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { runCallbackWait } from './callbackWait';
import {
	addressOf,
	bigVideo,
	healthy,
	inContainer,
	INSIDE_URL,
	MOVE,
	packageIn,
	packagesHold,
	packageTypes,
	type Project,
	QUEUE_FILE,
	repack,
	saveLogs,
	signedIn,
	triggerAnswer,
	up,
	upstreams,
} from './dockerProject';
import { checkToolVariant, runExample } from './examples';
import { waitFor } from './proc';
import { ranOnWorker, type PartInput } from './start';
import { credentialName, examplesDir, loadWorkflow, TRIGGER_TYPE } from './workflows';

/** In every n8n container of queue mode: the package's version in the nodes folder. */
export function packageEverywhere(p: Project): string[] {
	return ['n8n', 'n8n-worker', 'n8n-webhook'].flatMap((service) => p.containers(service).map(packageIn));
}

/**
 * Queue mode with two webhook processes, on the volume the one instance left: the docs' import, then
 * the moved credentials at work on the worker; the package in every process; a callback wait through
 * the proxy and the webhook processes; the trigger; a big video in the database; the docs' upgrade and
 * removal of the package through packages/.
 */
export async function queueMode(
	input: PartInput,
	p: Project,
	base: string,
	moved: Record<string, string>,
): Promise<void> {
	const { checks, packed, work } = input;
	const services = ['postgres', 'redis', 'n8n', 'n8n-worker', 'n8n-webhook', 'proxy'];
	const scale = ['--scale', 'n8n-webhook=2'];
	checks.begin(`docker: queue mode (${QUEUE_FILE}, two webhook processes)`);
	try {
		const ctx = await up(input, p, QUEUE_FILE, scale, services, base, 'docker-queue');
		p.compose(QUEUE_FILE, [
			'exec',
			'-T',
			'n8n',
			'n8n',
			'import:credentials',
			`--input=${MOVE}/credentials.json`,
		]);
		p.compose(QUEUE_FILE, ['exec', '-T', 'n8n', 'n8n', 'import:workflow', `--input=${MOVE}/workflows.json`]);
		ctx.credentials = moved;
		// API keys stay in the one instance's database: Recover Waits' credential gets one made here.
		await ctx.n8n.rest('PATCH', `/credentials/${moved.generationGatewayN8nApi}`, {
			name: credentialName('generationGatewayN8nApi'),
			type: 'generationGatewayN8nApi',
			data: {
				baseUrl: INSIDE_URL,
				apiKey: await ctx.n8n.createApiKey('Recover Waits'),
				ignoreSslIssues: false,
			},
		});
		const workflows = await ctx.n8n.rest<Array<{ id: string }>>('GET', '/workflows');
		checks.ok(
			'the move: the workflows of the one instance are in queue mode',
			workflows.length >= 2,
			workflows.length,
		);
		const webhooks = p.containers('n8n-webhook');
		const worker = p.containers('n8n-worker')[0];
		const main = p.containers('n8n')[0];
		checks.equal('two webhook processes run', webhooks.length, 2);
		await checkToolVariant(ctx);
		for (const example of ['image-scheduled-generation', 'video-trigger', 'video-recover-waits']) {
			checks.begin(`docker: queue mode, examples/${example}.json with the moved credentials`);
			const record = await runExample(ctx, join(examplesDir, `${example}.json`));
			if (record) {
				const on = await waitFor(
					'the worker log',
					() => (ranOnWorker(p.logs(worker), record.id) ? true : undefined),
					30_000,
				).catch(() => false);
				checks.ok(`${example}: the execution ran on the worker (its log)`, on === true, {
					execution: record.id,
				});
			}
		}
		const trigger = loadWorkflow(join(examplesDir, 'video-trigger.json')).nodes.find(
			(n) => n.type === TRIGGER_TYPE,
		)!;
		const triggerPath = `/webhook/${trigger.webhookId}/video-task`;
		checks.begin('docker: queue mode, the package in every process');
		for (const [name, id] of [['main', main], ...webhooks.map((w, i) => [`webhook process ${i + 1}`, w])]) {
			checks.equal(
				`${name}: the trigger refuses a call without its secret (the package is loaded there)`,
				triggerAnswer(id, triggerPath),
				'401',
			);
		}
		// What the package does when it posts a callback's news itself: n8n's public address from inside,
		// through extra_hosts to the proxy, its certificate trusted through NODE_EXTRA_CA_CERTS.
		const publicUrl = readFileSync(join(p.dir, '.env'), 'utf8').match(/^PUBLIC_URL=(.*)$/m)![1];
		for (const [name, id] of [
			['main', main],
			['the worker', worker],
			['webhook process 1', webhooks[0]],
		]) {
			checks.equal(
				`${name} reaches n8n's public address (extra_hosts, the private CA)`,
				inContainer(
					id,
					`fetch('${publicUrl}healthz').then((r) => console.log(r.status), (e) => console.log('error ' + (e.cause?.code ?? e.message)))`,
				),
				'200',
				{ publicUrl },
			);
		}
		checks.begin('docker: queue mode, Create and Wait by callback through the proxy, 3 items');
		const before = upstreams(p, '/webhook-waiting/').length;
		// Two processes take the callbacks and share no memory: each may download the videos (n8n resumes once).
		const record = await runCallbackWait(ctx, 3, 2500, false, webhooks.length);
		const seen = upstreams(p, '/webhook-waiting/').slice(before);
		const addresses = webhooks.map(addressOf);
		checks.ok(
			'callback wait: the proxy sent every callback to a webhook process',
			seen.length > 0 && seen.every((a) => addresses.includes(a)),
			{ webhookProcesses: addresses, seen },
		);
		checks.ok(
			'callback wait: the execution resumed on the worker (its log)',
			ranOnWorker(p.logs(worker), record.id),
			{ execution: record.id },
		);
		checks.begin("docker: queue mode, a video of several pieces kept in n8n's database");
		await bigVideo(ctx, 'database');

		// The docs' upgrade: the new tarball in packages/ instead of the old one, the same up command.
		checks.begin('docker: queue mode, upgrading the package through packages/ (docs/deployment.md)');
		const upgraded = `${packed.version}-upgraded`;
		packagesHold(p, repack(work, packed.tarball, upgraded));
		await checks.timed('docker: upgrade (up -d --build)', async () =>
			p.compose(QUEUE_FILE, ['up', '-d', '--build', ...scale]),
		);
		await healthy(p, services);
		checks.equal(
			'after the upgrade: the version in every n8n process',
			packageEverywhere(p),
			Array(4).fill(upgraded),
		);
		await signedIn(ctx, base);
		checks.equal("after the upgrade: n8n lists the package's nodes", (await packageTypes(ctx)).length, 3);

		// The docs' remove: no tarball in packages/, the same up command.
		checks.begin('docker: queue mode, removing the package through packages/ (docs/deployment.md)');
		packagesHold(p);
		await checks.timed('docker: remove (up -d --build)', async () =>
			p.compose(QUEUE_FILE, ['up', '-d', '--build', ...scale]),
		);
		await healthy(p, services);
		checks.equal(
			'after the removal: gone from every n8n process',
			packageEverywhere(p),
			Array(4).fill('absent'),
		);
		await signedIn(ctx, base);
		checks.equal("after the removal: n8n lists none of the package's nodes", await packageTypes(ctx), []);
	} finally {
		saveLogs(p, 'queue', services);
		await checks.timed(`docker: ${QUEUE_FILE} down -v`, async () => p.compose(QUEUE_FILE, ['down', '-v']));
	}
}
