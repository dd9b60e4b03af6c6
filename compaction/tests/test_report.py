#!/usr/bin/env python3
"""test_report.py: the verdicts of the bench report (tools/plot_bench.py) on a checked-in
fixture, fixtures/bench_h100.json.gz (the H100 run of docs/bench/h100 in the raycompact
repository), and on copies of it with one algorithm's times scaled, which must move exactly
the verdict that algorithm decides. unittest cases, so both `python3 test_report.py` and
pytest run them. Needs $COMPACT (the compact tool: the algorithm table) or compact on PATH.
"""
import copy
import gzip
import json
import os
import shutil
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import plot_bench  # noqa: E402

# The verdicts plot_bench.py gives the fixture.
H100 = {
    "claim_jj": "partly",
    "claim_bt": "partly",
    "claim_rlz": "no",
    "claim_scan": "no",
    "claim_redzone": "partly",
    "claim_phase1": "yes",
    "claim_breakeven": "no",
    "claim_r": "yes",
    "claim_billeter": "yes",
}


def load_fixture():
    with gzip.open(os.path.join(HERE, "fixtures", "bench_h100.json.gz"), "rt") as f:
        return json.load(f)


def verdicts(doc):
    d = plot_bench.Data(doc)
    return {fn.__name__: fn(d)["verdict"] for fn in plot_bench.CLAIMS}


def scaled(doc, algorithm, factor):
    """A copy of doc with every time of `algorithm` multiplied by factor."""
    out = copy.deepcopy(doc)
    for rec in out["records"]:
        if rec.get("algorithm") != algorithm:
            continue
        for key, value in list(rec.items()):
            if key.endswith("_ms") and isinstance(value, (int, float)):
                rec[key] = value * factor
    return out


class Verdicts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        compact = os.environ.get("COMPACT") or shutil.which("compact")
        if not compact:
            raise RuntimeError("test_report.py: set $COMPACT to the compact tool")
        plot_bench.load_table(compact)
        cls.doc = load_fixture()
        cls.base = verdicts(cls.doc)

    def test_table_from_the_library(self):
        self.assertIn("jumping-jack", plot_bench.ORDER)
        self.assertIn("binary-tree", plot_bench.ALL_STABLE)
        self.assertNotIn("jumping-jack", plot_bench.ALL_STABLE)  # unstable
        self.assertNotIn("serial", plot_bench.ALL_STABLE)  # the reference is no contender

    def test_fixture(self):
        self.assertEqual(self.base, H100)

    def check_moves(self, algorithm, factor, claim, want):
        got = verdicts(scaled(self.doc, algorithm, factor))
        moved = {k: (self.base[k], got[k]) for k in got if got[k] != self.base[k]}
        self.assertEqual(moved, {claim: (self.base[claim], want)},
                         "%s x%s" % (algorithm, factor))

    def test_jj_slower_than_horn_everywhere(self):
        self.check_moves("jumping-jack", 5, "claim_jj", "no")

    def test_bt_fastest_everywhere(self):
        self.check_moves("binary-tree", 0.2, "claim_bt", "yes")

    def test_billeter_slower_than_spataro(self):
        self.check_moves("billeter", 3, "claim_billeter", "no")

    def test_billeter_faster_by_more_than_a_constant(self):
        self.check_moves("billeter", 0.5, "claim_billeter", "partly")

    def test_redzone_slow(self):
        self.check_moves("redzone", 10, "claim_redzone", "no")

    def test_missing_data(self):
        doc = copy.deepcopy(self.doc)
        doc["records"] = [r for r in doc["records"] if r.get("algorithm") != "jumping-jack"]
        self.assertNotIn(verdicts(doc)["claim_jj"], ("yes", "partly"))


if __name__ == "__main__":
    unittest.main()
