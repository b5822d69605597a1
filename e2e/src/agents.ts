/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The agents part: the package's tool as people reach it in n8n, on every
 * supported release (2.41.1 and every older folder of e2e/n8n/), one n8n start
 * per release, against the gateway simulator and a stand-in OpenAI-compatible
 * chat model (chatModel.ts) that calls the one tool it is offered and then
 * answers with the tool's result:
 *
 *   agent   Webhook → AI Agent (OpenAI Chat Model 1.2 on the stand-in) → the
 *           package's tool with `$fromAI()`, for Image → Generate, Speech →
 *           Synthesize, Video → Create and Message → Create: one tool offered
 *           with the `$fromAI` key, the model's argument in the gateway's one
 *           request, the agent's answer built on the tool's result, files
 *           listed (name, MIME type, size), never Base64;
 *   chat    the same agent behind a public Chat Trigger in Response Mode
 *           Streaming: the chat gets the agent's answer, streamed;
 *   mcp     MCP Server Trigger with Bearer authentication and the tool (Image
 *           → Generate, Response Format URL), called by an MCP client
 *           (@modelcontextprotocol/sdk) over streamable HTTP and over SSE: one
 *           tool listed with the `$fromAI` schema, a call returns the result
 *           text with the gateway's URL of the image, which the client opens;
 *           calls without the token (or with a wrong one) are refused and reach
 *           no gateway.
 *
 * What each release's agent, chat and MCP client saw is written to
 * e2e-output/agents-<version>/.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import type { Checks } from './checks';
import { postStreaming } from './chat';
import { ANSWER_PREFIX, MODEL_KEY, startChatModel, type ChatModel, type ModelRequest } from './chatModel';
import { http } from './http';
import { N8N_VERSION, olderVersions, outputOf, webhookAnswer, type N8n } from './n8n';
import { outputDir } from './proc';
import { startN8n, type PackagedN8n, type PartInput } from './start';
import { PACKAGE, withCredentials, type Workflow } from './workflows';

const AGENT = 'AI Agent';
const MODEL = 'OpenAI Chat Model';
const MCP_TOKEN = 'e2e-mcp-bearer-token-0123456789';
/** A run of 200 Base64 characters: what a file carried as text would show. */
const BASE64_RUN = /[A-Za-z0-9+/]{200}/;

const fromAI = (key: string, description: string) => `={{ $fromAI('${key}', '${description}', 'string') }}`;
const rl = (value: string) => ({ __rl: true, mode: 'list', value });

