/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The pictures of the README and the docs pages, taken in n8n's editor by the
 * browser part on every run (e2e-output/browser/pictures/), cropped to what
 * they show, at a modest window size: the package in the node panel, each
 * resource's form, a workflow after its run and the node's files in its
 * output. `./scripts/run e2e pictures` takes only these and copies them into
 * docs/images/, where the README and the docs pages show them.
 */
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { closeNode, launchChromium, login, newPage, openNode, settled } from './editor';
import { NodeCreator } from './nodePanel';
import { repoRoot } from './n8n';
import { outputDir } from './proc';
import {
	credentialName,
	examplesDir,
	loadWorkflow,
	PACKAGE,
	withCredentials,
	type Context,
	startNode,
} from './workflows';

export const picturesDir = join(outputDir, 'browser', 'pictures');
export const docsImagesDir = join(repoRoot, 'docs', 'images');
/** Above this a picture is too heavy for a README. */
const MAX_BYTES = 150 * 1024;

const CANVAS_NODE = '[data-test-id="canvas-node"]';

/** The forms to show: picture name, example file, node. */
const FORMS: Array<[string, string, string]> = [
	['form-image', 'image-then-speech.json', 'Generate Image'],
	['form-speech', 'speech-synthesize.json', 'Synthesize Speech'],
	['form-video', 'video-create-and-wait.json', 'Create Video and Wait'],
	['form-message', 'text-cache-summarise-answer.json', 'Summarise'],
	['form-response', 'text-cache-summarise-answer.json', 'Answer'],
	['form-cached-content', 'text-cache-summarise-answer.json', 'Cache Document'],
	['form-account', 'account-balance.json', 'Get Balance'],
];

async function picture(target: Locator, name: string): Promise<string> {
	const file = join(picturesDir, `${name}.png`);
	// n8n's toasts ("Workflow executed successfully") are not part of the picture: closed, and gone.
	const toasts = target.page().locator('.el-notification');
	for (const close of await target.page().locator('.el-notification__closeBtn').all())
		await close.click().catch(() => undefined);
	await toasts.first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
	await target.screenshot({ path: file, animations: 'disabled', scale: 'css' });
	return file;
}

/** The first of `selectors` the page shows. */
async function firstVisible(page: Page, selectors: string[]): Promise<Locator> {
	for (const selector of selectors) {
		const found = page.locator(selector).first();
		if (await found.isVisible().catch(() => false)) return found;
	}
	return page.locator('body');
}

