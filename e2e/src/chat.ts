/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Streaming into n8n's chat, in a real n8n: a public Chat Trigger (Embedded
 * Chat, Response Mode "Streaming") → Generation Gateway Message → Create
 * (Stream option left out), activated. A chat message posted to the trigger's
 * production URL is answered with n8n's streamed HTTP answer, one JSON object
 * a line (`begin`, `item`…, `end`, with the node in `metadata`), as n8n's chat
 * widget reads it: the items come in order, joined equal to the node's text
 * in n8n's execution record.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';

import { outputOf, webhookAnswer } from './n8n';
import { outputDir } from './proc';
import { PACKAGE, withCredentials, type Context, type Workflow } from './workflows';

const TRIGGER = 'When chat message received';
const NODE = 'Answer';

export interface Chunk {
	type: string;
	content?: string;
	metadata?: {
		nodeName?: string;
		nodeId?: string;
		itemIndex?: number;
		runIndex?: number;
		timestamp?: number;
	};
}

export interface StreamedAnswer {
	status: number;
	contentType: string;
	/** Each JSON line of the answer, with when it arrived (ms after the request was sent). */
	lines: Array<{ at: number; chunk: Chunk }>;
	/** How many pieces the HTTP body arrived in. */
	reads: number;
	raw: string;
}

const insecure = new Agent({ rejectUnauthorized: false, keepAlive: false });

/** POSTs JSON and reads the answer line by line as it streams in (n8n's certificate is made at run time). */
export async function postStreaming(
	url: string,
	body: unknown,
	timeoutMs = 120_000,
): Promise<StreamedAnswer> {
	const payload = Buffer.from(JSON.stringify(body));
	const started = Date.now();
	return await new Promise<StreamedAnswer>((resolve, reject) => {
		const req = request(
			new URL(url),
			{
				method: 'POST',
				agent: insecure,
				timeout: timeoutMs,
				headers: {
					'content-type': 'application/json',
					'content-length': String(payload.length),
					accept: 'text/plain',
				},
			},
			(res) => {
				const answer: StreamedAnswer = {
					status: res.statusCode ?? 0,
					contentType: String(res.headers['content-type'] ?? ''),
					lines: [],
					reads: 0,
					raw: '',
				};
				let pending = '';
				const line = (text: string) => {
					if (!text.trim()) return;
					try {
						answer.lines.push({ at: Date.now() - started, chunk: JSON.parse(text) as Chunk });
					} catch {
						answer.lines.push({ at: Date.now() - started, chunk: { type: 'not-json', content: text } });
					}
				};
				res.setEncoding('utf8');
				res.on('data', (piece: string) => {
					answer.reads++;
					answer.raw += piece;
					const parts = (pending + piece).split('\n');
					pending = parts.pop() ?? '';
					parts.forEach(line);
				});
				res.on('end', () => {
					line(pending);
					resolve(answer);
				});
				res.on('error', reject);
			},
		);
		req.on('timeout', () => req.destroy(new Error(`POST ${url}: no complete answer in time`)));
		req.on('error', reject);
		req.end(payload);
	});
}

/** A public Chat Trigger that answers in a stream (response mode "Streaming"), at `webhookId`. */
export function streamingChatTrigger(
	name: string,
	webhookId: string,
	typeVersion: number,
): Workflow['nodes'][number] {
	return {
		name,
		type: '@n8n/n8n-nodes-langchain.chatTrigger',
		typeVersion,
		position: [0, 0],
		webhookId,
		parameters: {
			public: true,
			mode: 'webhook',
			authentication: 'none',
			options: { responseMode: 'streaming' },
		},
	};
}

