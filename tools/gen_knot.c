/* gen_knot: writes assets/knot.obj, a fluted tube around a (2, 3) torus knot: 1024 rings of
 * 50 vertices, 102400 triangles; `gen_knot RINGS SIDES` a finer (or coarser) one of
 * 2 * RINGS * SIDES triangles, for loading at scale; `--glb OUT.glb` the same triangles as a
 * glTF 2.0 binary (positions, normals, 32-bit indices) in place of the OBJ text. The tube
 * follows the curve's Frenet frame, which is periodic along a closed curve, so the tube closes
 * without a seam. */
#include <math.h>
#include <stdint.h>
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

/* Vertex j of ring i: the fluted circle around the curve at its i-th point. */
static void vertex(long rings, long sides, long i, long j, double p[3]) {
    double c[3], t[3], n[3], b[3];
    frame(2.0 * k_pi * i / rings, c, t, n, b);
    double a = 2.0 * k_pi * j / sides;
    double r = 0.38 + 0.035 * cos(10.0 * a); /* ten flutes along the tube */
    for (int k = 0; k < 3; k++) p[k] = c[k] + r * (cos(a) * n[k] + sin(a) * b[k]);
}

/* The two triangles of quad (i, j), zero-based, in the OBJ's winding. */
static void quad(long rings, long sides, long i, long j, long tri[6]) {
    long i1 = (i + 1) % rings, j1 = (j + 1) % sides;
    long v00 = i * sides + j, v01 = i * sides + j1, v10 = i1 * sides + j, v11 = i1 * sides + j1;
    long q[6] = {v00, v10, v11, v00, v11, v01};
    memcpy(tri, q, sizeof q);
}

static void write_obj(long rings, long sides) {
    printf("# (2,3) torus knot tube, %ld triangles, written by tools/gen_knot.c\n",
           2 * rings * sides);
    for (long i = 0; i < rings; i++)
        for (long j = 0; j < sides; j++) {
            double p[3];
            vertex(rings, sides, i, j, p);
            printf("v %.5f %.5f %.5f\n", p[0], p[1], p[2]);
        }
    for (long i = 0; i < rings; i++)
        for (long j = 0; j < sides; j++) {
            long t[6];
            quad(rings, sides, i, j, t);
            printf("f %ld %ld %ld\nf %ld %ld %ld\n", t[0] + 1, t[1] + 1, t[2] + 1, t[3] + 1,
                   t[4] + 1, t[5] + 1);
        }
}

static void put32(FILE *f, uint32_t v) {
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    fwrite(b, 1, 4, f);
}

/* The .glb (glTF 2.0 sec. 4.4): a 12-byte header, the JSON chunk padded with spaces to 4 bytes,
 * the BIN chunk: positions, then normals (sums of the adjacent faces' area-weighted normals,
 * normalized: they point out of the tube), then the indices (componentType 5125, unsigned
 * int). */
