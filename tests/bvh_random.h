/* bvh_random.h: the BVH tests' random numbers, directions and primitives: xorshift64
 * (Marsaglia 2003) from the seed the test defines as BVH_RANDOM_SEED before including this. */
#ifndef BVH_RANDOM_H
#define BVH_RANDOM_H

#include "core/prim.h"

#include <stdint.h>

static uint64_t g_rng = BVH_RANDOM_SEED;
static float frand(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (float)(g_rng >> 40) * (1.0f / 16777216.0f);
}
static float frange(float lo, float hi) {
    return lo + (hi - lo) * frand();
}
static rc_vec3 vrand(float lo, float hi) {
    return rc_v3(frange(lo, hi), frange(lo, hi), frange(lo, hi));
}
static rc_vec3 unit_rand(void) {
    for (;;) {
        rc_vec3 v = vrand(-1, 1);
        float l = rc_length(v);
        if (l > 0.05f && l <= 1.0f) return rc_scale(v, 1.0f / l);
    }
}

static rc_prim prim(uint32_t type, rc_vec3 p, float r, rc_vec3 a, rc_vec3 b) {
    rc_prim pr = {p, r, a, rc_prim_pack(type, 0), b, 0.0f};
    return pr;
}

#endif /* BVH_RANDOM_H */
