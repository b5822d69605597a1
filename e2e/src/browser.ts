/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The editor in a real browser (Debian's Chromium driven by playwright-core):
 * log in, find both nodes in the node panel (and read the entry's text), add
 * the action node from it, open the node's form in the example workflows and
 * in chosen states (image models of each variant, video models and their
 * Duration, speech and its Voice, the trigger's field order) to assert what a
 * user sees, and run a workflow in the editor to read the node's hints above
 * its output. Every state is saved as a screenshot in e2e-output/browser/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import type { Page } from 'playwright-core';

import { closeNode, launchChromium, login, newPage, openNode, readForm, type Form } from './editor';
import { outputDir } from './proc';
import {
	exampleFiles,
	loadWorkflow,
	PACKAGE,
	credentialName,
	withCredentials,
	type Context,
	type Workflow,
} from './workflows';

const shotsDir = join(outputDir, 'browser');
const ACTION = `${PACKAGE}.generationGateway`;
const TRIGGER = `${PACKAGE}.generationGatewayTrigger`;

/** The text of the package's entry in the node panel (the trigger's description, see nodePanel). */
const PANEL_ENTRY_TEXT =
	'Generate images, videos, speech and text through the Generation Gateway, and start workflows when a video task finishes';

/** The entries a list field's dropdown offers (each entry's name; n8n adds its description below it). */
async function listEntries(page: Page, parameter: string): Promise<string[]> {
	const input = page.locator(`[data-test-id="parameter-input-${parameter}"]`).first();
	await input.locator('input').first().click();
	const entries = page.locator('.el-select-dropdown:visible li.el-select-dropdown__item');
	await entries.first().waitFor();
	const names = await entries.evaluateAll((items) =>
		items.map(
			(item) =>
				(item.querySelector('.option-headline') ?? item.querySelector('span') ?? item).textContent
					?.replace(/\s+/g, ' ')
					.trim() ?? '',
		),
	);
	await page.keyboard.press('Escape');
	await page.waitForTimeout(200);
	return names;
}

/** One workflow holding a gateway node per form state (named after the state). */
function statesWorkflow(
	states: Array<{ name: string; parameters: Record<string, unknown> }>,
	credentials: Record<string, string>,
) {
	return withCredentials(
		{
			name: 'Form states',
			nodes: states.map((state, index) => ({
				name: state.name,
				type: ACTION,
				typeVersion: 1,
				position: [(index % 3) * 300, Math.floor(index / 3) * 250],
				parameters: state.parameters,
				credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
			})),
			connections: {},
			settings: { executionOrder: 'v1' },
		} as Workflow,
		credentials,
	);
}

async function shot(page: Page, name: string): Promise<string> {
	const file = join(shotsDir, `${name}.png`);
	await page.screenshot({ path: file });
	return `e2e-output/browser/${name}.png`;
}

const mode = (value: string) => ({ __rl: true, mode: 'list', value });

/** The states of the form to check, with what a user must (not) see in each. */
const STATES: Array<{
	name: string;
	parameters: Record<string, unknown>;
	/** List fields whose dropdown entries the check reads (Form.lists). */
	lists?: string[];
	check(form: Form, ok: (name: string, condition: boolean, detail?: unknown) => void): void;
}> = [
	{
		name: 'image-legacyimg-3',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: mode('legacyimg-3'),
			prompt: 'A lighthouse',
		},
		check: (f, ok) => {
			ok(
				'Style is offered under Options',
				(f.collections.Options ?? []).includes('Style'),
				f.collections.Options,
			);
			ok('Number of Images is hidden', !f.labels.includes('Number of Images'), f.labels);
			ok('Size is a list', f.kinds.Size === 'list', f.kinds.Size);
		},
	},
	{
		name: 'image-legacyimg-2',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: mode('legacyimg-2'),
			prompt: 'A lighthouse',
		},
		check: (f, ok) => {
			ok('Style is not offered', !(f.collections.Options ?? []).includes('Style'), f.collections.Options);
			ok('Size is a list', f.kinds.Size === 'list', f.kinds.Size);
		},
	},
	{
		name: 'image-imagegen-1',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: mode('imagegen-1'),
			prompt: 'A lighthouse',
		},
		check: (f, ok) => {
			ok('Size is a list (fixed sizes)', f.kinds.Size === 'list', f.kinds.Size);
			ok('Number of Images is shown', f.labels.includes('Number of Images'), f.labels);
		},
	},
	{
		name: 'image-imagegen-2',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: mode('imagegen-2'),
			prompt: 'A lighthouse',
		},
		check: (f, ok) => {
			ok('Size is free text', f.kinds.Size === 'text', f.kinds.Size);
			ok('Number of Images is shown', f.labels.includes('Number of Images'), f.labels);
			ok('Style is not offered', !(f.collections.Options ?? []).includes('Style'), f.collections.Options);
		},
	},
	{
		name: 'image-imagegen-2.5-sunburst',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: mode('imagegen-2.5-sunburst'),
			prompt: 'A lighthouse',
		},
		check: (f, ok) => {
			ok('Size is free text', f.kinds.Size === 'text', f.kinds.Size);
			ok('Style is not offered', !(f.collections.Options ?? []).includes('Style'), f.collections.Options);
		},
	},
	{
		name: 'image-variant-c-imgE-3.0-pro',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: mode('vendor/imgE-3.0-pro'),
			prompt: 'A lighthouse',
		},
		check: (f, ok) => {
			ok('Number of Images is hidden', !f.labels.includes('Number of Images'), f.labels);
			ok('Size is free text', f.kinds.Size === 'text', f.kinds.Size);
			ok('Style is not offered', !(f.collections.Options ?? []).includes('Style'), f.collections.Options);
		},
	},
	{
		name: 'video-vidA-2.5',
		parameters: { resource: 'video', operation: 'createAndWait', model: mode('vidA-2.5'), prompt: 'A boat' },
		lists: ['duration'],
		check: (f, ok) => {
			ok('Duration opens at Model Default', f.values['Duration (Seconds)'] === 'Model Default', f.values);
			const list = f.lists.duration ?? [];
			ok(
				'Duration lists Model Default, 4 to 30 and -1 (edit or extend)',
				list[0] === 'Model Default' &&
					list[1] === '4' &&
					list.includes('30') &&
					!list.includes('31') &&
					!list.includes('3') &&
					list.some((entry) => entry.startsWith('-1')),
				list,
			);
		},
	},
	{
		name: 'video-vidB-1.5',
		parameters: { resource: 'video', operation: 'createAndWait', model: mode('vidB-1.5'), prompt: 'A boat' },
		check: (f, ok) => {
			ok('Duration opens at Model Default', f.values['Duration (Seconds)'] === 'Model Default', f.values);
		},
	},
	{
		name: 'video-vidD-h3',
		parameters: { resource: 'video', operation: 'createAndWait', model: mode('vidD-h3'), prompt: 'A boat' },
		lists: ['duration'],
		check: (f, ok) => {
			ok('Duration opens at 4 (vidD-h3 requires one)', f.values['Duration (Seconds)'] === '4', f.values);
			const list = f.lists.duration ?? [];
			ok(
				'Duration lists 4 to 15 and no Model Default',
				list[0] === '4' && list.at(-1) === '15' && !list.includes('Model Default'),
				list,
			);
		},
	},
	{
		name: 'speech-audioF-3.1-tts-flash',
		parameters: {
			resource: 'speech',
			operation: 'synthesize',
			model: { __rl: true, mode: 'list', value: 'vendor/audioF-3.1-tts-flash' },
			input: 'Hello',
		},
		check: (f, ok) => {
			ok('Output Format is a list', f.kinds['Output Format'] === 'list', f.kinds);
			ok('Sample Rate is shown', f.labels.includes('Sample Rate'), f.labels);
			ok('Voice opens with the default voice narrator_v3.1', f.values.Voice === 'narrator_v3.1', f.values);
		},
	},
];

