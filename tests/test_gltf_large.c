/* test_gltf_large.c: the glTF reader on accessors large enough for its loops to run over all
 * threads (gltf_internal.h's GLTF_PAR) and on a .glb large enough to be read in parallel
 * (read_par.h), against what the serial rules give, computed here: the positions through the
 * node's transform and the bounds, the normals through its inverse transpose, the indices as
 * unsigned int and as unsigned short; the first bad element is the one named (a NaN, an index
 * out of range, a transform that overflows), wherever the threads found the others; and the
 * whole file read in parallel is the file, also through rc_scene_load_model's triangle count.
 * Usage: test_gltf_large [THREADS] */
#include "rc_test.h"
#include "scene/gltf.h"
#include "scene/read_par.h"
#include "scene/scene_import.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* A grid of side x side vertices on z = 0 with normals (0, 0, 2) (normalised on the way in),
 * two triangles a cell, as a .glb: buffer views 0 positions, 1 normals, 2 indices (uint32, or
 * uint16 when `shorts`). The node translates by (1, 2, 3) and scales x by `sx`. */
typedef struct grid {
    uint8_t *glb;
    size_t len;
    size_t nv, nt;
    size_t pos_at, idx_at; /* byte offsets of the positions and indices in the .glb */
} grid;

static int make_grid(grid *g, uint32_t side, int shorts, double sx) {
    g->nv = (size_t)side * side;
    g->nt = 2 * (size_t)(side - 1) * (side - 1);
    const size_t isz = shorts ? 2 : 4, pb = g->nv * 12, ib = (3 * g->nt * isz + 3) / 4 * 4;
    char json[2048];
    int jn = snprintf(
        json, sizeof json,
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":0,\"byteLength\":%zu},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[%u,%u,0]},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":%d,\"count\":%zu,\"type\":\"SCALAR\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},"
        "\"indices\":2}]}],"
        "\"nodes\":[{\"mesh\":0,\"translation\":[1,2,3],\"scale\":[%.17g,1,1]}],"
        "\"scenes\":[{\"nodes\":[0]}],\"scene\":0}",
        2 * pb + ib, pb, pb, pb, 2 * pb, 3 * g->nt * isz, g->nv, side - 1, side - 1, g->nv,
        shorts ? 5123 : 5125, 3 * g->nt, sx);
    size_t jl = ((size_t)jn + 3) / 4 * 4, bl = 2 * pb + ib;
    g->len = 12 + 8 + jl + 8 + bl;
    g->glb = calloc(g->len, 1);
    if (!g->glb) return -1;
    uint32_t h[5] = {0x46546C67u, 2, (uint32_t)g->len, (uint32_t)jl, 0x4E4F534Au};
    memcpy(g->glb, h, 20);
    memset(g->glb + 20, ' ', jl);
    memcpy(g->glb + 20, json, (size_t)jn);
    uint32_t c[2] = {(uint32_t)bl, 0x004E4942u};
    memcpy(g->glb + 20 + jl, c, 8);
    uint8_t *b = g->glb + 28 + jl;
    g->pos_at = 28 + jl;
    g->idx_at = g->pos_at + 2 * pb;
    for (uint32_t y = 0; y < side; y++)
        for (uint32_t x = 0; x < side; x++) {
            size_t v = (size_t)y * side + x;
            float p[3] = {(float)x, (float)y, 0.0f}, n[3] = {0.0f, 0.0f, 2.0f};
            memcpy(b + 12 * v, p, 12);
            memcpy(b + pb + 12 * v, n, 12);
        }
    size_t k = 0;
    for (uint32_t y = 0; y + 1 < side; y++)
        for (uint32_t x = 0; x + 1 < side; x++) {
            uint32_t a = y * side + x, q[6] = {a, a + 1, a + side, a + 1, a + side + 1, a + side};
            for (int j = 0; j < 6; j++, k++) {
                if (shorts) {
                    uint16_t s = (uint16_t)q[j];
                    memcpy(b + 2 * pb + 2 * k, &s, 2);
                } else {
                    memcpy(b + 2 * pb + 4 * k, &q[j], 4);
                }
            }
        }
    return 0;
}

