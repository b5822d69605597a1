/**
 * The node panel as a user searches and browses it: both nodes listed (and the entry's text), the
 * AI category, the action node's actions, and the form of an action added from the panel.
 */
import type { Locator, Page } from 'playwright-core';

import { readForm, settled, shot } from './editor';
import { startNode, type Context } from './workflows';

/** The text of the package's entry in the node panel (the trigger's description, see nodePanel). */
const PANEL_ENTRY_TEXT =
	'Generate images, videos, speech and text through the Generation Gateway, and start workflows when a video task finishes';

const ITEM_NAME = '[data-test-id="node-creator-item-name"]';
const ENTRY_NAME = /^Generation Gateway$/;

/**
 * n8n's node creator, the panel that adds a node. Each step waits for what it needs: the panel to
 * open, a search's results to be listed and still, an entry to be there before it is clicked.
 */
export class NodeCreator {
	readonly search: Locator;

	constructor(readonly page: Page) {
		this.search = page.locator('[data-test-id="node-creator-search-bar"]');
	}

	/** Opens the panel: from the canvas's own + on an empty workflow, else from the + beside the nodes. */
	async open(from: 'canvas' | 'plus' = 'plus'): Promise<void> {
		const button = from === 'canvas' ? 'canvas-add-button' : 'node-creator-plus-button';
		await this.page.locator(`[data-test-id="${button}"]`).click();
		await this.search.waitFor();
	}

	/** Types a search and waits until the list shows its results. */
	async find(query: string): Promise<void> {
		await this.search.fill(query);
		await settled(this.page, ITEM_NAME);
	}

	/** The names the list shows now. */
	async names(): Promise<string[]> {
		await settled(this.page, ITEM_NAME);
		return (await this.page.locator(ITEM_NAME).allTextContents()).map((text) => text.trim());
	}

	item(name: string | RegExp): Locator {
		return this.page.locator(ITEM_NAME, { hasText: name }).first();
	}

	/** Opens an entry of the list (a category, a node, an action) and waits for what it shows. */
	async choose(name: string | RegExp): Promise<void> {
		await this.item(name).click();
		await settled(this.page, ITEM_NAME);
	}

	/**
	 * The description under the package's entry, or undefined when the list does not show it. n8n
	 * lists the trigger and the action node as one entry under the action node's name, with the
	 * trigger's description (useActionsGenerator): that description is the text a user reads.
	 */
	async entryText(): Promise<string | undefined> {
		await settled(this.page, ITEM_NAME);
		const name = this.page.locator(ITEM_NAME, { hasText: ENTRY_NAME });
		if (!(await name.count())) return undefined;
		const item = name
			.first()
			.locator('xpath=ancestor::*[.//*[@data-test-id="node-creator-item-description"]][1]');
		return (await item.locator('[data-test-id="node-creator-item-description"]').first().textContent())
			?.replace(/\s+/g, ' ')
			.trim();
	}

	/** Closes the panel (Escape) and waits until it is gone. */
	async close(): Promise<void> {
		await this.page.keyboard.press('Escape');
		await this.search.waitFor({ state: 'hidden' });
	}
}

/** The node panel of an empty workflow: search, both nodes listed, add the action node, see its form. */
export async function nodePanel(ctx: Context, page: Page): Promise<void> {
	const { checks } = ctx;
	checks.begin('browser: node panel');
	await page.goto(`${ctx.n8n.url}/workflow/new`);
	const panel = new NodeCreator(page);
	await panel.open('canvas');
	const saysWhatItDoes = (text: string | undefined) =>
		text === PANEL_ENTRY_TEXT && ['images', 'videos', 'speech', 'text'].every((word) => text.includes(word));
	for (const query of ['Generation Gateway', 'gateway', 'video', 'callback', 'webhook']) {
		await panel.find(query);
		const entry = await panel.entryText();
		checks.ok(
			`trigger panel, search "${query}": lists Generation Gateway, saying what it does`,
			saysWhatItDoes(entry),
			entry ?? (await panel.names()).slice(0, 8),
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
	await panel.open();
	for (const [query, expected] of [
		['Generation Gateway', ['Generation Gateway']],
		['text to speech', ['Generation Gateway']],
		['image', ['Generation Gateway']],
		['video', ['Generation Gateway']],
	] as const) {
		await panel.find(query);
		const found = await panel.names();
		checks.ok(
			`node panel, search "${query}": lists ${expected.join(', ')}`,
			expected.every((e) => found.includes(e)),
			found.slice(0, 8),
		);
		if (query === 'Generation Gateway') {
			const entry = await panel.entryText();
			checks.ok('node panel: the entry says what the package does', saysWhatItDoes(entry), entry);
			checks.note(`panel entry: "Generation Gateway" — "${entry}"`);
		}
		await shot(page, `panel-search-${query.replace(/\W+/g, '-').toLowerCase()}`);
	}
	// Browsing: the AI category lists the node (a root node, beside n8n's OpenAI and Gemini).
	await panel.find('');
	await panel.choose(/^AI$/);
	const inAi = await panel.names();
	checks.ok(
		'browsing: the AI category lists Generation Gateway',
		inAi.includes('Generation Gateway'),
		inAi.slice(0, 12),
	);
	await shot(page, 'panel-browse-ai');
	await panel.close();
	await panel.open();
	await panel.find('Generation Gateway');
	await panel.choose(ENTRY_NAME);
	const actions = await panel.names();
	checks.ok('the action node lists its actions', actions.length >= 5, actions.slice(0, 12));
	await shot(page, 'panel-gateway-actions');
	const generate = actions.find((a) => /image/i.test(a) && /generate/i.test(a)) ?? actions[0];
	await panel.item(generate).click();
	await page.locator('[data-test-id="parameter-item"]').first().waitFor();
	await settled(page, '[data-test-id="parameter-item"]');
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
