/* scene.c: the host-side scene container and its BVH. */
#include "scene.h"

#include <stdlib.h>
#include <string.h>

void rc_scene_init(rc_scene *s) {
    memset(s, 0, sizeof *s);
    s->camera.look_from = rc_v3(0.0f, 0.0f, 1.0f);
    s->camera.look_at = rc_v3(0.0f, 0.0f, 0.0f);
    s->camera.up = rc_v3(0.0f, 1.0f, 0.0f);
    s->camera.vfov = 40.0f;
    s->camera.aperture = 0.0f;
    s->camera.focus_distance = 1.0f;
    s->background.type = RC_BG_SKY;
    s->background.bottom = rc_v3(1.0f, 1.0f, 1.0f);
    s->background.top = rc_v3(0.5f, 0.7f, 1.0f);
    s->defaults.width = RC_DEFAULT_WIDTH;
    s->defaults.height = RC_DEFAULT_HEIGHT;
    s->defaults.spp = RC_DEFAULT_SPP;
    s->defaults.max_depth = RC_DEFAULT_MAX_DEPTH;
}

void rc_scene_free(rc_scene *s) {
    if (!s) return;
    free(s->prims);
    free(s->materials);
    rc_bvh_free(&s->bvh);
    memset(s, 0, sizeof *s);
}

long rc_scene_add_material(rc_scene *s, const rc_material *m) {
    if (s->num_materials >= RC_PRIM_MAX_MATERIALS) return -1;
    if (rc_grow((void **)&s->materials, &s->cap_materials, s->num_materials + 1, sizeof *m) != 0)
        return -1;
    s->materials[s->num_materials] = *m;
    return (long)s->num_materials++;
}

int rc_scene_add_prim(rc_scene *s, const rc_prim *p) {
    if (s->num_prims >= UINT32_MAX / 2 || (s->max_prims && s->num_prims >= s->max_prims)) return -1;
    if (rc_grow((void **)&s->prims, &s->cap_prims, s->num_prims + 1, sizeof *p) != 0) return -1;
    s->prims[s->num_prims++] = *p;
    return 0;
}

static rc_prim make_prim(uint32_t type, uint32_t material, rc_vec3 p, float r, rc_vec3 a,
                         rc_vec3 b) {
    rc_prim pr;
    memset(&pr, 0, sizeof pr);
    pr.p = p;
    pr.r = r;
    pr.a = a;
    pr.b = b;
    pr.type_mat = rc_prim_pack(type, material);
    return pr;
}

int rc_scene_add_sphere(rc_scene *s, rc_vec3 center, float radius, uint32_t material) {
    rc_prim p = make_prim(RC_PRIM_SPHERE, material, center, radius, rc_v3s(0), rc_v3s(0));
    if (rc_scene_add_prim(s, &p) != 0) return -1;
    s->num_spheres++;
    return 0;
}

int rc_scene_add_quad(rc_scene *s, rc_vec3 corner, rc_vec3 u, rc_vec3 v, uint32_t material) {
    rc_prim p = make_prim(RC_PRIM_QUAD, material, corner, 0.0f, u, v);
    if (rc_scene_add_prim(s, &p) != 0) return -1;
    s->num_quads++;
    return 0;
}

int rc_scene_add_triangle(rc_scene *s, rc_vec3 a, rc_vec3 b, rc_vec3 c, uint32_t material) {
    rc_prim p = make_prim(RC_PRIM_TRIANGLE, material, a, 0.0f, rc_sub(b, a), rc_sub(c, a));
    if (rc_scene_add_prim(s, &p) != 0) return -1;
    s->num_triangles++;
    return 0;
}

int rc_scene_finish(rc_scene *s, rc_error *err) {
    rc_bvh_free(&s->bvh);
    double t0 = rc_now_ms();
    if (rc_bvh_build(s->prims, (uint32_t)s->num_prims, &s->bvh) != 0)
        return rc_fail(err, "out of memory building the BVH of %zu primitives", s->num_prims);
    s->bvh_build_ms = rc_now_ms() - t0;
    return 0;
}

rc_scene_view rc_scene_view_make(const rc_scene *s, uint32_t width, uint32_t height) {
    rc_scene_view v;
    memset(&v, 0, sizeof v);
    v.bvh = rc_bvh_view_of(&s->bvh);
    v.materials = s->materials;
    v.num_materials = (uint32_t)s->num_materials;
    v.background = s->background;
    v.camera = rc_camera_make(&s->camera, (float)width / (float)height);
    return v;
}
