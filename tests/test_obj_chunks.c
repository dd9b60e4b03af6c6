/* test_obj_chunks.c: the chunked OBJ parse (obj_chunks.c) against the serial one (obj.c) on
 * generated text: the same mesh, byte for byte, or the same one-line error, at chunk sizes from
 * one byte (every line its own chunk, every cut in every kind of line) up, on 1 to 4 threads.
 * The text mixes v/vt/vn, faces of 3-6 references in every form (i, i/t, i//n, i/t/n; positive
 * and negative), zero-area faces, usemtl switches of an MTL file written here, comments,
 * groups, blank lines, CRLF ends and a last line without a newline; then one line of it is
 * corrupted for the error cases. The OBJ reader has no line continuation: a backslash is an
 * ordinary (bad) character, which the corruptions include. */
#include "rc_test.h"
#include "scene/obj_internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n) {
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng % n);
}

typedef struct text {
    char buf[1 << 16];
    size_t len;
} text;

static void put(text *t, const char *fmt, ...) ECHO_PRINTF(2, 3);
static void put(text *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
    va_end(ap);
    if (n > 0 && t->len + (size_t)n < sizeof t->buf) t->len += (size_t)n;
}

static void number(text *t) {
    static const char *const forms[] = {"%d", "%.1f", "%.6f", "%.9g", "%e", "%.3E", "%.17g"};
    double x = ((double)rnd(2000001) - 1000000.0) / (double)(1u << rnd(20));
    char f[16];
    snprintf(f, sizeof f, " %s", forms[rnd(7)]);
    if (f[2] == 'd')
        put(t, " %d", (int)x);
    else
        put(t, f, x);
}

/* One reference to corner data among `n` defined so far, 1-based or negative. */
static int ref(size_t n) {
    int k = 1 + (int)rnd((uint32_t)n);
    return rnd(2) ? k : k - 1 - (int)n;
}

static void gen(text *t, int with_mtl) {
    size_t nv = 0, nt = 0, nn = 0;
    int lines = 20 + (int)rnd(200);
    const char *nl = rnd(3) == 0 ? "\r\n" : "\n";
    if (with_mtl) put(t, "mtllib t.mtl%s", nl);
    for (int i = 0; i < lines; i++) {
        uint32_t kind = rnd(16);
        if (kind < 5 || nv < 3) {
            put(t, "v");
            for (int k = rnd(4) == 0 ? 6 : 3; k > 0; k--) number(t);
            nv++;
        } else if (kind == 5) {
            put(t, "vt");
            for (int k = 1 + (int)rnd(3); k > 0; k--) number(t);
            nt++;
        } else if (kind == 6) {
            put(t, "vn");
            for (int k = 3; k > 0; k--) number(t);
            nn++;
        } else if (kind < 11) {
            int form = (int)rnd(4), corners = 3 + (int)rnd(4), same = rnd(8) == 0;
            put(t, "f");
            int first = ref(nv);
            for (int k = 0; k < corners; k++) {
                put(t, " %d", same ? first : ref(nv));
                if ((form == 1 || form == 3) && nt) put(t, "/%d", ref(nt));
                if (form == 2 && nn) put(t, "//%d", ref(nn));
                if (form == 3 && nn) put(t, "%s/%d", nt ? "" : "/", ref(nn));
            }
        } else if (kind == 11 && with_mtl) {
            put(t, "usemtl %s", (const char *[]){"red", "green", "blue"}[rnd(3)]);
        } else if (kind == 12) {
            put(t, "# comment v 1 2 f 1 2 3");
        } else if (kind == 13) {
            put(t, "%s", (const char *[]){"g part", "o thing", "s off", "  \t", ""}[rnd(5)]);
        } else {
            put(t, "v 1 2 3 # trailing");
            nv++;
        }
        if (i + 1 < lines || rnd(2)) put(t, "%s", nl);
    }
}

