/* env_load.c: see env_load.h. */
#include "env_load.h"
#include "image_decode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RC_ENV_MAX_SIDE 16384u
#define RC_ENV_PI       3.14159265358979323846

size_t rc_env_bytes_for(uint32_t w, uint32_t h) {
    size_t n = (size_t)w * h;
    return n * 3 * sizeof(float) + n * sizeof(float) + (size_t)h * (w + 1) * sizeof(float) +
           ((size_t)h + 1) * sizeof(float);
}

size_t rc_env_bytes(const rc_env_map *e) {
    return e->rgb ? rc_env_bytes_for(e->width, e->height) : 0;
}

void rc_env_free(rc_env_map *e) {
    free(e->rgb);
    free(e->pdf);
    free(e->cond_cdf);
    free(e->marg_cdf);
    memset(e, 0, sizeof *e);
}

static double luminance(const float *p) {
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

/* The tables of a map whose rgb is in place. */
static int build_tables(const char *name, rc_env_map *e, rc_error *err) {
    uint32_t w = e->width, h = e->height;
    size_t n = (size_t)w * h;
    for (size_t k = 0; k < 3 * n; k++)
        if (!(e->rgb[k] >= 0.0f) || !isfinite(e->rgb[k]))
            return rc_fail(err, "%s: texel (%zu, %zu) is negative or not finite", name, (k / 3) % w,
                           (k / 3) / w);
    e->pdf = malloc(n * sizeof *e->pdf);
    e->cond_cdf = malloc((size_t)h * (w + 1) * sizeof *e->cond_cdf);
    e->marg_cdf = malloc(((size_t)h + 1) * sizeof *e->marg_cdf);
    double *lum = malloc(n * sizeof *lum), *wt = malloc(n * sizeof *wt);
    double *rows = malloc((size_t)h * sizeof *rows);
    if (!e->pdf || !e->cond_cdf || !e->marg_cdf || !lum || !wt || !rows) {
        free(lum);
        free(wt);
        free(rows);
        return rc_fail(err, "%s: out of memory for the environment's tables", name);
    }
    double sum_lum = 0.0;
    for (size_t k = 0; k < n; k++) sum_lum += (lum[k] = luminance(e->rgb + 3 * k));
    e->mean_luminance = sum_lum / (double)n;
    const double kern[3] = {0.125, 0.75, 0.125};
    double floor_w = 1e-3 * e->mean_luminance, total = 0.0;
    for (uint32_t j = 0; j < h; j++) {
        double st = sin(RC_ENV_PI * ((double)j + 0.5) / h);
        rows[j] = 0.0;
        for (uint32_t i = 0; i < w; i++) {
            double a = 0.0;
            for (int dj = -1; dj <= 1; dj++) {
                long jj = (long)j + dj;
                jj = jj < 0 ? 0 : (jj >= (long)h ? (long)h - 1 : jj);
                for (int di = -1; di <= 1; di++) {
                    long ii = ((long)i + di + (long)w) % (long)w;
                    a += kern[dj + 1] * kern[di + 1] * lum[(size_t)jj * w + (size_t)ii];
                }
            }
            if (sum_lum == 0.0) a = 1.0; /* black: sin(theta) alone */
            double v = a > 0.0 ? st * (a > floor_w ? a : floor_w) : 0.0;
            wt[(size_t)j * w + i] = v;
            rows[j] += v;
        }
        total += rows[j];
    }
    /* p(u, v) = w_ij W H / sum w; row CDFs by w_ij / row sum; the marginal by row sums. */
    double norm = (double)n / total;
    double acc_rows = 0.0;
    for (uint32_t j = 0; j < h; j++) {
        float *cdf = e->cond_cdf + (size_t)j * (w + 1);
        double acc = 0.0;
        cdf[0] = 0.0f;
        for (uint32_t i = 0; i < w; i++) {
            double v = wt[(size_t)j * w + i];
            e->pdf[(size_t)j * w + i] = (float)(v * norm);
            acc += v;
            cdf[i + 1] = rows[j] > 0.0 ? (float)(acc / rows[j]) : (float)(i + 1) / (float)w;
        }
        cdf[w] = 1.0f;
        e->marg_cdf[j] = (float)(acc_rows / total);
        acc_rows += rows[j];
    }
    e->marg_cdf[h] = 1.0f;
    free(lum);
    free(wt);
    free(rows);
    return 0;
}

static int check_size(const char *name, uint32_t w, uint32_t h, size_t max_bytes, rc_error *err) {
    if (w < 1 || h < 1 || w > RC_ENV_MAX_SIDE || h > RC_ENV_MAX_SIDE)
        return rc_fail(err, "%s: %ux%u pixels: each side must be 1 to %u", name, w, h,
                       RC_ENV_MAX_SIDE);
    size_t b = rc_env_bytes_for(w, h);
    if (b > max_bytes)
        return rc_fail(err,
                       "%s: %ux%u pixels take %zu bytes with their sampling tables, over the "
                       "limit of %zu",
                       name, w, h, b, max_bytes);
    return 0;
}

int rc_env_build(const char *name, const float *rgb, uint32_t w, uint32_t h, size_t max_bytes,
                 rc_env_map *out, rc_error *err) {
    memset(out, 0, sizeof *out);
    if (check_size(name, w, h, max_bytes, err) != 0) return -1;
    out->width = w;
    out->height = h;
    out->rgb = malloc((size_t)w * h * 3 * sizeof *out->rgb);
    if (!out->rgb) return rc_fail(err, "%s: out of memory for the environment", name);
    memcpy(out->rgb, rgb, (size_t)w * h * 3 * sizeof *out->rgb);
    if (build_tables(name, out, err) != 0) {
        rc_env_free(out);
        return -1;
    }
    return 0;
}

int rc_env_from_memory(const char *name, const unsigned char *bytes, size_t len, size_t max_bytes,
                       rc_env_map *out, rc_error *err) {
    memset(out, 0, sizeof *out);
    uint32_t w, h;
    if (rc_image_info(name, bytes, len, 1, &w, &h, err) < 0) return -1;
    if (check_size(name, w, h, max_bytes, err) != 0) return -1;
    float *rgb;
    if (rc_image_decode_hdr(name, bytes, len, max_bytes, &w, &h, &rgb, err) != 0) return -1;
    out->rgb = rgb;
    out->width = w;
    out->height = h;
    if (build_tables(name, out, err) != 0) {
        rc_env_free(out);
        return -1;
    }
    return 0;
}

int rc_env_load_file(const char *path, size_t max_bytes, rc_env_map *out, rc_error *err) {
    memset(out, 0, sizeof *out);
    unsigned char *data;
    size_t len;
    if (rc_image_read_file(path, max_bytes, &data, &len, err) != 0) return -1;
    int rc = rc_env_from_memory(path, data, len, max_bytes, out, err);
    free(data);
    return rc;
}

rc_env_view rc_env_view_make(const rc_env_map *e, float rotation_deg, float scale) {
    rc_env_view v;
    double r = (double)rotation_deg * (RC_ENV_PI / 180.0);
    v.rgb = e->rgb;
    v.pdf = e->pdf;
    v.cond_cdf = e->cond_cdf;
    v.marg_cdf = e->marg_cdf;
    v.width = e->width;
    v.height = e->height;
    v.cos_rot = (float)cos(r);
    v.sin_rot = (float)sin(r);
    v.scale = scale;
    return v;
}
