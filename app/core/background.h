/* background.h: the radiance of rays that leave the scene. */
#ifndef RC_BACKGROUND_H
#define RC_BACKGROUND_H

#include "vec.h"

enum { RC_BG_CONSTANT = 0, RC_BG_SKY = 1, RC_BG_ENV = 2 };

/* 32 bytes.
 *   constant: every direction has radiance `bottom`
 *   sky:      RTIOW's gradient, `bottom` straight down to `top` straight up, linear in the
 *             direction's y (defaults: white to (0.5, 0.7, 1.0))
 *   env:      the scene's environment map (envmap.h, rc_scene_view.env); this record unused */
typedef struct rc_background {
    rc_vec3 bottom;
    uint32_t type;
    rc_vec3 top;
    float pad;
} rc_background;

/* Radiance arriving along unit direction d from the background. */
RC_FN rc_vec3 rc_background_radiance(const rc_background *bg, rc_vec3 d) {
    if (bg->type == RC_BG_SKY) return rc_lerp(bg->bottom, bg->top, 0.5f * (d.y + 1.0f));
    return bg->bottom;
}

#endif /* RC_BACKGROUND_H */
