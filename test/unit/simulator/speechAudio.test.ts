/**
 * The simulator's speech samples (test/simulator/speech/audio.ts): one tone per character, none for a
 * space or after the text, at least 0.25 s, the same bytes for the same request.
 */
import type { VoiceRequest } from '../../simulator/speech/audio';
import { SECONDS_PER_CHARACTER, synthesizePcm } from '../../simulator/speech/audio';

const REQUEST: VoiceRequest = { input: 'a b', voice: 'v', sampleRate: 8000, rate: 1, seed: 3, volume: 50 };
const samplesOf = (pcm: Buffer) => Array.from({ length: pcm.length / 2 }, (_, n) => pcm.readInt16LE(n * 2));
/** How many distinct sample values a span holds: 1 is no tone. */
const distinct = (samples: number[]) => new Set(samples).size;

it.each([
	{ input: 'a b', rate: 1, samples: 2000 },
	{ input: 'x'.repeat(20), rate: 1, samples: 3200 },
	{ input: 'x'.repeat(20), rate: 2, samples: 2000 },
	{ input: '😀😀', rate: 1, samples: 2000 },
])('$input at rate $rate: $samples samples (at least 0.25 s)', ({ input, rate, samples }) => {
	expect(synthesizePcm({ ...REQUEST, input, rate }).length).toBe(samples * 2);
});

it('sounds a tone over each letter only: its own span, none over a space or after the text', () => {
	const per = REQUEST.sampleRate * SECONDS_PER_CHARACTER;
	const samples = samplesOf(synthesizePcm(REQUEST));
	expect(distinct(samples.slice(0, per))).toBeGreaterThan(10);
	expect(distinct(samples.slice(per, 2 * per))).toBe(1);
	expect(distinct(samples.slice(2 * per, 3 * per))).toBeGreaterThan(10);
	expect(distinct(samples.slice(3 * per))).toBe(1);
});

it('gives the same bytes for the same request, others for another seed', () => {
	expect(synthesizePcm(REQUEST).equals(synthesizePcm({ ...REQUEST }))).toBe(true);
	expect(synthesizePcm(REQUEST).equals(synthesizePcm({ ...REQUEST, seed: 4 }))).toBe(false);
});
