#!/usr/bin/env python3
"""plot_bench.py: the plots and README.md of `compact bench --report DIR`.

Reads the JSON that `compact bench --report` writes, draws the papers' figures again from
today's measurements (PNG, matplotlib), and writes README.md: a table that puts each claim of
the papers next to what was measured here, with a verdict computed from the measurements by
the thresholds stated in the README (nothing in it is typed in by hand).

Usage: plot_bench.py DIR/bench.json [--out DIR] [--compact PATH]
The algorithms and which of them are stable come from the library's table, through
`compact list --names` (--compact, which `compact bench` passes, else $COMPACT, else PATH).
Needs matplotlib (Debian: python3-matplotlib). Without it the README is still written, with
the verdicts but without plots, and the exit status is 3.
"""
import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

MOREIRA = ["horn", "jumping-jack", "rlz", "binary-tree"]
MOREIRA_STABLE = ["horn", "rlz", "binary-tree"]
# The bench's own baselines, after the library's algorithms in plots and tables.
BASELINES = ["thrust-remove-if", "thrust-remove-list", "scatter-limit", "copy"]
# Set by load_table() from the library's table: every algorithm in table order, then the
# baselines; and the stable ones but the serial reference (the contenders of claim_bt).
ORDER = []
ALL_STABLE = []


def load_table(compact):
    """ORDER and ALL_STABLE from `compact list --names [--stable]`."""
    def names(*extra):
        out = subprocess.run([compact, "list", "--names"] + list(extra), check=True,
                             capture_output=True, text=True).stdout
        return out.split()
    ORDER[:] = names() + BASELINES
    ALL_STABLE[:] = [a for a in names("--stable") if a != "serial"]
STYLE = {  # baselines: grey tones and their own dashes, so they read as references
    "copy": dict(color="black", linestyle="--", marker=""),
    "cub": dict(color="#555555", linestyle="-.", marker="x"),
    "thrust-remove-if": dict(color="#8c564b", linestyle=":", marker="+"),
    "thrust-remove-list": dict(color="#8c564b", linestyle="-.", marker="P"),
    "scatter-limit": dict(color="#999999", linestyle="--", marker=""),
}
MARKERS = "osD^v<>ph*"

# Thresholds of the verdicts (README.md states them).
JJ_BELOW = 0.70          # JJ must be faster than Horn below this removed fraction ...
JJ_BELOW_SHARE = 0.90    # ... at this share of the measured densities
JJ_CROSS = (0.60, 0.90)  # and stop being faster in this range (paper: 0.70-0.78)
SPARSE = 0.60            # "sparse": at least this fraction removed
WIN_YES, WIN_PARTLY = 0.80, 0.50
TIE = 0.03               # scans within 3 % of each other: a tie
SCAN_YES, SCAN_PARTLY = 0.75, 0.40
RZ_2 = (5.0, 2.0)        # Redzone vs thrust at 2 %: yes from 5x, partly from 2x (paper ~10x)
RZ_50 = ((0.67, 1.5), (0.5, 2.0))   # on par at 50 %: yes / partly ranges of the speed-up
RZ_90 = ((0.6, 1.0), (0.4, 1.25))   # slightly slower at 90 %
RZ_PHASE1 = 0.50         # phase 1 (mark) at least half of Redzone's time at 90 % removed
RZ_BREAK = (0.40, 0.95)  # break-even removed fraction against thrust
BS_RANGE = (1.2, 2.0)    # Billeter over Spataro: ~1.5x ...
BS_CV = 0.20             # ... and a constant factor: coefficient of variation over n at most
GROWS = 0.05             # "grows": each step at least -5 % (noise), the whole range up


# ---------------------------------------------------------------- data

class Data:
    def __init__(self, doc):
        self.doc = doc
        self.records = [r for r in doc["records"] if r.get("check") != "MISMATCH"]
        self.mismatches = [r for r in doc["records"] if r.get("check") == "MISMATCH"]

    def find(self, **kw):
        out = []
        for r in self.records:
            if all(_match(r.get(k), v) for k, v in kw.items()):
                out.append(r)
        return out

    def one(self, **kw):
        rows = self.find(**kw)
        return rows[0] if rows else None

    def ms(self, **kw):
        r = self.one(**kw)
        return r["median_ms"] if r else None

    def values(self, key, **kw):
        return sorted({r[key] for r in self.find(**kw) if r.get(key) is not None})


def _match(value, want):
    if callable(want):
        return want(value)
    if isinstance(want, float) and isinstance(value, (int, float)):
        return abs(value - want) < 1e-9
    return value == want


def near(x):
    return lambda v: v is not None and abs(v - x) < 1e-6


def pct(x):
    return "%.0f %%" % (100 * x) if x is not None else "-"


def fmt_n(n):
    e = int(round(math.log2(n))) if n > 0 else 0
    return "2^%d" % e if n == 1 << e else str(n)


def order_key(name):
    return ORDER.index(name) if name in ORDER else len(ORDER)


def style(name, i=0):
    if name in STYLE:
        return dict(STYLE[name])
    cmap = plt.get_cmap("tab10")
    k = order_key(name)
    return dict(color=cmap(k % 10), linestyle="-", marker=MARKERS[k % len(MARKERS)])


def interior(fs):
    return [f for f in fs if 0 < f < 1]


def nearest(fs, targets, tol=0.16):
    """For each target, the closest of fs (0 < f < 1) within tol; no repeats."""
    out = []
    for t in targets:
        cands = [f for f in interior(fs) if abs(f - t) <= tol and f not in out]
        if cands:
            out.append(min(cands, key=lambda f: abs(f - t)))
    return out


def vs_ref(data, rec):
    """'0.45x CUB, 31 % of copy' for one record."""
    if not rec:
        return "-"
    parts = []
    if rec.get("x_cub") is not None:
        parts.append("%.2fx CUB" % rec["x_cub"])
    if rec.get("pct_copy") is not None:
        parts.append("%.0f %% of copy" % rec["pct_copy"])
    return ", ".join(parts) or "-"


# ---------------------------------------------------------------- verdict helpers

def crossover(fs, ratio):
    """The removed fraction from which ratio(f) <= 1 for good (linear interpolation).
    None: ratio > 1 everywhere; 0: never above 1."""
    pts = [(f, ratio[f]) for f in fs if ratio.get(f) is not None]
    if not pts:
        return None
    last_above = None
    for i, (f, q) in enumerate(pts):
        if q > 1:
            last_above = i
    if last_above is None:
        return 0.0
    if last_above == len(pts) - 1:
        return None
    (f0, q0), (f1, q1) = pts[last_above], pts[last_above + 1]
    return f0 + (f1 - f0) * (q0 - 1) / (q0 - q1) if q0 != q1 else f1


def combine(verdicts):
    vs = [v for v in verdicts if v != "not measured"]
    if not vs:
        return "not measured"
    if all(v == "yes" for v in vs):
        return "yes"
    if all(v == "no" for v in vs):
        return "no"
    return "partly"


