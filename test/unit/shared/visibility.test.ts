/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
import { readFileSync, writeFileSync } from 'node:fs';

import { IMAGE_MODELS, IMAGE_MODEL_PARAMETERS } from '../../../nodes/GenerationGateway/actions/image/catalog';
import type { VideoModel } from '../../../nodes/GenerationGateway/actions/video/catalog';
import {
	GENERIC_VIDEO_MODEL,
	VIDEO_MODELS,
	videoCatalog,
} from '../../../nodes/GenerationGateway/actions/video/catalog';
import { durationOptions } from '../../../nodes/GenerationGateway/actions/video/fields';
import type { VisibilityTable } from './visibility';
import { SNAPSHOT, TABLE_FILE, visibilityTable } from './visibility';

/**
 * The form shows what it showed when the table was recorded (before the
 * regex display conditions were replaced by plain ones): same
 * fields, same option lists, for every catalogued model, its dated snapshot,
 * unknown IDs and a model chosen by expression. The only differences are the
 * corrections below, where the recorded form was wrong. Then the table is
 * compared with the catalogs themselves.
 */

const computed = visibilityTable();
if (process.env.RECORD_VISIBILITY) writeFileSync(TABLE_FILE, JSON.stringify(computed, null, '\t') + '\n');
const recorded = JSON.parse(readFileSync(TABLE_FILE, 'utf8')) as VisibilityTable;

const VIDA_EXTENSIONS = [
	'videoOptions.cameraFixed:boolean',
	'videoOptions.outputFormat:options[mp4,mov]',
	'videoOptions.referenceTaskType:options[auto,reference,edit,extend]',
	'videoOptions.returnLastFrame:boolean',
	'videoOptions.serviceTier:options[default,flex]',
	'videoOptions.level:number',
	'videoOptions.watermark:boolean',
];

/**
 * Where the recorded form was wrong: for a video ID the catalog does not know,
 * the manual (docs/video.md) promises every field and the generic rules (GENERIC_VIDEO_MODEL,
 * extensions: true) check and send vidA's extension options, but the form hid
 * them. Now they are shown, in the options' own order (after Callback URL,
 * around Seed).
 */
const CORRECTIONS: Array<{ scope: string; model: string; add: string[] }> = [
	'create',
	'createAndWait',
].flatMap((operation) =>
	['acme/new-model', 'vidA-2.5-preview'].map((model) => ({
		scope: `video/${operation}`,
		model,
		add: VIDA_EXTENSIONS,
	})),
);

/**
 * Fields added after the table was recorded (frames from a binary):
 * a Source selector right before each frame's URL field, shown wherever that
 * URL field is (its default, Image URL, keeps the URL field shown).
 */
const ADDED_BEFORE: Record<string, string> = {
	'firstFrameUrl:string': 'firstFrameSource:options[url,binary]',
	'lastFrameUrl:string': 'lastFrameSource:options[url,binary]',
};

/**
 * Changed after the table was recorded (the editor showed Duration as the
 * number 0, meaning "not sent"): Duration is a list of the model's own
 * seconds, "Model Default" (the empty value) first where the model has one.
 * A catalogued model and its snapshots show their model's list, an unknown
 * ID the generic list; a model chosen by expression shows every list (n8n
 * shows every field whose condition is on an expression), the required
 * models' first and the generic one last.
 */
const durationList = (model: VideoModel) =>
	`duration:options[${durationOptions(model)
		.map((option) => String(option.value))
		.join(',')}]`;

function durationFields(model: string): string[] {
	if (model.startsWith('=')) {
		const lists = [
			...VIDEO_MODELS.filter((m) => m.durationRequired),
			...VIDEO_MODELS.filter((m) => !m.durationRequired),
		].map(durationList);
		return [...new Set(lists), durationList(GENERIC_VIDEO_MODEL)];
	}
	return [durationList(videoCatalog.resolve(model) ?? GENERIC_VIDEO_MODEL)];
}

function expected(scope: string, model: string): string[] {
	const fields = recorded[scope][model].flatMap((field) =>
		ADDED_BEFORE[field]
			? [ADDED_BEFORE[field], field]
			: field === 'duration:number' && scope.startsWith('video/')
				? durationFields(model)
				: [field],
	);
	for (const correction of CORRECTIONS) {
		if (correction.scope !== scope || correction.model !== model) continue;
		// The options of a collection keep their declared order: insert each after its predecessor there.
		const order = computed[scope]['={{ $json.model }}'];
		for (const field of correction.add) {
			const before = order
				.slice(0, order.indexOf(field))
				.reverse()
				.find((f) => fields.includes(f));
			fields.splice(before ? fields.indexOf(before) + 1 : 0, 0, field);
		}
	}
	return fields;
}

