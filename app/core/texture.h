/* texture.h: image textures for per-ray code: RGBA8 texels in a mip pyramid, glTF's wrap
 * modes, nearest / bilinear / trilinear filtering, a KHR_texture_transform uv transform, and
 * the level of detail of a ray cone.
 *
 * Texture coordinates follow glTF: (0, 0) is the top-left corner of the image (its first row
 * of texels), u grows to the right and v downwards; texel (x, y) covers
 * [x / w, (x + 1) / w) x [y / h, (y + 1) / h) and its centre is at ((x + 0.5) / w, (y + 0.5) / h).
 * A mesh whose v grows upwards (OBJ) passes 1 - v.
 *
 * Colours come back as linear RGBA floats. An sRGB texture's texels go through the sRGB
 * decoding curve (IEC 61966-2-1) one by one before they are filtered, so a filtered value is
 * a mean of light, not of encoded numbers; alpha is always linear. */
#ifndef RC_TEXTURE_H
#define RC_TEXTURE_H

#include "vec.h"

/* Four floats: a linear colour and its alpha. */
typedef struct rc_rgba {
    float r, g, b, a;
} rc_rgba;

/* glTF 2.0 sampler wrap modes (the OpenGL enum values glTF files carry). */
enum { RC_WRAP_REPEAT = 10497, RC_WRAP_CLAMP_TO_EDGE = 33071, RC_WRAP_MIRRORED_REPEAT = 33648 };

/* Filters. NEAREST and BILINEAR read level 0 and ignore the level of detail; TRILINEAR reads
 * the two levels around it (floor and ceil of lod, clamped to the pyramid) and blends them. */
enum { RC_FILTER_NEAREST = 0, RC_FILTER_BILINEAR = 1, RC_FILTER_TRILINEAR = 2 };

#define RC_TEX_MAX_LEVELS 16 /* 16384 x 16384 down to 1 x 1 is 15 levels */
#define RC_TEX_MAX_SIZE   16384

/* One texture. Its texels lie in the table's storage (rc_texture_view.texels) from `base`
 * on; level l is width[l] x height[l] texels, row by row from the top, at base + offset[l].
 * A texel is one uint32_t: R in bits 0-7, G 8-15, B 16-23, A 24-31 (the bytes R, G, B, A in
 * memory on a little-endian machine; the host packs them with shifts, so the layout is the
 * same everywhere).
 *
 * xform is KHR_texture_transform's matrix T * R * S, its first two rows, row by row:
 * u' = xform[0] u + xform[1] v + xform[2], v' = xform[3] u + xform[4] v + xform[5]
 * (rc_tex_transform_make). The identity is {1, 0, 0, 0, 1, 0}. */
typedef struct rc_texture {
    uint64_t base;
    uint32_t offset[RC_TEX_MAX_LEVELS];
    uint32_t width[RC_TEX_MAX_LEVELS];
    uint32_t height[RC_TEX_MAX_LEVELS];
    uint32_t levels; /* 1 .. RC_TEX_MAX_LEVELS */
    uint32_t srgb;   /* 1: R, G, B are sRGB-encoded; 0: linear */
    uint32_t wrap_s, wrap_t;
    uint32_t filter;
    float xform[6];
} rc_texture;

/* The texture table as per-ray code reads it: records and the one array of texels they
 * point into (host memory for the CPU backend, device memory for the CUDA backend). */
typedef struct rc_texture_view {
    const rc_texture *textures;
    const uint32_t *texels;
    uint32_t count;
} rc_texture_view;

/* KHR_texture_transform: offset, rotation (radians, counter-clockwise in uv) and scale as the
 * extension's matrix T(offset) * R(rotation) * S(scale), where
 * R = [cos r, sin r; -sin r, cos r] (the extension's README, "rotation"). */
RC_FN void rc_tex_transform_make(float offset_u, float offset_v, float rotation, float scale_u,
                                 float scale_v, float xform[6]) {
    float c = cosf(rotation), s = sinf(rotation);
    xform[0] = c * scale_u;
    xform[1] = s * scale_v;
    xform[2] = offset_u;
    xform[3] = -s * scale_u;
    xform[4] = c * scale_v;
    xform[5] = offset_v;
}

/* The sRGB decoding curve (IEC 61966-2-1:1999), the exact piecewise form: linear below the
 * knee at 0.04045, the 2.4 power above it. c in [0, 1]. */
