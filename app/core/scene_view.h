/* scene_view.h: everything per-ray code reads about a scene, as plain pointers into flat
 * arrays (host memory for the CPU backend, device memory for the CUDA backend). */
#ifndef RC_SCENE_VIEW_H
#define RC_SCENE_VIEW_H

#include "background.h"
#include "bvh.h"
#include "camera.h"
#include "light.h"
#include "material.h"
#include "surface.h"

typedef struct rc_scene_view {
    rc_bvh_view bvh;              /* geometry: nodes and primitives in leaf order */
    const rc_material *materials; /* indexed by rc_prim_material() */
    uint32_t num_materials;
    rc_background background;
    rc_camera camera;     /* made for the image's aspect ratio */
    rc_light_view lights; /* emissive quads and spheres, for next-event estimation */
    rc_mesh_view mesh;    /* per-vertex data of triangle meshes (surface.h) */
} rc_scene_view;

#endif /* RC_SCENE_VIEW_H */