def grade(x, yes, partly):
    """yes/partly given as (lo, hi) ranges."""
    if x is None:
        return "not measured"
    if yes[0] <= x <= yes[1]:
        return "yes"
    if partly[0] <= x <= partly[1]:
        return "partly"
    return "no"


# ---------------------------------------------------------------- the claims

def claim_jj(d):
    tiles = d.values("tile", sweep="density", algorithm="jumping-jack", pattern="random")
    fs = interior(d.values("removed", sweep="density", algorithm="jumping-jack"))
    cells, verdicts, per_tile = [], [], {}
    for t in tiles:
        ratio = {}
        for f in fs:
            h = d.ms(sweep="density", algorithm="horn", tile=t, removed=near(f), pattern="random")
            j = d.ms(sweep="density", algorithm="jumping-jack", tile=t, removed=near(f),
                     pattern="random")
            ratio[f] = h / j if h and j else None
        below = [f for f in fs if f < JJ_BELOW and ratio.get(f) is not None]
        share = sum(ratio[f] > 1 for f in below) / len(below) if below else 0.0
        x = crossover(fs, ratio)
        per_tile[t] = (ratio, x)
        in_range = x is not None and JJ_CROSS[0] <= x <= JJ_CROSS[1]
        v = "yes" if share >= JJ_BELOW_SHARE and in_range else (
            "partly" if share >= JJ_BELOW_SHARE or in_range else "no")
        verdicts.append(v if below else "not measured")
        xs = "never stops" if x is None else (
            "never faster" if x == 0 else "stops at %s" % pct(x))
        cells.append("tile %d: faster at %d/%d densities < %s, %s" % (
            t, sum(ratio[f] > 1 for f in below), len(below), pct(JJ_BELOW), xs))
    ref = d.one(sweep="density", algorithm="jumping-jack", tile=256, removed=near(0.5),
                pattern="random")
    return dict(claim="Jumping Jack is faster than Horn below ~70-78 % removed",
                paper="JJ paper Fig. 11-13; Moreira 2009 Fig. 8-10",
                measured="; ".join(cells) or "-",
                vs="JJ t256 50 %%: %s" % vs_ref(d, ref),
                verdict=combine(verdicts) if cells else "not measured",
                detail=per_tile)


def claim_bt(d):
    tiles = d.values("tile", sweep="density", algorithm="binary-tree", pattern="random")
    fs = [f for f in interior(d.values("removed", sweep="density", algorithm="binary-tree"))
          if f >= SPARSE]
    wins = total = 0
    for t in tiles:
        for f in fs:
            times = {a: d.ms(sweep="density", algorithm=a, tile=t, removed=near(f),
                             pattern="random") for a in MOREIRA_STABLE}
            if any(v is None for v in times.values()):
                continue
            total += 1
            wins += min(times, key=times.get) == "binary-tree"
    share = wins / total if total else None
    # Among every stable algorithm measured (CUB too), at the sparsest point below 100 %.
    best = "-"
    if fs:
        f = max(fs)
        cands = {}
        for a in ALL_STABLE:
            rows = d.find(sweep="density", algorithm=a, removed=near(f), pattern="random")
            if rows:
                cands[a] = min(r["median_ms"] for r in rows)
        if cands:
            w = min(cands, key=cands.get)
            best = "fastest stable of all at %s removed: %s (%.3f ms; binary-tree %s)" % (
                pct(f), w, cands[w], "%.3f ms" % cands["binary-tree"]
                if "binary-tree" in cands else "-")
    v = "not measured" if share is None else (
        "yes" if share >= WIN_YES else "partly" if share >= WIN_PARTLY else "no")
    ref = d.one(sweep="density", algorithm="binary-tree", tile=256,
                removed=near(max(fs)) if fs else 0.9, pattern="random")
    return dict(claim="Binary-Tree is the fastest stable algorithm on sparse streams",
                paper="Moreira 2009 §4, Fig. 7-10, Table 1",
                measured="binary-tree fastest of horn/rlz/binary-tree at %d of %d (tile, "
                         "removed >= %s) points; %s" % (wins, total, pct(SPARSE), best),
                vs="binary-tree t256 %s: %s" % (pct(max(fs)) if fs else "-", vs_ref(d, ref)),
                verdict=v)


def cv(xs):
    xs = [x for x in xs if x]
    if len(xs) < 2:
        return None
    return statistics.pstdev(xs) / statistics.mean(xs)


def spreads(d):
    """Per algorithm: CV of time over densities (per tile), and max/min over patterns."""
    tiles = d.values("tile", sweep="density", algorithm="rlz")
    fs = interior(d.values("removed", sweep="density", algorithm="rlz"))
    dens = {a: {t: cv([d.ms(sweep="density", algorithm=a, tile=t, removed=near(f),
                            pattern="random") for f in fs]) for t in tiles} for a in MOREIRA}
    pats = [p for p in d.values("pattern", sweep="pattern") if not p.startswith(("mask:",
                                                                               "invmask:"))]
    ptiles = d.values("tile", sweep="pattern", algorithm="rlz")
    patspread = {}
    for a in MOREIRA:
        patspread[a] = {}
        for t in ptiles:
            xs = [d.ms(sweep="pattern", algorithm=a, tile=t, pattern=p) for p in pats]
            xs = [x for x in xs if x]
            patspread[a][t] = max(xs) / min(xs) if len(xs) > 1 else None
    return dens, patspread


def claim_rlz(d):
    dens, pats = spreads(d)
    tiles = sorted({t for a in dens for t in dens[a] if dens[a][t] is not None})
    lowest = 0
    cells = []
    for t in tiles:
        vals = {a: dens[a][t] for a in MOREIRA if dens[a].get(t) is not None}
        if not vals:
            continue
        w = min(vals, key=vals.get)
        lowest += w == "rlz"
        cells.append("tile %d: least %s (CV %.2f; rlz %.2f)" % (t, w, vals[w], vals.get("rlz",
                                                                                       float("nan"))))
    pat_low = 0
    ptiles = sorted({t for a in pats for t in pats[a] if pats[a][t] is not None})
    for t in ptiles:
        vals = {a: pats[a][t] for a in MOREIRA if pats[a].get(t) is not None}
        if vals and min(vals, key=vals.get) == "rlz":
            pat_low += 1
    if not tiles:
        v = "not measured"
    elif lowest * 2 > len(tiles):
        v = "yes"
    elif lowest or pat_low:
        v = "partly"
    else:
        v = "no"
    cells.append("least spread over patterns at %d of %d tiles" % (pat_low, len(ptiles)))
    ref = d.one(sweep="density", algorithm="rlz", tile=256, removed=near(0.5), pattern="random")
    return dict(claim="RLZ is the least data-dependent algorithm",
                paper="Moreira 2009 §4 (Fig. 8-10), §5",
                measured="CV of time over removed fractions: " + "; ".join(cells),
                vs="rlz t256 50 %%: %s" % vs_ref(d, ref), verdict=v, detail=(dens, pats))


