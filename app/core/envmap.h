/* envmap.h: an equirectangular environment map (latitude-longitude, RGB floats) and its
 * importance sampling: directions drawn in proportion to the map's luminance.
 *
 * The mapping. +Y is up. A unit direction d = (x, y, z) has the polar angle
 * theta = acos(y) (0 straight up) and the azimuth phi = atan2(x, -z), and sits at
 *     u = 0.5 + phi / (2 pi),  v = theta / pi,
 * so the image's top row is the zenith, its centre column (u = 0.5) looks down -Z (the
 * default camera's view), u = 0.75 is +X and the left and right edges meet at +Z. Back:
 *     d = (sin theta sin phi, cos theta, -sin theta cos phi),  phi = 2 pi (u - 0.5).
 * Texel (i, j) of a W x H map covers u in [i / W, (i + 1) / W), v in [j / H, (j + 1) / H); row
 * j = 0 is the first row of the file.
 *
 * The rotation turns the map about +Y by `rotation` degrees, right-handed (counter-clockwise
 * seen from above): what the map shows at direction m is seen at R_y(rotation) m.
 *
 * The radiance is bilinear between texel centres, wrapping in u and clamping in v.
 *
 * The sampling distribution is piecewise constant over the texels, the 2-D distribution of
 * pbrt (Pharr, Jakob and Humphreys, "Physically Based Rendering", 3rd ed., Sec. 13.6.7
 * Distribution2D; 4th ed., Sec. A.5.6 PiecewiseConstant2D): a marginal density over rows and
 * a conditional density over the texels of each row. A texel's weight is the luminance of
 * the bilinear radiance averaged over the texel, times sin(theta) at the row's centre, the
 * Jacobian of the mapping (pbrt-v3 Sec. 14.2.4); see env_load.h. With p(u, v) the density in
 * the unit square, the density in solid angle is (pbrt-v3 Eq. 14.8)
 *     p(omega) = p(u, v) / (2 pi^2 sin theta).
 * The tables come from rc_env_build (env_load.h); per-ray code reads them here. */
#ifndef RC_ENVMAP_H
#define RC_ENVMAP_H

#include "vec.h"

#include <stddef.h>

typedef struct rc_env_view {
    const float *rgb;      /* width * height * 3 linear radiance, row 0 at the zenith */
    const float *pdf;      /* width * height: p(u, v) of each texel; its mean is 1 */
    const float *cond_cdf; /* height rows of width + 1: row j's CDF over its texels */
    const float *marg_cdf; /* height + 1: the CDF over rows */
    uint32_t width, height;
    float cos_rot, sin_rot; /* the rotation about +Y */
    float scale;            /* radiance multiplier */
} rc_env_view;

#define RC_INV_2PI 0.15915494309189535f

/* Map direction (no rotation) to (u, v) in [0, 1]^2. */
RC_FN void rc_env_dir_to_uv(rc_vec3 d, float *u, float *v) {
    float y = fminf(fmaxf(d.y, -1.0f), 1.0f);
    *u = 0.5f + atan2f(d.x, -d.z) * RC_INV_2PI;
    *v = acosf(y) * (1.0f / RC_PI);
}

/* (u, v) to the unit map direction (no rotation). */
RC_FN rc_vec3 rc_env_uv_to_dir(float u, float v) {
    float phi = 2.0f * RC_PI * (u - 0.5f), theta = RC_PI * v;
    float st = sinf(theta);
    return rc_v3(st * sinf(phi), cosf(theta), -st * cosf(phi));
}

/* World direction to map direction: R_y(-rotation) d. */
RC_FN rc_vec3 rc_env_to_map(const rc_env_view *e, rc_vec3 d) {
    return rc_v3(e->cos_rot * d.x - e->sin_rot * d.z, d.y, e->sin_rot * d.x + e->cos_rot * d.z);
}
/* Map direction to world direction: R_y(rotation) m. */
RC_FN rc_vec3 rc_env_from_map(const rc_env_view *e, rc_vec3 m) {
    return rc_v3(e->cos_rot * m.x + e->sin_rot * m.z, m.y, -e->sin_rot * m.x + e->cos_rot * m.z);
}

RC_FN rc_vec3 rc_env_texel(const rc_env_view *e, uint32_t i, uint32_t j) {
    const float *p = e->rgb + ((size_t)j * e->width + i) * 3;
    return rc_v3(p[0], p[1], p[2]);
}

