/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Property-based test of the interface's rules (bad input is refused, never a crash), with
 * fast-check. For image variants B and C, video (all four families) and
 * speech it generates request bodies from the catalogs (which restate the
 * interface's tables): valid ones, and valid ones with exactly one rule
 * broken. Two independent implementations judge each body: the node's own
 * rules (what it checks before sending) and the simulator's validation (the
 * test gateway, written separately from the interface). Properties:
 * - a valid body is accepted by both;
 * - a body with one broken rule is refused by the node, with the field's form
 *   label in the message, and refused by the simulator too.
 * Then garbage (wrong types, null, arrays, 100 000-character strings, emoji,
 * -0) through the same rules and through Additional Body Fields: a refusal,
 * never a crash. A smaller number of real executions (workflow tests) runs
 * the same garbage through n8n's engine against the simulator.
 *
 * Fixed seed (FUZZ_SEED overrides it; FUZZ_RUNS the number of cases per
 * property). The counts per class are printed at the end.
 */
import fc from 'fast-check';
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	IMAGE_MODELS,
	VARIANT_B_ENUMS,
	VARIANT_C_LIMITS,
} from '../../nodes/GenerationGateway/actions/image/catalog';
import type { ImageModel } from '../../nodes/GenerationGateway/actions/image/catalog';
import { IMAGE_FIELD_LABELS, imageRequestSchema } from '../../nodes/GenerationGateway/actions/image/schema';
import { buildSpeechBody } from '../../nodes/GenerationGateway/actions/speech/body';
import type { SpeechFormValues } from '../../nodes/GenerationGateway/actions/speech/body';
import { SPEECH_LABELS, speechBodySchema } from '../../nodes/GenerationGateway/actions/speech/schema';
import { speechCatalog } from '../../nodes/GenerationGateway/actions/speech/catalog';
import {
	buildVideoBody,
	VIDEO_LABELS,
	videoModelFor,
} from '../../nodes/GenerationGateway/actions/video/body';
import { videoBodySchema } from '../../nodes/GenerationGateway/actions/video/schema';
import type { VideoInput } from '../../nodes/GenerationGateway/actions/video/body';
import { VIDEO_MODELS } from '../../nodes/GenerationGateway/actions/video/catalog';
import type { VideoModel } from '../../nodes/GenerationGateway/actions/video/catalog';
import { VIDEO_SEED } from '../../nodes/GenerationGateway/actions/video/wireNames';
import { withAdditionalBody } from '../../nodes/GenerationGateway/actions/descriptions';
import { assertValid, modelIdOf } from '../../nodes/shared/validation';
import { RequestInvalid } from '../simulator';
import { checkVariantB, checkVariantC } from '../simulator/image/rules';
import { readSpeechRequest } from '../simulator/speech/validate';
import { validateVideoCreate } from '../simulator/video/validate';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const params = { seed: SEED, numRuns: RUNS };

