#!/usr/bin/env bash
# Every test: installs what is missing, checks that src/'s layers only
# include downwards (scripts/check-layers.sh) and that no merge left conflict
# markers (scripts/check-conflict-markers.sh), builds, then runs the native Catch2
# tests, the same tests under ASan + UBSan + LeakSanitizer (scripts/sanitize.sh,
# clang build in build/sanitize), a bounded run of each libFuzzer target
# (scripts/fuzz.sh, PT2WEB_FUZZ_SECONDS each, default 25), the same tests
# compiled to wasm, the Node tests of the npm package and CLI (tests/js), the
# packaging test (tests/package), the benchmark harness' self-checks and the
# web demo's tests in headless chromium (tests/browser). Everything that runs
# in Node runs on Node 24 (today's LTS line, from the npm registry:
# scripts/node-runtime.sh); the wasm and JavaScript tests run
# again on Debian's Node 20, and the JavaScript tests on Node 22
# (other-runtimes.sh). Runs them all and exits non-zero if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

failed=()
# Each suite's heading says when it started, so a slow CI log shows where the time went.
step() { echo "== $* (at ${SECONDS} s)"; }
step "layer check (src/ includes only look down)"
bash scripts/check-layers.sh || failed+=(layers)
step "no merge conflict markers left in tracked files"
bash scripts/check-conflict-markers.sh || failed+=(conflict-markers)

bash scripts/build.sh

native_dir=${PT2WEB_NATIVE_BUILD:-build/native}
wasm_dir=${PT2WEB_WASM_BUILD:-build/wasm}

# Both cores: ctest runs the unit tests and the OpInfo corpus side by side.
step "native tests"
(cd "$native_dir" && ctest --output-on-failure --no-tests=error -j 2) || failed+=(native)
step "native tests under sanitizers"
bash scripts/sanitize.sh || failed+=(sanitize)
step "bounded fuzzing"
bash scripts/fuzz.sh "${PT2WEB_FUZZ_SECONDS:-25}" || failed+=(fuzz)
node24=$(bash scripts/node-runtime.sh node24)
node20=$(bash scripts/node-runtime.sh node20)
# The wasm Catch2 binary as ctest runs it (tests/CMakeLists.txt), on one
# Node: the unit tests and the OpInfo corpus side by side, each part's output
# shown whole after both end.
wasm_tests() {
  local logs status=0
  logs=$(mktemp -d)
  "$1" "$wasm_dir/tests/pt2web_tests.js" --warn NoTests "~[opinfo]" >"$logs/unit" 2>&1 &
  local unit=$!
  "$1" "$wasm_dir/tests/pt2web_tests.js" --warn NoTests "[opinfo]" >"$logs/opinfo" 2>&1 &
  local opinfo=$!
  wait "$unit" || status=1
  wait "$opinfo" || status=1
  cat "$logs/unit" "$logs/opinfo"
  rm -rf "$logs"
  return "$status"
}
for runtime in node24 node20; do
  node=${!runtime}
  step "wasm tests (Node $("$node" --version))"
  wasm_tests "$node" || failed+=("wasm-$runtime")
  step "JavaScript tests (Node $("$node" --version))"
  # The test files by name: from Node 22 on, --test takes files and globs, not folders.
  "$node" --test tests/js/*.test.mjs || failed+=("js-$runtime")
done
# Packing, installing and bundling do not depend on the Node that drives them
# beyond what the JavaScript tests cover, so this (the slowest suite) runs once.
step "packaging test (npm pack, Node and a Vite build in chromium; Node $("$node24" --version))"
"$node24" --test tests/package/*.test.mjs || failed+=(package)
bash scripts/other-runtimes.sh || failed+=(other-runtimes)
step "benchmark harness self-checks (Node $("$node24" --version))"
"$node24" --test tests/bench/*.test.mjs || failed+=(bench)
step "browser tests (headless chromium; Node $("$node24" --version) serves and drives)"
"$node24" --test tests/browser/*.test.mjs || failed+=(browser)

if [ ${#failed[@]} -ne 0 ]; then
  echo "test.sh: failed after ${SECONDS} s: ${failed[*]}"
  exit 1
fi
echo "test.sh: all tests passed in ${SECONDS} s"
