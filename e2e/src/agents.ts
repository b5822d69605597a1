/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
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
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { agentCase, chatCase } from './agentCases';
import { mcpCase } from './agentMcp';
import { CASES, MCP_TOKEN, type Run, type Versions } from './agentWorkflows';
import { MODEL_KEY, startChatModel, type ChatModel } from './chatModel';
import { N8N_VERSION, olderVersions } from './n8n';
import { outputDir } from './proc';
import { startN8n, type PackagedN8n, type PartInput } from './start';
import { PACKAGE } from './workflows';

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
