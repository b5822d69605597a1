/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The agents part's workflows and what it reads back: the tool cases (Image → Generate, Speech →
 * Synthesize, Video → Create, Message → Create), a trigger → AI Agent with the stand-in model and one
 * tool, the model's turns as the stand-in recorded them, the files a tool result lists.
 */
import type { Simulator } from '../../test/simulator';
import type { Checks } from './checks';
import type { ChatModel, ModelRequest } from './chatModel';
import type { N8n } from './n8n';
import { PACKAGE, withCredentials, type Workflow } from './workflows';

export const AGENT = 'AI Agent';
export const MODEL = 'OpenAI Chat Model';
export const MCP_TOKEN = 'e2e-mcp-bearer-token-0123456789';
/** A run of 200 Base64 characters: what a file carried as text would show. */
export const BASE64_RUN = /[A-Za-z0-9+/]{200}/;

export const fromAI = (key: string, description: string) =>
	`={{ $fromAI('${key}', '${description}', 'string') }}`;
export const rl = (value: string) => ({ __rl: true, mode: 'list', value });

export interface ToolCase {
	/** Short name for output folders and check labels. */
	name: string;
	/** The tool node's name in the workflow (n8n derives the tool's name from it). */
	node: string;
	parameters: Record<string, unknown>;
	credential: string;
	/** The gateway endpoint the tool's one request goes to. */
	path: string;
	/** The `$fromAI` key the model fills. */
	key: string;
	/** Where the argument must appear in the request body. */
	sent: (body: Record<string, unknown>) => unknown;
	question: string;
	/** The MIME type of the one file the tool lists; none for a tool that returns no file. */
	file?: RegExp;
	/** What the tool's result must say besides its files. */
	result: (text: string) => boolean;
	resultSays: string;
}

export const CASES: ToolCase[] = [
	{
		name: 'image',
		node: 'Generate Image',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: rl('imagegen-2'),
			prompt: fromAI('prompt', 'What the picture shows'),
			size: '1024x1024',
		},
		credential: 'generationGatewayBearerApi',
		path: '/v1/images/generations',
		key: 'prompt',
		sent: (body) => body.prompt,
		question: 'A lighthouse on a rocky coast at dawn, watercolor',
		file: /^image\/png$/,
		result: (text) => text.includes('"filesNote"'),
		resultSays: 'a note that the file stays in n8n',
	},
	{
		name: 'speech',
		node: 'Synthesize Speech',
		parameters: {
			resource: 'speech',
			operation: 'synthesize',
			model: rl('vendor/audioF-3.1-tts-flash'),
			input: fromAI('text', 'The text to read aloud'),
			voice: 'narrator_v3.1',
			responseFormat: 'mp3',
		},
		credential: 'generationGatewayBearerApi',
		path: '/v1/audio/speech',
		key: 'text',
		sent: (body) => body.input,
		question: 'Good morning. Three new videos were rendered overnight.',
		file: /^audio\/mpeg$/,
		result: (text) => text.includes('"filesNote"'),
		resultSays: 'a note that the file stays in n8n',
	},
	{
		name: 'video',
		node: 'Create Video',
		parameters: {
			resource: 'video',
			operation: 'create',
			model: rl('vidA-2.5'),
			prompt: fromAI('prompt', 'What the video shows'),
			duration: 5,
		},
		credential: 'generationGatewayBearerApi',
		path: '/v1/videos',
		key: 'prompt',
		sent: (body) => body.prompt,
		question: 'A paper boat drifting down a rainy street',
		result: (text) => /"id":"video_[^"]+"/.test(text),
		resultSays: 'the task id',
	},
	{
		name: 'message',
		node: 'Ask Model',
		parameters: {
			resource: 'message',
			operation: 'create',
			model: 'chat-model-1',
			maxTokens: 300,
			turns: { turn: [{ role: 'user', text: fromAI('question', 'The question to answer') }] },
		},
		credential: 'generationGatewayApiKeyApi',
		path: '/v1/messages',
		key: 'question',
		sent: (body) => {
			const content = (body.messages as Array<{ content: unknown }> | undefined)?.[0]?.content;
			return typeof content === 'string'
				? content
				: Array.isArray(content)
					? content.map((p: { text?: string }) => p.text ?? '').join('')
					: content;
		},
		// The simulator's model answers with the question's first sentence.
		question: 'What does the gateway do? It generates images, video, speech and text.',
		result: (text) => text.includes('What does the gateway do?'),
		resultSays: "the gateway model's reply",
	},
];

