#!/usr/bin/env python3
"""test_plot_policy.py: auto's choice map (plot_policy.py, through `compact policy choose`,
the library's sc_policy_decide) on a tiny synthetic table with cells worked out by hand from
the table and the algorithm table; the same choices against a real auto call (`compact
explain auto` on the CPU backend); and the picture when matplotlib is there. They need
$COMPACT (the ctest sets it). unittest cases, so both `python3 test_plot_policy.py` and
pytest run them.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the tools directory
import plot_policy  # noqa: E402

COMPACT = os.environ.get("COMPACT") or shutil.which("compact")


def table(backend, rules, **extra):
    doc = {"format": "raycompact-policy", "version": 1, "name": "synthetic",
           "backend": backend, "rules": rules}
    doc.update(extra)
    return doc


CUDA = table("cuda", [
    {"when": {"list": True, "removed_max": 0.1}, "algo": "redzone"},            # rule 0
    {"when": {"n_max": 65536, "elem_max": 4}, "algo": "atomic"},                # rule 1
    {"when": {"removed_min": 0.9, "stable": False}, "algo": "jumping-jack"},    # rule 2
    {"when": {"elem_min": 16, "n_min": 1 << 20}, "algo": "horn", "tile": 256},  # rule 3
])  # no catch-all: the fallback decides the rest


def policy_of(doc, tmp):
    path = os.path.join(tmp, "table.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return plot_policy.Policy(COMPACT, path)


@unittest.skipUnless(COMPACT, "set $COMPACT to the compact tool")
class Rules(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.p = policy_of(CUDA, self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, want, n, elem, removed, lst, stable=False, flags=True, p=None):
        got = (p or self.p).choose([n], [removed], elem, lst, stable, flags)[0][0]
        self.assertEqual(got, want, "n %d elem %d removed %g list %s stable %s flags %s"
                         % (n, elem, removed, lst, stable, flags))

    def test_list_rule_bounds_inclusive(self):
        self.check(("redzone", 0), 1 << 24, 4, 0.1, True)
        self.check(("redzone", 0), 1 << 24, 64, 0.0, True)
        self.check(("single-pass", -1), 1 << 24, 4, 0.1000001, True)
        self.check(("single-pass", -1), 1 << 24, 4, 0.05, False)  # no list offered

    def test_n_and_elem_bounds(self):
        self.check(("atomic", 1), 65536, 4, 0.5, False)
        self.check(("single-pass", -1), 65537, 4, 0.5, False)
        self.check(("single-pass", -1), 1024, 8, 0.5, False)
        self.check(("horn", 3), 1 << 20, 16, 0.5, False)
        self.check(("single-pass", -1), (1 << 20) - 1, 16, 0.5, False)
        self.check(("horn", 3), 1 << 30, 64, 0.5, True)

    def test_first_matching_rule_wins(self):
        # rules 1 and 2 both hold: rule 1 decides
        self.check(("atomic", 1), 1024, 4, 0.95, False)
        self.check(("jumping-jack", 2), 1 << 20, 4, 0.95, False)
        # rules 2 and 3 both hold: rule 2 decides
        self.check(("jumping-jack", 2), 1 << 20, 16, 0.9, False)

    def test_stability(self):
        # unstable picks are passed over; rule 2 asks stable: false, so it no longer matches
        self.check(("single-pass", -1), 1 << 24, 4, 0.05, True, stable=True)
        self.check(("single-pass", -1), 1024, 4, 0.5, False, stable=True)
        self.check(("single-pass", -1), 1 << 20, 4, 0.95, False, stable=True)
        self.check(("horn", 3), 1 << 20, 16, 0.95, False, stable=True)

    def test_fallback_order(self):
        # a list alone: redzone by rule, then the fallback's redzone; stable: nothing
        self.check(("redzone", 0), 1 << 20, 4, 0.05, True, flags=False)
        self.check(("redzone", -1), 1 << 20, 4, 0.5, True, flags=False)
        self.check((None, -1), 1 << 20, 4, 0.5, True, stable=True, flags=False)
        cpu = policy_of(table("cpu", [{"when": {"n_max": 10}, "algo": "serial"}]), self.tmp.name)
        self.check(("scan-scatter", -1), 1 << 20, 4, 0.5, False, p=cpu)
        self.check(("serial", 0), 8, 4, 0.5, False, p=cpu)

    def test_no_list_above_uint32(self):
        self.check(("single-pass", -1), 1 << 33, 4, 0.05, True)

    def test_grid_cells(self):
        saved = plot_policy.ROWS, plot_policy.COLS_PER_OCTAVE
        plot_policy.ROWS, plot_policy.COLS_PER_OCTAVE = 10, 1
        try:
            g = plot_policy.choice_grid(self.p, 4, True)
            self.assertEqual((len(g), len(g[0])), (10, 20))
            self.assertEqual(g[0][0], ("redzone", 0))       # removed 0.05
            self.assertEqual(g[5][0], ("atomic", 1))        # 2^10.5, removed 0.55
            self.assertEqual(g[5][6], ("single-pass", -1))  # 2^16.5
            self.assertEqual(g[9][12], ("jumping-jack", 2))  # 2^22.5, removed 0.95
        finally:
            plot_policy.ROWS, plot_policy.COLS_PER_OCTAVE = saved

    def test_refuses_bad_tables(self):
        for doc in (table("cpu", [{"algo": "single-pass"}]),          # not on the CPU
                    table("cuda", [{"algo": "nope"}]),
                    table("cuda", [{"when": {"n_maximum": 3}, "algo": "cub"}]),
                    table("cuda", [])):
            with self.assertRaises(plot_policy.PolicyError):
                policy_of(doc, self.tmp.name)

    def test_colours_stable_and_distinct(self):
        known = [plot_policy.colour(a) for a in self.p.algorithms]
        self.assertEqual(len(set(known)), len(known))
        self.assertEqual(set(self.p.algorithms), set(plot_policy.COLOURS))
        self.assertEqual(plot_policy.colour("future-algo"), plot_policy.colour("future-algo"))


@unittest.skipUnless(COMPACT, "set $COMPACT to the compact tool")
class AgainstTheLibrary(unittest.TestCase):
    """The map's choice against a real auto call (compact explain auto, CPU backend, 4-byte
    elements; the removed fraction is exact: from the list, or a sample of all flags when
    n <= 512)."""

    def test_explain_agrees(self):
        doc = table("cpu", [
            {"when": {"list": True, "removed_max": 0.25}, "algo": "redzone-block"},
            {"when": {"n_max": 64, "stable": False}, "algo": "atomic"},
            {"when": {"elem_max": 2}, "algo": "billeter"},  # never: 4-byte elements
            {"when": {"removed_min": 0.75}, "algo": "jumping-jack"},
            {"when": {"n_min": 200}, "algo": "horn"},
        ])
        with tempfile.TemporaryDirectory() as tmp:
            policy = policy_of(doc, tmp)
            path = os.path.join(tmp, "table.json")
            for n in (16, 64, 100, 256):
                for kept in (n, n * 3 // 4, n // 2, n // 4, 0):
                    mask = "1" * kept + "0" * (n - kept)
                    for lst in (False, True):
                        for stable in (False, True):
                            want = policy.choose([n], [(n - kept) / n], 4, lst, stable)[0][0]
                            args = [COMPACT, "explain", "auto", "--mask", mask, "--policy", path]
                            args += ["--list"] * lst + ["--stable"] * stable
                            out = subprocess.run(args, capture_output=True, text=True).stdout
                            m = re.search(r"auto chose (\S+?),? .*?(rule (\d+)|fallback)", out)
                            self.assertTrue(m, out)
                            got = (m.group(1), int(m.group(3)) if m.group(3) else -1)
                            self.assertEqual(got, want, " ".join(args[2:]))


@unittest.skipUnless(COMPACT, "set $COMPACT to the compact tool")
class Picture(unittest.TestCase):
    def test_png(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("no matplotlib")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "map.png")
            order = plot_policy.plot(policy_of(CUDA, tmp), out, elems=(4, 16))
            with open(out, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            self.assertEqual(order, ["horn", "jumping-jack", "atomic", "redzone",
                                     "single-pass"])


if __name__ == "__main__":
    unittest.main()
