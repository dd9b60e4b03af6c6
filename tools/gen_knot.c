/* gen_knot: writes assets/knot.obj, a fluted tube around a (2, 3) torus knot: 1024 rings of
 * 50 vertices, 102400 triangles; `gen_knot RINGS SIDES` a finer (or coarser) one of
 * 2 * RINGS * SIDES triangles, for loading at scale. The tube follows the curve's Frenet frame,
 * which is periodic along a closed curve, so the tube closes without a seam. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define P 2
#define Q 3

static const double k_pi = 3.14159265358979323846;

/* The knot: a point on the torus of radii 2 and 1, P times around, Q times through. */
static void curve(double t, double c[3]) {
    double r = 2.0 + cos(Q * t);
    c[0] = r * cos(P * t);
    c[1] = r * sin(P * t);
    c[2] = -sin(Q * t);
}

static void normalize(double v[3]) {
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++) v[i] /= l;
}

/* Point, unit tangent, unit principal normal and binormal at t, by central differences. */
static void frame(double t, double c[3], double tan[3], double nor[3], double bin[3]) {
    const double h = 1e-4;
    double a[3], b[3];
    curve(t, c);
    curve(t - h, a);
    curve(t + h, b);
    for (int i = 0; i < 3; i++) {
        tan[i] = b[i] - a[i];
        nor[i] = b[i] - 2.0 * c[i] + a[i];
    }
    normalize(tan);
    double d = nor[0] * tan[0] + nor[1] * tan[1] + nor[2] * tan[2];
    for (int i = 0; i < 3; i++) nor[i] -= d * tan[i];
    normalize(nor);
    bin[0] = tan[1] * nor[2] - tan[2] * nor[1];
    bin[1] = tan[2] * nor[0] - tan[0] * nor[2];
    bin[2] = tan[0] * nor[1] - tan[1] * nor[0];
}

int main(int argc, char **argv) {
    long rings = 1024, sides = 50;
    char *e1 = NULL, *e2 = NULL;
    if (argc == 3) {
        rings = strtol(argv[1], &e1, 10);
        sides = strtol(argv[2], &e2, 10);
    }
    if ((argc != 1 && argc != 3) || (argc == 3 && (*e1 || *e2)) || rings < 3 || sides < 3 ||
        rings * sides > 100000000L) {
        fprintf(stderr, "usage: gen_knot [RINGS SIDES] > knot.obj  (default 1024 50: 2 * RINGS "
                        "* SIDES triangles, RINGS * SIDES at most 1e8)\n");
        return argc == 2 && strcmp(argv[1], "--help") == 0 ? 0 : 2;
    }
    printf("# (2,3) torus knot tube, %ld triangles, written by tools/gen_knot.c\n",
           2 * rings * sides);
    for (long i = 0; i < rings; i++) {
        double c[3], t[3], n[3], b[3];
        frame(2.0 * k_pi * i / rings, c, t, n, b);
        for (long j = 0; j < sides; j++) {
            double a = 2.0 * k_pi * j / sides;
            double r = 0.38 + 0.035 * cos(10.0 * a); /* ten flutes along the tube */
            printf("v %.5f %.5f %.5f\n", c[0] + r * (cos(a) * n[0] + sin(a) * b[0]),
                   c[1] + r * (cos(a) * n[1] + sin(a) * b[1]),
                   c[2] + r * (cos(a) * n[2] + sin(a) * b[2]));
        }
    }
    for (long i = 0; i < rings; i++) {
        long i1 = (i + 1) % rings;
        for (long j = 0; j < sides; j++) {
            long j1 = (j + 1) % sides;
            long v00 = i * sides + j + 1, v01 = i * sides + j1 + 1;
            long v10 = i1 * sides + j + 1, v11 = i1 * sides + j1 + 1;
            printf("f %ld %ld %ld\nf %ld %ld %ld\n", v00, v10, v11, v00, v11, v01);
        }
    }
    return 0;
}
