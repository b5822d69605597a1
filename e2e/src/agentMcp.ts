/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The agents part's MCP case on one release: MCP Server Trigger with Bearer authentication and the
 * tool, called by an MCP client (@modelcontextprotocol/sdk) over streamable HTTP and over SSE.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	BASE64_RUN,
	CASES,
	fromAI,
	listedFiles,
	MCP_TOKEN,
	rl,
	toolNode,
	type Run,
	type ToolCase,
} from './agentWorkflows';
import { http } from './http';
import { webhookAnswer } from './n8n';
import { withCredentials } from './workflows';

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

export async function mcpCase(run: Run): Promise<void> {
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
		},
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
