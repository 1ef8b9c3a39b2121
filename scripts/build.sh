#!/usr/bin/env bash
# Builds pt2web.
#
#   bash scripts/build.sh          natively (build/native: core, Catch2 tests,
#                                  tools) and with Emscripten (build/wasm: the
#                                  same tests for node, and the npm modules
#                                  written to npm/dist: pt2web.mjs + pt2web.wasm,
#                                  and the threaded pt2web-threads.mjs + .wasm +
#                                  .worker.js), and the Memory64 build (build/wasm64:
#                                  npm/dist/pt2web-memory64.mjs + .wasm, with the
#                                  toolchain of scripts/install-memory64-toolchain.sh)
#   bash scripts/build.sh --demo   only what the main job runs: the
#                                  single-threaded npm module (npm/dist/pt2web.*),
#                                  in the same build/wasm, without the tests
#
# Environment: PT2WEB_NATIVE_BUILD / PT2WEB_WASM_BUILD / PT2WEB_WASM64_BUILD choose
# other build folders, PT2WEB_MEMORY64_TOOLCHAIN the Memory64 toolchain's folder
# (default build/toolchains/memory64), PT2WEB_JOBS the parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=all
case "${1:-}" in
  '') ;;
  --demo) mode=demo ;;
  *) echo "usage: bash scripts/build.sh [--demo]" >&2; exit 2 ;;
esac

native_dir=${PT2WEB_NATIVE_BUILD:-build/native}
wasm_dir=${PT2WEB_WASM_BUILD:-build/wasm}
wasm64_dir=${PT2WEB_WASM64_BUILD:-build/wasm64}
memory64_toolchain=${PT2WEB_MEMORY64_TOOLCHAIN:-build/toolchains/memory64}
jobs=${PT2WEB_JOBS:-2}

# Debian's emcc runs JavaScript tools that need Debian's node modules.
export NODE_PATH=/usr/share/nodejs
# emcc compiles through ccache when it is installed (CMake does the same for
# the native build), so rebuilds of unchanged sources are cache hits.
# Paths are hashed relative to this tree, so clones elsewhere share the cache.
if command -v ccache >/dev/null; then
  export EM_COMPILER_WRAPPER=ccache CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi

if [ "$mode" = demo ]; then
  emcmake cmake -S . -B "$wasm_dir" -DCMAKE_BUILD_TYPE=Release -DPT2WEB_TESTS=OFF
  cmake --build "$wasm_dir" -j "$jobs" --target pt2web_wasm
  exit 0
fi

cmake -S . -B "$native_dir" -DCMAKE_BUILD_TYPE=Release -DPT2WEB_TESTS=ON
cmake --build "$native_dir" -j "$jobs"

emcmake cmake -S . -B "$wasm_dir" -DCMAKE_BUILD_TYPE=Release -DPT2WEB_TESTS=ON
cmake --build "$wasm_dir" -j "$jobs"

# The Memory64 module, with its own Emscripten (installed when missing). ccache
# must be named by its full path: that emcc runs the wrapper from its own folder.
bash scripts/install-memory64-toolchain.sh "$memory64_toolchain"
(
  # shellcheck disable=SC1091
  source "$memory64_toolchain/env.sh"
  if [ -n "${EM_COMPILER_WRAPPER:-}" ]; then export EM_COMPILER_WRAPPER=$(command -v ccache); fi
  emcmake cmake -S . -B "$wasm64_dir" -DCMAKE_BUILD_TYPE=Release -DPT2WEB_TESTS=OFF -DPT2WEB_MEMORY64=ON
  cmake --build "$wasm64_dir" -j "$jobs"
)
