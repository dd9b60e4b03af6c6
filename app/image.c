/* image.c: PNG through png.c, PFM by hand; atomic writes through rename(2). */
#define _POSIX_C_SOURCE 200809L
#include "image.h"
#include "core/tonemap.h"
#include "out_path.h"
#include "png.h"
#include "read_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

float rc_linear_to_srgb(float v) {
    if (!(v > 0.0f)) return 0.0f;
    if (v >= 1.0f) return 1.0f;
    return v <= 0.0031308f ? 12.92f * v : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const char *const k_tonemaps[RC_TONEMAP_COUNT] = {"clip", "reinhard", "aces"};

const char *rc_tonemap_name(int op) {
    return op >= 0 && op < RC_TONEMAP_COUNT ? k_tonemaps[op] : NULL;
}

int rc_tonemap_parse(const char *s, int *op) {
    for (int i = 0; i < RC_TONEMAP_COUNT; i++)
        if (strcmp(s, k_tonemaps[i]) == 0) {
            *op = i;
            return 0;
        }
    return -1;
}

const char *rc_tonemap_names(void) {
    return "clip, reinhard, aces";
}

typedef struct {
    const float *rgb;
    size_t row;  /* floats a row */
    float scale; /* 2^exposure */
    int tonemap;
} srgb_rows;

/* Row y of the PNG: the linear floats through the exposure and the tone map as 8-bit sRGB, on
 * the PNG writer's threads. Exposure 0 and clip write the floats as they are. */
static const unsigned char *srgb_row(void *ctx, uint32_t y, unsigned char *out) {
    const srgb_rows *s = ctx;
    const float *in = s->rgb + (size_t)y * s->row;
    if (s->scale == 1.0f && s->tonemap == RC_TONEMAP_CLIP) {
        for (size_t i = 0; i < s->row; i++)
            out[i] = (unsigned char)lrintf(rc_linear_to_srgb(in[i]) * 255.0f);
        return out;
    }
    for (size_t i = 0; i + 2 < s->row; i += 3) {
        rc_vec3 c = rc_tonemap(s->tonemap, rc_scale(rc_v3(in[i], in[i + 1], in[i + 2]), s->scale));
        out[i] = (unsigned char)lrintf(rc_linear_to_srgb(c.x) * 255.0f);
        out[i + 1] = (unsigned char)lrintf(rc_linear_to_srgb(c.y) * 255.0f);
        out[i + 2] = (unsigned char)lrintf(rc_linear_to_srgb(c.z) * 255.0f);
    }
    return out;
}

/* The error of the PNG writer in errno, where the caller's message finds it. */
static int write_png(FILE *f, const float *rgb, uint32_t w, uint32_t h, const rc_display *d) {
    srgb_rows s = {rgb, 3 * (size_t)w, d ? exp2f(d->exposure) : 1.0f,
                   d ? d->tonemap : RC_TONEMAP_CLIP};
    int e = rc_png_write_rows(f, w, h, srgb_row, &s, 0);
    errno = e;
    return e ? -1 : 0;
}

/* PFM stores rows bottom to top; a negative scale means little-endian. */
static int write_pfm(FILE *f, const float *rgb, uint32_t w, uint32_t h) {
    fprintf(f, "PF\n%u %u\n-1.0\n", w, h);
    for (uint32_t y = h; y-- > 0;)
        if (fwrite(rgb + (size_t)y * w * 3, sizeof(float), (size_t)w * 3, f) != (size_t)w * 3)
            return -1;
    return 0;
}

int rc_image_write(const char *path, const float *rgb, uint32_t width, uint32_t height,
                   rc_error *err) {
    return rc_image_write_display(path, rgb, width, height, NULL, err);
}

int rc_image_write_display(const char *path, const float *rgb, uint32_t width, uint32_t height,
                           const rc_display *d, rc_error *err) {
    int pfm = ends_with(path, ".pfm");
    if (!pfm && !ends_with(path, ".png"))
        return rc_fail(err, "%s: unknown image type (use .png or .pfm)", path);
    char real[OUT_PATH_MAX]; /* through a symbolic link, its target (out_path.h) */
    if (out_path_resolve(path, real, sizeof real) != 0)
        return rc_fail(err, "%s: cannot create: %s", path, strerror(errno));
    size_t len = strlen(real);
    char *tmp = malloc(len + 16);
    if (!tmp) return rc_fail(err, "%s: out of memory", path);
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", real);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rc_fail(err, "%s: cannot create: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    /* mkstemp creates the file private (0600); give the image the usual mode instead. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    int rc = f ? 0 : -1;
    if (rc == 0) rc = pfm ? write_pfm(f, rgb, width, height) : write_png(f, rgb, width, height, d);
    if (f && ferror(f)) rc = -1;
    if (f ? fclose(f) != 0 : close(fd) != 0) rc = -1;
    if (rc == 0 && rename(tmp, real) != 0) rc = -1;
    if (rc != 0) {
        rc_fail(err, "%s: cannot write: %s", path, errno ? strerror(errno) : "write failed");
        remove(tmp);
    }
    free(tmp);
    return rc;
}

int rc_pfm_read(const char *path, float **rgb, uint32_t *width, uint32_t *height, rc_error *err) {
    *rgb = NULL;
    FILE *f;
    char why[128];
    int opened = rc_open_regular(path, &f, NULL, why, sizeof why);
    if (opened == RC_OPEN_NOT_REGULAR) return rc_fail(err, "%s: %s", path, why);
    if (opened != 0) return rc_fail(err, "%s: cannot open: %s", path, why);
    unsigned w = 0, h = 0;
    double scale = 0.0;
    char magic[3] = {0};
    if (fscanf(f, "%2s %u %u %lf", magic, &w, &h, &scale) != 4 || strcmp(magic, "PF") != 0 ||
        w == 0 || h == 0 || w > 65536 || h > 65536 || scale >= 0.0 || fgetc(f) == EOF) {
        fclose(f);
        return rc_fail(err, "%s: not a little-endian colour PFM", path);
    }
    size_t n = (size_t)w * h * 3;
    float *img = malloc(n * sizeof *img);
    int ok = img != NULL;
    for (uint32_t y = h; ok && y-- > 0;)
        ok = fread(img + (size_t)y * w * 3, sizeof(float), (size_t)w * 3, f) == (size_t)w * 3;
    fclose(f);
    if (!ok) {
        free(img);
        return rc_fail(err, "%s: truncated PFM", path);
    }
    *rgb = img;
    *width = w;
    *height = h;
    return 0;
}

double rc_image_rmse(const float *a, const float *b, size_t n) {
    double sum = 0.0;
    for (size_t i = 0; i < 3 * n; i++) {
        double d = (double)a[i] - (double)b[i];
        sum += d * d;
    }
    return n ? sqrt(sum / (double)(3 * n)) : 0.0;
}

/* RMSE between the block x block block means of two images clamped to [0, 1] (as displayed):
 * per-pixel noise averages out, systematic differences remain. */
double rc_image_block_rmse(const float *a, const float *b, uint32_t w, uint32_t h, uint32_t block) {
    double sum = 0.0;
    uint32_t blocks = 0;
    for (uint32_t by = 0; by + block <= h; by += block) {
        for (uint32_t bx = 0; bx + block <= w; bx += block, blocks++) {
            for (size_t c = 0; c < 3; c++) {
                double ma = 0.0, mb = 0.0;
                for (uint32_t y = by; y < by + block; y++) {
                    for (uint32_t x = bx; x < bx + block; x++) {
                        size_t i = 3 * ((size_t)y * w + x) + c;
                        ma += a[i] < 0.0f ? 0.0 : (a[i] > 1.0f ? 1.0 : a[i]);
                        mb += b[i] < 0.0f ? 0.0 : (b[i] > 1.0f ? 1.0 : b[i]);
                    }
                }
                double d = (ma - mb) / ((double)block * block);
                sum += d * d;
            }
        }
    }
    return blocks ? sqrt(sum / (3.0 * blocks)) : 0.0;
}
