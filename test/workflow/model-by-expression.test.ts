/**
 * A model chosen per item (an expression, or an ID the form reads
 * differently from the node) with form fields set. Through n8n-core's engine
 * over real HTTP against the simulator, one row per case:
 * - a field the resolved model accepts is sent;
 * - a field it does not accept, set away from its default, is refused before
 *   sending, naming the field and the model (no request reaches the gateway);
 * - a field it does not accept left at its default is not sent.
 * Speech has no field that depends on the model today (every field applies to
 * every model), so its rows are sent / not sent only.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	VIDEO_EXTENSIONS,
	VIDEO_EXTENSION_MEMBERS,
	VIDEO_FRAME_IMAGES,
	VIDEO_SEED,
} from '../../nodes/GenerationGateway/actions/video/wireNames';
import { gatewayWorkflow, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

const NODE = 'Gateway';
const PATHS = { image: '/v1/images/generations', video: '/v1/videos', speech: '/v1/audio/speech' };
type Resource = keyof typeof PATHS;
const OPERATION: Record<Resource, string> = { image: 'generate', video: 'create', speech: 'synthesize' };
const BASE: Record<Resource, IDataObject> = {
	image: { prompt: 'a lighthouse', size: '={{ $json.size ?? "1024x1024" }}' },
	video: { prompt: 'waves' },
	speech: { input: 'Hello there', voice: 'narrator_v3.1', responseFormat: 'wav' },
};

/** The model from the item, as a "By ID" expression. */
const BY_EXPRESSION = { __rl: true, mode: 'id', value: '={{ $json.m }}' };

interface Row {
	name: string;
	resource: Resource;
	/** The item's model (read by the expression), or a literal typed ID with `literal`. */
	model: string;
	literal?: boolean;
	item?: IDataObject;
	parameters: IDataObject;
	/** Members the request carries (matched as a subset). */
	sent?: IDataObject;
	/** Top-level members the request must not carry. */
	notSent?: string[];
	/** The refusal's message. */
	refused?: RegExp;
}