/** Node type versions that every supported release has. */
export interface Versions {
	agent: number;
	chatTrigger: number;
	mcpTrigger: number | undefined;
}

export interface Run {
	version: string;
	label: string;
	n8n: N8n;
	sim: Simulator;
	model: ChatModel;
	checks: Checks;
	ids: Record<string, string>;
	dir: string;
	versions: Versions;
	/** What the closing note reports per release. */
	seen: Record<string, unknown>;
}

export function toolNode(toolCase: ToolCase, position: [number, number]) {
	return {
		name: toolCase.node,
		type: `${PACKAGE}.generationGatewayTool`,
		typeVersion: 1,
		position,
		parameters: toolCase.parameters,
		credentials: { [toolCase.credential]: { id: '1', name: 'x' } },
	};
}

export function modelNode(position: [number, number]) {
	return {
		name: MODEL,
		type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
		typeVersion: 1.2,
		position,
		parameters: { model: { __rl: true, mode: 'id', value: 'stand-in-1' }, options: {} },
		credentials: { openAiApi: { id: '1', name: 'x' } },
	};
}

/** Trigger → AI Agent, its model and the one tool. */
export function agentWorkflow(
	run: Run,
	name: string,
	trigger: Workflow['nodes'][number],
	agentParameters: Record<string, unknown>,
	toolCase: ToolCase,
): Workflow {
	return withCredentials(
		{
			name,
			nodes: [
				trigger,
				{
					name: AGENT,
					type: '@n8n/n8n-nodes-langchain.agent',
					typeVersion: run.versions.agent,
					position: [260, 0],
					parameters: agentParameters,
				},
				modelNode([180, 220]),
				toolNode(toolCase, [380, 220]),
			],
			connections: {
				[trigger.name]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
				[MODEL]: { ai_languageModel: [[{ node: AGENT, type: 'ai_languageModel', index: 0 }]] },
				[toolCase.node]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		},
		run.ids,
	);
}

/** The model's requests since `before`, and what the agent offered and read in them. */
export function modelTurns(run: Run, before: number) {
	const requests = run.model.requests.slice(before);
	const first = requests[0];
	const toolMessages = requests.flatMap((r) => r.messages.filter((m) => m.role === 'tool'));
	const toolText = (message: ModelRequest['messages'][number] | undefined) =>
		typeof message?.content === 'string'
			? message.content
			: Array.isArray(message?.content)
				? message.content.map((p) => p.text ?? '').join('')
				: '';
	return {
		requests,
		offered: first?.tools.map((t) => t.function?.name ?? '?') ?? [],
		schema: first?.tools[0]?.function?.parameters,
		toolCalls: requests.filter((r) => r.reply.toolCall).map((r) => r.reply.toolCall!),
		toolResult: toolText(toolMessages.at(-1)),
		answer: requests.at(-1)?.reply.text,
	};
}

/** What a tool result lists as files: each `{fileName, mimeType, fileSize}` it names, in order. */
export function listedFiles(
	text: string,
): Array<{ fileName?: string; mimeType?: string; fileSize?: unknown; url?: string }> {
	const files: Array<{ fileName?: string; mimeType?: string; fileSize?: unknown; url?: string }> = [];
	const visit = (value: unknown): void => {
		if (typeof value === 'string') {
			const trimmed = value.trim();
			if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
				try {
					visit(JSON.parse(trimmed));
				} catch {
					// not JSON
				}
			}
			return;
		}
		if (Array.isArray(value)) return value.forEach(visit);
		if (value && typeof value === 'object') {
			const object = value as Record<string, unknown>;
			if (Array.isArray(object.files)) files.push(...(object.files as typeof files));
			else Object.values(object).forEach(visit);
		}
	};
	visit(text);
	return files;
}
