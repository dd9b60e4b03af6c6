/* path.h: the path state that flows through the ray stream, and the per-path work of each
 * phase (generate, extend, shade). The CPU backend calls these functions in OpenMP loops;
 * the CUDA kernels are one-line wrappers around the same functions. */
#ifndef RC_PATH_H
#define RC_PATH_H

#include "../core/scene_view.h"

#include <stddef.h>

/* flags: bits 0..7 the bounce (0 = the camera ray); bits 8..30 the path's sample within its
 * wave (a wave traces several samples of every pixel in one stream, wavefront.h); bit 31 set
 * while the path is alive. */
#define RC_PATH_BOUNCE_MASK  0xffu
#define RC_PATH_SAMPLE_SHIFT 8u
#define RC_PATH_SAMPLE_MASK  0x7fffff00u
#define RC_PATH_MAX_WAVE     (1u << 23) /* samples a wave can hold */
#define RC_PATH_ALIVE        0x80000000u

/* One path, 64 bytes, aligned to 16: the record the `payload` mode compacts (elem_size =
 * sizeof(rc_path)). In `indices` mode the records stay in place, one per pixel and sample, and
 * a queue of uint32 path indices is compacted instead. The CUDA kernels copy a record into
 * registers with four 16-byte loads, work on the copy and store it back the same way: one
 * field at a time, a warp's 4-byte accesses 64 bytes apart would touch every sector 16 times. */
typedef struct rc_path {
    RC_ALIGN16 rc_vec3 origin; /* ray origin */
    float t;                   /* extend: distance to the nearest hit (INFINITY on a miss) */
    rc_vec3 dir;               /* unit ray direction */
    uint32_t prim;             /* extend: nearest primitive, RC_NO_PRIM on a miss */
    rc_vec3 throughput; /* product of the scattering weights, over the roulette survival odds */
    uint32_t pixel;     /* y * width + x: the pixel this path's radiance belongs to */
    rc_vec3 radiance;   /* light gathered so far */
    uint32_t flags;     /* bits 0..7: bounce; 8..30: sample in the wave; 31: alive */
} rc_path;

/* Per-frame constants of the shading phase. */
typedef struct rc_shade_params {
    uint32_t sample;     /* sample index of the wave's first sample: with the path's place in
                            the wave, part of every random key */
    uint32_t max_depth;  /* a path ends after this many bounces */
    uint32_t rr_depth;   /* Russian roulette from this bounce on */
    uint32_t num_pixels; /* sample_rgb holds the wave's samples one image after another */
} rc_shade_params;

#define RC_RR_DEPTH 3

RC_FN int rc_path_alive(const rc_path *p) {
    return (p->flags & RC_PATH_ALIVE) != 0;
}
RC_FN uint32_t rc_path_bounce(const rc_path *p) {
    return p->flags & RC_PATH_BOUNCE_MASK;
}
/* The path's sample within its wave (0 .. samples in the wave - 1). */
RC_FN uint32_t rc_path_wave_sample(const rc_path *p) {
    return (p->flags & RC_PATH_SAMPLE_MASK) >> RC_PATH_SAMPLE_SHIFT;
}

/* generate: the camera ray of `pixel` for sample `sample + k` (the k-th sample of a wave that
 * starts at `sample`), jittered in the pixel and on the lens. */
RC_FN void rc_path_generate(const rc_camera *cam, uint32_t width, uint32_t height, uint32_t pixel,
                            uint32_t sample, uint32_t k, rc_path *p) {
    uint32_t x = pixel % width, y = pixel / width;
    sample += k;
    float s = ((float)x + rc_rand(pixel, sample, 0, RC_DIM_PIXEL_X)) / (float)width;
    float t = 1.0f - ((float)y + rc_rand(pixel, sample, 0, RC_DIM_PIXEL_Y)) / (float)height;
    rc_camera_ray(cam, s, t, rc_rand(pixel, sample, 0, RC_DIM_LENS_U),
                  rc_rand(pixel, sample, 0, RC_DIM_LENS_V), &p->origin, &p->dir);
    p->t = INFINITY;
    p->prim = RC_NO_PRIM;
    p->throughput = rc_v3s(1.0f);
    p->pixel = pixel;
    p->radiance = rc_v3s(0.0f);
    p->flags = RC_PATH_ALIVE | (k << RC_PATH_SAMPLE_SHIFT);
}

