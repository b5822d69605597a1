import type { INode } from 'n8n-workflow';

import {
	IMAGE_FIELD_LABELS,
	imageRequestSchema,
} from '../../../nodes/GenerationGateway/actions/image/schema';
import { assertValid } from '../../../nodes/shared/validation';
import type { Accepted, Body, Rejected } from './cases';
import { A_ACCEPTED, A_REJECTED, B_ACCEPTED, B_REJECTED, C_ACCEPTED, C_REJECTED } from './cases';

/**
 * The package's checks against the interface's tables (cases.ts): every
 * accepted body passes, every rejected body is refused with a message that
 * starts with the form label of the field at fault.
 */

const node: INode = {
	id: 'n',
	name: 'Generation Gateway',
	type: 'n8n-nodes-generation-gateway.generationGateway',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function refusal(body: Body): string | undefined {
	try {
		assertValid(node, imageRequestSchema(String(body.model ?? '')), body, IMAGE_FIELD_LABELS, 0);
		return undefined;
	} catch (error) {
		return (error as Error).message;
	}
}

const escape = (text: string) => text.replace(/[()#]/g, '\\$&');

describe.each<[string, Accepted[], Rejected[]]>([
	['variant B (imagegen, legacyimg)', B_ACCEPTED, B_REJECTED],
	['variant C (imgE)', C_ACCEPTED, C_REJECTED],
	['variant A (any other model)', A_ACCEPTED, A_REJECTED],
])('%s', (_variant, accepted, rejected) => {
	it.each(accepted)('accepts %s', (_name, body) => {
		expect(refusal(body)).toBeUndefined();
	});

	it.each(rejected)('refuses %s, naming %p', (_name, body, label) => {
		expect(refusal(body)).toMatch(new RegExp(`^${escape(label)}`));
	});
});

describe('variant choice', () => {
	it('sends a near-miss of a catalogued ID (imagegen-20) with the generic rules of variant A', () => {
		expect(refusal({ model: 'imagegen-20', prompt: 'x', n: 4 })).toBeUndefined();
		expect(refusal({ model: 'imagegen-20', prompt: 'x', n: 5 })).toMatch(/^Number of Images/);
	});

	it('treats a future dated snapshot as its base model', () => {
		expect(refusal({ model: 'imagegen-2-2027-01-01', prompt: 'x', size: '1000x1000' })).toMatch(/^Size/);
		expect(refusal({ model: 'legacyimg-3-2027-01-01', prompt: 'x', n: 2 })).toMatch(/^Number of Images/);
	});

	it('lists every problem of a body, the first one in the message', () => {
		try {
			assertValid(
				node,
				imageRequestSchema('vendor/imgE-3.0-pro'),
				{ model: 'vendor/imgE-3.0-pro', prompt: 'x', n: 2, seed: -1 },
				IMAGE_FIELD_LABELS,
				0,
			);
			throw new Error('not refused');
		} catch (error) {
			const { message, description } = error as { message: string; description: string };
			expect(`${message}\n${description}`).toMatch(/Seed: must be between 0 and 2147483647/);
			expect(`${message}\n${description}`).toMatch(/Number of Images: .*rejects "n"/);
			expect(description).toMatch(/not sent to the gateway/);
		}
	});
});
