/* texture_load.c: see texture_load.h. */
#include "texture_load.h"
#include "grow.h"
#include "image_decode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t rc_texture_pyramid(uint32_t w, uint32_t h, int mipmaps, rc_texture_image *layout) {
    size_t total = 0;
    uint32_t l = 0;
    for (;;) {
        layout->offset[l] = (uint32_t)total;
        layout->width[l] = w;
        layout->height[l] = h;
        total += (size_t)w * h;
        l++;
        if (!mipmaps || (w == 1 && h == 1) || l == RC_TEX_MAX_LEVELS) break;
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
    layout->levels = l;
    return total;
}

size_t rc_texture_image_bytes(const rc_texture_image *img) {
    return img->num_texels * sizeof(uint32_t);
}

void rc_texture_image_free(rc_texture_image *img) {
    free(img->texels);
    memset(img, 0, sizeof *img);
}

static uint32_t pack(const float c[4], int srgb) {
    uint32_t t = 0;
    for (int k = 0; k < 4; k++) {
        float v = c[k];
        if (srgb && k < 3) v = rc_tex_linear_to_srgb(v);
        v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
        t |= (uint32_t)lrintf(v * 255.0f) << (8 * k);
    }
    return t;
}

/* The source texels a coarse texel of an axis covers: [lo, hi) of the fine axis, in fine
 * texels (n fine onto m coarse, each coarse texel n / m fine ones wide). */
typedef struct span {
    uint32_t first, count;
    float w[3]; /* n / m < 3 when each level halves, rounding down */
} span;

static void spans(uint32_t n, uint32_t m, span *out) {
    for (uint32_t x = 0; x < m; x++) {
        double lo = (double)x * n / m, hi = (double)(x + 1) * n / m;
        uint32_t a = (uint32_t)floor(lo), b = (uint32_t)ceil(hi);
        if (b > n) b = n;
        out[x].first = a;
        out[x].count = b - a;
        for (uint32_t s = a; s < b; s++) {
            double c = fmin(hi, (double)s + 1.0) - fmax(lo, (double)s);
            out[x].w[s - a] = (float)(c / (hi - lo));
        }
    }
}

/* The next level, dst (dw x dh), from src (sw x sh), 4 linear floats a texel. */
static void downsample(const float *src, uint32_t sw, uint32_t sh, float *dst, uint32_t dw,
                       uint32_t dh, span *sx, span *sy) {
    spans(sw, dw, sx);
    spans(sh, dh, sy);
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++) {
            float acc[4] = {0, 0, 0, 0};
            for (uint32_t j = 0; j < sy[y].count; j++) {
                const float *row = src + ((size_t)(sy[y].first + j) * sw + sx[x].first) * 4;
                for (uint32_t i = 0; i < sx[x].count; i++) {
                    float wt = sy[y].w[j] * sx[x].w[i];
                    for (int k = 0; k < 4; k++) acc[k] += wt * row[4 * i + k];
                }
            }
            memcpy(dst + ((size_t)y * dw + x) * 4, acc, sizeof acc);
        }
}

