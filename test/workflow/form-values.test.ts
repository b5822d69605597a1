/**
 * Form values are sent as given or refused, naming the field as the form
 * shows it; never dropped or replaced without a word. Real executions
 * (n8n-core's engine, the package from dist/, the simulator over HTTP), one
 * row per value: the field, the model, the value, and either the request the
 * gateway received or the exact refusal (then nothing reached the gateway).
 *
 * - Duration (Seconds): text that is no number, typed or from an expression,
 *   is refused (it used to be dropped, and the task made at the model's
 *   default length); Model Default and an expression that yields nothing send
 *   no duration; a model that requires one opens at its shortest length.
 * - An expression that yields nothing (undefined, null) is "not set", also
 *   for a field the item's model does not accept (it used to be refused as
 *   "set to undefined").
 * - Lengths count characters (code points): an emoji is one character.
 * - Request Options and Wait Timeout: text that is no number, or a value out
 *   of range, is refused instead of replaced by the default or clamped.
 */
import type { IDataObject } from 'n8n-workflow';

import { VIDEO_SEED } from '../../nodes/GenerationGateway/actions/video/wireNames';
import { gatewayWorkflow, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

const NODE = 'Gateway';
const PATHS = { image: '/v1/images/generations', video: '/v1/videos', speech: '/v1/audio/speech' };
type Resource = keyof typeof PATHS;
const OPERATION: Record<Resource, string> = { image: 'generate', video: 'create', speech: 'synthesize' };
const BASE: Record<Resource, IDataObject> = {
	image: { prompt: 'a lighthouse', size: '1024x1024' },
	video: { prompt: 'waves' },
	speech: { input: 'Hello there', voice: 'narrator_v3.1', responseFormat: 'wav' },
};

/** The model from the item's `m`, as a "By ID" expression. */
const BY_EXPRESSION = { __rl: true, mode: 'id', value: '={{ $json.m }}' };
const listed = (value: string) => ({ __rl: true, mode: 'list', value });
const emoji = (n: number) => '🎬'.repeat(n);

interface Row {
	field: string;
	value: string;
	resource: Resource;
	/** The model: chosen from the list, or with `byExpression` read from the item. */
	model: string;
	byExpression?: boolean;
	operation?: string;
	item?: IDataObject;
	parameters: IDataObject;
	/** Members the request carries (matched as a subset). */
	sent?: IDataObject;
	/** Top-level members the request must not carry. */
	notSent?: string[];
	/** The exact refusal. */
	refused?: string;
}

const DURATION = 'Duration (Seconds)';

const ROWS: Row[] = [
	// Duration (Seconds).
	{
		field: DURATION,
		value: 'typed "ten"',
		resource: 'video',
		model: 'vidA-2.5',
		parameters: { duration: 'ten' },
		refused: 'Duration (Seconds): "ten" is not a number',
	},
	{
		field: DURATION,
		value: '{{ $json.d }} = "ten"',
		resource: 'video',
		model: 'vidA-2.5',
		item: { d: 'ten' },
		parameters: { duration: '={{ $json.d }}' },
		refused: 'Duration (Seconds): "ten" is not a number',
	},
	{
		field: DURATION,
		value: '{{ $json.d }} = "10" (text holding a number)',
		resource: 'video',
		model: 'vidA-2.5',
		item: { d: '10' },
		parameters: { duration: '={{ $json.d }}' },
		sent: { duration: 10 },
	},
	{
		field: DURATION,
		value: '{{ $json.d }} = 12',
		resource: 'video',
		model: 'vidA-2.5',
		item: { d: 12 },
		parameters: { duration: '={{ $json.d }}' },
		sent: { duration: 12 },
	},
	{
		field: DURATION,
		value: '30 (the top of vidA-2.5)',
		resource: 'video',
		model: 'vidA-2.5',
		parameters: { duration: 30 },
		sent: { duration: 30 },
	},
	{
		field: DURATION,
		value: 'Model Default',
		resource: 'video',
		model: 'vidA-2.5',
		parameters: { duration: '' },
		notSent: ['duration'],
	},
	{
		field: DURATION,
		value: 'not in the saved node (its default)',
		resource: 'video',
		model: 'vidA-2.5',
		parameters: {},
		notSent: ['duration'],
	},
	{
		field: DURATION,
		value: '{{ $json.d }} on an item without d',
		resource: 'video',
		model: 'vidA-2.5',
		parameters: { duration: '={{ $json.d }}' },
		notSent: ['duration'],
	},
	{
		field: DURATION,
		value: '{{ $json.d }} = 0 (no longer "model default")',
		resource: 'video',
		model: 'vidA-2.5',
		item: { d: 0 },
		parameters: { duration: '={{ $json.d }}' },
		refused: 'Duration (Seconds): must be 4-30 seconds for vidA-2.5; -1 only for edit or extend tasks',
	},
	{
		field: DURATION,
		value: '{{ $json.d }} = 12.5',
		resource: 'video',
		model: 'vidA-2.5',
		item: { d: 12.5 },
		parameters: { duration: '={{ $json.d }}' },
		refused: 'Duration (Seconds): must be a whole number',
	},
	{
		field: DURATION,
		value: '16 (over vidD-h3)',
		resource: 'video',
		model: 'vidD-h3',
		parameters: { duration: 16 },
		refused: 'Duration (Seconds): must be 4-15 seconds for vidD-h3',
	},
	{
		field: DURATION,
		value: 'not in the saved node: vidD-h3 opens at 4',
		resource: 'video',
		model: 'vidD-h3',
		parameters: {},
		sent: { model: 'vidD-h3', duration: 4 },
	},
	{
		field: DURATION,
		value: '{{ $json.d }} on an item without d, vidD-h3 (requires one)',
		resource: 'video',
		model: 'vidD-h3',
		parameters: { duration: '={{ $json.d }}' },
		refused: 'Duration (Seconds): is required for vidD-h3 (4-15)',
	},
	{
		field: DURATION,
		value: 'Model Default, model vidD-h3 from an expression',
		resource: 'video',
		model: 'vidD-h3',
		byExpression: true,
		parameters: {},
		refused: 'Duration (Seconds): is required for vidD-h3 (4-15)',
	},
	{
		field: DURATION,
		value: '7, model vidD-h3 from an expression',
		resource: 'video',
		model: 'vidD-h3',
		byExpression: true,
		parameters: { duration: 7 },
		sent: { model: 'vidD-h3', duration: 7 },
	},
	{
		field: 'Additional Body Fields (JSON) duration',
		value: '"ten"',
		resource: 'video',
		model: 'vidA-2.5',
		parameters: { additionalBodyFields: '{"duration": "ten"}' },
		refused: 'Duration (Seconds): Expected number, received string',
	},

	// An expression that yields nothing is "not set".
	{
		field: 'Options → Style',
		value: '{{ $json.style }} on an item without style',
		resource: 'image',
		model: 'imagegen-2',
		byExpression: true,
		parameters: { options: { style: '={{ $json.style }}' } },
		sent: { model: 'imagegen-2' },
		notSent: ['style'],
	},
	{
		field: 'Options → Style',
		value: '{{ $json.style }} = null',
		resource: 'image',
		model: 'imagegen-2',
		byExpression: true,
		item: { style: null },
		parameters: { options: { style: '={{ $json.style }}' } },
		notSent: ['style'],
	},
	{
		field: 'Options → Style',
		value: '{{ $json.style }} = "natural" (a value the model rejects)',
		resource: 'image',
		model: 'imagegen-2',
		byExpression: true,
		item: { style: 'natural' },
		parameters: { options: { style: '={{ $json.style }}' } },
		refused:
			'Style: the model "imagegen-2" does not accept this field, and it is set to "natural". Leave it at its default or choose a model that accepts it.',
	},
	{
		field: 'Options → Style',
		value: '{{ $json.style }} on an item without style, legacyimg-3 (accepts it)',
		resource: 'image',
		model: 'legacyimg-3',
		byExpression: true,
		parameters: { options: { style: '={{ $json.style }}' } },
		sent: { model: 'legacyimg-3' },
		notSent: ['style'],
	},
	{
		field: 'Number of Images',
		value: '{{ $json.n }} on an item without n, legacyimg-3 (takes none)',
		resource: 'image',
		model: 'legacyimg-3',
		byExpression: true,
		parameters: { n: '={{ $json.n }}' },
		notSent: ['n'],
	},
	{
		field: 'Options → Seed',
		value: '{{ $json.seed }} on an item without seed, vidB (takes none)',
		resource: 'video',
		model: 'vidB',
		byExpression: true,
		parameters: { videoOptions: { seed: '={{ $json.seed }}' } },
		sent: { model: 'vidB' },
		notSent: [VIDEO_SEED],
	},
	{
		field: 'Options → Speed',
		value: '{{ $json.speed }} on an item without speed',
		resource: 'speech',
		model: 'vendor/audioF-3.1-tts-flash',
		byExpression: true,
		parameters: { options: { speed: '={{ $json.speed }}' } },
		sent: { model: 'vendor/audioF-3.1-tts-flash' },
		notSent: ['speed'],
	},

	// Characters are code points.
	{
		field: 'Prompt',
		value: '1000 emoji (the limit of legacyimg-2)',
		resource: 'image',
		model: 'legacyimg-2',
		parameters: { prompt: emoji(1000) },
		sent: { model: 'legacyimg-2', prompt: emoji(1000) },
	},
	{
		field: 'Prompt',
		value: '1001 emoji',
		resource: 'image',
		model: 'legacyimg-2',
		parameters: { prompt: emoji(1001) },
		refused: 'Prompt: must be at most 1000 characters for legacyimg-2 (has 1001)',
	},
	{
		field: 'Prompt',
		value: '4000 emoji (the limit of legacyimg-3)',
		resource: 'image',
		model: 'legacyimg-3',
		parameters: { prompt: emoji(4000) },
		sent: { model: 'legacyimg-3', prompt: emoji(4000) },
	},
	{
		field: 'Prompt',
		value: '32001 emoji (over imagegen-2)',
		resource: 'image',
		model: 'imagegen-2',
		parameters: { prompt: emoji(32001) },
		refused: 'Prompt: must be at most 32000 characters for imagegen-2 (has 32001)',
	},
	{
		field: 'Text',
		value: '4096 emoji (the limit)',
		resource: 'speech',
		model: 'vendor/audioF-3.1-tts-flash',
		parameters: { input: emoji(4096) },
		sent: { input: emoji(4096) },
	},
	{
		field: 'Text',
		value: '4097 emoji',
		resource: 'speech',
		model: 'vendor/audioF-3.1-tts-flash',
		parameters: { input: emoji(4097) },
		refused: 'Text: must be at most 4096 characters (has 4097)',
	},
	{
		field: 'Options → Instructions',
		value: '4097 emoji',
		resource: 'speech',
		model: 'vendor/audioF-3.1-tts-flash',
		parameters: { options: { instructions: emoji(4097) } },
		refused: 'Instructions: must be at most 4096 characters (has 4097)',
	},

	// Settings: refused, not replaced or clamped.
	{
		field: 'Request Options → Max Concurrent Requests',
		value: '{{ $json.c }} = "ten"',
		resource: 'image',
		model: 'imagegen-2',
		item: { c: 'ten' },
		parameters: { requestOptions: { maxConcurrency: '={{ $json.c }}' } },
		refused: 'Request Options → Max Concurrent Requests: "ten" is not a number',
	},
	{
		field: 'Request Options → Max Concurrent Requests',
		value: '{{ $json.c }} = "4"',
		resource: 'image',
		model: 'imagegen-2',
		item: { c: '4' },
		parameters: { requestOptions: { maxConcurrency: '={{ $json.c }}' } },
		sent: { model: 'imagegen-2' },
	},
	{
		field: 'Request Options → Request Timeout (Seconds)',
		value: '0',
		resource: 'speech',
		model: 'vendor/audioF-3.1-tts-flash',
		parameters: { requestOptions: { timeoutSeconds: 0 } },
		refused: 'Request Options → Request Timeout (Seconds): must be 1 to 3600 (got 0)',
	},
	{
		field: 'Wait Options → Wait Timeout (Minutes)',
		value: '{{ $json.t }} = "soon"',
		resource: 'video',
		operation: 'createAndWait',
		model: 'vidA-2.5',
		item: { t: 'soon' },
		parameters: { waitOptions: { mode: 'polling', timeoutMinutes: '={{ $json.t }}' } },
		refused: 'Wait Options → Wait Timeout (Minutes): "soon" is not a number',
	},
	{
		field: 'Wait Options → Wait Timeout (Minutes)',
		value: '500 (over 120)',
		resource: 'video',
		operation: 'createAndWait',
		model: 'vidA-2.5',
		parameters: { waitOptions: { mode: 'polling', timeoutMinutes: 500 } },
		refused: 'Wait Options → Wait Timeout (Minutes): must be more than 0 and at most 120 (got 500)',
	},
];

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.stop());

