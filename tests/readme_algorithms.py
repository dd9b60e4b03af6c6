#!/usr/bin/env python3
"""readme_algorithms.py COMPACT README.md: the README's algorithm table says what the library's
table says (`compact list`): the same names in the same order, and for each its stability,
whether it works in place, and its input (`auto` included: the README says what `compact list`
says, and how a call makes auto stable or in place). Exit 0, or 1 with one line per
difference."""
import subprocess
import sys


def library(compact):
    out = subprocess.run([compact, "list"], check=True, capture_output=True, text=True).stdout
    rows = {}
    order = []
    for line in out.splitlines()[1:]:
        f = line.split()
        if len(f) < 4 or f[1] not in ("yes", "no"):
            continue  # a note under the table, e.g. what this build lacks
        order.append(f[0])
        rows[f[0]] = {"stable": f[1], "in place": f[2], "input": f[3]}
    return order, rows


def readme(path):
    order, rows = [], {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 4 and cells[0].startswith("`") and cells[0].endswith("`") and \
                    cells[3] in ("flags", "removal list", "any"):
                name = cells[0].strip("`")
                order.append(name)
                rows[name] = {"stable": cells[1], "in place": cells[2],
                              "input": "list" if cells[3] == "removal list" else cells[3]}
    return order, rows


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: readme_algorithms.py COMPACT README.md")
    lib_order, lib = library(sys.argv[1])
    doc_order, doc = readme(sys.argv[2])
    bad = []
    if lib_order != doc_order:
        bad.append("names: the library lists %s, the README %s" % (lib_order, doc_order))
    for name in lib_order:
        if name not in doc:
            continue
        for key in ("stable", "in place", "input"):
            want, got = lib[name][key], doc[name][key]
            if want != got:
                bad.append("%s: %s is '%s' in the README, '%s' in the library" % (name, key, got,
                                                                                 want))
    for line in bad:
        print("readme_algorithms: " + line)
    if not bad:
        print("readme_algorithms: %d algorithms agree" % len(lib_order))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
