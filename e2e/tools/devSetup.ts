/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * What `./scripts/run n8n` (devServer.ts) puts in place in its n8n, as a user finds it: the owner
 * account, the credentials pointing at the simulator and Recover Waits' own, every example workflow.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Simulator } from '../../test/simulator';
import { http, restCall, signIn } from '../src/http';
import { newWorkflowBody, repoRoot } from '../src/n8n';

const examplesDir = join(repoRoot, 'examples');

/** The login of the owner account this command creates (a local n8n on loopback only). */
export const DEV_OWNER = {
	email: 'owner@n8n-dev.invalid',
	password: 'Gateway-dev-1',
	firstName: 'Dev',
	lastName: 'Owner',
};

const CREDENTIAL_LABELS: Record<string, string> = {
	generationGatewayBearerApi: 'Bearer Token',
	generationGatewayApiKeyApi: 'API Key',
	generationGatewayNativeKeyApi: 'Native Key',
	generationGatewayN8nApi: 'Recover Waits',
};

/** What this command created in n8n, so that a second start finds it instead of creating it again. */
export interface DevState {
	/** Credential id by credential type. */
	credentials: Record<string, string>;
	/** Workflow id by example file name. */
	workflows: Record<string, string>;
	/** The owner's API key made for Recover Waits' credential. */
	apiKey?: string;
}

export class Rest {
	cookie = '';

	constructor(private readonly base: string) {}

	async call<T>(method: string, path: string, body?: unknown, allow: number[] = []): Promise<T> {
		return await restCall<T>(this.base, this.cookie, { method, path, body, allow });
	}

	async status(path: string): Promise<number> {
		const answer = await http(`${this.base}/rest${path}`, {
			headers: { cookie: this.cookie },
			timeoutMs: 60_000,
		});
		return answer.status;
	}

	async login(): Promise<void> {
		this.cookie = await signIn(this.base, DEV_OWNER);
	}
}

const credentialName = (type: string) => `Generation Gateway simulator (${CREDENTIAL_LABELS[type] ?? type})`;

/**
 * The three credentials, created once and pointed at this start's simulator each time (its port
 * changes from one start to the next), and Recover Waits' own: this n8n and an owner's API key.
 */
export async function ensureCredentials(
	rest: Rest,
	sim: Simulator,
	state: DevState,
	n8nUrl: string,
): Promise<void> {
	if (!state.apiKey) {
		const scopes = await rest.call<string[]>('GET', '/api-keys/scopes');
		const label = `Recover Waits (${Date.now()})`;
		state.apiKey = (
			await rest.call<{ rawApiKey: string }>('POST', '/api-keys', { label, scopes, expiresAt: null })
		).rawApiKey;
	}
	const recover = { generationGatewayN8nApi: { baseUrl: n8nUrl, apiKey: state.apiKey } };
	for (const [type, data] of Object.entries({ ...sim.credentials(), ...recover })) {
		const body = { name: credentialName(type), type, data };
		const id = state.credentials[type];
		if (id && (await rest.status(`/credentials/${id}`)) === 200) {
			await rest.call('PATCH', `/credentials/${id}`, body);
		} else {
			state.credentials[type] = (await rest.call<{ id: string }>('POST', '/credentials', body)).id;
		}
	}
}

interface ExampleWorkflow {
	name: string;
	nodes: Array<{ credentials?: Record<string, { id: string; name: string }> }>;
	connections: unknown;
	settings?: unknown;
	pinData?: unknown;
}

/** Every example, imported once with its credentials pointing at the simulator's; a new example is imported too. */
export async function ensureExamples(rest: Rest, state: DevState): Promise<number> {
	const files = readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort();
	for (const file of files) {
		const id = state.workflows[file];
		if (id && (await rest.status(`/workflows/${id}`)) === 200) continue;
		const workflow = JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as ExampleWorkflow;
		for (const node of workflow.nodes) {
			for (const type of Object.keys(node.credentials ?? {})) {
				node.credentials![type] = { id: state.credentials[type], name: credentialName(type) };
			}
		}
		const created = await rest.call<{ id: string }>('POST', '/workflows', newWorkflowBody(workflow));
		state.workflows[file] = created.id;
	}
	return files.length;
}