static int parse_glb(const grid *g, rc_import *im, rc_error *err) {
    rc_gltf_options o = {0, NULL, NULL};
    memset(err, 0, sizeof *err);
    return rc_gltf_parse("t.glb", NULL, g->glb, g->len, &o, im, err);
}

/* The grid loaded: every position, normal and index as the serial rules give them. */
static void check_grid(uint32_t side, int shorts) {
    grid g;
    CHECK(make_grid(&g, side, shorts, 0.5) == 0, "out of memory");
    if (!g.glb) return;
    rc_import im;
    rc_error err;
    int rc = parse_glb(&g, &im, &err);
    CHECK(rc == 0, "%u x %u grid (%s indices): %s", side, side, shorts ? "short" : "int", err.msg);
    if (rc == 0) {
        const rc_import_part *p = &im.parts[0];
        size_t bad_p = 0, bad_n = 0, bad_i = 0;
        for (size_t v = 0; v < g.nv; v++) {
            float x = (float)(v % side), y = (float)(v / side);
            bad_p += p->positions[3 * v] != 0.5f * x + 1.0f ||
                     p->positions[3 * v + 1] != y + 2.0f || p->positions[3 * v + 2] != 3.0f;
            bad_n += p->normals[3 * v] != 0.0f || p->normals[3 * v + 1] != 0.0f ||
                     p->normals[3 * v + 2] != 1.0f;
        }
        size_t k = 0;
        for (uint32_t y = 0; y + 1 < side; y++)
            for (uint32_t x = 0; x + 1 < side; x++) {
                uint32_t a = y * side + x,
                         q[6] = {a, a + 1, a + side, a + 1, a + side + 1, a + side};
                for (int j = 0; j < 6; j++, k++) bad_i += p->indices[k] != q[j];
            }
        CHECK(im.num_vertices == g.nv && im.num_triangles == g.nt, "%u grid: %zu vertices", side,
              im.num_vertices);
        CHECK(bad_p == 0 && bad_n == 0 && bad_i == 0,
              "%u grid: %zu positions, %zu normals, %zu indices wrong", side, bad_p, bad_n, bad_i);
        float hx = 0.5f * (float)(side - 1) + 1.0f, hy = (float)(side - 1) + 2.0f;
        CHECK(im.bounds_min[0] == 1.0f && im.bounds_min[1] == 2.0f && im.bounds_min[2] == 3.0f &&
                  im.bounds_max[0] == hx && im.bounds_max[1] == hy && im.bounds_max[2] == 3.0f,
              "%u grid: bounds %g %g %g .. %g %g %g", side, im.bounds_min[0], im.bounds_min[1],
              im.bounds_min[2], im.bounds_max[0], im.bounds_max[1], im.bounds_max[2]);
        rc_import_free(&im);
    }
    free(g.glb);
}

/* Grid g, broken by the caller, is refused with the line `want`; g is freed. */
static void expect_refused(grid *g, const char *what, const char *want) {
    rc_import im;
    rc_error err;
    int rc = parse_glb(g, &im, &err);
    CHECK(rc != 0 && strcmp(err.msg, want) == 0, "%s: %s", what, rc ? err.msg : "(loaded)");
    if (rc == 0) rc_import_free(&im);
    free(g->glb);
}

