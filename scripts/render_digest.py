#!/usr/bin/env python3
"""render_digest.py FILE.json...: one line per scene and mode from `raycompact bench --json`
files: `none`, the fastest fixed algorithm, `auto` (frames/s) and auto's share of the best; and
the compaction time per frame of auto against single-pass. Every run of a file must have the
same image hash (printed as a check)."""
import json
import sys


def main():
    print("%-34s %-8s %8s %-22s %8s %8s %7s %12s %5s" % (
        "file", "mode", "none fps", "best fixed", "fps", "auto fps", "auto/b",
        "cmp ms a/sp", "image"))
    for path in sys.argv[1:]:
        try:
            d = json.load(open(path))
        except (OSError, ValueError) as e:
            print(f"{path}: {e}")
            continue
        name = path.rsplit("/", 1)[-1].replace(".json", "")
        hashes = {r["image_hash"] for r in d["runs"]}
        for mode in sorted({r["mode"] for r in d["runs"]}):
            runs = [r for r in d["runs"] if r["mode"] == mode and r["frame_loop"] == "graph"]
            if not runs:
                runs = [r for r in d["runs"] if r["mode"] == mode]
            none = [r for r in runs if r["algorithm"] == "none"]
            auto = [r for r in runs if r["algorithm"] == "auto"]
            fixed = [r for r in runs if r["algorithm"] not in ("none", "auto")]
            best = max(fixed, key=lambda r: r["frames_per_s"]) if fixed else None
            sp = [r for r in runs if r["algorithm"] == "single-pass"]
            cmp = "-"
            if auto and sp and sp[0]["compact_ms"] > 0:
                cmp = "%.3f/%.3f" % (auto[0]["compact_ms"], sp[0]["compact_ms"])
            print("%-34s %-8s %8s %-22s %8s %8s %7s %12s %5s" % (
                name[:34], mode,
                "%.1f" % none[0]["frames_per_s"] if none else "-",
                best["algorithm"] if best else "-",
                "%.1f" % best["frames_per_s"] if best else "-",
                "%.1f" % auto[0]["frames_per_s"] if auto else "-",
                "%.3f" % (auto[0]["frames_per_s"] / best["frames_per_s"]) if auto and best else "-",
                cmp, "same" if len(hashes) == 1 else "DIFF"))


if __name__ == "__main__":
    main()
