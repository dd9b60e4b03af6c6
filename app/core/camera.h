/* camera.h: a thin-lens camera (RTIOW "defocus blur"): rays start on a disk of radius
 * aperture / 2 around the eye and pass through the image plane at the focus distance. */
#ifndef RC_CAMERA_H
#define RC_CAMERA_H

#include "vec.h"

/* The image plane sits at the focus distance: pixel (s, t) in [0,1]^2, t = 1 at the top,
 * lies at lower_left + s * horizontal + t * vertical. */
typedef struct rc_camera {
    rc_vec3 origin;     /* eye, the centre of the lens */
    rc_vec3 lower_left; /* image-plane corner at s = 0, t = 0 */
    rc_vec3 horizontal; /* image-plane edge along s */
    rc_vec3 vertical;   /* image-plane edge along t */
    rc_vec3 u, v;       /* lens basis: camera right and up */
    float lens_radius;  /* aperture / 2; 0 = pinhole */
    float tan_half_fov; /* tan(vfov / 2): a pixel row's angle is about 2 tan_half_fov / height */
} rc_camera;

/* The parameters a scene file gives; vfov in degrees, aspect = width / height. */
typedef struct rc_camera_desc {
    rc_vec3 look_from, look_at, up;
    float vfov, aperture, focus_distance;
} rc_camera_desc;

RC_FN rc_camera rc_camera_make(const rc_camera_desc *d, float aspect) {
    rc_camera c;
    float h = tanf(d->vfov * (RC_PI / 360.0f));
    float height = 2.0f * h * d->focus_distance;
    float width = aspect * height;
    rc_vec3 w = rc_normalize(rc_sub(d->look_from, d->look_at));
    c.u = rc_normalize(rc_cross(d->up, w));
    c.v = rc_cross(w, c.u);
    c.origin = d->look_from;
    c.horizontal = rc_scale(c.u, width);
    c.vertical = rc_scale(c.v, height);
    c.lower_left =
        rc_sub(rc_sub(rc_sub(c.origin, rc_scale(c.horizontal, 0.5f)), rc_scale(c.vertical, 0.5f)),
               rc_scale(w, d->focus_distance));
    c.lens_radius = 0.5f * d->aperture;
    c.tan_half_fov = h;
    return c;
}

/* Shirley & Chiu's concentric map: the unit square onto the unit disk, area-preserving. */
RC_FN void rc_concentric_disk(float a, float b, float *x, float *y) {
    float sx = 2.0f * a - 1.0f, sy = 2.0f * b - 1.0f;
    if (sx == 0.0f && sy == 0.0f) {
        *x = *y = 0.0f;
        return;
    }
    float r, phi;
    if (fabsf(sx) > fabsf(sy)) {
        r = sx;
        phi = (RC_PI / 4.0f) * (sy / sx);
    } else {
        r = sy;
        phi = (RC_PI / 2.0f) - (RC_PI / 4.0f) * (sx / sy);
    }
    *x = r * cosf(phi);
    *y = r * sinf(phi);
}

/* The ray through image point (s, t) from lens sample (lu, lv) in [0,1)^2; dir is unit. */
RC_FN void rc_camera_ray(const rc_camera *c, float s, float t, float lu, float lv, rc_vec3 *o,
                         rc_vec3 *dir) {
    float dx, dy;
    rc_concentric_disk(lu, lv, &dx, &dy);
    rc_vec3 offset =
        rc_add(rc_scale(c->u, dx * c->lens_radius), rc_scale(c->v, dy * c->lens_radius));
    rc_vec3 target =
        rc_add(c->lower_left, rc_add(rc_scale(c->horizontal, s), rc_scale(c->vertical, t)));
    *o = rc_add(c->origin, offset);
    *dir = rc_normalize(rc_sub(target, *o));
}

#endif /* RC_CAMERA_H */
