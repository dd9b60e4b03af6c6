/* scene_view.h: everything per-ray code reads about a scene, as plain pointers into flat
 * arrays (host memory for the CPU backend, device memory for the CUDA backend). */
#ifndef RC_SCENE_VIEW_H
#define RC_SCENE_VIEW_H

#include "background.h"
#include "bvh.h"
#include "camera.h"
#include "envmap.h"
#include "light.h"
#include "material.h"
#include "surface.h"

/* What a scene uses beyond the RTIOW models on plain primitives (rc_scene_view.features). Per-ray
 * code tests these bits where it branches into the newer work, so a kernel instance built for
 * the classic scenes (a view with features 0, kernels.cuh's rc_kernel_view) compiles none of
 * it: fewer registers and instructions where the old scenes are rendered. */
#define RC_FEAT_MODELS   0x1u  /* glTF models, or a scattering surface that also emits */
#define RC_FEAT_TEXTURES 0x2u  /* textures or vertex colours */
#define RC_FEAT_ENV      0x4u  /* an environment map */
#define RC_FEAT_MESH     0x8u  /* vertex data (shading normals, uvs) */
#define RC_FEAT_INST     0x10u /* instances (inst.h); the traversal tests bvh.inst.count */

typedef struct rc_scene_view {
    rc_bvh_view bvh;              /* geometry: nodes and primitives in leaf order */
    const rc_material *materials; /* indexed by rc_prim_material() */
    uint32_t num_materials;
    rc_background background;
    rc_camera camera;         /* made for the image's aspect ratio */
    rc_light_view lights;     /* emissive quads and spheres, for next-event estimation */
    rc_mesh_view mesh;        /* per-vertex data of triangle meshes (mesh.h) */
    rc_texture_view textures; /* the materials' textures (texture.h) */
    rc_env_view env;          /* the environment map when background.type is RC_BG_ENV */
    uint32_t features;        /* RC_FEAT_* */
} rc_scene_view;

/* Radiance arriving along unit direction d from outside the scene. */
RC_FN rc_vec3 rc_scene_background(const rc_scene_view *sc, rc_vec3 d) {
    if ((sc->features & RC_FEAT_ENV) && sc->background.type == RC_BG_ENV)
        return rc_env_radiance(&sc->env, d);
    return rc_background_radiance(&sc->background, d);
}

/* Primitive `id` as shading reads it: bvh.h's record for a one-level primitive; an instanced
 * one in world space (inst.h's rc_bvh_prim_ref, into *buf) with its light-table probability in
 * pad, found from the table's CDF as scene.c's build_lights gives a one-level light's. *tri:
 * its entry of the vertex data (RC_NO_TRI for none; tri may be NULL). */
RC_FN const rc_prim *rc_scene_prim(const rc_scene_view *sc, uint32_t id, rc_prim *buf,
                                   uint32_t *tri) {
    const rc_instance *in;
    uint32_t stored;
    const rc_prim *pr = rc_bvh_prim_ref(&sc->bvh, id, buf, &in, &stored);
    const uint32_t *prim_tri = in ? sc->bvh.inst.prim_tri : sc->mesh.prim_tri;
    if (tri) *tri = prim_tri ? prim_tri[stored] : RC_NO_TRI;
    if (in && in->light != RC_NO_PRIM && sc->bvh.inst.light_rank &&
        sc->bvh.inst.light_rank[stored] != RC_NO_PRIM) {
        const uint32_t e = in->light + sc->bvh.inst.light_rank[stored];
        const float c = sc->lights.cdf[e], prev = e > 0 ? sc->lights.cdf[e - 1] : 0.0f;
        const float share = 1.0f - sc->lights.env_prob;
        buf->pad = share == 1.0f ? c - prev : (c - prev) * share;
    }
    return pr;
}

#endif /* RC_SCENE_VIEW_H */
