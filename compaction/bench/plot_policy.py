#!/usr/bin/env python3
"""plot_policy.py: the choice map of auto (SC_ALGO_AUTO) for one policy table, as a PNG.

Evaluates the table exactly as compaction/src/auto.c does: the first rule whose conditions
hold (n_min/n_max, elem_min/elem_max, removed_min/removed_max, all inclusive; list; stable)
and whose algorithm can run the call (on the table's backend, stable when stability is
required, a flag algorithm only when flags are offered, a removal-list one only when a list
is offered) decides; when none does, the first usable of single-pass, scan-scatter, serial,
redzone; else no algorithm (SC_ERR_UNSUPPORTED). A removal list is never offered above
2^32 - 1 elements (core.c). Over n = 2^10..2^30 (log) x removed fraction 0..1 it draws one
panel per (element size, removal list offered or not), flags always offered, a colour per
chosen algorithm (a fixed colour per name, the same in every map).

With a list the removed fraction is exact (k / n); without one it is the fraction auto works
from: the caller's hint, the previous call's, a sample (CPU) or the table's unknown_removed
(drawn as a dotted line).

Usage:
  plot_policy.py TABLE.json --out MAP.png            a table in a file ('-': stdin)
  plot_policy.py --compact PATH --policy sm_90 --out MAP.png
                                                     a built-in table: compact policy show NAME
Options: --elem 4,16,64 (element sizes in bytes), --stable (stability required).
The algorithms' properties come from `compact list --names` when --compact (or $COMPACT) is
given, else from the copy below (test_plot_policy.py checks that the two agree).
The rule evaluation needs only python3; the picture needs matplotlib (python3-matplotlib).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import textwrap
import zlib

# name: (stable, input, backends), in `compact list` order; `compact list` is the source.
ALGORITHMS = {
    "serial": (True, "flags", ("cpu",)),
    "scan-scatter": (True, "flags", ("cpu", "cuda")),
    "horn": (True, "flags", ("cpu", "cuda")),
    "jumping-jack": (False, "flags", ("cpu", "cuda")),
    "rlz": (True, "flags", ("cpu", "cuda")),
    "binary-tree": (True, "flags", ("cpu", "cuda")),
    "spataro": (True, "flags", ("cpu", "cuda")),
    "billeter": (True, "flags", ("cpu", "cuda")),
    "atomic": (False, "flags", ("cpu", "cuda")),
    "redzone": (False, "list", ("cpu", "cuda")),
    "redzone-block": (False, "list", ("cpu", "cuda")),
    "cub": (True, "flags", ("cuda",)),
    "single-pass": (True, "flags", ("cuda",)),
}

# auto.c's k_fallback: when no rule decides.
FALLBACK = ("single-pass", "scan-scatter", "serial", "redzone")

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

LIST_MAX_N = 2**32 - 1  # core.c: no removal list above UINT32_MAX elements
WHEN_KEYS = {"n_min", "n_max", "elem_min", "elem_max", "removed_min", "removed_max", "list",
             "stable"}


class PolicyError(ValueError):
    pass


def colour(name):
    """The colour of an algorithm: fixed for the known ones, a stable pick for others."""
    if name is None:
        return NONE_COLOUR
    if name in COLOURS:
        return COLOURS[name]
    return SPARE[zlib.crc32(name.encode()) % len(SPARE)]


def algorithms_from_compact(compact):
    """ALGORITHMS' shape, read from `compact list --names` with its filters."""
    def names(*extra):
        out = subprocess.run([compact, "list", "--names"] + list(extra), check=True,
                             capture_output=True, text=True).stdout
        return [n for n in out.split() if n != "auto"]
    every = names()
    stable = set(names("--stable"))
    lists = set(names("--input", "list"))
    on = {b: set(names("--backend", b)) for b in ("cpu", "cuda")}
    return {n: (n in stable, "list" if n in lists else "flags",
                tuple(b for b in ("cpu", "cuda") if n in on[b])) for n in every}


