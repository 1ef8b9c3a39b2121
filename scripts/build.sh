#!/usr/bin/env bash
# Builds pt2web twice: natively (build/native: core, Catch2 tests, tools) and
# with Emscripten (build/wasm: the same tests for node, and the npm modules
# written to npm/dist: pt2web.mjs + pt2web.wasm, and the threaded
# pt2web-threads.mjs + .wasm + .worker.js).
#
# Environment: PT2WEB_NATIVE_BUILD / PT2WEB_WASM_BUILD choose other build
# folders, PT2WEB_JOBS the parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

native_dir=${PT2WEB_NATIVE_BUILD:-build/native}
wasm_dir=${PT2WEB_WASM_BUILD:-build/wasm}
jobs=${PT2WEB_JOBS:-2}

# Debian's emcc runs JavaScript tools that need Debian's node modules.
export NODE_PATH=/usr/share/nodejs
# emcc compiles through ccache when it is installed (CMake does the same for
# the native build), so rebuilds of unchanged sources are cache hits.
# Paths are hashed relative to this tree, so clones elsewhere share the cache.
if command -v ccache >/dev/null; then
  export EM_COMPILER_WRAPPER=ccache CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi

cmake -S . -B "$native_dir" -DCMAKE_BUILD_TYPE=Release
cmake --build "$native_dir" -j "$jobs"

emcmake cmake -S . -B "$wasm_dir" -DCMAKE_BUILD_TYPE=Release
cmake --build "$wasm_dir" -j "$jobs"