int rc_texture_from_rgba8(const char *name, const unsigned char *px, uint32_t w, uint32_t h,
                          int srgb, int mipmaps, size_t max_bytes, rc_texture_image *out,
                          rc_error *err) {
    memset(out, 0, sizeof *out);
    if (w < 1 || h < 1 || w > RC_TEX_MAX_SIZE || h > RC_TEX_MAX_SIZE)
        return rc_fail(err, "%s: %ux%u pixels: each side must be 1 to %u", name, w, h,
                       RC_TEX_MAX_SIZE);
    rc_texture_image lay;
    size_t total = rc_texture_pyramid(w, h, mipmaps, &lay);
    if (total > max_bytes / 4)
        return rc_fail(
            err, "%s: %ux%u pixels and their mip levels take %zu bytes, over the limit of %zu",
            name, w, h, total * 4, max_bytes);
    *out = lay;
    out->srgb = srgb ? 1 : 0;
    out->num_texels = total;
    out->texels = malloc(total * sizeof(uint32_t));
    float *cur = NULL, *next = NULL;
    span *sx = NULL, *sy = NULL;
    if (!out->texels) goto oom;
    for (size_t i = 0; i < (size_t)w * h; i++)
        out->texels[i] = (uint32_t)px[4 * i] | (uint32_t)px[4 * i + 1] << 8 |
                         (uint32_t)px[4 * i + 2] << 16 | (uint32_t)px[4 * i + 3] << 24;
    if (out->levels == 1) return 0;
    float lut[256];
    for (int i = 0; i < 256; i++)
        lut[i] = out->srgb ? rc_tex_srgb_to_linear((float)i / 255.0f) : (float)i / 255.0f;
    cur = malloc((size_t)w * h * 4 * sizeof(float));
    next = malloc((size_t)(w / 2 + 1) * (h / 2 + 1) * 4 * sizeof(float));
    sx = malloc((w / 2 + 1) * sizeof *sx);
    sy = malloc((h / 2 + 1) * sizeof *sy);
    if (!cur || !next || !sx || !sy) goto oom;
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (int k = 0; k < 4; k++) {
            unsigned b = px[4 * i + k];
            cur[4 * i + k] = k < 3 ? lut[b] : (float)b / 255.0f;
        }
    for (uint32_t l = 1; l < out->levels; l++) {
        uint32_t dw = out->width[l], dh = out->height[l];
        downsample(cur, out->width[l - 1], out->height[l - 1], next, dw, dh, sx, sy);
        uint32_t *dst = out->texels + out->offset[l];
        for (size_t i = 0; i < (size_t)dw * dh; i++) dst[i] = pack(next + 4 * i, out->srgb);
        float *t = cur;
        cur = next;
        next = t;
    }
    free(cur);
    free(next);
    free(sx);
    free(sy);
    return 0;
oom:
    free(cur);
    free(next);
    free(sx);
    free(sy);
    rc_texture_image_free(out);
    return rc_fail(err, "%s: out of memory for the texture", name);
}

int rc_texture_from_memory(const char *name, const unsigned char *bytes, size_t len, int srgb,
                           int mipmaps, size_t max_bytes, rc_texture_image *out, rc_error *err) {
    memset(out, 0, sizeof *out);
    uint32_t w, h;
    if (rc_image_info(name, bytes, len, 0, &w, &h, err) < 0) return -1;
    rc_texture_image lay;
    size_t total = rc_texture_pyramid(w, h, mipmaps, &lay);
    /* the decoded image and the pyramid made from it, checked before decoding */
    if (total > max_bytes / 4)
        return rc_fail(
            err, "%s: %ux%u pixels and their mip levels take %zu bytes, over the limit of %zu",
            name, w, h, total * 4, max_bytes);
    unsigned char *px;
    if (rc_image_decode_rgba8(name, bytes, len, max_bytes, &w, &h, &px, err) != 0) return -1;
    int rc = rc_texture_from_rgba8(name, px, w, h, srgb, mipmaps, max_bytes, out, err);
    free(px);
    return rc;
}

int rc_texture_load_file(const char *path, int srgb, int mipmaps, size_t max_bytes,
                         rc_texture_image *out, rc_error *err) {
    memset(out, 0, sizeof *out);
    unsigned char *data;
    size_t len;
    if (rc_image_read_file(path, max_bytes, &data, &len, err) != 0) return -1;
    int rc = rc_texture_from_memory(path, data, len, srgb, mipmaps, max_bytes, out, err);
    free(data);
    return rc;
}

/* ---- the table ---- */

void rc_texture_table_init(rc_texture_table *t) {
    memset(t, 0, sizeof *t);
}

void rc_texture_table_free(rc_texture_table *t) {
    free(t->textures);
    free(t->texels);
    rc_texture_table_init(t);
}

