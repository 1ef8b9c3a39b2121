#!/usr/bin/env bash
# Checks every program folder under DIR (the fixture format of
# tests/fixtures/README.md: model.pt2 + cases.json, model.core.pt2 +
# cases.core.json) in both dialects, natively (build/native's pt2web_native)
# and in wasm (the npm CLI on Node), and prints one line per program and
# dialect, then pass counts per family (cases.json's "family", else "-").
# Usage: bash scripts/check-corpus.sh DIR [--native-only]
# Exits non-zero when any program fails.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: bash scripts/check-corpus.sh DIR [--native-only]}
native_only=${2:-}
native=${PT2WEB_NATIVE_BUILD:-build/native}/tools/pt2web_native
node=${NODE:-node}
declare -A passed total
failures=0
for program in "$dir"/*/; do
  name=$(basename "$program")
  [ -f "$program/cases.json" ] || continue
  family=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('family', '-'))" "$program/cases.json")
  for dialect in training core; do
    flag=""; [ "$dialect" = core ] && flag=--core
    [ "$dialect" = core ] && [ ! -f "$program/cases.core.json" ] && continue
    runners=(native); [ -z "$native_only" ] && runners+=(wasm)
    for runner in "${runners[@]}"; do
      if [ "$runner" = native ]; then last=$("$native" check "$program" $flag 2>&1 | tail -1)
      else last=$("$node" npm/bin/pt2web.mjs check "$program" $flag 2>&1 | tail -1); fi
      key="$family $dialect $runner"
      total[$key]=$(( ${total[$key]:-0} + 1 ))
      if [[ "$last" =~ ^[0-9]+\ passed,\ 0\ failed ]]; then
        passed[$key]=$(( ${passed[$key]:-0} + 1 ))
      else
        failures=$((failures + 1))
        echo "FAIL $name $dialect $runner: $last"
      fi
    done
  done
done
echo "family dialect runner: passed/total"
for key in $(printf '%s\n' "${!total[@]}" | tr ' ' '|' | sort); do
  k=${key//|/ }
  echo "$k: ${passed[$k]:-0}/${total[$k]}"
done
[ "$failures" -eq 0 ]