interface ToolCase {
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

const CASES: ToolCase[] = [
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
interface Versions {
	agent: number;
	chatTrigger: number;
	mcpTrigger: number | undefined;
}

interface Run {
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

export async function runAgents(options: PartInput): Promise<void> {
	const model = await startChatModel();
	options.checks.note(`stand-in chat model on ${model.url}`);
	try {
		// E2E_AGENTS_N8N=2.41.1,2.0.3 limits the part to those releases (while working on it).
		const only = (process.env.E2E_AGENTS_N8N ?? '').split(',').filter(Boolean);
		const versions = [N8N_VERSION, ...olderVersions()].filter((v) => !only.length || only.includes(v));
		for (const version of versions) await runOn(version, model, options);
	} finally {
		await model.stop();
	}
}

/** The highest version of a node type this n8n lists, within what the workflows here use. */
function pick(
	types: Array<{ name: string; version: number | number[] }>,
	name: string,
	max: number,
): number | undefined {
	const listed = types
		.filter((t) => t.name === name)
		.flatMap((t) => ([] as number[]).concat(t.version))
		.filter((v) => v <= max);
	return listed.length ? Math.max(...listed) : undefined;
}

async function runOn(version: string, model: ChatModel, input: PartInput) {
	const { sim, checks } = input;
	const label = `agents-${version}`;
	checks.begin(`n8n ${version}: agents, start`);
	const dir = join(outputDir, label);
	mkdirSync(dir, { recursive: true });
	const seen: Record<string, unknown> = { n8n: version };
	let started: PackagedN8n | undefined;
	try {
		started = await startN8n(input, { name: label, version });
		const { n8n } = started;
		const types = await n8n.nodeTypes();
		const versions: Versions = {
			agent: pick(types, '@n8n/n8n-nodes-langchain.agent', 2.2) ?? 0,
			chatTrigger: pick(types, '@n8n/n8n-nodes-langchain.chatTrigger', 1.4) ?? 0,
			mcpTrigger: pick(types, '@n8n/n8n-nodes-langchain.mcpTrigger', 2),
		};
		checks.note(`n8n ${version} node versions used: ${JSON.stringify(versions)}`);
		checks.ok(
			`n8n ${version} lists AI Agent 2.2 (Enable Streaming) and Chat Trigger 1.4 (Response Mode Streaming)`,
			versions.agent === 2.2 && versions.chatTrigger === 1.4,
			versions,
		);
		checks.ok(
			`n8n ${version} lists the tool variant ${PACKAGE}.generationGatewayTool`,
			types.some((t) => t.name === `${PACKAGE}.generationGatewayTool`),
		);
		const ids = {
			...started.credentials,
			openAiApi: await n8n.createCredential('openAiApi', 'Stand-in model', {
				apiKey: MODEL_KEY,
				url: model.url,
			}),
			httpBearerAuth: await n8n.createCredential('httpBearerAuth', 'MCP token', { token: MCP_TOKEN }),
		};
		const run: Run = { version, label, n8n, sim, model, checks, ids, dir, versions, seen };
		for (const toolCase of CASES) {
			checks.begin(`n8n ${version}: AI Agent with the tool ${toolCase.node}`);
			await checks.timed(`${label}: agent ${toolCase.name}`, async () => {
				try {
					await agentCase(run, toolCase);
				} catch (error) {
					checks.broke(`${label}: agent ${toolCase.name}`, error);
				}
			});
		}
		checks.begin(`n8n ${version}: the agent behind a streaming Chat Trigger`);
		await checks.timed(`${label}: streaming chat`, async () => {
			try {
				await chatCase(run);
			} catch (error) {
				checks.broke(`${label}: streaming chat`, error);
			}
		});
		checks.begin(`n8n ${version}: MCP Server Trigger with the tool, an MCP client`);
		await checks.timed(`${label}: MCP`, async () => {
			try {
				await mcpCase(run);
			} catch (error) {
				checks.broke(`${label}: MCP`, error);
			}
		});
	} catch (error) {
		checks.broke(`n8n ${version}: agents`, error);
	} finally {
		writeFileSync(join(dir, 'seen.json'), JSON.stringify(seen, null, 2));
		await started?.stop();
	}
}

function toolNode(toolCase: ToolCase, position: [number, number]) {
	return {
		name: toolCase.node,
		type: `${PACKAGE}.generationGatewayTool`,
		typeVersion: 1,
		position,
		parameters: toolCase.parameters,
		credentials: { [toolCase.credential]: { id: '1', name: 'x' } },
	};
}

function modelNode(position: [number, number]) {
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
function agentWorkflow(
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
		} as unknown as Workflow,
		run.ids,
	);
}

/** The model's requests since `before`, and what the agent offered and read in them. */
function modelTurns(run: Run, before: number) {
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
function listedFiles(
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

async function agentCase(run: Run, toolCase: ToolCase): Promise<void> {
	const { n8n, sim, checks, model } = run;
	const name = `agent-${toolCase.name}`;
	const path = `gg-agent-${toolCase.name}-${randomUUID().slice(0, 8)}`;
	const workflow = agentWorkflow(
		run,
		`Agent: ${toolCase.node}`,
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', options: {} },
		},
		{ promptType: 'define', text: '={{ $json.body.question }}', options: {} },
		toolCase,
	);
	const created = await n8n.createWorkflow(workflow);
	await n8n.activate(created.id, created.versionId);
	const modelBefore = model.requests.length;
	const gatewayBefore = sim.requestsTo(toolCase.path, 'POST').length;
	const answer = await webhookAnswer('the agent webhook to be registered', () =>
		http(`${n8n.url}/webhook/${path}`, {
			method: 'POST',
			body: { question: toolCase.question },
			timeoutMs: 120_000,
		}),
	);
	const turns = modelTurns(run, modelBefore);
	const gateway = sim.requestsTo(toolCase.path, 'POST').slice(gatewayBefore);
	writeFileSync(
		join(run.dir, `${name}.json`),
		JSON.stringify(
			{
				status: answer.status,
				answer: answer.text(),
				model: turns.requests,
				gateway: gateway.map((r) => r.body),
			},
			null,
			2,
		),
	);
	checks.equal(`${name}: the webhook answers 200`, answer.status, 200);
	const output = (answer.json<{ output?: string }>() ?? {}).output ?? '';
	checks.equal(`${name}: the model was offered one tool`, turns.offered.length, 1);
	const properties = Object.keys((turns.schema as { properties?: object } | undefined)?.properties ?? {});
	checks.equal(`${name}: its argument schema is the $fromAI key`, properties, [toolCase.key]);
	checks.equal(`${name}: the model called it once`, turns.toolCalls.length, 1);
	checks.equal(`${name}: the gateway got one request`, gateway.length, 1);
	checks.equal(
		`${name}: the request carries the model's argument`,
		gateway[0] ? toolCase.sent(gateway[0].body as Record<string, unknown>) : undefined,
		toolCase.question,
	);
	checks.ok(
		`${name}: the agent read the tool's result`,
		turns.toolResult.length > 0,
		turns.toolResult.slice(0, 300),
	);
	checks.equal(
		`${name}: the agent's answer is the model's answer on the tool's result`,
		output,
		ANSWER_PREFIX + turns.toolResult,
	);
	checks.ok(
		`${name}: the tool's result says ${toolCase.resultSays}`,
		toolCase.result(turns.toolResult),
		turns.toolResult.slice(0, 300),
	);
	checks.ok(
		`${name}: no Base64 in what the agent read`,
		!BASE64_RUN.test(turns.toolResult) && !BASE64_RUN.test(output),
	);
	const files = listedFiles(turns.toolResult);
	if (toolCase.file) {
		checks.ok(
			`${name}: the result lists the one file with its name, MIME type and size in bytes`,
			files.length === 1 &&
				typeof files[0].fileName === 'string' &&
				toolCase.file.test(files[0].mimeType ?? '') &&
				typeof files[0].fileSize === 'number' &&
				files[0].fileSize > 0,
			files,
		);
	} else {
		checks.equal(`${name}: the result lists no file`, files.length, 0);
	}
	const executions = await n8n.settledExecutions(created.id);
	checks.equal(`${name}: one execution`, executions.length, 1);
	const record = await n8n.waitExecution(executions[0].id, 60_000);
	checks.equal(`${name}: execution status`, record.status, 'success', { execution: record.id });
	const toolRuns = record.data.resultData.runData[toolCase.node] ?? [];
	checks.ok(`${name}: n8n's record has the tool's run`, toolRuns.length >= 1, toolRuns.length);
	checks.equal(
		`${name}: the agent's output in n8n's record`,
		outputOf(record, AGENT)[0]?.json.output,
		output,
	);
	run.seen[name] = {
		offered: turns.offered,
		schema: turns.schema,
		argument: turns.toolCalls[0]?.arguments,
		gatewayRequests: gateway.length,
		toolResult: turns.toolResult,
		answer: output,
	};
}

async function chatCase(run: Run): Promise<void> {
	const { n8n, checks, model, sim } = run;
	const name = 'chat-streaming-agent';
	const toolCase = CASES[0];
	const webhookId = randomUUID();
	const trigger = 'When chat message received';
	const workflow = agentWorkflow(
		run,
		'Agent behind a streaming chat',
		{
			name: trigger,
			type: '@n8n/n8n-nodes-langchain.chatTrigger',
			typeVersion: run.versions.chatTrigger,
			position: [0, 0],
			webhookId,
			parameters: {
				public: true,
				mode: 'webhook',
				authentication: 'none',
				options: { responseMode: 'streaming' },
			},
		},
		{ promptType: 'auto', options: { enableStreaming: true } },
		toolCase,
	);
	const created = await n8n.createWorkflow(workflow);
	await n8n.activate(created.id, created.versionId);
	const modelBefore = model.requests.length;
	const gatewayBefore = sim.requestsTo(toolCase.path, 'POST').length;
	const question = 'A red kite over a green hill';
	const answer = await webhookAnswer('the chat webhook to be registered', () =>
		postStreaming(`${n8n.url}/webhook/${webhookId}/chat`, {
			action: 'sendMessage',
			sessionId: `e2e-${randomUUID()}`,
			chatInput: question,
		}),
	);
	writeFileSync(join(run.dir, `${name}.ndjson`), answer.raw);
	const turns = modelTurns(run, modelBefore);
	writeFileSync(join(run.dir, `${name}-model.json`), JSON.stringify(turns.requests, null, 2));
	checks.equal(`${name}: the chat webhook answers 200`, answer.status, 200);
	const chunks = answer.lines.map((l) => l.chunk).filter((c) => c.type !== 'keepalive');
	const kinds = chunks.map((c) => c.type);
	const items = chunks.filter((c) => c.type === 'item').map((c) => c.content ?? '');
	const joined = items.join('');
	checks.note(
		`${name}: ${answer.lines.length} JSON lines in ${answer.reads} reads; kinds ${[...new Set(kinds)].join(', ')}`,
	);
	checks.ok(
		`${name}: n8n streamed begin, item…, end`,
		kinds.includes('begin') && kinds.includes('end') && items.length > 0,
		kinds.join(' ').slice(0, 300),
	);
	checks.ok(
		`${name}: the agent asked the model for a stream`,
		turns.requests.length > 0 && turns.requests.every((r) => r.stream),
		turns.requests.map((r) => r.stream),
	);
	checks.equal(
		`${name}: the gateway got one request with the chat message as prompt`,
		sim
			.requestsTo(toolCase.path, 'POST')
			.slice(gatewayBefore)
			.map((r) => (r.body as { prompt?: string }).prompt),
		[question],
	);
	checks.ok(`${name}: the agent read the tool's result`, turns.toolResult.length > 0);
	checks.equal(
		`${name}: the streamed chunks joined are the agent's answer on the tool's result`,
		joined,
		ANSWER_PREFIX + turns.toolResult,
	);
	checks.ok(
		`${name}: the chat got the file list, no Base64`,
		listedFiles(turns.toolResult).length === 1 && !BASE64_RUN.test(joined),
	);
	const executions = await n8n.settledExecutions(created.id);
	checks.equal(`${name}: one execution`, executions.length, 1);
	const record = await n8n.waitExecution(executions[0].id, 60_000);
	checks.equal(`${name}: execution status`, record.status, 'success', { execution: record.id });
	run.seen[name] = { chunks: items.length, kinds: [...new Set(kinds)], answer: joined };
}

interface McpResult {
	tools: Array<{
		name: string;
		description?: string;
		inputSchema: { properties?: Record<string, { type?: string }>; required?: string[] };
	}>;
	call: { isError?: boolean; content: Array<{ type: string; text?: string }> };
}

/**
 * A module of the MCP SDK, one of the e2e suite's own tools (e2e/package.json): it is installed
 * into e2e/node_modules by ./scripts/run e2e, after lint has run on a fresh clone, so its name is
 * built here rather than written as an import the linter would resolve (its callers name the
 * module's types, which TypeScript checks where the suite runs).
 */
async function importMcp(path: string): Promise<unknown> {
	const sdk = '@modelcontextprotocol/sdk';
	return (await import(`${sdk}/${path}`)) as unknown;
}

/** Lists the tools and calls the first with `prompt` through one MCP client session. */
async function mcpSession(
	transport: 'streamable HTTP' | 'SSE',
	url: string,
	token: string,
	prompt: string,
): Promise<McpResult> {
	const { Client } = (await importMcp(
		'client/index.js',
	)) as typeof import('@modelcontextprotocol/sdk/client/index.js');
	const { StreamableHTTPClientTransport } = (await importMcp(
		'client/streamableHttp.js',
	)) as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
	const { SSEClientTransport } = (await importMcp(
		'client/sse.js',
	)) as typeof import('@modelcontextprotocol/sdk/client/sse.js');
	const headers = { authorization: `Bearer ${token}` };
	const client = new Client({ name: 'generation-gateway-e2e', version: '1.0.0' });
	const connection =
		transport === 'SSE'
			? new SSEClientTransport(new URL(url), { requestInit: { headers } })
			: new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
	await client.connect(connection, { timeout: 30_000 });
	try {
		const listed = await client.listTools(undefined, { timeout: 30_000 });
		const tools = listed.tools as McpResult['tools'];
		const call = (await client.callTool({ name: tools[0]?.name ?? '?', arguments: { prompt } }, undefined, {
			timeout: 120_000,
		})) as McpResult['call'];
		return { tools, call };
	} finally {
		await client.close();
	}
}

async function mcpCase(run: Run): Promise<void> {
	const { n8n, checks, sim, version } = run;
	if (run.versions.mcpTrigger === undefined) {
		checks.ok(`n8n ${version} lists the MCP Server Trigger`, false);
		return;
	}
	const toolCase: ToolCase = {
		...CASES[0],
		node: 'Generate Image',
		parameters: {
			resource: 'image',
			operation: 'generate',
			model: rl('legacyimg-2'),
			prompt: fromAI('prompt', 'What the picture shows'),
			size: '256x256',
			options: { response_format: 'url' },
		},
	};
	const trigger = 'MCP Server Trigger';
	const path = `gg-mcp-${randomUUID().slice(0, 8)}`;
	const workflow = withCredentials(
		{
			name: 'MCP server: Generate Image',
			nodes: [
				{
					name: trigger,
					type: '@n8n/n8n-nodes-langchain.mcpTrigger',
					typeVersion: run.versions.mcpTrigger,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: { authentication: 'bearerAuth', path },
					credentials: { httpBearerAuth: { id: '1', name: 'x' } },
				},
				toolNode(toolCase, [0, 220]),
			],
			connections: { [toolCase.node]: { ai_tool: [[{ node: trigger, type: 'ai_tool', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		} as unknown as Workflow,
		run.ids,
	);
	const created = await n8n.createWorkflow(workflow);
	await n8n.activate(created.id, created.versionId);
	// Trigger 2.x serves both transports on its path (POST: streamable HTTP; GET: SSE, its messages by POST
	// to the same path); 1.x serves SSE on <path>/sse, its messages on <path>/messages.
	const base = `${n8n.url}/mcp/${path}`;
	const v1 = run.versions.mcpTrigger < 2;
	const streamableUrl = v1 ? `${base}/messages` : base;
	const sseUrl = v1 ? `${base}/sse` : base;
	const initialize = {
		jsonrpc: '2.0',
		id: 1,
		method: 'initialize',
		params: {
			protocolVersion: '2025-03-26',
			capabilities: {},
			clientInfo: { name: 'no-token', version: '1' },
		},
	};
	const call = {
		jsonrpc: '2.0',
		id: 2,
		method: 'tools/call',
		params: { name: 'Generate_Image', arguments: { prompt: 'not allowed' } },
	};
	const accept = { accept: 'application/json, text/event-stream' };
	const gatewayBefore = sim.requestsTo(toolCase.path, 'POST').length;
	const refused = await webhookAnswer('the MCP endpoint to be registered', () =>
		http(streamableUrl, { method: 'POST', body: initialize, headers: accept }),
	);
	const refusals: Record<string, number> = {
		'initialize, no token': refused.status,
		'tools/call, no token': (await http(streamableUrl, { method: 'POST', body: call, headers: accept }))
			.status,
		'tools/call, wrong token': (
			await http(streamableUrl, {
				method: 'POST',
				body: call,
				headers: { ...accept, authorization: 'Bearer not-the-token' },
			})
		).status,
		'SSE, no token': (
			await http(sseUrl, { method: 'GET', headers: { accept: 'text/event-stream' }, timeoutMs: 10_000 })
		).status,
	};
	run.seen.mcpRefused = refusals;
	checks.ok(
		'mcp: every call without the token or with a wrong one is refused (401/403)',
		Object.values(refusals).every((s) => s === 401 || s === 403),
		refusals,
	);
	checks.equal(
		'mcp: the refused calls reached no gateway',
		sim.requestsTo(toolCase.path, 'POST').length,
		gatewayBefore,
	);

	// The suite's n8n has a certificate made for the run: the client trusts it for this part only.
	const tls = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
	process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
	const transports: Record<string, unknown> = {};
	try {
		for (const [transport, url] of [
			['streamable HTTP', streamableUrl],
			['SSE', sseUrl],
		] as const) {
			const label = `mcp over ${transport}`;
			const before = sim.requestsTo(toolCase.path, 'POST').length;
			const prompt = `A lighthouse, asked over ${transport}`;
			let result: McpResult;
			try {
				result = await mcpSession(transport, url, MCP_TOKEN, prompt);
			} catch (error) {
				transports[transport] = { error: (error as Error).message };
				checks.ok(`${label}: the session works`, false, (error as Error).message);
				continue;
			}
			writeFileSync(
				join(run.dir, `mcp-${transport.replace(/\W+/g, '-').toLowerCase()}.json`),
				JSON.stringify(result, null, 2),
			);
			checks.equal(`${label}: one tool listed`, result.tools.length, 1);
			checks.ok(
				`${label}: its input schema is the $fromAI key`,
				JSON.stringify(Object.keys(result.tools[0]?.inputSchema.properties ?? {})) === '["prompt"]' &&
					result.tools[0].inputSchema.properties?.prompt.type === 'string',
				result.tools[0]?.inputSchema,
			);
			const text = result.call.content
				.filter((c) => c.type === 'text')
				.map((c) => c.text ?? '')
				.join('');
			checks.ok(
				`${label}: the call returns text and no error`,
				!result.call.isError && text.length > 0,
				text.slice(0, 300),
			);
			const gateway = sim.requestsTo(toolCase.path, 'POST').slice(before);
			checks.equal(
				`${label}: the gateway got one request with the client's argument`,
				gateway.map((r) => (r.body as { prompt?: string }).prompt),
				[prompt],
			);
			const files = listedFiles(text);
			checks.ok(
				`${label}: the text lists the image (size in bytes) with the gateway's URL, no Base64`,
				files.length === 1 &&
					files[0].mimeType === 'image/png' &&
					typeof files[0].fileSize === 'number' &&
					/^https?:\/\//.test(files[0].url ?? '') &&
					!BASE64_RUN.test(text),
				files,
			);
			if (files[0]?.url) {
				const image = await http(files[0].url);
				checks.ok(
					`${label}: the client opens the URL: a PNG`,
					image.status === 200 && image.body.subarray(1, 4).toString('latin1') === 'PNG',
					{ status: image.status, bytes: image.body.length },
				);
			}
			transports[transport] = { tools: result.tools, text };
		}
	} finally {
		if (tls === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
		else process.env.NODE_TLS_REJECT_UNAUTHORIZED = tls;
	}
	run.seen.mcp = transports;
}
