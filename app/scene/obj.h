/* obj.h: a Wavefront OBJ reader for triangle meshes that accepts any input without crashing:
 * malformed files are reported as "file:line: what is wrong".
 *
 * Read: `v x y z [w | r g b]`, `vt u [v [w]]`, `vn x y z` and `f a b c ...` (polygons become
 * triangle fans; references `i`, `i/t`, `i//n`, `i/t/n`, negative = relative to the last one
 * of its kind). Groups and smoothing are accepted and ignored. A face may only use vertices,
 * texture coordinates and normals defined above it. Faces of zero area are dropped (counted).
 *
 * Materials (rc_obj_load_mtl, rc_obj_parse_mtl): `mtllib FILE...` reads MTL files (mtl.h,
 * relative to the OBJ's folder; absolute paths and ".." refused) and `usemtl NAME` gives the
 * faces after it that material; faces before any usemtl have none (RC_OBJ_NONE, the default).
 * A usemtl naming no material of the mtllib files above it is an error: a typo would
 * otherwise turn a mesh grey silently. rc_obj_parse and rc_obj_load(_max) ignore both. */
#ifndef RC_OBJ_H
#define RC_OBJ_H

#include "mtl.h"
#include "rc_error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_mesh {
    float *v;      /* 3 * num_vertices coordinates */
    uint32_t *tri; /* 3 * num_triangles vertex indices (0-based, < num_vertices) */
    size_t num_vertices;
    size_t num_triangles;
    size_t num_degenerate; /* zero-area triangles dropped */
    float *vt;             /* 2 * num_texcoords (u, v; a third coordinate is dropped) */
    float *vn;             /* 3 * num_normals (as written: not normalized) */
    size_t num_texcoords, num_normals;
    /* per triangle corner, 3 * num_triangles: the texture coordinate and the normal it names
       (0-based), or RC_OBJ_NONE; NULL while no face names any */
    uint32_t *tri_t, *tri_n;
    rc_mtl mtl;      /* the materials of the mtllib files, in the order read */
    uint32_t *tri_m; /* per triangle: its index into mtl.materials or RC_OBJ_NONE; NULL while
                        no face follows a usemtl */
    /* usemtl lines of a file whose mtllib files define no material (or that has none): their
       faces take the default; the count and the first one's name, for a notice */
    size_t num_unknown_usemtl;
    char unknown_usemtl[64];
} rc_mesh;

#define RC_OBJ_NONE 0xffffffffu

/* Largest mesh the reader accepts (the renderer packs primitive indices in 32 bits). */
#define RC_OBJ_MAX_VERTICES  (1u << 28)
#define RC_OBJ_MAX_TRIANGLES (1u << 28)
#define RC_OBJ_MAX_BYTES     ((size_t)1 << 31)
/* Coordinates beyond this magnitude are refused: they would overflow the BVH's float maths. */
#define RC_OBJ_MAX_COORD 1e15

/* Parse OBJ text (`len` bytes; NUL bytes inside are an error); `name` is used in messages.
 * Returns 0, or -1 with err set and *out empty. A file without faces is an error. */
int rc_obj_parse(const char *name, const char *text, size_t len, rc_mesh *out, rc_error *err);
/* Read and parse a file: a regular file of at most RC_OBJ_MAX_BYTES (others are refused before
 * they are read). */
int rc_obj_load(const char *path, rc_mesh *out, rc_error *err);
/* The same, refusing files over max_bytes (at most RC_OBJ_MAX_BYTES). */
int rc_obj_load_max(const char *path, size_t max_bytes, rc_mesh *out, rc_error *err);
/* With materials: `mtllib` files are read relative to `dir` (NULL: an OBJ from memory, and
 * mtllib is refused in one line), their text at most max_bytes in all; `usemtl` names one of
 * their materials. */
int rc_obj_parse_mtl(const char *name, const char *dir, size_t max_bytes, const char *text,
                     size_t len, rc_mesh *out, rc_error *err);
/* rc_obj_load_max with materials, the MTL files within the same max_bytes. */
int rc_obj_load_mtl(const char *path, size_t max_bytes, rc_mesh *out, rc_error *err);
void rc_mesh_free(rc_mesh *m);

#ifdef __cplusplus
}
#endif
#endif /* RC_OBJ_H */
