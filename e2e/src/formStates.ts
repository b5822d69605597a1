/**
 * The form states the browser part opens (image models of each variant, video models and their
 * Duration, speech and its Voice), with what a user must (not) see in each, and the one workflow
 * holding a node per state.
 */
import type { Page } from 'playwright-core';

import type { Form } from './editor';
import { PACKAGE, withCredentials } from './workflows';

export const ACTION = `${PACKAGE}.generationGateway`;

/** The entries a list field's dropdown offers (each entry's name; n8n adds its description below it). */
export async function listEntries(page: Page, parameter: string): Promise<string[]> {
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
	await entries.first().waitFor({ state: 'hidden' });
	return names;
}

/** One workflow holding a gateway node per form state (named after the state). */
export function statesWorkflow(
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
		},
		credentials,
	);
}

export const mode = (value: string) => ({ __rl: true, mode: 'list', value });

/** The states of the form to check, with what a user must (not) see in each. */
export const STATES: Array<{
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
