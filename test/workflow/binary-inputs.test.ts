/**
 * Media inputs from the item's binaries, in real executions (n8n-core
 * engine, package from dist/, real HTTP to the simulator, which checks every
 * data URL and base64 block). Video frames and references as data URLs,
 * message image/document blocks, cached-content inline data parts, and the
 * refusals (missing binary, wrong MIME type) that name the field before
 * anything is sent.
 */
import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { gatewayWorkflow, runWorkflow } from '../harness';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import type { LooseJson } from '../harness/json';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n');
const MP3 = Buffer.from('ID3\u0003\u0000fake mp3 narration');
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12, 7)]);

const file = (bytes: Buffer, mimeType: string, fileName: string): IBinaryData => ({
	data: bytes.toString('base64'),
	mimeType,
	fileName,
	fileExtension: fileName.split('.').pop(),
});
const itemWith = (binary: Record<string, IBinaryData>): INodeExecutionData[] => [{ json: {}, binary }];
const dataUrl = (bytes: Buffer, mime: string) => `data:${mime};base64,${bytes.toString('base64')}`;

function gateway(resource: string, parameters: Record<string, unknown>, credential: string): WorkflowJson {
	return gatewayWorkflow({
		nodeName: 'Gateway',
		parameters: { resource, ...parameters },
		credentials: { [credential]: { id: '1', name: 'Gateway' } },
	});
}
const video = (parameters: Record<string, unknown>) =>
	gateway(
		'video',
		{
			operation: 'create',
			prompt: 'the picture comes alive',
			duration: 5,
			...parameters,
			model: { __rl: true, mode: 'list', value: parameters.model ?? 'vidA-2.5' },
		},
		'generationGatewayBearerApi',
	);

let sim: Simulator;
beforeAll(async () => {
	sim = await startSimulator();
});
afterAll(async () => {
	await sim.stop();
});

const lastBody = (path: string) => sim.requestsTo(path, 'POST').slice(-1)[0]?.body as LooseJson;

