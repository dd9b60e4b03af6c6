"""benchreport.readme: README.md of a report: the claims and their verdicts, the thresholds,
every algorithm against CUB and the copy, the plots and the sweeps that made the data."""
from .claims import THRESHOLDS
from .data import fmt_n, order_key
from .plots import PLOT_TEXT

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
             "below is computed by `compaction/bench/benchreport` from `bench.json` (also "
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
    L.append("Thresholds (constants at the top of `benchreport/claims.py`):")
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
