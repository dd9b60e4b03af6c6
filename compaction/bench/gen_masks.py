#!/usr/bin/env python3
"""gen_masks.py: the image masks of `compact bench --pattern mask:FILE.png`.

Three 512x512 one-bit PNGs in the spirit of Moreira et al. 2009's finger/hand/bunny data set
(Fig. 11, Table 1): white = valid (kept), black = removed.

  hand.png    a hand silhouette: large coherent regions, one long boundary
  bunny.png   a bunny-like blob shape with ears, tail and an eye hole
  sphere.png  a sphere lit from the upper left, Lambert shading ordered-dithered (Bayer 8x8):
              the density of kept elements falls from ~100 % to 0 across the disc, so the
              stream mixes dense, sparse and fine-grained regions

Usage: gen_masks.py [OUT_DIR]   (default: the library's assets/masks, compaction/assets/masks)
Standard library only, deterministic: the same files every time.
"""
import math
import os
import struct
import sys
import zlib

SIZE = 512


def png_1bit(path, rows):
    """Write rows (lists of 0/1, 1 = white) as a one-bit grey-scale PNG."""
    width, height = len(rows[0]), len(rows)
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter: none
        for x in range(0, width, 8):
            byte = 0
            for b in range(8):
                if x + b < width and row[x + b]:
                    byte |= 0x80 >> b
            raw.append(byte)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", header))
        f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
        f.write(chunk(b"IEND", b""))


# ---- signed distances (negative inside), coordinates in [0, 1], y down ----

def capsule(px, py, ax, ay, bx, by, r):
    dx, dy, ex, ey = px - ax, py - ay, bx - ax, by - ay
    t = max(0.0, min(1.0, (dx * ex + dy * ey) / (ex * ex + ey * ey)))
    return math.hypot(dx - ex * t, dy - ey * t) - r


def rounded_box(px, py, cx, cy, hx, hy, r):
    qx, qy = abs(px - cx) - hx + r, abs(py - cy) - hy + r
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def ellipse(px, py, cx, cy, rx, ry, angle_deg=0.0):
    a = math.radians(angle_deg)
    dx, dy = px - cx, py - cy
    u = dx * math.cos(a) + dy * math.sin(a)
    v = -dx * math.sin(a) + dy * math.cos(a)
    return (math.hypot(u / rx, v / ry) - 1.0) * min(rx, ry)


def circle(px, py, cx, cy, r):
    return math.hypot(px - cx, py - cy) - r


def hand(px, py):
    d = rounded_box(px, py, 0.50, 0.62, 0.17, 0.15, 0.06)
    fingers = [(0.37, 0.13, 0.043), (0.46, 0.07, 0.047), (0.55, 0.09, 0.045), (0.64, 0.18, 0.040)]
    for i, (tx, ty, r) in enumerate(fingers):
        bx = 0.37 + 0.09 * i
        d = min(d, capsule(px, py, bx, 0.50, tx + (i - 1.5) * 0.02, ty, r))
    d = min(d, capsule(px, py, 0.36, 0.68, 0.19, 0.47, 0.050))  # thumb
    d = min(d, rounded_box(px, py, 0.51, 0.90, 0.12, 0.14, 0.03))  # wrist
    return d < 0


def bunny(px, py):
    d = ellipse(px, py, 0.56, 0.68, 0.28, 0.19)  # body
    d = min(d, circle(px, py, 0.30, 0.52, 0.13))  # head
    d = min(d, ellipse(px, py, 0.24, 0.26, 0.05, 0.17, -12.0))  # ears
    d = min(d, ellipse(px, py, 0.35, 0.25, 0.05, 0.17, 14.0))
    d = min(d, circle(px, py, 0.85, 0.60, 0.06))  # tail
    d = min(d, ellipse(px, py, 0.45, 0.86, 0.13, 0.04))  # feet
    d = max(d, -circle(px, py, 0.25, 0.49, 0.018))  # eye
    return d < 0


BAYER2 = [[0, 2], [3, 1]]


def bayer(n):
    """The n x n Bayer matrix (n a power of two), values 0 .. n*n-1."""
    if n == 2:
        return BAYER2
    half = bayer(n // 2)
    return [[4 * half[y % (n // 2)][x % (n // 2)] + BAYER2[y // (n // 2)][x // (n // 2)]
             for x in range(n)] for y in range(n)]


BAYER8 = bayer(8)
LIGHT = (-0.75, -0.45, 0.50)
LN = math.sqrt(sum(c * c for c in LIGHT))
LIGHT = tuple(c / LN for c in LIGHT)


def sphere(px, py, x, y):
    dx, dy = (px - 0.5) / 0.42, (py - 0.5) / 0.42
    d2 = dx * dx + dy * dy
    if d2 >= 1.0:
        return False
    nz = math.sqrt(1.0 - d2)
    lambert = max(0.0, dx * LIGHT[0] + dy * LIGHT[1] + nz * LIGHT[2])
    return lambert > (BAYER8[y % 8][x % 8] + 0.5) / 64.0


def render(shape):
    rows = []
    for y in range(SIZE):
        py = (y + 0.5) / SIZE
        if shape is sphere:
            rows.append([1 if sphere((x + 0.5) / SIZE, py, x, y) else 0 for x in range(SIZE)])
        else:
            rows.append([1 if shape((x + 0.5) / SIZE, py) else 0 for x in range(SIZE)])
    return rows


def main():
    lib = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(lib, "assets", "masks")
    os.makedirs(out, exist_ok=True)
    for name, shape in (("hand", hand), ("bunny", bunny), ("sphere", sphere)):
        rows = render(shape)
        path = os.path.join(out, name + ".png")
        png_1bit(path, rows)
        white = sum(map(sum, rows)) / float(SIZE * SIZE)
        print("%s: %d bytes, %.1f %% white (kept)" % (path, os.path.getsize(path), 100 * white))


if __name__ == "__main__":
    main()
