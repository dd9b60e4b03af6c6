/* rng.h: a counter-based random number generator.
 *
 * Every random number is a hash of its key (pixel, sample, bounce, dimension) and nothing
 * else: there is no state that advances from one call to the next. So the numbers a path
 * draws do not depend on where it sits in the ray stream, on which thread shades it or on
 * which compaction algorithm moved it, and every algorithm renders a bit-identical image. */
#ifndef RC_RNG_H
#define RC_RNG_H

#include "rc_hd.h"

/* The dimensions of one bounce. The camera uses its own four at bounce 0; shading uses the
 * rest at every bounce, so no two decisions of a path ever share a key. */
enum {
    RC_DIM_PIXEL_X = 0, /* jitter inside the pixel */
    RC_DIM_PIXEL_Y,
    RC_DIM_LENS_U, /* thin-lens aperture sample */
    RC_DIM_LENS_V,
    RC_DIM_SCATTER_U, /* direction sample of the material */
    RC_DIM_SCATTER_V,
    RC_DIM_SCATTER_W, /* third coordinate of a fuzz sample */
    RC_DIM_CHOICE,    /* dielectric: reflect or refract */
    RC_DIM_ROULETTE,  /* Russian roulette */
    RC_DIM_LIGHT,     /* next-event estimation: which light (light.h) */
    RC_DIM_LIGHT_U,   /* the point on it */
    RC_DIM_LIGHT_V
};

/* The bounce argument of the key carries the render's seed above the bounce (bounces fit 8
 * bits): seed 0 draws what the renderer always drew, and every other seed an independent set. */
#define RC_SEED_SHIFT 8u
#define RC_MAX_SEED   ((1u << (32u - RC_SEED_SHIFT)) - 1u)

/* pcg4d (Jarzynski & Olano, "Hash Functions for GPU Rendering", JCGT 2020): a 4-D hash
 * that mixes all four inputs into each output; we use the first output. */
RC_FN uint32_t rc_hash4(uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
    x = x * 1664525u + 1013904223u;
    y = y * 1664525u + 1013904223u;
    z = z * 1664525u + 1013904223u;
    w = w * 1664525u + 1013904223u;
    x += y * w;
    y += z * x;
    z += x * y;
    w += y * z;
    x ^= x >> 16;
    y ^= y >> 16;
    z ^= z >> 16;
    w ^= w >> 16;
    x += y * w;
    y += z * x;
    z += x * y;
    w += y * z;
    return x;
}

/* A uniform float in [0, 1): the top 24 bits of the hash. */
RC_FN float rc_rand(uint32_t pixel, uint32_t sample, uint32_t bounce, uint32_t dim) {
    return (float)(rc_hash4(pixel, sample, bounce, dim) >> 8) * (1.0f / 16777216.0f);
}

#endif /* RC_RNG_H */
