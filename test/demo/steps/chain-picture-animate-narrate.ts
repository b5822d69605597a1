/**
 * Demo steps for examples/chain-picture-animate-narrate.json: runs it as
 * shipped, then shows from the simulator's request log that each binary
 * reached the next request as a data URL, byte for byte (no file hosted).
 */
import type { WorkflowJson } from '../../harness';
import { readBinary } from '../../harness';
import { decodeDataUrl } from '../../simulator/media/inline';
import type { DemoContext } from '../run-demo';

export async function run(ctx: DemoContext, workflow: WorkflowJson): Promise<void> {
	const before = ctx.sim.requestsTo('/v1/videos', 'POST').length;
	const result = await ctx.run(workflow);
	if (result.status !== 'success') return;
	const [animate, narrated] = ctx.sim.requestsTo('/v1/videos', 'POST').slice(before);
	const links: Array<[string, string, unknown, string]> = [
		[
			'Generate Picture',
			'data',
			(animate?.body as { frame_images?: Array<{ image_url?: string }> })?.frame_images?.[0]?.image_url,
			'Animate Picture first frame (frame_images[0].image_url)',
		],
		[
			'Narrate',
			'narration',
			(narrated?.body as { input_references?: Array<{ audio_url?: string }> })?.input_references?.[0]
				?.audio_url,
			'Video With Narration reference audio (input_references[0].audio_url)',
		],
	];
	for (const [node, property, sent, where] of links) {
		const file = result.output(node)[0]?.binary?.[property];
		if (!file) throw new Error(`${node} produced no binary "${property}"`);
		const { mimeType, bytes } = decodeDataUrl(sent);
		if (!bytes.equals(await readBinary(file))) throw new Error(`${where}: not the bytes of ${node}`);
		ctx.say(
			`${where}: data:${mimeType};base64 of ${bytes.length} bytes, identical to ${node}'s "${property}"`,
		);
	}
}
