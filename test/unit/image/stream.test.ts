import {
	ImageStreamCollector,
	streamedResultJson,
} from '../../../nodes/GenerationGateway/actions/image/stream';

/** Folding the (assumed, OpenAI-style) image stream events into a result. */

/** The assembled result, or the test fails with the outcome's message. */
function value<T>(outcome: { ok: true; value: T } | { ok: false; message: string }): T {
	if (!outcome.ok) throw new Error(`expected a result, got: ${outcome.message}`);
	return outcome.value;
}
const b64 = (text: string) => Buffer.from(text).toString('base64');

const partial = (index: number) => ({
	type: 'image_generation.partial_image',
	b64_json: b64(`partial ${index}`),
	partial_image_index: index,
	created_at: 1700000000,
	output_format: 'png',
});
const completed = (text = 'final') => ({
	type: 'image_generation.completed',
	b64_json: b64(text),
	created_at: 1700000001,
	size: '1024x1024',
	quality: 'medium',
	background: 'opaque',
	output_format: 'png',
	usage: { total_tokens: 10 },
});

describe('ImageStreamCollector', () => {
	it('keeps the final image and, on request, the partial ones in index order', () => {
		const collector = new ImageStreamCollector(1, true);
		collector.apply('image_generation.partial_image', partial(1));
		collector.apply('image_generation.partial_image', partial(0));
		collector.apply('image_generation.completed', completed());
		const result = value(collector.finish());
		expect(result.finals.map((f) => f.bytes.toString())).toEqual(['final']);
		expect(result.partials.map((p) => p.bytes.toString())).toEqual(['partial 0', 'partial 1']);
		expect(result.partials[0].meta).not.toHaveProperty('b64_json');
		const json = streamedResultJson(result);
		expect(json).toEqual({
			created: 1700000001,
			size: '1024x1024',
			quality: 'medium',
			background: 'opaque',
			output_format: 'png',
			usage: { total_tokens: 10 },
			data: [{ index: 0 }],
		});
	});

	it('reads the type from the event line when the data has none', () => {
		const collector = new ImageStreamCollector(1, false);
		const data: Partial<ReturnType<typeof completed>> = completed();
		delete data.type;
		collector.apply('image_generation.completed', data);
		expect(value(collector.finish()).finals).toHaveLength(1);
	});

	it('drops partial images unless asked to keep them', () => {
		const collector = new ImageStreamCollector(1, false);
		collector.apply('', partial(0));
		collector.apply('', completed());
		expect(value(collector.finish()).partials).toEqual([]);
	});

	it('refuses a stream without its completed event', () => {
		const collector = new ImageStreamCollector(1, true);
		collector.apply('', partial(0));
		expect(collector.finish()).toEqual({
			ok: false,
			reason: 'truncated',
			message: expect.stringMatching(/ended without its final image/),
		});
	});

	it('refuses a stream with fewer final images than asked for', () => {
		const collector = new ImageStreamCollector(2, false);
		collector.apply('', completed('one'));
		expect(collector.finish()).toMatchObject({
			ok: false,
			message: expect.stringMatching(/after 1 of 2 final images/),
		});
	});

	it('surfaces an error event', () => {
		const collector = new ImageStreamCollector(1, false);
		expect(collector.apply('error', { type: 'error', error: { message: 'upstream overloaded' } })).toBe(
			'done',
		);
		expect(collector.finish()).toMatchObject({
			ok: false,
			reason: 'upstream',
			message: expect.stringMatching(/upstream overloaded/),
		});
	});

	it('refuses a completed event without an image', () => {
		const collector = new ImageStreamCollector(1, false);
		expect(collector.apply('', { type: 'image_generation.completed' })).toBe('done');
		expect(collector.finish()).toMatchObject({
			ok: false,
			reason: 'malformed',
			message: expect.stringMatching(/without an image/),
		});
	});

	it('ignores events it does not know', () => {
		const collector = new ImageStreamCollector(1, false);
		collector.apply('ping', { type: 'keepalive' });
		collector.apply('', completed());
		expect(value(collector.finish()).finals).toHaveLength(1);
	});
});
