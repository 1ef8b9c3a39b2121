#!/usr/bin/env bash
# Installs the toolchain of the Memory64 build (build/wasm64, npm/dist/pt2web-memory64.*)
# into one folder, by default build/toolchains/memory64, and leaves the system as it was
# apart from three bookworm packages. Bookworm's Emscripten 3.1.6 cannot target wasm64
# (docs/DECISIONS.md, "Memory64 toolchain"), so this takes:
#   - clang-19, lld-19, llvm-19 from bookworm (apt; the compiler and linker),
#   - Emscripten 3.1.69 from Debian trixie: an architecture-independent package, fetched
#     with a private apt state (nothing is added to the system's sources) and unpacked
#     with dpkg -x,
#   - binaryen 120 from the npm registry (wasm-opt built to wasm; trixie's binaryen
#     needs a newer libc than bookworm's) and acorn, which Emscripten's JS tools import,
#   - Node 24 (scripts/node-runtime.sh), which runs those tools and the Memory64 tests.
# Writes FOLDER/env.sh; `source` it to put this emcc first on PATH.
# Safe to run again: each part is skipped when it is in place.
#
#   bash scripts/install-memory64-toolchain.sh [FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."

emscripten_version=3.1.69+dfsg-3
binaryen_version=120.0.0
acorn_version=8.12.1
tc=$(mkdir -p "${1:-build/toolchains/memory64}" && cd "${1:-build/toolchains/memory64}" && pwd)

as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
missing=()
for package in clang-19 lld-19 llvm-19; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "memory64-toolchain: installing ${missing[*]}"
  if [ -z "${PT2WEB_APT_UPDATED:-}" ]; then "${as_root[@]}" apt-get update; fi
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

node24=$(bash scripts/node-runtime.sh node24)

# Emscripten from trixie, through an apt state of its own.
if [ "$(cat "$tc/emscripten/.pt2web-version" 2>/dev/null)" != "$emscripten_version" ]; then
  echo "memory64-toolchain: fetching emscripten $emscripten_version from Debian trixie"
  apt_dir=$tc/apt
  rm -rf "$apt_dir" "$tc/emscripten" "$tc/cache"
  mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/deb"
  echo 'deb http://deb.debian.org/debian trixie main' > "$apt_dir/sources.list"
  apt_private=(-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
               -o Dir::State="$apt_dir/state" -o Dir::Cache="$apt_dir/cache"
               -o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)")
  apt-get "${apt_private[@]}" update
  (cd "$apt_dir/deb" && apt-get "${apt_private[@]}" download "emscripten=$emscripten_version")
  dpkg -x "$apt_dir"/deb/emscripten_*.deb "$apt_dir/root"
  mv "$apt_dir/root/usr/share/emscripten" "$tc/emscripten"
  rm -rf "$apt_dir"
  # 3.1.69 probes Memory64 support with the memory type's old 'index' key; Node 24 and
  # current browsers take the final 'address' key, and without it memory growth fails.
  # Both keys are given, so either kind of engine reads the one it knows.
  for file in runtime_shared.js runtime_init_memory.js library.js preamble_minimal.js; do
    sed -i "s/'index': 'i64'/'index': 'i64', 'address': 'i64'/" "$tc/emscripten/src/$file"
    grep -q "'address': 'i64'" "$tc/emscripten/src/$file" || {
      echo "memory64-toolchain: the Memory64 patch did not apply to src/$file" >&2; exit 1; }
  done
  echo "$emscripten_version" > "$tc/emscripten/.pt2web-version"
fi

# Emscripten's JS tools import acorn as an ES module, which resolves from node_modules
# beside them (NODE_PATH does not apply to imports).
if [ ! -f "$tc/emscripten/node_modules/acorn/package.json" ]; then
  (cd "$tc/emscripten" && npm install --prefix . --no-save --no-package-lock --no-audit --no-fund \
    "acorn@$acorn_version")
fi

# binaryen's tools, run by Node 24, behind the names Emscripten calls.
if [ ! -x "$tc/binaryen/bin/wasm-opt" ]; then
  mkdir -p "$tc/binaryen-npm" "$tc/binaryen/bin"
  (cd "$tc/binaryen-npm" && npm install --prefix . --no-save --no-package-lock --no-audit --no-fund \
    "binaryen@$binaryen_version")
  for tool in "$tc"/binaryen-npm/node_modules/binaryen/bin/wasm*; do
    name=$(basename "$tool")
    printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node24" "$tool" > "$tc/binaryen/bin/$name"
    chmod +x "$tc/binaryen/bin/$name"
  done
fi

# A config of our own: clang 19's tools, a writable cache (the package's is frozen and
# holds only wasm32 libraries; the wasm64 ones are built into it on first use).
cat > "$tc/emscripten.config" <<EOF
LLVM_ROOT = '/usr/lib/llvm-19/bin'
BINARYEN_ROOT = '$tc/binaryen'
NODE_JS = '$node24'
CACHE = '$tc/cache'
FROZEN_CACHE = False
EOF
cat > "$tc/env.sh" <<EOF
# Puts the Memory64 toolchain's emcc first on PATH (written by install-memory64-toolchain.sh).
export EM_CONFIG='$tc/emscripten.config'
export PATH='$tc/emscripten':"\$PATH"
EOF
echo "memory64-toolchain: ready in $tc (source $tc/env.sh)"