/* extend: trace the path's ray to its nearest hit. */
RC_FN void rc_path_extend(const rc_scene_view *sc, rc_path *p) {
    rc_hit h = rc_bvh_intersect(&sc->bvh, p->origin, p->dir, 0.0f, INFINITY);
    p->t = h.t;
    p->prim = h.prim;
}

/* End the path: its radiance is this sample's value of its pixel. */
RC_FN int rc_path_finish(const rc_shade_params *sp, rc_path *p, rc_vec3 *sample_rgb) {
    sample_rgb[(size_t)rc_path_wave_sample(p) * sp->num_pixels + p->pixel] = p->radiance;
    p->flags &= ~RC_PATH_ALIVE;
    return 0;
}

/* Offset a surface point along the normal to the side the new ray leaves on, scaled to the
 * point's magnitude, so the next ray does not hit the surface it starts on. */
RC_FN rc_vec3 rc_offset_origin(rc_vec3 x, rc_vec3 n, rc_vec3 dir) {
    float eps = 1e-4f * (1.0f + rc_max_abs(x));
    return rc_add(x, rc_scale(n, rc_dot(dir, n) > 0.0f ? eps : -eps));
}

/* shade: add the background (miss) or the emission (light) and end the path there; otherwise
 * scatter by the material, end absorbed paths and paths at max_depth, and play Russian
 * roulette from rr_depth on. Returns 1 if the path goes on, 0 if it ended (then its radiance
 * is in sample_rgb[pixel]). */
RC_FN int rc_path_shade(const rc_scene_view *sc, const rc_shade_params *sp, rc_path *p,
                        rc_vec3 *sample_rgb) {
    if (p->prim == RC_NO_PRIM) {
        rc_vec3 bg = rc_background_radiance(&sc->background, p->dir);
        p->radiance = rc_add(p->radiance, rc_mul(p->throughput, bg));
        return rc_path_finish(sp, p, sample_rgb);
    }
    const rc_prim *pr = &sc->bvh.prims[p->prim];
    const rc_material *m = &sc->materials[rc_prim_material(pr)];
    if (m->type == RC_MAT_EMISSIVE) {
        p->radiance = rc_add(p->radiance, rc_mul(p->throughput, m->color));
        return rc_path_finish(sp, p, sample_rgb);
    }
    uint32_t bounce = rc_path_bounce(p);
    rc_rng_key key = {p->pixel, sp->sample + rc_path_wave_sample(p), bounce};
    rc_vec3 x = rc_add(p->origin, rc_scale(p->dir, p->t));
    rc_vec3 n = rc_prim_normal(pr, x);
    int front = rc_dot(p->dir, n) < 0.0f;
    if (!front) n = rc_neg(n);
    rc_vec3 dir, weight;
    if (!rc_scatter(m, p->dir, n, front, key, &dir, &weight))
        return rc_path_finish(sp, p, sample_rgb);
    p->throughput = rc_mul(p->throughput, weight);
    bounce++;
    if (bounce >= sp->max_depth) return rc_path_finish(sp, p, sample_rgb);
    if (bounce >= sp->rr_depth) {
        /* Survive with probability q and divide by q: unbiased, and dim paths end early. */
        float q = fminf(rc_max_comp(p->throughput), 0.95f);
        if (!(rc_key_rand(key, RC_DIM_ROULETTE) < q)) return rc_path_finish(sp, p, sample_rgb);
        p->throughput = rc_scale(p->throughput, 1.0f / q);
    }
    p->origin = rc_offset_origin(x, n, dir);
    p->dir = dir;
    p->flags = (p->flags & RC_PATH_SAMPLE_MASK) | RC_PATH_ALIVE | bounce;
    return 1;
}

#endif /* RC_PATH_H */
