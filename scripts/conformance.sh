#!/usr/bin/env bash
# Runs a conformance corpus (a folder of program folders in the fixture
# format, e.g. the OpInfo corpus ../shared/conformance/opinfo or the subset in
# tests/conformance/opinfo) through the native driver and summarizes the pass
# counts per dialect and per dtype (read from folder names ending in
# __<dtype>__s<k>).
#
#   scripts/conformance.sh CORPUS_DIR [--dialect training|core] [--out FILE]
#
# Every (folder, dialect) gets one line in FILE (default
# build/conformance/results.tsv): PASS|FAIL, folder, dialect, code, message
# (see tests/support/conformance_check.h), with "  case ..." lines under
# failures. A crash of the driver is recorded as code CRASH for the folder it
# was running and the run continues with the next folder. Exits 1 when any
# program failed. Needs build/native's pt2web_native (PT2WEB_NATIVE_BUILD
# overrides the build folder). The CI test of the subset, with its list of
# known failures, is tests/unit/opinfo_conformance_test.cpp.
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/conformance.sh CORPUS_DIR [--dialect training|core] [--out FILE]" >&2; exit 2; }
[ $# -ge 1 ] || usage
corpus=$1; shift
dialect=both
out=build/conformance/results.tsv
while [ $# -gt 0 ]; do
  case $1 in
    --dialect) dialect=${2:-}; shift 2 ;;
    --out) out=${2:-}; shift 2 ;;
    *) usage ;;
  esac
done
case $dialect in training|core|both) ;; *) usage ;; esac

driver=${PT2WEB_NATIVE_BUILD:-build/native}/tools/pt2web_native
if [ ! -x "$driver" ]; then
  echo "conformance.sh: $driver is missing; build it with cmake --build build/native --target pt2web_native" >&2
  exit 2
fi

mkdir -p "$(dirname "$out")"
: > "$out"
todo=$(mktemp)
trap 'rm -f "$todo"' EXIT
find "$corpus" -mindepth 2 -maxdepth 2 -name model.pt2 -printf '%h\n' | sort > "$todo"
if [ ! -s "$todo" ]; then echo "conformance.sh: no program folders in $corpus" >&2; exit 2; fi
dialects=$([ "$dialect" = both ] && echo "training core" || echo "$dialect")

while [ -s "$todo" ]; do
  "$driver" conform --dialect "$dialect" --list "$todo" >> "$out" 2>/dev/null
  rc=$?
  if [ $rc -lt 128 ]; then break; fi
  # The driver crashed: the first folder without a line for every dialect is the culprit.
  n_lines=0
  while read -r folder; do
    name=$(basename "$folder")
    done_here=$(awk -F'\t' -v f="$name" '$2 == f' "$out" | wc -l)
    if [ "$done_here" -lt $(echo $dialects | wc -w) ]; then
      for d in $dialects; do
        awk -F'\t' -v f="$name" -v d="$d" '$2 == f && $3 == d {found=1} END {exit !found}' "$out" ||
          printf 'FAIL\t%s\t%s\tCRASH\tthe driver died with signal %d\n' "$name" "$d" $((rc - 128)) >> "$out"
      done
      n_lines=$((n_lines + 1))
      break
    fi
    n_lines=$((n_lines + 1))
  done < "$todo"
  tail -n +$((n_lines + 1)) "$todo" > "$todo.next" && mv "$todo.next" "$todo"
done

echo "== pass counts ($out)"
awk -F'\t' '
  /^(PASS|FAIL)\t/ {
    n = split($2, parts, "__"); dtype = (n >= 3 && parts[n] ~ /^s[0-9]+$/) ? parts[n - 1] : "-"
    total[$3]++; pass[$3] += ($1 == "PASS"); dt[$3 "\t" dtype]++; dpass[$3 "\t" dtype] += ($1 == "PASS")
    dtypes[dtype] = 1
  }
  END {
    for (d in total) {
      printf "%-9s %5d of %5d passed (%.1f%%)\n", d, pass[d], total[d], 100 * pass[d] / total[d]
      for (t in dtypes) if ((d "\t" t) in dt)
        printf "  %-9s %5d of %5d\n", t, dpass[d "\t" t], dt[d "\t" t]
    }
  }' "$out"
grep -q $'^FAIL\t' "$out" && exit 1
exit 0
