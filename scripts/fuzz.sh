#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz) one after another, each for a fixed
# time, on one core (the machine is shared). Seeds are regenerated from the
# fixtures by tests/fuzz/make_seeds.py; what the fuzzers discover is kept in
# the corpus folder across runs. A crash, sanitizer report, leak, timeout or
# out-of-memory stops that target, saves the input under <corpus>/artifacts/
# and makes the script exit non-zero. Prints executions and time per target.
#
# usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   SECONDS_PER_TARGET  default 25 (CI); use hours for long runs
#   TARGET              zip_archive torch_load program_json tree_spec load_run
#                       op_calls (default: all but op_calls, whose libFuzzer runs
#                       still find kernels to harden within minutes; CI runs
#                       its generator as the fixed sweep in the unit tests)
# Environment: PT2WEB_SANITIZE_BUILD (default build/sanitize), PT2WEB_FUZZ_CORPUS
# (default build/fuzz-corpus), PT2WEB_JOBS (build parallelism, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-25}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(zip_archive torch_load program_json tree_spec load_run); fi
build_dir=${PT2WEB_SANITIZE_BUILD:-build/sanitize}
corpus=${PT2WEB_FUZZ_CORPUS:-build/fuzz-corpus}
jobs=${PT2WEB_JOBS:-2}

bash scripts/configure-sanitize.sh "$build_dir"
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]/#/fuzz_}"

rm -rf "$corpus/seeds"
python3 tests/fuzz/make_seeds.py tests/fixtures "$corpus/seeds"
mkdir -p "$corpus/artifacts"

# Leaks are findings too; allocation failures are reported by libFuzzer's
# -malloc_limit_mb (a single allocation above 2 GiB is a finding).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=()
summary=()
for target in "${targets[@]}"; do
  mkdir -p "$corpus/$target"
  log="$corpus/$target.log"
  echo "== fuzz_$target for ${seconds}s"
  status=0
  "$build_dir/tests/fuzz/fuzz_$target" "$corpus/$target" "$corpus/seeds/$target" \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -malloc_limit_mb=2048 \
    -max_len=131072 -print_final_stats=1 -artifact_prefix="$corpus/artifacts/$target-" \
    >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
  size=$(find "$corpus/$target" -type f | wc -l)
  line="fuzz_$target: ${execs:-?} executions in ${seconds}s (${rate:-?}/s, peak RSS ${rss:-?} MB), corpus $size files"
  if [ "$status" -ne 0 ]; then
    line="$line, FAILED (exit $status; see $log)"
    failed+=("$target")
    grep -E "ERROR|SUMMARY|Internal error|exception other|Test unit written" "$log" | head -n 20 || true
  fi
  summary+=("$line")
  echo "$line"
done

echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz.sh: failed: ${failed[*]}"
  exit 1
fi