def scan_ratios(d):
    out = {}
    for a in MOREIRA:
        for t in d.values("tile", sweep="scan", algorithm=a):
            hs = d.ms(sweep="scan", algorithm=a, tile=t, scan="hillis-steele")
            bl = d.ms(sweep="scan", algorithm=a, tile=t, scan="blelloch")
            if hs and bl:
                out.setdefault(a, {})[t] = bl / hs
    return out


def claim_scan(d):
    ratios = scan_ratios(d)
    agree = decided = ties = 0
    for a, byt in ratios.items():
        for t, q in byt.items():
            if t == 128:
                continue
            if abs(q - 1) <= TIE:
                ties += 1
                continue
            decided += 1
            agree += (q > 1) == (t < 128)
    considered = decided + ties
    share = agree / considered if considered else None
    v = "not measured" if share is None else (
        "yes" if share >= SCAN_YES else "partly" if share >= SCAN_PARTLY else "no")
    small = [q for a in ratios for t, q in ratios[a].items() if t < 128]
    large = [q for a in ratios for t, q in ratios[a].items() if t > 128]
    gm = lambda xs: math.exp(statistics.mean(math.log(x) for x in xs)) if xs else None
    measured = ("as the paper says at %d of %d (algorithm, tile) pairs (%d ties within %d %%); "
                "Blelloch/Hillis-Steele time, geometric mean: tiles < 128 %s, tiles > 128 %s"
                % (agree, considered, ties, round(100 * TIE),
                   "%.2f" % gm(small) if small else "-", "%.2f" % gm(large) if large else "-"))
    return dict(claim="Hillis-Steele beats Blelloch for tiles under 128 and loses above",
                paper="Moreira 2009 §4; JJ paper §5 (Fig. 9)", measured=measured,
                vs="(scan variants of the same algorithms)", verdict=v, detail=ratios)


def redzone_curve(d, order, algo="redzone", base="thrust-remove-list"):
    fs = interior(d.values("removed", sweep="density", algorithm=algo))
    out = {}
    for f in fs:
        r = d.ms(sweep="density", algorithm=algo, order=order, removed=near(f), pattern="random")
        b = d.ms(sweep="density", algorithm=base, order=order, removed=near(f), pattern="random")
        if base == "thrust-remove-if":
            b = d.ms(sweep="density", algorithm=base, removed=near(f), pattern="random")
        out[f] = b / r if r and b else None
    return out


def at(curve, f):
    keys = [k for k in curve if curve[k] is not None]
    if not keys:
        return None, None
    k = min(keys, key=lambda x: abs(x - f))
    return (curve[k], k) if abs(k - f) < 0.026 else (None, None)


def claim_redzone(d):
    curve = redzone_curve(d, "random")
    s2, f2 = at(curve, 0.02)
    s50, _ = at(curve, 0.5)
    s90, _ = at(curve, 0.9)
    v2 = "not measured" if s2 is None else (
        "yes" if s2 >= RZ_2[0] else "partly" if s2 >= RZ_2[1] else "no")
    v = combine([v2, grade(s50, *RZ_50), grade(s90, *RZ_90)])
    stencil = redzone_curve(d, "random", base="thrust-remove-if")
    t2, _ = at(stencil, 0.02)
    t50, _ = at(stencil, 0.5)
    t90, _ = at(stencil, 0.9)
    sx = lambda x: "%.2fx" % x if x is not None else "-"
    measured = ("thrust-remove-list / redzone: %s at %s, %s at 50 %%, %s at 90 %% (against "
                "thrust-remove-if on a ready stencil: %s, %s, %s)"
                % (sx(s2), pct(f2) if f2 else "2 %", sx(s50), sx(s90), sx(t2), sx(t50), sx(t90)))
    refs = [d.one(sweep="density", algorithm="redzone", order="random", removed=near(f),
                  pattern="random") for f in (0.5,)]
    return dict(claim="Redzone is ~10x faster than thrust::remove at 2 % removed, on par at "
                      "50 %, slightly slower at 90 %",
                paper="Redzone Fig. 4", measured=measured,
                vs="redzone 50 %%: %s" % vs_ref(d, refs[0]), verdict=v, detail=curve)


def phase_share(rec, name):
    if not rec or not rec.get("phases"):
        return None
    total = sum(p["ms"] for p in rec["phases"])
    mine = sum(p["ms"] for p in rec["phases"] if p["name"] == name)
    return mine / total if total > 0 else None


def claim_phase1(d):
    fs = nearest(d.values("removed", sweep="density", algorithm="redzone"), (0.1, 0.5, 0.9))
    shares = {}
    for f in fs:
        rec = d.one(sweep="density", algorithm="redzone", order="random", removed=near(f),
                    pattern="random")
        shares[f] = phase_share(rec, "mark")
    high = max(fs) if fs and max(fs) >= 0.75 else None
    s90 = shares.get(high)
    rec90 = d.one(sweep="density", algorithm="redzone", order="random", removed=near(high),
                  pattern="random") if high else None
    largest = None
    if rec90 and rec90.get("phases"):
        largest = max(rec90["phases"], key=lambda p: p["ms"])["name"]
    v = "not measured" if s90 is None else (
        "yes" if s90 >= RZ_PHASE1 else "partly" if largest == "mark" else "no")
    measured = "phase 1 (mark) share of Redzone's time: %s" % ", ".join(
        "%s at %s" % (pct(s), pct(f)) for f, s in shares.items() if s is not None)
    return dict(claim="Redzone's phase 1 (marking, scattered writes) dominates at high k",
                paper="Redzone §5.1, Fig. 4 and 6", measured=measured or "-",
                vs="-", verdict=v)


def claim_breakeven(d):
    cells, verdicts = [], []
    for order in ("random", "slot"):
        curve = redzone_curve(d, order)
        fs = sorted(curve)
        if not any(curve[f] is not None for f in fs):
            continue
        x = crossover(fs, curve)
        txt = "never (Redzone faster throughout)" if x is None else (
            "none (Redzone slower throughout)" if x == 0 else pct(x))
        cells.append("%s list: %s" % (order, txt))
        if order == "random":
            verdicts.append("yes" if x and RZ_BREAK[0] <= x <= RZ_BREAK[1] else
                            "partly" if x else "no")
    block = redzone_curve(d, "random", algo="redzone-block")
    xb = crossover(sorted(block), block) if any(v is not None for v in block.values()) else None
    if block and any(v is not None for v in block.values()):
        cells.append("redzone-block, random list: %s" % (
            "never" if xb is None else "none" if xb == 0 else pct(xb)))
    return dict(claim="Break-even removed fraction of Redzone against thrust::remove (random "
                      "and slot-ordered removal lists)",
                paper="Redzone Fig. 4 (on par at 50 %)",
                measured="; ".join(cells) or "-", vs="-",
                verdict=combine(verdicts) if verdicts else "not measured")


