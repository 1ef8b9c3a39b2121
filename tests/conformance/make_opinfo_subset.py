#!/usr/bin/env python3
"""Regenerates tests/conformance/opinfo/ from a full OpInfo corpus.

    python3 tests/conformance/make_opinfo_subset.py ../shared/conformance/opinfo

Picks a small set of the corpus's program folders that together use every
operator overload of the corpus (in the TRAINING graphs and in the core
graphs) and every dtype: a greedy weighted set cover over INDEX.tsv (each
step takes the folder with the most not yet covered overloads and dtypes per
byte, ties by name), plus the float64 twin of every float16/bfloat16 folder
chosen (the same OpInfo sample in float64, which the checker uses to judge
half-precision mismatches, see tests/support/half_precision_reference.h), so
the result depends only on the corpus. Copies only
what the conformance runner reads (model.pt2, model.core.pt2, cases.json,
cases.core.json) and writes the subset's INDEX.tsv (the corpus's rows for
the chosen folders). Replaces the destination folder's previous contents.
"""
import csv
import os
import shutil
import sys

KEPT_FILES = ("model.pt2", "model.core.pt2", "cases.json", "cases.core.json")
DEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opinfo")


def covered_items(row):
    items = {"training:" + op for op in row["training_ops"].split(",") if op}
    items |= {"core:" + op for op in row["core_ops"].split(",") if op}
    items.add("dtype:" + row["dtype"])
    return items


def folder_bytes(corpus, folder):
    return sum(os.path.getsize(os.path.join(corpus, folder, f)) for f in KEPT_FILES)


def choose(corpus, rows):
    candidates = {r["folder"]: (covered_items(r), folder_bytes(corpus, r["folder"])) for r in rows}
    missing = set().union(*(items for items, _ in candidates.values()))
    chosen = []
    while missing:
        best = max(sorted(candidates), key=lambda f: len(candidates[f][0] & missing) / candidates[f][1])
        chosen.append(best)
        missing -= candidates.pop(best)[0]
    return sorted(chosen)


def float64_twins(rows, chosen):
    by_key = {(r["opinfo"], r["variant"], r["sample"]): r["folder"] for r in rows if r["dtype"] == "float64"}
    twins = set()
    for r in rows:
        if r["folder"] in chosen and r["dtype"] in ("float16", "bfloat16"):
            twin = by_key.get((r["opinfo"], r["variant"], r["sample"].replace(r["dtype"] + "[", "float64[")))
            if twin:
                twins.add(twin)
    return twins


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    corpus = sys.argv[1]
    with open(os.path.join(corpus, "INDEX.tsv"), newline="") as f:
        reader = csv.DictReader(f, delimiter="\t")
        fields = reader.fieldnames
        rows = [r for r in reader if r["folder"] != "-" and r["status"] == "ok"]
    chosen = choose(corpus, rows)
    chosen = sorted(set(chosen) | float64_twins(rows, set(chosen)))
    if os.path.isdir(DEST):
        shutil.rmtree(DEST)
    os.makedirs(DEST)
    for folder in chosen:
        os.makedirs(os.path.join(DEST, folder))
        for name in KEPT_FILES:
            shutil.copyfile(os.path.join(corpus, folder, name), os.path.join(DEST, folder, name))
    keep = set(chosen)
    with open(os.path.join(DEST, "INDEX.tsv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(r for r in rows if r["folder"] in keep)
    total = sum(folder_bytes(DEST, folder) for folder in chosen)
    print(f"{len(chosen)} of {len(rows)} folders, {total / 1e6:.1f} MB, in {DEST}")


if __name__ == "__main__":
    main()
