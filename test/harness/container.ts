/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The @n8n/di services n8n-core's engine and node helpers pull from the
 * container (Logger, InstanceSettings, BinaryDataService, OutboundHttp,
 * ErrorReporter...). Most construct themselves from environment-backed config
 * classes, so we only point n8n's folders at a temp dir, silence the logger and
 * initialise binary data in `filesystem` mode, as a regular n8n 2.x instance does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import type { Logger as WorkflowLogger } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

/** Swallows everything: passing tests must not print n8n's debug/warn lines. */
class SilentLogger implements WorkflowLogger {
	error(): void {}
	warn(): void {}
	info(): void {}
	debug(): void {}
	scoped(): this {
		return this;
	}
}

let tempRoot: string | undefined;
let ready: Promise<void> | undefined;

/** The per-process temp folder holding n8n's user folder and binary files. */
export function harnessTempDir(): string {
	if (!tempRoot) tempRoot = mkdtempSync(path.join(tmpdir(), 'n8n-harness-'));
	return tempRoot;
}

async function setUp(): Promise<void> {
	const root = harnessTempDir();
	// Read by @n8n/config's InstanceSettingsConfig / BinaryDataConfig when first
	// constructed: keep n8n's settings file and binary files out of ~/.n8n.
	process.env.N8N_USER_FOLDER = root;
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
	process.env.N8N_BINARY_DATA_STORAGE_PATH = path.join(root, 'binary-data');
	process.env.N8N_ENCRYPTION_KEY ??= 'workflow-harness-encryption-key';
	process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

	const silent = new SilentLogger();
	// n8n-core resolves Logger through DI (DirectoryLoader, ErrorReporter, OutboundHttp...).
	Container.set(Logger, silent as unknown as Logger);
	// n8n-workflow logs through its own proxy (WorkflowExecute's "started"/"finished").
	LoggerProxy.init(silent);

	const config = Container.get(BinaryDataConfig);
	config.mode = 'filesystem';
	config.localStoragePath = path.join(root, 'binary-data');
	await Container.get(BinaryDataService).init();
}

/** Idempotent: prepares the DI container once per process (jest: per test file). */
export async function ensureContainer(): Promise<void> {
	ready ??= setUp();
	await ready;
}

/**
 * Shuts down what n8n shuts down as it exits, removes the temp folder (binary files, n8n settings).
 * Safe to call twice.
 */
export function disposeContainer(): void {
	// Every execution's node helpers get n8n-core's SSH client manager, which starts an unref'd
	// 60 s interval that only its shutdown clears. Left running, the interval would keep the test
	// file's whole module graph (n8n-core, n8n-workflow, the package) alive for the rest of the worker.
	if (ready) Container.get(SSHClientsManager).onShutdown();
	if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
	tempRoot = undefined;
	ready = undefined;
	Container.reset();
}
