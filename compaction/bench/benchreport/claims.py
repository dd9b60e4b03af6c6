"""benchreport.claims: the papers' claims, each a function of the measurements.

A claim function takes a Data and returns a dict: claim (the sentence from the paper),
paper (where it says so), measured (what this run shows), vs (the reference record against
CUB and the copy), verdict (yes / partly / no / not measured, by the rule that THRESHOLDS
states with the constants below) and, for some, detail (what its plot draws).
"""
import math
import statistics

from .data import (ALL_STABLE, MOREIRA, MOREIRA_STABLE, density_at, fmt_n, interior, near,
                   nearest, pct)

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
            h = d.ms(**density_at("horn", f, tile=t))
            j = d.ms(**density_at("jumping-jack", f, tile=t))
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
    ref = d.one(**density_at("jumping-jack", 0.5, tile=256))
    return dict(claim="Jumping Jack is faster than Horn below ~70-78 % removed",
                paper="JJ paper Fig. 11-13; Moreira 2009 Fig. 8-10",
                measured="; ".join(cells) or "-",
                vs="JJ t256 50 %%: %s" % vs_ref(d, ref),
                verdict=combine(verdicts),
                detail=per_tile)


def claim_bt(d):
    tiles = d.values("tile", sweep="density", algorithm="binary-tree", pattern="random")
    fs = [f for f in interior(d.values("removed", sweep="density", algorithm="binary-tree"))
          if f >= SPARSE]
    wins = total = 0
    for t in tiles:
        for f in fs:
            times = {a: d.ms(**density_at(a, f, tile=t)) for a in MOREIRA_STABLE}
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
            rows = d.find(**density_at(a, f))
            if rows:
                cands[a] = min(r["median_ms"] for r in rows)
        if cands:
            w = min(cands, key=cands.get)
            best = "fastest stable of all at %s removed: %s (%.3f ms; binary-tree %s)" % (
                pct(f), w, cands[w], "%.3f ms" % cands["binary-tree"]
                if "binary-tree" in cands else "-")
    v = grade(share, (WIN_YES, math.inf), (WIN_PARTLY, math.inf))
    ref = d.one(**density_at("binary-tree", max(fs) if fs else 0.9, tile=256))
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
    dens = {a: {t: cv([d.ms(**density_at(a, f, tile=t)) for f in fs]) for t in tiles}
            for a in MOREIRA}
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
    ref = d.one(**density_at("rlz", 0.5, tile=256))
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
    v = grade(share, (SCAN_YES, math.inf), (SCAN_PARTLY, math.inf))
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
    base_order = {} if base == "thrust-remove-if" else dict(order=order)  # a stencil: no order
    out = {}
    for f in fs:
        r = d.ms(**density_at(algo, f, order=order))
        b = d.ms(**density_at(base, f, **base_order))
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
    v2 = grade(s2, (RZ_2[0], math.inf), (RZ_2[1], math.inf))
    v = combine([v2, grade(s50, *RZ_50), grade(s90, *RZ_90)])
    stencil = redzone_curve(d, "random", base="thrust-remove-if")
    t2, _ = at(stencil, 0.02)
    t50, _ = at(stencil, 0.5)
    t90, _ = at(stencil, 0.9)
    sx = lambda x: "%.2fx" % x if x is not None else "-"
    measured = ("thrust-remove-list / redzone: %s at %s, %s at 50 %%, %s at 90 %% (against "
                "thrust-remove-if on a ready stencil: %s, %s, %s)"
                % (sx(s2), pct(f2) if f2 else "2 %", sx(s50), sx(s90), sx(t2), sx(t50), sx(t90)))
    ref = d.one(**density_at("redzone", 0.5, order="random"))
    return dict(claim="Redzone is ~10x faster than thrust::remove at 2 % removed, on par at "
                      "50 %, slightly slower at 90 %",
                paper="Redzone Fig. 4", measured=measured,
                vs="redzone 50 %%: %s" % vs_ref(d, ref), verdict=v, detail=curve)


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
        shares[f] = phase_share(d.one(**density_at("redzone", f, order="random")), "mark")
    high = max(fs) if fs and max(fs) >= 0.75 else None
    s90 = shares.get(high)
    rec90 = d.one(**density_at("redzone", high, order="random")) if high else None
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
    if any(v is not None for v in block.values()):
        xb = crossover(sorted(block), block)
        cells.append("redzone-block, random list: %s" % (
            "never" if xb is None else "none" if xb == 0 else pct(xb)))
    return dict(claim="Break-even removed fraction of Redzone against thrust::remove (random "
                      "and slot-ordered removal lists)",
                paper="Redzone Fig. 4 (on par at 50 %)",
                measured="; ".join(cells) or "-", vs="-",
                verdict=combine(verdicts))


def claim_r(d):
    ks = d.values("removed", sweep="redzone-r", algorithm="redzone")
    verdicts, cells = [], []
    for k in ks:
        pts = []
        for rec in d.find(sweep="redzone-r", algorithm="redzone", removed=near(k)):
            mark = sum(p["ms"] for p in rec.get("phases", []) if p["name"] == "mark")
            pts.append((rec["red_share"], mark, rec["median_ms"]))
        pts.sort()
        if len(pts) < 2:
            continue
        marks = [p[1] for p in pts]
        grows = marks[-1] > marks[0] and all(b >= a * (1 - GROWS) for a, b in zip(marks,
                                                                                  marks[1:]))
        verdicts.append("yes" if grows else "no")
        cells.append("k = %s: mark %.3f -> %.3f ms, total %.3f -> %.3f ms for r %s -> %s" % (
            pct(k), pts[0][1], pts[-1][1], pts[0][2], pts[-1][2], pct(pts[0][0]),
            pct(pts[-1][0])))
    return dict(claim="Phase 1 time grows with the red-zone share r of the removal list "
                      "(and with k)",
                paper="Redzone §5.2, Fig. 6", measured="; ".join(cells) or "-", vs="-",
                verdict=combine(verdicts))


BILLETER = "Billeter (warp sequences + vector IO) beats Spataro by a constant factor (~1.5x)"


def claim_billeter(d):
    ns = d.values("n", sweep="size", algorithm="billeter")
    if not ns:
        return dict(claim=BILLETER, paper="blog part 1.1 and 2-4", measured="-", vs="-",
                    verdict="not measured")
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
    return dict(claim=BILLETER,
                paper="blog part 1.1 (1.5x over Orange Owls' Spataro), parts 2-4",
                measured=measured,
                vs="billeter %s: %s; spataro: %s" % (fmt_n(max(ns)), vs_ref(d, ref),
                                                     vs_ref(d, refs)),
                verdict=v)


CLAIMS = [claim_jj, claim_bt, claim_rlz, claim_scan, claim_redzone, claim_phase1,
          claim_breakeven, claim_r, claim_billeter]



def evaluate(d):
    """Every claim of CLAIMS on d, in order; and the same by function name."""
    claims = [fn(d) for fn in CLAIMS]
    return claims, {fn.__name__: c for fn, c in zip(CLAIMS, claims)}


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
