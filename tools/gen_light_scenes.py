#!/usr/bin/env python3
"""Write the two light-sampling scenes (scenes/FORMAT.md, "Shipped scenes"):

  veach_mis.json    Veach's multiple importance sampling test (Veach 1997, fig. 9.2): four
                    metal plates of increasing fuzz, each tilted so that it mirrors the row of
                    lights into the camera, lit by four spheres of increasing size and equal
                    power (radiance times radius squared held constant).
  many_lights.json  100 small sphere lights over a floor, their power spread over two orders
                    of magnitude (a fixed pseudo-random draw), with a few diffuse and metal
                    spheres: choosing a light by power puts the samples where the light is.

Run from the repository root: python3 tools/gen_light_scenes.py
"""
import json
import math
import random


def norm(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v]


def sub(a, b):
    return [x - y for x, y in zip(a, b)]


def add(a, b):
    return [x + y for x, y in zip(a, b)]


def scale(a, s):
    return [x * s for x in a]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def r4(v):
    return [round(c, 4) for c in v]


def dump(path, scene):
    with open(path, "w") as f:
        f.write("{\n")
        items = list(scene.items())
        for i, (k, v) in enumerate(items):
            sep = "," if i + 1 < len(items) else ""
            if isinstance(v, list):
                f.write('  "%s": [\n' % k)
                for j, e in enumerate(v):
                    f.write("    " + json.dumps(e) + ("," if j + 1 < len(v) else "") + "\n")
                f.write("  ]%s\n" % sep)
            else:
                f.write('  "%s": %s%s\n' % (k, json.dumps(v), sep))
        f.write("}\n")


def veach():
    cam = [0.0, 2.0, 15.0]
    light_y, light_z = 3.5, -2.5
    radii = [0.03, 0.1, 0.3, 0.9]
    xs = [-3.75, -1.25, 1.25, 3.75]
    tints = [[1.0, 0.85, 0.7], [0.85, 1.0, 0.75], [0.75, 0.9, 1.0], [1.0, 0.8, 1.0]]
    power = 0.9 * 0.9 * 1.5  # radiance x radius^2 of every light
    mats = [
        {"name": "wall", "type": "lambertian", "albedo": [0.35, 0.35, 0.35]},
    ]
    spheres = []
    for i, (r, x, t) in enumerate(zip(radii, xs, tints)):
        le = power / (r * r)
        mats.append({"name": "light%d" % i, "type": "emissive",
                     "emission": [round(le * c, 3) for c in t]})
        spheres.append({"comment": "light %d: radius %g, radiance %.4g" % (i, r, le),
                        "center": [x, light_y, light_z], "radius": r, "material": "light%d" % i})
    quads = []
    fuzz = [0.01, 0.04, 0.12, 0.3]
    plate_z = [0.5, 2.3, 4.1, 5.9]
    plate_y = [0.3, -0.45, -1.2, -1.95]
    for i, (fz, z, y) in enumerate(zip(fuzz, plate_z, plate_y)):
        mats.append({"name": "plate%d" % i, "type": "metal", "albedo": [0.8, 0.8, 0.8],
                     "fuzz": fz})
        p = [0.0, y, z]
        # the normal halves the angle between the camera and the middle of the lights' row
        n = norm(add(norm(sub(cam, p)), norm(sub([0.0, light_y, light_z], p))))
        u = [8.0, 0.0, 0.0]
        v = scale(norm(cross(n, [1.0, 0.0, 0.0])), 1.6)
        corner = sub(sub(p, scale(u, 0.5)), scale(v, 0.5))
        quads.append({"comment": "plate %d: fuzz %g" % (i, fz), "corner": r4(corner),
                      "u": r4(u), "v": r4(v), "material": "plate%d" % i})
    quads.append({"comment": "floor", "corner": [-20, -3, -8], "u": [40, 0, 0],
                  "v": [0, 0, 30], "material": "wall"})
    quads.append({"comment": "back wall", "corner": [-20, -3, -8], "u": [40, 0, 0],
                  "v": [0, 20, 0], "material": "wall"})
    return {
        "comment": "Veach's MIS scene (tools/gen_light_scenes.py): four metal plates of "
                   "increasing fuzz (back to front: 0.01, 0.04, 0.12, 0.3) mirror four sphere "
                   "lights of increasing radius and equal power. Light samples win on the rough "
                   "plates and the large lights, material samples on the shiny plates and the "
                   "small lights; MIS keeps the best of both. Compare --light-sampling bsdf.",
        "render": {"width": 512, "height": 320, "spp": 64, "max_depth": 8},
        "camera": {"look_from": cam, "look_at": [0, -0.2, 2.0], "vfov": 36},
        "background": {"type": "constant", "color": [0, 0, 0]},
        "materials": mats,
        "spheres": spheres,
        "quads": quads,
    }


def many_lights():
    rnd = random.Random(15)
    mats = [
        {"name": "floor", "type": "lambertian", "albedo": [0.5, 0.5, 0.5]},
        {"name": "clay", "type": "lambertian", "albedo": [0.7, 0.35, 0.25]},
        {"name": "steel", "type": "metal", "albedo": [0.8, 0.8, 0.85], "fuzz": 0.2},
    ]
    palette = [[1.0, 0.6, 0.3], [0.4, 0.7, 1.0], [1.0, 0.95, 0.85], [0.6, 1.0, 0.5],
               [1.0, 0.45, 0.7]]
    spheres = []
    for j in range(10):
        for i in range(10):
            k = j * 10 + i
            c = palette[rnd.randrange(len(palette))]
            le = 0.8 * 10.0 ** (2.0 * rnd.random())  # 0.8 .. 80
            mats.append({"name": "l%d" % k, "type": "emissive",
                         "emission": [round(le * x, 3) for x in c]})
            x = -4.5 + i + rnd.uniform(-0.25, 0.25)
            z = -4.5 + j + rnd.uniform(-0.25, 0.25)
            spheres.append({"center": [round(x, 3), 0.35, round(z, 3)], "radius": 0.1,
                            "material": "l%d" % k})
    spheres.append({"center": [-1.2, 1.0, 0.3], "radius": 1.0, "material": "clay"})
    spheres.append({"center": [1.4, 1.0, -0.8], "radius": 1.0, "material": "steel"})
    return {
        "comment": "100 small sphere lights of powers spread over two orders of magnitude "
                   "(tools/gen_light_scenes.py) over a floor, with a clay and a steel sphere: "
                   "NEE chooses a light by power, so the bright ones get the samples.",
        "render": {"width": 480, "height": 320, "spp": 64, "max_depth": 8},
        "camera": {"look_from": [0, 6.5, 9], "look_at": [0, 0.5, 0], "vfov": 45},
        "background": {"type": "constant", "color": [0, 0, 0]},
        "materials": mats,
        "spheres": spheres,
        "quads": [{"corner": [-30, 0, -30], "u": [60, 0, 0], "v": [0, 0, 60],
                   "material": "floor"}],
    }


dump("scenes/veach_mis.json", veach())
dump("scenes/many_lights.json", many_lights())