const ROWS: Row[] = [
	// Image: the issue's own cases.
	{
		name: 'image legacyimg-3, Number of Images 2',
		resource: 'image',
		model: 'legacyimg-3',
		item: { n: 2 },
		parameters: { n: '={{ $json.n }}' },
		refused: /^Number of Images: the model "legacyimg-3" does not accept this field, and it is set to 2/,
	},
	{
		name: 'image legacyimg-2, Quality hd',
		resource: 'image',
		model: 'legacyimg-2',
		parameters: { quality: 'hd' },
		refused: /^Quality: the model "legacyimg-2" does not accept this field, and it is set to "hd"/,
	},
	{
		name: 'image legacyimg-2, Output Format jpeg',
		resource: 'image',
		model: 'legacyimg-2',
		parameters: { options: { output_format: 'jpeg' } },
		refused: /^Output Format: the model "legacyimg-2" does not accept this field/,
	},
	{
		name: 'image imagegen-2, Style natural',
		resource: 'image',
		model: 'imagegen-2',
		parameters: { options: { style: 'natural' } },
		refused: /^Style: the model "imagegen-2" does not accept this field/,
	},
	{
		name: 'image imagegen-2, Pro Mode (variant A only)',
		resource: 'image',
		model: 'imagegen-2',
		parameters: { options: { enable_pro: true } },
		refused: /^Pro Mode: the model "imagegen-2" does not accept this field/,
	},
	{
		name: 'image imgE snapshot, Number of Images 3',
		resource: 'image',
		model: 'imgE-3.0-pro-2026-01-15',
		item: { size: '1024x1024' },
		parameters: { n: 3 },
		refused:
			/^Number of Images: the model "imgE-3.0-pro-2026-01-15" \(read as vendor\/imgE-3.0-pro\) does not/,
	},
	{
		name: 'image unknown ID, Background opaque (variant B only)',
		resource: 'image',
		model: 'acme/new-model',
		parameters: { options: { background: 'opaque' } },
		refused:
			/^Background: the model "acme\/new-model" \(not in this node's catalog, so only the generic fields apply\)/,
	},
	{
		name: 'image typed ID that only looks like a snapshot, Quality high',
		resource: 'image',
		model: 'imagegen-2-20xx',
		literal: true,
		parameters: { quality: 'high' },
		refused: /^Quality: the model "imagegen-2-20xx" \(not in this node's catalog/,
	},
	{
		name: 'image imagegen-2, Number of Images 2 and Quality high',
		resource: 'image',
		model: 'imagegen-2',
		item: { n: 2 },
		parameters: { n: '={{ $json.n }}', quality: 'high', size: '1024x1024' },
		sent: { model: 'imagegen-2', n: 2, quality: 'high' },
	},
	{
		name: 'image legacyimg-3, Quality hd and Style natural',
		resource: 'image',
		model: 'legacyimg-3',
		parameters: { quality: 'hd', options: { style: 'natural' } },
		sent: { model: 'legacyimg-3', quality: 'hd', style: 'natural' },
	},
	{
		name: 'image imgE, Seed 7',
		resource: 'image',
		model: 'vendor/imgE-3.0-pro',
		item: { size: '1024x1024' },
		parameters: { options: { seed: 7 } },
		sent: { model: 'vendor/imgE-3.0-pro', seed: 7 },
	},
	{
		name: 'image unknown ID, Pro Mode',
		resource: 'image',
		model: 'acme/new-model',
		parameters: { options: { enable_pro: true } },
		sent: { model: 'acme/new-model', enable_pro: true },
	},
	{
		name: 'image legacyimg-3, Number of Images at its default 1',
		resource: 'image',
		model: 'legacyimg-3',
		parameters: { n: 1 },
		sent: { model: 'legacyimg-3' },
		notSent: ['n'],
	},
	{
		name: 'image legacyimg-2, Output Format at its default png, Quality Model Default',
		resource: 'image',
		model: 'legacyimg-2',
		parameters: { quality: '', options: { output_format: 'png' } },
		sent: { model: 'legacyimg-2' },
		notSent: ['output_format', 'quality'],
	},
	{
		name: 'image imagegen-2, Style at its default vivid',
		resource: 'image',
		model: 'imagegen-2',
		parameters: { options: { style: 'vivid' } },
		notSent: ['style'],
	},
	{
		name: 'image imagegen-2, Download URL Results off (read by the node, never sent)',
		resource: 'image',
		model: 'imagegen-2',
		parameters: { downloadUrls: false },
		sent: { model: 'imagegen-2' },
	},
	// Video.
	{
		name: 'video vidB, Seed 5',
		resource: 'video',
		model: 'vidB',
		parameters: { videoOptions: { seed: 5 } },
		refused: /^Seed: the model "vidB" does not accept this field, and it is set to 5/,
	},
	{
		name: 'video vidB, Generate Audio on',
		resource: 'video',
		model: 'vidB',
		parameters: { generateAudio: 'true' },
		refused: /^Generate Audio: the model "vidB" does not accept this field/,
	},
	{
		name: 'video vidB-1.5, Last Frame Image URL',
		resource: 'video',
		model: 'vidB-1.5',
		parameters: { firstFrameUrl: 'https://x/f.png', lastFrameUrl: 'https://x/l.png' },
		refused: /^Last Frame Image URL: the model "vidB-1.5" does not accept this field/,
	},
	{
		name: 'video vidC-1.1, Fixed Camera on',
		resource: 'video',
		model: 'vidC-1.1',
		parameters: { videoOptions: { cameraFixed: true } },
		refused: /^Fixed Camera: the model "vidC-1.1" does not accept this field/,
	},
	{
		name: 'video vidA-2.0-mini, References',
		resource: 'video',
		model: 'vidA-2.0-mini',
		parameters: { references: { reference: [{ kind: 'image', url: 'https://x/a.png' }] } },
		refused: /^References: the model "vidA-2.0-mini" does not accept this field/,
	},
	{
		name: 'video vidA-2.5 snapshot, Seed 5 and Fixed Camera on',
		resource: 'video',
		model: 'vidA-2.5-2026-01-15',
		parameters: { videoOptions: { seed: 5, cameraFixed: true } },
		sent: {
			model: 'vidA-2.5-2026-01-15',
			[VIDEO_SEED]: 5,
			[VIDEO_EXTENSIONS]: { [VIDEO_EXTENSION_MEMBERS.cameraFixed]: true },
		},
	},
	{
		name: 'video vidA-2.0, Generate Audio off',
		resource: 'video',
		model: 'vidA-2.0',
		parameters: { generateAudio: 'false' },
		sent: { model: 'vidA-2.0', generate_audio: false },
	},
	{
		name: 'video vidD-h3, first and last frame',
		resource: 'video',
		model: 'vidD-h3',
		parameters: { duration: 5, firstFrameUrl: 'https://x/f.png', lastFrameUrl: 'https://x/l.png' },
		sent: { model: 'vidD-h3', duration: 5 },
	},
	{
		name: 'video unknown ID, Fixed Camera on (the generic rules take it)',
		resource: 'video',
		model: 'acme/new-video',
		parameters: { videoOptions: { cameraFixed: true } },
		sent: { model: 'acme/new-video', [VIDEO_EXTENSIONS]: { [VIDEO_EXTENSION_MEMBERS.cameraFixed]: true } },
	},
	{
		name: 'video vidB, Seed at its default -1 and Fixed Camera off',
		resource: 'video',
		model: 'vidB',
		parameters: { videoOptions: { seed: -1, cameraFixed: false } },
		sent: { model: 'vidB' },
		notSent: [VIDEO_SEED, VIDEO_EXTENSIONS],
	},
	{
		name: 'video vidB-1.5, Last Frame Image URL empty (its default)',
		resource: 'video',
		model: 'vidB-1.5',
		parameters: { firstFrameUrl: 'https://x/f.png', lastFrameUrl: '' },
		sent: { model: 'vidB-1.5', [VIDEO_FRAME_IMAGES]: [{ frame_type: 'first_frame' }] },
	},
	// Speech: every field applies to every model.
	{
		name: 'speech catalogued model, Speed 1.5',
		resource: 'speech',
		model: 'vendor/audioF-3.1-tts-flash',
		parameters: { options: { speed: 1.5 } },
		sent: { model: 'vendor/audioF-3.1-tts-flash', speed: 1.5 },
	},
	{
		name: 'speech uncatalogued alias, Volume 80 and Seed 3',
		resource: 'speech',
		model: 'audioF-tts',
		parameters: { options: { volume: 80, seed: 3 } },
		sent: { model: 'audioF-tts', extra_body: { volume: 80, seed: 3 } },
	},
	{
		name: 'speech snapshot, no options',
		resource: 'speech',
		model: 'vendor/audioF-3.1-tts-flash-2026-01-15',
		parameters: {},
		notSent: ['speed', 'instructions'],
	},
];

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.stop());

describe('a model chosen per item: fields it rejects are refused, never dropped (workflow)', () => {
	it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
		const path = PATHS[row.resource];
		const before = sim.requestsTo(path).length;
		const workflow = gatewayWorkflow({
			nodeName: NODE,
			parameters: {
				resource: row.resource,
				operation: OPERATION[row.resource],
				model: row.literal ? { __rl: true, mode: 'id', value: row.model } : BY_EXPRESSION,
				...BASE[row.resource],
				...row.parameters,
			},
			credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
		});
		const result = await runWorkflow(workflow, {
			credentials: sim.credentials(),
			input: [{ json: { m: row.model, ...row.item } }],
		});
		const requests = sim.requestsTo(path).slice(before);
		if (row.refused) {
			expect(result.error?.message).toMatch(row.refused);
			expect(requests).toHaveLength(0);
			return;
		}
		expect(requests).toHaveLength(1);
		const body = requests[0].body as IDataObject;
		if (row.sent) expect(body).toMatchObject(row.sent);
		for (const member of row.notSent ?? []) expect(Object.keys(body)).not.toContain(member);
	});
});
