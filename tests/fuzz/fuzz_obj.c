/* fuzz_obj.c: the OBJ mesh reader (rc_obj_parse, and rc_obj_parse_mtl without a folder: usemtl
 * checked, mtllib refused), on the input as the file's text; and its chunked parse at a chunk
 * size and thread count taken from the input's length (1 to 64 bytes, 1 to 4 threads), which
 * must give the serial parse's mesh byte for byte, or its message. */
#include "fuzz_check.h"
#include "scene/obj_internal.h"

#include <stdint.h>
#include <string.h>

static int same_u32(const uint32_t *a, const uint32_t *b, size_t n) {
    return !a || !b ? a == b : memcmp(a, b, n * sizeof *a) == 0;
}

/* The serial parse and the chunked one agree, or abort. */
static void differential(const rc_obj_source *src, size_t chunk, int threads) {
    rc_mesh a, b;
    rc_error ea, eb;
    int ra = rc_obj_parse_serial(src, &a, &ea);
    int rb = rc_obj_parse_chunks(src, chunk, threads, &b, &eb);
    if (ra != rb) abort();
    if (ra != 0) {
        if (strcmp(ea.msg, eb.msg) != 0) abort();
        return;
    }
    size_t nt = a.num_triangles;
    if (nt != b.num_triangles || a.num_vertices != b.num_vertices ||
        a.num_degenerate != b.num_degenerate || a.num_texcoords != b.num_texcoords ||
        a.num_normals != b.num_normals ||
        memcmp(a.v, b.v, 3 * a.num_vertices * sizeof(float)) != 0 ||
        (a.num_texcoords && memcmp(a.vt, b.vt, 2 * a.num_texcoords * sizeof(float)) != 0) ||
        (a.num_normals && memcmp(a.vn, b.vn, 3 * a.num_normals * sizeof(float)) != 0) ||
        !same_u32(a.tri, b.tri, 3 * nt) || !same_u32(a.tri_t, b.tri_t, 3 * nt) ||
        !same_u32(a.tri_n, b.tri_n, 3 * nt) || !same_u32(a.tri_m, b.tri_m, nt))
        abort();
    rc_mesh_free(&a);
    rc_mesh_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* The reader takes a length and must not read past it: an exact-size copy, unterminated. */
    char *text = malloc(size ? size : 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    rc_mesh m;
    rc_error err;
    if (rc_obj_parse("fuzz.obj", text, size, &m, &err) == 0) {
        for (size_t i = 0; i < 3 * m.num_triangles; i++)
            if (m.tri[i] >= m.num_vertices) abort();
        rc_mesh_free(&m);
    } else {
        fuzz_check_message("obj", err.msg);
    }
    if (rc_obj_parse_mtl("fuzz.obj", NULL, size, text, size, &m, &err) == 0) {
        if (m.tri_m) abort(); /* no material can be named without an mtllib */
        rc_mesh_free(&m);
    } else {
        fuzz_check_message("obj", err.msg);
    }
    rc_obj_source src = {"fuzz.obj", (int)(size & 1), NULL, size, text, size};
    differential(&src, 1 + size % 64, 1 + (int)(size / 64 % 4));
    free(text);
    return 0;
}