/* Broken grids: the first bad element is named, however many come after it. */
static void check_errors(void) {
    const uint32_t side = 300; /* 90000 vertices, 534 006 indices */
    grid g;
    CHECK(make_grid(&g, side, 0, 0.5) == 0, "out of memory");
    if (!g.glb) return;
    const uint32_t nan_bits = 0x7FC00000u, inf_bits = 0x7F800000u;
    const size_t nan_at[] = {88000, 70001, 80000}; /* vertices; the first is 70001 */
    for (int k = 0; k < 3; k++)
        memcpy(g.glb + g.pos_at + 12 * nan_at[k] + 4 * (size_t)k, k == 1 ? &inf_bits : &nan_bits,
               4);
    expect_refused(&g, "NaN",
                   "t.glb: accessors[0]: element 70001 (POSITION of meshes[0].primitives[0]) is "
                   "not finite");

    CHECK(make_grid(&g, side, 0, 0.5) == 0, "out of memory");
    if (!g.glb) return;
    const size_t idx_at[] = {500000, 100000, 150000};
    const uint32_t idx_val[] = {90000, 123456, 4000000000u};
    for (int k = 0; k < 3; k++) memcpy(g.glb + g.idx_at + 4 * idx_at[k], &idx_val[k], 4);
    expect_refused(&g, "index",
                   "t.glb: accessors[2]: index 123456 (element 100000) is not below the vertex "
                   "count 90000 of meshes[0].primitives[0]");

    /* x scaled by 1e30: two vertices far out (x 1e20, finite) overflow to infinity */
    CHECK(make_grid(&g, side, 0, 1e30) == 0, "out of memory");
    if (!g.glb) return;
    const float far = 1e20f;
    memcpy(g.glb + g.pos_at + 12 * 80000, &far, 4);
    memcpy(g.glb + g.pos_at + 12 * 70000, &far, 4);
    expect_refused(&g, "overflow",
                   "t.glb: nodes[0]: its transform makes POSITION of meshes[0].primitives[0] not "
                   "finite");
}

/* A .glb over RC_READ_PAR_MIN written to a file: read in parallel it is the file, byte for
 * byte, and the model it holds loads with its triangles. */
static void check_file(void) {
    grid g;
    const uint32_t side = 1100; /* 1.21 M vertices: about 43 MB */
    CHECK(make_grid(&g, side, 0, 1.0) == 0, "out of memory");
    if (!g.glb) return;
    CHECK(g.len >= RC_READ_PAR_MIN, "the file (%zu bytes) is below the parallel read's size",
          g.len);
    char path[] = "/tmp/test_gltf_large_XXXXXX.glb";
    int fd = mkstemps(path, 4);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0) {
        free(g.glb);
        return;
    }
    size_t w = 0;
    while (w < g.len) {
        ssize_t r = write(fd, g.glb + w, g.len - w);
        if (r <= 0) break;
        w += (size_t)r;
    }
    close(fd);
    CHECK(w == g.len, "write");
    char *data = NULL;
    size_t len = 0;
    rc_error err;
    int rc = rc_read_file_par(path, SIZE_MAX, &data, &len, &err);
    CHECK(rc == 0 && len == g.len && memcmp(data, g.glb, len) == 0 && data[len] == '\0',
          "parallel read: %s", rc ? err.msg : "other bytes");
    free(data);
    rc = rc_read_file_par(path, g.len - 1, &data, &len, &err);
    char want[256];
    snprintf(want, sizeof want, "%s: file is larger than %zu bytes", path, g.len - 1);
    CHECK(rc != 0 && strcmp(err.msg, want) == 0, "over the limit: %s", rc ? err.msg : "(read)");
    if (rc == 0) free(data);
    rc_scene s;
    rc = rc_scene_load_model(path, 4096, &s, &err);
    CHECK(rc == 0 && s.num_triangles == g.nt, "load: %s (%zu triangles)", rc ? err.msg : "",
          rc == 0 ? s.num_triangles : 0);
    if (rc == 0) rc_scene_free(&s);
    unlink(path);
    rc = rc_read_file_par(path, SIZE_MAX, &data, &len, &err);
    CHECK(rc != 0 && strstr(err.msg, "cannot open") != NULL, "a missing file: %s",
          rc ? err.msg : "(read)");
    if (rc == 0) free(data);
    free(g.glb);
}

int main(int argc, char **argv) {
#ifdef _OPENMP
    if (argc > 1) omp_set_num_threads(atoi(argv[1]));
#else
    (void)argc;
    (void)argv;
#endif
    check_grid(300, 0); /* 90000 vertices, uint32 indices */
    check_grid(250, 1); /* 62500 vertices, 371 004 uint16 indices */
    check_grid(40, 0);  /* below GLTF_PAR: the serial loops */
    check_errors();
    check_file();
    return test_finish("test_gltf_large");
}
