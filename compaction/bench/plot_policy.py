#!/usr/bin/env python3
"""plot_policy.py: the choice map of auto (SC_ALGO_AUTO) for one policy table, as a PNG.

Which algorithm auto takes for each call comes from the library itself: `compact policy choose`
runs the table through sc_policy_decide, the matching auto.c does for every call (the first rule
whose conditions hold and whose algorithm can run the call, else the fallback order). Over
n = 2^10..2^30 (log) x removed fraction 0..1 it draws one panel per (element size, removal list
offered or not), flags always offered, a colour per chosen algorithm (a fixed colour per name,
the same in every map).

With a list the removed fraction is exact (k / n); without one it is the fraction auto works
from: the caller's hint, the previous call's, a sample (CPU) or the table's unknown_removed
(drawn as a dotted line).

Usage:
  plot_policy.py TABLE.json --out MAP.png            a table in a file ('-': stdin)
  plot_policy.py --policy sm_90 --out MAP.png        a built-in table (compact policy show NAME)
Options: --compact PATH (default $COMPACT), --elem 4,16,64 (element sizes in bytes), --stable
(stability required). Needs matplotlib (python3-matplotlib) for the picture.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import zlib

# A fixed colour per algorithm, so every map (and every table) reads the same.
COLOURS = {
    "serial": "#7f7f7f",
    "scan-scatter": "#bcbd22",
    "horn": "#2ca02c",
    "jumping-jack": "#98df8a",
    "rlz": "#9467bd",
    "binary-tree": "#c5b0d5",
    "spataro": "#8c564b",
    "billeter": "#e377c2",
    "atomic": "#ff7f0e",
    "redzone": "#d62728",
    "redzone-block": "#ff9896",
    "cub": "#17becf",
    "single-pass": "#1f77b4",
}
NONE_COLOUR = "#ffffff"  # no usable algorithm (SC_ERR_UNSUPPORTED)
SPARE = ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354"]


class PolicyError(ValueError):
    pass


def colour(name):
    """The colour of an algorithm: fixed for the known ones, a stable pick for others."""
    if name is None:
        return NONE_COLOUR
    if name in COLOURS:
        return COLOURS[name]
    return SPARE[zlib.crc32(name.encode()) % len(SPARE)]


def run_compact(compact, *args):
    r = subprocess.run([compact] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        raise PolicyError(r.stderr.strip() or "compact %s: exit %d" % (args[0], r.returncode))
    return r.stdout


class Policy:
    """A table (a file, or a built-in name) and what the plot's titles read of it; every choice
    comes from `compact policy choose`."""

    def __init__(self, compact, path=None, name=None):
        self.compact, self.table = compact, path or name
        text = open(path).read() if path else run_compact(compact, "policy", "show", name)
        try:
            doc = json.loads(text)
        except ValueError as e:
            raise PolicyError("%s: not JSON: %s" % (self.table, e))
        if not isinstance(doc, dict):
            raise PolicyError("%s: not a policy table" % self.table)
        self.name = doc.get("name", "?")
        self.backend = doc.get("backend")
        self.source = doc.get("source", "")
        self.device = doc.get("device", "")
        self.unknown_removed = doc.get("unknown_removed", 0.5)
        self.algorithms = [a for a in run_compact(compact, "list", "--names").split()
                           if a != "auto"]
        self.choose([1], [0.5], 4, False)  # the library reads the table, or says why not

    def choose(self, ns, removed, elem, list_offered, stable=False, flags_offered=True):
        """rows (one per removed fraction) x columns (one per n) of (algorithm, rule): rule -1
        for the fallback order; algorithm None when nothing can run the call."""
        inputs = "any" if list_offered and flags_offered else "list" if list_offered else "flags"
        args = ["policy", "choose", self.table, "--backend", str(self.backend),
                "--n", ",".join(str(n) for n in ns),
                "--removed", ",".join(repr(float(r)) for r in removed),
                "--elem", str(elem), "--input", inputs] + ["--stable"] * stable
        out = json.loads(run_compact(self.compact, *args))
        choices = [tuple(c) for c in out["choices"]]
        return [[choices[i] for i in row] for row in out["cells"]]


# The grid: log2(n) from 10 to 30, removed fraction from 0 to 1; each cell shows the choice at
# its centre.
LOG2_N = (10, 30)
COLS_PER_OCTAVE = 32
ROWS = 400


def grid_edges():
    lo, hi = LOG2_N
    cols = (hi - lo) * COLS_PER_OCTAVE
    xs = [lo + (hi - lo) * i / cols for i in range(cols + 1)]
    ys = [i / ROWS for i in range(ROWS + 1)]
    return xs, ys


def choice_grid(policy, elem, list_offered, stable=False):
    """rows x cols of (algorithm, rule) at the cells' centres, rows by removed fraction."""
    xs, ys = grid_edges()
    ns = [int(round(2 ** ((a + b) / 2))) for a, b in zip(xs, xs[1:])]
    rs = [(a + b) / 2 for a, b in zip(ys, ys[1:])]
    return policy.choose(ns, rs, elem, list_offered, stable)


