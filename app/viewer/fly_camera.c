/* fly_camera.c: moving and turning the scene's camera. */
#include "fly_camera.h"

#define RC_TURN_PER_PIXEL 0.004f /* radians */

static rc_vec3 forward_of(const rc_camera_desc *d) {
    return rc_normalize(rc_sub(d->look_at, d->look_from));
}

/* Keep the look-at point at the focus distance, so the lens focuses where it did. */
static void set_forward(rc_fly_camera *c, rc_vec3 f) {
    c->desc.look_at = rc_add(c->desc.look_from, rc_scale(f, c->desc.focus_distance));
}

void rc_fly_init(rc_fly_camera *c, const rc_camera_desc *scene_camera, float aspect) {
    c->home = *scene_camera;
    c->aspect = aspect;
    float dist = rc_length(rc_sub(scene_camera->look_at, scene_camera->look_from));
    float focus = scene_camera->focus_distance > 0.0f ? scene_camera->focus_distance : dist;
    c->step = 0.04f * (focus > 0.0f ? focus : 1.0f);
    rc_fly_home(c);
}

void rc_fly_home(rc_fly_camera *c) {
    c->desc = c->home;
    if (!(c->desc.focus_distance > 0.0f))
        c->desc.focus_distance = rc_length(rc_sub(c->home.look_at, c->home.look_from));
    set_forward(c, forward_of(&c->home));
}

void rc_fly_move(rc_fly_camera *c, float right, float up, float forward) {
    rc_vec3 f = forward_of(&c->desc);
    rc_vec3 u = rc_normalize(c->desc.up);
    rc_vec3 r = rc_normalize(rc_cross(f, u));
    rc_vec3 d = rc_add(rc_add(rc_scale(r, right), rc_scale(u, up)), rc_scale(f, forward));
    c->desc.look_from = rc_add(c->desc.look_from, rc_scale(d, c->step));
    set_forward(c, f);
}

/* Rodrigues: v turned by `angle` about the unit axis k. */
static rc_vec3 rotate(rc_vec3 v, rc_vec3 k, float angle) {
    float s = sinf(angle), co = cosf(angle);
    rc_vec3 t = rc_add(rc_scale(v, co), rc_scale(rc_cross(k, v), s));
    return rc_add(t, rc_scale(k, rc_dot(k, v) * (1.0f - co)));
}

void rc_fly_turn(rc_fly_camera *c, float dx, float dy) {
    rc_vec3 u = rc_normalize(c->desc.up);
    rc_vec3 f = rotate(forward_of(&c->desc), u, -dx * RC_TURN_PER_PIXEL);
    rc_vec3 r = rc_normalize(rc_cross(f, u));
    rc_vec3 g = rotate(f, r, -dy * RC_TURN_PER_PIXEL);
    /* Stop short of the up axis, where the camera basis would flip. */
    if (fabsf(rc_dot(g, u)) < 0.98f) f = g;
    set_forward(c, rc_normalize(f));
}

rc_camera rc_fly_camera_get(const rc_fly_camera *c) {
    return rc_camera_make(&c->desc, c->aspect);
}
