#!/usr/bin/env bash
# The package's Node tests (tests/js) on more JavaScript runtimes: Node 22
# (the other current LTS line; scripts/test.sh runs the whole suite on Node
# 24 and Debian's Node 20), and Bun on request (its test runner runs the
# node:test files). Each is installed into build/runtimes/ the first time
# (scripts/node-runtime.sh), then reused. Exits non-zero if any run failed.
# Needs npm/dist built (scripts/build.sh).
#
# Environment: PT2WEB_RUNTIMES lists which to run (default "node22"; any of
# node20 node22 node24 bun).
set -euo pipefail
cd "$(dirname "$0")/.."

runtimes=${PT2WEB_RUNTIMES:-node22}
failed=()

for runtime in $runtimes; do
  binary=$(bash scripts/node-runtime.sh "$runtime")
  case $runtime in
    node*)
      echo "== JavaScript tests on Node $("$binary" --version)"
      # The test files by name: from Node 22 on, --test takes files and globs, not folders.
      "$binary" --test tests/js/*.test.mjs || failed+=("$runtime")
      ;;
    bun)
      echo "== JavaScript tests on Bun $("$binary" --version)"
      "$binary" test --timeout 600000 tests/js/ || failed+=(bun)
      ;;
  esac
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "other-runtimes: failed on ${failed[*]}"
  exit 1
fi
