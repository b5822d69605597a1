/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Running the package's workflows in a real n8n and checking them from n8n's
 * own execution records: examples/*.json (found generically), the trigger
 * example from its production URL, and Create and Wait in callback mode with
 * several items.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { inspectImage } from '../../test/simulator/image/inspect';
import type { Simulator } from '../../test/simulator';
import { sampleMp4, videoTasks } from '../../test/simulator/video/tasks';
import type { Checks } from './checks';
import { http } from './http';
import type { ExecutionRecord, Item, N8n } from './n8n';
import { outputOf, repoRoot, webhookAnswer } from './n8n';
import { outputDir, sleep, waitFor } from './proc';

export const PACKAGE = 'n8n-nodes-generation-gateway';
export const TRIGGER_TYPE = `${PACKAGE}.generationGatewayTrigger`;

export interface Workflow {
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		webhookId?: string;
		[key: string]: unknown;
	}>;
	connections: Record<string, { main: Array<Array<{ node: string; type?: string; index?: number }>> }>;
	[key: string]: unknown;
}

export interface Context {
	n8n: N8n;
	sim: Simulator;
	checks: Checks;
	/** Credential ids in this n8n, by credential type. */
	credentials: Record<string, string>;
	/** Label for output folders (e2e-output/<label>/<example>/). */
	label: string;
}

export const examplesDir = join(repoRoot, 'examples');

export function exampleFiles(): string[] {
	return readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => join(examplesDir, f));
}

export function loadWorkflow(file: string): Workflow {
	return JSON.parse(readFileSync(file, 'utf8')) as Workflow;
}

/** The name each credential type gets here, as a user would name it (the README's pictures show it). */
export function credentialName(type: string): string {
	const names: Record<string, string> = {
		generationGatewayBearerApi: 'Generation Gateway account',
		generationGatewayApiKeyApi: 'Generation Gateway API key',
		generationGatewayNativeKeyApi: 'Generation Gateway native key',
		generationGatewayN8nApi: 'Generation Gateway (Recover Waits)',
	};
	return names[type] ?? type;
}

/**
 * Creates one credential of each gateway type, pointing at the simulator, and Recover Waits' own:
 * `inside`, n8n's address as its processes reach it (the suite's own n8n: its URL), and an API key
 * of the owner.
 */
export async function createCredentials(
	n8n: N8n,
	sim: Simulator,
	inside = n8n.url,
): Promise<Record<string, string>> {
	const ids: Record<string, string> = {};
	for (const [type, data] of Object.entries(sim.credentials())) {
		ids[type] = await n8n.createCredential(type, credentialName(type), data);
	}
	const apiKey = await n8n.createApiKey('Recover Waits');
	ids.generationGatewayN8nApi = await n8n.createCredential(
		'generationGatewayN8nApi',
		credentialName('generationGatewayN8nApi'),
		{ baseUrl: inside, apiKey, ignoreSslIssues: false },
	);
	return ids;
}

/** The workflow with its credential references pointing at this n8n's credentials. */
export function withCredentials(workflow: Workflow, ids: Record<string, string>): Workflow {
	const copy = JSON.parse(JSON.stringify(workflow)) as Workflow;
	for (const node of copy.nodes) {
		for (const type of Object.keys(node.credentials ?? {})) {
			node.credentials![type] = { id: ids[type], name: credentialName(type) };
		}
	}
	return copy;
}

