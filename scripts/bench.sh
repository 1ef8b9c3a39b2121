#!/usr/bin/env bash
# Benchmarks pt2web against onnxruntime-web on the fixture models and on
# kernel-level GEMM / convolution shapes, in one Node process per model
# (tests/bench/run.mjs; its options pass through, e.g. --filter mobilenet).
# Installs and builds what is missing first; run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
if [ ! -f npm/dist/pt2web.wasm ] || [ ! -f npm/dist/pt2web-threads.wasm ]; then bash scripts/build.sh; fi
node tests/bench/run.mjs "$@"
