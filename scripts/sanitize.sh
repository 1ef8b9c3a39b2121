#!/usr/bin/env bash
# The whole native test suite under AddressSanitizer, UndefinedBehaviorSanitizer
# and LeakSanitizer: builds build/sanitize with clang (PT2WEB_FUZZ=ON, so the
# same build also holds the libFuzzer targets that scripts/fuzz.sh runs) and
# runs its ctest, which also replays the fuzzers' checked-in regression inputs.
# Any sanitizer report aborts the test binary, so ctest fails.
#
# Environment: PT2WEB_SANITIZE_BUILD chooses the build folder, PT2WEB_JOBS the
# parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${PT2WEB_SANITIZE_BUILD:-build/sanitize}
jobs=${PT2WEB_JOBS:-2}

bash scripts/configure-sanitize.sh "$build_dir"
cmake --build "$build_dir" -j "$jobs"

# allocator_may_return_null: a failed allocation returns null as libc's does,
# so the tests of out-of-memory errors (OutOfMemory, not an abort) run here too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Both cores: the unit tests, the OpInfo corpus and the replays side by side.
(cd "$build_dir" && ctest --output-on-failure --no-tests=error -j 2)
