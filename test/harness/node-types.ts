/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Node and credential types, loaded the way n8n loads an installed community
 * package: n8n-core's PackageDirectoryLoader pointed at the repo root reads
 * package.json's `n8n.nodes` / `n8n.credentials` (the built files in dist/)
 * and node types register as `<package name>.<node name>`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';
import type {
	ICredentialType,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	KnownNodesAndCredentials,
} from 'n8n-workflow';
import { NodeHelpers, UserError } from 'n8n-workflow';

import { HarnessManualTrigger, HarnessNoOp } from './builtin-nodes';

export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');

interface PackageJson {
	name: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

/** Fails early and clearly when dist/ is missing instead of "Cannot find module". */
function assertBuilt(root: string): void {
	const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;
	const files = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const missing = files.filter((file) => !existsSync(path.join(root, file)));
	if (missing.length > 0) {
		throw new UserError(
			`The workflow harness loads the built package, but ${missing.join(', ')} ` +
				'does not exist: run npm run build first.',
		);
	}
}

/**
 * n8n-workflow is a peer dependency: inside n8n the package must get n8n's own
 * copy, or the engine's `instanceof NodeApiError` checks fail. Same here.
 */
function assertSingleWorkflowCopy(root: string): void {
	const fromPackage = require.resolve('n8n-workflow', { paths: [path.join(root, 'dist')] });
	const fromCore = require.resolve('n8n-workflow', { paths: [path.dirname(require.resolve('n8n-core'))] });
	if (fromPackage !== fromCore) {
		throw new UserError(`Two copies of n8n-workflow: ${fromPackage} (package) and ${fromCore} (n8n-core)`);
	}
}

/** Types registered in code (test-only nodes and credentials), shared with the loaded package. */
export interface ExtraTypes {
	nodes: Map<string, INodeType | IVersionedNodeType>;
	credentials: Map<string, ICredentialType>;
}

export class HarnessNodeTypes implements INodeTypes {
	/** The n8n-nodes-base stand-ins are added to `extra` unless already there. */
	constructor(
		private readonly loader: PackageDirectoryLoader,
		private readonly extra: ExtraTypes = { nodes: new Map(), credentials: new Map() },
	) {
		if (!extra.nodes.has('n8n-nodes-base.manualTrigger')) {
			extra.nodes.set('n8n-nodes-base.manualTrigger', new HarnessManualTrigger());
		}
		if (!extra.nodes.has('n8n-nodes-base.noOp')) extra.nodes.set('n8n-nodes-base.noOp', new HarnessNoOp());
	}

	static async load(extra?: ExtraTypes, root: string = PACKAGE_ROOT): Promise<HarnessNodeTypes> {
		assertBuilt(root);
		assertSingleWorkflowCopy(root);
		const loader = new PackageDirectoryLoader(root);
		await loader.loadAll();
		return new HarnessNodeTypes(loader, extra);
	}

	get packageName(): string {
		return this.loader.packageName;
	}

	getByName(fullName: string): INodeType | IVersionedNodeType {
		const extra = this.extra.nodes.get(fullName);
		if (extra) return extra;
		const prefix = `${this.loader.packageName}.`;
		if (fullName.startsWith(prefix)) {
			return this.loader.getNode(fullName.slice(prefix.length)).type;
		}
		const known = Object.keys(this.getKnownTypes()).join(', ');
		throw new UserError(`Unknown node type "${fullName}" (the harness knows ${known})`);
	}

	getByNameAndVersion(fullName: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(fullName), version);
	}

	getKnownTypes(): KnownNodesAndCredentials['nodes'] {
		const known: KnownNodesAndCredentials['nodes'] = {};
		for (const [name, info] of Object.entries(this.loader.known.nodes)) {
			known[`${this.loader.packageName}.${name}`] = info;
		}
		for (const name of this.extra.nodes.keys()) known[name] = { className: name, sourcePath: '' };
		return known;
	}

	/** Credential types register under their own `name`, as in n8n. */
	getCredentialType(name: string): ICredentialType {
		const extra = this.extra.credentials.get(name);
		if (extra) return extra;
		if (!(name in this.loader.known.credentials)) {
			const known = [...Object.keys(this.loader.known.credentials), ...this.extra.credentials.keys()];
			throw new UserError(`Unknown credential type "${name}" (the harness knows ${known.join(', ')})`);
		}
		return this.loader.getCredential(name).type;
	}

	recognizesCredential(name: string): boolean {
		return this.extra.credentials.has(name) || name in this.loader.known.credentials;
	}
}