def claim_r(d):
    ks = d.values("removed", sweep="redzone-r", algorithm="redzone")
    grows_all, cells, measured_any = [], [], False
    for k in ks:
        pts = []
        for rec in d.find(sweep="redzone-r", algorithm="redzone", removed=near(k)):
            mark = sum(p["ms"] for p in rec.get("phases", []) if p["name"] == "mark")
            pts.append((rec["red_share"], mark, rec["median_ms"]))
        pts.sort()
        if len(pts) < 2:
            continue
        measured_any = True
        marks = [p[1] for p in pts]
        grows = marks[-1] > marks[0] and all(b >= a * (1 - GROWS) for a, b in zip(marks,
                                                                                  marks[1:]))
        grows_all.append(grows)
        cells.append("k = %s: mark %.3f -> %.3f ms, total %.3f -> %.3f ms for r %s -> %s" % (
            pct(k), pts[0][1], pts[-1][1], pts[0][2], pts[-1][2], pct(pts[0][0]),
            pct(pts[-1][0])))
    v = "not measured" if not measured_any else (
        "yes" if all(grows_all) else "partly" if any(grows_all) else "no")
    return dict(claim="Phase 1 time grows with the red-zone share r of the removal list "
                      "(and with k)",
                paper="Redzone §5.2, Fig. 6", measured="; ".join(cells) or "-", vs="-",
                verdict=v)


def claim_billeter(d):
    ns = d.values("n", sweep="size", algorithm="billeter")
    if not ns:
        return dict(claim="Billeter (warp sequences + vector IO) beats Spataro by a constant "
                          "factor (~1.5x)", paper="blog part 1.1 and 2-4",
                    measured="-", vs="-", verdict="not measured")
    big = [n for n in ns if n >= max(ns) / 64]  # the bandwidth-bound end of the size sweep
    ratios = []
    for n in big:
        s = d.ms(sweep="size", algorithm="spataro", n=n)
        b = d.ms(sweep="size", algorithm="billeter", n=n)
        if s and b:
            ratios.append(s / b)
    m = statistics.median(ratios) if ratios else None
    c = cv(ratios)
    if m is None:
        v = "not measured"
    elif BS_RANGE[0] <= m <= BS_RANGE[1] and (c or 0) <= BS_CV:
        v = "yes"
    elif m > 1.05:
        v = "partly"
    else:
        v = "no"
    elems = []
    for e in d.values("elem_size", sweep="vector-io", algorithm="billeter"):
        s = d.ms(sweep="vector-io", algorithm="spataro", elem_size=e, removed=near(0.5))
        b = d.ms(sweep="vector-io", algorithm="billeter", elem_size=e, removed=near(0.5))
        if s and b:
            elems.append("%d B: %.2fx" % (e, s / b))
    ref = d.one(sweep="size", algorithm="billeter", n=max(ns))
    refs = d.one(sweep="size", algorithm="spataro", n=max(ns))
    measured = ("spataro / billeter time for n %s..%s: median %.2fx (CV %.2f over n)%s" % (
        fmt_n(min(big)), fmt_n(max(big)), m or 0, c or 0,
        "; at 50 % by element size: " + ", ".join(elems) if elems else ""))
    return dict(claim="Billeter (warp sequences + vector IO) beats Spataro by a constant "
                      "factor (~1.5x)",
                paper="blog part 1.1 (1.5x over Orange Owls' Spataro), parts 2-4",
                measured=measured,
                vs="billeter %s: %s; spataro: %s" % (fmt_n(max(ns)), vs_ref(d, ref),
                                                     vs_ref(d, refs)),
                verdict=v)


CLAIMS = [claim_jj, claim_bt, claim_rlz, claim_scan, claim_redzone, claim_phase1,
          claim_breakeven, claim_r, claim_billeter]


# ---------------------------------------------------------------- plots

def save(fig, out, name):
    fig.tight_layout()
    path = os.path.join(out, name)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return name


def legend_right(ax, **kw):
    if not ax.get_legend_handles_labels()[0]:
        return
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False, **kw)


