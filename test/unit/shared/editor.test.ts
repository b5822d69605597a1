/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';
import { speechCatalog } from '../../../nodes/GenerationGateway/actions/speech/catalog';
import { GenerationGatewayTrigger } from '../../../nodes/GenerationGatewayTrigger/GenerationGatewayTrigger.node';

/**
 * What n8n's editor (2.41) makes of the node descriptions, computed the way the
 * editor computes it: the node panel's entry, where the credential field is
 * drawn, the values a new node opens with. The e2e browser part checks the
 * same in the real editor.
 */

const PACKAGE = (
	JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
		name: string;
	}
).name;
const action = new GenerationGateway().description;
const trigger = new GenerationGatewayTrigger().description;

interface PanelEntry {
	name: string;
	displayName: string;
	description: string;
}

/**
 * The node panel's entries (useActionsGenerator.generateMergedNodesAndActions):
 * a trigger whose type name is an action node's plus "Trigger" is merged into
 * that node's entry, which keeps the action node's name and takes the
 * trigger's description; other nodes keep their own entry.
 */
function panelEntries(nodes: INodeTypeDescription[]): PanelEntry[] {
	const entry = (node: INodeTypeDescription) => ({
		name: `${PACKAGE}.${node.name}`,
		displayName: node.displayName,
		description: node.description,
	});
	const entries = nodes.filter((node) => !node.group.includes('trigger')).map(entry);
	for (const node of nodes.filter((n) => n.group.includes('trigger'))) {
		const app = entries.find((e) => e.name === `${PACKAGE}.${node.name}`.replace('Trigger', ''));
		if (app) app.description = node.description;
		else entries.push(entry(node));
	}
	return entries;
}

describe("the node panel's entry", () => {
	const entries = panelEntries([action, trigger]);

	it("is one entry, under the action node's name, with the trigger's description", () => {
		expect(entries).toEqual([
			{
				name: `${PACKAGE}.generationGateway`,
				displayName: 'Generation Gateway',
				description: trigger.description,
			},
		]);
	});

	it('says what the package does before what the trigger does', () => {
		const text = entries[0].description;
		for (const word of ['images', 'videos', 'speech', 'text', 'video task']) expect(text).toContain(word);
		expect(text.indexOf('images')).toBeLessThan(text.indexOf('video task'));
		expect(text).toBe(
			'Generate images, videos, speech and text through the Generation Gateway, and start workflows when a video task finishes',
		);
	});
});

/**
 * Where the editor draws a node's credential field (ParameterInputList,
 * indexToShowSlotAt): right above the last visible parameter the credential's
 * displayOptions name, or above the first parameter when they name none.
 */
function credentialSlot(node: INodeTypeDescription, values: INodeParameters): number {
	const visible = node.properties.filter((p) => NodeHelpers.displayParameter(values, p, null, node));
	const named = new Set((node.credentials ?? []).flatMap((c) => Object.keys(c.displayOptions?.show ?? {})));
	let slot = 0;
	visible.forEach((property, index) => {
		if (named.has(property.name)) slot = index;
	});
	return Math.min(slot, visible.length - 1);
}

describe("the trigger's form", () => {
	const defaults = Object.fromEntries(trigger.properties.map((p) => [p.name, p.default])) as INodeParameters;
	const labels = trigger.properties.map((p) => (p.type === 'notice' ? '(notice)' : p.displayName));

	it('draws the credential first, right above the toggle that needs it', () => {
		expect(credentialSlot(trigger, defaults)).toBe(0);
		expect(labels).toEqual(['Confirm With the Gateway', '(notice)', 'Secret', 'Statuses']);
		// As the editor lists it: credential, Confirm With the Gateway, the notice, Secret, Statuses.
	});

	it('hides the credential when the gateway is not asked', () => {
		const credential = trigger.credentials![0];
		expect(NodeHelpers.displayParameter({ ...defaults, confirm: false }, credential, null, trigger)).toBe(
			false,
		);
		expect(NodeHelpers.displayParameter(defaults, credential, null, trigger)).toBe(true);
	});
});

describe("the action node's form", () => {
	it('draws the credential first (above Resource)', () => {
		// With a model, as n8n always resolves it (older n8n-workflow cannot evaluate a model condition without one).
		const model = { __rl: true, mode: 'list', value: 'imagegen-2' };
		expect(credentialSlot(action, { resource: 'image', operation: 'generate', model })).toBe(0);
	});

	it("a new Speech node opens with the catalog's default voice for its model", () => {
		const model = speechCatalog.models[0];
		const voice = action.properties.find(
			(p) => p.name === 'voice' && (p.displayOptions?.show?.resource as string[]).includes('speech'),
		)!;
		const speechModel = action.properties.find(
			(p) => p.name === 'model' && (p.displayOptions?.show?.resource as string[]).includes('speech'),
		)!;
		expect((speechModel.default as { value: string }).value).toBe(model.id);
		expect(voice.default).toBe(model.defaultVoice);
		expect(model.defaultVoice.endsWith(model.voiceSuffix)).toBe(true);
		expect(voice.required).toBe(true);
	});
});
