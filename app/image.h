/* image.h: writing rendered images (8-bit sRGB PNG, or float PFM) and reading PFM back. */
#ifndef RC_IMAGE_H
#define RC_IMAGE_H

#include "rc_error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The sRGB transfer function of a linear value, clamped to [0, 1] (NaN -> 0). */
float rc_linear_to_srgb(float v);

/* How a PNG shows the film (core/tonemap.h): radiance times 2^exposure, then the tone map. */
typedef struct rc_display {
    float exposure; /* in stops (EV); 0: as rendered */
    int tonemap;    /* RC_TONEMAP_*; clip: the colour as it is */
} rc_display;
/* "clip", "reinhard", "aces"; NULL for another value. */
const char *rc_tonemap_name(int op);
/* The tone map named `s` into *op: 0, or -1 for an unknown name. */
int rc_tonemap_parse(const char *s, int *op);
/* The names for messages and --help: "clip, reinhard, aces". */
const char *rc_tonemap_names(void);
/* An exposure a command line may give: finite, within +-RC_EXPOSURE_MAX stops. */
#define RC_EXPOSURE_MAX 20.0

/* Write linear RGB (3 floats per pixel, top row first) to `path`: .png -> 8-bit sRGB through
 * `d` (NULL: exposure 0, clip), .pfm -> 32-bit float linear (`d` does not apply). Written to a
 * temporary file beside it, then renamed, so a reader never sees a half-written image. Through
 * a symbolic link, the link's target is written and the link stays (out_path.h). */
int rc_image_write_display(const char *path, const float *rgb, uint32_t width, uint32_t height,
                           const rc_display *d, rc_error *err);
/* rc_image_write_display with NULL: as rendered, clipped. */
int rc_image_write(const char *path, const float *rgb, uint32_t width, uint32_t height,
                   rc_error *err);

/* Read a colour PFM ("PF", little-endian) from a regular file (rc_open_regular); *rgb is
 * malloc'd, top row first. */
int rc_pfm_read(const char *path, float **rgb, uint32_t *width, uint32_t *height, rc_error *err);

/* Root mean square difference over all channels of two images of n pixels. */
double rc_image_rmse(const float *a, const float *b, size_t n);
/* RMSE between the block x block block means of two images clamped to [0, 1] (as displayed):
 * per-pixel noise averages out, systematic differences remain. */
double rc_image_block_rmse(const float *a, const float *b, uint32_t w, uint32_t h, uint32_t block);

#ifdef __cplusplus
}
#endif
#endif /* RC_IMAGE_H */
