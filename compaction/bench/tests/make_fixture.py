#!/usr/bin/env python3
"""make_fixture.py: a fixture from a whole bench report (by default docs/bench/h100/bench.json
into fixtures/bench_h100.json; the checked-in fixture came from the first H100 run, 2026-11-22,
and stays: test_claims.py's edits are sized to it): the records the claims read, with the
fields the report reads. Usage: make_fixture.py [BENCH.json] [OUT.json]"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MOREIRA = ["horn", "jumping-jack", "rlz", "binary-tree"]
# claim_bt's "fastest stable of all" reads these at the sparsest density only
OTHER_STABLE = ["scan-scatter", "spataro", "billeter", "single-pass", "cub"]
REDZONE = ["redzone", "redzone-block", "thrust-remove-list", "thrust-remove-if"]
KEYS = ["sweep", "algorithm", "kind", "n", "elem_size", "removed", "pattern", "red_share",
        "tile", "scan", "order", "median_ms", "gbps", "x_cub", "pct_copy", "check", "phases"]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        HERE, "..", "..", "..", "docs", "bench", "h100", "bench.json")
    dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "fixtures",
                                                             "bench_h100.json")
    with open(src) as f:
        doc = json.load(f)
    sparsest = max(r["removed"] for r in doc["records"]
                   if r["sweep"] == "density" and 0 < r["removed"] < 1)

    def needed(r):
        s, a = r["sweep"], r["algorithm"]
        if s == "density":
            return a in MOREIRA or a in REDZONE or (
                a in OTHER_STABLE and abs(r["removed"] - sparsest) < 1e-9)
        if s in ("pattern", "scan"):
            return a in MOREIRA
        if s == "redzone-r":
            return a == "redzone"
        return s in ("size", "vector-io") and a in ("spataro", "billeter")

    # phases: only Redzone's are read (claim_phase1, claim_r)
    recs = [{k: r[k] for k in KEYS if k in r and (k != "phases" or r["algorithm"] == "redzone")}
            for r in doc["records"] if needed(r)]
    head = {k: doc[k] for k in doc if k != "records"}
    head["fixture"] = ("the records of docs/bench/h100/bench.json that the claims read, with "
                       "the fields they read (compaction/bench/tests/README.md)")
    text = json.dumps(head, indent=1)[:-2] + ',\n "records": [\n' + ",\n".join(
        json.dumps(r, separators=(",", ":")) for r in recs) + "\n ]\n}\n"
    json.loads(text)
    with open(dst, "w") as f:
        f.write(text)
    print("%s: %d of %d records" % (dst, len(recs), len(doc["records"])))


if __name__ == "__main__":
    main()
