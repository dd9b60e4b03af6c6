/* surface.h: the surface model. A hit (distance and leaf-order primitive) becomes one record,
 * the surface interaction: the point, the geometric normal (it decides the side a ray leaves
 * on), the shading normal (interpolated vertex normals, what the material sees), the texture
 * coordinates, the barycentrics and the material. Every kernel that shades must round its
 * arithmetic the same way (the film is the same bytes whichever kernel shaded a path), so the
 * shade phase (path.h) moves onto this record together with per-path arithmetic that the
 * compiler cannot contract into multiply-adds differently in different kernels; until then
 * shade reads the primitive's own normal.
 *
 * Triangle meshes carry per-vertex data in indexed arrays: a triangle with vertex data names
 * its three vertices in tri_vtx, through prim_tri, which follows the BVH's leaf order (the
 * build keeps its permutation, rc_bvh.ids). Spheres, quads and triangles without vertex data
 * produce the same record with the shading normal equal to the geometric one. */
#ifndef RC_SURFACE_H
#define RC_SURFACE_H

#include "bvh.h"

#include <stddef.h>

/* No vertex data for this primitive. */
#define RC_NO_TRI 0xffffffffu

/* The scene's vertex data. prim_tri == NULL: no primitive has any. normals == NULL or uvs ==
 * NULL: no vertex has that attribute. A vertex normal of length 0 means "none" (the triangle
 * is shaded flat). */
typedef struct rc_mesh_view {
    const uint32_t *prim_tri; /* leaf-order primitive -> its entry of tri_vtx, or RC_NO_TRI */
    const uint32_t *tri_vtx;  /* 3 vertex indices per entry */
    const float *normals;     /* 3 per vertex */
    const float *uvs;         /* 2 per vertex */
} rc_mesh_view;

/* The surface interaction at a hit. */
typedef struct rc_surface {
    rc_vec3 p;         /* the point: origin + t * dir */
    rc_vec3 ng;        /* unit geometric normal, turned to face the ray */
    rc_vec3 ns;        /* unit shading normal, on ng's side of the surface */
    float u, v;        /* texture coordinates (0, 0 without vertex data) */
    float b1, b2;      /* barycentrics of vertices 1 and 2 (triangles; 0 otherwise) */
    uint32_t material; /* index into the scene's materials */
    int front;         /* 1: the ray came from the side the primitive's own normal points to */
} rc_surface;

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

/* The surface interaction of the hit at distance t of the ray o + t d (unit d) on leaf-order
 * primitive `prim`. The geometric normal is the primitive's, turned towards the ray; the
 * shading normal is first put on the side of the primitive's own normal (vertex normals that
 * disagree with the winding are turned, not trusted), then turned with it. */
RC_FN rc_surface rc_surface_at(const rc_bvh_view *bvh, const rc_mesh_view *mesh, uint32_t prim,
                               rc_vec3 o, rc_vec3 d, float t) {
    const rc_prim *pr = &bvh->prims[prim];
    rc_surface s;
    s.p = rc_add(o, rc_scale(d, t));
    s.material = rc_prim_material(pr);
    rc_vec3 n = rc_prim_normal(pr, s.p);
    s.ns = n;
    s.u = s.v = s.b1 = s.b2 = 0.0f;
    uint32_t tri = mesh->prim_tri ? mesh->prim_tri[prim] : RC_NO_TRI;
    if (tri != RC_NO_TRI) {
        rc_triangle_bary(pr, o, d, &s.b1, &s.b2);
        rc_mesh_interpolate(mesh, tri, s.b1, s.b2, n, &s.ns, &s.u, &s.v);
        if (rc_dot(s.ns, n) < 0.0f) s.ns = rc_neg(s.ns);
    }
    s.front = rc_dot(d, n) < 0.0f;
    s.ng = s.front ? n : rc_neg(n);
    if (!s.front) s.ns = rc_neg(s.ns);
    return s;
}

#endif /* RC_SURFACE_H */