class Rule:
    def __init__(self, index, obj, backend, algorithms):
        where = "rule %d" % index
        if not isinstance(obj, dict):
            raise PolicyError("%s: a rule must be an object" % where)
        when = obj.get("when", {})
        if not isinstance(when, dict):
            raise PolicyError("%s: 'when' must be an object" % where)
        unknown = set(when) - WHEN_KEYS
        if unknown:
            raise PolicyError("%s: unknown key '%s' in 'when'" % (where, sorted(unknown)[0]))
        self.index = index
        self.n_min = when.get("n_min", 0)
        self.n_max = when.get("n_max", math.inf)
        self.elem_min = when.get("elem_min", 0)
        self.elem_max = when.get("elem_max", math.inf)
        self.removed_min = when.get("removed_min", 0.0)
        self.removed_max = when.get("removed_max", 1.0)
        self.list = when.get("list")      # None: either
        self.stable = when.get("stable")  # None: either
        for key in ("list", "stable"):
            if key in when and not isinstance(when[key], bool):
                raise PolicyError("%s: '%s' must be true or false" % (where, key))
        self.algo = obj.get("algo")
        if self.algo not in algorithms:
            raise PolicyError("%s: unknown algorithm '%s'" % (where, self.algo))
        if backend not in algorithms[self.algo][2]:
            raise PolicyError("%s: '%s' does not run on the %s backend"
                              % (where, self.algo, backend))

    def matches(self, n, elem, removed, list_offered, stable):
        # auto.c matches(): bounds inclusive; list/stable compared only when given
        return (self.n_min <= n <= self.n_max and self.elem_min <= elem <= self.elem_max
                and self.removed_min <= removed <= self.removed_max
                and (self.list is None or self.list == list_offered)
                and (self.stable is None or self.stable == stable))


class Policy:
    def __init__(self, doc, algorithms=None):
        self.algorithms = algorithms or ALGORITHMS
        if not isinstance(doc, dict) or doc.get("format") != "raycompact-policy":
            raise PolicyError("not a policy table: 'format' must be \"raycompact-policy\"")
        if doc.get("version") != 1:
            raise PolicyError("'version' must be 1")
        self.name = doc.get("name", "?")
        self.backend = doc.get("backend")
        if self.backend not in ("cpu", "cuda"):
            raise PolicyError("'backend' must be \"cpu\" or \"cuda\"")
        self.source = doc.get("source", "")
        self.device = doc.get("device", "")
        self.unknown_removed = doc.get("unknown_removed", 0.5)
        rules = doc.get("rules")
        if not isinstance(rules, list) or not rules:
            raise PolicyError("'rules' (a non-empty array) is missing")
        self.rules = [Rule(i, r, self.backend, self.algorithms) for i, r in enumerate(rules)]

    def usable(self, algo, list_offered, flags_offered, stable):
        """auto.c usable(): on this backend, stable if asked, its input offered."""
        info = self.algorithms.get(algo)
        if info is None or self.backend not in info[2]:
            return False
        if stable and not info[0]:
            return False
        return flags_offered if info[1] == "flags" else list_offered

    def choose(self, n, elem, removed, list_offered, stable=False, flags_offered=True):
        """(algorithm, rule index): rule -1 for the fallback; algorithm None when nothing can
        run the call (auto returns SC_ERR_UNSUPPORTED)."""
        if n > LIST_MAX_N:
            list_offered = False
        for r in self.rules:
            if r.matches(n, elem, removed, list_offered, stable) and \
                    self.usable(r.algo, list_offered, flags_offered, stable):
                return r.algo, r.index
        for algo in FALLBACK:
            if self.usable(algo, list_offered, flags_offered, stable):
                return algo, -1
        return None, -1


def load_policy(path=None, compact=None, name=None, algorithms=None):
    if path:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path) as f:
                text = f.read()
    else:
        text = subprocess.run([compact, "policy", "show", name], check=True,
                              capture_output=True, text=True).stdout
    return Policy(json.loads(text), algorithms)


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
    return [[policy.choose(n, elem, r, list_offered, stable) for n in ns] for r in rs]


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
        ap.error("give a table file or --policy NAME (with --compact)")
    if a.policy and not compact:
        ap.error("--policy needs --compact PATH (or $COMPACT)")
    algorithms = None
    if compact:
        algorithms = algorithms_from_compact(compact)
        if not any("cuda" in v[2] for v in algorithms.values()):  # a build without CUDA
            algorithms = {k: (v[0], v[1], ALGORITHMS.get(k, v)[2]) for k, v in algorithms.items()}
    try:
        policy = load_policy(a.table, compact, a.policy, algorithms)
        elems = [int(x) for x in a.elem.split(",") if x]
    except (PolicyError, ValueError, OSError, subprocess.CalledProcessError) as e:
        print("plot_policy.py: %s" % e, file=sys.stderr)
        return 2
    order = plot(policy, a.out, elems, a.stable)
    print("%s: %s" % (a.out, ", ".join(x or "none" for x in order)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
