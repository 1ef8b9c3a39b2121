#!/usr/bin/env python3
"""Rewrites tests/conformance/known_failures.tsv from a run of the subset.

    scripts/conformance.sh tests/conformance/opinfo --out build/conformance/subset.tsv
    python3 tests/conformance/update_known_failures.py build/conformance/subset.tsv

Every failing (folder, dialect) of the run is listed with its reason: the
failure's code and message as the checker reported them (for unsupported
operators, the missing overloads). Run it after a change that makes programs
pass or fail, and review the diff: the list is the record of what is left.
"""
import os
import sys

HEADER = """\
# OpInfo subset programs (tests/conformance/opinfo) that pt2web fails, with the reason.
# folder<TAB>dialect<TAB>reason. Checked by tests/unit/opinfo_conformance_test.cpp: a failure
# not listed here fails the test, and so does a listed program that passes.
# Regenerate with tests/conformance/update_known_failures.py (see its docstring).
"""


def reason(code, message):
    if code == "UNSUPPORTED" and "does not support: " in message:
        return "UNSUPPORTED: missing " + message.split("does not support: ", 1)[1]
    return f"{code}: {message}"[:400]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 5 and fields[0] == "FAIL":
                rows.append((fields[1], fields[2], reason(fields[3], fields[4])))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "known_failures.tsv")
    with open(out, "w") as f:
        f.write(HEADER)
        for folder, dialect, why in sorted(rows):
            f.write(f"{folder}\t{dialect}\t{why}\n")
    print(f"{len(rows)} known failures written to {out}")


if __name__ == "__main__":
    main()
