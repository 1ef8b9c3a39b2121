#!/usr/bin/env bash
# Fails when a tracked file still holds a merge's conflict markers (a line
# starting with <<<<<<<, ======= alone, or >>>>>>>), naming each place.
# Binary files and the vendored third-party headers are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(git grep -n -I -E '^(<{7}( |$)|={7}$|>{7}( |$))' -- . ':!third_party*' ':!tests/third_party_include' || true)
if [[ -n "$found" ]]; then
  echo "merge conflict markers left in:" >&2
  echo "$found" >&2
  exit 1
fi