RC_FN float rc_tex_srgb_to_linear(float c) {
    return c <= 0.04045f ? c * (1.0f / 12.92f) : powf((c + 0.055f) * (1.0f / 1.055f), 2.4f);
}
/* Its inverse, for the host's mip filter and for tests. */
RC_FN float rc_tex_linear_to_srgb(float l) {
    return l <= 0.0031308f ? l * 12.92f : 1.055f * powf(l, 1.0f / 2.4f) - 0.055f;
}

/* One packed texel as linear RGBA. */
RC_FN rc_rgba rc_tex_decode(uint32_t t, uint32_t srgb) {
    const float k = 1.0f / 255.0f;
    rc_rgba c;
    c.r = (float)(t & 255u) * k;
    c.g = (float)((t >> 8) & 255u) * k;
    c.b = (float)((t >> 16) & 255u) * k;
    c.a = (float)(t >> 24) * k;
    if (srgb) {
        c.r = rc_tex_srgb_to_linear(c.r);
        c.g = rc_tex_srgb_to_linear(c.g);
        c.b = rc_tex_srgb_to_linear(c.b);
    }
    return c;
}

/* A texel index i (any integer the callers below produce, |i| < 2^24) wrapped into [0, n). */
RC_FN int32_t rc_tex_wrap_index(int32_t i, int32_t n, uint32_t mode) {
    if (mode == RC_WRAP_CLAMP_TO_EDGE) return i < 0 ? 0 : (i >= n ? n - 1 : i);
    if (mode == RC_WRAP_MIRRORED_REPEAT) {
        /* period 2n: 0 .. n-1 forwards, then n-1 .. 0 (texel -1 is texel 0, as in OpenGL) */
        int32_t p = 2 * n, m = i % p;
        if (m < 0) m += p;
        return m < n ? m : p - 1 - m;
    }
    int32_t m = i % n; /* REPEAT, and any other value */
    return m < 0 ? m + n : m;
}

/* A texture coordinate brought into a range where texel indices stay small integers: one
 * period for REPEAT, two (a forward and a mirrored copy) for MIRRORED_REPEAT, [-1, 2] for
 * CLAMP_TO_EDGE (everything outside reads the edge anyway). Not finite: 0. */
RC_FN float rc_tex_reduce(float u, uint32_t mode) {
    if (!(fabsf(u) < 1e30f)) return 0.0f;
    if (mode == RC_WRAP_CLAMP_TO_EDGE) return fminf(fmaxf(u, -1.0f), 2.0f);
    if (mode == RC_WRAP_MIRRORED_REPEAT) return u - 2.0f * floorf(0.5f * u);
    return u - floorf(u);
}

RC_FN uint32_t rc_tex_fetch(const rc_texture_view *v, const rc_texture *t, uint32_t level,
                            int32_t x, int32_t y) {
    return v->texels[t->base + t->offset[level] + (uint64_t)y * t->width[level] + (uint64_t)x];
}

RC_FN rc_rgba rc_rgba_lerp(rc_rgba a, rc_rgba b, float f) {
    rc_rgba c;
    c.r = a.r + (b.r - a.r) * f;
    c.g = a.g + (b.g - a.g) * f;
    c.b = a.b + (b.b - a.b) * f;
    c.a = a.a + (b.a - a.a) * f;
    return c;
}

/* The texel under (u, v) at one level (u, v already transformed). */
RC_FN rc_rgba rc_tex_nearest(const rc_texture_view *v, const rc_texture *t, uint32_t level, float s,
                             float r) {
    int32_t w = (int32_t)t->width[level], h = (int32_t)t->height[level];
    s = rc_tex_reduce(s, t->wrap_s);
    r = rc_tex_reduce(r, t->wrap_t);
    int32_t x = rc_tex_wrap_index((int32_t)floorf(s * (float)w), w, t->wrap_s);
    int32_t y = rc_tex_wrap_index((int32_t)floorf(r * (float)h), h, t->wrap_t);
    return rc_tex_decode(rc_tex_fetch(v, t, level, x, y), t->srgb);
}

/* Bilinear between the four texel centres around (u, v) at one level; each texel is decoded
 * to linear before the weights apply, and each of the four is wrapped on its own (so REPEAT
 * blends the last column with the first, CLAMP_TO_EDGE holds the edge texel). */
