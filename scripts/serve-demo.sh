#!/usr/bin/env bash
# Serves the web demo (web/) on http://localhost:8080/ with the headers for
# cross-origin isolation. Builds the WebAssembly module first when
# npm/dist/pt2web.wasm is missing (installing what the build needs).
#
# Environment: PORT (default 8080), HOST (default 127.0.0.1; 0.0.0.0 to
# reach the demo from another device, e.g. a phone on the same network).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -f npm/dist/pt2web.wasm ] || [ ! -f npm/dist/pt2web.mjs ] || [ ! -f npm/dist/pt2web-threads.wasm ]; then
  echo "serve-demo: the wasm modules in npm/dist are missing; building them (a few minutes)"
  bash scripts/install-deps.sh
  bash scripts/build.sh
elif ! command -v node >/dev/null; then
  bash scripts/install-deps.sh
fi

exec node web/serve.mjs --port "${PORT:-8080}" --host "${HOST:-127.0.0.1}"
