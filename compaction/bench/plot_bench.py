#!/usr/bin/env python3
"""plot_bench.py: the plots and README.md of `compact bench --report DIR`.

Usage: plot_bench.py DIR/bench.json [--out DIR] [--compact PATH]
The same as `python3 -m benchreport ...` with this directory on the path: the report is the
package benchreport/ beside this file (data, claims, plots, README writer); this wrapper
keeps the command line that `compact bench --report` runs and the installed path.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchreport.report import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(prog="plot_bench.py"))
