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
#define RC_FEAT_MODELS   0x1u /* glTF models, or a scattering surface that also emits */
#define RC_FEAT_TEXTURES 0x2u /* textures or vertex colours */
#define RC_FEAT_ENV      0x4u /* an environment map */
#define RC_FEAT_MESH     0x8u /* vertex data (shading normals, uvs) */

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

#endif /* RC_SCENE_VIEW_H */