/** The node a manual run starts from: a trigger with no incoming connection. */
function startNode(workflow: Workflow): string {
	const targets = new Set(
		Object.values(workflow.connections).flatMap((c) => c.main.flat().map((link) => link.node)),
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

const pairedIndex = (item: Item) =>
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

/** Item i's prompt: its task ends `afterMs` after its create, or at the instant `endsAt` (ms since 1970). */
const callbackPrompt = (i: number, afterMs: number, endsAt?: number) =>
	`Callback item ${i + 1} ${endsAt === undefined ? `[after:${afterMs}]` : `[at:${endsAt}]`}`;

/**
 * Manual trigger `Start` → a Set node holding `values` under `field` → Split Out: one item per value,
 * each with `field` (the last node is `split`).
 */
export function manualItems(
	field: string,
	values: unknown[],
	names = { list: 'Prompts', split: 'One Item per Prompt' },
): Workflow['nodes'] {
	return [
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			name: names.list,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: { mode: 'raw', jsonOutput: JSON.stringify({ [field]: values }) },
		},
		{
			name: names.split,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
			parameters: { fieldToSplitOut: field, include: 'noOtherFields' },
		},
	];
}

/** Video → Create and Wait (vidA-2.5, 5 s) named `Create Videos and Wait`, a task per item's `prompts`. */
export function createAndWaitNode(
	waitOptions: Record<string, unknown>,
	position = [600, 0],
): Workflow['nodes'][number] {
	return {
		name: 'Create Videos and Wait',
		type: `${PACKAGE}.generationGateway`,
		typeVersion: 1,
		position,
		parameters: {
			resource: 'video',
			operation: 'createAndWait',
			model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
			prompt: '={{ $json.prompts }}',
			duration: 5,
			waitOptions,
		},
		credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
	};
}

/** Video → Create (vidA-2.5, 5 s) named `Create Video`, its task calling `callbackUrl` back. */
export function createVideoNode(
	prompt: string,
	callbackUrl: string,
	position = [200, 0],
): Workflow['nodes'][number] {
	return {
		name: 'Create Video',
		type: `${PACKAGE}.generationGateway`,
		typeVersion: 1,
		position,
		parameters: {
			resource: 'video',
			operation: 'create',
			model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
			prompt,
			duration: 5,
			videoOptions: { callbackUrl },
		},
		credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
	};
}

/** Manual trigger -> `items` prompts as items -> Create and Wait in callback mode (download on). */
export function callbackWorkflow(
	ids: Record<string, string>,
	items: number,
	afterMs: number,
	endsAt?: number,
): Workflow {
	const prompts = Array.from({ length: items }, (_, i) => callbackPrompt(i, afterMs, endsAt));
	return callbackWaitOf(ids, `Create and Wait, callback mode, ${items} items`, prompts, 5);
}

/** Manual trigger -> one item per prompt -> Create and Wait by callback (download on), this Wait Timeout. */
export function callbackWaitOf(
	ids: Record<string, string>,
	name: string,
	prompts: string[],
	timeoutMinutes: number,
): Workflow {
	return withCredentials(
		{
			name,
			nodes: [
				...manualItems('prompts', prompts),
				createAndWaitNode({ mode: 'callback', download: true, timeoutMinutes }),
			],
			connections: {
				Start: { main: [[{ node: 'Prompts', type: 'main', index: 0 }]] },
				Prompts: { main: [[{ node: 'One Item per Prompt', type: 'main', index: 0 }]] },
				'One Item per Prompt': { main: [[{ node: 'Create Videos and Wait', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		} as Workflow,
		ids,
	);
}

/**
 * Create and Wait by callback whose Wait Timeout (1 minute) passes before its tasks end: n8n's
 * WaitTracker resumes the execution at the deadline without running the node and passes the
 * node's items through; each must still name its task, say what happened and what to run next,
 * while the node before keeps its own output.
 */
export async function runCallbackTimeout(ctx: Context): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const name = 'callback-timeout';
	const marker = `timeout-${Date.now()}`;
	const prompts = [0, 1].map((i) => `${marker} ${i} [after:3600000]`);
	const workflow = callbackWaitOf(
		ctx.credentials,
		'Create and Wait, callback mode, Wait Timeout 1 minute',
		prompts,
		1,
	);
	const created = await n8n.createWorkflow(workflow);
	const executionId = await n8n.runManually(created.id, 'Start');
	const waiting = await n8n.waitExecution(executionId, 120_000, ['waiting', 'success', 'error', 'crashed']);
	checks.equal(`${name}: the execution waits for the callbacks`, waiting.status, 'waiting');
	// n8n's WaitTracker looks for due executions once a minute: the resume comes 1 to 2 minutes later.
	const record = await n8n.waitExecution(executionId, 240_000);
	checks.equal(`${name}: the execution went on at its Wait Timeout`, record.status, 'success');
	const ids = [...videoTasks(sim).tasks.values()]
		.filter((task) => task.prompt.includes(marker))
		.map((task) => task.id);
	const output = outputOf(record, 'Create Videos and Wait');
	checks.equal(
		`${name}: one item per task, each naming its task id`,
		output.map((item) => item.json.id),
		ids,
	);
	for (const [index, item] of output.entries()) {
		const waitInfo = item.json.waitInfo as { state?: string } | undefined;
		checks.equal(`${name}[${index}]: waitInfo.state`, waitInfo?.state, 'timed out');
		checks.ok(
			`${name}[${index}]: the error says the wait reached its Wait Timeout, and what to run with the task id`,
			String(item.json.error).includes('Wait Timeout (1 min)') &&
				String(item.json.errorDescription).includes(`Wait for Completion with task ID ${String(ids[index])}`),
			{ error: item.json.error, errorDescription: item.json.errorDescription },
		);
	}
	checks.equal(
		`${name}: the node before keeps its own output (no task id on its items)`,
		outputOf(record, 'One Item per Prompt').map((item) => Object.keys(item.json)),
		[['prompts'], ['prompts']],
	);
}

/** How often each value occurs, as "value×n", in order of first appearance. */
export function countEach(values: string[]): string {
	const counts = new Map<string, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return [...counts].map(([value, n]) => `${value}×${n}`).join(', ') || 'none';
}

/** How far the simulator's clock jumps when a held batch ends (`holdTaskEnds`). */
const HELD_FOR_MS = 3_600_000;

/**
 * Tasks created with `[at:${endsAt}]` run (pending, queue, in_progress, as a gateway's tasks start
 * while the node still creates the others) and end only when `release()` moves the simulator's clock
 * past `endsAt`: every one of them ends in that instant, however long the creates took. Returns
 * the instant of the release. The clock never goes back (a task that ended stays ended): it runs on
 * from there, an hour ahead of the wall clock for each release.
 */
export function holdTaskEnds(sim: Simulator): { endsAt: number; release(): number } {
	const tasks = videoTasks(sim);
	return {
		endsAt: tasks.now() + HELD_FOR_MS,
		release: () => {
			const offset = tasks.now() - Date.now() + HELD_FOR_MS;
			tasks.now = () => Date.now() + offset;
			return Date.now();
		},
	};
}

/**
 * A callback wait of `items` tasks, each ending `afterMs` after its create, or (`together`) all in
 * one instant once the execution waits: a burst of final callbacks, each of which makes n8n's route
 * load the execution from its database. The simulator's clock stands still until n8n reports the
 * execution waiting, so that no final callback comes before (n8n would refuse it, and a gateway
 * does not send it again), however long the creates take. The execution resumes once with every
 * item in order, and nothing polls. `processes`: the n8n processes that take the callbacks.
 */
export async function runCallbackWait(
	ctx: Context,
	items = 3,
	afterMs = 2500,
	together = false,
	processes = 1,
): Promise<ExecutionRecord> {
	const { n8n, sim, checks } = ctx;
	const name = `callback-wait-${items}-items`;
	const held = together ? holdTaskEnds(sim) : undefined;
	const endsAt = held?.endsAt;
	const workflow = callbackWorkflow(ctx.credentials, items, afterMs, endsAt);
	const created = await n8n.createWorkflow(workflow);
	const tasks = videoTasks(sim);
	const requestsBefore = sim.requests.length;
	const deliveriesBefore = tasks.deliveries.length;
	let waiting: ExecutionRecord;
	let executionId: string;
	try {
		executionId = await n8n.runManually(created.id, 'Start');
		waiting = await n8n.waitExecution(executionId, 120_000, ['waiting', 'success', 'error', 'crashed']);
	} finally {
		const burst = held?.release();
		if (burst) checks.note(`${name}: every task ends now, in one instant (${new Date(burst).toISOString()})`);
	}
	checks.equal(`${name}: the execution waits for the callbacks`, waiting.status, 'waiting');
	// Beyond about 25 tasks per custom data entry, the task list is kept as a file in n8n's binary data
	// store and one entry holds its id.
	const kept = Object.entries(waiting.data.resultData.metadata ?? {}).filter(([key]) =>
		key.startsWith('ggvideo_'),
	);
	checks.note(
		`${name}: custom data while waiting: ${kept.map(([key, value]) => `${key}=${value.slice(0, 80)}`).join(', ')}`,
	);
	if (items > 100) {
		checks.ok(
			`${name}: the task list is kept as a file, one custom data entry points to it`,
			kept.length === 1 && kept[0][1].startsWith('file:'),
			kept,
		);
	}
	let record: ExecutionRecord | undefined;
	let failure: unknown;
	try {
		record = await n8n.waitExecution(executionId, Math.max(60_000, items * 500));
	} catch (error) {
		failure = error;
	}
	const seen = sim.requests.slice(requestsBefore);
	const created_ = seen.filter((r) => r.method === 'POST' && r.path === '/v1/videos');
	const reads = seen.filter((r) => r.method === 'GET' && /^\/v1\/videos\/[^/]+$/.test(r.path));
	const downloads = seen.filter((r) => r.method === 'GET' && r.path.startsWith('/files/videos/'));
	const deliveries = tasks.deliveries.slice(deliveriesBefore);
	checks.note(
		`${name}: simulator saw ${created_.length} creates, ${reads.length} task reads, ${downloads.length} downloads; ${deliveries.length} callback deliveries (${countEach(deliveries.map((d) => `${d.status}->${d.httpStatus ?? d.error}`))})`,
	);
	if (endsAt !== undefined) {
		// A burst: how fast n8n and the node answered the final callbacks that came together.
		const finals = deliveries.filter(
			(d) => d.attempt === 1 && !['pending', 'queue', 'in_progress'].includes(d.status),
		);
		const took = finals.map((d) => d.tookMs ?? 0).sort((a, b) => a - b);
		const at = (q: number) => took[Math.min(took.length - 1, Math.ceil(q * took.length) - 1)] ?? 0;
		checks.note(
			`${name}: first answers to the ${finals.length} final callbacks: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${took.at(-1) ?? 0} ms; by route ${countEach(finals.map((d) => `${new URL(d.url).port}->${d.httpStatus ?? d.error}`))}`,
		);
		// A final callback answered 5xx must be one that asks the gateway to call again: the node's 503
		// with Retry-After (it could not confirm the task or read the task list), or n8n's own 503 when
		// its database pool could not give it a connection in time under the burst (n8n 2.41: "Database
		// is not ready!", seen on a loaded 2-core machine). One 500 of n8n's is no defect either: n8n
		// 2.41 reads an execution's status and its data in two queries, so a callback that reads them
		// while another webhook process claims the execution sees "waiting" with the claimed data and
		// fails on it ("reading 'inputOverride'") before the node runs; the execution is resumed by
		// then, which the checks below prove (one execution, every item its video). A 500, or a 503
		// from anything else, is a defect. How many answers came after the sender's 10 s is the
		// machine's and n8n's speed, noted above (bench P15).
		const failed = deliveries.filter(
			(d) => !['pending', 'queue', 'in_progress'].includes(d.status) && (d.httpStatus ?? 0) >= 500,
		);
		const whose = (d: (typeof failed)[number]) =>
			d.httpStatus === 503 && d.retryAfter !== undefined && /"error"/.test(d.answer ?? '')
				? 'the node asks again (Retry-After)'
				: d.httpStatus === 503 && /Database is not ready/i.test(d.answer ?? '')
					? "n8n's database pool timed out"
					: d.httpStatus === 500 && /reading 'inputOverride'/.test(d.answer ?? '')
						? 'n8n read the execution while another process resumed it'
						: `other: ${d.httpStatus} ${(d.answer ?? '').slice(0, 80)}`;
		if (failed.length) checks.note(`${name}: final callbacks answered 5xx: ${countEach(failed.map(whose))}`);
		checks.equal(
			`${name}: every final callback answered 5xx was asked to come again (the node's 503 + Retry-After, n8n's database-not-ready 503) or came while another process resumed the execution`,
			failed.filter((d) => whose(d).startsWith('other')).map((d) => `${d.id}: ${whose(d)}`),
			[],
		);
	}
	if (!record) throw failure;
	await checkExecution(ctx, name, workflow, record);
	const output = outputOf(record, 'Create Videos and Wait');
	const ids = created_.map((_, i) => i);
	checks.equal(`${name}: one item per input, in order`, output.map(pairedIndex), ids);
	checks.equal(
		`${name}: item i is the task created for prompt i`,
		output.map((i) => i.json.prompt),
		Array.from({ length: items }, (_, i) => callbackPrompt(i, afterMs, endsAt)),
	);
	checks.ok(
		`${name}: every item waited by callback, with no polls`,
		output.every(
			(i) =>
				(i.json.waitInfo as { mode?: string; polls?: number })?.mode === 'callback' &&
				(i.json.waitInfo as { polls?: number }).polls === 0,
		),
		output.map((i) => i.json.waitInfo),
	);
	checks.equal(`${name}: one execution only`, (await n8n.executions(created.id)).length, 1);
	checks.note(
		`${name}: runs of the node in the record: ${record.data.resultData.runData['Create Videos and Wait']?.length}`,
	);
	if (processes === 1) {
		checks.equal(`${name}: each video downloaded once`, downloads.length, items);
	} else {
		// Processes share no memory: each may claim the resume and download (n8n keeps one resume).
		const perVideo = countEach(downloads.map((d) => d.path));
		checks.ok(
			`${name}: each video downloaded at least once and at most once per webhook process (${processes})`,
			new Set(downloads.map((d) => d.path)).size === items &&
				[...perVideo.matchAll(/×(\d+)/g)].every(([, n]) => Number(n) <= processes),
			`${downloads.length} downloads`,
		);
	}
	return record;
}

/** n8n lists the AI-tool variant of the action node when tool usage is allowed. */
export async function checkToolVariant(ctx: Context): Promise<void> {
	const names = (await ctx.n8n.nodeTypes()).map((t) => t.name);
	for (const type of ['generationGateway', 'generationGatewayTrigger', 'generationGatewayTool']) {
		ctx.checks.ok(`n8n lists ${PACKAGE}.${type}`, names.includes(`${PACKAGE}.${type}`));
	}
}
