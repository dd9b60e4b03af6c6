#!/usr/bin/env python3
"""plot_megakernels.py DIR [OUT.png]: frame time against samples per frame, one panel per scene,
for `none`, the faster of single-pass and auto, and the bvh and persistent megakernels, from the
bench JSON files DIR/SCENE_SPW.json that `scripts/gpu.sh megakernels` writes. Prints the table
(ms a frame; the wavefront's best over the faster megakernel) and writes the plot (default
DIR/frame_time_vs_spp.png; DIR/gpu.txt, when there, names the GPU in its title)."""
import glob
import json
import os
import re
import sys


def load(d):
    rows = {}
    for path in sorted(glob.glob(os.path.join(d, "*.json"))):
        m = re.match(r"(.+)_([0-9]+|auto)\.json$", os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            doc = json.load(f)
        runs = {r["algorithm"]: r for r in doc["runs"] if "frame_ms" in r}
        mk = {m["kind"]: m["ms"] / doc["frames"] for m in doc["megakernels"]}
        best = min(runs[a]["frame_ms"] for a in ("single-pass", "auto") if a in runs)
        rows.setdefault(m.group(1), []).append(dict(
            spw=doc["samples_per_wave"], none=runs["none"]["frame_ms"], best=best,
            bvh=mk.get("bvh"), persistent=mk.get("persistent")))
    for r in rows.values():
        r.sort(key=lambda x: x["spw"])
    return rows


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    d = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(d, "frame_time_vs_spp.png")
    rows = load(d)
    if not rows:
        print("plot_megakernels.py: no bench JSON in %s" % d, file=sys.stderr)
        return 2
    print("%-12s %5s %9s %9s %9s %10s %8s" % ("scene", "spp", "none", "best", "bvh",
                                             "persistent", "best/mk"))
    for scene, rs in sorted(rows.items()):
        for r in rs:
            mk = min(r["bvh"], r["persistent"])
            print("%-12s %5d %9.3f %9.3f %9.3f %10.3f %7.2fx" % (
                scene, r["spw"], r["none"], r["best"], r["bvh"], r["persistent"], mk / r["best"]))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_megakernels.py: no matplotlib: table only", file=sys.stderr)
        return 0
    series = [("none", "none (no compaction)", "#555555", "x", "--"),
              ("best", "wavefront, faster of single-pass and auto", "#1f77b4", "o", "-"),
              ("bvh", "megakernel bvh (a thread per pixel)", "#ff7f0e", "s", "-."),
              ("persistent", "megakernel persistent", "#d62728", "D", ":")]
    fig, axes = plt.subplots(1, len(rows), figsize=(4 * len(rows), 4), squeeze=False)
    for ax, (scene, rs) in zip(axes[0], sorted(rows.items())):
        for key, label, color, marker, ls in series:
            ax.plot([r["spw"] for r in rs], [r[key] for r in rs], label=label, color=color,
                    marker=marker, linestyle=ls, ms=4)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(scene)
        ax.set_xlabel("samples per pixel in a frame")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("ms a frame")
    axes[0][-1].legend(fontsize=7, loc="upper left")
    gpu = ""
    if os.path.exists(os.path.join(d, "gpu.txt")):  # nvidia-smi's name, written by the suite
        with open(os.path.join(d, "gpu.txt")) as f:
            gpu = f.readline().strip()
    fig.suptitle("Frame time against samples per frame%s" % (" (%s)" % gpu if gpu else ""))
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