describe('Video → Create with binary inputs', () => {
	it('sends first and last frame from binaries as data URLs in image_url', async () => {
		const result = await runWorkflow(
			video({
				firstFrameSource: 'binary',
				firstFrameBinary: 'data',
				lastFrameSource: 'binary',
				lastFrameBinary: 'end',
			}),
			{
				credentials: sim.credentials(),
				input: itemWith({ data: file(PNG, 'image/png', 'a.png'), end: file(JPEG, 'image/jpeg', 'b.jpg') }),
			},
		);
		expect(result.status).toBe('success');
		expect(result.output('Gateway')[0].json.id).toMatch(/^video_/);
		expect(lastBody('/v1/videos').frame_images).toEqual([
			{ image_url: dataUrl(PNG, 'image/png'), frame_type: 'first_frame' },
			{ image_url: dataUrl(JPEG, 'image/jpeg'), frame_type: 'last_frame' },
		]);
	});

	it('sends references from binaries (image, video, audio) next to a URL reference', async () => {
		const result = await runWorkflow(
			video({
				model: 'vidD-h3',
				references: {
					reference: [
						{ kind: 'image', source: 'binary', binaryProperty: 'picture' },
						{ kind: 'video', source: 'binary', binaryProperty: 'clip' },
						{ kind: 'audio', source: 'binary', binaryProperty: 'narration' },
						{ kind: 'image', source: 'url', url: 'https://img.example.com/b.png' },
					],
				},
			}),
			{
				credentials: sim.credentials(),
				input: itemWith({
					picture: file(PNG, 'image/png', 'p.png'),
					clip: file(MP4, 'video/mp4', 'c.mp4'),
					narration: file(MP3, 'audio/mpeg', 'speech.mp3'),
				}),
			},
		);
		expect(result.status).toBe('success');
		expect(lastBody('/v1/videos').input_references).toEqual([
			{ type: 'image_url', image_url: dataUrl(PNG, 'image/png') },
			{ type: 'video_url', video_url: dataUrl(MP4, 'video/mp4') },
			{ type: 'audio_url', audio_url: dataUrl(MP3, 'audio/mpeg') },
			{ type: 'image_url', image_url: 'https://img.example.com/b.png' },
		]);
	});

	it.each([
		[
			'a missing first frame binary',
			{ firstFrameSource: 'binary', firstFrameBinary: 'photo' },
			'First Frame Input Binary Field: the input item has no binary property "photo" (it has data)',
		],
		[
			'audio as the first frame',
			{ firstFrameSource: 'binary', firstFrameBinary: 'data' },
			'First Frame Input Binary Field: binary property "data" is audio/mpeg, but an image is needed',
		],
		[
			'a missing last frame binary',
			{ firstFrameUrl: 'https://img.example.com/a.png', lastFrameSource: 'binary', lastFrameBinary: 'end' },
			'Last Frame Input Binary Field: the input item has no binary property "end" (it has data)',
		],
		[
			'audio as an image reference',
			{ references: { reference: [{ kind: 'image', source: 'binary', binaryProperty: 'data' }] } },
			'References (#1 Input Binary Field): binary property "data" is audio/mpeg, but an image is needed',
		],
		[
			'audio as a video reference (the second row)',
			{
				model: 'vidD-h3',
				references: {
					reference: [
						{ kind: 'audio', source: 'binary', binaryProperty: 'data' },
						{ kind: 'video', source: 'binary', binaryProperty: 'data' },
					],
				},
			},
			'References (#2 Input Binary Field): binary property "data" is audio/mpeg, but a video is needed',
		],
		[
			'a missing reference binary',
			{
				model: 'vidD-h3',
				references: { reference: [{ kind: 'audio', source: 'binary', binaryProperty: 'narration' }] },
			},
			'References (#1 Input Binary Field): the input item has no binary property "narration" (it has data)',
		],
	])('refuses %s before sending', async (_case, parameters, message) => {
		const before = sim.requestsTo('/v1/videos', 'POST').length;
		const result = await runWorkflow(video(parameters), {
			credentials: sim.credentials(),
			input: itemWith({ data: file(MP3, 'audio/mpeg', 'speech.mp3') }),
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(message);
		expect(sim.requestsTo('/v1/videos', 'POST').length).toBe(before);
	});
});

describe('Message → Create with binary inputs', () => {
	const message = (turns: object[]) =>
		gateway(
			'message',
			{ operation: 'create', model: 'chat-model-1', turns: { turn: turns } },
			'generationGatewayApiKeyApi',
		);

	it('sends images and PDFs as base64 blocks of the user turn, before its text', async () => {
		const result = await runWorkflow(
			message([{ role: 'user', text: 'Compare them. Be brief.', binaryProperties: 'data, doc' }]),
			{
				credentials: sim.credentials(),
				input: itemWith({
					data: file(PNG, 'image/png', 'a.png'),
					doc: file(PDF, 'application/pdf', 'r.pdf'),
				}),
			},
		);
		expect(result.status).toBe('success');
		expect(lastBody('/v1/messages').messages).toEqual([
			{
				role: 'user',
				content: [
					{
						type: 'image',
						source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') },
					},
					{
						type: 'document',
						source: { type: 'base64', media_type: 'application/pdf', data: PDF.toString('base64') },
					},
					{ type: 'text', text: 'Compare them. Be brief.' },
				],
			},
		]);
	});

	it.each([
		[
			'an audio file',
			[{ role: 'user', text: 'x', binaryProperties: 'data' }],
			'Turns (#1 Binary Properties): binary property "data" is audio/mpeg, but a PNG, JPEG, WebP or GIF image or a PDF document is needed',
		],
		[
			'a file on an assistant turn',
			[
				{ role: 'user', text: 'x' },
				{ role: 'assistant', text: 'y', binaryProperties: 'data' },
			],
			'Turns (#2 Binary Properties): only user turns can attach images and documents',
		],
		[
			'a missing binary',
			[{ role: 'user', text: 'x', binaryProperties: 'scan' }],
			'Turns (#1 Binary Properties): the input item has no binary property "scan" (it has data)',
		],
	])('refuses %s before sending', async (_case, turns, text) => {
		const before = sim.requestsTo('/v1/messages').length;
		const result = await runWorkflow(message(turns), {
			credentials: sim.credentials(),
			input: itemWith({ data: file(MP3, 'audio/mpeg', 'speech.mp3') }),
		});
		expect(result.error?.message).toBe(text);
		expect(sim.requestsTo('/v1/messages').length).toBe(before);
	});
});

describe('Cached Content → Create with binary inputs', () => {
	const cache = (turns: object[]) =>
		gateway(
			'cachedContent',
			{ operation: 'create', model: 'native-model-1', turns: { turn: turns } },
			'generationGatewayNativeKeyApi',
		);

	it('sends a PDF as an inline data part after the turn text', async () => {
		const result = await runWorkflow(
			cache([{ role: 'user', text: 'The report:', binaryProperties: 'report' }]),
			{ credentials: sim.credentials(), input: itemWith({ report: file(PDF, 'application/pdf', 'r.pdf') }) },
		);
		expect(result.status).toBe('success');
		expect(String(result.output('Gateway')[0].json.name)).toMatch(/^cachedContents\//);
		expect(lastBody('/v1beta/cachedContents').contents).toEqual([
			{
				role: 'user',
				parts: [
					{ text: 'The report:' },
					{ inlineData: { mimeType: 'application/pdf', data: PDF.toString('base64') } },
				],
			},
		]);
	});

	it('a turn of files only is sent without a text part', async () => {
		const result = await runWorkflow(cache([{ role: 'user', text: '', binaryProperties: 'report' }]), {
			credentials: sim.credentials(),
			input: itemWith({ report: file(PDF, 'application/pdf', 'r.pdf') }),
		});
		expect(result.status).toBe('success');
		expect(lastBody('/v1beta/cachedContents').contents).toEqual([
			{
				role: 'user',
				parts: [{ inlineData: { mimeType: 'application/pdf', data: PDF.toString('base64') } }],
			},
		]);
	});

	it.each([
		[
			'a missing binary',
			{ data: file(PDF, 'application/pdf', 'r.pdf') },
			'Turns (#1 Binary Properties): the input item has no binary property "report" (it has data)',
		],
		[
			'a file of unknown type',
			{ report: { ...file(Buffer.from('just bytes'), '', 'r.bin'), mimeType: '' } },
			'Turns (#1 Binary Properties): binary property "report" is application/octet-stream, but a file with a MIME type is needed',
		],
	])('refuses %s before sending', async (_case, binary, message) => {
		const before = sim.requestsTo('/v1beta/cachedContents').length;
		const result = await runWorkflow(cache([{ role: 'user', text: 'x', binaryProperties: 'report' }]), {
			credentials: sim.credentials(),
			input: itemWith(binary),
		});
		expect(result.error?.message).toBe(message);
		expect(sim.requestsTo('/v1beta/cachedContents').length).toBe(before);
	});
});
