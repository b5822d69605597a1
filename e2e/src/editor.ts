/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * n8n's editor in Debian's Chromium (playwright-core, no browser download): start the browser, sign
 * in, open a node's form and read what it shows, close it, take a screenshot into
 * e2e-output/browser/. Used by the browser, pictures, compat and dev parts.
 */
import { join } from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';

import { OWNER } from './n8n';
import { outputDir } from './proc';

/** Where the browser parts' screenshots and form readings go. */
export const shotsDir = join(outputDir, 'browser');

const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: CHROMIUM_FLAGS,
		headless: true,
		timeout: 60_000,
	});
}

/** A page of its own (n8n's certificate is made for the run, so it is not verified). */
export async function newPage(browser: Browser, viewport = { width: 1600, height: 1000 }): Promise<Page> {
	const page = await (await browser.newContext({ ignoreHTTPSErrors: true, viewport })).newPage();
	page.setDefaultTimeout(30_000);
	return page;
}

/** What the open node form shows. */
export interface Form {
	/** Labels of the visible fields, top to bottom (credential field first). */
	labels: string[];
	/** Label -> 'list' (a dropdown) or 'text' (typed), for the visible fields. */
	kinds: Record<string, 'list' | 'text'>;
	/** Label -> value shown. */
	values: Record<string, string>;
	/** Collection label (e.g. Options) -> the entries its "Add Option" offers. */
	collections: Record<string, string[]>;
	/** The credential field's label, and the credentials its dropdown offers. */
	credential?: { label: string; offered: string[]; value: string };
	/** Labels of the credential field and the visible fields in the order the form draws them. */
	order: string[];
	/** Parameter name -> the entries its dropdown offers (only for the lists a state asks to open). */
	lists: Record<string, string[]>;
}

/** What the open node form shows, read from the page. */
export async function readForm(page: Page): Promise<Form> {
	return await page.evaluate(() => {
		const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
		const form: Form = { labels: [], kinds: {}, values: {}, collections: {}, order: [], lists: {} };
		for (const el of document.querySelectorAll(
			'[data-test-id="credentials-label"], [data-test-id="input-label"]',
		)) {
			if ((el as HTMLElement).offsetParent === null) continue;
			const inCredential = el.closest('[data-test-id="credentials-label"]');
			if (inCredential && inCredential !== el) continue;
			const label = text(el.querySelector('label span')) || text(el);
			if (label) form.order.push(label);
		}
		const credential = document.querySelector('[data-test-id="credentials-label"]');
		if (credential) {
			const select = document.querySelector('[data-test-id="node-credentials-select"]');
			const input = select?.querySelector('input') as HTMLInputElement | null;
			const listId = input?.getAttribute('aria-controls');
			const offered = listId
				? [
						...document.querySelectorAll(
							`#${CSS.escape(listId)} li[data-test-id^="node-credentials-select-item-"]`,
						),
					]
						.filter((li) => li.getAttribute('data-test-id') !== 'node-credentials-select-item-new')
						.map((li) => text(li))
				: [];
			const value =
				text(select?.querySelector('.el-select__selected-item, .el-select__placeholder')) ||
				input?.value ||
				'';
			form.credential = { label: text(credential.querySelector('label span')), offered, value };
			form.labels.push(form.credential.label);
		}
		const labelOf = (el: Element | null) =>
			text(el?.querySelector('label span')) ||
			text(el?.querySelector('[data-test-id="input-label"]')) ||
			text(el);
		for (const labelEl of document.querySelectorAll('[data-test-id="input-label"]')) {
			if (labelEl.closest('[data-test-id="credentials-label"]')) continue;
			if ((labelEl as HTMLElement).offsetParent === null) continue; // another tab (Settings)
			const label = labelOf(labelEl);
			if (!label) continue;
			form.labels.push(label);
			const name = labelEl.querySelector('label')?.getAttribute('for');
			const input = name
				? document.querySelector(`[data-test-id="parameter-input-${CSS.escape(name)}"]`)
				: null;
			if (!input) continue;
			const combobox = input.querySelector('input[role="combobox"]') as HTMLInputElement | null;
			const field = input.querySelector('textarea, input') as HTMLInputElement | HTMLTextAreaElement | null;
			form.kinds[label] = combobox ? 'list' : 'text';
			form.values[label] = combobox
				? text(input.querySelector('.el-select__selected-item')) || combobox.value
				: (field?.value ?? text(input.querySelector('.cm-content')));
		}
		for (const add of document.querySelectorAll('[data-test-id="collection-parameter-add"] input')) {
			const item = add.closest('[data-test-id="parameter-item"]');
			const listId = add.getAttribute('aria-controls');
			form.collections[labelOf(item)] = listId
				? [
						...document.querySelectorAll(
							`#${CSS.escape(listId)} li[data-test-id="collection-parameter-option"]`,
						),
					].map((li) => text(li))
				: [];
		}
		return form;
	});
}

