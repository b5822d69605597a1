/**
 * The node panel as a user searches and browses it: both nodes listed (and the entry's text), the
 * AI category, the action node's actions, and the form of an action added from the panel.
 */
import type { Page } from 'playwright-core';

import { readForm, shot } from './editor';
import { startNode, type Context } from './workflows';

/** The text of the package's entry in the node panel (the trigger's description, see nodePanel). */
const PANEL_ENTRY_TEXT =
	'Generate images, videos, speech and text through the Generation Gateway, and start workflows when a video task finishes';

/** The node panel of an empty workflow: search, both nodes listed, add the action node, see its form. */
export async function nodePanel(ctx: Context, page: Page): Promise<void> {
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
		nodes: [startNode()],
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
