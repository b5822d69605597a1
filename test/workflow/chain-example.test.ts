/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * examples/chain-picture-animate-narrate.json as shipped,
 * in a real execution against the simulator. Each step's binary reaches the
 * next request byte for byte: the generated picture is the first video's
 * first frame, the synthesized narration is the vidD-h3 video's reference
 * audio (both as data URLs, which the simulator checks).
 */
import { join } from 'node:path';

import { loadWorkflowFile, readBinary, runWorkflow } from '../harness';
import { useVirtualTime } from '../harness/virtual-time';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { decodeDataUrl } from '../simulator/media/inline';

useVirtualTime();

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'chain-picture-animate-narrate.json');

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

describe('example: examples/chain-picture-animate-narrate.json', () => {
	it('makes a picture, animates it, narrates it and sends the narration as reference audio, without a URL', async () => {
		const result = await runWorkflow(loadWorkflowFile(EXAMPLE), { credentials: sim.credentials() });
		expect(result.status).toBe('success');

		const picture = result.output('Generate Picture')[0].binary!.data;
		const narration = result.output('Narrate')[0].binary!.narration;
		expect(picture.mimeType).toBe('image/png');
		expect(narration.mimeType).toBe('audio/mpeg');

		const [animate, narrated] = sim.requestsTo('/v1/videos', 'POST').slice(-2);
		const animateBody = animate.body as { model: string; frame_images: Array<Record<string, unknown>> };
		expect(animateBody.model).toBe('vidA-2.5');
		expect(animateBody.frame_images).toHaveLength(1);
		expect(animateBody.frame_images[0].frame_type).toBe('first_frame');
		const frame = decodeDataUrl(animateBody.frame_images[0].image_url);
		expect(frame.mimeType).toBe('image/png');
		expect(frame.bytes.equals(await readBinary(picture))).toBe(true);

		const narratedBody = narrated.body as { model: string; input_references: Array<Record<string, unknown>> };
		expect(narratedBody.model).toBe('vidD-h3');
		expect(narratedBody.input_references).toHaveLength(1);
		expect(narratedBody.input_references[0]).toMatchObject({ type: 'audio_url', role: 'reference_audio' });
		const audio = decodeDataUrl(narratedBody.input_references[0].audio_url);
		expect(audio.mimeType).toBe('audio/mpeg');
		expect(audio.bytes.equals(await readBinary(narration))).toBe(true);

		// The narration speaks of the first video's task, and both videos were downloaded.
		const animated = result.output('Animate Picture')[0];
		expect(
			String((sim.requestsTo('/v1/audio/speech', 'POST').slice(-1)[0].body as { input: string }).input),
		).toContain(String(animated.json.id));
		for (const node of ['Animate Picture', 'Video With Narration']) {
			const [item] = result.output(node);
			expect(item.json.status).toBe('completed');
			expect(item.binary?.data.mimeType).toBe('video/mp4');
		}
	});
});