def plot_size(d, out):
    algos = sorted({r["algorithm"] for r in d.find(sweep="size")}, key=order_key)
    if not algos:
        return None
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 5))
    for a in algos:
        rows = sorted(d.find(sweep="size", algorithm=a,
                             order=lambda o: o in (None, "random")), key=lambda r: r["n"])
        if not rows:
            continue
        st = style(a)
        ns = [r["n"] for r in rows]
        a1.plot(ns, [r["median_ms"] for r in rows], label=a, ms=4, **st)
        a2.plot(ns, [r["gbps"] for r in rows], label=a, ms=4, **st)
    for ax in (a1, a2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("n (elements, 4 bytes each, 50 % removed at random)")
        ax.grid(True, which="both", alpha=0.3)
    a1.set_yscale("log")
    a1.set_ylabel("median time (ms)")
    a1.set_title("Time against n")
    a2.set_ylabel("GB/s = (n*4 + n + kept*4 bytes) / time")
    a2.set_title("Bandwidth against n")
    legend_right(a2)
    return save(fig, out, "size.png")


def density_lines(d, ax, algos, tile, baselines, order="random"):
    for a in algos:
        kw = dict(sweep="density", algorithm=a, pattern="random")
        if a.startswith("redzone") or a in ("thrust-remove-list", "scatter-limit"):
            kw["order"] = order
        rows = sorted(d.find(**kw), key=lambda r: r["removed"])
        if any(r.get("tile") for r in rows):
            rows = [r for r in rows if r.get("tile") == tile]
        if not rows:
            continue
        ax.plot([100 * r["removed"] for r in rows], [r["median_ms"] for r in rows], label=a,
                ms=4, **style(a))
    for b in baselines:
        rows = sorted(d.find(sweep="density", algorithm=b, pattern="random"),
                      key=lambda r: r["removed"])
        if rows:
            ax.plot([100 * r["removed"] for r in rows], [r["median_ms"] for r in rows],
                    label=b, ms=3, **style(b))


def plot_density(d, out):
    tiles = d.values("tile", sweep="density", algorithm="horn")
    if not tiles:
        return None
    n = d.values("n", sweep="density")
    fig, axes = plt.subplots(1, len(tiles), figsize=(5 * len(tiles) + 1.5, 4.6), sharey=True)
    axes = axes if len(tiles) > 1 else [axes]
    for ax, t in zip(axes, tiles):
        density_lines(d, ax, MOREIRA, t, ["cub", "copy"])
        ax.set_title("tile (block) %d" % t)
        ax.set_xlabel("removed (invalid) elements, %")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("median time (ms), n = %s" % (fmt_n(n[0]) if n else "?"))
    legend_right(axes[-1])
    fig.suptitle("Time against removed fraction (Moreira 2009 Fig. 8-10)", y=1.0)
    return save(fig, out, "density_tiles.png")


def plot_density_all(d, out):
    algos = sorted({r["algorithm"] for r in d.find(sweep="density", kind="algorithm")
                    if not r["algorithm"].startswith("redzone")}, key=order_key)
    if not algos:
        return None
    fig, ax = plt.subplots(figsize=(11, 5))
    density_lines(d, ax, algos, 256, ["cub", "thrust-remove-if", "copy"])
    ax.set_yscale("log")
    ax.set_xlabel("removed elements, % (tile 256 where the algorithm has one)")
    ax.set_ylabel("median time (ms)")
    ax.set_title("Every flag-stencil algorithm against the removed fraction")
    ax.grid(True, which="both", alpha=0.3)
    legend_right(ax)
    return save(fig, out, "density_all.png")


def plot_jj(d, out, claim):
    per_tile = claim.get("detail") or {}
    if not per_tile:
        return None
    fig, ax = plt.subplots(figsize=(9, 4.8))
    ax.axvspan(70, 78, color="orange", alpha=0.2, label="paper's crossover (70-78 %)")
    ax.axhline(1.0, color="black", lw=1)
    for i, (t, (ratio, x)) in enumerate(sorted(per_tile.items())):
        fs = [f for f in sorted(ratio) if ratio[f] is not None]
        line, = ax.plot([100 * f for f in fs], [ratio[f] for f in fs], marker=MARKERS[i],
                        ms=4, label="tile %d" % t)
        if x not in (None, 0):
            ax.axvline(100 * x, color=line.get_color(), ls=":", lw=1)
    ax.set_xlabel("removed elements, %")
    ax.set_ylabel("Horn time / Jumping Jack time (> 1: JJ faster)")
    ax.set_title("Jumping Jack against Horn (JJ paper Fig. 11-13); dotted: measured crossover")
    ax.grid(True, alpha=0.3)
    legend_right(ax)
    return save(fig, out, "jj_vs_horn.png")


PHASE_COLORS = {}


def phase_color(name):
    if name not in PHASE_COLORS:
        PHASE_COLORS[name] = plt.get_cmap("tab20")(len(PHASE_COLORS) % 20)
    return PHASE_COLORS[name]


def stacked(ax, labels, recs, with_total=True):
    seen = set()
    for i, rec in enumerate(recs):
        if not rec:
            continue
        bottom = 0.0
        phases = rec.get("phases") or []
        if not phases and with_total:
            ax.bar(i, rec["median_ms"], color="#cccccc", hatch="//", edgecolor="grey",
                   label="total (no phases)" if "total" not in seen else None)
            seen.add("total")
            continue
        for p in phases:
            ax.bar(i, p["ms"], bottom=bottom, color=phase_color(p["name"]),
                   label=p["name"] if p["name"] not in seen else None)
            seen.add(p["name"])
            bottom += p["ms"]
        ax.plot([i - 0.4, i + 0.4], [rec["median_ms"]] * 2, color="black", lw=1)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)


def legend_once(axes):
    """One legend right of the last panel, each label once across all panels."""
    handles, labels = [], []
    for ax in axes:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    axes[-1].legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8,
                    frameon=False)


def plot_phases(d, out):
    fs = nearest(d.values("removed", sweep="density"), (0.1, 0.5, 0.9))
    algos = [a for a in ORDER if d.find(sweep="density", algorithm=a, kind="algorithm")
             and not a.startswith("redzone")]
    if not fs or not algos:
        return None
    fig, axes = plt.subplots(1, len(fs), figsize=(5 * len(fs) + 2, 5))
    axes = axes if len(fs) > 1 else [axes]
    for ax, f in zip(axes, fs):
        recs = []
        for a in algos:
            kw = dict(sweep="density", algorithm=a, removed=near(f), pattern="random")
            rec = d.one(tile=256, **kw) or d.one(**kw)
            recs.append(rec)
        stacked(ax, algos, recs)
        ax.set_title("%s removed (tile 256)" % pct(f))
        ax.set_ylabel("time per phase (ms, median of 5 timed passes)")
        ax.grid(True, axis="y", alpha=0.3)
    legend_once(axes)
    fig.suptitle("Per-phase time (Moreira 2009 Fig. 7); black line: the timed run's median",
                 y=1.0)
    return save(fig, out, "phases.png")


def plot_phases_redzone(d, out):
    fs = nearest(d.values("removed", sweep="density", algorithm="redzone"),
                 (0.02, 0.1, 0.5, 0.9), tol=0.05)
    if not fs:
        return None
    names = [a for a in ("redzone", "redzone-block", "thrust-remove-list", "thrust-remove-if")
             if d.find(sweep="density", algorithm=a)]
    fig, axes = plt.subplots(1, len(fs), figsize=(3.6 * len(fs) + 2, 4.8))
    axes = axes if len(fs) > 1 else [axes]
    for ax, f in zip(axes, fs):
        recs = []
        for a in names:
            kw = dict(sweep="density", algorithm=a, removed=near(f), pattern="random")
            recs.append(d.one(order="random", **kw) or d.one(**kw))
        stacked(ax, names, recs)
        lim = d.ms(sweep="density", algorithm="scatter-limit", order="random", removed=near(f))
        if lim:
            ax.axhline(lim, color="grey", ls="--", lw=1, label="scatter-limit")
        ax.set_title("k = %s of n" % pct(f))
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel("time per phase (ms)")
    legend_once(axes)
    fig.suptitle("Redzone against thrust, per phase, random removal lists (Redzone Fig. 4)",
                 y=1.0)
    return save(fig, out, "phases_redzone.png")


def plot_redzone_thrust(d, out, claim):
    names = [a for a in ("redzone", "redzone-block", "thrust-remove-list", "thrust-remove-if",
                         "scatter-limit", "copy") if d.find(sweep="density", algorithm=a)]
    if "redzone" not in names:
        return None
    fig, ax = plt.subplots(figsize=(10, 5))
    for order, ls in (("random", "-"), ("slot", "--")):
        for a in names:
            kw = dict(sweep="density", algorithm=a, pattern="random")
            if a in ("redzone", "redzone-block", "thrust-remove-list", "scatter-limit"):
                kw["order"] = order
            elif order == "slot":
                continue
            rows = sorted(d.find(**kw), key=lambda r: r["removed"])
            rows = [r for r in rows if 0 < r["removed"]]
            if not rows:
                continue
            st = style(a)
            if "order" in kw:
                st["linestyle"] = ls
            ax.plot([100 * r["removed"] for r in rows], [r["median_ms"] for r in rows], ms=4,
                    label="%s%s" % (a, " (%s list)" % order if "order" in kw else ""), **st)
    ax.set_yscale("log")
    ax.set_xlabel("removed elements k/n, %")
    ax.set_ylabel("median time (ms)")
    ax.set_title("Redzone against thrust (solid: random-order lists, dashed: slot order)")
    ax.grid(True, which="both", alpha=0.3)
    legend_right(ax)
    return save(fig, out, "redzone_vs_thrust.png")