function chatWorkflow(ids: Record<string, string>, webhookId: string): Workflow {
	return withCredentials(
		{
			name: 'Chat streaming: Chat Trigger → Message Create',
			nodes: [
				streamingChatTrigger(TRIGGER, webhookId, 1.4),
				{
					name: NODE,
					type: `${PACKAGE}.generationGateway`,
					typeVersion: 1,
					position: [240, 0],
					parameters: {
						resource: 'message',
						operation: 'create',
						model: 'chat-model-1',
						maxTokens: 400,
						turns: { turn: [{ role: 'user', text: '={{ $json.chatInput }}' }] },
					},
					credentials: { generationGatewayApiKeyApi: { id: '1', name: 'x' } },
				},
			],
			connections: { [TRIGGER]: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		},
		ids,
	);
}

export async function runChat(ctx: Context): Promise<void> {
	const { n8n, sim, checks } = ctx;
	const name = 'chat-streaming';
	const dir = join(outputDir, ctx.label, name);
	mkdirSync(dir, { recursive: true });
	const webhookId = randomUUID();
	const workflow = chatWorkflow(ctx.credentials, webhookId);
	const created = await n8n.createWorkflow(workflow);
	await n8n.activate(created.id, created.versionId);
	const url = `${n8n.url}/webhook/${webhookId}/chat`;
	const question =
		'Streaming answers arrive in the chat piece by piece, in order, as the gateway sends them, ünïcödé and 世界 included! Then this is not part of the answer.';
	const expected = question.split(/(?<=[.!?])\s/)[0];
	// The simulator writes its SSE in 16-byte pieces: events and characters split across reads.
	const chunkBytes = sim.sseChunkBytes;
	sim.sseChunkBytes = 16;
	const messagesBefore = sim.requestsTo('/v1/messages').length;
	let answer: StreamedAnswer;
	try {
		answer = await webhookAnswer('the chat webhook to be registered', () =>
			postStreaming(url, {
				action: 'sendMessage',
				sessionId: `e2e-${randomUUID()}`,
				chatInput: question,
			}),
		);
	} finally {
		sim.sseChunkBytes = chunkBytes;
	}
	writeFileSync(join(dir, 'answer.ndjson'), answer.raw);
	checks.equal(`${name}: the chat webhook answers 200`, answer.status, 200);
	checks.note(
		`${name}: ${answer.lines.length} JSON lines in ${answer.reads} reads over ${answer.lines.at(-1)?.at ?? 0} ms (content-type ${answer.contentType}); e2e-output/${ctx.label}/${name}/answer.ndjson`,
	);
	const chunks = answer.lines.map((l) => l.chunk).filter((c) => c.type !== 'keepalive');
	const kinds = chunks.map((c) => c.type);
	checks.ok(
		`${name}: n8n streamed begin, item…, end`,
		kinds[0] === 'begin' &&
			kinds.at(-1) === 'end' &&
			kinds.slice(1, -1).every((k) => k === 'item') &&
			kinds.length >= 4,
		kinds.join(' '),
	);
	checks.ok(
		`${name}: every chunk names the Message node, item 0, run 0`,
		chunks.every(
			(c) => c.metadata?.nodeName === NODE && c.metadata.itemIndex === 0 && c.metadata.runIndex === 0,
		),
	);
	const stamps = chunks.map((c) => c.metadata?.timestamp ?? 0);
	checks.ok(
		`${name}: the chunks were sent in order (timestamps never go back)`,
		stamps.every((t, i) => i === 0 || t >= stamps[i - 1]),
	);
	const items = chunks.filter((c) => c.type === 'item').map((c) => c.content ?? '');
	const joined = items.join('');
	checks.equal(`${name}: the item chunks joined are the answer`, joined, expected, { chunks: items.length });

	const executions = await n8n.settledExecutions(created.id);
	checks.equal(`${name}: one execution`, executions.length, 1);
	const record = await n8n.waitExecution(executions[0].id, 60_000);
	checks.equal(`${name}: execution status`, record.status, 'success', { execution: record.id });
	const output = outputOf(record, NODE);
	writeFileSync(join(dir, 'answer.json'), JSON.stringify(output, null, 2));
	checks.equal(`${name}: the node's item text equals the streamed text`, output[0]?.json.text, joined);
	const requests = sim.requestsTo('/v1/messages').slice(messagesBefore);
	checks.ok(
		`${name}: the node asked the gateway for a stream by itself (Stream option left out)`,
		requests.length === 1 && (requests[0].body as { stream?: unknown }).stream === true,
		requests.map((r) => (r.body as { stream?: unknown }).stream),
	);
}
