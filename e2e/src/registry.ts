/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Installed the way users install it: the packed package is published to a
 * local npm registry (verdaccio on loopback, proxying the registry npm is
 * configured with for everything else), and a fresh n8n installs it through
 * its own Community Nodes installer (the REST call Settings -> Community Nodes
 * -> Install makes), runs it, and uninstalls it.
 *
 * n8n 2.41 honours N8N_COMMUNITY_PACKAGES_REGISTRY only with an enterprise
 * licence (feature "community nodes custom registry"); the first instance
 * shows that refusal. The second uses n8n's default registry setting, and the
 * `npm` n8n runs is a wrapper (first on n8n's PATH) that sends
 * `--registry=https://registry.npmjs.org` to the local registry instead;
 * everything else is n8n's installer as users run it.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runExample } from './examples';
import { freePort, http } from './http';
import { e2eDir } from './n8n';
import { run, start, stop, waitFor } from './proc';
import { startN8n, type PartInput } from './start';
import { createCredentials, examplesDir, PACKAGE } from './workflows';

function upstreamRegistry(): string {
	return execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim().replace(/\/?$/, '/');
}

async function startVerdaccio(dir: string) {
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const config = join(dir, 'config.yaml');
	writeFileSync(
		config,
		[
			`storage: ${join(dir, 'storage')}`,
			'auth:',
			'  htpasswd:',
			`    file: ${join(dir, 'htpasswd')}`,
			'    max_users: 10',
			'uplinks:',
			'  upstream:',
			`    url: ${upstreamRegistry()}`,
			'packages:',
			`  '${PACKAGE}':`,
			'    access: $all',
			'    publish: $authenticated',
			"  '**':",
			'    access: $all',
			'    publish: $authenticated',
			'    proxy: upstream',
			'web:',
			'  enable: false',
			'logs: { type: stdout, format: pretty, level: http }',
			'',
		].join('\n'),
	);
	const proc = start('verdaccio', process.execPath, [
		join(e2eDir, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
		'--config',
		config,
		'--listen',
		`127.0.0.1:${port}`,
	]);
	const url = `http://127.0.0.1:${port}`;
	await waitFor(
		'verdaccio',
		async () => ((await http(`${url}/-/ping`)).status === 200 ? true : undefined),
		60_000,
		300,
	);
	return { url, proc };
}

/** A user on the local registry, and an npmrc with its token. */
async function publish(url: string, dir: string, tarball: string): Promise<void> {
	const user = await http(`${url}/-/user/org.couchdb.user:e2e`, {
		method: 'PUT',
		body: { name: 'e2e', password: 'e2e-registry-pass', email: 'e2e@e2e.invalid', type: 'user' },
	});
	const { token } = user.json<{ token: string }>();
	const npmrc = join(dir, 'publish.npmrc');
	writeFileSync(npmrc, `registry=${url}/\n//${url.replace(/^http:\/\//, '')}/:_authToken=${token}\n`);
	run('npm', ['publish', tarball, '--registry', `${url}/`, '--userconfig', npmrc, '--access', 'public'], {
		timeoutMs: 120_000,
	});
}

/** The `npm` n8n runs: the default registry replaced by the local one; every call logged. */
function npmWrapper(dir: string, registry: string): { bin: string; log: string } {
	const bin = join(dir, 'bin');
	mkdirSync(bin, { recursive: true });
	const realNpm = execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
	const log = join(dir, 'npm-calls.log');
	const script = `#!/usr/bin/env bash
# e2e: n8n's installer runs npm with --registry=https://registry.npmjs.org; send it to ${registry}.
args=()
for a in "$@"; do
  case "$a" in
    --registry=*) args+=("--registry=${registry}") ;;
    *) args+=("$a") ;;
  esac
done
echo "npm \${args[*]}  (in $PWD)" >> ${log}
exec ${realNpm} "\${args[@]}"
`;
	writeFileSync(join(bin, 'npm'), script);
	chmodSync(join(bin, 'npm'), 0o755);
	return { bin, log };
}

export async function runRegistry(input: PartInput): Promise<void> {
	const { work, packed, sim, checks } = input;
	checks.begin('registry: publish to a local npm registry');
	const dir = join(work, 'registry');
	const verdaccio = await startVerdaccio(dir);
	try {
		await publish(verdaccio.url, dir, packed.tarball);
		const meta = (await http(`${verdaccio.url}/${PACKAGE}`)).json<{ versions: Record<string, unknown> }>();
		checks.ok(
			`the local registry serves ${PACKAGE}@${packed.version}`,
			packed.version in (meta.versions ?? {}),
		);
		const proxied = await http(`${verdaccio.url}/p-limit`);
		checks.equal(
			'the local registry proxies other packages from the configured registry',
			proxied.status,
			200,
		);

		const home = join(work, 'registry-n8n');
		checks.begin('registry: N8N_COMMUNITY_PACKAGES_REGISTRY');
		// n8n alone: the package comes through its installer.
		const licensed = await startN8n(input, {
			name: 'registry-env',
			home,
			withPackage: false,
			env: { N8N_COMMUNITY_PACKAGES_REGISTRY: verdaccio.url },
		});
		const refused = await licensed.n8n
			.rest('POST', '/community-packages', { name: PACKAGE, version: packed.version })
			.then(() => 'installed')
			.catch((error: Error) => error.message);
		checks.ok(
			'n8n 2.41 without a licence refuses a custom registry (so the next instance keeps the default one)',
			/licen[cs]e|not licensed|feat:/i.test(refused),
			refused.slice(0, 200),
		);
		await licensed.stop();

		checks.begin("registry: install through n8n's Community Nodes installer");
		const wrapper = npmWrapper(dir, `${verdaccio.url}/`);
		const ctx = await startN8n(input, {
			name: 'registry',
			home,
			withPackage: false,
			env: { PATH: `${wrapper.bin}:${process.env.PATH}` },
		});
		const { n8n } = ctx;
		const before = (await n8n.nodeTypes()).map((t) => t.name);
		checks.ok(
			'before the install n8n has no Generation Gateway node',
			!before.some((n) => n.startsWith(`${PACKAGE}.`)),
		);
		const installed = await n8n.rest<{
			packageName: string;
			installedVersion: string;
			installedNodes: Array<{ type: string }>;
		}>('POST', '/community-packages', { name: PACKAGE, version: packed.version });
		checks.note(`npm calls n8n made: ${readFileSync(wrapper.log, 'utf8').trim().split('\n').join(' | ')}`);
		checks.equal(
			'the installer reports the package and version',
			[installed.packageName, installed.installedVersion],
			[PACKAGE, packed.version],
		);
		checks.equal('the installer reports both nodes', installed.installedNodes.map((n) => n.type).sort(), [
			`${PACKAGE}.generationGateway`,
			`${PACKAGE}.generationGatewayTrigger`,
		]);
		const listed = await n8n.rest<Array<{ packageName: string }>>('GET', '/community-packages');
		checks.ok(
			'Settings -> Community Nodes lists it',
			listed.some((p) => p.packageName === PACKAGE),
		);
		const folder = join(n8n.userFolder, 'nodes', 'node_modules', PACKAGE);
		checks.ok(
			'installed into <user folder>/.n8n/nodes/node_modules',
			existsSync(join(folder, 'package.json')),
		);
		checks.ok(
			'n8n-workflow comes from n8n itself, not installed beside the package',
			!existsSync(join(n8n.userFolder, 'nodes', 'node_modules', 'n8n-workflow')),
		);
		const types = (await n8n.nodeTypes()).map((t) => t.name);
		checks.ok(
			'n8n now lists the action node and the trigger',
			types.includes(`${PACKAGE}.generationGateway`) && types.includes(`${PACKAGE}.generationGatewayTrigger`),
		);

		ctx.credentials = await createCredentials(n8n, sim);
		for (const example of ['account-balance', 'speech-synthesize']) {
			const file = join(examplesDir, `${example}.json`);
			if (existsSync(file)) await runExample(ctx, file);
		}

		await n8n.rest('DELETE', `/community-packages?name=${encodeURIComponent(PACKAGE)}`);
		const after = await n8n.rest<Array<{ packageName: string }>>('GET', '/community-packages');
		checks.ok(
			'uninstalled: Community Nodes no longer lists it',
			!after.some((p) => p.packageName === PACKAGE),
		);
		checks.ok('uninstalled: its folder is gone', !existsSync(folder));
		const typesAfter = (await n8n.nodeTypes()).map((t) => t.name);
		checks.ok(
			'uninstalled: n8n no longer lists its nodes',
			!typesAfter.some((n) => n.startsWith(`${PACKAGE}.`)),
			typesAfter.filter((n) => n.startsWith(`${PACKAGE}.`)),
		);
		await ctx.stop();
	} finally {
		await stop(verdaccio.proc);
	}
}
