/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Debian's Docker daemon for the docker part: started here (as root) when none answers, and stopped
 * again by `stop()`, also when the part fails. Images stay in its data root between runs.
 */
import { spawnSync } from 'node:child_process';

import { run, start, stop, waitFor, type Proc } from './proc';

/** The environment every docker and docker-compose command gets: nothing from the caller's shell. */
export const DOCKER_ENV: NodeJS.ProcessEnv = {
	PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
	HOME: process.env.HOME ?? '/root',
	DOCKER_BUILDKIT: '0',
};

/** `docker <args>` to its end (bounded); throws with its output when it fails. */
export function docker(args: string[], timeoutMs = 120_000): string {
	return run('docker', args, { env: DOCKER_ENV, timeoutMs }).stdout;
}

/** Whether `docker <args>` succeeds (an image exists, a container is there). */
export function dockerOk(args: string[]): boolean {
	return spawnSync('docker', args, { env: DOCKER_ENV, stdio: 'ignore', timeout: 30_000 }).status === 0;
}

export interface Daemon {
	/** The address containers reach the host at (`host-gateway`: the default bridge's). */
	hostGateway: string;
	/** Started here (not one that was running already). */
	ours: boolean;
	stop(): Promise<void>;
}

function bridgeAddress(): string {
	const out = run('ip', ['-4', '-o', 'addr', 'show', 'docker0']).stdout;
	const address = /inet (\d+\.\d+\.\d+\.\d+)\//.exec(out)?.[1];
	if (!address) throw new Error(`docker0 has no IPv4 address: ${out}`);
	return address;
}

/** The daemon on the default socket: the one already running, or Debian's dockerd started here. */
export async function startDaemon(): Promise<Daemon> {
	if (dockerOk(['info'])) return { hostGateway: bridgeAddress(), ours: false, stop: async () => undefined };
	// Containers reach nothing past the host (docker.ts): a name outside their networks must fail at once,
	// not after the resolver's 10 s, which holds one of Node's four resolver threads in n8n meanwhile.
	const proc: Proc = start(
		'dockerd',
		'dockerd',
		['--host', 'unix:///var/run/docker.sock', '--dns-opt', 'timeout:1', '--dns-opt', 'attempts:1'],
		{ env: DOCKER_ENV },
	);
	let exited = false;
	void proc.exited.then(() => (exited = true));
	await waitFor(
		'dockerd to answer',
		() => {
			if (exited) throw new Error(`dockerd exited; see ${proc.logFile}`);
			return dockerOk(['info']) ? true : undefined;
		},
		60_000,
		500,
	);
	// Containers still running are stopped by the daemon itself (10 s each, in parallel).
	return { hostGateway: bridgeAddress(), ours: true, stop: () => stop(proc, 60_000) };
}