const node: INode = {
	id: 'fuzz',
	name: 'Generation Gateway',
	type: 'n8n-nodes-generation-gateway.generationGateway',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

type Verdict = { ok: true } | { ok: false; message: string };
type Judge = (body: IDataObject) => Verdict;

/** A verdict from a check: its refusal type is a verdict; any other exception is a crash and fails the test. */
const judge =
	(check: (body: IDataObject) => unknown, refusal: new (...args: never[]) => Error): Judge =>
	(body) => {
		try {
			check(body);
			return { ok: true };
		} catch (error) {
			if (!(error instanceof refusal)) throw error;
			return { ok: false, message: error.message };
		}
	};

/** The node's verdict: its refusals are NodeOperationErrors (assertValid). */
const nodeJudge = (
	schema: (body: IDataObject) => Parameters<typeof assertValid>[1],
	labels: Record<string, string>,
) => judge((body) => assertValid(node, schema(body), body, labels), NodeOperationError);
const simulatorJudge = (check: (body: IDataObject) => unknown) => judge(check, RequestInvalid);

interface Resource {
	name: string;
	node: Judge;
	simulator: Judge;
}

const imageNode = nodeJudge((body) => imageRequestSchema(modelIdOf(body.model)), IMAGE_FIELD_LABELS);
const RESOURCES = {
	imageB: { name: 'image B', node: imageNode, simulator: simulatorJudge(checkVariantB) },
	imageC: { name: 'image C', node: imageNode, simulator: simulatorJudge(checkVariantC) },
	video: {
		name: 'video',
		node: nodeJudge((body) => videoBodySchema(videoModelFor(modelIdOf(body.model))), VIDEO_LABELS),
		simulator: simulatorJudge(validateVideoCreate),
	},
	speech: {
		name: 'speech',
		node: nodeJudge(() => speechBodySchema, SPEECH_LABELS),
		simulator: simulatorJudge(readSpeechRequest),
	},
} satisfies Record<string, Resource>;

const counts: Record<string, Record<string, number>> = {};
const count = (resource: Resource, kind: string) => {
	counts[resource.name] ??= {};
	counts[resource.name][kind] = (counts[resource.name][kind] ?? 0) + 1;
};
afterAll(() => {
	// eslint-disable-next-line no-console
	console.log(`fuzz seed ${SEED}, ${RUNS} runs per property:\n${JSON.stringify(counts, null, 1)}`);
});

function expectValid(resource: Resource, body: IDataObject) {
	const byNode = resource.node(body);
	const bySimulator = resource.simulator(body);
	if (!byNode.ok || !bySimulator.ok) {
		throw new Error(
			`${resource.name}: a valid body was refused\n${JSON.stringify(body)}\nnode: ${JSON.stringify(byNode)}\nsimulator: ${JSON.stringify(bySimulator)}`,
		);
	}
	count(resource, 'valid accepted');
}

/** One rule broken: the node refuses naming `label`, and the simulator refuses too. */
function expectBroken(resource: Resource, body: IDataObject, label: string, rule: string) {
	const byNode = resource.node(body);
	const bySimulator = resource.simulator(body);
	const problem = (text: string) =>
		new Error(
			`${resource.name}, ${rule}: ${text}\n${JSON.stringify(body).slice(0, 400)}\nnode: ${JSON.stringify(byNode)}\nsimulator: ${JSON.stringify(bySimulator)}`,
		);
	if (byNode.ok) throw problem('the node accepted it');
	if (!byNode.message.includes(label)) throw problem(`the node's message does not name "${label}"`);
	if (bySimulator.ok) throw problem('the simulator accepted it');
	count(resource, 'broken refused');
}

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const prompt = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0);
const clean = (body: Record<string, unknown>) =>
	Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as IDataObject;

// ---------------------------------------------------------------- image B

const VARIANT_B = IMAGE_MODELS.filter((m) => m.variant === 'B');
const VARIANT_C = IMAGE_MODELS.filter((m) => m.variant === 'C');

/** A free WIDTHxHEIGHT within the rule: multiples of 16, ratio at most 3, at most 3840x2160 pixels. */
const freeSize = fc
	.tuple(fc.integer({ min: 16, max: 240 }), fc.integer({ min: 16, max: 240 }))
	.map(([w, h]) => [w * 16, h * 16] as const)
	.filter(([w, h]) => Math.max(w, h) / Math.min(w, h) <= 3 && Math.max(w, h) <= 3840 && w * h <= 3840 * 2160)
	.map(([w, h]) => `${w}x${h}`);

const sizeOf = (model: ImageModel) => (Array.isArray(model.sizes) ? pick(model.sizes as string[]) : freeSize);

const imageB = pick(VARIANT_B).chain((model) =>
	fc
		.record({
			size: maybe(sizeOf(model)),
			quality: model.qualities.length ? maybe(pick(model.qualities)) : fc.constant(undefined),
			n: model.maxImages > 0 ? maybe(fc.integer({ min: 1, max: model.maxImages })) : fc.constant(undefined),
			output_format: model.parameters.includes('output_format')
				? maybe(pick(VARIANT_B_ENUMS.outputFormat))
				: fc.constant(undefined),
			moderation: model.parameters.includes('moderation')
				? maybe(pick(VARIANT_B_ENUMS.moderation))
				: fc.constant(undefined),
			style: model.parameters.includes('style') ? maybe(pick(VARIANT_B_ENUMS.style)) : fc.constant(undefined),
			prompt,
		})
		.map((fields) => ({ model, body: clean({ model: model.id, ...fields }) })),
);

// ---------------------------------------------------------------- image C

