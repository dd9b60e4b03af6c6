/* alpha.h: alpha-masked surfaces (glTF alphaMode MASK, and BLEND read as MASK, import.h): a
 * ray passes through a masked surface where its alpha is below the material's cutoff. The
 * traversal asks here for every candidate hit on a primitive flagged RC_PRIM_MASKED, for the
 * nearest hit (extend) and for any hit (shadow rays) alike, so a path and its light samples see
 * the same holes. Alpha is the base colour's factor times the base colour texture's A (level 0,
 * bilinear: the traversal has no ray cone; a mask's edge is wanted sharp) times the vertex
 * colour's A. */
#ifndef RC_ALPHA_H
#define RC_ALPHA_H

#include "material.h"
#include "mesh.h"
#include "texture.h"

/* What the test reads: the scene's materials, vertex data and textures. */
typedef struct rc_alpha_view {
    const rc_material *materials;
    rc_mesh_view mesh;
    rc_texture_view textures;
} rc_alpha_view;

/* The uv set a texture of the material reads (flag: its RC_MATF_UV1_* bit), at (b1, b2) of
 * triangle entry tri. 0 0 without vertex uvs. */
RC_FN void rc_material_uv(const rc_mesh_view *mesh, uint32_t tri, int uv1, float b1, float b2,
                          float uv[2]) {
    const float *a = uv1 && mesh->uv1s ? mesh->uv1s : mesh->uvs;
    uv[0] = uv[1] = 0.0f;
    if (a && tri != RC_NO_TRI) rc_mesh_lerp(a, 2, mesh->tri_vtx + 3 * (size_t)tri, b1, b2, uv);
}

/* The material's alpha at barycentrics (b1, b2) of triangle entry tri (RC_NO_TRI: a primitive
 * without vertex data, the factor alone). */
RC_FN float rc_material_alpha(const rc_material *m, const rc_mesh_view *mesh,
                              const rc_texture_view *tex, uint32_t tri, float b1, float b2) {
    float a = m->alpha;
    if (tri == RC_NO_TRI) return a;
    if (m->tex_base != RC_NO_TEXTURE) {
        float uv[2];
        rc_material_uv(mesh, tri, (m->flags & RC_MATF_UV1_BASE) != 0u, b1, b2, uv);
        a *= rc_tex_sample(tex, m->tex_base - 1u, uv[0], uv[1], 0.0f).a;
    }
    if ((m->flags & RC_MATF_VERTEX_COLOR) && mesh->colors) {
        float c[4];
        rc_mesh_lerp(mesh->colors, 4, mesh->tri_vtx + 3 * (size_t)tri, b1, b2, c);
        a *= c[3];
    }
    return a;
}

/* Whether material m is solid at barycentrics (b1, b2) of triangle entry tri: its alpha at or
 * above the cutoff. */
RC_FN int rc_alpha_solid(const rc_material *m, const rc_mesh_view *mesh, const rc_texture_view *tex,
                         uint32_t tri, float b1, float b2) {
    return rc_material_alpha(m, mesh, tex, tri, b1, b2) >= m->alpha_cutoff;
}

/* Whether the hit of o + t d on masked leaf-order primitive `prim` counts (alpha at or above
 * the cutoff). */
RC_FN int rc_alpha_hit(const rc_alpha_view *av, const rc_prim *pr, uint32_t prim, rc_vec3 o,
                       rc_vec3 d) {
    const rc_material *m = &av->materials[rc_prim_material(pr)];
    uint32_t tri = av->mesh.prim_tri ? av->mesh.prim_tri[prim] : RC_NO_TRI;
    float b1 = 0.0f, b2 = 0.0f;
    if (tri != RC_NO_TRI) rc_triangle_bary(pr, o, d, &b1, &b2);
    return rc_alpha_solid(m, &av->mesh, &av->textures, tri, b1, b2);
}

#endif /* RC_ALPHA_H */
