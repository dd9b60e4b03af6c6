/* texture_load.h: image textures on the host: PNG and JPEG files decoded (stb_image), their
 * mip pyramids, and the texture table that per-ray code reads through rc_texture_view
 * (core/texture.h).
 *
 *   rc_texture_table tt;
 *   rc_texture_table_init(&tt);
 *   rc_texture_image img;
 *   if (rc_texture_load_file("wood.png", 1, 1, limit, &img, &err) != 0) -> err.msg
 *   float xf[6];
 *   rc_tex_transform_make(0, 0, 0, 1, 1, xf);
 *   long id = rc_texture_table_add(&tt, &img, RC_WRAP_REPEAT, RC_WRAP_REPEAT,
 *                                  RC_FILTER_TRILINEAR, xf, &err);
 *   rc_texture_image_free(&img);
 *   rc_texture_view v = rc_texture_table_view(&tt);   // rc_texture_table_bytes(&tt) to budget
 *
 * Errors are one line, "file: what is wrong". */
#ifndef RC_TEXTURE_LOAD_H
#define RC_TEXTURE_LOAD_H

#include "../core/texture.h"
#include "rc_error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One decoded texture: all its levels packed as in rc_texture (offsets from texels[0]). */
typedef struct rc_texture_image {
    uint32_t *texels;
    size_t num_texels;
    uint32_t levels;
    uint32_t offset[RC_TEX_MAX_LEVELS];
    uint32_t width[RC_TEX_MAX_LEVELS];
    uint32_t height[RC_TEX_MAX_LEVELS];
    int srgb;
} rc_texture_image;

/* The pyramid of a w x h image: levels halve each side, rounding down, to 1 x 1 (a level of
 * 5 x 3 is followed by 2 x 1, then 1 x 1); mipmaps 0: level 0 alone. Fills the levels,
 * offsets and sizes of `layout` (texels untouched) and returns the texel count of all levels. */
size_t rc_texture_pyramid(uint32_t w, uint32_t h, int mipmaps, rc_texture_image *layout);

/* An image of w x h RGBA8 pixels (4 bytes each, top row first) as a texture: sRGB-encoded
 * colour where srgb is 1. Each level after the first is a box filter of the one above it,
 * every texel of the finer level weighted by the part of it the coarser texel covers (so odd
 * sizes lose nothing and each level keeps the mean of the one above), computed in linear
 * light for sRGB textures and encoded again; alpha is averaged as it is (not premultiplied).
 * The pyramid's bytes (4 a texel) must be at most max_bytes. */
int rc_texture_from_rgba8(const char *name, const unsigned char *px, uint32_t w, uint32_t h,
                          int srgb, int mipmaps, size_t max_bytes, rc_texture_image *out,
                          rc_error *err);

/* A PNG or JPEG file's bytes as a texture. The size comes from the header first: sides 1 to
 * 16384 and the pyramid within max_bytes, or it is refused before decoding. A file that is
 * neither, is cut short or does not decode: "name: not a PNG or JPEG image (stb_image: why)". */
int rc_texture_from_memory(const char *name, const unsigned char *bytes, size_t len, int srgb,
                           int mipmaps, size_t max_bytes, rc_texture_image *out, rc_error *err);

/* The same from a file: only a regular file, opened without blocking (a FIFO is refused at
 * once), at most max_bytes long. */
int rc_texture_load_file(const char *path, int srgb, int mipmaps, size_t max_bytes,
                         rc_texture_image *out, rc_error *err);

void rc_texture_image_free(rc_texture_image *img);

/* Bytes the image holds (its texels). */
size_t rc_texture_image_bytes(const rc_texture_image *img);

/* Textures in one table: records and one texel array. */
typedef struct rc_texture_table {
    rc_texture *textures;
    size_t count, cap;
    uint32_t *texels;
    size_t num_texels, cap_texels;
} rc_texture_table;

void rc_texture_table_init(rc_texture_table *t);
void rc_texture_table_free(rc_texture_table *t);

/* Copy img into the table with its sampler: wrap modes RC_WRAP_*, filter RC_FILTER_*, xform
 * the uv transform (NULL: identity). Returns the texture's id, or -1 with err set (an unknown
 * wrap mode or filter, or out of memory). */
long rc_texture_table_add(rc_texture_table *t, const rc_texture_image *img, uint32_t wrap_s,
                          uint32_t wrap_t, uint32_t filter, const float xform[6], rc_error *err);

/* One more record for the texels of entry `id` (its levels and sRGB flag) with a sampler and
 * uv transform of its own, so that one image used twice is stored once. Returns the new
 * record's id, or -1 with err set (no such entry, an unknown wrap mode or filter, or out of
 * memory). */
long rc_texture_table_add_shared(rc_texture_table *t, long id, uint32_t wrap_s, uint32_t wrap_t,
                                 uint32_t filter, const float xform[6], rc_error *err);

/* Bytes the table holds: records and texels, what a copy to the device takes. */
size_t rc_texture_table_bytes(const rc_texture_table *t);

/* What per-ray code reads, pointing into the table's arrays. */
rc_texture_view rc_texture_table_view(const rc_texture_table *t);

#ifdef __cplusplus
}
#endif
#endif /* RC_TEXTURE_LOAD_H */
