/* bench_image.h: the grey-scale masks `compact bench --pattern mask:FILE` reads
 * (bench_image.c). */
#ifndef SC_BENCH_IMAGE_H
#define SC_BENCH_IMAGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A grey-scale image, 8 bits per pixel, rows top to bottom; NULL with `why` filled if the file
 * cannot be read (or the build has no stb_image). Only regular files are read; files over
 * BENCH_IMAGE_MAX_BYTES and images over BENCH_IMAGE_MAX_PIXELS are refused. Free with
 * bench_image_free. */
#define BENCH_IMAGE_MAX_BYTES  ((size_t)64 << 20)
#define BENCH_IMAGE_MAX_PIXELS ((size_t)1 << 26) /* 8192 x 8192 */
unsigned char *bench_image_load(const char *path, int *w, int *h, char *why, size_t cap);
/* The same from a PNG file's bytes in memory. */
unsigned char *bench_image_decode(const unsigned char *data, size_t len, int *w, int *h, char *why,
                                  size_t cap);
void bench_image_free(unsigned char *pixels);

#ifdef __cplusplus
}
#endif
#endif /* SC_BENCH_IMAGE_H */