RC_FN rc_rgba rc_tex_bilinear(const rc_texture_view *v, const rc_texture *t, uint32_t level,
                              float s, float r) {
    int32_t w = (int32_t)t->width[level], h = (int32_t)t->height[level];
    float x = rc_tex_reduce(s, t->wrap_s) * (float)w - 0.5f;
    float y = rc_tex_reduce(r, t->wrap_t) * (float)h - 0.5f;
    float x0f = floorf(x), y0f = floorf(y);
    float fx = x - x0f, fy = y - y0f;
    int32_t x0 = (int32_t)x0f, y0 = (int32_t)y0f;
    int32_t xa = rc_tex_wrap_index(x0, w, t->wrap_s), xb = rc_tex_wrap_index(x0 + 1, w, t->wrap_s);
    int32_t ya = rc_tex_wrap_index(y0, h, t->wrap_t), yb = rc_tex_wrap_index(y0 + 1, h, t->wrap_t);
    rc_rgba c00 = rc_tex_decode(rc_tex_fetch(v, t, level, xa, ya), t->srgb);
    rc_rgba c10 = rc_tex_decode(rc_tex_fetch(v, t, level, xb, ya), t->srgb);
    rc_rgba c01 = rc_tex_decode(rc_tex_fetch(v, t, level, xa, yb), t->srgb);
    rc_rgba c11 = rc_tex_decode(rc_tex_fetch(v, t, level, xb, yb), t->srgb);
    return rc_rgba_lerp(rc_rgba_lerp(c00, c10, fx), rc_rgba_lerp(c01, c11, fx), fy);
}

/* The texture's colour at uv for level of detail lod (level 0 = full resolution; a lod of
 * rc_cone_lod, which already counts the texture's size), as linear RGBA. The uv transform
 * applies first. An id outside the table gives opaque magenta, which stands out. */
RC_FN rc_rgba rc_tex_sample(const rc_texture_view *v, uint32_t tex_id, float u, float vv,
                            float lod) {
    if (tex_id >= v->count) {
        rc_rgba m = {1.0f, 0.0f, 1.0f, 1.0f};
        return m;
    }
    const rc_texture *t = &v->textures[tex_id];
    const float *m = t->xform;
    float s = m[0] * u + m[1] * vv + m[2];
    float r = m[3] * u + m[4] * vv + m[5];
    if (t->filter == RC_FILTER_NEAREST) return rc_tex_nearest(v, t, 0, s, r);
    if (t->filter != RC_FILTER_TRILINEAR || t->levels <= 1) return rc_tex_bilinear(v, t, 0, s, r);
    float top = (float)(t->levels - 1);
    float l = lod > 0.0f ? (lod < top ? lod : top) : 0.0f; /* NaN: level 0 */
    float lf = floorf(l);
    uint32_t l0 = (uint32_t)lf;
    float f = l - lf;
    rc_rgba a = rc_tex_bilinear(v, t, l0, s, r);
    if (f <= 0.0f) return a;
    return rc_rgba_lerp(a, rc_tex_bilinear(v, t, l0 + 1, s, r), f);
}

/* ---- level of detail by ray cones ----
 * Akenine-Möller, Nilsson, Andersson, Barré-Brisebois, Toth and Karras, "Texture Level of
 * Detail Strategies for Real-Time Ray Tracing", Ray Tracing Gems, ch. 20, 2019, Sec. 20.3.4
 * (below "RTG"), and Akenine-Möller, Crassin, Boksansky, Belcour, Panteleev and Wright,
 * "Improved Shader and Texture Level of Detail Using Ray Cones", JCGT 10(1), 2021, Sec. 3
 * (below "JCGT"), which restates it.
 *
 * A cone around each ray stands for the pixel's footprint: a width w (0 at the pinhole) and
 * a spread angle gamma (the whole cone angle, as both papers use it). Along a ray segment of
 * length t the width grows linearly, w' = w + gamma t (RTG Eq. 29, the small-angle form of
 * the exact 2 t tan(gamma / 2) that JCGT's erratum gives). At a hit the texture's level of
 * detail is
 *     lambda = Delta + log2(|w| / |n . d|) + 0.5 log2(tw th)
 * with Delta = 0.5 log2(t_a / p_a) the triangle's base level: t_a its area in uv, p_a its area
 * in world space (RTG Sec. 20.3.4; RTG writes t_a with the texture's size tw x th multiplied
 * in, here that factor is the last term so that one Delta per triangle serves every texture
 * on it), n the unit surface normal and d the unit ray direction. */