const title = (row: Row) =>
	`${row.field} = ${row.value}, ${row.byExpression ? 'model by expression: ' : ''}${row.model}: ${row.refused ? 'refused' : 'sent'}`;

describe('form values: sent as given, or refused naming the field (workflow)', () => {
	it.each(ROWS.map((row) => [title(row), row] as const))('%s', async (_title, row) => {
		const path = PATHS[row.resource];
		const before = sim.requestsTo(path, 'POST').length;
		const result = await runWorkflow(
			gatewayWorkflow({
				nodeName: NODE,
				parameters: {
					resource: row.resource,
					operation: row.operation ?? OPERATION[row.resource],
					model: row.byExpression ? BY_EXPRESSION : listed(row.model),
					...BASE[row.resource],
					...row.parameters,
				},
				credentials: { generationGatewayBearerApi: { id: '1', name: 'Gateway' } },
			}),
			{ credentials: sim.credentials(), input: [{ json: { m: row.model, ...row.item } }] },
		);
		const requests = sim.requestsTo(path, 'POST').slice(before);
		if (row.refused) {
			expect(result.nodeError(NODE)?.message).toBe(row.refused);
			expect(result.nodeError(NODE)?.description).toMatch(/The request was not sent to the gateway/);
			expect(requests).toHaveLength(0);
			return;
		}
		// Sent: what the node decided, and the simulator's own rules accept it.
		expect(requests).toHaveLength(1);
		expect(requests[0].status).toBeLessThan(300);
		const body = requests[0].body as IDataObject;
		if (row.sent) expect(body).toMatchObject(row.sent);
		for (const member of row.notSent ?? []) expect(Object.keys(body)).not.toContain(member);
	});
});