/* The map's bilinear radiance at (u, v). */
RC_FN rc_vec3 rc_env_lookup_uv(const rc_env_view *e, float u, float v) {
    int32_t w = (int32_t)e->width, h = (int32_t)e->height;
    if (!(u == u)) u = 0.0f;
    if (!(v == v)) v = 0.0f;
    u -= floorf(u);
    v = fminf(fmaxf(v, 0.0f), 1.0f);
    float x = u * (float)w - 0.5f, y = v * (float)h - 0.5f;
    float x0f = floorf(x), y0f = floorf(y);
    float fx = x - x0f, fy = y - y0f;
    int32_t x0 = (int32_t)x0f, y0 = (int32_t)y0f;
    int32_t xa = x0 < 0 ? x0 + w : (x0 >= w ? x0 - w : x0);
    int32_t xb = x0 + 1 >= w ? x0 + 1 - w : x0 + 1;
    int32_t ya = y0 < 0 ? 0 : (y0 >= h ? h - 1 : y0);
    int32_t yb = y0 + 1 >= h ? h - 1 : (y0 + 1 < 0 ? 0 : y0 + 1);
    rc_vec3 top = rc_lerp(rc_env_texel(e, (uint32_t)xa, (uint32_t)ya),
                          rc_env_texel(e, (uint32_t)xb, (uint32_t)ya), fx);
    rc_vec3 bot = rc_lerp(rc_env_texel(e, (uint32_t)xa, (uint32_t)yb),
                          rc_env_texel(e, (uint32_t)xb, (uint32_t)yb), fx);
    return rc_lerp(top, bot, fy);
}

/* Radiance arriving along unit world direction d from the environment. */
RC_FN rc_vec3 rc_env_radiance(const rc_env_view *e, rc_vec3 d) {
    float u, v;
    rc_env_dir_to_uv(rc_env_to_map(e, d), &u, &v);
    return rc_scale(rc_env_lookup_uv(e, u, v), e->scale);
}

/* The interval of cdf[0..n] (cdf[0] = 0, cdf[n] = 1, non-decreasing) holding x in [0, 1):
 * the largest i < n with cdf[i] <= x, so cdf[i] <= x < cdf[i + 1] and the interval has
 * non-zero width. */
RC_FN uint32_t rc_env_find_interval(const float *cdf, uint32_t n, float x) {
    uint32_t lo = 0, hi = n; /* cdf[lo] <= x < cdf[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cdf[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The density in solid angle with which rc_env_sample draws world direction d (unit). */
RC_FN float rc_env_pdf(const rc_env_view *e, rc_vec3 d) {
    rc_vec3 m = rc_env_to_map(e, d);
    float u, v;
    rc_env_dir_to_uv(m, &u, &v);
    float st = sqrtf(fmaxf(0.0f, m.x * m.x + m.z * m.z));
    if (!(st > 0.0f)) return 0.0f;
    float fi = floorf((u - floorf(u)) * (float)e->width), fj = floorf(v * (float)e->height);
    uint32_t i = fi < (float)e->width ? (uint32_t)fi : e->width - 1;
    uint32_t j = fj < (float)e->height ? (uint32_t)fj : e->height - 1;
    return e->pdf[(size_t)j * e->width + i] / (2.0f * RC_PI * RC_PI * st);
}

/* Draw a world direction from u1, u2 in [0, 1): the row from u2 by the marginal CDF, the
 * texel and the place inside it from u1 by that row's CDF (pbrt-v3 Sec. 13.6.7, sampling a
 * piecewise-constant function by inverting its CDF, continuously within the chosen texel).
 * Returns the radiance along *dir and its density in solid angle in *pdf; *pdf = 0 (and
 * radiance 0) for the measure-zero draws at the poles. */
RC_FN rc_vec3 rc_env_sample(const rc_env_view *e, float u1, float u2, rc_vec3 *dir, float *pdf) {
    const float one_minus = 0.99999994f; /* the largest float below 1 */
    u1 = fminf(fmaxf(u1, 0.0f), one_minus);
    u2 = fminf(fmaxf(u2, 0.0f), one_minus);
    uint32_t j = rc_env_find_interval(e->marg_cdf, e->height, u2);
    float c0 = e->marg_cdf[j], c1 = e->marg_cdf[j + 1];
    float dv = c1 > c0 ? (u2 - c0) / (c1 - c0) : 0.5f;
    const float *row = e->cond_cdf + (size_t)j * (e->width + 1);
    uint32_t i = rc_env_find_interval(row, e->width, u1);
    float r0 = row[i], r1 = row[i + 1];
    float du = r1 > r0 ? (u1 - r0) / (r1 - r0) : 0.5f;
    float u = ((float)i + fminf(du, one_minus)) / (float)e->width;
    float v = ((float)j + fminf(dv, one_minus)) / (float)e->height;
    float theta = RC_PI * v, st = sinf(theta);
    float p = e->pdf[(size_t)j * e->width + i];
    rc_vec3 m = rc_env_uv_to_dir(u, v);
    *dir = rc_env_from_map(e, m);
    if (!(st > 0.0f) || !(p > 0.0f)) {
        *pdf = 0.0f;
        return rc_v3s(0.0f);
    }
    *pdf = p / (2.0f * RC_PI * RC_PI * st);
    return rc_scale(rc_env_lookup_uv(e, u, v), e->scale);
}

#endif /* RC_ENVMAP_H */
