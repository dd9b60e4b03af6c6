/* surface.h: the surface model. A hit (distance and leaf-order primitive) becomes one record,
 * the surface interaction: the point, the geometric normal (it decides the side a ray leaves
 * on), the shading normal (interpolated vertex normals, what the material sees), the texture
 * coordinates, the barycentrics and the material. Shade (path.h) works on it; every kernel that
 * shades rounds its arithmetic the same way (the app's CUDA code is built with --fmad=false, and
 * vec.h writes its multiply-adds out), so the film is the same bytes whichever kernel shaded a
 * path.
 *
 * Triangle meshes carry per-vertex data in indexed arrays: a triangle with vertex data names
 * its three vertices in tri_vtx, through prim_tri, which follows the BVH's leaf order (the
 * build keeps its permutation, rc_bvh.ids). Spheres, quads and triangles without vertex data
 * produce the same record with the shading normal equal to the geometric one. */
#ifndef RC_SURFACE_H
#define RC_SURFACE_H

#include "bvh.h"
#include "mesh.h"

#include <stddef.h>

/* An instanced triangle's interpolated shading normal (vertex-data entry `tri`): the vertex
 * normals into the world by the inverse transpose (inst.h) and normalised, then interpolated at
 * (b1, b2) and normalised; ng where the sum vanishes. A zero vertex normal ("none") adds
 * nothing. */
RC_FN rc_vec3 rc_inst_shading_normal(const rc_instance *in, const rc_mesh_view *m, uint32_t tri,
                                     float b1, float b2, rc_vec3 ng) {
    const uint32_t *vi = m->tri_vtx + 3 * (size_t)tri;
    const float b[3] = {1.0f - b1 - b2, b1, b2};
    rc_vec3 sum = rc_v3s(0.0f);
    for (int k = 0; k < 3; k++) {
        const float *nk = m->normals + 3 * (size_t)vi[k];
        rc_vec3 w = rc_xf_normal(in, rc_v3(nk[0], nk[1], nk[2]));
        const float l2 = rc_dot(w, w);
        if (l2 > 0.0f) w = rc_scale(w, 1.0f / sqrtf(l2));
        sum = rc_add(sum, rc_scale(w, b[k]));
    }
    const float l2 = rc_dot(sum, sum);
    return l2 > 1e-12f ? rc_scale(sum, 1.0f / sqrtf(l2)) : ng;
}

/* The surface interaction at a hit. */
typedef struct rc_surface {
    rc_vec3 p;         /* the point: origin + t * dir */
    rc_vec3 ng;        /* unit geometric normal, turned to face the ray */
    rc_vec3 ns;        /* unit shading normal, on ng's side of the surface */
    float u, v;        /* texture coordinates (0, 0 without vertex data) */
    float b1, b2;      /* barycentrics of vertices 1 and 2 (triangles; 0 otherwise) */
    uint32_t material; /* index into the scene's materials */
    int front;         /* 1: the ray came from the side the primitive's own normal points to */
    uint32_t prim;     /* the leaf-order primitive */
    uint32_t tri;      /* its entry of the vertex data (mesh.h), RC_NO_TRI for none */
    int smooth;        /* ns is interpolated (it may differ from ng) */
} rc_surface;

/* The surface interaction of the hit at distance t of the ray o + t d (unit d) on leaf-order
 * primitive `prim`. The geometric normal is the primitive's, turned towards the ray; the
 * shading normal is first put on the side of the primitive's own normal (vertex normals that
 * disagree with the winding are turned, not trusted), then turned with it. has_mesh 0: the
 * primitive has no vertex data whatever the mesh view says (rc_scene_view.features). */
RC_FN rc_surface rc_surface_at(const rc_bvh_view *bvh, const rc_mesh_view *mesh, int has_mesh,
                               uint32_t prim, rc_vec3 o, rc_vec3 d, float t) {
    /* an instanced primitive comes in world space, its vertex data through its mesh (inst.h) */
    rc_prim wp;
    const rc_instance *in;
    uint32_t stored;
    const rc_prim *pr = rc_bvh_prim_ref(bvh, prim, &wp, &in, &stored);
    const uint32_t *prim_tri = in ? bvh->inst.prim_tri : mesh->prim_tri;
    rc_surface s;
    s.p = rc_add(o, rc_scale(d, t));
    s.material = rc_prim_material(pr);
    rc_vec3 n = rc_prim_normal(pr, s.p);
    s.ns = n;
    s.u = s.v = s.b1 = s.b2 = 0.0f;
    s.prim = prim;
    uint32_t tri = has_mesh && prim_tri ? prim_tri[stored] : RC_NO_TRI;
    s.tri = tri;
    s.smooth = 0;
    if (tri != RC_NO_TRI) {
        rc_triangle_bary(pr, o, d, &s.b1, &s.b2);
        if (in) {
            /* vertex normals are the mesh's, in object space: each one into the world by the
               inverse transpose and normalised, then interpolated, as a copy of the mesh
               placed in the world has them (scene_import.c) */
            rc_mesh_interpolate(mesh, tri, s.b1, s.b2, n, &s.ns, &s.u, &s.v);
            if (mesh->normals) s.ns = rc_inst_shading_normal(in, mesh, tri, s.b1, s.b2, n);
        } else {
            rc_mesh_interpolate(mesh, tri, s.b1, s.b2, n, &s.ns, &s.u, &s.v);
        }
        if (rc_dot(s.ns, n) < 0.0f) s.ns = rc_neg(s.ns);
        s.smooth = mesh->normals != NULL;
    }
    s.front = rc_dot(d, n) < 0.0f;
    s.ng = s.front ? n : rc_neg(n);
    if (!s.front) s.ns = rc_neg(s.ns);
    return s;
}

#endif /* RC_SURFACE_H */
