import { Base64Payload, sendableBody, withPayload } from '../../../nodes/shared/base64Payload';
import { checkBase64, checkMediaUrl } from '../../simulator/media/inline';

/** The JSON bytes a payload writes equal JSON.stringify over the base64 text, for every size around a slice. */
const bytesOf = (size: number, seed: number) =>
	Buffer.from(Array.from({ length: size }, (_, i) => (i * seed) % 256));

describe('Base64Payload', () => {
	const SLICE = 3 * 64 * 1024;
	it.each([0, 1, 2, 3, 4, SLICE - 1, SLICE, SLICE + 1, SLICE + 2, 2 * SLICE + 5])(
		'a %i-byte file is written exactly as JSON.stringify would write its data URL',
		(size) => {
			const bytes = bytesOf(size, 7);
			const payload = new Base64Payload();
			const body = { model: 'm', frame: { image_url: payload.embed(bytes, 'data:image/png;base64,') } };
			const expected = JSON.stringify({
				model: 'm',
				frame: { image_url: `data:image/png;base64,${bytes.toString('base64')}` },
			});
			expect(payload.serialize(body).toString('utf8')).toBe(expected);
		},
	);

	it('puts several files in place, keeps unicode text, and leaves a body without files as an object', () => {
		const payload = new Base64Payload();
		const a = bytesOf(10, 3);
		const b = bytesOf(11, 5);
		const body = { text: 'naïve ☃', parts: [{ data: payload.embed(a) }, { data: payload.embed(b) }] };
		expect(JSON.parse(payload.serialize(body).toString('utf8'))).toEqual({
			text: 'naïve ☃',
			parts: [{ data: a.toString('base64') }, { data: b.toString('base64') }],
		});
		const plain = { model: 'm' };
		expect(new Base64Payload().requestBody(plain)).toBe(plain);
	});

	it('travels with a copied body (spread) and is invisible to JSON.stringify', () => {
		const payload = new Base64Payload();
		const body = withPayload({ url: payload.embed(Buffer.from('hi')) }, payload);
		const copy = { ...body, callback_url: 'https://x' };
		expect(JSON.parse((sendableBody(copy) as Buffer).toString())).toEqual({
			url: 'aGk=',
			callback_url: 'https://x',
		});
		expect(sendableBody({ url: 'u' })).toEqual({ url: 'u' });
	});
});

describe('simulator inline media checks', () => {
	it.each([
		['data:image/png;base64,aGk=', 'image', 2],
		['https://x/a.png', 'image', undefined],
		['data:audio/mpeg;base64,aGVsbG8=', 'audio', 5],
	])('accepts %s as %s', (url, kind, size) => {
		expect(checkMediaUrl('p', url, kind)).toBe(size);
	});
	it.each([
		['data:image/png;base64,aGk', 'image', 'not valid base64'],
		['data:image/png,aGk=', 'image', 'data:<mime>;base64'],
		['data:audio/mpeg;base64,aGk=', 'image', 'audio/mpeg is not accepted'],
		['ftp://x/a.png', 'image', 'http(s) URL or a data URL'],
		['data:;base64,aGk=', 'image', 'a MIME type is required'],
	])('refuses %s as %s', (url, kind, message) => {
		expect(() => checkMediaUrl('p', url, kind)).toThrow(message);
	});
	it('counts decoded bytes and refuses empty base64', () => {
		expect(checkBase64('p', 'aGVsbG8h')).toBe(6);
		expect(() => checkBase64('p', '')).toThrow('base64 data is required');
	});
});