def plot_redzone_r(d, out):
    ks = d.values("removed", sweep="redzone-r", algorithm="redzone")
    if not ks:
        return None
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.8))
    cmap = plt.get_cmap("tab10")
    for i, k in enumerate(ks):
        for algo, ls in (("redzone", "-"), ("redzone-block", "--")):
            rows = sorted(d.find(sweep="redzone-r", algorithm=algo, removed=near(k)),
                          key=lambda r: r["red_share"])
            if not rows:
                continue
            rs = [100 * r["red_share"] for r in rows]
            a1.plot(rs, [r["median_ms"] for r in rows], ls=ls, marker="o", ms=4,
                    color=cmap(i), label="%s total, k = %s" % (algo, pct(k)))
            if algo == "redzone":
                marks = [sum(p["ms"] for p in r.get("phases", []) if p["name"] == "mark")
                         for r in rows]
                a1.plot(rs, marks, ls=":", marker="x", ms=4, color=cmap(i),
                        label="redzone phase 1 (mark), k = %s" % pct(k))
    a1.set_yscale("log")
    a1.set_xlabel("r: share of the removal list inside the red zone [n-k, n), %")
    a1.set_ylabel("time (ms)")
    a1.set_title("Time against r (Redzone Fig. 6, left)")
    a1.grid(True, which="both", alpha=0.3)
    a1.legend(fontsize=7, frameon=False)
    labels, recs = [], []
    for k in ks:
        for rec in sorted(d.find(sweep="redzone-r", algorithm="redzone", removed=near(k)),
                          key=lambda r: r["red_share"]):
            total = sum(p["ms"] for p in rec.get("phases", [])) or 1.0
            recs.append(dict(rec, median_ms=100.0, phases=[dict(p, ms=100 * p["ms"] / total)
                                                            for p in rec.get("phases", [])]))
            labels.append("k %s, r %s" % (pct(k), pct(rec["red_share"])))
    stacked(a2, labels, recs)
    a2.set_ylabel("share of Redzone's time per phase, %")
    a2.set_title("Relative time per phase (Redzone Fig. 6, right)")
    legend_right(a2)
    return save(fig, out, "redzone_r.png")


def plot_scan(d, out, claim):
    ratios = claim.get("detail") or {}
    if not ratios:
        return None
    fig, ax = plt.subplots(figsize=(9, 4.8))
    for a, byt in sorted(ratios.items(), key=lambda kv: order_key(kv[0])):
        ts = sorted(byt)
        ax.plot(ts, [byt[t] for t in ts], label=a, ms=5, **style(a))
    ax.axhline(1.0, color="black", lw=1)
    ax.axvline(128, color="orange", ls="--", lw=1, label="tile 128 (paper's switch)")
    ax.axhspan(1 - TIE, 1 + TIE, color="grey", alpha=0.15, label="tie (within 3 %)")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("tile (block) size")
    ax.set_ylabel("Blelloch time / Hillis-Steele time\n(> 1: Hillis-Steele faster)")
    ax.set_title("Hillis-Steele against Blelloch tile scans (50 % removed)")
    ax.grid(True, which="both", alpha=0.3)
    legend_right(ax)
    return save(fig, out, "scan_hs_vs_blelloch.png")