/** Signs in through n8n's sign-in page (the suite's owner unless `account` says otherwise). */
export async function login(
	page: Page,
	url: string,
	account: { email: string; password: string } = OWNER,
): Promise<void> {
	await page.goto(`${url}/signin`);
	// The email field's id differs between n8n releases (1.x and 2.0: a plain email input).
	await page
		.locator('#emailOrLdapLoginId, input[type="email"], input[name="email"]')
		.first()
		.fill(account.email);
	await page.locator('#password, input[type="password"]').first().fill(account.password);
	await page.click('[data-test-id="form-submit-button"]');
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/**
 * Animation frames in a row (about half a second) that what `settled` waits for must stay the same:
 * longer than n8n's own debounce of a search field (300 ms), so a list is read after it filtered.
 */
const STILL_FRAMES = 30;

let settles = 0;

/**
 * Waits until the elements `selector` matches stay the same (each one's text, place and size, and
 * how many there are) for STILL_FRAMES animation frames: n8n re-renders a list after a search,
 * slides a panel in, and fills a form's fields from loaded options over several frames. Not a
 * fixed pause: it ends as soon as the page is still, and waits longer while it is not (a busy machine).
 */
export async function settled(page: Page, selector: string, timeout = 20_000): Promise<void> {
	const key = `${selector}#${++settles}`;
	await page.waitForFunction(
		({ selector, key, frames }) => {
			const seen = ((window as unknown as { __settled?: Map<string, { last: string; same: number }> }).__settled ??=
				new Map());
			const now = [...document.querySelectorAll(selector)]
				.map((element) => {
					const box = element.getBoundingClientRect();
					return `${element.textContent}@${Math.round(box.x)},${Math.round(box.y)},${Math.round(box.width)},${Math.round(box.height)}`;
				})
				.join('|');
			const state = seen.get(key) ?? { last: now, same: 0 };
			state.same = state.last === now ? state.same + 1 : 0;
			state.last = now;
			seen.set(key, state);
			if (state.same < frames) return false;
			seen.delete(key);
			return true;
		},
		{ selector, key, frames: STILL_FRAMES },
		{ polling: 'raf', timeout },
	);
}

/** Opens a saved workflow and the named node's form; returns what the form shows. */
export async function openNode(page: Page, url: string, workflowId: string, node: string): Promise<Form> {
	if (!page.url().endsWith(`/workflow/${workflowId}`)) await page.goto(`${url}/workflow/${workflowId}`);
	const canvasNode = page.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`);
	// The first double-click may not be taken (a popup over the canvas, a canvas still laying out): Escape, once more.
	await canvasNode.dblclick({ timeout: 30_000 }).catch(async () => {
		await page.keyboard.press('Escape');
		await canvasNode.dblclick({ timeout: 30_000 });
	});
	await page.locator('[data-test-id="parameter-item"]').first().waitFor();
	await settled(page, '[data-test-id="parameter-item"]'); // fields that depend on loaded options
	return await readForm(page);
}

/** Closes the node's form; the next node of the same workflow opens without reloading the editor. */
export async function closeNode(page: Page): Promise<void> {
	await page.locator('[data-test-id="ndv-close-button"]').first().click();
	await page
		.locator('[data-test-id="parameter-item"]')
		.first()
		.waitFor({ state: 'detached', timeout: 15_000 });
}

/** A screenshot of the page as e2e-output/browser/<name>.png; its path for the output. */
export async function shot(page: Page, name: string): Promise<string> {
	const file = join(shotsDir, `${name}.png`);
	await page.screenshot({ path: file });
	return `e2e-output/browser/${name}.png`;
}