const variantCSize = fc
	.tuple(fc.integer({ min: 512, max: 2048 }), fc.integer({ min: 512, max: 2048 }))
	.filter(([w, h]) => w * h >= VARIANT_C_LIMITS.minPixels && w * h <= VARIANT_C_LIMITS.maxPixels)
	.map(([w, h]) => `${w}x${h}`);

const imageC = pick(VARIANT_C).chain((model) =>
	fc
		.record({
			size: maybe(variantCSize),
			seed: maybe(fc.integer(VARIANT_C_LIMITS.seed)),
			prompt_extend: maybe(fc.boolean()),
			watermark: maybe(fc.boolean()),
			negative_prompt: maybe(prompt),
			prompt,
		})
		.map((fields) => ({ model, body: clean({ model: model.id, ...fields }) })),
);

// ---------------------------------------------------------------- video

const FRAME = 'https://img.example.com/first.png';
const intIn = (range: { min: number; max: number }) => fc.integer({ min: range.min, max: range.max });

const video = pick(VIDEO_MODELS).chain((model: VideoModel) =>
	fc
		.record({
			duration: model.durationRequired ? intIn(model.duration) : maybe(intIn(model.duration)),
			resolution: maybe(pick(model.resolutions)),
			aspectRatio: maybe(pick(model.aspectRatios)),
			generateAudio: model.generateAudio ? maybe(fc.boolean()) : fc.constant(undefined),
			seed: model.seed ? maybe(fc.integer({ min: -1, max: 2147483647 })) : fc.constant(undefined),
			firstFrameUrl: model.exactlyOnePicture
				? fc.constant(FRAME)
				: model.frames.first
					? maybe(fc.constant(FRAME))
					: fc.constant(undefined),
			prompt,
		})
		.map((input) => ({ model, body: buildVideoBody({ model: model.id, ...input } as VideoInput) })),
);

// ---------------------------------------------------------------- speech

const SPEECH = speechCatalog.models;
const speech = pick(SPEECH).chain((model) =>
	fc
		.record({
			input: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim().length > 0),
			voiceName: pick(['narrator', 'calm', 'bright']),
			voiceAs: pick(['name', 'object'] as const),
			speed: maybe(fc.double({ min: 0.5, max: 2, noNaN: true })),
			instructions: maybe(fc.string({ maxLength: 50 })),
		})
		.map(({ voiceName, ...fields }) => {
			const values: SpeechFormValues = {
				model: model.id,
				voice: `${voiceName}${model.voiceSuffix}`,
				responseFormat: 'mp3',
				streamFormat: 'audio',
				sampleRate: 24000,
				...fields,
			} as SpeechFormValues;
			return { model, body: buildSpeechBody(values) };
		}),
);

// ---------------------------------------------------------------- properties

describe(`rules fuzz (seed ${SEED}): valid bodies are accepted by the node and the simulator`, () => {
	it('image variant B', () =>
		fc.assert(
			fc.property(imageB, ({ body }) => expectValid(RESOURCES.imageB, body)),
			params,
		));
	it('image variant C', () =>
		fc.assert(
			fc.property(imageC, ({ body }) => expectValid(RESOURCES.imageC, body)),
			params,
		));
	it('video, all four families', () =>
		fc.assert(
			fc.property(video, ({ body }) => expectValid(RESOURCES.video, body)),
			params,
		));
	it('speech', () =>
		fc.assert(
			fc.property(speech, ({ body }) => expectValid(RESOURCES.speech, body)),
			params,
		));
});

/** A way to break exactly one rule of a valid body, the label the refusal must name. */
interface Breaker<M> {
	rule: string;
	label: string;
	applies?: (model: M) => boolean;
	value: (model: M) => fc.Arbitrary<unknown>;
	/** Where the broken value goes in the body. */
	key: string;
}

function breakOne<M>(
	resource: Resource,
	valid: fc.Arbitrary<{ model: M; body: IDataObject }>,
	breakers: Breaker<M>[],
) {
	const cases = valid.chain(({ model, body }) => {
		const usable = breakers.filter((b) => !b.applies || b.applies(model));
		return pick(usable).chain((breaker) =>
			breaker
				.value(model)
				.map((value) => ({ breaker, body: { ...body, [breaker.key]: value } as IDataObject })),
		);
	});
	fc.assert(
		fc.property(cases, ({ breaker, body }) => expectBroken(resource, body, breaker.label, breaker.rule)),
		params,
	);
}

