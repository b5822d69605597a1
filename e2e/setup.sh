#!/usr/bin/env bash
# Prepares what the e2e suite needs, reusing whatever is already in place:
#  - Debian packages chromium, redis-server, postgresql (installed only when missing;
#    needs root and apt-get);
#  - the suite's tools in e2e/node_modules (playwright-core, verdaccio), from e2e/package-lock.json;
#  - n8n itself from e2e/n8n/package-lock.json (pinned n8n@2.41.1), installed once into a cache
#    outside the clone ($GG_E2E_CACHE, default ~/.cache/n8n-nodes-generation-gateway) and linked as
#    e2e/n8n/node_modules; installed with --ignore-scripts (a Kafka client's install script downloads
#    zlib), then `npm rebuild sqlite3 isolated-vm` against the running Node's headers.
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
# n8n's install (2.4 GB, 3-20 minutes) lives in a cache outside the clone, keyed by its lock file and
# the Node version its native addons are built for, so that a second run on the same machine (or a
# fresh clone beside it) reuses it; e2e/n8n/node_modules is a link to it.
cache_root="${GG_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-generation-gateway}"
key="$( (cat "$n8n/package-lock.json"; node --version) | sha256sum | cut -c1-16)"
cached="$cache_root/e2e-n8n-$key"
marker="$cached/node_modules/.e2e-rebuilt"
# An install made before the cache existed (a real folder in the clone) is moved into it.
if [ ! -L "$n8n/node_modules" ] && [ -f "$n8n/node_modules/.e2e-rebuilt" ] && [ ! -f "$marker" ] \
  && ! stale "$n8n"; then
  mkdir -p "$cached"
  mv "$n8n/node_modules" "$cached/node_modules"
fi
if [ ! -f "$marker" ]; then
  start=$(date +%s)
  echo "e2e: installing n8n into $cached (about 3-20 minutes, 2.4 GB; reused by later runs)" >&2
  # Native addons build against the headers of the Node that runs (Node 24 ships include/node).
  nodedir="$(node -p "require('path').resolve(process.execPath, '..', '..')")"
  [ -d "$nodedir/include/node" ] && export npm_config_nodedir="$nodedir"
  work="$cached.partial-$$"
  rm -rf "$work"
  mkdir -p "$work"
  cp "$n8n/package.json" "$n8n/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --legacy-peer-deps --ignore-scripts)
  echo "e2e: rebuilding sqlite3 and isolated-vm for $(node --version)" >&2
  (cd "$work" && npm rebuild sqlite3 isolated-vm)
  touch "$work/node_modules/.e2e-rebuilt"
  rm -rf "$cached"
  mv "$work" "$cached"
  echo "e2e: n8n installed in $(( $(date +%s) - start )) s" >&2
fi
if [ "$(readlink "$n8n/node_modules" 2>/dev/null)" != "$cached/node_modules" ]; then
  rm -rf "$n8n/node_modules"
  ln -s "$cached/node_modules" "$n8n/node_modules"
fi
want="$(node -p "require('$n8n/package.json').dependencies.n8n")"
have="$(node -p "require('$n8n/node_modules/n8n/package.json').version")"
if [ "$want" != "$have" ]; then
  echo "e2e: e2e/n8n has n8n $have, package.json pins $want" >&2
  exit 1
fi