def plot(policy, out, elems=(4, 16, 64), stable=False):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    xs, ys = grid_edges()
    panels = [(e, lst) for e in elems for lst in (False, True)]
    grids = {p: choice_grid(policy, p[0], p[1], stable) for p in panels}
    # every algorithm any panel shows, in `compact list` order, with the rules that chose it
    seen = {}
    for g in grids.values():
        for row in g:
            for algo, rule in row:
                seen.setdefault(algo, set()).add(rule)
    order = [a for a in policy.algorithms if a in seen] + \
        sorted(a for a in seen if a is not None and a not in policy.algorithms)
    if None in seen:
        order.append(None)
    index = {a: i for i, a in enumerate(order)}
    cmap = ListedColormap([colour(a) for a in order])

    fig, axes = plt.subplots(len(elems), 2, figsize=(11, 3.2 * len(elems) + 1.6),
                             sharex=True, sharey=True, squeeze=False)
    for (e, lst), ax in zip(panels, axes.flat):
        z = [[index[algo] for algo, _ in row] for row in grids[(e, lst)]]
        ax.pcolormesh(xs, ys, z, cmap=cmap, vmin=-0.5, vmax=len(order) - 0.5,
                      shading="flat", rasterized=True)
        if not lst:
            ax.axhline(policy.unknown_removed, color="black", ls=":", lw=1)
        ax.set_title("%d-byte elements, %s" % (e, "removal list offered" if lst
                                                else "flags only (no removal list)"),
                     fontsize=10)
        ax.set_xlim(*LOG2_N)
        ax.set_ylim(0, 1)
        ax.set_xticks(range(LOG2_N[0], LOG2_N[1] + 1, 2))
        ax.set_xticklabels(["$2^{%d}$" % t for t in range(LOG2_N[0], LOG2_N[1] + 1, 2)])
        ax.grid(True, color="white", lw=0.4, alpha=0.5)
    for ax in axes[-1]:
        ax.set_xlabel("n (elements)")
    for ax in axes[:, 0]:
        ax.set_ylabel("removed fraction")

    def label(a):
        if a is None:
            return "none (SC_ERR_UNSUPPORTED)"
        rules = sorted(seen[a])
        named = ["rule %d" % r for r in rules if r >= 0]
        if len(named) > 3:  # a long list would run off the figure: the first ones and a count
            named = named[:2] + ["... %d rules" % len(named)]
        if -1 in rules:
            named.append("fallback")
        return "%s (%s)" % (a, ", ".join(named))
    handles = [Patch(facecolor=colour(a), edgecolor="black", lw=0.5, label=label(a))
               for a in order]
    handles.append(plt.Line2D([], [], color="black", ls=":", lw=1,
                              label="unknown_removed %.2g (no density known)"
                              % policy.unknown_removed))
    fig.legend(handles=handles, loc="lower center", ncol=min(3, len(handles)), fontsize=9,
               frameon=False)
    title = "auto's choice map: policy %s (%s backend%s), stable order %s" % (
        policy.name, policy.backend, ", " + policy.device if policy.device else "",
        "required" if stable else "not required")
    sub = "\n".join(textwrap.wrap("source: " + policy.source, 130)) if policy.source else ""
    fig.suptitle(title + ("\n" + sub if sub else ""), fontsize=10)
    rows = math.ceil(len(handles) / min(3, len(handles)))
    fig.tight_layout(rect=(0, 0.015 + 0.022 * rows, 1, 0.99))
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return order


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("table", nargs="?", help="a policy table (JSON file, '-' for stdin)")
    ap.add_argument("--compact", help="the compact tool (default $COMPACT)")
    ap.add_argument("--policy", help="a built-in table: compact policy show NAME")
    ap.add_argument("--out", required=True, help="the PNG to write")
    ap.add_argument("--elem", default="4,16,64", help="element sizes in bytes (4,16,64)")
    ap.add_argument("--stable", action="store_true", help="stability required")
    a = ap.parse_args(argv)
    compact = a.compact or os.environ.get("COMPACT")
    if bool(a.table) == bool(a.policy):
        ap.error("give a table file or --policy NAME")
    if not compact:
        ap.error("the choices come from the library: --compact PATH (or $COMPACT)")
    with tempfile.TemporaryDirectory() as tmp:
        path = a.table
        if path == "-":
            path = os.path.join(tmp, "stdin.json")
            with open(path, "w") as f:
                f.write(sys.stdin.read())
        try:
            policy = Policy(compact, path, a.policy)
            elems = [int(x) for x in a.elem.split(",") if x]
            order = plot(policy, a.out, elems, a.stable)
        except (PolicyError, ValueError, OSError) as e:
            print("plot_policy.py: %s" % e, file=sys.stderr)
            return 2
    print("%s: %s" % (a.out, ", ".join(x or "none" for x in order)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