/** The node panel of an empty workflow: search, both nodes listed, add the action node, see its form. */
async function nodePanel(ctx: Context, page: Page): Promise<void> {
	const { checks } = ctx;
	checks.begin('browser: node panel');
	await page.goto(`${ctx.n8n.url}/workflow/new`);
	await page.locator('[data-test-id="canvas-add-button"]').click();
	const search = page.locator('[data-test-id="node-creator-search-bar"]');
	await search.waitFor();
	const names = async () => {
		await page.waitForTimeout(700);
		return (await page.locator('[data-test-id="node-creator-item-name"]').allTextContents()).map((t) =>
			t.trim(),
		);
	};
	// n8n lists the trigger and the action node as one entry under the action node's name, with the
	// trigger's description (useActionsGenerator): that description is the text a user reads.
	const entryText = async () => {
		await page.waitForTimeout(700);
		const name = page.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Generation Gateway$/ });
		if (!(await name.count())) return undefined;
		const item = name
			.first()
			.locator('xpath=ancestor::*[.//*[@data-test-id="node-creator-item-description"]][1]');
		return (await item.locator('[data-test-id="node-creator-item-description"]').first().textContent())
			?.replace(/\s+/g, ' ')
			.trim();
	};
	const saysWhatItDoes = (text: string | undefined) =>
		text === PANEL_ENTRY_TEXT && ['images', 'videos', 'speech', 'text'].every((word) => text.includes(word));
	for (const query of ['Generation Gateway', 'gateway', 'video', 'callback', 'webhook']) {
		await search.fill(query);
		const entry = await entryText();
		checks.ok(
			`trigger panel, search "${query}": lists Generation Gateway, saying what it does`,
			saysWhatItDoes(entry),
			entry ?? (await names()).slice(0, 8),
		);
		await shot(page, `panel-trigger-search-${query.replace(/\W+/g, '-').toLowerCase()}`);
	}
	// A workflow with a manual trigger: the panel now offers action nodes.
	const { id } = await ctx.n8n.createWorkflow({
		name: 'Node panel',
		nodes: [
			{
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
		],
		connections: {},
	});
	await page.goto(`${ctx.n8n.url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"][data-node-name="Start"]').waitFor();
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	await search.waitFor();
	for (const [query, expected] of [
		['Generation Gateway', ['Generation Gateway']],
		['text to speech', ['Generation Gateway']],
		['image', ['Generation Gateway']],
		['video', ['Generation Gateway']],
	] as const) {
		await search.fill(query);
		const found = await names();
		checks.ok(
			`node panel, search "${query}": lists ${expected.join(', ')}`,
			expected.every((e) => found.includes(e)),
			found.slice(0, 8),
		);
		if (query === 'Generation Gateway') {
			const entry = await entryText();
			checks.ok('node panel: the entry says what the package does', saysWhatItDoes(entry), entry);
			checks.note(`panel entry: "Generation Gateway" — "${entry}"`);
		}
		await shot(page, `panel-search-${query.replace(/\W+/g, '-').toLowerCase()}`);
	}
	// Browsing: the AI category lists the node (a root node, beside n8n's OpenAI and Gemini).
	await search.fill('');
	await page.waitForTimeout(500);
	await page.locator('[data-test-id="node-creator-item-name"]', { hasText: /^AI$/ }).first().click();
	const inAi = await names();
	checks.ok(
		'browsing: the AI category lists Generation Gateway',
		inAi.includes('Generation Gateway'),
		inAi.slice(0, 12),
	);
	await shot(page, 'panel-browse-ai');
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	await search.waitFor();
	await search.fill('Generation Gateway');
	await page.waitForTimeout(700);
	await page
		.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Generation Gateway$/ })
		.first()
		.click();
	await page.waitForTimeout(700);
	const actions = (await page.locator('[data-test-id="node-creator-item-name"]').allTextContents()).map((t) =>
		t.trim(),
	);
	checks.ok('the action node lists its actions', actions.length >= 5, actions.slice(0, 12));
	await shot(page, 'panel-gateway-actions');
	const generate = actions.find((a) => /image/i.test(a) && /generate/i.test(a)) ?? actions[0];
	await page.locator('[data-test-id="node-creator-item-name"]', { hasText: generate }).first().click();
	await page.locator('[data-test-id="parameter-item"]').first().waitFor();
	await page.waitForTimeout(700);
	const form = await readForm(page);
	checks.ok(
		`added "${generate}" from the panel: its form opens`,
		form.labels.includes('Resource') && form.labels.includes('Operation'),
		form.labels,
	);
	checks.ok(
		'a new node picks the one credential there is for it',
		form.credential !== undefined,
		form.credential,
	);
	checks.note(`new node form: ${JSON.stringify(form)}`);
	checks.note(`screenshot ${await shot(page, 'panel-new-node-form')}`);
}

/** The trigger's form: the credential drawn first, above Confirm With the Gateway, Secret and Statuses. */
async function triggerForm(ctx: Context, page: Page): Promise<void> {
	const { checks, n8n } = ctx;
	checks.begin('browser: the trigger form');
	const { id } = await n8n.createWorkflow(
		withCredentials(
			{
				name: 'Trigger form',
				nodes: [
					{
						name: 'Video Task Finished',
						type: TRIGGER,
						typeVersion: 1,
						position: [0, 0],
						webhookId: '8b0d6c1e-5a3f-4f2e-9d7c-3a1b2c4d5e6f',
						parameters: { secret: 'a-long-random-secret' },
						credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
					},
				],
				connections: {},
			} as Workflow,
			ctx.credentials,
		),
	);
	const form = await openNode(page, n8n.url, id, 'Video Task Finished');
	writeFileSync(join(shotsDir, 'form-trigger.json'), JSON.stringify(form, null, 2));
	const credential = form.credential?.label ?? '(no credential field)';
	checks.ok(
		'trigger: the credential comes first, then Confirm With the Gateway, Secret, Statuses',
		JSON.stringify(form.order) ===
			JSON.stringify([credential, 'Confirm With the Gateway', 'Secret', 'Statuses']) &&
			form.credential?.value === credentialName('generationGatewayBearerApi'),
		form.order,
	);
	checks.note(`trigger form, top to bottom: ${form.order.join(' | ')}`);
	checks.note(`screenshot ${await shot(page, 'form-trigger')}`);
	await closeNode(page);
}

/**
 * A run in the editor, then the node's output: n8n shows the node's execution
 * hints above it. Three items (pinned on the trigger) into Image → Generate
 * with Retry On Fail on and continue-on-fail, the second item's prompt over
 * legacyimg-2's 1000 characters: the Retry On Fail warning and the refused
 * item's warning.
 */
async function hintsInEditor(ctx: Context, page: Page): Promise<void> {
	const { checks, n8n } = ctx;
	checks.begin('browser: hints in the output pane');
	const { id } = await n8n.createWorkflow(
		withCredentials(
			{
				name: 'Hints',
				nodes: [
					{
						name: 'Start',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						name: 'Images',
						type: ACTION,
						typeVersion: 1,
						position: [300, 0],
						retryOnFail: true,
						onError: 'continueRegularOutput',
						parameters: {
							resource: 'image',
							operation: 'generate',
							model: mode('legacyimg-2'),
							prompt: '={{ $json.p }}',
							size: '256x256',
						},
						credentials: { generationGatewayBearerApi: { id: '1', name: 'x' } },
					},
				],
				connections: { Start: { main: [[{ node: 'Images', type: 'main', index: 0 }]] } },
				pinData: {
					Start: [
						{ json: { p: 'a boat' } },
						{ json: { p: 'x'.repeat(1001) } },
						{ json: { p: 'a lighthouse' } },
					],
				},
			} as Workflow,
			ctx.credentials,
		),
	);
	await page.goto(`${n8n.url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"][data-node-name="Images"]').waitFor();
	const before = (await n8n.executions(id)).length;
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	const runs = await n8n.settledExecutions(id, 60_000, before);
	checks.note(`runs of the Hints workflow: ${JSON.stringify(runs)}`);
	await page.waitForTimeout(1000);
	await page.locator('[data-test-id="canvas-node"][data-node-name="Images"]').dblclick();
	const record = await n8n.execution(runs[0].id);
	checks.note(
		`hints n8n stored with the run: ${JSON.stringify(record.data.resultData.runData.Images?.[0]?.hints)}`,
	);
	// Above the node's output (the output pane's callouts).
	const hintLocator = page.locator('[data-test-id="node-hint"]');
	await hintLocator.first().waitFor({ timeout: 20_000 });
	const hints = (await hintLocator.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
	checks.ok(
		'output pane: the Retry On Fail warning',
		hints.some((h) =>
			h.startsWith(
				'Retry On Fail is on for this node: after a failed request n8n runs the node again for every item',
			),
		),
		hints,
	);
	checks.ok(
		'output pane: the warning about the item refused before sending',
		hints.some((h) =>
			h.startsWith('1 of 3 items was refused before sending (nothing was sent or charged for it)'),
		),
		hints,
	);
	checks.note(`hints shown: ${JSON.stringify(hints)}`);
	checks.note(`screenshot ${await shot(page, 'hints-output-pane')}`);
	await closeNode(page);
}

export async function runBrowser(ctx: Context): Promise<void> {
	const { checks, n8n } = ctx;
	mkdirSync(shotsDir, { recursive: true });
	checks.begin('browser: log in');
	const browser = await launchChromium();
	const page = await newPage(browser);
	const attempt = async (what: string, body: () => Promise<void>) => {
		try {
			await body();
		} catch (error) {
			checks.broke(what, error);
			await page
				.locator('[data-test-id="ndv-close-button"]')
				.first()
				.click({ timeout: 3000 })
				.catch(() => undefined);
			await shot(page, `failure-${what.replace(/\W+/g, '-').toLowerCase()}`).catch(() => undefined);
			writeFileSync(
				join(shotsDir, `failure-${what.replace(/\W+/g, '-').toLowerCase()}.html`),
				await page.content().catch(() => ''),
			);
		}
	};
	try {
		await login(page, n8n.url);
		checks.ok(
			'logged in through the sign-in page',
			!new URL(page.url()).pathname.startsWith('/signin'),
			page.url(),
		);
		await attempt('node panel', () => nodePanel(ctx, page));

		checks.begin('browser: the node in the example workflows');
		for (const file of exampleFiles()) {
			const name = basename(file, '.json');
			await attempt(`example ${name}`, async () => {
				const workflow = withCredentials(loadWorkflow(file), ctx.credentials);
				const { id } = await n8n.createWorkflow({ ...workflow, name: `Form: ${workflow.name}` });
				for (const node of workflow.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`))) {
					const form = await openNode(page, n8n.url, id, node.name);
					const [type] = Object.keys(node.credentials ?? {});
					checks.ok(
						`${name} / ${node.name}: one credential field, showing the ${type} credential, offering only that type`,
						form.labels.filter((l) => l.startsWith('Credential')).length === 1 &&
							form.credential?.value === credentialName(type) &&
							form.credential.offered.length === 1,
						form.credential,
					);
					writeFileSync(
						join(shotsDir, `example-${name}-${node.name.replace(/\W+/g, '-').toLowerCase()}.json`),
						JSON.stringify(form, null, 2),
					);
					checks.note(
						`screenshot ${await shot(page, `example-${name}-${node.name.replace(/\W+/g, '-').toLowerCase()}`)}`,
					);
					await closeNode(page);
				}
			});
		}

		checks.begin('browser: form states');
		const forms: Record<string, Form> = {};
		const states = await n8n.createWorkflow(statesWorkflow(STATES, ctx.credentials));
		for (const state of STATES) {
			await attempt(state.name, async () => {
				const form = await openNode(page, n8n.url, states.id, state.name);
				for (const parameter of state.lists ?? []) form.lists[parameter] = await listEntries(page, parameter);
				forms[state.name] = form;
				writeFileSync(join(shotsDir, `form-${state.name}.json`), JSON.stringify(form, null, 2));
				checks.ok(
					`${state.name}: the credential field shows the bearer credential`,
					form.credential?.value === credentialName('generationGatewayBearerApi'),
					form.credential,
				);
				state.check(form, (name, condition, detail) =>
					checks.ok(`${state.name}: ${name}`, condition, detail),
				);
				checks.note(`fields: ${form.labels.join(' | ')}`);
				checks.note(`options: ${JSON.stringify(form.collections)}`);
				checks.note(`screenshot ${await shot(page, `form-${state.name}`)}`);
				await closeNode(page);
			});
		}
		await attempt('trigger form', () => triggerForm(ctx, page));
		await attempt('hints', () => hintsInEditor(ctx, page));
		checks.begin('browser: the README and docs pictures (e2e-output/browser/pictures/)');
		await attempt('pictures', async () => {
			const { takePictures } = await import('./pictures');
			await takePictures(ctx, browser);
		});

		const b = forms['video-vidB-1.5'];
		const d = forms['video-vidD-h3'];
		if (b && d) {
			const onlyB = b.labels.filter((l) => !d.labels.includes(l));
			const onlyD = d.labels.filter((l) => !b.labels.includes(l));
			const optionsB = JSON.stringify(b.collections);
			const optionsD = JSON.stringify(d.collections);
			checks.ok(
				'video: vidB-1.5 and vidD-h3 show different fields or options',
				onlyB.length + onlyD.length > 0 || optionsB !== optionsD,
				{
					onlyB,
					onlyD,
				},
			);
		}
	} finally {
		await browser.close();
	}
}

/**
 * One form in the editor, for the compatibility part: signs in, opens `node`
 * of the example `file` and checks that it shows its credential and the
 * fields `expected`; a screenshot `compat-<label>-<node>.png` in e2e-output/browser/.
 */
export async function formScreenshot(
	ctx: Context,
	file: string,
	node: string,
	expected: string[],
): Promise<void> {
	const { checks, n8n } = ctx;
	mkdirSync(shotsDir, { recursive: true });
	const browser = await launchChromium();
	const name = `compat-${ctx.label}-${node.replace(/\W+/g, '-').toLowerCase()}`;
	try {
		const page = await newPage(browser);
		try {
			await login(page, n8n.url);
			const workflow = withCredentials(loadWorkflow(file), ctx.credentials);
			const { id } = await n8n.createWorkflow({ ...workflow, name: `Form: ${workflow.name}` });
			const form = await openNode(page, n8n.url, id, node);
			writeFileSync(join(shotsDir, `${name}.json`), JSON.stringify(form, null, 2));
			const missing = expected.filter((label) => !form.labels.includes(label));
			checks.ok(
				`${ctx.label}: the editor opens ${node} with its credential and fields`,
				form.credential !== undefined && missing.length === 0,
				{ missing, labels: form.labels },
			);
			checks.note(`${ctx.label}: screenshot ${await shot(page, name)}`);
		} catch (error) {
			await shot(page, `failure-${name}`).catch(() => undefined);
			throw error;
		}
	} finally {
		await browser.close();
	}
}
