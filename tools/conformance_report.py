#!/usr/bin/env python3
"""Groups the failures of a conformance run by cause, as Markdown.

    python3 tools/conformance_report.py RESULTS.tsv [RESULTS.tsv ...] > report.md

RESULTS.tsv is what scripts/conformance.sh writes (PASS|FAIL, folder,
dialect, code, message). Unsupported operators come first: every missing
overload with the number of programs it blocks per dialect, most blocking
first. Then the other failures, grouped by code and by the message with its
quoted names and numbers blanked out, each group with its size and example
folders; wrong values (MISMATCH) are grouped by OpInfo.
"""
import collections
import re
import sys

MISSING = re.compile(r"does not support: (.*)$")
DIALECTS = ("training", "core")


def read(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if len(fields) >= 5 and fields[0] in ("PASS", "FAIL"):
                    rows.append(fields[:5])
    return rows


def opinfo_of(folder):
    parts = folder.split("__")
    return "__".join(parts[:2]) if len(parts) >= 4 else folder


def dtype_of(folder):
    parts = folder.split("__")
    return parts[-2] if len(parts) >= 4 else "-"


def message_shape(message):
    shape = re.sub(r"'[^']*'", "'…'", message)
    shape = re.sub(r"(?<![\w.])-?\d+(\.\d+)?(e-?\d+)?(?![\w])", "N", shape)
    return shape[:160]


def main():
    rows = read(sys.argv[1:])
    if not rows:
        sys.exit(__doc__)
    totals = collections.Counter(r[2] for r in rows)
    passed = collections.Counter(r[2] for r in rows if r[0] == "PASS")
    print("# Conformance failures by cause\n")
    for d in DIALECTS:
        if totals[d]:
            print(f"- {d}: {passed[d]} of {totals[d]} pass ({100 * passed[d] / totals[d]:.1f}%)")
    by_dtype = collections.defaultdict(collections.Counter)
    for r in rows:
        by_dtype[dtype_of(r[1])][r[2] + ("_pass" if r[0] == "PASS" else "")] += 1
    print("\n| dtype | " + " | ".join(d + " passed" for d in DIALECTS) + " |\n|---|---|---|")
    for dtype, c in sorted(by_dtype.items()):
        print(f"| {dtype} | " + " | ".join(f"{c[d + '_pass']} of {c[d + '_pass'] + c[d]}" for d in DIALECTS) + " |")

    missing = collections.defaultdict(collections.Counter)
    examples = collections.defaultdict(list)
    only_missing = collections.Counter()
    others = collections.defaultdict(list)
    for status, folder, dialect, code, message in rows:
        if status == "PASS":
            continue
        m = MISSING.search(message) if code == "UNSUPPORTED" else None
        if m:
            ops = [op.strip() for op in m.group(1).split(",")]
            for op in ops:
                missing[op][dialect] += 1
                if folder not in examples[op]:
                    examples[op].append(folder)
            if len(ops) == 1:
                only_missing[(ops[0], dialect)] += 1
        elif code in ("MISMATCH", "HALF_PRECISION"):
            others[(code, opinfo_of(folder))].append((folder, dialect, message))
        else:
            others[(code, message_shape(message))].append((folder, dialect, message))

    print(f"\n## Unsupported operators ({len(missing)} overloads)\n")
    print("Programs blocked per dialect (a program missing several operators counts for each; "
          "`alone` = programs for which it is the only missing one).\n")
    print("| overload | training | core | alone (training/core) | example folders |\n|---|---|---|---|---|")
    for op, c in sorted(missing.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        print(f"| `{op}` | {c['training']} | {c['core']} | "
              f"{only_missing[(op, 'training')]}/{only_missing[(op, 'core')]} | {', '.join(examples[op][:2])} |")

    print("\n## Other failures\n")
    for (code, key), items in sorted(others.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[0][1])):
        counts = collections.Counter(d for _, d, _ in items)
        print(f"### {code}: {key} ({counts['training']} training, {counts['core']} core)\n")
        for folder, dialect, message in items[:4]:
            print(f"- `{folder}` ({dialect}): {message[:300]}")
        if len(items) > 4:
            print(f"- ... and {len(items) - 4} more: " + ", ".join(sorted({f for f, _, _ in items[4:]}))[:600])
        print()


if __name__ == "__main__":
    main()