static int wrap_ok(uint32_t m) {
    return m == RC_WRAP_REPEAT || m == RC_WRAP_CLAMP_TO_EDGE || m == RC_WRAP_MIRRORED_REPEAT;
}

/* The checks every new record passes. */
static int record_ok(const rc_texture_table *t, uint32_t wrap_s, uint32_t wrap_t, uint32_t filter,
                     rc_error *err) {
    if (!wrap_ok(wrap_s) || !wrap_ok(wrap_t))
        return rc_fail(err,
                       "texture: wrap mode %u is not 10497 (REPEAT), 33071 "
                       "(CLAMP_TO_EDGE) or 33648 (MIRRORED_REPEAT)",
                       wrap_ok(wrap_s) ? wrap_t : wrap_s);
    if (filter > RC_FILTER_TRILINEAR)
        return rc_fail(err, "texture: filter %u is not nearest (0), bilinear (1) or trilinear (2)",
                       filter);
    if (t->count >= 0x7fffffffu) return rc_fail(err, "texture: too many textures");
    return 0;
}

static void set_sampler(rc_texture *r, uint32_t wrap_s, uint32_t wrap_t, uint32_t filter,
                        const float xform[6]) {
    static const float identity[6] = {1, 0, 0, 0, 1, 0};
    r->wrap_s = wrap_s;
    r->wrap_t = wrap_t;
    r->filter = filter;
    memcpy(r->xform, xform ? xform : identity, sizeof r->xform);
}

long rc_texture_table_add_shared(rc_texture_table *t, long id, uint32_t wrap_s, uint32_t wrap_t,
                                 uint32_t filter, const float xform[6], rc_error *err) {
    if (id < 0 || (size_t)id >= t->count)
        return rc_fail(err, "texture: no entry %ld in the texture table", id);
    if (record_ok(t, wrap_s, wrap_t, filter, err) != 0) return -1;
    if (rc_grow((void **)&t->textures, &t->cap, t->count + 1, sizeof *t->textures) != 0)
        return rc_fail(err, "texture: out of memory for the texture table");
    rc_texture *r = &t->textures[t->count];
    *r = t->textures[id];
    set_sampler(r, wrap_s, wrap_t, filter, xform);
    return (long)t->count++;
}

long rc_texture_table_add(rc_texture_table *t, const rc_texture_image *img, uint32_t wrap_s,
                          uint32_t wrap_t, uint32_t filter, const float xform[6], rc_error *err) {
    if (record_ok(t, wrap_s, wrap_t, filter, err) != 0) return -1;
    if (rc_grow((void **)&t->textures, &t->cap, t->count + 1, sizeof *t->textures) != 0 ||
        rc_grow((void **)&t->texels, &t->cap_texels, t->num_texels + img->num_texels,
                sizeof *t->texels) != 0)
        return rc_fail(err, "texture: out of memory for the texture table");
    rc_texture *r = &t->textures[t->count];
    memset(r, 0, sizeof *r);
    r->base = t->num_texels;
    r->levels = img->levels;
    for (uint32_t l = 0; l < img->levels; l++) {
        r->offset[l] = img->offset[l];
        r->width[l] = img->width[l];
        r->height[l] = img->height[l];
    }
    r->srgb = img->srgb ? 1u : 0u;
    set_sampler(r, wrap_s, wrap_t, filter, xform);
    memcpy(t->texels + t->num_texels, img->texels, img->num_texels * sizeof *t->texels);
    t->num_texels += img->num_texels;
    return (long)t->count++;
}

size_t rc_texture_table_bytes(const rc_texture_table *t) {
    return t->count * sizeof *t->textures + t->num_texels * sizeof *t->texels;
}

rc_texture_view rc_texture_table_view(const rc_texture_table *t) {
    rc_texture_view v;
    v.textures = t->textures;
    v.texels = t->texels;
    v.count = (uint32_t)t->count;
    return v;
}
