/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Running the package's workflows in a real n8n and checking them from n8n's own execution
 * records: examples/*.json (found generically), the trigger example from its production URL, the
 * node types n8n lists.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { inspectImage } from '../../test/simulator/image/inspect';
import { sampleMp4, videoTasks } from '../../test/simulator/video/tasks';
import { http } from './http';
import type { ExecutionRecord, Item } from './executions';
import { outputOf, webhookAnswer } from './n8n';
import { outputDir, sleep, waitFor } from './proc';
import {
	loadWorkflow,
	PACKAGE,
	TRIGGER_TYPE,
	withCredentials,
	type Context,
	type Workflow,
} from './workflows';

/** The node a manual run starts from: a trigger with no incoming connection. */
function startNode(workflow: Workflow): string {
	const targets = new Set(
		Object.values(workflow.connections).flatMap((c) => (c.main ?? []).flat().map((link) => link.node)),
	);
	const start = workflow.nodes.find((n) => !targets.has(n.name) && /trigger/i.test(n.type));
	if (!start) throw new Error(`${workflow.name}: no trigger node to start from`);
	return start.name;
}

const AUDIO_MAGIC: Array<[string, (b: Buffer) => boolean]> = [
	['audio/wav', (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE'],
	['audio/mpeg', (b) => b.toString('latin1', 0, 3) === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0)],
	['audio/ogg', (b) => b.toString('latin1', 0, 4) === 'OggS'],
	['audio/flac', (b) => b.toString('latin1', 0, 4) === 'fLaC'],
];

/** What the bytes are, from their content (images are decoded in full). */
function sniff(bytes: Buffer): string {
	if (bytes.toString('latin1', 4, 8) === 'ftyp') return 'video/mp4';
	for (const [type, test] of AUDIO_MAGIC) if (test(bytes)) return type;
	try {
		return `image/${inspectImage(bytes).format}`;
	} catch {
		return 'unknown';
	}
}

const sameType = (declared: string, sniffed: string) =>
	declared
		.replace('audio/x-wav', 'audio/wav')
		.replace('audio/wave', 'audio/wav')
		.replace('image/jpg', 'image/jpeg') === sniffed;

export const pairedIndex = (item: Item) =>
	typeof item.pairedItem === 'number'
		? item.pairedItem
		: Array.isArray(item.pairedItem)
			? item.pairedItem[0]?.item
			: item.pairedItem?.item;

/** The checks every run of a package workflow must pass; writes outputs to e2e-output/<label>/<name>/. */
export async function checkExecution(
	ctx: Context,
	name: string,
	workflow: Workflow,
	record: ExecutionRecord,
): Promise<void> {
	const { checks, n8n } = ctx;
	const dir = join(outputDir, ctx.label, name);
	mkdirSync(dir, { recursive: true });
	checks.equal(`${name}: execution status`, record.status, 'success', { execution: record.id });
	if (record.data.resultData.error)
		checks.ok(`${name}: no workflow error`, false, record.data.resultData.error.message);
	for (const node of workflow.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`))) {
		const runs = record.data.resultData.runData[node.name] ?? [];
		const items = outputOf(record, node.name);
		const error = runs.at(-1)?.error;
		checks.ok(`${name} / ${node.name}: ran and output items`, runs.length > 0 && items.length > 0 && !error, {
			runs: runs.length,
			items: items.length,
			error: error?.message,
		});
		const safe = node.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
		writeFileSync(join(dir, `${safe}.json`), JSON.stringify(items, null, 2));
		checks.ok(
			`${name} / ${node.name}: every item has pairedItem`,
			items.every((i) => typeof pairedIndex(i) === 'number'),
			items.map(pairedIndex),
		);
		const itemErrors = items.filter((i) => i.json.error !== undefined).map((i) => i.json.error);
		checks.ok(
			`${name} / ${node.name}: no error items`,
			itemErrors.length === 0,
			itemErrors.length ? itemErrors : undefined,
		);
		for (const [index, item] of items.entries()) {
			for (const [property, ref] of Object.entries(item.binary ?? {})) {
				const bytes = await n8n.binaryBytes(ref);
				const sniffed = sniff(bytes);
				const file = `${safe}-${index}-${property}.${ref.fileExtension ?? 'bin'}`;
				writeFileSync(join(dir, file), bytes);
				checks.ok(
					`${name} / ${node.name}[${index}].${property}: ${ref.mimeType}, real bytes`,
					bytes.length > 0 && sameType(ref.mimeType, sniffed) && Boolean(ref.fileSize),
					{
						fileSize: ref.fileSize,
						bytes: bytes.length,
						content: sniffed,
						file: `e2e-output/${ctx.label}/${name}/${file}`,
					},
				);
				if (sniffed === 'video/mp4' && typeof item.json.id === 'string') {
					checks.ok(
						`${name} / ${node.name}[${index}]: the video's bytes are the simulator's file for its task`,
						bytes.equals(sampleMp4(item.json.id)),
						{ task: item.json.id },
					);
				}
			}
		}
	}
}

/** Runs one example workflow: a manual run from its trigger, or, for the gateway trigger, as a production webhook. */
export async function runExample(ctx: Context, file: string): Promise<ExecutionRecord | undefined> {
	const name = basename(file, '.json');
	const workflow = withCredentials(loadWorkflow(file), ctx.credentials);
	const created = await ctx.n8n.createWorkflow({ ...workflow, name: `${workflow.name} (${name})` });
	if (workflow.nodes.some((n) => n.type === TRIGGER_TYPE)) {
		return await runTriggerWorkflow(ctx, name, workflow, created);
	}
	const started = Date.now();
	const executionId = await ctx.n8n.runManually(created.id, startNode(workflow));
	const record = await ctx.n8n.waitExecution(executionId, 180_000);
	ctx.checks.note(`${name}: execution ${executionId} ${record.status} in ${Date.now() - started} ms`);
	await checkExecution(ctx, name, workflow, record);
	return record;
}

/**
 * The trigger example, activated: a call without the secret gets 401 and
 * starts nothing; a video task created with the production URL + secret as its
 * callback address starts one execution when it finishes.
 */
export async function runTriggerWorkflow(
	ctx: Context,
	name: string,
	workflow: Workflow,
	created: { id: string; versionId: string },
): Promise<ExecutionRecord> {
	const { n8n, sim, checks } = ctx;
	const trigger = workflow.nodes.find((n) => n.type === TRIGGER_TYPE)!;
	const secret = String(trigger.parameters.secret);
	await n8n.activate(created.id, created.versionId);
	const productionUrl = `${n8n.url}/webhook/${trigger.webhookId}/video-task`;
	const before = (await n8n.executions(created.id)).length;
	const refused = await webhookAnswer('the production webhook to be registered', () =>
		http(productionUrl, {
			method: 'POST',
			body: { id: 'video_x', status: 'completed' },
		}),
	);
	checks.equal(`${name}: a call without the secret is refused`, refused.status, 401);
	const wrong = await http(`${productionUrl}?secret=not-the-secret`, {
		method: 'POST',
		body: { id: 'video_x', status: 'completed' },
	});
	checks.equal(`${name}: a call with a wrong secret is refused`, wrong.status, 401);
	await sleep(1000);
	checks.equal(
		`${name}: refused calls started no execution`,
		(await n8n.executions(created.id)).length,
		before,
	);

	const tasks = videoTasks(sim);
	const deliveriesBefore = tasks.deliveries.length;
	const create = await http(`${sim.url}/v1/videos`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sim.keys.bearer}` },
		body: {
			model: 'vidA-2.5',
			prompt: 'A lighthouse at dusk',
			duration: 5,
			callback_url: `${productionUrl}?secret=${encodeURIComponent(secret)}`,
		},
	});
	const task = create.json<{ id: string }>();
	checks.note(`${name}: created task ${task.id} with the production URL as callback address`);
	const list = await waitFor(
		'the callback to start an execution',
		async () => {
			const found = await n8n.executions(created.id);
			return found.length > before && found.every((e) => !['running', 'new'].includes(e.status))
				? found
				: undefined;
		},
		60_000,
		500,
	);
	const deliveries = tasks.deliveries.slice(deliveriesBefore).filter((d) => d.id === task.id);
	checks.note(
		`${name}: deliveries ${deliveries.map((d) => `${d.status}->${d.httpStatus ?? d.error}`).join(', ')}`,
	);
	checks.ok(
		`${name}: every callback delivery was accepted (2xx)`,
		deliveries.length > 0 && deliveries.every((d) => (d.httpStatus ?? 0) >= 200 && (d.httpStatus ?? 0) < 300),
	);
	checks.equal(`${name}: exactly one execution, from the final callback`, list.length - before, 1);
	const record = await n8n.waitExecution(list[0].id, 60_000);
	checks.equal(`${name}: the execution ran in webhook mode`, record.mode, 'webhook');
	await checkExecution(ctx, name, workflow, record);
	checks.equal(
		`${name}: it downloaded the task that called back`,
		outputOf(record, trigger.name)[0]?.json.id,
		task.id,
	);
	return record;
}

/** n8n lists the AI-tool variant of the action node when tool usage is allowed. */
export async function checkToolVariant(ctx: Context): Promise<void> {
	const names = (await ctx.n8n.nodeTypes()).map((t) => t.name);
	for (const type of ['generationGateway', 'generationGatewayTrigger', 'generationGatewayTool']) {
		ctx.checks.ok(`n8n lists ${PACKAGE}.${type}`, names.includes(`${PACKAGE}.${type}`));
	}
}