/** Takes every picture; returns the files written. */
export async function takePictures(ctx: Context, browser: Browser): Promise<string[]> {
	const { checks, n8n } = ctx;
	mkdirSync(picturesDir, { recursive: true });
	const page = await newPage(browser, { width: 1280, height: 800 });
	const taken: string[] = [];
	const attempt = async (what: string, body: () => Promise<void>) => {
		try {
			await body();
		} catch (error) {
			checks.broke(`picture ${what}`, error);
			await page.keyboard.press('Escape').catch(() => undefined);
		}
	};
	try {
		await login(page, n8n.url);

		await attempt('panel', async () => {
			const { id } = await n8n.createWorkflow({
				name: 'Picture: node panel',
				nodes: [startNode()],
				connections: {},
			});
			await page.goto(`${n8n.url}/workflow/${id}`);
			await page.locator('[data-test-id="canvas-node"][data-node-name="Start"]').waitFor();
			const panel = new NodeCreator(page);
			await panel.open();
			await panel.find('Generation Gateway');
			await panel.choose(/^Generation Gateway$/);
			taken.push(
				await picture(
					await firstVisible(page, ['[data-test-id="node-creator"]', '.node-creator']),
					'panel-actions',
				),
			);
			await page.keyboard.press('Escape');
		});

		for (const [name, file, node] of FORMS) {
			await attempt(name, async () => {
				const workflow = withCredentials(loadWorkflow(join(examplesDir, file)), ctx.credentials);
				const { id } = await n8n.createWorkflow({ ...workflow, name: `Picture: ${workflow.name}` });
				await openNode(page, n8n.url, id, node);
				const panel = await firstVisible(page, [
					'[data-test-id="ndv"] [data-test-id="node-parameters"]',
					'[data-test-id="node-parameters"]',
					'[data-test-id="ndv"]',
				]);
				taken.push(await picture(panel, name));
				await closeNode(page);
			});
		}

		await attempt('agent workflow', async () => {
			const openAi = await n8n.createCredential('openAiApi', 'OpenAI account', {
				apiKey: 'sk-picture-only',
				url: 'https://api.openai.com/v1',
			});
			const { id } = await n8n.createWorkflow({
				name: 'Picture: AI Agent with the tool',
				nodes: [
					{
						name: 'When chat message received',
						type: '@n8n/n8n-nodes-langchain.chatTrigger',
						typeVersion: 1.4,
						position: [0, 0],
						webhookId: '2f1c7a3e-6b9d-4e2a-8c1f-5d4b3a2e1f0c',
						parameters: { options: {} },
					},
					{
						name: 'AI Agent',
						type: '@n8n/n8n-nodes-langchain.agent',
						typeVersion: 2.2,
						position: [260, 0],
						parameters: { options: {} },
					},
					{
						name: 'OpenAI Chat Model',
						type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
						typeVersion: 1.2,
						position: [180, 220],
						parameters: { model: { __rl: true, mode: 'list', value: 'gpt-4.1-mini' }, options: {} },
						credentials: { openAiApi: { id: openAi, name: 'OpenAI account' } },
					},
					{
						name: 'Generate Image',
						type: `${PACKAGE}.generationGatewayTool`,
						typeVersion: 1,
						position: [400, 220],
						parameters: {
							resource: 'image',
							operation: 'generate',
							model: { __rl: true, mode: 'list', value: 'imagegen-2' },
							prompt: "={{ $fromAI('prompt', 'What the picture shows', 'string') }}",
							size: '1024x1024',
						},
						credentials: {
							generationGatewayBearerApi: {
								id: ctx.credentials.generationGatewayBearerApi,
								name: credentialName('generationGatewayBearerApi'),
							},
						},
					},
				],
				connections: {
					'When chat message received': { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
					'OpenAI Chat Model': {
						ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
					},
					'Generate Image': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
				},
			});
			await page.goto(`${n8n.url}/workflow/${id}`);
			await page.locator('[data-test-id="canvas-node"][data-node-name="Generate Image"]').waitFor();
			await page.keyboard.press('Shift+1').catch(() => undefined);
			await settled(page, CANVAS_NODE); // zoomed to fit
			taken.push(
				await picture(
					await firstVisible(page, ['[data-test-id="canvas-wrapper"]', '#canvas', '[data-test-id="canvas"]']),
					'agent-workflow',
				),
			);
			await openNode(page, n8n.url, id, 'Generate Image');
			taken.push(
				await picture(
					await firstVisible(page, [
						'[data-test-id="ndv"] [data-test-id="node-parameters"]',
						'[data-test-id="node-parameters"]',
					]),
					'form-tool',
				),
			);
			await closeNode(page);
		});

		await attempt('finished run', async () => {
			const workflow = withCredentials(
				loadWorkflow(join(examplesDir, 'image-then-speech.json')),
				ctx.credentials,
			);
			const { id } = await n8n.createWorkflow({ ...workflow, name: workflow.name });
			await page.goto(`${n8n.url}/workflow/${id}`);
			await page.locator('[data-test-id="canvas-node"]').first().waitFor();
			const before = (await n8n.executions(id)).length;
			await page.locator('[data-test-id="execute-workflow-button"]').first().click();
			const runs = await n8n.settledExecutions(id, 120_000, before);
			checks.equal('pictures: the workflow run from the editor succeeded', runs[0]?.status, 'success');
			// The editor has the run when the last node shows its success.
			await page
				.locator(`${CANVAS_NODE}[data-node-name="Narrate Image"] [data-test-id="canvas-node-status-success"]`)
				.waitFor();
			await page.keyboard.press('Shift+1').catch(() => undefined); // zoom to fit
			await settled(page, CANVAS_NODE);
			taken.push(
				await picture(
					await firstVisible(page, ['[data-test-id="canvas-wrapper"]', '#canvas', '[data-test-id="canvas"]']),
					'workflow-run',
				),
			);
			for (const [node, name] of [
				['Generate Image', 'output-image'],
				['Narrate Image', 'output-speech'],
			] as const) {
				await page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`).dblclick();
				const output = await firstVisible(page, ['[data-test-id="output-panel"]', '[data-test-id="ndv"]']);
				await output.waitFor();
				const binary = output.locator('[data-test-id="ndv-run-data-display-mode"] >> text=Binary').first();
				if (await binary.isVisible().catch(() => false)) await binary.click();
				await settled(page, '[data-test-id="output-panel"], [data-test-id="ndv"]');
				// The image itself (View); for the audio, its card (name, type, size): headless Chromium's
				// player shows no length for it.
				if (name === 'output-image') {
					await output
						.locator('button', { hasText: /^\s*View\s*$/ })
						.first()
						.click();
					// The image itself shown and decoded (the node's icon is an image too: not that one).
					await page.waitForFunction(() =>
						[...document.querySelectorAll('img')].some(
							(image) =>
								(image.src.includes('binary-data') || image.src.startsWith('blob:')) &&
								image.complete &&
								image.naturalWidth > 0,
						),
					);
				}
				taken.push(await picture(output, name));
				await closeNode(page);
			}
		});
	} finally {
		await page.context().close();
	}
	for (const file of taken) {
		const bytes = statSync(file).size;
		checks.ok(
			`picture ${file.split('/').pop()}: taken, at most 150 KB`,
			bytes > 2000 && bytes <= MAX_BYTES,
			`${Math.round(bytes / 1024)} KB`,
		);
	}
	return taken;
}

/** Copies the pictures taken into docs/images/ (`./scripts/run e2e pictures`). */
export function copyPictures(ctx: Context): void {
	mkdirSync(docsImagesDir, { recursive: true });
	const files = readdirSync(picturesDir).filter((f) => f.endsWith('.png'));
	for (const file of files) copyFileSync(join(picturesDir, file), join(docsImagesDir, file));
	ctx.checks.note(`copied ${files.length} pictures into docs/images/: ${files.join(', ')}`);
}

/** The `pictures` part: the pictures alone, then into docs/images/. */
export async function runPictures(ctx: Context): Promise<void> {
	const browser = await launchChromium();
	try {
		await takePictures(ctx, browser);
	} finally {
		await browser.close();
	}
	copyPictures(ctx);
}
