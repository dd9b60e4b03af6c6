/* gltf_build.h: what the glTF reader's tests (test_gltf.c, test_gltf_ext.c) build their files
 * with: a binary buffer, base64, a .gltf around it, a .glb, the parse with a notice counter,
 * and the comparisons. Include after check.h's TEST_COUNTERS. */
#ifndef RC_TEST_GLTF_BUILD_H
#define RC_TEST_GLTF_BUILD_H

#include "echo.h"
#include "png_2x1.h"
#include "scene/gltf.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- building files ---- */

typedef struct bin {
    uint8_t d[4096];
    size_t n;
} bin;

/* Append n bytes, 4-aligned; returns their offset. */
static inline size_t put(bin *b, const void *p, size_t n) {
    while (b->n % 4) b->d[b->n++] = 0;
    size_t at = b->n;
    memcpy(b->d + at, p, n);
    b->n += n;
    return at;
}

static inline char *b64(const uint8_t *p, size_t n) {
    static const char k[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *s = malloc(n / 3 * 4 + 8), *o = s;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        for (int j = 3; j >= 0; j--) *o++ = k[(v >> (6 * j)) & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        *o++ = k[(v >> 18) & 63];
        *o++ = k[(v >> 12) & 63];
        *o++ = i + 1 < n ? k[(v >> 6) & 63] : '=';
        *o++ = '=';
    }
    *o = '\0';
    return s;
}

static inline char *fmt(const char *f, ...) ECHO_PRINTF(1, 2);
static inline char *fmt(const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

/* A .gltf with buffer 0 = b as a data: URI, then `rest` (members after "buffers", with their
 * leading comma). */
static inline char *doc(const bin *b, const char *rest) {
    char *e = b64(b->d, b->n);
    char *s = fmt("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu,\"uri\":"
                  "\"data:application/octet-stream;base64,%s\"}]%s}",
                  b->n, e, rest);
    free(e);
    return s;
}

/* A .glb of the JSON text and the binary chunk (NULL: none). */
static inline uint8_t *glb(const char *json, const bin *b, size_t *len) {
    size_t jl = (strlen(json) + 3) / 4 * 4, bl = b ? (b->n + 3) / 4 * 4 : 0;
    size_t n = 12 + 8 + jl + (b ? 8 + bl : 0);
    uint8_t *g = calloc(n, 1);
    uint32_t h[5] = {0x46546C67u, 2, (uint32_t)n, (uint32_t)jl, 0x4E4F534Au};
    memcpy(g, h, 20);
    memset(g + 20, ' ', jl);
    memcpy(g + 20, json, strlen(json));
    if (b) {
        uint32_t c[2] = {(uint32_t)bl, 0x004E4942u};
        memcpy(g + 20 + jl, c, 8);
        memcpy(g + 28 + jl, b->d, b->n);
    }
    *len = n;
    return g;
}

static size_t g_notices;
static inline void on_notice(void *user, const char *line) {
    (void)user;
    (void)line;
    g_notices++;
}

static inline int parse(const char *name, const char *dir, const void *data, size_t len,
                        size_t max_mib, rc_import *im, rc_error *err) {
    rc_gltf_options o = {max_mib, on_notice, NULL};
    memset(err, 0, sizeof *err);
    return rc_gltf_parse(name, dir, data, len, &o, im, err);
}

static inline int parse_json(const char *json, rc_import *im, rc_error *err) {
    return parse("t.gltf", NULL, json, strlen(json), 0, im, err);
}

static inline int near(float a, float b) {
    return fabsf(a - b) <= 1e-5f * (1.0f + fabsf(b));
}

static inline int vec_is(const float *v, float x, float y, float z) {
    return near(v[0], x) && near(v[1], y) && near(v[2], z);
}

static const float k_tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
#define TRI_ACC                                                                                    \
    ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],\"accessors\":[{\"bufferView\":0,"        \
    "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]"
#define TRI_MESH ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]"

#endif /* RC_TEST_GLTF_BUILD_H */
