/**
 * "Additional Body Fields (JSON)" is read the same way by every operation
 * (actions/descriptions.ts): merged last, and refused before sending when it
 * is not a JSON object. Shown here on Speech → Synthesize.
 */
import { runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { SPEECH_NODE, SPEECH_PATH, speechWorkflow } from './speech-workflow';

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

describe('Additional Body Fields (JSON)', () => {
	it.each([
		['text that is not JSON', '{"speed": 1.5', 'Additional Body Fields (JSON): is not valid JSON'],
		['a JSON array', '[1, 2]', 'Additional Body Fields (JSON): must be a JSON object'],
		['a JSON string', '"fast"', 'Additional Body Fields (JSON): must be a JSON object'],
	])('refuses %s before sending', async (_name, additionalBodyFields, message) => {
		const before = sim.requestsTo(SPEECH_PATH).length;
		const result = await runWorkflow(speechWorkflow({ additionalBodyFields }), {
			credentials: sim.credentials(),
		});
		expect(result.status).toBe('error');
		expect(result.nodeError(SPEECH_NODE)?.message).toContain(message);
		expect(sim.requestsTo(SPEECH_PATH)).toHaveLength(before);
	});

	it('merges its members last, over the form', async () => {
		const result = await runWorkflow(
			speechWorkflow({ additionalBodyFields: '{"speed": 1.5, "user": "abc"}' }),
			{
				credentials: sim.credentials(),
			},
		);
		expect(result.status).toBe('success');
		const [request] = sim.requestsTo(SPEECH_PATH).slice(-1);
		expect(request.body).toMatchObject({ speed: 1.5, user: 'abc' });
	});
});
