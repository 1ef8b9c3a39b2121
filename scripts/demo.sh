#!/usr/bin/env bash
# The main job: install what it needs, build the npm package's single-threaded
# wasm module (nothing else: scripts/test.sh builds the rest), and classify
# the bundled 8x8 digits with the digits_cnn program running in WebAssembly
# under Node.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --demo
bash scripts/build.sh --demo
node npm/bin/pt2web.mjs demo
