#!/usr/bin/env python3
"""RMSE between two linear float images (PFM, as `raycompact render --out x.pfm` writes them),
over every channel of every pixel: python3 scripts/image_rmse.py [--clamp] A.pfm B.pfm
--clamp compares the values clamped to [0, 1], the range a PNG shows: the few pixels on the
edge of a bright light (radiance 15 in the Cornell box), whose value depends on where the
pixel's samples fell, then no longer outweigh the rest of the image."""
import math
import struct
import sys


def read_pfm(path):
    with open(path, "rb") as f:
        if f.readline().strip() != b"PF":
            sys.exit("%s: not a colour PFM" % path)
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        data = f.read(w * h * 12)
    if len(data) != w * h * 12:
        sys.exit("%s: truncated" % path)
    return w, h, struct.unpack(("<" if scale < 0 else ">") + "%df" % (w * h * 3), data)


def main():
    args = sys.argv[1:]
    clamp = args[:1] == ["--clamp"]
    if clamp:
        args = args[1:]
    if len(args) != 2:
        sys.exit("usage: image_rmse.py [--clamp] A.pfm B.pfm")
    wa, ha, a = read_pfm(args[0])
    wb, hb, b = read_pfm(args[1])
    if clamp:
        a = [min(max(x, 0.0), 1.0) for x in a]
        b = [min(max(x, 0.0), 1.0) for x in b]
    if (wa, ha) != (wb, hb):
        sys.exit("sizes differ: %dx%d and %dx%d" % (wa, ha, wb, hb))
    print("%.6f" % math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)))


main()
