/* gltf_internal.h: internal to the glTF reader (gltf.h), shared by its files only; not
 * installed and not for other callers. The reader's context, the tables the JSON is checked
 * into before any binary data is read, and the functions one of its files calls in another:
 *   gltf_json.c       messages, the memory budget, checked reads of JSON fields
 *   gltf_uri.c        data: URIs and relative files
 *   gltf_buffers.c    buffers, buffer views, accessors and their reads
 *   gltf_materials.c  samplers, textures, materials
 *   gltf_images.c     images, decoded with stb_image
 *   gltf_meshes.c     the primitives' table
 *   gltf_parts.c      the parts built from it
 *   gltf_nodes.c      the node hierarchy, the scene, the camera
 *   gltf.c            the .glb container, the JSON text, the top level, the result
 * The int functions report the first problem as "file: element: what" into c->err and
 * return -1. */
#ifndef RC_GLTF_INTERNAL_H
#define RC_GLTF_INTERNAL_H

#include "echo.h"
#include "gltf.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* Element paths in messages ("meshes[2].primitives[0].attributes") are cut short where they
 * would not fit their buffer, on purpose: in every file of the reader. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define MIB ((size_t)1 << 20)

/* a * b, or SIZE_MAX when it overflows */
static inline size_t mul_sat(size_t a, size_t b) {
    if (a && b > SIZE_MAX / a) return SIZE_MAX;
    return a * b;
}
static inline size_t add_sat(size_t a, size_t b) {
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

enum {
    CT_BYTE = 5120,
    CT_UBYTE = 5121,
    CT_SHORT = 5122,
    CT_USHORT = 5123,
    CT_UINT = 5125,
    CT_FLOAT = 5126
};

typedef struct gbuf {
    const uint8_t *data;
    size_t len; /* byteLength */
    uint8_t *owned;
} gbuf;

typedef struct gview {
    uint32_t buffer;
    size_t offset, length, stride; /* stride 0: tightly packed */
} gview;

typedef struct gacc {
    int32_t view; /* -1: all zeros (before sparse) */
    size_t offset, count, stride, elem;
    uint32_t ctype, ncomp, csize;
    int normalized;
    size_t scount; /* sparse: 0 none */
    uint32_t sview, sctype, vview;
    size_t soffset, voffset;
} gacc;

enum { A_POS, A_NRM, A_TAN, A_UV0, A_UV1, A_COL, A_NUM };

typedef struct gprim {
    int32_t attr[A_NUM]; /* accessor indices, -1 absent */
    int32_t indices;
    int32_t material;
    uint32_t mode;
    size_t num_vertices, num_triangles;
    int triangles; /* a mode that makes triangles */
} gprim;

typedef struct gmesh {
    size_t first, count; /* into the primitive table */
} gmesh;

typedef struct gnode {
    double local[16];
    double world[16];
    int32_t mesh, camera, parent;
    const cJSON *children;
    int reached;
} gnode;

typedef struct gctx {
    const char *file, *dir;
    rc_error *err;
    const rc_gltf_options *opt;
    size_t limit, used;
    int notices;
    const uint8_t *bin; /* the GLB's BIN chunk */
    size_t bin_len;
    int is_glb;
    int quantized; /* KHR_mesh_quantization is used: integer vertex attributes allowed */
    cJSON *root;
    /* the top-level arrays, as element pointers */
    const cJSON **a_buffers, **a_views, **a_accs, **a_meshes, **a_nodes, **a_mats, **a_texs,
        **a_imgs, **a_samps, **a_cams, **a_scenes;
    int n_buffers, n_views, n_accs, n_meshes, n_nodes, n_mats, n_texs, n_imgs, n_samps, n_cams,
        n_scenes;
    gbuf *bufs;
    gview *views;
    gacc *accs;
    gprim *prims;
    size_t n_prims;
    gmesh *meshes;
    gnode *nodes;
    int32_t *order; /* the scene's nodes, depth first */
    size_t n_order;
    rc_import *out;
} gctx;

/* ---- gltf_json.c: messages ---- */

/* "file: elem: what" (elem NULL or empty: "file: what") into c->err; returns -1. */
int gltf_fail(gctx *c, const char *elem, const char *fmt, ...) ECHO_PRINTF(3, 4);
/* One line "file: elem: what" to the options' notice callback, at most 16 a file. */
void gltf_notice(gctx *c, const char *elem, const char *what);
/* Element paths for messages: "parent.key", "parent[i]" into buf; returns buf. */
const char *gltf_jpath(char *buf, size_t cap, const char *parent, const char *key);
const char *gltf_jindex(char *buf, size_t cap, const char *parent, long i);

/* ---- gltf_json.c: memory ---- */

/* Take `bytes` from the memory budget, or fail naming `what`. */
int gltf_charge(gctx *c, size_t bytes, const char *elem, const char *what);
/* n zeroed elements of the result, counted in im->bytes; NULL when out of memory. */
void *gltf_alloc_out(rc_import *im, size_t n, size_t elem);
/* Loops over at least this many vertices, indices or values run over all threads; each keeps
 * the serial loop's result (the first bad element is the one reported). */
#define GLTF_PAR 65536

/* ---- gltf_json.c: JSON fields ---- */

const cJSON *gltf_jget(const cJSON *o, const char *key);
/* An optional object field: 0 absent (*out NULL), 1 present, -1 not an object. */
int gltf_jobject(gctx *c, const cJSON *o, const char *path, const char *key, const cJSON **out);
/* An optional array field: 0 absent, 1 present (n elements), -1 not an array. */
int gltf_jarray(gctx *c, const cJSON *o, const char *path, const char *key, const cJSON **out,
                int *n);
/* An integer in [lo, hi]; absent: def, or an error when required. */
int gltf_juint(gctx *c, const cJSON *o, const char *path, const char *key, int required, size_t def,
               size_t lo, size_t hi, size_t *out);
/* An index into a top-level array of n elements named `arr`; absent: -1 unless required. */
int gltf_jref(gctx *c, const cJSON *o, const char *path, const char *key, int required, int n,
              const char *arr, int32_t *out);
/* A finite number in [lo, hi]; absent: def. */
int gltf_jnum(gctx *c, const cJSON *o, const char *path, const char *key, double def, double lo,
              double hi, float *out);
/* true or false; absent: 0. */
int gltf_jbool(gctx *c, const cJSON *o, const char *path, const char *key, int *out);
/* An optional string: NULL when absent; -1 when not a string. */
int gltf_jstring(gctx *c, const cJSON *o, const char *path, const char *key, const char **out);
/* Exactly n numbers in [lo, hi] (finite); absent: *present 0 and out untouched. */
int gltf_jnums(gctx *c, const cJSON *o, const char *path, const char *key, int n, double lo,
               double hi, double *out, int *present);

/* ---- gltf_uri.c ---- */

/* A data: URI of one of the allowed media types (NULL-terminated) into a new buffer. */
int gltf_data_uri(gctx *c, const char *elem, const char *uri, const char *const *types,
                  uint8_t **out, size_t *len, const char **mime);
/* A relative file URI (no scheme, not absolute, no ".." segment) into a new buffer, read only
 * when it is a regular file in or below the glTF file's directory. */
int gltf_read_uri_file(gctx *c, const char *elem, const char *uri, uint8_t **out, size_t *len);

/* ---- gltf_buffers.c ---- */

/* The tables c->bufs, c->views, c->accs, in this order. */
int gltf_read_buffers(gctx *c);
int gltf_read_views(gctx *c);
int gltf_read_accessors(gctx *c);
/* The first byte of buffer view `view`. */
const uint8_t *gltf_view_data(const gctx *c, uint32_t view);
/* Accessor ai (ncomp components each) as floats, sparse values substituted; non-finite
 * values refused, naming the accessor and `use`. */
int gltf_read_floats(gctx *c, int ai, float *out, const char *use);
/* Accessor ai of unsigned integers, sparse values substituted. */
int gltf_read_uints(gctx *c, int ai, uint32_t *out);

/* ---- gltf_materials.c ---- */

/* The result's samplers, textures (after the samplers) and materials; need_default: one more
 * material, the default, for primitives that name none. */
int gltf_read_samplers(gctx *c);
int gltf_read_textures(gctx *c);
int gltf_read_materials(gctx *c, int need_default);

/* ---- gltf_images.c ---- */

/* The result's images, decoded. */
int gltf_read_images(gctx *c);

/* ---- gltf_meshes.c ---- */

/* The primitives' table c->prims and c->meshes (after the accessors). */
int gltf_read_meshes(gctx *c);

/* ---- gltf_parts.c ---- */

/* The result's instances and parts, for the scene's nodes in c->order, within the budget. */
int gltf_build_parts(gctx *c);

/* ---- gltf_nodes.c ---- */

/* The cameras' fields, before any node refers to them. */
int gltf_check_cameras(gctx *c);
/* The table c->nodes: local transforms and parents (a forest). */
int gltf_read_nodes(gctx *c);
/* The scene to read: world transforms and c->order, its nodes depth first. */
int gltf_select_scene(gctx *c);
/* The result's camera: the first perspective camera of the scene's nodes, if any. */
int gltf_read_camera(gctx *c);

#endif /* RC_GLTF_INTERNAL_H */