/* One line's start replaced by a bad token: an index out of range, a word, a backslash. */
static void corrupt(text *t) {
    static const char *const bad[] = {"f 1 2 999999", "v 1 2 x",     "f 0 1 2",     "usemtl nope",
                                      "vn 1 2",       "\\",          "f 1/2/3/4 1", "v 1 2 3e20",
                                      "f 1 2",        "f -9999 1 2", "quux"};
    size_t at = rnd((uint32_t)t->len);
    while (at > 0 && t->buf[at - 1] != '\n') at--;
    const char *b = bad[rnd(sizeof bad / sizeof *bad)];
    size_t n = strlen(b);
    if (at + n + 1 >= t->len) return;
    memcpy(t->buf + at, b, n);
    t->buf[at + n] = ' ';
}

static int same_u32(const uint32_t *a, const uint32_t *b, size_t n) {
    if (!a || !b) return a == b;
    return memcmp(a, b, n * sizeof *a) == 0;
}

static int same_mesh(const rc_mesh *a, const rc_mesh *b) {
    return a->num_vertices == b->num_vertices && a->num_triangles == b->num_triangles &&
           a->num_degenerate == b->num_degenerate && a->num_texcoords == b->num_texcoords &&
           a->num_normals == b->num_normals && a->mtl.count == b->mtl.count &&
           memcmp(a->v, b->v, 3 * a->num_vertices * sizeof(float)) == 0 &&
           (a->num_texcoords == 0 || memcmp(a->vt, b->vt, 2 * a->num_texcoords * 4) == 0) &&
           (a->num_normals == 0 || memcmp(a->vn, b->vn, 3 * a->num_normals * 4) == 0) &&
           same_u32(a->tri, b->tri, 3 * a->num_triangles) &&
           same_u32(a->tri_t, b->tri_t, 3 * a->num_triangles) &&
           same_u32(a->tri_n, b->tri_n, 3 * a->num_triangles) &&
           same_u32(a->tri_m, b->tri_m, a->num_triangles);
}

/* The serial parse of t and the chunked one at several chunk sizes and thread counts. */
static void compare(const text *t, const char *dir, int *failed, int *good) {
    rc_obj_source src = {"t.obj", dir != NULL, dir, 1 << 20, t->buf, t->len};
    rc_mesh ref, m;
    rc_error ref_err, err;
    int ref_rc = rc_obj_parse_serial(&src, &ref, &ref_err);
    *good += ref_rc == 0;
    static const size_t sizes[] = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 1000, 1 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int threads = 1 + (int)(s % 4);
        int rc = rc_obj_parse_chunks(&src, sizes[s], threads, &m, &err);
        int same =
            rc == ref_rc && (rc != 0 ? strcmp(err.msg, ref_err.msg) == 0 : same_mesh(&m, &ref));
        if (!same && (*failed)++ < 3)
            fprintf(stderr, "chunk %zu, %d threads: rc %d (%s), serial %d (%s)\n%.*s\n", sizes[s],
                    threads, rc, rc ? err.msg : "-", ref_rc, ref_rc ? ref_err.msg : "-",
                    (int)t->len, t->buf);
        CHECK(same, "chunked parse differs from the serial one");
        if (rc == 0) rc_mesh_free(&m);
    }
    if (ref_rc == 0) rc_mesh_free(&ref);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    mkdir(dir, 0755);
    char path[4096];
    snprintf(path, sizeof path, "%s/t.mtl", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return test_finish("obj_chunks");
    fputs("newmtl red\nKd 1 0 0\nnewmtl green\nKd 0 1 0\nnewmtl blue\nKd 0 0 1\n", f);
    fclose(f);
    static text t;
    int failed = 0, good = 0, runs = 600;
    for (int i = 0; i < runs; i++) {
        int with_mtl = i % 2;
        t.len = 0;
        gen(&t, with_mtl);
        if (i % 3 == 2) corrupt(&t);
        compare(&t, with_mtl ? dir : NULL, &failed, &good);
    }
    printf("obj_chunks: %d texts, %d of them parse\n", runs, good);
    CHECK(good > runs / 2 && good < runs, "both good and bad texts: %d of %d parse", good, runs);
    return test_finish("obj_chunks");
}
