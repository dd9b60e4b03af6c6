"""benchreport: the plots and README.md of `compact bench --report DIR`.

Reads the JSON that `compact bench --report` writes, draws the papers' figures again from
today's measurements (PNG, matplotlib), and writes README.md: a table that puts each claim of
the papers next to what was measured here, with a verdict computed from the measurements by
the thresholds stated in the README (nothing in it is typed in by hand).

Usage: python3 -m benchreport DIR/bench.json [--out DIR] [--compact PATH]
       (or compaction/bench/plot_bench.py, the same with the package beside it)
The algorithms and which of them are stable come from the library's table, through
`compact list --names` (--compact, which `compact bench` passes, else $COMPACT, else PATH).
Needs matplotlib (Debian: python3-matplotlib). Without it the README is still written, with
the verdicts but without plots, and the exit status is 3. A JSON that is not a bench report:
one line on stderr, exit status 2, nothing written.
"""
import argparse
import os
import shutil
import subprocess
import sys

from . import claims as claims_mod
from . import data, plots, readme


def main(argv=None, prog="python3 -m benchreport"):
    """The command line; argv defaults to sys.argv[1:]. The exit status."""
    ap = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    ap.add_argument("json", help="bench.json from compact bench --report")
    ap.add_argument("--out", help="where the PNGs and README.md go (default: beside the JSON)")
    ap.add_argument("--compact", help="the compact tool, for the algorithm table "
                    "(default: $COMPACT, else compact on PATH)")
    args = ap.parse_args(argv)
    compact = args.compact or os.environ.get("COMPACT") or shutil.which("compact")
    try:
        if not compact:
            raise OSError("no compact tool: give --compact PATH or set $COMPACT")
        data.load_table(compact)
    except (OSError, subprocess.CalledProcessError) as e:
        print("%s: cannot read the algorithm table: %s" % (prog, e), file=sys.stderr)
        return 2
    out = args.out or os.path.dirname(os.path.abspath(args.json))
    try:
        doc = data.load(args.json)
    except OSError as e:
        print("%s: cannot read %s: %s" % (prog, args.json, e.strerror or e), file=sys.stderr)
        return 2
    except data.BenchDataError as e:
        print("%s: %s: %s" % (prog, args.json, e), file=sys.stderr)
        return 2
    d = data.Data(doc)
    claims, by = claims_mod.evaluate(d)
    names = plots.make_plots(d, out, by)
    readme.write_readme(doc, d, claims, names, os.path.join(out, "README.md"))
    for c in claims:
        print("%-14s %s" % (c["verdict"], c["claim"]))
    if plots.plt is None:
        print("%s: no plots: matplotlib is missing (Debian: python3-matplotlib)" % prog,
              file=sys.stderr)
        return 3
    return 0
