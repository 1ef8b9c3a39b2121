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
# The fixtures' int8 twins are made by ../shared, not here: naming one asks
# only for its onnxruntime-web model (below).
fixture_twins=" q_mobilenet_v2 q_encoder_small_dyn "
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

# onnxruntime-web's side of each int8 twin (tests/bench/models.mjs,
# INT8_MODELS): an int8 ONNX model made from its float twin's model.onnx.
# A generated twin gets one when the twin was written in this run; a
# fixture's twin (tests/fixtures-int8) when its file is missing, or when the
# run was asked for it by name.
#   twin  where the float model is  float model  maker  suffix
int8_onnx=(
  "q_resnet18 tests/bench/models resnet18 make_qdq_onnx.py qdq"
  "q_mobilenet_v3_small tests/bench/models mobilenet_v3_small make_qdq_onnx.py qdq"
  "q_vit_tiny_dyn tests/bench/models vit_tiny make_dynamic_int8_onnx.py dyn_int8"
  "q_bert_mini_dyn tests/bench/models bert_mini make_dynamic_int8_onnx.py dyn_int8"
  "q_mobilenet_v2 tests/fixtures mobilenet_v2 make_qdq_onnx.py qdq"
  "q_encoder_small_dyn tests/fixtures encoder_small make_dynamic_int8_onnx.py dyn_int8"
)
named() { local n; for n in "${requested[@]}"; do [[ "$n" == "$1" ]] && return 0; done; return 1; }
cp "$repo/tools/torch/make_qdq_onnx.py" "$repo/tools/torch/make_dynamic_int8_onnx.py" "$work/"
for line in "${int8_onnx[@]}"; do
  read -r twin home float maker suffix <<<"$line"
  target="$repo/tests/bench/models/$float.$suffix.onnx"
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
  if chroot "$root" python3 "$inside/$maker" "$inside/$float.onnx" "$inside/$float.$suffix.onnx"; then
    cp "$work/$float.$suffix.onnx" "$target"
    echo "wrote tests/bench/models/$float.$suffix.onnx" >&2
  else
    echo "$twin: $maker failed; its onnxruntime-web side will be skipped" >&2
  fi
done
