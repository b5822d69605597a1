#!/usr/bin/env bash
# Prepares what the e2e suite needs, reusing whatever is already in place:
#  - Debian packages chromium, redis-server, postgresql (installed only when missing;
#    needs root and apt-get);
#  - the suite's tools in e2e/node_modules (playwright-core, verdaccio), from e2e/package-lock.json;
#  - n8n itself in e2e/n8n/node_modules, from e2e/n8n/package-lock.json (pinned n8n@2.41.1),
#    installed with --ignore-scripts (a Kafka client's install script downloads zlib),
#    then `npm rebuild sqlite3 isolated-vm` against the running Node's headers.
# Fails loudly when anything cannot be installed (e.g. the registry stops serving this n8n).
# Sourced by scripts/run after scripts/node24.sh (Node 24 on PATH).
set -euo pipefail
e2e="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v redis-server >/dev/null || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "e2e: installing Debian packages: ${missing[*]}" >&2
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "e2e: cannot install ${missing[*]}: run as root on Debian, or install them yourself" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Stale when the lock is newer than what npm last installed, or never installed.
stale() { [ ! -f "$1/node_modules/.package-lock.json" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; }

if stale "$e2e"; then
  echo "e2e: installing the suite's tools (e2e/node_modules)" >&2
  (cd "$e2e" && npm ci --no-audit --no-fund --ignore-scripts)
fi

n8n="$e2e/n8n"
marker="$n8n/node_modules/.e2e-rebuilt"
if stale "$n8n" || [ ! -f "$marker" ]; then
  start=$(date +%s)
  echo "e2e: installing n8n into e2e/n8n/node_modules (about 3-5 minutes, 2.4 GB)" >&2
  # Native addons build against the headers of the Node that runs (Node 24 ships include/node).
  nodedir="$(node -p "require('path').resolve(process.execPath, '..', '..')")"
  [ -d "$nodedir/include/node" ] && export npm_config_nodedir="$nodedir"
  rm -rf "$n8n/node_modules"
  (cd "$n8n" && npm ci --no-audit --no-fund --legacy-peer-deps --ignore-scripts)
  echo "e2e: rebuilding sqlite3 and isolated-vm for $(node --version)" >&2
  (cd "$n8n" && npm rebuild sqlite3 isolated-vm)
  touch "$marker"
  echo "e2e: n8n installed in $(( $(date +%s) - start )) s" >&2
fi
want="$(node -p "require('$n8n/package.json').dependencies.n8n")"
have="$(node -p "require('$n8n/node_modules/n8n/package.json').version")"
if [ "$want" != "$have" ]; then
  echo "e2e: e2e/n8n has n8n $have, package.json pins $want" >&2
  exit 1
fi
