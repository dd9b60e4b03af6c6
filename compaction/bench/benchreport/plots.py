"""benchreport.plots: the papers' figures drawn again from the measurements (PNG).

Each plot function takes a Data and the output directory (some also the claim whose detail
they draw) and returns the PNG's file name, or None where the run has no data for it.
make_plots() draws them all in the README's order; PLOT_TEXT holds each one's caption.
Needs matplotlib (Debian: python3-matplotlib); without it `plt` is None and nothing is drawn.
"""
import os

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

from .claims import BS_RANGE, TIE
from .data import MOREIRA, ORDER, density_at, fmt_n, near, nearest, order_key, pct

STYLE = {  # baselines: grey tones and their own dashes, so they read as references
    "copy": dict(color="black", linestyle="--", marker=""),
    "cub": dict(color="#555555", linestyle="-.", marker="x"),
    "thrust-remove-if": dict(color="#8c564b", linestyle=":", marker="+"),
    "thrust-remove-list": dict(color="#8c564b", linestyle="-.", marker="P"),
    "scatter-limit": dict(color="#999999", linestyle="--", marker=""),
}
MARKERS = "osD^v<>ph*"


def style(name, i=0):
    """Baselines their own grey dashes; every algorithm of the table a colour and a marker of
    its own (its place in the table: tab20's 20 colours, MARKERS' 10 markers)."""
    if name in STYLE:
        return dict(STYLE[name])
    cmap = plt.get_cmap("tab20")
    k = order_key(name)
    return dict(color=cmap(k % 20), linestyle="-", marker=MARKERS[k % len(MARKERS)])


def save(fig, out, name):
    fig.tight_layout()
    path = os.path.join(out, name)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return name


def frame(ax, xlabel, ylabel, title, **grid):
    """Axis labels (None: none), the title and a light grid (grid: ax.grid's which or axis)."""
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3, **grid)


def bars(ax, i, count, ys, **kw):
    """The i-th of count bars side by side at each of the positions 0, 1, ... len(ys)-1."""
    width = 0.8 / max(1, count)
    ax.bar([j + (i - count / 2 + 0.5) * width for j in range(len(ys))], ys, width=width, **kw)


def by_removed(ax, rows, **kw):
    """A line of median time against the removed fraction (in %) through rows."""
    ax.plot([100 * r["removed"] for r in rows], [r["median_ms"] for r in rows], **kw)


def legend_right(*axes):
    """One legend right of the last of the axes, each label once across all of them."""
    handles, labels = [], []
    for ax in axes:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    if handles:
        axes[-1].legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                        fontsize=8, frameon=False)


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
    xlabel = "n (elements, 4 bytes each, 50 % removed at random)"
    frame(a1, xlabel, "median time (ms)", "Time against n", which="both")
    frame(a2, xlabel, "GB/s = (n*4 + n + kept*4 bytes) / time", "Bandwidth against n",
          which="both")
    for ax in (a1, a2):
        ax.set_xscale("log", base=2)
    a1.set_yscale("log")
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
        by_removed(ax, rows, label=a, ms=4, **style(a))
    for b in (b for b in baselines if b not in algos):  # a baseline drawn once
        rows = sorted(d.find(sweep="density", algorithm=b, pattern="random"),
                      key=lambda r: r["removed"])
        if rows:
            by_removed(ax, rows, label=b, ms=3, **style(b))