def plot_patterns(d, out):
    pats = d.values("pattern", sweep="pattern")
    if not pats:
        return None
    first = ["random"] + sorted((p for p in pats if p.startswith("runs:")),
                                key=lambda p: float(p[5:]))
    pats = first + [p for p in pats if p not in first]
    algos = [a for a in ORDER if d.find(sweep="pattern", algorithm=a)]
    fig, ax = plt.subplots(figsize=(max(10, 1.1 * len(pats) + 3), 5))
    width = 0.8 / max(1, len(algos))
    for i, a in enumerate(algos):
        ys = []
        for p in pats:
            kw = dict(sweep="pattern", algorithm=a, pattern=p)
            rec = d.one(tile=256, **kw) or d.one(**kw)
            ys.append(rec["median_ms"] if rec else 0)
        xs = [j + (i - len(algos) / 2 + 0.5) * width for j in range(len(pats))]
        ax.bar(xs, ys, width=width, label=a, color=style(a)["color"])
    labels = []
    for p in pats:
        r = d.one(sweep="pattern", pattern=p)
        labels.append("%s\n%s removed" % (p, pct(r["removed"]) if r else "?"))
    ax.set_xticks(range(len(pats)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("median time (ms), tile 256")
    ax.set_title("Structure of the stream: runs, blobs and image masks (Moreira 2009 Table 1)")
    ax.grid(True, axis="y", alpha=0.3)
    legend_right(ax)
    return save(fig, out, "patterns.png")


def plot_spread(d, out, claim):
    dens, pats = claim.get("detail") or ({}, {})
    if not dens:
        return None
    tiles = sorted({t for a in dens for t in dens[a]})
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(MOREIRA)
    for i, a in enumerate(MOREIRA):
        xs = [j + (i - len(MOREIRA) / 2 + 0.5) * width for j in range(len(tiles))]
        a1.bar(xs, [dens[a].get(t) or 0 for t in tiles], width=width, label=a,
               color=style(a)["color"])
        ptiles = sorted(pats.get(a, {}))
        xs2 = [j + (i - len(MOREIRA) / 2 + 0.5) * width for j in range(len(ptiles))]
        a2.bar(xs2, [pats[a].get(t) or 0 for t in ptiles], width=width, label=a,
               color=style(a)["color"])
        a2.set_xticks(range(len(ptiles)))
        a2.set_xticklabels(["tile %d" % t for t in ptiles])
    a1.set_xticks(range(len(tiles)))
    a1.set_xticklabels(["tile %d" % t for t in tiles])
    a1.set_ylabel("coefficient of variation of time\nover removed fractions 0 < f < 1")
    a1.set_title("Data dependence: density")
    a2.set_ylabel("slowest / fastest pattern at 50 % removed\n(random, runs, blobs)")
    a2.set_title("Data dependence: structure")
    for ax in (a1, a2):
        ax.grid(True, axis="y", alpha=0.3)
    legend_right(a2)
    return save(fig, out, "data_dependence.png")


def plot_vector_io(d, out):
    ns = d.values("n", sweep="size", algorithm="billeter")
    elems = d.values("elem_size", sweep="vector-io", algorithm="billeter")
    if not ns:
        return None
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
    a1.axhspan(BS_RANGE[0], BS_RANGE[1], color="orange", alpha=0.15,
               label="%.1f-%.1fx (blog: ~1.5x)" % BS_RANGE)
    qs = [(n, d.ms(sweep="size", algorithm="spataro", n=n),
           d.ms(sweep="size", algorithm="billeter", n=n)) for n in ns]
    qs = [(n, s / b) for n, s, b in qs if s and b]
    a1.plot([n for n, _ in qs], [q for _, q in qs], marker="o", label="spataro / billeter")
    a1.axhline(1.0, color="black", lw=1)
    a1.set_xscale("log", base=2)
    a1.set_xlabel("n (4-byte elements, 50 % removed)")
    a1.set_ylabel("time ratio (> 1: Billeter faster)")
    a1.set_title("Billeter against Spataro over n")
    a1.grid(True, which="both", alpha=0.3)
    a1.legend(fontsize=8, frameon=False)
    fs = d.values("removed", sweep="vector-io", algorithm="billeter")
    width = 0.8 / max(1, len(fs))
    for i, f in enumerate(fs):
        ys = []
        for e in elems:
            s = d.ms(sweep="vector-io", algorithm="spataro", elem_size=e, removed=near(f))
            b = d.ms(sweep="vector-io", algorithm="billeter", elem_size=e, removed=near(f))
            ys.append(s / b if s and b else 0)
        xs = [j + (i - len(fs) / 2 + 0.5) * width for j in range(len(elems))]
        a2.bar(xs, ys, width=width, label="%s removed" % pct(f))
    a2.axhline(1.0, color="black", lw=1)
    a2.set_xticks(range(len(elems)))
    a2.set_xticklabels(["%d B" % e for e in elems])
    a2.set_xlabel("element size")
    a2.set_ylabel("spataro time / billeter time")
    a2.set_title("Billeter against Spataro by element size")
    a2.grid(True, axis="y", alpha=0.3)
    legend_right(a2)
    return save(fig, out, "billeter_vs_spataro.png")


# ---------------------------------------------------------------- README

def reference_table(d):
    ns = d.values("n", sweep="size")
    n = d.values("n", sweep="density") or ns
    n = n[0] if n else None
    if n not in ns and ns:
        n = ns[-1]
    rows = sorted(d.find(sweep="size", n=n, order=lambda o: o in (None, "random")),
                  key=lambda r: order_key(r["algorithm"]))
    lines = ["| algorithm | kind | median ms | GB/s | x CUB | % of copy |",
             "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append("| %s | %s | %.4f | %.1f | %s | %s |" % (
            r["algorithm"], r["kind"], r["median_ms"], r["gbps"],
            "%.2f" % r["x_cub"] if r.get("x_cub") is not None else "-",
            "%.1f" % r["pct_copy"] if r.get("pct_copy") is not None else "-"))
    return n, "\n".join(lines)


PLOT_TEXT = {
    "size.png": "Time and bandwidth against n at 50 % removed (every flag algorithm, tile 256, "
                "and Redzone with its removal list).",
    "density_tiles.png": "Moreira 2009 Fig. 8-10 again: Horn, Jumping Jack, RLZ and "
                         "Binary-Tree against the removed fraction for tiles 32, 256 and 2048.",
    "jj_vs_horn.png": "JJ paper Fig. 11-13: Horn's time over Jumping Jack's; where the curve "
                      "drops below 1 JJ stops being faster (shaded: the paper's 70-78 %).",
    "density_all.png": "Every flag-stencil algorithm against the removed fraction, with CUB, "
                       "thrust and the copy.",
    "phases.png": "Moreira 2009 Fig. 7 (and the other algorithms): per-phase time at 10, 50 and "
                  "90 % removed.",
    "phases_redzone.png": "Redzone Fig. 4: Redzone's phases (mark, pair, orphans) against "
                          "thrust-remove-list (mark, remove) at 2, 10, 50 and 90 %.",
    "redzone_vs_thrust.png": "Redzone against thrust for random and slot-ordered lists: the "
                             "break-even removed fraction is where the lines cross.",
    "redzone_r.png": "Redzone Fig. 6: time and phase shares against r, the share of the "
                     "removal list inside the red zone.",
    "scan_hs_vs_blelloch.png": "Hillis-Steele against Blelloch tile scans: above 1 "
                               "Hillis-Steele is faster.",
    "patterns.png": "Moreira 2009 Table 1: one density, different structure (runs, blobs, the "
                    "hand/bunny/sphere masks and their negatives).",
    "data_dependence.png": "Data dependence of Moreira's four algorithms: spread of time over "
                           "densities and over stream structures.",
    "billeter_vs_spataro.png": "Billeter's warp sequences with vector IO against Spataro's "
                               "3-phase compaction, over n and element size.",
}

THRESHOLDS = """\
- **JJ vs Horn**: per tile, *yes* if JJ is faster at >= {jjs:.0f} % of the measured densities
  below {jjb:.0f} % removed and stops being faster (last crossing, linear interpolation)
  between {c0:.0f} and {c1:.0f} %; *partly* if only one of the two holds. Overall: *yes* if
  every tile says yes, *no* if every tile says no.
- **Binary-Tree on sparse streams**: share of (tile, removed >= {sp:.0f} %) points where
  binary-tree beats horn and rlz (the paper's stable algorithms): *yes* >= {wy:.0f} %,
  *partly* >= {wp:.0f} %.
- **RLZ least data-dependent**: coefficient of variation of the time over the removed
  fractions 0 < f < 1, per tile, among horn, jumping-jack, rlz, binary-tree: *yes* if RLZ's
  is the lowest at most tiles, *partly* if at some tile (or lowest spread over patterns).
- **Hillis-Steele vs Blelloch**: per (algorithm, tile != 128), Hillis-Steele wins if Blelloch
  is > {tie:.0f} % slower, Blelloch wins if > {tie:.0f} % faster, else a tie (counted as
  disagreeing); *yes* if >= {sy:.0f} % agree with "HS below 128, Blelloch above", *partly*
  >= {sp2:.0f} %.
- **Redzone vs thrust::remove** (thrust-remove-list: the list marked into a stencil, then
  thrust::remove_if, as the paper runs its competitors): speed-up at 2 % *yes* >= {r2:.0f}x,
  *partly* >= {r2p:.0f}x; at 50 % *yes* in {r50[0][0]}-{r50[0][1]}x, *partly* in
  {r50[1][0]}-{r50[1][1]}x; at 90 % *yes* in {r90[0][0]}-{r90[0][1]}x, *partly* in
  {r90[1][0]}-{r90[1][1]}x; all three must hold for *yes*.
- **Phase 1 dominates**: *yes* if "mark" is >= {p1:.0f} % of Redzone's phase time at the
  measured density nearest 90 % (at least 75 %), *partly* if it is the largest phase there.
- **Break-even**: *yes* if Redzone (random list) stops being faster than thrust-remove-list
  between {b0:.0f} and {b1:.0f} % removed, *partly* if elsewhere.
- **r**: *yes* if Redzone's mark time rises from the lowest to the highest r at every k (each
  step at least -{gr:.0f} %, for noise).
- **Billeter vs Spataro**: median Spataro/Billeter time ratio over the largest n of the size
  sweep (the top 64x) within {bs0}-{bs1}x and its coefficient of variation <= {bcv} (a
  constant factor): *yes*; faster by > 5 %: *partly*.
- Mismatched results (a result that differs from the serial reference) are left out of
  everything; they are listed at the end.
""".format(jjs=100 * JJ_BELOW_SHARE, jjb=100 * JJ_BELOW, c0=100 * JJ_CROSS[0],
           c1=100 * JJ_CROSS[1], sp=100 * SPARSE, wy=100 * WIN_YES, wp=100 * WIN_PARTLY,
           tie=100 * TIE, sy=100 * SCAN_YES, sp2=100 * SCAN_PARTLY, r2=RZ_2[0], r2p=RZ_2[1],
           r50=RZ_50, r90=RZ_90, p1=100 * RZ_PHASE1, b0=100 * RZ_BREAK[0],
           b1=100 * RZ_BREAK[1], gr=100 * GROWS, bs0=BS_RANGE[0], bs1=BS_RANGE[1], bcv=BS_CV)


def md_cell(s):
    return str(s).replace("|", "/").replace("\n", " ")


def write_readme(doc, d, claims, plots, path):
    dev = doc.get("device") or "?"
    L = []
    L.append("# `compact bench --report`: the papers' claims on %s" % dev)
    L.append("")
    drv = ", driver %s, runtime %s" % (doc["driver"], doc["runtime"]) if doc.get("driver") else ""
    L.append("Backend **%s** on **%s**%s; commit `%s`; %s; %.0f s for %d measurements%s." % (
        doc.get("backend"), dev, drv, doc.get("commit"), doc.get("date"),
        doc.get("elapsed_s", 0), len(doc["records"]), " (--quick)" if doc.get("quick") else ""))
    L.append("")
    L.append("Made by `compact bench --report DIR --backend %s%s`; every number and verdict "
             "below is computed by `compaction/tools/plot_bench.py` from `bench.json` (also "
             "`bench.csv`, and `table.txt` for reading). Each measurement is checked against "
             "the serial reference, then timed on input sets that together exceed twice the "
             "last-level cache; times are medians." % (
                 doc.get("backend"), " --quick" if doc.get("quick") else ""))
    L.append("")
    if doc.get("complete") is False:
        L.append("**Incomplete:** the run stopped early (an error or `--max-seconds`); claims "
                 "whose sweeps are missing say *not measured*.")
        L.append("")
    L.append("## Claims and verdicts")
    L.append("")
    L.append("| claim | paper's figure | measured here | vs CUB / copy limit | reproduced? |")
    L.append("|---|---|---|---|---|")
    for c in claims:
        L.append("| %s | %s | %s | %s | **%s** |" % tuple(md_cell(c[k]) for k in (
            "claim", "paper", "measured", "vs", "verdict")))
    L.append("")
    L.append("Thresholds (constants at the top of `plot_bench.py`):")
    L.append("")
    L.append(THRESHOLDS)
    n, table = reference_table(d)
    if n:
        L.append("## Every algorithm against CUB and the copy limit")
        L.append("")
        L.append("n = %s, 4-byte elements, 50 %% removed at random, tile 256, default scan "
                 "(the size sweep). x CUB > 1: faster than CUB; %% of copy: 100 * the copy's "
                 "time / this time." % fmt_n(n))
        L.append("")
        L.append(table)
        L.append("")
    L.append("## Plots")
    L.append("")
    for p in plots:
        L.append("### %s" % p)
        L.append("")
        L.append(PLOT_TEXT.get(p, ""))
        L.append("")
        L.append("![%s](%s)" % (p, p))
        L.append("")
    if not plots:
        L.append("No plots: matplotlib is missing (Debian: python3-matplotlib).")
        L.append("")
    L.append("## The sweeps")
    L.append("")
    L.append("| sweep | purpose | command |")
    L.append("|---|---|---|")
    for s in doc.get("sweeps", []):
        L.append("| %s | %s | `%s` |" % (s["tag"], md_cell(s["purpose"]),
                                         md_cell(s["command"])))
    L.append("")
    L.append("GB/s: %s. %s. %s." % (doc.get("gbps_definition", ""),
                                    doc.get("x_cub_definition", ""),
                                    doc.get("pct_copy_definition", "")))
    L.append("")
    if d.mismatches:
        L.append("## Mismatches (left out above)")
        L.append("")
        for r in d.mismatches:
            L.append("- %s, sweep %s, n %d, removed %s, pattern %s, tile %s, scan %s, order %s"
                     % (r["algorithm"], r.get("sweep"), r["n"], r["removed"], r["pattern"],
                        r["tile"], r["scan"], r["order"]))
        L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="bench.json from compact bench --report")
    ap.add_argument("--out", help="where the PNGs and README.md go (default: beside the JSON)")
    ap.add_argument("--compact", help="the compact tool, for the algorithm table "
                    "(default: $COMPACT, else compact on PATH)")
    args = ap.parse_args()
    compact = args.compact or os.environ.get("COMPACT") or shutil.which("compact")
    try:
        if not compact:
            raise OSError("no compact tool: give --compact PATH or set $COMPACT")
        load_table(compact)
    except (OSError, subprocess.CalledProcessError) as e:
        print("plot_bench.py: cannot read the algorithm table: %s" % e, file=sys.stderr)
        return 2
    out = args.out or os.path.dirname(os.path.abspath(args.json))
    with open(args.json) as f:
        doc = json.load(f)
    d = Data(doc)
    claims = [fn(d) for fn in CLAIMS]
    by = {fn.__name__: c for fn, c in zip(CLAIMS, claims)}
    plots = []
    if plt is not None:
        makers = [
            lambda: plot_size(d, out), lambda: plot_density(d, out),
            lambda: plot_jj(d, out, by["claim_jj"]), lambda: plot_density_all(d, out),
            lambda: plot_phases(d, out), lambda: plot_phases_redzone(d, out),
            lambda: plot_redzone_thrust(d, out, by["claim_redzone"]),
            lambda: plot_redzone_r(d, out), lambda: plot_scan(d, out, by["claim_scan"]),
            lambda: plot_patterns(d, out), lambda: plot_spread(d, out, by["claim_rlz"]),
            lambda: plot_vector_io(d, out)]
        for make in makers:
            name = make()
            if name:
                plots.append(name)
    write_readme(doc, d, claims, plots, os.path.join(out, "README.md"))
    for c in claims:
        print("%-14s %s" % (c["verdict"], c["claim"]))
    if plt is None:
        print("plot_bench.py: no plots: matplotlib is missing (Debian: python3-matplotlib)",
              file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
