/* gltf_parts.c: the result's parts, one for each triangle primitive of each mesh the scene's
 * nodes place: the memory they take charged first, vertices read and transformed to world
 * space, triangles unrolled by the mode and each index checked (gltf_internal.h). */
#include "gltf_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building the parts ---- */

static size_t vertex_bytes(const gctx *c, const gprim *g) {
    size_t b = 12 + 8; /* positions, uv0 */
    if (g->attr[A_NRM] >= 0) b += 12;
    if (g->attr[A_TAN] >= 0) b += 16;
    if (g->attr[A_UV1] >= 0) b += 8;
    if (g->attr[A_COL] >= 0) b += 16;
    (void)c;
    return b;
}

static int part_fail(gctx *c, const rc_import_part *pt, const char *what) {
    char p[96];
    snprintf(p, sizeof p, "meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
    return gltf_fail(c, p, "%s", what);
}

/* The triangles of a primitive: indices (or 0..n-1) unrolled by the mode, each checked. */
static int build_indices(gctx *c, const gprim *g, rc_import_part *pt, int flip) {
    size_t n = g->indices >= 0 ? c->accs[g->indices].count : g->num_vertices;
    uint32_t *src = NULL;
    if (g->indices >= 0) {
        /* a triangle list's indices are read in place, others unrolled from a copy */
        src = g->mode == 4 ? pt->indices : malloc(n * sizeof *src);
        if (!src) return part_fail(c, pt, "out of memory");
        if (gltf_read_uints(c, g->indices, src) != 0) {
            if (src != pt->indices) free(src);
            return -1;
        }
        int64_t first = (int64_t)n; /* the first index out of range, over all threads */
#pragma omp parallel for schedule(static) reduction(min : first) if (n >= GLTF_PAR)
        for (int64_t i = 0; i < (int64_t)n; i++)
            if (src[i] >= g->num_vertices && i < first) first = i;
        if (first < (int64_t)n) {
            const size_t i = (size_t)first;
            char p[64];
            int r = gltf_fail(c, gltf_jindex(p, sizeof p, "accessors", g->indices),
                              "index %u (element %zu) is not below the vertex count %zu of "
                              "meshes[%u].primitives[%u]",
                              src[i], i, g->num_vertices, pt->mesh, pt->primitive);
            if (src != pt->indices) free(src);
            return r;
        }
    }
    uint32_t *t = pt->indices;
    size_t nt = g->num_triangles;
#define IDX(i) (src ? src[i] : (uint32_t)(i))
    if (g->mode == 4) {
        if (!src)
            for (size_t i = 0; i < 3 * nt; i++) t[i] = (uint32_t)i;
    } else if (g->mode == 5) {
        for (size_t i = 0; i < nt; i++) {
            t[3 * i] = IDX(i);
            t[3 * i + 1] = IDX(i + 1 + (i % 2));
            t[3 * i + 2] = IDX(i + 2 - (i % 2));
        }
    } else {
        for (size_t i = 0; i < nt; i++) {
            t[3 * i] = IDX(i + 1);
            t[3 * i + 1] = IDX(i + 2);
            t[3 * i + 2] = IDX(0);
        }
    }
#undef IDX
    if (flip)
        for (size_t i = 0; i < nt; i++) {
            uint32_t tmp = t[3 * i + 1];
            t[3 * i + 1] = t[3 * i + 2];
            t[3 * i + 2] = tmp;
        }
    if (src != pt->indices) free(src);
    return 0;
}

static void normalize3(float *v) {
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f && isfinite(l)) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static int build_part(gctx *c, const gprim *g, const gnode *nd, rc_import_part *pt) {
    rc_import *im = c->out;
    size_t nv = g->num_vertices;
    char use[96];
    pt->num_vertices = nv;
    pt->num_triangles = g->num_triangles;
    pt->positions = gltf_alloc_out(im, nv, 12);
    pt->uv0 = gltf_alloc_out(im, nv, 8);
    pt->indices = gltf_alloc_out(im, g->num_triangles, 12);
    if (g->attr[A_NRM] >= 0) pt->normals = gltf_alloc_out(im, nv, 12);
    if (g->attr[A_TAN] >= 0) pt->tangents = gltf_alloc_out(im, nv, 16);
    if (g->attr[A_UV1] >= 0) pt->uv1 = gltf_alloc_out(im, nv, 8);
    if (g->attr[A_COL] >= 0) pt->colors = gltf_alloc_out(im, nv, 16);
    if (!pt->positions || !pt->uv0 || !pt->indices || (g->attr[A_NRM] >= 0 && !pt->normals) ||
        (g->attr[A_TAN] >= 0 && !pt->tangents) || (g->attr[A_UV1] >= 0 && !pt->uv1) ||
        (g->attr[A_COL] >= 0 && !pt->colors))
        return part_fail(c, pt, "out of memory");
    snprintf(use, sizeof use, "POSITION of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
    if (gltf_read_floats(c, g->attr[A_POS], pt->positions, use) != 0) return -1;
    if (g->attr[A_UV0] >= 0) {
        pt->has_uv0 = 1;
        snprintf(use, sizeof use, "TEXCOORD_0 of meshes[%u].primitives[%u]", pt->mesh,
                 pt->primitive);
        if (gltf_read_floats(c, g->attr[A_UV0], pt->uv0, use) != 0) return -1;
    }
    if (pt->uv1) {
        snprintf(use, sizeof use, "TEXCOORD_1 of meshes[%u].primitives[%u]", pt->mesh,
                 pt->primitive);
        if (gltf_read_floats(c, g->attr[A_UV1], pt->uv1, use) != 0) return -1;
    }
    if (pt->normals) {
        snprintf(use, sizeof use, "NORMAL of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
        if (gltf_read_floats(c, g->attr[A_NRM], pt->normals, use) != 0) return -1;
    }
    if (pt->tangents) {
        snprintf(use, sizeof use, "TANGENT of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
        if (gltf_read_floats(c, g->attr[A_TAN], pt->tangents, use) != 0) return -1;
    }
    if (pt->colors) {
        const gacc *a = &c->accs[g->attr[A_COL]];
        snprintf(use, sizeof use, "COLOR_0 of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
        if (a->ncomp == 4) {
            if (gltf_read_floats(c, g->attr[A_COL], pt->colors, use) != 0) return -1;
        } else {
            float *tmp = malloc(nv * 12);
            if (!tmp) return part_fail(c, pt, "out of memory");
            if (gltf_read_floats(c, g->attr[A_COL], tmp, use) != 0) {
                free(tmp);
                return -1;
            }
            for (size_t i = 0; i < nv; i++) {
                memcpy(pt->colors + 4 * i, tmp + 3 * i, 12);
                pt->colors[4 * i + 3] = 1.0f;
            }
            free(tmp);
        }
    }
    /* the transform: positions by M, normals by its inverse transpose (the cofactor matrix,
       signed by the determinant), tangents by M with w flipped under a mirroring */
    const double *w = nd->world;
    float m[12];
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 3; row++) m[col * 3 + row] = (float)w[col * 4 + row];
    double a00 = w[0], a10 = w[1], a20 = w[2], a01 = w[4], a11 = w[5], a21 = w[6], a02 = w[8],
           a12 = w[9], a22 = w[10];
    double cof[9] = {a11 * a22 - a12 * a21, a02 * a21 - a01 * a22, a01 * a12 - a02 * a11,
                     a12 * a20 - a10 * a22, a00 * a22 - a02 * a20, a02 * a10 - a00 * a12,
                     a10 * a21 - a11 * a20, a01 * a20 - a00 * a21, a00 * a11 - a01 * a10};
    double det = a00 * cof[0] + a01 * cof[3] + a02 * cof[6];
    float sgn = det < 0 ? -1.0f : 1.0f;
    /* n' = A^-T n: row r of A^-T is column r of A^-1 = cof rows transposed */
    float nm[9];
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) nm[r * 3 + k] = sgn * (float)cof[k * 3 + r];
    float *pos = pt->positions;
    float lo[3] = {im->bounds_min[0], im->bounds_min[1], im->bounds_min[2]},
          hi[3] = {im->bounds_max[0], im->bounds_max[1], im->bounds_max[2]};
    int infinite = 0;
    const int64_t nvs = (int64_t)nv;
    /* min and max are exact in any order: the bounds of one thread */
    /* clang-format off */
#pragma omp parallel for schedule(static) reduction(min : lo[:3]) reduction(max : hi[:3]) \
    reduction(| : infinite) if (nvs >= GLTF_PAR)
    /* clang-format on */
    for (int64_t i = 0; i < nvs; i++) {
        float x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
        for (int r = 0; r < 3; r++) {
            float v = m[r] * x + m[3 + r] * y + m[6 + r] * z + m[9 + r];
            pos[3 * i + r] = v;
            infinite |= !isfinite(v);
            if (v < lo[r]) lo[r] = v;
            if (v > hi[r]) hi[r] = v;
        }
    }
    if (infinite) {
        char p[64];
        return gltf_fail(c, gltf_jindex(p, sizeof p, "nodes", (long)(nd - c->nodes)),
                         "its transform makes POSITION of meshes[%u].primitives[%u] not finite",
                         pt->mesh, pt->primitive);
    }
    for (int r = 0; r < 3; r++) {
        im->bounds_min[r] = lo[r];
        im->bounds_max[r] = hi[r];
    }
    if (pt->normals)
#pragma omp parallel for schedule(static) if (nvs >= GLTF_PAR)
        for (int64_t i = 0; i < nvs; i++) {
            float *n = pt->normals + 3 * i, x = n[0], y = n[1], z = n[2];
            for (int r = 0; r < 3; r++)
                n[r] = nm[r * 3] * x + nm[r * 3 + 1] * y + nm[r * 3 + 2] * z;
            normalize3(n);
        }
    if (pt->tangents)
#pragma omp parallel for schedule(static) if (nvs >= GLTF_PAR)
        for (int64_t i = 0; i < nvs; i++) {
            float *t = pt->tangents + 4 * i, x = t[0], y = t[1], z = t[2];
            for (int r = 0; r < 3; r++) t[r] = m[r] * x + m[3 + r] * y + m[6 + r] * z;
            normalize3(t);
            t[3] = (t[3] < 0 ? -1.0f : 1.0f) * sgn;
        }
    return build_indices(c, g, pt, det < 0);
}

int gltf_build_parts(gctx *c) {
    rc_import *im = c->out;
    size_t n_inst = 0, n_parts = 0, bytes = 0, tris = 0;
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->mesh < 0) continue;
        n_inst++;
        const gmesh *me = &c->meshes[nd->mesh];
        for (size_t j = 0; j < me->count; j++) {
            const gprim *g = &c->prims[me->first + j];
            if (!g->triangles) continue;
            n_parts++;
            bytes = add_sat(bytes, mul_sat(g->num_vertices, vertex_bytes(c, g)));
            size_t idx = g->indices >= 0 ? c->accs[g->indices].count : 0;
            bytes = add_sat(bytes, mul_sat(g->num_triangles, 12));
            if (g->mode != 4) bytes = add_sat(bytes, mul_sat(idx, 4)); /* read, then unrolled */
            tris = add_sat(tris, g->num_triangles);
        }
    }
    bytes = add_sat(bytes, mul_sat(n_inst, sizeof *im->instances));
    bytes = add_sat(bytes, mul_sat(n_parts, sizeof *im->parts));
    if (tris > RC_GLTF_MAX_TRIANGLES)
        return gltf_fail(c, "meshes", "the scene has %zu triangles, more than %u", tris,
                         RC_GLTF_MAX_TRIANGLES);
    char what[96];
    snprintf(what, sizeof what, "the scene's %zu triangles in %zu parts", tris, n_parts);
    if (gltf_charge(c, bytes, "meshes", what) != 0) return -1;
    if ((n_inst && !(im->instances = gltf_alloc_out(im, n_inst, sizeof *im->instances))) ||
        (n_parts && !(im->parts = gltf_alloc_out(im, n_parts, sizeof *im->parts))))
        return gltf_fail(c, "meshes", "out of memory");
    for (int r = 0; r < 3; r++) {
        im->bounds_min[r] = INFINITY;
        im->bounds_max[r] = -INFINITY;
    }
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->mesh < 0) continue;
        rc_import_instance *in = &im->instances[im->num_instances];
        in->mesh = (uint32_t)nd->mesh;
        in->node = (uint32_t)c->order[k];
        for (int q = 0; q < 16; q++) in->world[q] = (float)nd->world[q];
        in->first_part = im->num_parts;
        const gmesh *me = &c->meshes[nd->mesh];
        for (size_t j = 0; j < me->count; j++) {
            const gprim *g = &c->prims[me->first + j];
            if (!g->triangles) continue;
            rc_import_part *pt = &im->parts[im->num_parts++];
            pt->mesh = (uint32_t)nd->mesh;
            pt->primitive = (uint32_t)j;
            pt->instance = (uint32_t)im->num_instances;
            pt->material = g->material >= 0 ? (uint32_t)g->material : (uint32_t)c->n_mats;
            if (build_part(c, g, nd, pt) != 0) return -1;
            im->num_vertices += pt->num_vertices;
            im->num_triangles += pt->num_triangles;
        }
        in->num_parts = im->num_parts - in->first_part;
        im->num_instances++;
    }
    if (im->num_vertices == 0)
        for (int r = 0; r < 3; r++) im->bounds_min[r] = im->bounds_max[r] = 0.0f;
    return 0;
}