const notIn = (values: readonly string[], candidates: string[]) =>
	pick(candidates.filter((c) => !values.includes(c)));

describe(`rules fuzz (seed ${SEED}): one broken rule is refused before sending, naming the field`, () => {
	it('image variant B', () =>
		breakOne<ImageModel>(RESOURCES.imageB, imageB, [
			{
				rule: 'n above the model maximum',
				label: 'Number of Images',
				key: 'n',
				applies: (m) => m.maxImages > 0,
				value: (m) => fc.integer({ min: m.maxImages + 1, max: m.maxImages + 50 }),
			},
			{
				rule: 'n for a model without n',
				label: 'Number of Images',
				key: 'n',
				applies: (m) => m.maxImages === 0,
				value: () => fc.integer({ min: 2, max: 10 }),
			},
			{
				rule: 'n below 1',
				label: 'Number of Images',
				key: 'n',
				applies: (m) => m.maxImages > 0,
				value: () => fc.integer({ min: -5, max: 0 }),
			},
			{
				rule: 'quality not of the model',
				label: 'Quality',
				key: 'quality',
				applies: (m) => m.qualities.length > 0,
				value: (m) => notIn(m.qualities, ['auto', 'low', 'medium', 'high', 'hd', 'standard', 'ultra']),
			},
			{
				rule: 'listed size not of the model',
				label: 'Size',
				key: 'size',
				applies: (m) => Array.isArray(m.sizes),
				value: (m) =>
					notIn(m.sizes as string[], [
						'256x256',
						'512x512',
						'1024x1024',
						'1792x1024',
						'1024x1792',
						'1536x1024',
						'1024x1536',
						'333x333',
					]),
			},
			{
				rule: 'free size not a multiple of 16',
				label: 'Size',
				key: 'size',
				applies: (m) => !Array.isArray(m.sizes),
				value: () => fc.integer({ min: 40, max: 120 }).map((k) => `${k * 16 + 8}x1024`),
			},
			{
				rule: 'free size too elongated',
				label: 'Size',
				key: 'size',
				applies: (m) => !Array.isArray(m.sizes),
				value: () => fc.constantFrom('3200x1024', '1024x3200', '2048x512'),
			},
			{
				rule: 'style on a model without it',
				label: 'Style',
				key: 'style',
				applies: (m) => !m.parameters.includes('style'),
				value: () => pick(VARIANT_B_ENUMS.style),
			},
			{
				rule: 'output format not in the enum',
				label: 'Output Format',
				key: 'output_format',
				applies: (m) => m.parameters.includes('output_format'),
				value: () => fc.constantFrom('gif', 'bmp', 'PNG'),
			},
			{
				rule: 'prompt above the model maximum',
				label: 'Prompt',
				key: 'prompt',
				applies: (m) => m.promptMaxLength !== undefined,
				value: (m) => fc.constant('x'.repeat((m.promptMaxLength ?? 0) + 1)),
			},
		]));

	it('image variant C', () =>
		breakOne<ImageModel>(RESOURCES.imageC, imageC, [
			{
				rule: 'seed above the maximum',
				label: 'Seed',
				key: 'seed',
				value: () =>
					fc.integer({ min: VARIANT_C_LIMITS.seed.max + 1, max: VARIANT_C_LIMITS.seed.max + 1000 }),
			},
			{ rule: 'seed below 0', label: 'Seed', key: 'seed', value: () => fc.integer({ min: -1000, max: -1 }) },
			{
				rule: 'size under 512x512 pixels',
				label: 'Size',
				key: 'size',
				value: () => fc.integer({ min: 64, max: 500 }).map((w) => `${w}x${w}`),
			},
			{
				rule: 'size over 2048x2048 pixels',
				label: 'Size',
				key: 'size',
				value: () => fc.integer({ min: 2049, max: 4000 }).map((w) => `${w}x${w}`),
			},
			{
				rule: 'prompt extend mode not in the enum',
				label: 'Prompt Extend Mode',
				key: 'prompt_extend_mode',
				value: () => fc.constantFrom('fast', 'auto', 'DIRECT'),
			},
		]));

	it('video, all four families', () =>
		breakOne<VideoModel>(RESOURCES.video, video, [
			{
				rule: 'duration above the maximum',
				label: 'Duration (Seconds)',
				key: 'duration',
				value: (m) => fc.integer({ min: m.duration.max + 1, max: m.duration.max + 100 }),
			},
			{
				rule: 'duration below the minimum',
				label: 'Duration (Seconds)',
				key: 'duration',
				applies: (m) => m.duration.min > 1,
				value: (m) => fc.integer({ min: 1, max: m.duration.min - 1 }),
			},
			{
				rule: 'resolution not of the model',
				label: 'Resolution',
				key: 'resolution',
				value: (m) => notIn(m.resolutions, ['360p', '480p', '540p', '720p', '768p', '1080p', '4K']),
			},
			{
				rule: 'aspect ratio not of the model',
				label: 'Aspect Ratio',
				key: 'aspect_ratio',
				value: (m) =>
					notIn(m.aspectRatios, [
						'adaptive',
						'16:9',
						'9:16',
						'1:1',
						'4:3',
						'3:4',
						'21:9',
						'2:3',
						'3:2',
						'4:5',
						'7:3',
					]),
			},
			{
				rule: 'seed out of range',
				label: 'Seed',
				key: VIDEO_SEED,
				applies: (m) => m.seed,
				value: () => fc.constantFrom(-2, 2147483648, -100),
			},
			{
				rule: 'generate_audio on a model without it',
				label: 'Generate Audio',
				key: 'generate_audio',
				applies: (m) => !m.generateAudio,
				value: () => fc.boolean(),
			},
		]));

	it('speech', () =>
		breakOne(RESOURCES.speech, speech, [
			{
				rule: 'speed above 2',
				label: 'Speed',
				key: 'speed',
				value: () => fc.double({ min: 2.01, max: 100, noNaN: true }),
			},
			{
				rule: 'speed below 0.5',
				label: 'Speed',
				key: 'speed',
				value: () => fc.double({ min: 0, max: 0.49, noNaN: true }),
			},
			{
				rule: 'input above 4096 characters',
				label: 'Text',
				key: 'input',
				value: () => fc.integer({ min: 4097, max: 6000 }).map((n) => 'a'.repeat(n)),
			},
			{
				rule: 'voice of another model version',
				label: 'Voice',
				key: 'voice',
				value: () => fc.constantFrom('narrator_v0.9', 'narrator', 'calm_v9'),
			},
		]));
});

