/* film.h: the film in fixed point. Each pixel keeps, per channel, the sum of its samples as a
 * 64-bit integer in units of 2^-32: a sample's value v adds round(v * 2^32). Integer addition
 * is associative, so the film does not depend on how the samples are grouped: in sample order,
 * in waves, or as partial films of several processes added together (the MPI render sums the
 * ranks' films with one reduction). A float sum would change with the grouping.
 *
 * Range: a sample counts at most RC_FILM_SAMPLE_MAX (NaN and +Inf count as that, -Inf as its
 * negative, so a broken path shows as a saturated pixel, not a silent black one); a pixel's
 * sum stays exact up to 2^31 (about 2e9: a million samples of 2000 each). The sums are added
 * as unsigned 64-bit integers: wrap-around, never undefined behaviour, and still associative.
 * Shared by the CPU loop (accumulate.c), the kernel (accumulate.cu) and the flat megakernel. */
#ifndef RC_FILM_H
#define RC_FILM_H

#include "../core/rc_hd.h"
#include "../core/vec.h"

#include <stdint.h>

#define RC_FILM_FRAC_BITS  32
#define RC_FILM_ONE        4294967296.0 /* 2^RC_FILM_FRAC_BITS: the film's unit is 1 / this */
#define RC_FILM_SAMPLE_MAX 1048576.0f   /* 2^20: larger values, NaN and Inf are clamped */

/* One channel of one sample in film units: v * 2^32 is exact in a double (24-bit mantissa),
 * and adding 0.5 before truncating rounds half away from zero exactly (|v * 2^32| <= 2^52),
 * so the CPU and the GPU compute the same integer. */
RC_FN int64_t rc_film_units(float v) {
    if (!(v <= RC_FILM_SAMPLE_MAX)) v = RC_FILM_SAMPLE_MAX; /* also NaN */
    if (v < -RC_FILM_SAMPLE_MAX) v = -RC_FILM_SAMPLE_MAX;
    double x = (double)v * RC_FILM_ONE;
    return (int64_t)(x >= 0.0 ? x + 0.5 : x - 0.5);
}

/* film[3 p .. 3 p + 2] += the sample's value, wrapping. */
RC_FN void rc_film_add(int64_t *px, rc_vec3 v) {
    px[0] = (int64_t)((uint64_t)px[0] + (uint64_t)rc_film_units(v.x));
    px[1] = (int64_t)((uint64_t)px[1] + (uint64_t)rc_film_units(v.y));
    px[2] = (int64_t)((uint64_t)px[2] + (uint64_t)rc_film_units(v.z));
}

/* The mean of a channel's sum over `samples` (>= 1) as a float: sum / 2^32 / samples, in
 * double, rounded once to float (the same on the CPU and the GPU: IEEE division). */
RC_FN float rc_film_value(int64_t sum, uint32_t samples) {
    return (float)((double)sum / RC_FILM_ONE / (double)samples);
}

#endif /* RC_FILM_H */
