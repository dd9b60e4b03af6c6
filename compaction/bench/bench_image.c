/* bench_image.c: the masks of `--pattern mask:FILE.png` through stb_image (libstb-dev); only
 * regular files (rc_open_regular: a FIFO is refused, not waited on) and images within the
 * limits of bench_image.h, so a device file or a huge header fails at once. */
#define _POSIX_C_SOURCE 200809L
#include "bench_image.h"
#include "echo.h"
#include "read_file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef BENCH_HAVE_STB
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_FAILURE_USERMSG
#define STBI_MAX_DIMENSIONS 65536
#include <stb_image.h>

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The chunks walked before stb_image 2.27 does (tests/fuzz found it allocating a chunk's declared
 * length before reading it, and UB on an empty first IDAT): -1 for a chunk past the end of the
 * file; else 0, *clean a copy without empty IDATs when there are any, or NULL. */
static int check_chunks(const unsigned char *data, size_t len, unsigned char **clean,
                        size_t *clean_len) {
    size_t at = 8, empty = 0;
    *clean = NULL;
    for (;;) {
        if (at + 12 > len) return -1;
        uint32_t n = be32(data + at);
        if (n > len - at - 12) return -1;
        if (!memcmp(data + at + 4, "IEND", 4)) break;
        empty += n == 0 && !memcmp(data + at + 4, "IDAT", 4);
        at += 12 + (size_t)n;
    }
    if (!empty) return 0;
    unsigned char *copy = malloc(len);
    if (!copy) return 0; /* stb_image gets the original: the first fault is the lesser one */
    memcpy(copy, data, 8);
    size_t j = 8;
    for (at = 8;;) {
        uint32_t n = be32(data + at);
        int end = !memcmp(data + at + 4, "IEND", 4);
        if (n != 0 || memcmp(data + at + 4, "IDAT", 4) != 0) {
            memcpy(copy + j, data + at, 12 + (size_t)n);
            j += 12 + (size_t)n;
        }
        at += 12 + (size_t)n;
        if (end) break;
    }
    *clean = copy;
    *clean_len = j;
    return 0;
}

/* stb_image's reason for the failure just seen (cleared before each call), or one of our own
 * where it gives none (a deflate block of the reserved type 3). */
static const char *failure_reason(void) {
    const char *r = stbi_failure_reason();
    return r && *r ? r : "not a PNG image stb_image can decode";
}

static unsigned char *decode(const unsigned char *data, size_t len, int *w, int *h, char *why,
                             size_t cap) {
    int channels = 0;
    *w = *h = 0;
    if (len == 0 || len > BENCH_IMAGE_MAX_BYTES) {
        snprintf(why, cap, "%s", len ? "file too large" : "empty file");
        return NULL;
    }
    stbi__g_failure_reason = NULL;
    if (!stbi_info_from_memory(data, (int)len, w, h, &channels)) {
        snprintf(why, cap, "%s", failure_reason());
        return NULL;
    }
    if ((unsigned long long)*w * (unsigned long long)*h > BENCH_IMAGE_MAX_PIXELS) {
        snprintf(why, cap, "%dx%d pixels is more than the %llu a mask may have", *w, *h,
                 (unsigned long long)BENCH_IMAGE_MAX_PIXELS);
        *w = *h = 0;
        return NULL;
    }
    stbi__g_failure_reason = NULL;
    unsigned char *pixels = stbi_load_from_memory(data, (int)len, w, h, &channels, 1);
    if (!pixels) snprintf(why, cap, "%s", failure_reason());
    return pixels;
}

unsigned char *bench_image_decode(const unsigned char *data, size_t len, int *w, int *h, char *why,
                                  size_t cap) {
    size_t clean_len = 0;
    unsigned char *clean = NULL;
    *w = *h = 0;
    if (len > 8 && !memcmp(data, "\x89PNG\r\n\x1a\n", 8) &&
        check_chunks(data, len, &clean, &clean_len) != 0) {
        snprintf(why, cap, "corrupt PNG: a chunk runs past the end of the file");
        return NULL;
    }
    unsigned char *pixels =
        clean ? decode(clean, clean_len, w, h, why, cap) : decode(data, len, w, h, why, cap);
    free(clean);
    return pixels;
}

void bench_image_free(unsigned char *pixels) {
    stbi_image_free(pixels);
}
#else
unsigned char *bench_image_decode(const unsigned char *data, size_t len, int *w, int *h, char *why,
                                  size_t cap) {
    (void)data;
    (void)len;
    *w = *h = 0;
    snprintf(why, cap, "this build has no stb_image (install libstb-dev)");
    return NULL;
}

void bench_image_free(unsigned char *pixels) {
    free(pixels);
}
#endif

/* The whole of a regular file of at most BENCH_IMAGE_MAX_BYTES; NULL with `why` filled. */
static unsigned char *read_regular(const char *path, size_t *len, char *why, size_t cap) {
    FILE *f;
    struct stat st;
    if (rc_open_regular(path, &f, &st, why, cap) != 0) return NULL;
    const char *bad = NULL;
    if (st.st_size > (off_t)BENCH_IMAGE_MAX_BYTES) bad = "file too large";
    unsigned char *data = bad ? NULL : malloc((size_t)st.st_size + 1);
    if (!bad && !data) bad = "out of memory";
    if (!bad && fread(data, 1, (size_t)st.st_size, f) != (size_t)st.st_size) bad = "read error";
    fclose(f);
    if (bad) {
        free(data);
        snprintf(why, cap, "%s", bad);
        return NULL;
    }
    *len = (size_t)st.st_size;
    return data;
}

unsigned char *bench_image_load(const char *path, int *w, int *h, char *why, size_t cap) {
    char reason[256], name[300];
    size_t len = 0;
    *w = *h = 0;
    unsigned char *data = read_regular(path, &len, reason, sizeof reason);
    unsigned char *pixels =
        data ? bench_image_decode(data, len, w, h, reason, sizeof reason) : NULL;
    free(data);
    if (!pixels)
        snprintf(why, cap, "cannot read %s: %s", echo_escape(name, sizeof name, path), reason);
    return pixels;
}
