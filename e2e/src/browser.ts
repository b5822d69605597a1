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

import { closeNode, launchChromium, login, newPage, openNode, shot, shotsDir, type Form } from './editor';
import { ACTION, listEntries, mode, STATES, statesWorkflow } from './formStates';
import { nodePanel } from './nodePanel';
import {
	exampleFiles,
	loadWorkflow,
	PACKAGE,
	credentialName,
	withCredentials,
	type Context,
	startNode,
} from './workflows';

const TRIGGER = `${PACKAGE}.generationGatewayTrigger`;

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
			},
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
					startNode(),
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
			},
			ctx.credentials,
		),
	);
	await page.goto(`${n8n.url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"][data-node-name="Images"]').waitFor();
	const before = (await n8n.executions(id)).length;
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	const runs = await n8n.settledExecutions(id, 60_000, before);
	checks.note(`runs of the Hints workflow: ${JSON.stringify(runs)}`);
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
