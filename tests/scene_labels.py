#!/usr/bin/env python3
"""A shipped scene's walls are where their comments say: for every quad whose comment names
the "left wall" or "right wall", render the scene small on the CPU and check that the image's
outer columns on that side take the colour of the quad's material (its albedo's largest
channel is the largest there too).

Usage: scene_labels.py RAYCOMPACT SCENE_DIR"""
import glob
import json
import os
import struct
import subprocess
import sys
import tempfile

SIZE = 32  # pixels a side
COLS = 3   # outer columns looked at on each side


def read_pfm(path):
    with open(path, "rb") as f:
        assert f.readline().strip() == b"PF", "not a colour PFM"
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        fmt = ("<" if scale < 0 else ">") + "%df" % (3 * w * h)
        data = struct.unpack(fmt, f.read(12 * w * h))
    return w, h, data


def side_mean(w, h, data, left):
    cols = range(COLS) if left else range(w - COLS, w)
    sums = [0.0, 0.0, 0.0]
    for y in range(h):
        for x in cols:
            for c in range(3):
                sums[c] += data[3 * (y * w + x) + c]
    return sums


def main():
    exe, scene_dir = sys.argv[1], sys.argv[2]
    checked = failed = 0
    for path in sorted(glob.glob(os.path.join(scene_dir, "*.json"))):
        with open(path) as f:
            scene = json.load(f)
        albedo = {m["name"]: m.get("albedo") for m in scene.get("materials", [])}
        walls = []
        for prim in scene.get("quads", []) + scene.get("primitives", []):
            note = prim.get("comment", "")
            for side in ("left", "right"):
                if side + " wall" in note and albedo.get(prim.get("material")):
                    walls.append((side, prim["material"], albedo[prim["material"]]))
        if not walls:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "img.pfm")
            subprocess.run([exe, "render", "--scene", path, "--width", str(SIZE), "--height",
                            str(SIZE), "--spp", "8", "--backend", "cpu", "--out", out],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            w, h, data = read_pfm(out)
        for side, material, a in walls:
            mean = side_mean(w, h, data, side == "left")
            want = max(range(3), key=lambda c: a[c])
            got = max(range(3), key=lambda c: mean[c])
            checked += 1
            ok = want == got
            failed += not ok
            print("%s: %s wall is %s: image's %s columns %s (channel %d largest, want %d)" %
                  (os.path.basename(path), side, material, side,
                   "agree" if ok else "DISAGREE", got, want))
    print("%d passed, %d failed" % (checked - failed, failed))
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
