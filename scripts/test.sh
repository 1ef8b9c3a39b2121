#!/usr/bin/env bash
# Every test: installs what is missing, checks that src/'s layers only
# include downwards (scripts/check-layers.sh) and that no merge left conflict
# markers (scripts/check-conflict-markers.sh), builds, then runs the native Catch2
# tests, the same tests under ASan + UBSan + LeakSanitizer (scripts/sanitize.sh,
# clang build in build/sanitize), a bounded run of each libFuzzer target
# (scripts/fuzz.sh, PT2WEB_FUZZ_SECONDS each, default 25), the same tests
# compiled to wasm (under node), the Node tests of the npm package and CLI
# (tests/js, also on Node 22 and 24: other-runtimes.sh), the packaging test
# (tests/package), the benchmark harness' self-checks and the web demo's
# tests in headless chromium (tests/browser). Runs them all and exits
# non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

failed=()
echo "== layer check (src/ includes only look down)"
bash scripts/check-layers.sh || failed+=(layers)
echo "== no merge conflict markers left in tracked files"
bash scripts/check-conflict-markers.sh || failed+=(conflict-markers)

bash scripts/build.sh

native_dir=${PT2WEB_NATIVE_BUILD:-build/native}
wasm_dir=${PT2WEB_WASM_BUILD:-build/wasm}

echo "== native tests"
(cd "$native_dir" && ctest --output-on-failure --no-tests=error) || failed+=(native)
echo "== native tests under sanitizers"
bash scripts/sanitize.sh || failed+=(sanitize)
echo "== bounded fuzzing"
bash scripts/fuzz.sh "${PT2WEB_FUZZ_SECONDS:-25}" || failed+=(fuzz)
echo "== wasm tests (node)"
(cd "$wasm_dir" && ctest --output-on-failure --no-tests=error) || failed+=(wasm)
echo "== JavaScript tests"
node --test tests/js/ || failed+=(js)
bash scripts/other-runtimes.sh || failed+=(other-runtimes)
echo "== packaging test (npm pack, Node and a Vite build in chromium)"
node --test tests/package/ || failed+=(package)
echo "== benchmark harness self-checks"
node --test tests/bench/ || failed+=(bench)
echo "== browser tests (headless chromium)"
node --test tests/browser/ || failed+=(browser)

if [ ${#failed[@]} -ne 0 ]; then
  echo "test.sh: failed: ${failed[*]}"
  exit 1
fi
echo "test.sh: all tests passed"
