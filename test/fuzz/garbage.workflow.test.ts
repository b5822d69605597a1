/**
 * Garbage through Additional Body Fields in real executions (n8n-core engine,
 * package from dist/, the simulator over HTTP): every value ends as a node
 * error that names a field, or as the gateway's own error; never a crash, an
 * unhandled rejection or a request the rules should have stopped. The
 * property-based volume is in rules.fuzz.test.ts; these rows prove the path
 * through n8n. Includes the crash the fuzz run found: a `model` that is an
 * object whose `toString` is not a function made `String(model)` throw a
 * TypeError before any rule ran.
 */
import { gatewayWorkflow, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

const NODE = 'Gateway';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const BEARER = { generationGatewayBearerApi: { id: '1', name: 'Bearer' } };

const RESOURCES = [
	{
		name: 'Image → Generate',
		path: '/v1/images/generations',
		parameters: { resource: 'image', operation: 'generate', model: rl('imagegen-2'), prompt: 'a lighthouse' },
		members: ['model', 'n', 'size', 'prompt', 'quality'],
	},
	{
		name: 'Video → Create',
		path: '/v1/videos',
		parameters: {
			resource: 'video',
			operation: 'create',
			model: rl('vidA-2.5'),
			prompt: 'a fox',
			duration: 5,
		},
		members: ['model', 'duration', 'resolution', 'prompt', 'seed'],
	},
	{
		name: 'Speech → Synthesize',
		path: '/v1/audio/speech',
		parameters: {
			resource: 'speech',
			operation: 'synthesize',
			model: rl('vendor/audioF-3.1-tts-flash'),
			input: 'Hello.',
			voice: 'narrator_v3.1',
		},
		members: ['model', 'speed', 'input', 'voice'],
	},
];

const GARBAGE: Array<[string, unknown]> = [
	['null', null],
	['an object with a broken toString', { toString: [] }],
	['an array', [1, 'two', null]],
	['-0', -0],
	['a 100 000-character string', 'x'.repeat(100_000)],
	['emoji', '🎨🎬🔊'],
	['a boolean', true],
];

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

const rows = RESOURCES.flatMap((resource) =>
	resource.members.flatMap((member) =>
		GARBAGE.map(([what, value]) => [resource.name, member, what, { resource, member, value }] as const),
	),
);

describe('garbage through Additional Body Fields, in real executions', () => {
	it.each(rows)(
		"%s, %s = %s: a node error or the gateway's error, never a crash",
		async (_r, _m, _w, row) => {
			const before = sim.requestsTo(row.resource.path, 'POST').length;
			const result = await runWorkflow(
				gatewayWorkflow({
					nodeName: NODE,
					parameters: {
						...row.resource.parameters,
						additionalBodyFields: JSON.stringify({ [row.member]: row.value }),
					},
					credentials: BEARER,
				}),
				{ credentials: sim.credentials() },
			);
			const sent = sim.requestsTo(row.resource.path, 'POST').length - before;
			if (result.status === 'success') {
				// Accepted by the node's rules: the gateway accepted it too (e.g. -0 as a seed).
				expect(sent).toBe(1);
				return;
			}
			const error = result.nodeError(NODE);
			expect(error).toBeDefined();
			expect(error?.message).toEqual(expect.any(String));
			expect(error?.message).not.toMatch(/TypeError|Cannot read|is not a function|Cannot convert/);
			if (error?.description?.includes('The request was not sent to the gateway')) {
				expect(sent).toBe(0);
			} else {
				// The gateway's refusal: its HTTP status is on the error.
				expect(sent).toBe(1);
				expect((error as { httpCode?: string } | undefined)?.httpCode).toMatch(/^4\d\d$/);
			}
		},
	);
});
