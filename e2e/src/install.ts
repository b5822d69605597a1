/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * The packed package installed where n8n keeps community packages, as its
 * Community Nodes installer would leave it. Shared by the single-instance and
 * queue parts (its own file, so that main.ts and queue.ts do not import each
 * other).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { run } from './proc';
import { PACKAGE } from './workflows';

/** Puts the packed package where n8n keeps installed community packages (<user folder>/.n8n/nodes). */
export function installPacked(userFolder: string, tarball: string, version: string): void {
	const nodes = join(userFolder, 'nodes');
	const target = join(nodes, 'node_modules', PACKAGE);
	mkdirSync(target, { recursive: true });
	run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	writeFileSync(
		join(nodes, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [PACKAGE]: version } }, null, 2),
	);
}
