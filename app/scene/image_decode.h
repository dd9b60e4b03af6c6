/* image_decode.h: what the texture and environment loaders share: a file read without ever
 * blocking on a FIFO or a device, and stb_image (libstb-dev) behind checks that run before it
 * does (sizes from the header, the file's structure complete), so a huge header or a cut-off
 * file fails with one line instead of a large allocation or an image padded with zeros. */
#ifndef RC_IMAGE_DECODE_H
#define RC_IMAGE_DECODE_H

#include "rc_error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Read a regular file whole (malloc'ed into *data, *len bytes). It is opened O_NONBLOCK and
 * checked with fstat before any read, so a FIFO, a socket or a device is refused at once:
 * "path: not a regular file". Over max_bytes: "path: file is larger than N bytes". */
int rc_image_read_file(const char *path, size_t max_bytes, unsigned char **data, size_t *len,
                       rc_error *err);

/* The width and height in a PNG or JPEG header (1 for PNG, 2 for JPEG in *kind), or a Radiance
 * HDR header (3), without decoding; -1 with "name: not a PNG or JPEG image (stb_image: why)"
 * (or "not a Radiance HDR image" where hdr is 1) otherwise. */
int rc_image_info(const char *name, const unsigned char *data, size_t len, int hdr, uint32_t *w,
                  uint32_t *h, rc_error *err);

/* Decode a PNG or JPEG to RGBA8 (4 bytes a pixel, top row first; malloc'ed, free()).
 * Dimensions must be 1..16384 and w * h * 4 at most max_bytes, both checked from the header
 * before decoding. */
int rc_image_decode_rgba8(const char *name, const unsigned char *data, size_t len, size_t max_bytes,
                          uint32_t *w, uint32_t *h, unsigned char **px, rc_error *err);

/* Decode a Radiance HDR (.hdr, RGBE, flat or run-length scanlines) to RGB floats (12 bytes a
 * pixel, top row first; malloc'ed, free()), with the same checks (w * h * 12 <= max_bytes) and
 * every scanline walked first, so a truncated file is refused. */
int rc_image_decode_hdr(const char *name, const unsigned char *data, size_t len, size_t max_bytes,
                        uint32_t *w, uint32_t *h, float **rgb, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RC_IMAGE_DECODE_H */
