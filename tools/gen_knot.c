/* gen_knot: writes assets/knot.obj, a fluted tube around a (2, 3) torus knot: 1024 rings of
 * 50 vertices, 102400 triangles. The tube follows the curve's Frenet frame, which is periodic
 * along a closed curve, so the tube closes without a seam. */
#include <math.h>
#include <stdio.h>

#define RINGS 1024
#define SIDES 50
#define P     2
#define Q     3

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

int main(void) {
    printf("# (2,3) torus knot tube, %d triangles, written by tools/gen_knot.c\n",
           2 * RINGS * SIDES);
    for (int i = 0; i < RINGS; i++) {
        double c[3], t[3], n[3], b[3];
        frame(2.0 * k_pi * i / RINGS, c, t, n, b);
        for (int j = 0; j < SIDES; j++) {
            double a = 2.0 * k_pi * j / SIDES;
            double r = 0.38 + 0.035 * cos(10.0 * a); /* ten flutes along the tube */
            printf("v %.5f %.5f %.5f\n", c[0] + r * (cos(a) * n[0] + sin(a) * b[0]),
                   c[1] + r * (cos(a) * n[1] + sin(a) * b[1]),
                   c[2] + r * (cos(a) * n[2] + sin(a) * b[2]));
        }
    }
    for (int i = 0; i < RINGS; i++) {
        int i1 = (i + 1) % RINGS;
        for (int j = 0; j < SIDES; j++) {
            int j1 = (j + 1) % SIDES;
            int v00 = i * SIDES + j + 1, v01 = i * SIDES + j1 + 1;
            int v10 = i1 * SIDES + j + 1, v11 = i1 * SIDES + j1 + 1;
            printf("f %d %d %d\nf %d %d %d\n", v00, v10, v11, v00, v11, v01);
        }
    }
    return 0;
}
