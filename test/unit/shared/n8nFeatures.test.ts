/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Each compatibility path of nodes/shared/n8nFeatures.ts, with the feature
 * present (recent n8n) and absent (an older one), through fake contexts.
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runsAsTool } from '../../../nodes/GenerationGateway/actions/tool';
import { decideWaitMode } from '../../../nodes/GenerationGateway/actions/video/wait/plan';
import { storedFile } from '../../../nodes/shared/binary';
import {
	NO_CUSTOM_DATA,
	OLDEST_N8N,
	assertSupportedN8n,
	binaryByteSize,
	binaryStoreReaderOf,
	cancelSignalOf,
	chatStreamingOf,
	executionCustomDataOf,
	runsAsToolType,
} from '../../../nodes/shared/n8nFeatures';
import { chatAnswer } from '../../../nodes/shared/sse';

const NODE: INode = {
	id: 'n',
	name: 'Gateway',
	type: 'n8n-nodes-generation-gateway.generationGateway',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

const noop = async () => ({});

describe('the request helpers every operation needs', () => {
	const helpers = { httpRequestWithAuthentication: noop, httpRequest: noop, prepareBinaryData: noop };

	it('present: nothing to say', () => {
		expect(() => assertSupportedN8n({ getNode: () => NODE, helpers } as never)).not.toThrow();
	});

	it.each(Object.keys(helpers))(
		'without %s: a node error naming the n8n version needed, not a TypeError',
		(name) => {
			const partial = { ...helpers, [name]: undefined };
			let thrown: unknown;
			try {
				assertSupportedN8n({ getNode: () => NODE, helpers: partial } as never);
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(NodeOperationError);
			expect((thrown as Error).message).toBe(
				`This node needs n8n ${OLDEST_N8N} or newer: this n8n has no helpers.${name}`,
			);
		},
	);
});

describe('the cancel signal (Stop)', () => {
	it("present: the execution's signal", () => {
		const signal = new AbortController().signal;
		expect(cancelSignalOf({ getExecutionCancelSignal: () => signal })).toBe(signal);
	});
	it('absent: undefined (waits end at their deadline)', () => {
		expect(cancelSignalOf({})).toBeUndefined();
	});
});

describe("tool mode without n8n-workflow's isToolType (before 2.10)", () => {
	it.each([
		['n8n-nodes-generation-gateway.generationGatewayTool', true],
		['n8n-nodes-generation-gateway.generationGateway', false],
		['CUSTOM.generationGatewayTool', true],
	])('%s → %s', (type, expected) => {
		expect(runsAsToolType(type)).toBe(expected);
		expect(runsAsTool({ getNode: () => ({ ...NODE, type }) } as IExecuteFunctions)).toBe(expected);
	});
});

describe('chat streaming', () => {
	it('present and streaming: each piece goes out with the item index', async () => {
		const sent: unknown[][] = [];
		const ctx = {
			continueOnFail: () => false,
			isStreaming: () => true,
			sendChunk: (...args: unknown[]) => sent.push(args),
		};
		expect(chatStreamingOf(ctx)?.isStreaming()).toBe(true);
		const answer = chatAnswer(ctx as never, 2, false);
		expect(answer.on).toBe(true);
		answer.text('Hi');
		await answer.end();
		expect(sent).toEqual([
			['begin', 2, undefined],
			['item', 2, 'Hi'],
			['end', 2, undefined],
		]);
	});

	it('absent (an n8n without isStreaming/sendChunk): the answer is off, the item keeps the whole text', () => {
		expect(chatStreamingOf({ continueOnFail: () => false })).toBeUndefined();
		expect(chatStreamingOf({ isStreaming: () => true })).toBeUndefined();
		expect(chatAnswer({ continueOnFail: () => false } as never, 0, false).on).toBe(false);
	});
});

describe('files read from the binary store', () => {
	const binary = { id: 'filesystem-v2:abc', data: '', mimeType: 'image/png', bytes: 3 } as never;

	it('present: read a chunk at a time', async () => {
		const { Readable } = await import('node:stream');
		const helpers = { getBinaryStream: async () => Readable.from([Buffer.from('abc')]) };
		expect(binaryStoreReaderOf(helpers as never)?.metadata).toBeUndefined();
		const file = await storedFile(helpers as never, binary);
		expect(file?.size).toBe(3);
		const chunks: Uint8Array[] = [];
		for await (const chunk of file!.chunks()) chunks.push(chunk);
		expect(Buffer.concat(chunks).toString()).toBe('abc');
	});

	it('absent: undefined, and the caller reads the file whole', async () => {
		expect(binaryStoreReaderOf({})).toBeUndefined();
		expect(await storedFile({}, binary)).toBeUndefined();
	});
});

describe("a stored file's size in bytes (the tool's fileSize)", () => {
	const png = { mimeType: 'image/png', fileName: 'image-1.png' };

	it('recent n8n: the count n8n put on the binary', async () => {
		expect(
			await binaryByteSize(
				{},
				{ ...png, data: 'filesystem-v2', id: 'filesystem-v2:x', bytes: 80361, fileSize: '80.4 kB' },
			),
		).toBe(80361);
	});

	it("n8n 1.x and 2.0, a file in the binary store: the store's record of it", async () => {
		const ids: string[] = [];
		const helpers = {
			getBinaryMetadata: async (id: string) => {
				ids.push(id);
				return { fileName: 'image-1.png', mimeType: 'image/png', fileSize: 66150 };
			},
		};
		expect(
			await binaryByteSize(helpers as never, {
				...png,
				data: 'filesystem-v2',
				id: 'filesystem-v2:x',
				fileSize: '66.2 kB',
			}),
		).toBe(66150);
		expect(ids).toEqual(['filesystem-v2:x']);
	});

	it('n8n 1.x and 2.0, a file kept in the item: its Base64 data', async () => {
		for (const bytes of ['', 'a', 'ab', 'abc', 'abcd', 'hello, world']) {
			const data = Buffer.from(bytes).toString('base64');
			expect(await binaryByteSize({}, { ...png, data, fileSize: '12 B' })).toBe(
				data ? bytes.length : undefined,
			);
		}
	});

	it('no count anywhere (no record of the file): undefined, never the text', async () => {
		const helpers = {
			getBinaryMetadata: async () => {
				throw new Error('no metadata');
			},
		};
		expect(
			await binaryByteSize(helpers as never, {
				...png,
				data: 'filesystem-v2',
				id: 'filesystem-v2:gone',
				fileSize: '1 kB',
			}),
		).toBeUndefined();
		expect(
			await binaryByteSize({}, { ...png, data: 'filesystem-v2', id: 'filesystem-v2:x', fileSize: '1 kB' }),
		).toBeUndefined();
	});
});

describe("the execution's custom data (callback mode)", () => {
	const store = () => {
		const entries: Record<string, string> = {};
		return {
			getAll: () => ({ ...entries }),
			setAll: (more: Record<string, string>) => Object.assign(entries, more),
		};
	};

	it("recent n8n: the context's own customData", () => {
		const own = store();
		const evaluateExpression = jest.fn();
		expect(executionCustomDataOf({ customData: own, evaluateExpression } as never)).toBe(own);
		expect(evaluateExpression).not.toHaveBeenCalled();
	});

	it('n8n 1.x and 2.0, a run: $execution.customData of the workflow data proxy', () => {
		const viaProxy = store();
		const getWorkflowDataProxy = jest.fn(() => ({ $execution: { customData: viaProxy } }));
		const ctx = { getWorkflowDataProxy, evaluateExpression: () => undefined };
		expect(executionCustomDataOf(ctx as never)).toBe(viaProxy);
		expect(getWorkflowDataProxy).toHaveBeenCalledWith(0);
	});

	it('n8n 1.x and 2.0, a callback (no data proxy): the keys the context hands its expressions', () => {
		const viaKeys = store();
		const ctx = {
			additionalKeys: { $execution: { customData: viaKeys } },
			evaluateExpression: () => undefined,
		};
		expect(executionCustomDataOf(ctx as never)).toBe(viaKeys);
	});

	it("n8n's legacy expression engine: the expression's value", () => {
		const viaExpression = store();
		const evaluateExpression = jest.fn(() => viaExpression);
		expect(executionCustomDataOf({ evaluateExpression } as never)).toBe(viaExpression);
		expect(evaluateExpression).toHaveBeenCalledWith('{{ $execution.customData }}', 0);
	});

	it.each([
		['the expression gives nothing', () => undefined],
		['the expression gives a plain object', () => ({ a: '1' })],
		[
			'the expression fails',
			() => {
				throw new Error('no $execution');
			},
		],
	])('neither (%s): undefined', (_case, evaluate) => {
		expect(executionCustomDataOf({ evaluateExpression: evaluate } as never)).toBeUndefined();
	});

	it('a context whose customData getter throws (no execution data): the next source, else undefined', () => {
		const throwing = {
			get customData() {
				throw new Error('Cannot access customData: runExecutionData is not available in this context');
			},
		};
		const bare = Object.create(throwing, { evaluateExpression: { value: () => undefined } });
		expect(executionCustomDataOf(bare as never)).toBeUndefined();
		const viaKeys = store();
		const ctx = Object.create(throwing, {
			additionalKeys: { value: { $execution: { customData: viaKeys } } },
		});
		expect(executionCustomDataOf(ctx as never)).toBe(viaKeys);
	});

	it('without custom data, callback mode is not chosen: polling, with the reason', () => {
		const url = 'https://n8n.example/webhook-waiting/1';
		expect(decideWaitMode({ setting: 'auto', resumeUrl: url, room: 'customData', tasks: 1 })).toMatchObject({
			mode: 'callback',
		});
		expect(decideWaitMode({ setting: 'callback', resumeUrl: url, room: 'none', tasks: 1 })).toEqual({
			mode: 'polling',
			reason: NO_CUSTOM_DATA,
			fallback: NO_CUSTOM_DATA,
		});
		expect(decideWaitMode({ setting: 'polling', resumeUrl: url, room: 'none', tasks: 1 })).toEqual({
			mode: 'polling',
			reason: 'Wait Mode is Polling',
		});
	});
});
