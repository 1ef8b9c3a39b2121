#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora from the fixtures (nothing is checked in).

usage: make_seeds.py FIXTURES_DIR OUT_DIR

OUT_DIR/<target>/ gets, for each fixture archive small enough to fuzz fast:
  load_run, zip_archive: the .pt2 files (and, for zip_archive, the nested
                         torch.save zips inside them); load_run also gets each
                         float32 fixture rewritten in the PT2-archive layout of
                         torch >= 2.9 with raw weight files, which no fixture has
  torch_load:            the nested torch.save zips (state dict, constants,
                         example inputs)
  program_json:          serialized_exported_program.json
  tree_spec:             every in_spec / out_spec string of the programs
  op_calls:              64 deterministic random operator-call recipes
Only the standard library is used.
"""
import collections
import hashlib
import io
import json
import os
import pickle
import random
import sys
import zipfile

MAX_ARCHIVE = 64 * 1024  # larger fixtures make each execution slow
MAX_JSON = 32 * 1024


def save(out_dir, target, data):
    folder = os.path.join(out_dir, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def specs(node):
    """Yields every string stored under an in_spec or out_spec key."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("in_spec", "out_spec") and isinstance(value, str):
                yield value
            else:
                yield from specs(value)
    elif isinstance(node, list):
        for value in node:
            yield from specs(value)


class StateDictReader(pickle.Unpickler):
    """Reads a torch.save state dict without torch: tensors become
    (storage key, offset, size, stride) of float32 storages."""

    def find_class(self, module, name):
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return lambda storage, offset, size, stride, *rest: (storage, offset, size, stride)
        if (module, name) == ("torch", "FloatStorage"):
            return "float32"
        raise pickle.UnpicklingError(f"{module}.{name} is not needed for the seeds")

    def persistent_load(self, pid):
        _, dtype, key, _, _ = pid
        if dtype != "float32":
            raise pickle.UnpicklingError("only float32 weights")
        return key


def pt2_archive(legacy):
    """The legacy archive's program in the PT2-archive layout with raw weights,
    or None when its weights are not all float32 tensors."""
    nested = zipfile.ZipFile(io.BytesIO(legacy.read("serialized_state_dict.pt")))
    root = nested.namelist()[0].split("/")[0]
    try:
        tensors = StateDictReader(io.BytesIO(nested.read(root + "/data.pkl"))).load()
    except (pickle.UnpicklingError, ValueError, TypeError):
        return None
    config = {}
    files = {}
    for k, (name, (key, offset, size, stride)) in enumerate(tensors.items()):
        path = f"weight_{k}"
        files["archive/data/weights/" + path] = nested.read(f"{root}/data/{key}")
        config[name] = {
            "path_name": path,
            "is_param": True,
            "use_pickle": False,
            "tensor_meta": {
                "dtype": 7,  # float32 in the export schema
                "sizes": [{"as_int": v} for v in size],
                "strides": [{"as_int": v} for v in stride],
                "storage_offset": {"as_int": offset},
                "requires_grad": True,
                "device": {"type": "cpu"},
                "layout": 7,
            },
        }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/archive_format", "pt2")
        z.writestr("archive/models/model.json", legacy.read("serialized_exported_program.json"))
        z.writestr("archive/data/weights/model_weights_config.json", json.dumps({"config": config}))
        for name, data in files.items():
            z.writestr(name, data)
        z.writestr("archive/data/constants/model.pt", legacy.read("serialized_constants.pt"))
        z.writestr("archive/data/sample_inputs/model.pt", legacy.read("serialized_example_inputs.pt"))
    return out.getvalue()


def main(fixtures_dir, out_dir):
    counts = {}
    for fixture in sorted(os.listdir(fixtures_dir)):
        for file in ("model.pt2", "model.core.pt2"):
            path = os.path.join(fixtures_dir, fixture, file)
            if not os.path.isfile(path) or os.path.getsize(path) > MAX_ARCHIVE:
                continue
            raw = open(path, "rb").read()
            save(out_dir, "load_run", raw)
            save(out_dir, "zip_archive", raw)
            with zipfile.ZipFile(path) as archive:
                converted = pt2_archive(archive)
                if converted is not None:
                    save(out_dir, "load_run", converted)
                for info in archive.infolist():
                    data = archive.read(info.filename)
                    if info.filename.endswith(".pt") and data:
                        save(out_dir, "zip_archive", data)
                        save(out_dir, "torch_load", data)
                    if info.filename.endswith("exported_program.json"):
                        if len(data) <= MAX_JSON:
                            save(out_dir, "program_json", data)
                        for spec in specs(json.loads(data)):
                            save(out_dir, "tree_spec", spec.encode())
    # fuzz_op_calls reads any bytes as a recipe (tests/support/op_call_fuzz.h):
    # its seeds are deterministic random recipes of the sweep's length, so
    # libFuzzer starts from chains that already reach many operators.
    recipes = random.Random(20261207)
    for _ in range(64):
        save(out_dir, "op_calls", bytes(recipes.getrandbits(8) for _ in range(96)))
    for target in sorted(os.listdir(out_dir)):
        counts[target] = len(os.listdir(os.path.join(out_dir, target)))
    print("make_seeds:", ", ".join(f"{t} {n}" for t, n in counts.items()))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
