/**
 * The node as an AI Agent tool, the way n8n builds one. A test agent
 * gets the tool through n8n-core's getInputConnectionData → createNodeAsTool
 * (the argument schema comes from the node's `$fromAI()` parameters) and calls
 * it; the call runs the node against the simulator. The agent reads JSON with
 * ids, URLs and a `files` list (name, MIME type, size), never Base64; a
 * refusal comes back as a readable error item.
 */
import { BinaryDataService } from 'n8n-core';

import { agentWorkflow, registerToolTypes, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import type { LooseJson } from '../harness/json';
import { useVirtualTime } from '../harness/virtual-time';
import { FILES_NOTE_NO_URL, FILES_NOTE_WITH_URL } from '../../nodes/GenerationGateway/actions/tool';

useVirtualTime();

const fromAI = (key: string, description: string, type = 'string') =>
	`={{ $fromAI('${key}', '${description}', '${type}') }}`;

/** Image → Generate with the prompt left to the agent. */
const imageTool = {
	resource: 'image',
	operation: 'generate',
	model: { __rl: true, mode: 'list', value: 'imagegen-2' },
	prompt: fromAI('prompt', 'What the picture shows'),
};

let sim: Simulator;
beforeAll(async () => {
	registerToolTypes();
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

async function callTool(
	parameters: Record<string, unknown>,
	toolArgs: object,
	credential = 'generationGatewayBearerApi',
) {
	const result = await runWorkflow(agentWorkflow(parameters, credential), {
		credentials: sim.credentials(),
		input: [{ json: { toolArgs } }],
	});
	expect(result.status).toBe('success');
	return result.output('Agent')[0].json as {
		toolName: string;
		arguments: string[];
		returned?: string;
		thrown?: string;
	};
}

describe('Generation Gateway as an AI Agent tool', () => {
	it('Image → Generate: the $fromAI arguments reach the request; the agent reads the file list, no Base64', async () => {
		const call = await callTool(
			{
				...imageTool,
				size: '1024x1024',
				n: 1,
			},
			{ prompt: 'a lighthouse at dawn' },
		);
		expect(call.toolName).toBe('Gateway_Tool');
		expect(call.arguments).toEqual(['prompt']);
		expect(call.thrown).toBeUndefined();
		const sent = sim.requestsTo('/v1/images/generations').slice(-1)[0].body as Record<string, unknown>;
		expect(sent).toMatchObject({ model: 'imagegen-2', prompt: 'a lighthouse at dawn', size: '1024x1024' });
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		expect(answer.files).toEqual([
			{
				binaryProperty: 'data',
				fileName: 'image-1.png',
				mimeType: 'image/png',
				fileSize: expect.any(Number),
			},
		]);
		expect(answer.files[0].fileSize).toBeGreaterThan(1000);
		expect(answer.data).toEqual([{ binaryProperty: 'data' }]);
		// The gateway returned Base64 only: no address to give, and the agent is told the file stays in n8n.
		expect(answer.filesNote).toBe(FILES_NOTE_NO_URL);
		expect(call.returned!).not.toMatch(/[A-Za-z0-9+/]{200}/); // no Base64 text anywhere
	});

	it('Image → Generate with Response Format URL: each file entry carries the gateway URL of that image', async () => {
		const call = await callTool(
			{
				resource: 'image',
				operation: 'generate',
				model: { __rl: true, mode: 'list', value: 'legacyimg-2' },
				prompt: fromAI('prompt', 'What the picture shows'),
				size: '256x256',
				n: 2,
				options: { response_format: 'url' },
			},
			{ prompt: 'two boats' },
		);
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		const urls = (answer.data as Array<{ url: string }>).map((d) => d.url);
		expect(urls).toHaveLength(2);
		expect(urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/cdn\/images\/.+\.png$/);
		expect(answer.files).toEqual([
			{
				binaryProperty: 'data',
				fileName: 'image-1.png',
				mimeType: 'image/png',
				fileSize: expect.any(Number),
				url: urls[0],
			},
			{
				binaryProperty: 'data_1',
				fileName: 'image-2.png',
				mimeType: 'image/png',
				fileSize: expect.any(Number),
				url: urls[1],
			},
		]);
		expect(answer.filesNote).toBe(FILES_NOTE_WITH_URL);
		expect(call.returned!).not.toMatch(/[A-Za-z0-9+/]{200}/);
	});

	it('Speech → Synthesize: the agent sees the audio file’s name, MIME type and size', async () => {
		const call = await callTool(
			{
				resource: 'speech',
				operation: 'synthesize',
				model: { __rl: true, mode: 'list', value: 'vendor/audioF-3.1-tts-flash' },
				input: fromAI('text', 'The text to read aloud'),
				voice: 'narrator_v3.1',
				responseFormat: 'mp3',
			},
			{ text: 'Hello from the tool.' },
		);
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		expect(answer.files).toHaveLength(1);
		expect(answer.files[0]).toMatchObject({
			binaryProperty: 'data',
			fileName: 'speech.mp3',
			mimeType: 'audio/mpeg',
		});
		expect(answer.files[0].url).toBeUndefined(); // the gateway sends the audio itself, no address
		expect(answer.filesNote).toBe(FILES_NOTE_NO_URL);
		expect(call.returned!).not.toMatch(/[A-Za-z0-9+/]{200}/);
	});

	it('Video → Create and Wait polls to the end and returns the task id, the video URL and the file', async () => {
		const call = await callTool(
			{
				resource: 'video',
				operation: 'createAndWait',
				model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
				prompt: fromAI('prompt', 'What the video shows'),
				duration: 5,
				waitOptions: { download: true },
			},
			{ prompt: 'waves' },
		);
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		expect(answer.id).toMatch(/^video_/);
		expect(answer.status).toBe('completed');
		expect(answer.waitInfo.mode).toBe('polling');
		expect(answer.data.url).toBe(`${sim.url}/files/videos/${answer.id}.mp4`);
		expect(answer.files).toEqual([
			{
				binaryProperty: 'data',
				fileName: expect.any(String),
				mimeType: 'video/mp4',
				fileSize: expect.any(Number),
				url: answer.data.url,
			},
		]);
		expect(answer.filesNote).toBe(FILES_NOTE_WITH_URL);
	});

	it('as on n8n 1.x and 2.0 (no byte count on the binary, only a text such as "64.6 kB"): fileSize is still the bytes, from the binary store', async () => {
		// n8n-core before about 2.10 sets only the text fileSize when it stores a file.
		const store = BinaryDataService.prototype.store;
		BinaryDataService.prototype.store = async function (
			this: BinaryDataService,
			...args: Parameters<typeof store>
		) {
			const stored = await store.apply(this, args);
			delete stored.bytes;
			return stored;
		};
		let call: Awaited<ReturnType<typeof callTool>>;
		try {
			call = await callTool({ ...imageTool, size: '1024x1024' }, { prompt: 'a lighthouse at dusk' });
		} finally {
			BinaryDataService.prototype.store = store;
		}
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		expect(answer.files).toEqual([
			{
				binaryProperty: 'data',
				fileName: 'image-1.png',
				mimeType: 'image/png',
				fileSize: expect.any(Number),
			},
		]);
		expect(answer.files[0].fileSize).toBeGreaterThan(1000);
	});

	it('Video → Create returns the task id at once: no files, no note', async () => {
		const call = await callTool(
			{
				resource: 'video',
				operation: 'create',
				model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
				prompt: fromAI('prompt', 'What the video shows'),
				duration: 5,
			},
			{ prompt: 'a harbour' },
		);
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		expect(answer.id).toMatch(/^video_/);
		expect(answer.files).toBeUndefined();
		expect(answer.filesNote).toBeUndefined();
		const sent = sim.requestsTo('/v1/videos', 'POST').slice(-1)[0].body as Record<string, unknown>;
		expect(sent).toMatchObject({ model: 'vidA-2.5', prompt: 'a harbour' });
	});

	it('a gateway error comes back as a readable error with its status and hint, not a crash', async () => {
		sim.inject({
			path: '/v1/images/generations',
			method: 'POST',
			fault: {
				kind: 'status',
				status: 402,
				body: {
					error: {
						message: 'Insufficient balance',
						type: 'insufficient_quota',
						code: 'insufficient_quota',
						param: '',
					},
				},
			},
		});
		const call = await callTool(
			{
				...imageTool,
				size: '1024x1024',
			},
			{ prompt: 'a lighthouse' },
		);
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		// The gateway's message, status and type reach the agent (their wording is errors.ts's).
		expect(answer.error).toBe('Insufficient balance');
		expect(answer.errorDescription).toContain('402');
		expect(answer.errorDescription).toContain('insufficient_quota');
	});

	it('an Input Binary Field has nothing to read in a tool call (its item is the arguments): a readable refusal', async () => {
		const before = sim.requestsTo('/v1/videos', 'POST').length;
		const call = await callTool(
			{
				resource: 'video',
				operation: 'create',
				model: { __rl: true, mode: 'list', value: 'vidA-2.5' },
				prompt: fromAI('prompt', 'What the video shows'),
				duration: 5,
				firstFrameSource: 'binary',
				firstFrameBinary: 'data',
			},
			{ prompt: 'waves' },
		);
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		expect(answer.error).toBe(
			'First Frame Input Binary Field: the input item has no binary property "data" (it has none)',
		);
		expect(sim.requestsTo('/v1/videos', 'POST').length).toBe(before);
	});

	it('a refusal comes back as a readable error, and nothing is sent', async () => {
		const before = sim.requestsTo('/v1/images/generations').length;
		const call = await callTool(
			{
				...imageTool,
				size: fromAI('size', 'WIDTHxHEIGHT'),
			},
			{ prompt: 'x', size: '1600x512' },
		);
		expect(call.thrown).toBeUndefined();
		const [answer] = JSON.parse(call.returned!) as Array<LooseJson>;
		expect(answer.error).toMatch(/^Size: /);
		expect(answer.errorDescription).toMatch(/not sent to the gateway/);
		expect(sim.requestsTo('/v1/images/generations').length).toBe(before);
	});
});
