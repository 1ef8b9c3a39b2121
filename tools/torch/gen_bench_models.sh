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

# onnxruntime-web's side of each int8 twin written in this run: an int8 ONNX
# model made from its float twin's model.onnx (tests/bench/models.mjs, INT8_MODELS).
int8_onnx=(
  "q_resnet18 resnet18 make_qdq_onnx.py qdq"
  "q_mobilenet_v3_small mobilenet_v3_small make_qdq_onnx.py qdq"
  "q_vit_tiny_dyn vit_tiny make_dynamic_int8_onnx.py dyn_int8"
  "q_bert_mini_dyn bert_mini make_dynamic_int8_onnx.py dyn_int8"
)
cp "$repo/tools/torch/make_qdq_onnx.py" "$repo/tools/torch/make_dynamic_int8_onnx.py" "$work/"
for line in "${int8_onnx[@]}"; do
  read -r twin float maker suffix <<<"$line"
  [[ -d "$work/out/$twin" ]] || continue
  float_onnx="$repo/tests/bench/models/$float/model.onnx"
  if [[ ! -f "$float_onnx" ]]; then
    echo "$twin: no $float/model.onnx to quantize for onnxruntime-web (generate $float first)" >&2
    continue
  fi
  cp "$float_onnx" "$work/$float.onnx"
  if chroot "$root" python3 "$inside/$maker" "$inside/$float.onnx" "$inside/$float.$suffix.onnx"; then
    cp "$work/$float.$suffix.onnx" "$repo/tests/bench/models/"
    echo "wrote tests/bench/models/$float.$suffix.onnx" >&2
  else
    echo "$twin: $maker failed; its onnxruntime-web side will be skipped" >&2
  fi
done
