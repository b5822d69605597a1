/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * A stand-in OpenAI-compatible chat model for the agents part, on loopback:
 * `POST /v1/chat/completions` (JSON or streamed as server-sent events, as
 * OpenAI streams), `GET /v1/models`. It behaves like a model that always uses
 * the tool it is offered:
 *
 *   - the conversation has no tool result after the user's last message and
 *     tools are offered: it calls the first tool once, every string argument
 *     of the tool's schema set to the user's message;
 *   - a tool result follows the user's message: it answers
 *     `ANSWER_PREFIX` + the tool result's text, verbatim;
 *   - no tool offered: it answers `NO_TOOL`.
 *
 * Every request is recorded (the tools offered, the messages, whether it
 * streamed), so the suite can say what the agent offered and read.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MODEL_KEY = 'sk-e2e-stand-in-model';
export const ANSWER_PREFIX = 'The tool returned: ';
export const NO_TOOL = 'No tool was offered.';

interface ToolSpec {
	type?: string;
	function?: {
		name?: string;
		description?: string;
		parameters?: { properties?: Record<string, { type?: string }> };
	};
}

interface Message {
	role: string;
	content?: string | Array<{ type?: string; text?: string }> | null;
	tool_calls?: unknown[];
	tool_call_id?: string;
}

export interface ModelRequest {
	path: string;
	authorized: boolean;
	stream: boolean;
	model?: string;
	tools: ToolSpec[];
	messages: Message[];
	/** What the stand-in did: called a tool (its name and arguments) or answered (the text). */
	reply: { toolCall?: { name: string; arguments: Record<string, unknown> }; text?: string };
}

export interface ChatModel {
	url: string;
	requests: ModelRequest[];
	stop(): Promise<void>;
}

const text = (content: Message['content']): string =>
	typeof content === 'string'
		? content
		: Array.isArray(content)
			? content.map((part) => part.text ?? '').join('')
			: '';

function decide(tools: ToolSpec[], messages: Message[]): ModelRequest['reply'] {
	const lastUser = messages.map((m) => m.role).lastIndexOf('user');
	const question = lastUser >= 0 ? text(messages[lastUser].content) : '';
	const toolResult = messages.slice(lastUser + 1).find((m) => m.role === 'tool');
	if (toolResult) return { text: ANSWER_PREFIX + text(toolResult.content) };
	const tool = tools[0]?.function;
	if (!tool?.name) return { text: NO_TOOL };
	const args: Record<string, unknown> = {};
	for (const [key, schema] of Object.entries(tool.parameters?.properties ?? {})) {
		if (schema.type === 'string' || schema.type === undefined) args[key] = question;
	}
	return { toolCall: { name: tool.name, arguments: args } };
}

async function body(req: IncomingMessage): Promise<string> {
	const parts: Buffer[] = [];
	for await (const part of req) parts.push(part as Buffer);
	return Buffer.concat(parts).toString('utf8');
}

function completion(model: string, reply: ModelRequest['reply'], callId: string) {
	const message = reply.toolCall
		? {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: callId,
						type: 'function',
						function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
					},
				],
			}
		: { role: 'assistant', content: reply.text };
	return {
		id: `chatcmpl-${randomUUID()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message, finish_reason: reply.toolCall ? 'tool_calls' : 'stop', logprobs: null }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The same reply as OpenAI's chunks: the tool call's arguments and the answer in several pieces. */
function chunks(model: string, reply: ModelRequest['reply'], callId: string, usage: boolean): unknown[] {
	const id = `chatcmpl-${randomUUID()}`;
	const created = Math.floor(Date.now() / 1000);
	const chunk = (delta: unknown, finish: string | null = null) => ({
		id,
		object: 'chat.completion.chunk',
		created,
		model,
		choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
	});
	const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
	const pieces = (s: string) => s.match(/[\s\S]{1,24}/g) ?? [''];
	if (reply.toolCall) {
		out.push(
			chunk({
				tool_calls: [
					{ index: 0, id: callId, type: 'function', function: { name: reply.toolCall.name, arguments: '' } },
				],
			}),
		);
		for (const piece of pieces(JSON.stringify(reply.toolCall.arguments)))
			out.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
		out.push(chunk({}, 'tool_calls'));
	} else {
		for (const piece of pieces(reply.text ?? '')) out.push(chunk({ content: piece }));
		out.push(chunk({}, 'stop'));
	}
	if (usage)
		out.push({
			id,
			object: 'chat.completion.chunk',
			created,
			model,
			choices: [],
			usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
		});
	return out;
}

export async function startChatModel(): Promise<ChatModel> {
	const requests: ModelRequest[] = [];
	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const path = new URL(req.url ?? '/', 'http://x').pathname;
		const authorized = req.headers.authorization === `Bearer ${MODEL_KEY}`;
		if (req.method === 'GET' && /\/models$/.test(path)) {
			res.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify(
					authorized
						? { object: 'list', data: [{ id: 'stand-in-1', object: 'model', created: 0, owned_by: 'e2e' }] }
						: { error: { message: 'bad key' } },
				),
			);
			return;
		}
		if (req.method !== 'POST' || !/\/chat\/completions$/.test(path)) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
			return;
		}
		const parsed = JSON.parse(await body(req)) as {
			model?: string;
			messages?: Message[];
			tools?: ToolSpec[];
			stream?: boolean;
			stream_options?: { include_usage?: boolean };
		};
		const tools = parsed.tools ?? [];
		const messages = parsed.messages ?? [];
		const reply = decide(tools, messages);
		requests.push({
			path,
			authorized,
			stream: Boolean(parsed.stream),
			model: parsed.model,
			tools,
			messages,
			reply,
		});
		if (!authorized) {
			res.writeHead(401, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: 'Incorrect API key', type: 'invalid_request_error' } }));
			return;
		}
		const model = parsed.model ?? 'stand-in-1';
		const callId = `call_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
		if (!parsed.stream) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(completion(model, reply, callId)));
			return;
		}
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		for (const chunk of chunks(model, reply, callId, Boolean(parsed.stream_options?.include_usage)))
			res.write(`data: ${JSON.stringify(chunk)}\n\n`);
		res.end('data: [DONE]\n\n');
	};
	const server: Server = createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: { message: error.message } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
