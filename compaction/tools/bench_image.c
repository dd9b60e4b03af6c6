/* bench_image.c: the image masks of `compact bench --pattern mask:FILE.png`, read with
 * stb_image (libstb-dev). A build without stb_image says so when a mask is asked for. */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef BENCH_HAVE_STB
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_FAILURE_USERMSG
#include <stb_image.h>

unsigned char *bench_image_load(const char *path, int *w, int *h, char *why, size_t cap) {
    int channels = 0;
    unsigned char *pixels = stbi_load(path, w, h, &channels, 1);
    if (!pixels) snprintf(why, cap, "cannot read %s: %s", path, stbi_failure_reason());
    return pixels;
}

void bench_image_free(unsigned char *pixels) {
    stbi_image_free(pixels);
}
#else
unsigned char *bench_image_load(const char *path, int *w, int *h, char *why, size_t cap) {
    *w = *h = 0;
    snprintf(why, cap, "cannot read %s: this build has no stb_image (install libstb-dev)", path);
    return NULL;
}

void bench_image_free(unsigned char *pixels) {
    free(pixels);
}
#endif
