#!/usr/bin/env bash
# Writes the wider benchmark's models (tools/torch/gen_bench_models.py) into
# tests/bench/models/ (gitignored: tens of megabytes), exporting them with the
# torch 2.6 of a Debian trixie chroot (recipe: ../shared/tools/README.md).
#
#   bash tools/torch/gen_bench_models.sh CHROOT [name ...]
#
# CHROOT: the chroot's root folder (also taken from PT2WEB_TORCH_CHROOT).
# GEN_FIXTURES: path of gen_fixtures.py (default ../shared/tools/gen_fixtures.py
# next to the repository, else /work/shared/tools/gen_fixtures.py).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
root=${1:-${PT2WEB_TORCH_CHROOT:-}}
if [[ -z "$root" || ! -x "$root/usr/bin/python3" ]]; then
  echo "usage: bash tools/torch/gen_bench_models.sh CHROOT [name ...]  (CHROOT: a root with python3-torch 2.6)" >&2
  exit 2
fi
shift || true
gen_fixtures=${GEN_FIXTURES:-}
for candidate in "$gen_fixtures" "$repo/../shared/tools/gen_fixtures.py" /work/shared/tools/gen_fixtures.py; do
  if [[ -n "$candidate" && -f "$candidate" ]]; then gen_fixtures=$candidate; break; fi
done
[[ -f "$gen_fixtures" ]] || { echo "gen_fixtures.py not found: set GEN_FIXTURES" >&2; exit 2; }

work=$(mktemp -d "$root/tmp/pt2web-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$repo/tools/torch/gen_bench_models.py" "$gen_fixtures" "$work/"
inside=/tmp/$(basename "$work")
chroot "$root" sh -c "cd $inside && python3 gen_bench_models.py out $*"
mkdir -p "$repo/tests/bench/models"
cp -r "$work/out/." "$repo/tests/bench/models/"
echo "wrote $(ls "$work/out" | wc -l) models into tests/bench/models/" >&2
