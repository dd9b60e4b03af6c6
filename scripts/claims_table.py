#!/usr/bin/env python3
"""claims_table.py DIR SCENE...: the per-phase table of docs/claims.md from the bench JSON files
DIR/SCENE.json that scripts/claims.sh writes: per scene, the `auto` run's ms a frame (the
frame, then extend, shade, shadow, compaction, generate + tail + accumulate), the persistent
megakernel's ms for the same samples and the wavefront's speed-up over it ("-" without one),
where the shadow rays were traced, and the stream bytes a live path and bounce of extend, of
shade + shadow and in all (the layout model of docs/bench.md, "Stream traffic"). Markdown on
stdout; exits 1 with a line when a file is missing or holds no `auto` run."""
import json
import os
import sys


def row(d, scene):
    path = os.path.join(d, scene + ".json")
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("claims_table.py: %s: %s" % (path, e))
    runs = [r for r in doc.get("runs", []) if r.get("algorithm") == "auto" and "frame_ms" in r]
    if not runs:
        sys.exit("claims_table.py: %s: no timed auto run" % path)
    r = runs[0]
    ms = lambda k: r.get(k) or 0.0
    mk = {m["kind"]: m["ms"] / doc["frames"] for m in doc.get("megakernels", []) if "ms" in m}
    pers = mk.get("persistent")
    b = r.get("stream_bytes_per_live_path", {})
    cells = [scene, "%dx%d, %d spp" % (doc["width"], doc["height"], doc["samples_per_frame"]),
             "%.2f" % r["frame_ms"], "%.2f" % ms("extend_ms"), "%.2f" % ms("shade_ms"),
             "%.2f" % ms("shadow_ms"), "%.2f" % ms("compact_ms"),
             "%.2f" % (ms("generate_ms") + ms("tail_ms") + ms("accumulate_ms")),
             "%.2f" % pers if pers else "-",
             "%.2fx" % (pers / r["frame_ms"]) if pers and r["frame_ms"] > 0 else "-",
             doc.get("shadow_rays", "-"),
             "%.0f" % b.get("extend", 0.0), "%.0f" % (b.get("shade", 0.0) + b.get("shadow", 0.0)),
             "%.0f" % b.get("total", 0.0)]
    return cells, doc


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: claims_table.py DIR SCENE...")
    d = sys.argv[1]
    rows = [row(d, s) for s in sys.argv[2:]]
    head = ["scene", "image", "frame", "extend", "shade", "shadow", "compact",
            "generate, tail, accumulate", "persistent", "x persistent", "shadow rays", "extend B",
            "shade + shadow B", "all B"]
    doc = rows[0][1]
    print("`auto`, indices, %s backend, %s frames: ms a frame per phase; the persistent megakernel's"
          " ms for the same samples; stream bytes a live path and bounce (the layout model)\n"
          % (doc["backend"], doc["frames"]))
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for cells, _ in rows:
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
