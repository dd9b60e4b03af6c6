/* gen_instances: writes a scene file (scenes/FORMAT.md) of NX x NY x NZ instances of one mesh
 * file in a grid, each turned and scaled a little by a hash of its place, over a ground under
 * the sky: the two-level BVH at scale. With the knot of `gen_knot 10240 50 --glb knot.glb`
 * (1024000 triangles) the default grid of 10 x 10 x 10 holds 1.024e9 instanced triangles:
 *
 *   gen_knot 10240 50 --glb build/instances/knot.glb
 *   gen_instances --mesh knot.glb --out build/instances/instances.json
 *   raycompact render --scene build/instances/instances.json --out instances.png
 *
 * Neither file is committed (scripts/instances.sh writes both at first run). --spacing is the
 * distance between neighbours (default 8: the knot is about 6.6 wide). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double hash01(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return (double)(x >> 8) / 16777216.0;
}

static int usage(void) {
    fprintf(stderr, "usage: gen_instances --mesh FILE --out SCENE.json [--grid NX NY NZ] "
                    "[--spacing D]\n  (FILE relative to the scene's folder; default grid 10 10 10, "
                    "spacing 8)\n");
    return 2;
}

int main(int argc, char **argv) {
    const char *mesh = NULL, *out = NULL;
    long g[3] = {10, 10, 10};
    double spacing = 8.0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--mesh") == 0 && i + 1 < argc) {
            mesh = argv[++i];
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--spacing") == 0 && i + 1 < argc) {
            spacing = strtod(argv[++i], NULL);
            if (!(spacing > 0.0 && spacing < 1e6)) return usage();
        } else if (strcmp(argv[i], "--grid") == 0 && i + 3 < argc) {
            for (int k = 0; k < 3; k++) {
                char *end;
                g[k] = strtol(argv[++i], &end, 10);
                if (*end || g[k] < 1 || g[k] > 1000) return usage();
            }
        } else {
            return usage();
        }
    }
    if (!mesh || !out || strchr(mesh, '"') || strchr(mesh, '\\')) return usage();
    FILE *f = fopen(out, "w");
    if (!f) {
        perror(out);
        return 1;
    }
    const long n = g[0] * g[1] * g[2];
    const double w = spacing * (double)(g[0] - 1), d = spacing * (double)(g[2] - 1);
    const double h = spacing * (double)(g[1] - 1), far = 0.8 * (w > d ? w : d) + 0.6 * h + 16.0;
    fprintf(f,
            "{\n  \"comment\": \"%ld instances of %s in a %ld x %ld x %ld grid (tools/"
            "gen_instances.c)\",\n",
            n, mesh, g[0], g[1], g[2]);
    fprintf(f, "  \"render\": {\"width\": 640, \"height\": 360, \"spp\": 16, \"max_depth\": 8},\n");
    fprintf(f,
            "  \"camera\": {\"look_from\": [%.3f, %.3f, %.3f], \"look_at\": [%.3f, %.3f, %.3f], "
            "\"vfov\": 40},\n",
            0.55 * far, 0.3 * far + 0.5 * h, far, 0.0, 0.5 * h, 0.0);
    fprintf(f, "  \"background\": {\"type\": \"sky\"},\n");
    fprintf(f,
            "  \"materials\": [\n"
            "    {\"name\": \"ground\", \"type\": \"lambertian\", \"albedo\": [0.5, 0.5, 0.5]},\n"
            "    {\"name\": \"gold\", \"type\": \"metal\", \"albedo\": [0.83, 0.62, 0.3], "
            "\"fuzz\": 0.08}\n  ],\n");
    fprintf(f, "  \"spheres\": [{\"center\": [0, -100000, 0], \"radius\": 99996, \"material\": "
               "\"ground\"}],\n");
    fprintf(f, "  \"meshes\": [{\"name\": \"mesh\", \"file\": \"%s\", \"material\": \"gold\"}],\n",
            mesh);
    fprintf(f, "  \"instances\": [\n");
    long k = 0;
    for (long z = 0; z < g[2]; z++)
        for (long y = 0; y < g[1]; y++)
            for (long x = 0; x < g[0]; x++, k++) {
                const double deg = 360.0 * hash01((uint32_t)k * 3u + 1u);
                const double s = 0.8 + 0.4 * hash01((uint32_t)k * 3u + 2u);
                const double ax = hash01((uint32_t)k * 3u + 3u) - 0.5;
                fprintf(f,
                        "    {\"mesh\": \"mesh\", \"translate\": [%.3f, %.3f, %.3f], \"rotate\": "
                        "[%.4f, 1, 0, %.2f], \"scale\": %.4f}%s\n",
                        spacing * (double)x - 0.5 * w, spacing * (double)y + 1.0,
                        spacing * (double)z - 0.5 * d, ax, deg, s, k + 1 < n ? "," : "");
            }
    fprintf(f, "  ]\n}\n");
    if (fclose(f) != 0) {
        perror(out);
        return 1;
    }
    return 0;
}
