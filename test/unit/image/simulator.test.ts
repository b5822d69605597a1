import { IMAGE_FIELD_LABELS } from '../../../nodes/GenerationGateway/actions/image/schema';
import { inspectImage } from '../../simulator/image/inspect';
import { imageState } from '../../simulator/routes/image';
import type { Simulator } from '../../simulator/server';
import { startSimulator } from '../../simulator/server';
import type { Accepted, Body, Rejected } from './cases';
import { A_ACCEPTED, A_REJECTED, B_ACCEPTED, B_REJECTED, C_ACCEPTED, C_REJECTED } from './cases';

/**
 * The simulator's own validation against the same tables as the package:
 * accepted bodies get 200 and real images, rejected bodies get the 400
 * envelope naming the wire member at fault.
 */

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => await sim.stop());

async function post(body: Body, token = sim.keys.bearer) {
	const response = await fetch(`${sim.url}/v1/images/generations`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
		body: JSON.stringify(body),
	});
	return {
		status: response.status,
		type: response.headers.get('content-type') ?? '',
		text: await response.text(),
	};
}

const wireName = (label: string) =>
	Object.entries(IMAGE_FIELD_LABELS).find(([, form]) => form === label.replace(/ \(.*$/, ''))![0];

// Small sizes keep the run short where the body does not fix one.
const small = (body: Body): Body => body;

describe.each<[string, Accepted[], Rejected[]]>([
	['variant B', B_ACCEPTED, B_REJECTED],
	['variant C', C_ACCEPTED, C_REJECTED],
	['variant A', A_ACCEPTED, A_REJECTED],
])('%s', (_variant, accepted, rejected) => {
	it.each(accepted)('answers 200 with images to %s', async (_name, body) => {
		const { status, type, text } = await post(small(body));
		expect(status).toBe(200);
		if (body.stream === true) {
			expect(type).toContain('text/event-stream');
			expect(text).toContain('event: image_generation.completed');
			return;
		}
		const result = JSON.parse(text) as { data: Array<{ b64_json?: string; url?: string }> };
		expect(result.data.length).toBe((body.n as number | undefined) ?? 1);
		const first = result.data[0];
		const bytes = first.b64_json
			? Buffer.from(first.b64_json, 'base64')
			: Buffer.from(await (await fetch(first.url!)).arrayBuffer());
		const info = inspectImage(bytes);
		const size = typeof body.size === 'string' && body.size !== 'auto' ? body.size : '1024x1024';
		expect(`${info.width}x${info.height}`).toBe(size);
	});

	it.each(rejected)('answers 400 to %s, param = the member of %p', async (_name, body, label) => {
		const { status, text } = await post(body);
		expect(status).toBe(400);
		const { error } = JSON.parse(text) as { error: Record<string, string> };
		expect(error.type).toBe('invalid_request_error');
		expect(error.param).toBe(wireName(label));
	});
});

describe('image endpoint', () => {
	it('refuses a wrong token with 401', async () => {
		expect((await post({ model: 'imagegen-2', prompt: 'x' }, 'wrong')).status).toBe(401);
	});

	it('takes the imgE short name only while the account alias is configured', async () => {
		imageState(sim).imgEAlias = false;
		const refused = await post({ model: 'imgE-3.0-pro', prompt: 'x', size: '512x512' });
		imageState(sim).imgEAlias = true;
		expect(refused.status).toBe(400);
		expect((await post({ model: 'imgE-3.0-pro', prompt: 'x', size: '512x512' })).status).toBe(200);
	});

	it('refuses a model outside the variant B enum', async () => {
		const { status, text } = await post({ model: 'imagegen-2-2099-01-01', prompt: 'x' });
		expect(status).toBe(400);
		expect(JSON.parse(text).error.param).toBe('model');
	});

	it.each([
		['png', false],
		['webp', true],
		['jpeg', false],
	] as const)('writes real %s bytes (transparent: %p)', async (format, transparent) => {
		const body = {
			model: 'imagegen-2',
			prompt: 'x',
			size: '320x240',
			output_format: format,
			...(transparent ? { background: 'transparent' } : {}),
		};
		const result = JSON.parse((await post(body)).text);
		const info = inspectImage(Buffer.from(result.data[0].b64_json, 'base64'));
		expect(info).toMatchObject({ format, width: 320, height: 240 });
		if (transparent) expect(info.alpha).toBe(true);
		expect(result).toMatchObject({ output_format: format, size: '320x240' });
	});
});
