/* tonemap.h: what turns the film's linear radiance into a displayable colour in [0, 1] before
 * the sRGB transfer function: an exposure (a factor of 2^EV) and one of the tone maps below. The
 * PNG writer (image.c) runs it on the CPU; the viewer's display shader (shaders/display.frag)
 * has the same formulas in GLSL. PFM output stays linear and unmapped. */
#ifndef RC_TONEMAP_H
#define RC_TONEMAP_H

#include "vec.h"

/* The tone maps, listed from the plainest:
 *   clip:     the colour as it is (the sRGB step clamps it to [0, 1]): highlights burn out;
 *   reinhard: L / (1 + L) on the luminance, the colour scaled with it (Reinhard, Stark,
 *             Shirley and Ferwerda 2002, "Photographic Tone Reproduction for Digital Images",
 *             eq. 3): no value burns out, hues are kept, contrast drops;
 *   aces:     Narkowicz's 2015 fit of the ACES reference rendering and output transforms
 *             (ODT(RRT(x)) for Rec. 709 without its gamma) per channel, x (2.51 x + 0.03) /
 *             (x (2.43 x + 0.59) + 0.14), pre-exposed so that 1 maps to about 0.8: a filmic
 *             toe and shoulder. */
enum { RC_TONEMAP_CLIP = 0, RC_TONEMAP_REINHARD = 1, RC_TONEMAP_ACES = 2, RC_TONEMAP_COUNT };

RC_FN float rc_aces_fit(float x) {
    x = fmaxf(x, 0.0f);
    return fminf(1.0f, (x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f));
}

/* The colour c (linear, exposure applied) through tone map `op` (RC_TONEMAP_*). */
RC_FN rc_vec3 rc_tonemap(int op, rc_vec3 c) {
    if (op == RC_TONEMAP_REINHARD) {
        float l = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
        return l > 0.0f ? rc_scale(c, 1.0f / (1.0f + l)) : rc_v3s(0.0f);
    }
    if (op == RC_TONEMAP_ACES) return rc_v3(rc_aces_fit(c.x), rc_aces_fit(c.y), rc_aces_fit(c.z));
    return c;
}

#endif /* RC_TONEMAP_H */
