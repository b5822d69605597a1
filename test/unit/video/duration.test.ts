import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { GenerationGateway } from '../../../nodes/GenerationGateway/GenerationGateway.node';
import { GENERIC_VIDEO_MODEL, VIDEO_MODELS } from '../../../nodes/GenerationGateway/actions/video/catalog';
import { durationOptions } from '../../../nodes/GenerationGateway/actions/video/fields';

/**
 * Duration (Seconds) as the form shows it, per model: the list of the model's
 * whole seconds from the catalog, "Model Default" (nothing sent) first where
 * the model has a default, -1 where edit and extend tasks may let the model
 * follow the input video; a model that requires a duration opens at its
 * shortest length and offers no Model Default.
 */

const description = new GenerationGateway().description;

/** The Duration fields n8n shows for a model (as the editor sees the node's parameters). */
function shownDuration(operation: string, model: string): INodeProperties[] {
	const root: INodeParameters = {
		resource: 'video',
		operation,
		model: { __rl: true, mode: model.startsWith('=') ? 'id' : 'list', value: model },
	};
	return description.properties.filter(
		(property) =>
			property.name === 'duration' && NodeHelpers.displayParameter(root, property, null, description),
	);
}

/** The node's parameters as n8n resolves them for a saved node that has no duration. */
function openingDuration(operation: string, model: string): unknown {
	const parameters = NodeHelpers.getNodeParameters(
		description.properties,
		{ resource: 'video', operation, model: { __rl: true, mode: 'list', value: model } },
		true,
		false,
		null,
		description,
	);
	return parameters?.duration;
}

const values = (options: INodeProperties['options']) =>
	(options as Array<{ value: unknown }>).map((option) => option.value);

const ROWS: Array<[string, unknown, unknown[]]> = [
	['vidA-2.5', '', ['', ...range(4, 30), -1]],
	['vidA-2.0', '', ['', ...range(4, 15), -1]],
	['vidA-2.0-mini', '', ['', ...range(4, 15)]],
	['vidB-1.5-fast', '', ['', ...range(6, 30)]],
	['vidB-1.5', '', ['', ...range(1, 15)]],
	['vidB', '', ['', ...range(1, 15)]],
	['vidC-1.1', '', ['', ...range(3, 15)]],
	['vidC-1.0', '', ['', ...range(3, 15)]],
	['vidD-h3', 4, range(4, 15)],
	['vidD-h3-2026-01-15', 4, range(4, 15)],
	['acme/new-video', '', ['', ...range(1, 30), -1]],
];

function range(from: number, to: number): number[] {
	return Array.from({ length: to - from + 1 }, (_, n) => from + n);
}

describe.each(['create', 'createAndWait'])('Video → %s: Duration (Seconds)', (operation) => {
	it.each(ROWS)('%s opens at %j and lists its own seconds', (model, opening, expected) => {
		const shown = shownDuration(operation, model);
		expect(shown).toHaveLength(1);
		expect(values(shown[0].options)).toEqual(expected);
		expect(shown[0].default).toBe(opening);
		expect(openingDuration(operation, model)).toBe(opening);
	});

	it('names the model and its range in the description', () => {
		expect(shownDuration(operation, 'vidA-2.5')[0].description).toBe(
			'vidA-2.5: 4 to 30 seconds; -1 in an edit or extend task lets the model follow the input video. Model Default sends none and the model chooses.',
		);
		expect(shownDuration(operation, 'vidB')[0].description).toBe(
			'vidB-1.5: 1 to 15 seconds. vidB: 1 to 15 seconds; 1 to 10 when extending a video. Model Default sends none and the model chooses.',
		);
		expect(shownDuration(operation, 'vidD-h3')[0].description).toBe(
			'vidD-h3: 4 to 15 seconds. Required: the model has no default duration.',
		);
	});

	it('a model chosen by expression shows every list, and its value stays Model Default', () => {
		const shown = shownDuration(operation, '={{ $json.model }}');
		expect(shown.length).toBeGreaterThan(1);
		expect(values(shown.at(-1)!.options)).toEqual(values(durationOptions(GENERIC_VIDEO_MODEL)));
		const parameters = NodeHelpers.getNodeParameters(
			description.properties,
			{ resource: 'video', operation, model: { __rl: true, mode: 'id', value: '={{ $json.model }}' } },
			true,
			false,
			null,
			description,
		);
		expect(parameters?.duration).toBe('');
		// No Duration is marked required: n8n would flag it for every item's model.
		expect(shown.every((field) => field.required !== true)).toBe(true);
	});
});

describe('durationOptions follows the catalog', () => {
	it.each(VIDEO_MODELS.map((model) => [model.id, model] as const))('%s', (_id, model) => {
		const options = values(durationOptions(model));
		expect(options.includes('')).toBe(!model.durationRequired);
		expect(options.includes(-1)).toBe(model.editAutoDuration === true);
		const seconds = options.filter((value): value is number => typeof value === 'number' && value > 0);
		expect([Math.min(...seconds), Math.max(...seconds)]).toEqual([model.duration.min, model.duration.max]);
		expect(options).not.toContain(0);
	});
});
