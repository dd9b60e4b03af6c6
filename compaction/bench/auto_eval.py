#!/usr/bin/env python3
"""auto_eval.py: how close `auto` comes to the best fixed algorithm, point by point.

    compact tune --out table.json --json fixed.json [grid]   # every fixed algorithm
    SC_POLICY=table.json compact bench --algos auto [same grid] --json auto.json
    python3 compaction/bench/auto_eval.py fixed.json auto.json [--tolerance 0.05]

Per grid point (n, element size, removed fraction, pattern): `auto` (flags only) against the
fastest flag algorithm measured there, and `auto-list` (offered the removal list too) against
the fastest of every algorithm, flag or list. Prints the share of points within the tolerance,
the worst ratio, and the worst points; and auto's choice priced with the fixed run's own time
of that configuration (no run-to-run noise between two processes). Exit status 0 (a report, not a test), 2 on bad input.
"""
import argparse
import json
import sys


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data["records"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"auto_eval: {path}: {e}", file=sys.stderr)
        sys.exit(2)


def key(r):
    return (r["n"], r["elem_size"], r["removed"], r.get("pattern") or "random")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fixed", help="JSON with the fixed algorithms (compact tune --json)")
    ap.add_argument("auto", help="JSON with auto and auto-list (compact bench --algos auto)")
    ap.add_argument("--tolerance", type=float, default=0.05, help="default 0.05 (5 %%)")
    ap.add_argument("--worst", type=int, default=8, help="worst points listed (default 8)")
    a = ap.parse_args()
    # per point, the fastest flag algorithm (auto's rival) and the fastest of all (auto-list's):
    # a removal-list algorithm's record names its list's order, a flag algorithm's is null; and
    # every configuration's time, to price auto's choice in the run of the best
    best, timed = {"auto": {}, "auto-list": {}}, {}
    for r in load(a.fixed):
        if r.get("kind") == "baseline" or r.get("check") != "ok":
            continue
        k, t = key(r), r["median_ms"]
        timed[(k, r["algorithm"], r.get("tile") or None, r.get("scan") or None)] = t
        if r["algorithm"] in best:
            continue
        for name in ("auto", "auto-list") if r.get("order") is None else ("auto-list",):
            if k not in best[name] or t < best[name][k][0]:
                best[name][k] = (t, r["algorithm"], r.get("tile"))
    rows = []
    priced = {"auto": [0, 0], "auto-list": [0, 0]}
    for r in load(a.auto):
        name = r["algorithm"]
        b = best[name].get(key(r)) if name in best and r.get("check") == "ok" else None
        if not b:
            continue
        rows.append((r["median_ms"] / b[0], name, key(r), r["median_ms"], b, r.get("choice")))
        parts = (r.get("choice") or "").split()
        tile = next((int(p[1:]) for p in parts[1:] if p[:1] == "t" and p[1:].isdigit()), None)
        cands = [t for (k, al, ti, _), t in timed.items()
                 if parts and k == key(r) and al == parts[0] and tile in (None, ti)]
        if cands:
            priced[name][1] += 1
            priced[name][0] += min(cands) <= b[0] * (1.0 + a.tolerance)
    if not rows:
        print("auto_eval: no grid point holds both auto and a fixed algorithm", file=sys.stderr)
        return 2
    for name in ("auto", "auto-list"):
        sel = [x for x in rows if x[1] == name]
        if not sel:
            continue
        within = sum(1 for x in sel if x[0] <= 1.0 + a.tolerance)
        worst = max(x[0] for x in sel)
        print(f"{name}: {within} of {len(sel)} points within {a.tolerance:.0%} of the best "
              f"({100.0 * within / len(sel):.1f} %), worst {worst:.2f}x the best")
    for name, (good, total) in priced.items():
        if total:
            print(f"{name}, its choice priced in the fixed run: {good} of {total} points within "
                  f"{a.tolerance:.0%} of the best ({100.0 * good / total:.1f} %; where the fixed "
                  f"run is the tune that wrote the table, its own grid points check the table, "
                  f"not points it has not seen)")
    print(f"worst points (ratio, call, n, elem, removed, pattern: auto ms [choice] vs best):")
    for ratio, name, k, ms, best, choice in sorted(rows, reverse=True)[: a.worst]:
        print(f"  {ratio:5.2f}x {name:9s} n={k[0]} elem={k[1]} removed={k[2]} {k[3]}: "
              f"{ms:.4f} ms [{choice or '?'}] vs {best[1]}"
              f"{' t' + str(best[2]) if best[2] else ''} {best[0]:.4f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
