#!/usr/bin/env bash
# The main job: install what is missing, build, and classify the bundled 8x8
# digits with the digits_cnn program running in WebAssembly under Node.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
node npm/bin/pt2web.mjs demo
