/* mesh.h: the per-vertex data of triangle meshes as per-ray code reads it (surface.h turns a
 * hit into a surface interaction with it, alpha.h tests masked surfaces with it).
 *
 * A triangle with vertex data names its three vertices in tri_vtx, through prim_tri, which
 * follows the BVH's leaf order (the build keeps its permutation, rc_bvh.ids). Spheres, quads
 * and triangles without vertex data have none. */
#ifndef RC_MESH_H
#define RC_MESH_H

#include "prim.h"

#include <stddef.h>

/* No vertex data for this primitive. */
#define RC_NO_TRI 0xffffffffu

/* The scene's vertex data. prim_tri == NULL: no primitive has any. An attribute array NULL:
 * no vertex has it. A vertex normal of length 0 means "none" (the triangle is shaded flat). */
typedef struct rc_mesh_view {
    const uint32_t *prim_tri; /* leaf-order primitive -> its entry of tri_vtx, or RC_NO_TRI */
    const uint32_t *tri_vtx;  /* 3 vertex indices per entry */
    const float *normals;     /* 3 per vertex */
    const float *uvs;         /* 2 per vertex (TEXCOORD_0) */
    const float *uv1s;        /* 2 per vertex (TEXCOORD_1) */
    const float *colors;      /* 4 per vertex, linear RGBA (COLOR_0) */
    const float *tangents;    /* 4 per vertex (TANGENT: xyz, w = +-1 handedness; 0 0 0 0: none) */
} rc_mesh_view;

/* The barycentrics (b1, b2) of the point where o + t d meets triangle pr, by the same
 * arithmetic as rc_triangle_hit (Moeller & Trumbore 1997), so that they belong to the very
 * hit the traversal found. The hit keeps only (t, primitive) on its way through the stream:
 * recomputing the two barycentrics here costs two cross and three dot products once per hit,
 * where carrying them would hold two more registers through every step of the traversal. */
RC_FN void rc_triangle_bary(const rc_prim *pr, rc_vec3 o, rc_vec3 d, float *b1, float *b2) {
    rc_vec3 pv = rc_cross(d, pr->b);
    float det = rc_dot(pr->a, pv);
    float inv = det != 0.0f ? 1.0f / det : 0.0f;
    rc_vec3 tv = rc_sub(o, pr->p);
    *b1 = rc_dot(tv, pv) * inv;
    *b2 = rc_dot(d, rc_cross(tv, pr->a)) * inv;
}

/* An attribute of k floats (k <= 4) of entry `tri` interpolated at barycentrics (b1, b2). */
RC_FN void rc_mesh_lerp(const float *attr, int k, const uint32_t *vi, float b1, float b2,
                        float *out) {
    float b0 = 1.0f - b1 - b2;
    for (int c = 0; c < k; c++)
        out[c] = b0 * attr[(size_t)k * vi[0] + c] + b1 * attr[(size_t)k * vi[1] + c] +
                 b2 * attr[(size_t)k * vi[2] + c];
}

/* The shading normal and texture coordinates of triangle entry `tri` at barycentrics
 * (b1, b2): the vertex normals interpolated and normalized (none, or a degenerate sum:
 * `ng`), the uvs interpolated. */
RC_FN void rc_mesh_interpolate(const rc_mesh_view *m, uint32_t tri, float b1, float b2, rc_vec3 ng,
                               rc_vec3 *ns, float *u, float *v) {
    const uint32_t *vi = m->tri_vtx + 3 * (size_t)tri;
    float b0 = 1.0f - b1 - b2;
    *ns = ng;
    *u = *v = 0.0f;
    if (m->normals) {
        const float *n0 = m->normals + 3 * (size_t)vi[0], *n1 = m->normals + 3 * (size_t)vi[1],
                    *n2 = m->normals + 3 * (size_t)vi[2];
        rc_vec3 n =
            rc_v3(b0 * n0[0] + b1 * n1[0] + b2 * n2[0], b0 * n0[1] + b1 * n1[1] + b2 * n2[1],
                  b0 * n0[2] + b1 * n1[2] + b2 * n2[2]);
        float l2 = rc_dot(n, n);
        if (l2 > 1e-12f) *ns = rc_scale(n, 1.0f / sqrtf(l2));
    }
    if (m->uvs) {
        const float *t0 = m->uvs + 2 * (size_t)vi[0], *t1 = m->uvs + 2 * (size_t)vi[1],
                    *t2 = m->uvs + 2 * (size_t)vi[2];
        *u = b0 * t0[0] + b1 * t1[0] + b2 * t2[0];
        *v = b0 * t0[1] + b1 * t1[1] + b2 * t2[1];
    }
}

#endif /* RC_MESH_H */
