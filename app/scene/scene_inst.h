/* scene_inst.h: what scene.c asks of scene_inst.c (the instances of a scene). */
#ifndef RC_SCENE_INST_H
#define RC_SCENE_INST_H

#include "scene.h"

/* Take the meshes not yet built out of the scene's primitives (input order) and build each
 * one's BVH in object space, packed into s->inst. 0, or -1 with err set. */
int rc_scene_inst_meshes(rc_scene *s, rc_error *err);
/* The top-level BVH over the instances' world boxes, the instances in its leaf order with their
 * primitive ids after the one-level BVH's (s->bvh built). 0, or -1 with err set. */
int rc_scene_inst_top(rc_scene *s, rc_error *err);
void rc_scene_inst_free(rc_scene *s);
/* The inverse of the affine transform xf (3 rows of 4) in double: 0; -2 when singular (the
 * determinant of the linear part below 1e-12 of the product of its rows' lengths) or not
 * finite in float. */
int rc_affine_invert(const double xf[12], double inv[12]);
/* The traversal's view of the instances, host arrays (count 0 without any). */
rc_inst_view rc_scene_inst_view(const rc_scene *s, uint32_t layout);
/* The bytes of the instances' arrays a traversal of `layout` reads. */
size_t rc_scene_inst_device_bytes(const rc_scene *s, uint32_t layout);
/* What the host holds of the instances beyond their device bytes: the meshes' trees in the
 * layout not uploaded, the instances in input order. */
size_t rc_scene_inst_host_extra_bytes(const rc_scene *s);

#endif /* RC_SCENE_INST_H */
