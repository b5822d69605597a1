/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The main job (`./scripts/run demo`): starts the gateway simulator, runs
 * every example workflow in examples/ through n8n's execution engine, writes
 * what each node produced to demo-output/<example>/ (binary files with their
 * real extension, JSON beside them) and prints what happened.
 *
 * A schedule trigger runs once, as if its time had come. An example that needs
 * more than one execution (a trigger receiving a callback) provides its own
 * steps in test/demo/steps/<example>.ts.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import type { RunResult, WorkflowJson } from '../harness';
import { disposeHarness, loadWorkflowFile, readBinary, runWorkflow } from '../harness';
import type { CredentialsByType } from '../harness/credentials-helper';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';

const root = join(__dirname, '..', '..');
const examplesDir = join(root, 'examples');
const outputDir = join(root, 'demo-output');

export interface DemoContext {
	sim: Simulator;
	outDir: string;
	/** Runs a workflow and records its outputs under `label`; `credentials` beside the simulator's. */
	run(
		workflow: WorkflowJson,
		label?: string,
		input?: INodeExecutionData[],
		credentials?: CredentialsByType,
	): Promise<RunResult>;
	say(line: string): void;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Schedule triggers start the workflow once, as the demo's manual run. */
function asManualRun(workflow: WorkflowJson): WorkflowJson {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowJson;
	for (const node of copy.nodes) {
		if (node.type === 'n8n-nodes-base.scheduleTrigger') {
			node.type = 'n8n-nodes-base.manualTrigger';
			node.typeVersion = 1;
			node.parameters = {};
		}
	}
	return copy;
}

function shortJson(json: object): string {
	const text = JSON.stringify(json, (_key, value: unknown) =>
		typeof value === 'string' && value.length > 80 ? `${value.slice(0, 77)}...` : value,
	);
	return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

async function record(result: RunResult, workflow: WorkflowJson, outDir: string): Promise<void> {
	mkdirSync(outDir, { recursive: true });
	for (const node of workflow.nodes) {
		if (node.type.startsWith('n8n-nodes-base.')) continue;
		const items = result.output(node.name);
		const error = result.nodeError(node.name);
		if (error) say(`    ${node.name}: FAILED: ${error.message}`);
		if (!items.length) continue;
		const safeName = node.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
		writeFileSync(
			join(outDir, `${safeName}.json`),
			JSON.stringify(
				items.map((i) => i.json),
				null,
				2,
			),
		);
		say(`    ${node.name}: ${items.length} item(s)`);
		for (const [index, item] of items.entries()) {
			say(`      [${index}] ${shortJson(item.json)}`);
			for (const [property, data] of Object.entries(item.binary ?? {})) {
				const bytes = await readBinary(data);
				const file = `${safeName}-${index}-${property}.${data.fileExtension ?? 'bin'}`;
				writeFileSync(join(outDir, file), bytes);
				say(
					`          binary ${property}: ${data.mimeType}, ${bytes.length} bytes -> demo-output/${basename(outDir)}/${file}`,
				);
			}
		}
	}
}

async function main(): Promise<void> {
	const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
	rmSync(outputDir, { recursive: true, force: true });
	const sim = await startSimulator();
	say(`Generation Gateway simulator on ${sim.url} (loopback only)\n`);
	const files = readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.filter((f) => !only.length || only.some((o) => f.includes(o)));
	let failures = 0;
	for (const file of files) {
		const name = file.replace(/\.json$/, '');
		const workflow = loadWorkflowFile(join(examplesDir, file));
		const description = (workflow as { meta?: { demo?: { description?: string } } }).meta?.demo?.description;
		say(`== ${workflow.name ?? name}  (examples/${file})`);
		if (description) say(`   ${description}`);
		const outDir = join(outputDir, name);
		const context: DemoContext = {
			sim,
			outDir,
			say: (line) => say(`   ${line}`),
			async run(wf, label = name, input, credentials = {}) {
				const started = Date.now();
				const result = await runWorkflow(asManualRun(wf), {
					credentials: { ...sim.credentials(), ...credentials },
					input,
				});
				say(`   ${label}: ${result.status} in ${Date.now() - started} ms`);
				await record(result, wf, outDir);
				if (result.status !== 'success' && result.status !== 'waiting') failures++;
				return result;
			},
		};
		try {
			const steps = join(__dirname, 'steps', `${name}.ts`);
			if (existsSync(steps)) {
				const custom = (await import(steps)) as { run(ctx: DemoContext, wf: WorkflowJson): Promise<void> };
				await custom.run(context, workflow);
			} else {
				await context.run(workflow);
			}
		} catch (error) {
			failures++;
			say(`   FAILED: ${(error as Error).stack ?? error}`);
		}
		say('');
	}
	await sim.stop();
	disposeHarness();
	say(
		`${files.length - failures} of ${files.length} example workflow(s) ran as expected; outputs in demo-output/`,
	);
	process.exitCode = failures ? 1 : 0;
}

void main();