typedef struct rc_cone {
    float width;  /* at the ray's origin */
    float spread; /* whole cone angle, radians */
} rc_cone;

/* The spread angle of a primary ray's cone: one pixel's angle for an image `height` pixels
 * high under a vertical field of view vfov (radians), alpha = atan(2 tan(vfov / 2) / height)
 * (RTG Eq. 30). */
RC_FN float rc_cone_spread_angle(float vfov, float height) {
    return atanf(2.0f * tanf(0.5f * vfov) / height);
}

/* A primary ray's cone: width 0 at the pinhole (RTG Sec. 20.3.4, w_0 = 0), the pixel's spread. */
RC_FN rc_cone rc_cone_primary(float vfov, float height) {
    rc_cone c;
    c.width = 0.0f;
    c.spread = rc_cone_spread_angle(vfov, height);
    return c;
}

/* The cone's width after t along the ray: w + gamma t (RTG Eq. 29). */
RC_FN float rc_cone_width_at(rc_cone c, float t) {
    return c.width + c.spread * t;
}

/* The cone leaving a hit at distance t: its width there, and the spread grown by the
 * surface spread angle beta (RTG Sec. 20.3.4: gamma_i = gamma_{i-1} + beta_i,
 * w_i = w_{i-1} + gamma_{i-1} t_i). beta = 0 keeps the spread, which is exact for a mirror
 * reflection off a flat surface; RTG estimates beta for curved surfaces from the normal's
 * screen-space derivatives in a G-buffer, and JCGT (Sec. 4) from the triangle's curvature.
 * For a rough or diffuse bounce a cone no longer describes the scattered rays (the lobe is
 * much wider than any pixel); a renderer passes a large beta there or stops filtering
 * (lod 0 is the sharp answer, never a blurred one). */
RC_FN rc_cone rc_cone_propagate(rc_cone c, float t, float beta) {
    rc_cone r;
    r.width = rc_cone_width_at(c, t);
    r.spread = c.spread + beta;
    return r;
}

/* Delta = 0.5 log2(t_a / p_a) for a triangle with world positions p0, p1, p2 and texture
 * coordinates (u, v) 0, 1, 2, the coordinates in uv units (the texture's size comes in
 * rc_cone_lod). Both areas as the doubled ones the cross products give; their ratio is the
 * same. A triangle degenerate in uv or in space gives -inf or +inf; rc_cone_lod clamps. */
RC_FN float rc_tri_lod_constant(rc_vec3 p0, rc_vec3 p1, rc_vec3 p2, float u0, float v0, float u1,
                                float v1, float u2, float v2) {
    float t_a = fabsf((u1 - u0) * (v2 - v0) - (u2 - u0) * (v1 - v0));
    float p_a = rc_length(rc_cross(rc_sub(p1, p0), rc_sub(p2, p0)));
    return 0.5f * log2f(t_a / p_a);
}

/* lambda = Delta + log2(|w| / |n . d|) + 0.5 log2(tw th): the level for a texture of tw x th
 * texels seen by a cone of width `width` at the hit, n . d the cosine between the unit
 * normal and the unit ray direction (RTG Sec. 20.3.4). Not finite (a zero width, a grazing
 * hit, a degenerate triangle): 0 for -inf and NaN, a large level for +inf; rc_tex_sample
 * clamps to the pyramid. */
RC_FN float rc_cone_lod(float delta, float width, float n_dot_d, float tw, float th) {
    float l = delta + log2f(fabsf(width) / fabsf(n_dot_d)) + 0.5f * log2f(tw * th);
    if (l != l || l < -1e30f) return 0.0f;
    return l > 1e30f ? 1e30f : l;
}

/* rc_cone_lod for texture tex_id of the table (its level 0's size). */
RC_FN float rc_tex_cone_lod(const rc_texture_view *v, uint32_t tex_id, float delta, float width,
                            float n_dot_d) {
    if (tex_id >= v->count) return 0.0f;
    const rc_texture *t = &v->textures[tex_id];
    return rc_cone_lod(delta, width, n_dot_d, (float)t->width[0], (float)t->height[0]);
}

#endif /* RC_TEXTURE_H */