describe('form visibility table (n8n displayParameter)', () => {
	it('covers the same scopes and models as the recorded table', () => {
		expect(Object.keys(computed)).toEqual(Object.keys(recorded));
		for (const scope of Object.keys(computed)) {
			expect(Object.keys(computed[scope])).toEqual(Object.keys(recorded[scope]));
		}
	});

	const rows = Object.entries(recorded).flatMap(([scope, models]) =>
		Object.keys(models).map((model) => [scope, model] as const),
	);
	it.each(rows)('%s with model %s shows the recorded fields', (scope, model) => {
		expect(computed[scope]?.[model]).toEqual(expected(scope, model));
	});

	it('a dated snapshot shows exactly what its base model shows', () => {
		for (const models of Object.values(computed)) {
			for (const model of Object.keys(models).filter((m) => m.endsWith(SNAPSHOT))) {
				expect([model, models[model]]).toEqual([model, models[model.slice(0, -SNAPSHOT.length)]]);
			}
		}
	});
});

/** The table against the catalogs: each model shows what its catalog row accepts. */
describe('form visibility follows the catalogs', () => {
	const image = computed['image/generate'];
	const has = (fields: string[], prefix: string) => fields.some((f) => f.startsWith(prefix));

	it.each(IMAGE_MODELS.map((m) => [m.id, m] as const))('image %s', (id, model) => {
		const fields = image[id];
		for (const parameter of IMAGE_MODEL_PARAMETERS) {
			expect([parameter, has(fields, `options.${parameter}:`)]).toEqual([
				parameter,
				model.parameters.includes(parameter) || (parameter === 'response_format' && model.variant === 'C'),
			]);
		}
		expect(has(fields, 'n:')).toBe(model.maxImages > 1);
		expect(has(fields, 'quality:')).toBe(model.qualities.length > 1);
		if (model.qualities.length > 1) {
			expect(fields).toContain(`quality:options[,${model.qualities.join(',')}]`);
		}
		if (Array.isArray(model.sizes) && model.sizes.length) {
			expect(fields).toContain(`size:options[${model.sizes.join(',')}]`);
		}
		expect(has(fields, 'referenceImages:')).toBe(model.variant === 'C');
	});

	const videoRows: Array<[string, VideoModel, boolean]> = [
		...VIDEO_MODELS.map((m): [string, VideoModel, boolean] => [m.id, m, true]),
		['acme/new-model', GENERIC_VIDEO_MODEL, false],
	];
	it.each(videoRows)('video %s', (id, model, catalogued) => {
		for (const scope of ['video/create', 'video/createAndWait']) {
			const fields = computed[scope][id];
			expect(has(fields, 'generateAudio:')).toBe(model.generateAudio);
			expect(has(fields, 'firstFrameUrl:')).toBe(model.frames.first);
			expect(has(fields, 'lastFrameUrl:')).toBe(model.frames.last);
			expect(has(fields, 'references:')).toBe(model.references.max > 0);
			expect(has(fields, 'videoOptions.seed:')).toBe(model.seed);
			for (const extension of VIDA_EXTENSIONS) expect(fields.includes(extension)).toBe(model.extensions);
			const durations = fields.filter((f) => f.startsWith('duration:'));
			const { min, max } = model.duration;
			const seconds = Array.from({ length: max - Math.max(min, 1) + 1 }, (_, n) => Math.max(min, 1) + n);
			expect(durations).toEqual([
				`duration:options[${[
					...(model.durationRequired ? [] : ['']),
					...seconds,
					...(model.editAutoDuration || min < 0 ? [-1] : []),
				].join(',')}]`,
			]);
			if (catalogued) {
				expect(fields).toContain(`aspectRatio:options[,${model.aspectRatios.join(',')}]`);
				expect(fields).toContain(`resolution:options[,${model.resolutions.join(',')}]`);
			} else {
				expect(fields).toEqual(expect.arrayContaining(['aspectRatio:string', 'resolution:string']));
			}
		}
	});
});