def plot_density(d, out):
    tiles = d.values("tile", sweep="density", algorithm="horn")
    if not tiles:
        return None
    n = d.values("n", sweep="density")
    fig, axes = plt.subplots(1, len(tiles), figsize=(5 * len(tiles) + 1.5, 4.6), sharey=True)
    axes = axes if len(tiles) > 1 else [axes]
    for ax, t in zip(axes, tiles):
        density_lines(d, ax, MOREIRA, t, ["cub", "copy"])
        frame(ax, "removed (invalid) elements, %", None, "tile (block) %d" % t)
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
    frame(ax, "removed elements, % (tile 256 where the algorithm has one)", "median time (ms)",
          "Every flag-stencil algorithm against the removed fraction", which="both")
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
    frame(ax, "removed elements, %", "Horn time / Jumping Jack time (> 1: JJ faster)",
          "Jumping Jack against Horn (JJ paper Fig. 11-13); dotted: measured crossover")
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
            recs.append(d.one(**density_at(a, f, tile=256)) or d.one(**density_at(a, f)))
        stacked(ax, algos, recs)
        frame(ax, None, "time per phase (ms, median of 5 timed passes)",
              "%s removed (tile 256)" % pct(f), axis="y")
    legend_right(*axes)
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
            recs.append(d.one(**density_at(a, f, order="random")) or d.one(**density_at(a, f)))
        stacked(ax, names, recs)
        lim = d.ms(sweep="density", algorithm="scatter-limit", order="random", removed=near(f))
        if lim:
            ax.axhline(lim, color="grey", ls="--", lw=1, label="scatter-limit")
        frame(ax, None, None, "k = %s of n" % pct(f), axis="y")
    axes[0].set_ylabel("time per phase (ms)")
    legend_right(*axes)
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
            if order == "slot":  # a marker of its own too, beside the dashes
                m = st["marker"]
                st["marker"] = MARKERS[(MARKERS.index(m) + 5) % 10] if m in MARKERS else "d"
            by_removed(ax, rows, ms=4, **st,
                       label="%s%s" % (a, " (%s list)" % order if "order" in kw else ""))
    ax.set_yscale("log")
    frame(ax, "removed elements k/n, %", "median time (ms)",
          "Redzone against thrust (solid: random-order lists, dashed: slot order)", which="both")
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
    frame(a1, "r: share of the removal list inside the red zone [n-k, n), %", "time (ms)",
          "Time against r (Redzone Fig. 6, left)", which="both")
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
    frame(ax, "tile (block) size",
          "Blelloch time / Hillis-Steele time\n(> 1: Hillis-Steele faster)",
          "Hillis-Steele against Blelloch tile scans (50 % removed)", which="both")
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
    for i, a in enumerate(algos):
        ys = []
        for p in pats:
            kw = dict(sweep="pattern", algorithm=a, pattern=p)
            rec = d.one(tile=256, **kw) or d.one(**kw)
            ys.append(rec["median_ms"] if rec else 0)
        bars(ax, i, len(algos), ys, label=a, color=style(a)["color"])
    labels = []
    for p in pats:
        r = d.one(sweep="pattern", pattern=p)
        labels.append("%s\n%s removed" % (p, pct(r["removed"]) if r else "?"))
    ax.set_xticks(range(len(pats)))
    ax.set_xticklabels(labels, fontsize=8)
    frame(ax, None, "median time (ms), tile 256",
          "Structure of the stream: runs, blobs and image masks (Moreira 2009 Table 1)", axis="y")
    legend_right(ax)
    return save(fig, out, "patterns.png")


def plot_spread(d, out, claim):
    dens, pats = claim.get("detail") or ({}, {})
    if not dens:
        return None
    tiles = sorted({t for a in dens for t in dens[a]})
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.5))
    for i, a in enumerate(MOREIRA):
        bars(a1, i, len(MOREIRA), [dens[a].get(t) or 0 for t in tiles], label=a,
             color=style(a)["color"])
        ptiles = sorted(pats.get(a, {}))
        bars(a2, i, len(MOREIRA), [pats[a].get(t) or 0 for t in ptiles], label=a,
             color=style(a)["color"])
        a2.set_xticks(range(len(ptiles)))
        a2.set_xticklabels(["tile %d" % t for t in ptiles])
    a1.set_xticks(range(len(tiles)))
    a1.set_xticklabels(["tile %d" % t for t in tiles])
    frame(a1, None, "coefficient of variation of time\nover removed fractions 0 < f < 1",
          "Data dependence: density", axis="y")
    frame(a2, None, "slowest / fastest pattern at 50 % removed\n(random, runs, blobs)",
          "Data dependence: structure", axis="y")
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
    frame(a1, "n (4-byte elements, 50 % removed)", "time ratio (> 1: Billeter faster)",
          "Billeter against Spataro over n", which="both")
    a1.legend(fontsize=8, frameon=False)
    fs = d.values("removed", sweep="vector-io", algorithm="billeter")
    for i, f in enumerate(fs):
        ys = []
        for e in elems:
            s = d.ms(sweep="vector-io", algorithm="spataro", elem_size=e, removed=near(f))
            b = d.ms(sweep="vector-io", algorithm="billeter", elem_size=e, removed=near(f))
            ys.append(s / b if s and b else 0)
        bars(a2, i, len(fs), ys, label="%s removed" % pct(f))
    a2.axhline(1.0, color="black", lw=1)
    a2.set_xticks(range(len(elems)))
    a2.set_xticklabels(["%d B" % e for e in elems])
    frame(a2, "element size", "spataro time / billeter time",
          "Billeter against Spataro by element size", axis="y")
    legend_right(a2)
    return save(fig, out, "billeter_vs_spataro.png")



def make_plots(d, out, by):
    """Every plot into out, in the README's order; by: the claims by function name. The
    names of the PNGs written."""
    if plt is None:
        return []
    makers = [
        lambda: plot_size(d, out), lambda: plot_density(d, out),
        lambda: plot_jj(d, out, by["claim_jj"]), lambda: plot_density_all(d, out),
        lambda: plot_phases(d, out), lambda: plot_phases_redzone(d, out),
        lambda: plot_redzone_thrust(d, out, by["claim_redzone"]),
        lambda: plot_redzone_r(d, out), lambda: plot_scan(d, out, by["claim_scan"]),
        lambda: plot_patterns(d, out), lambda: plot_spread(d, out, by["claim_rlz"]),
        lambda: plot_vector_io(d, out)]
    plots = []
    for make in makers:
        name = make()
        if name:
            plots.append(name)
    return plots


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
