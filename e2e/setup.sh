#!/usr/bin/env bash
# Prepares what the e2e suite needs, reusing whatever is already in place:
#  - Debian packages chromium, redis-server, postgresql, and for the docker part docker.io,
#    docker-compose and debootstrap (installed only when missing; needs root and apt-get);
#  - the suite's tools in e2e/node_modules (playwright-core, verdaccio), from e2e/package-lock.json;
#  - n8n itself: each pinned version in e2e/n8n/<version>/ (2.41.1, and the older ones the
#    compatibility part runs), installed once into a cache outside the clone by e2e/n8n/install.sh.
# Fails loudly when anything cannot be installed (e.g. the registry stops serving this n8n).
# Sourced by scripts/run after scripts/node24.sh (Node 24 on PATH).
set -euo pipefail
e2e="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v redis-server >/dev/null || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ "$#" -eq 0 ] || [[ " $* " == *" docker "* ]]; then
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v docker-compose >/dev/null || missing+=(docker-compose)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
fi
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

# n8n itself: one pinned install per folder of e2e/n8n/ (e2e/n8n/install.sh, cached outside the clone).
# 2.41.1 for every part; the older ones only when the compatibility or agents part runs (all parts,
# `compat` or `agents`).
versions=(2.41.1)
if [ "$#" -eq 0 ] || [[ " $* " == *" compat "* ]] || [[ " $* " == *" agents "* ]] || [[ " $* " == *" recovery "* ]]; then
  for pin in "$e2e"/n8n/*/; do
    v="$(basename "$pin")"
    [ "$v" = 2.41.1 ] || versions+=("$v")
  done
fi
for v in "${versions[@]}"; do
  bash "$e2e/n8n/install.sh" "$v"
done
