/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The "generate an image, then narrate it" example (examples/image-then-speech.json):
 * an Image → Generate step feeds a Speech → Synthesize step in one real
 * execution; the narration is built from the image step's output.
 */
import { join } from 'node:path';

import type { WorkflowJson } from '../harness';
import { loadWorkflowFile, readBinary, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { encodeSpeech } from '../simulator/speech/audio';

const example = loadWorkflowFile(join(__dirname, '..', '..', 'examples', 'image-then-speech.json'));
const PROMPT = 'A lighthouse on a rocky coast at dawn, watercolor, soft pastel light, gulls over the sea';
const NARRATION = `Here is your new 1024x1024 picture. It shows ${PROMPT.toLowerCase()}.`;

function withStreamFormat(streamFormat: string): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(example)) as WorkflowJson;
	copy.nodes.find((n) => n.name === 'Narrate Image')!.parameters.streamFormat = streamFormat;
	return copy;
}

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator({ sseChunkBytes: 4096 });
});
afterAll(async () => {
	await sim.stop();
});

describe('Image → Generate, then Speech → Synthesize (workflow)', () => {
	it('narrates the generated image from its output', async () => {
		const result = await runWorkflow(example, { credentials: sim.credentials() });
		expect(result.error?.message).toBeUndefined();
		expect(result.nodeExecutionOrder).toEqual([
			"When clicking 'Execute workflow'",
			'Generate Image',
			'Narrate Image',
		]);

		const [image] = result.output('Generate Image');
		expect(image.binary!.data.mimeType).toBe('image/png');
		expect((await readBinary(image.binary!.data)).subarray(1, 4).toString()).toBe('PNG');

		const [speechRequest] = sim.requestsTo('/v1/audio/speech').slice(-1);
		const [imageRequest] = sim.requestsTo('/v1/images/generations').slice(-1);
		expect(imageRequest.at).toBeLessThanOrEqual(speechRequest.at);
		expect(speechRequest.body).toMatchObject({
			input: NARRATION,
			voice: 'narrator_v3.1',
			response_format: 'mp3',
		});

		const [narration] = result.output('Narrate Image');
		expect(narration.pairedItem).toEqual({ item: 0 });
		expect(narration.binary!.narration).toMatchObject({ mimeType: 'audio/mpeg', fileName: 'speech.mp3' });
		const expected = encodeSpeech('mp3', {
			input: NARRATION,
			voice: 'narrator_v3.1',
			sampleRate: 24000,
			rate: 1,
			seed: 0,
			volume: 50,
		});
		expect((await readBinary(narration.binary!.narration)).equals(expected)).toBe(true);
	});

	it('the same chain in SSE mode gives the same narration bytes and the usage', async () => {
		const audio = await runWorkflow(example, { credentials: sim.credentials() });
		const sse = await runWorkflow(withStreamFormat('sse'), { credentials: sim.credentials() });
		const [a] = audio.output('Narrate Image');
		const [s] = sse.output('Narrate Image');
		expect((await readBinary(s.binary!.narration)).equals(await readBinary(a.binary!.narration))).toBe(true);
		expect(s.json.usage).toEqual({
			input_tokens: expect.any(Number),
			output_tokens: expect.any(Number),
			total_tokens: expect.any(Number),
		});
	});
});