static int write_glb(long rings, long sides, const char *path) {
    uint64_t nv = (uint64_t)rings * sides, nt = 2 * nv;
    uint64_t o_n = nv * 12, o_i = 2 * o_n, bin = o_i + nt * 12;
    if (12 + 8 + 2048 + 8 + bin > 0xFFFFFFFFull || nv > 0xFFFFFFFFull) {
        fprintf(stderr, "gen_knot: %llu triangles do not fit a .glb (4 GiB)\n",
                (unsigned long long)nt);
        return 1;
    }
    float *pos = malloc(nv * 12), *nrm = calloc(nv * 3, sizeof *nrm);
    uint32_t *idx = malloc(nt * 12);
    if (!pos || !nrm || !idx) {
        fprintf(stderr, "gen_knot: out of memory\n");
        return 1;
    }
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (long i = 0; i < rings; i++)
        for (long j = 0; j < sides; j++) {
            double p[3];
            vertex(rings, sides, i, j, p);
            float *v = pos + 3 * (i * sides + j);
            for (int k = 0; k < 3; k++) {
                v[k] = (float)p[k];
                lo[k] = fminf(lo[k], v[k]);
                hi[k] = fmaxf(hi[k], v[k]);
            }
        }
    for (long i = 0; i < rings; i++)
        for (long j = 0; j < sides; j++) {
            long t[6], s;
            quad(rings, sides, i, j, t);
            for (int h = 0; h < 2; h++) {
                /* the OBJ's triangles turn clockwise seen from outside: glTF's front faces
                   turn counter-clockwise (sec. 3.7.2.1), so the glb swaps two corners */
                s = t[3 * h + 1], t[3 * h + 1] = t[3 * h + 2], t[3 * h + 2] = s;
                const float *a = pos + 3 * t[3 * h], *b = pos + 3 * t[3 * h + 1],
                            *c = pos + 3 * t[3 * h + 2];
                float e[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                float g[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
                float n[3] = {e[1] * g[2] - e[2] * g[1], e[2] * g[0] - e[0] * g[2],
                              e[0] * g[1] - e[1] * g[0]};
                for (int k = 0; k < 3; k++) {
                    idx[6 * (i * sides + j) + 3 * h + k] = (uint32_t)t[3 * h + k];
                    for (int d = 0; d < 3; d++) nrm[3 * t[3 * h + k] + d] += n[d];
                }
            }
        }
    for (uint64_t v = 0; v < nv; v++) {
        float *n = nrm + 3 * v, l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int d = 0; d < 3; d++) n[d] /= l;
    }
    char json[2048];
    int jl =
        snprintf(json, sizeof json,
                 "{\"asset\":{\"version\":\"2.0\",\"generator\":\"raycompact gen_knot\"},"
                 "\"buffers\":[{\"byteLength\":%llu}],\"bufferViews\":["
                 "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%llu,\"target\":34962},"
                 "{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu,\"target\":34962},"
                 "{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu,\"target\":34963}],"
                 "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%llu,"
                 "\"type\":\"VEC3\",\"min\":[%.9g,%.9g,%.9g],\"max\":[%.9g,%.9g,%.9g]},"
                 "{\"bufferView\":1,\"componentType\":5126,\"count\":%llu,\"type\":\"VEC3\"},"
                 "{\"bufferView\":2,\"componentType\":5125,\"count\":%llu,\"type\":\"SCALAR\"}],"
                 "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},"
                 "\"indices\":2}]}],\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}],"
                 "\"scene\":0}",
                 (unsigned long long)bin, (unsigned long long)o_n, (unsigned long long)o_n,
                 (unsigned long long)o_n, (unsigned long long)o_i, (unsigned long long)(nt * 12),
                 (unsigned long long)nv, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2],
                 (unsigned long long)nv, (unsigned long long)(3 * nt));
    uint32_t jpad = (uint32_t)(jl + 3) / 4 * 4;
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return 1;
    }
    put32(f, 0x46546C67u); /* "glTF" */
    put32(f, 2);
    put32(f, (uint32_t)(12 + 8 + jpad + 8 + bin));
    put32(f, jpad);
    put32(f, 0x4E4F534Au); /* "JSON" */
    fwrite(json, 1, (size_t)jl, f);
    for (uint32_t i = (uint32_t)jl; i < jpad; i++) fputc(' ', f);
    put32(f, (uint32_t)bin);
    put32(f, 0x004E4942u); /* "BIN\0" */
    fwrite(pos, 12, nv, f);
    fwrite(nrm, 12, nv, f);
    fwrite(idx, 12, nt, f);
    free(pos);
    free(nrm);
    free(idx);
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    long rings = 1024, sides = 50;
    const char *glb = NULL, *num[2];
    int nn = 0, bad = 0, help = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            help = 1;
        else if (strcmp(argv[i], "--glb") == 0 && i + 1 < argc)
            glb = argv[++i];
        else if (nn < 2 && argv[i][0] != '-')
            num[nn++] = argv[i];
        else
            bad = 1;
    }
    if (nn == 2) {
        char *e1, *e2;
        rings = strtol(num[0], &e1, 10);
        sides = strtol(num[1], &e2, 10);
        bad |= *e1 || *e2;
    }
    if (help || bad || nn == 1 || rings < 3 || sides < 3 || rings * sides > 100000000L) {
        fprintf(help ? stdout : stderr,
                "usage: gen_knot [RINGS SIDES] [--glb OUT.glb]  (default 1024 50: 2 * RINGS * "
                "SIDES triangles, RINGS * SIDES at most 1e8)\n"
                "  writes the OBJ text to stdout, or with --glb a glTF 2.0 binary to OUT.glb\n");
        return help ? 0 : 2;
    }
    if (glb) return write_glb(rings, sides, glb);
    write_obj(rings, sides);
    return 0;
}
