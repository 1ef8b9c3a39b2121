#!/usr/bin/env bash
# Writes the wider benchmark's models (tools/torch/gen_bench_models.py) into
# tests/bench/models/ (gitignored: tens of megabytes), exporting them with the
# torch 2.6 of a Debian trixie chroot (recipe: ../shared/tools/README.md).
#
#   bash tools/torch/gen_bench_models.sh CHROOT [name ...]
#
# Also writes onnxruntime-web's int8 models for the int8 twins (below),
# the fixtures' twins q_mobilenet_v2 and q_encoder_small_dyn included.
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
requested=("$@")
# The int8 twins and onnxruntime-web's model for each, from the harness's own
# list (tests/bench/models.mjs, INT8_MODELS), a line each:
#   twin  where its float model is  float model  int8 ONNX file
mapfile -t int8_onnx < <(cd "$repo" && node --input-type=module -e "
  import { INT8_MODELS } from './tests/bench/models.mjs';
  for (const m of INT8_MODELS)
    console.log(m.name, m.generated ? 'tests/bench/models' : 'tests/fixtures', m.twin, m.onnx);")
(( ${#int8_onnx[@]} > 0 )) || { echo "could not read INT8_MODELS from tests/bench/models.mjs" >&2; exit 2; }
# The fixtures' twins are made by ../shared, not here: naming one asks only
# for its onnxruntime-web model (below).
fixture_twins=" "
for line in "${int8_onnx[@]}"; do
  read -r twin home _ <<<"$line"
  if [[ "$home" == tests/fixtures ]]; then fixture_twins+="$twin "; fi
done
models=()
for name in "$@"; do [[ "$fixture_twins" == *" $name "* ]] || models+=("$name"); done
gen_fixtures=${GEN_FIXTURES:-}
for candidate in "$gen_fixtures" "$repo/../shared/tools/gen_fixtures.py" /work/shared/tools/gen_fixtures.py; do
  if [[ -n "$candidate" && -f "$candidate" ]]; then gen_fixtures=$candidate; break; fi
done
[[ -f "$gen_fixtures" ]] || { echo "gen_fixtures.py not found: set GEN_FIXTURES" >&2; exit 2; }

work=$(mktemp -d "$root/tmp/pt2web-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$repo/tools/torch/gen_bench_models.py" "$gen_fixtures" "$work/"
inside=/tmp/$(basename "$work")
mkdir -p "$work/out" "$repo/tests/bench/models"
if [[ ${#requested[@]} -eq 0 || ${#models[@]} -gt 0 ]]; then
  chroot "$root" sh -c "cd $inside && python3 gen_bench_models.py out ${models[*]}"
  cp -r "$work/out/." "$repo/tests/bench/models/"
  echo "wrote $(ls "$work/out" | wc -l) models into tests/bench/models/" >&2
fi

# onnxruntime-web's side of each int8 twin: an int8 ONNX model made from its
# float twin's model.onnx, static QDQ or dynamic by the file's suffix. A
# generated twin gets one when the twin was written in this run; a fixture's
# twin (tests/fixtures-int8) when its file is missing, or when the run was
# asked for it by name.
named() { local n; for n in "${requested[@]}"; do [[ "$n" == "$1" ]] && return 0; done; return 1; }
cp "$repo/tools/torch/make_qdq_onnx.py" "$repo/tools/torch/make_dynamic_int8_onnx.py" "$work/"
for line in "${int8_onnx[@]}"; do
  read -r twin home float file <<<"$line"
  case "$file" in
    *.qdq.onnx) maker=make_qdq_onnx.py ;;
    *.dyn_int8.onnx) maker=make_dynamic_int8_onnx.py ;;
    *) echo "$twin: no maker for $file" >&2; continue ;;
  esac
  target="$repo/tests/bench/models/$file"
  if [[ "$home" == tests/fixtures ]]; then
    [[ ! -f "$target" ]] || named "$twin" || continue
  else
    [[ -d "$work/out/$twin" ]] || continue
  fi
  float_onnx="$repo/$home/$float/model.onnx"
  if [[ ! -f "$float_onnx" ]]; then
    echo "$twin: no $home/$float/model.onnx to quantize for onnxruntime-web (generate $float first)" >&2
    continue
  fi
  cp "$float_onnx" "$work/$float.onnx"
  if chroot "$root" python3 "$inside/$maker" "$inside/$float.onnx" "$inside/$file"; then
    cp "$work/$file" "$target"
    echo "wrote tests/bench/models/$file" >&2
  else
    echo "$twin: $maker failed; its onnxruntime-web side will be skipped" >&2
  fi
done
