#!/usr/bin/env python3
"""Loads .pt2 files that pt2web saved into real torch and runs a fixture's
cases on them: the check that pt2web's writer produces archives torch 2.6's
torch.export.load reads, with the same results.

Not part of CI (it needs torch: run it in the trixie chroot, see
tests/fixtures/../tools README in /work/shared/tools):

    chroot /work/trixie-root python3 /x/torch_check_saved.py SAVED.pt2 CASES.json [SAVED.pt2 CASES.json ...]

For each pair it prints the program's dialect, operator count and one line
per case (max error against torch's recorded result), and exits non-zero if
a file does not load or a case differs beyond the case's tolerance.
"""
import base64
import json
import sys

import torch

DTYPES = {
    "float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32,
    "int16": torch.int16, "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
}


def decode(v):
    if v is None:
        return None
    (kind, x), = v.items()
    if kind == "tensor":
        raw = bytearray(base64.b64decode(x["data"]))
        dtype = DTYPES[x["dtype"]]
        flat = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
        return flat.reshape(x["shape"]).clone()
    if kind in ("int", "bool", "str"):
        return x
    if kind == "float":
        return float(x)
    if kind == "tuple":
        return tuple(decode(e) for e in x)
    if kind == "list":
        return [decode(e) for e in x]
    if kind == "dict":
        return {k: decode(e) for k, e in x}
    raise ValueError(f"cannot decode {kind}")


def max_error(got, want, rtol, atol):
    """Largest |got - want| - tolerance (<= 0 means within tolerance)."""
    if isinstance(want, torch.Tensor):
        if got.shape != want.shape:
            return float("inf")
        if not want.is_floating_point():
            return 0.0 if torch.equal(got, want) else float("inf")
        diff = (got.double() - want.double()).abs() - (atol + rtol * want.double().abs())
        both_nan = got.isnan() & want.isnan()
        diff = torch.where(both_nan, torch.zeros_like(diff), diff)
        return diff.max().item() if diff.numel() else 0.0
    if isinstance(want, (tuple, list)):
        return max([max_error(g, w, rtol, atol) for g, w in zip(got, want)] + [0.0])
    if isinstance(want, dict):
        return max([max_error(got[k], w, rtol, atol) for k, w in want.items()] + [0.0])
    if isinstance(want, float):
        return abs(got - want) - (atol + rtol * abs(want))
    return 0.0 if got == want else float("inf")


def check(path, cases_path):
    ep = torch.export.load(path)
    ops = {str(n.target) for n in ep.graph.nodes if n.op == "call_function"}
    print(f"{path}: loaded, dialect {ep.verifier.dialect}, {len(ops)} operators")
    module = ep.module()
    failures = 0
    for case in json.load(open(cases_path))["cases"]:
        args, kwargs = decode(case["args"]), decode(case["kwargs"])
        if "error" in case:
            try:
                module(*args, **kwargs)
                print(f"  {case['name']}: ran (torch rejected it when the fixture was made)")
            except Exception as e:  # the saved program rejects it too
                print(f"  {case['name']}: rejected ({type(e).__name__})")
            continue
        got = module(*args, **kwargs)
        err = max_error(got, decode(case["expected"]), case.get("rtol", 1e-5), case.get("atol", 1e-6))
        ok = err <= 0
        failures += 0 if ok else 1
        print(f"  {case['name']}: {'PASS' if ok else 'FAIL'} (excess error {err:.3g})")
    return failures


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__)
        return 2
    failures = 0
    for path, cases in zip(argv[0::2], argv[1::2]):
        try:
            failures += check(path, cases)
        except Exception as e:
            print(f"{path}: FAILED to load or run: {type(e).__name__}: {e}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
