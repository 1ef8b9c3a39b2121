#!/usr/bin/env bash
# Benchmarks pt2web against onnxruntime-web on the fixture models and on
# kernel-level GEMM / convolution shapes, in one Node process per model
# (tests/bench/run.mjs; its options pass through, e.g. --filter mobilenet).
# Runs on Node 24 (today's LTS line, from the npm registry; see
# scripts/node-runtime.sh); --node20 first runs it on Debian's Node 20.
# Installs and builds what is missing first; run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runtime=node24
if [ "${1:-}" = --node20 ]; then
  runtime=node20
  shift
fi
bash scripts/install-deps.sh
if [ ! -f npm/dist/pt2web.wasm ] || [ ! -f npm/dist/pt2web-threads.wasm ]; then bash scripts/build.sh; fi
node=$(bash scripts/node-runtime.sh "$runtime")
"$node" tests/bench/run.mjs "$@"