// ---------------------------------------------------------------- garbage

const garbage = fc.oneof(
	fc.constant(null),
	fc.constant(-0),
	fc.constant(Number.NaN),
	fc.constant('x'.repeat(100_000)),
	fc.constant('🎨🎬🔊'.repeat(10)),
	fc.constant(''),
	fc.array(fc.anything(), { maxLength: 3 }),
	fc.object({ maxDepth: 1 }),
	fc.boolean(),
	fc.integer(),
	fc.double(),
	fc.string({ maxLength: 20 }),
);

describe(`rules fuzz (seed ${SEED}): garbage in any member is a refusal, never a crash`, () => {
	const sources = [
		[RESOURCES.imageB, imageB, Object.keys(IMAGE_FIELD_LABELS)],
		[RESOURCES.imageC, imageC, Object.keys(IMAGE_FIELD_LABELS)],
		[RESOURCES.video, video, Object.keys(VIDEO_LABELS).filter((k) => !k.includes('.'))],
		[RESOURCES.speech, speech, Object.keys(SPEECH_LABELS).filter((k) => !k.includes('.'))],
	] as const;
	it.each(sources.map((s) => [s[0].name, s] as const))(
		'%s: form members and Additional Body Fields',
		(_name, source) => {
			const [resource, valid, keys] = source;
			const cases = fc.tuple(valid, pick(keys as readonly string[]), garbage, fc.boolean());
			fc.assert(
				fc.property(cases, ([{ body }, key, value, asAdditional]) => {
					const broken = asAdditional
						? withAdditionalBody(body, { [key]: value } as IDataObject)
						: ({ ...body, [key]: value } as IDataObject);
					// Either verdict is fine; what must not happen is an exception other than a refusal.
					resource.node(broken);
					count(resource, 'garbage handled');
				}),
				params,
			);
		},
	);
});
