#!/usr/bin/env bash
# Configures the sanitizer + fuzzing build (clang, ASan + UBSan, libFuzzer
# coverage) in the folder given as $1. Optimized at -O1 with line tables:
# sanitizer reports get file:line, and compiling stays affordable.
set -euo pipefail
cd "$(dirname "$0")/.."
CXX=${PT2WEB_CLANG:-clang++} cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only -DNDEBUG" -DPT2WEB_FUZZ=ON >/dev/null
