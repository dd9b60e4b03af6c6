/* env_load.h: an equirectangular environment map on the host: a Radiance HDR file decoded
 * (stb_image), and the tables that sample it by luminance (core/envmap.h says the mapping
 * and how per-ray code reads them).
 *
 *   rc_env_map env;
 *   if (rc_env_load_file("sky.hdr", limit, &env, &err) != 0) -> err.msg
 *   rc_env_view v = rc_env_view_make(&env, 90.0f, 1.0f);   // rc_env_bytes(&env) to budget
 *   ...
 *   rc_env_free(&env);
 *
 * Only Radiance HDR (.hdr, RGBE, flat or run-length scanlines, "-Y H +X W"); OpenEXR is not
 * supported (no OpenEXR decoder is a dependency of the project). Texels that are negative or
 * not finite are refused, not clamped: the RGBE format cannot hold them, so one found means
 * a broken decoder or a caller's bug (rc_env_build), and a clamped value would hide it.
 *
 * The sampling weight of texel (i, j) is
 *     w_ij = sin(theta_j) * max(L_ij, floor)   where L_ij > 0,   0 where L_ij = 0,
 * theta_j the polar angle of row j's centre, L_ij the mean over the texel of the luminance
 * (Rec. 709: 0.2126 R + 0.7152 G + 0.0722 B) of the bilinear radiance, that is the 3 x 3
 * neighbourhood weighted (1/8, 3/4, 1/8) on each axis (u wrapping, v clamped, as the lookup
 * does), and floor 1e-3 times the mean of L over the map, so that every texel whose radiance
 * is not zero keeps a CDF interval wide enough to be drawn. A map that is black everywhere
 * samples by sin(theta) alone (uniform over the sphere). */
#ifndef RC_ENV_LOAD_H
#define RC_ENV_LOAD_H

#include "../core/envmap.h"
#include "rc_error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rc_env_map {
    float *rgb;      /* width * height * 3 */
    float *pdf;      /* width * height */
    float *cond_cdf; /* height * (width + 1) */
    float *marg_cdf; /* height + 1 */
    uint32_t width, height;
    double mean_luminance; /* of the texels, for messages and exposure */
} rc_env_map;

/* The bytes a w x h map takes with its tables (what rc_env_bytes will say). */
size_t rc_env_bytes_for(uint32_t w, uint32_t h);
size_t rc_env_bytes(const rc_env_map *e);

/* A map from w x h RGB floats (top row first), copied; its tables built. Sides 1 to 16384,
 * rc_env_bytes_for(w, h) at most max_bytes. */
int rc_env_build(const char *name, const float *rgb, uint32_t w, uint32_t h, size_t max_bytes,
                 rc_env_map *out, rc_error *err);

/* A Radiance HDR file's bytes: the size from the header first (refused before decoding when
 * too large), every scanline checked complete, then decoded and built. Errors:
 * "name: not a Radiance HDR image (why)", "name: WxH pixels ...". */
int rc_env_from_memory(const char *name, const unsigned char *bytes, size_t len, size_t max_bytes,
                       rc_env_map *out, rc_error *err);

/* The same from a file: a regular file only, opened without blocking, at most max_bytes. */
int rc_env_load_file(const char *path, size_t max_bytes, rc_env_map *out, rc_error *err);

void rc_env_free(rc_env_map *e);

/* What per-ray code reads: rotation in degrees about +Y, scale multiplies the radiance. */
rc_env_view rc_env_view_make(const rc_env_map *e, float rotation_deg, float scale);

#ifdef __cplusplus
}
#endif
#endif /* RC_ENV_LOAD_H */
