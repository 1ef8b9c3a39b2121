#!/usr/bin/env bash
# Installs what building and testing pt2web needs, and only what is missing:
# Debian packages (cmake, g++, make, ccache, emscripten, catch2, nlohmann-json3-dev,
# nodejs, chromium for the browser tests, clang with its sanitizer and libFuzzer
# runtimes for scripts/sanitize.sh and scripts/fuzz.sh, python3 for the seeds) and, when npm/package.json declares dependencies, its npm packages.
# Safe to run again: it does nothing when everything is present.
#
#   bash scripts/install-deps.sh          everything (build, tests, benchmark)
#   bash scripts/install-deps.sh --demo   only what the main job needs to build
#                                         the npm module and run it (no tests,
#                                         no npm packages)
set -euo pipefail
cd "$(dirname "$0")/.."

as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi

installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

apt_install() {
  local missing=()
  for package in "$@"; do installed "$package" || missing+=("$package"); done
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "${PT2WEB_APT_UPDATED:-}" ]; then
    "${as_root[@]}" apt-get update
    PT2WEB_APT_UPDATED=1
  fi
  "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
}

case "${1:-}" in
  '') ;;
  --demo)
    apt_install cmake make ccache emscripten nlohmann-json3-dev nodejs
    exit 0 ;;
  *) echo "usage: bash scripts/install-deps.sh [--demo]" >&2; exit 2 ;;
esac

apt_install cmake g++ make ccache emscripten catch2 nlohmann-json3-dev nodejs chromium \
  clang libclang-rt-dev python3

# npm packages, only when the package declares some.
needs_npm=$(node -e '
  const p = require("./npm/package.json");
  const n = Object.keys({...p.dependencies, ...p.devDependencies}).length;
  process.stdout.write(n > 0 ? "yes" : "no");')
# Installed when missing, or again when package-lock.json changed since.
if [ "$needs_npm" = yes ] && { [ ! -f npm/node_modules/.package-lock.json ] ||
                               [ npm/package-lock.json -nt npm/node_modules/.package-lock.json ]; }; then
  command -v npm >/dev/null || apt_install npm
  if [ -f npm/package-lock.json ]; then
    (cd npm && npm ci --no-audit --no-fund)
  else
    (cd npm && npm install --no-audit --no-fund)
  fi
fi

# The Memory64 build's own toolchain (Emscripten 3.1.69 from trixie, clang 19, binaryen,
# Node 24), in build/toolchains/memory64 unless PT2WEB_MEMORY64_TOOLCHAIN says where.
PT2WEB_APT_UPDATED=${PT2WEB_APT_UPDATED:-} bash scripts/install-memory64-toolchain.sh \
  "${PT2WEB_MEMORY64_TOOLCHAIN:-build/toolchains/memory64}"
