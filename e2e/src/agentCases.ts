/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The agents part's agent cases on one release: an AI Agent behind a webhook calling the tool, and
 * the same agent behind a streaming Chat Trigger.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	agentWorkflow,
	AGENT,
	BASE64_RUN,
	CASES,
	listedFiles,
	modelTurns,
	type Run,
	type ToolCase,
} from './agentWorkflows';
import { postStreaming, streamingChatTrigger } from './chat';
import { ANSWER_PREFIX } from './chatModel';
import { http } from './http';
import { outputOf, webhookAnswer } from './n8n';

export async function agentCase(run: Run, toolCase: ToolCase): Promise<void> {
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

export async function chatCase(run: Run): Promise<void> {
	const { n8n, checks, model, sim } = run;
	const name = 'chat-streaming-agent';
	const toolCase = CASES[0];
	const webhookId = randomUUID();
	const trigger = 'When chat message received';
	const workflow = agentWorkflow(
		run,
		'Agent behind a streaming chat',
		streamingChatTrigger(trigger, webhookId, run.versions.chatTrigger),
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
