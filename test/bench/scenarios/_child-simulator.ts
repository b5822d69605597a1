/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The simulator in a child process of its own (as P6 runs it), so that a
 * benchmark counting its own process's CPU or memory does not count the
 * simulator's work or its request log. Not a scenario (the leading `_`).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface ChildSimulator {
	url: string;
	keys: { bearer: string };
	stop(): void;
}

export async function startChildSimulator(): Promise<ChildSimulator> {
	const root = join(__dirname, '..', '..', '..');
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', join(root, 'test/simulator/cli.ts')],
		{ cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	let output = '';
	for await (const chunk of child.stdout) {
		output += String(chunk);
		if (output.includes('Keys:') && output.trim().endsWith('}')) break;
	}
	const listening = /listening on (\S+)/.exec(output);
	const keys = /Keys: (.*)/.exec(output);
	if (!listening || !keys) {
		child.kill();
		throw new Error(`the simulator did not start: ${output.slice(-500)}`);
	}
	return {
		url: listening[1],
		keys: JSON.parse(keys[1]) as { bearer: string },
		stop: () => child.kill(),
	};
}
