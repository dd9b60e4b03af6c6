/* gltf_json.c: the glTF reader's messages, its memory budget and its checked reads of JSON
 * fields (gltf_internal.h). Every reader reports the first problem as "file: element: what"
 * and returns -1; absent optional fields take their default. */
#include "gltf_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_NOTICES 16

/* ---- messages ---- */

int gltf_fail(gctx *c, const char *elem, const char *fmt, ...) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (elem && *elem) return rc_fail(c->err, "%s: %s: %s", c->file, elem, what);
    return rc_fail(c->err, "%s: %s", c->file, what);
}

void gltf_notice(gctx *c, const char *elem, const char *what) {
    if (!c->opt->notice || c->notices >= MAX_NOTICES) return;
    c->notices++;
    char line[512];
    char shown[512];
    snprintf(line, sizeof line, "%s: %s: %s", c->file, elem, what);
    c->opt->notice(c->opt->user, echo_escape(shown, sizeof shown, line));
}

const char *gltf_jpath(char *buf, size_t cap, const char *parent, const char *key) {
    snprintf(buf, cap, "%s%s%s", parent, *parent ? "." : "", key);
    return buf;
}

const char *gltf_jindex(char *buf, size_t cap, const char *parent, long i) {
    snprintf(buf, cap, "%s[%ld]", parent, i);
    return buf;
}

/* ---- memory ---- */

int gltf_charge(gctx *c, size_t bytes, const char *elem, const char *what) {
    if (bytes > c->limit || c->used > c->limit - bytes)
        return gltf_fail(c, elem,
                         "%s needs %zu MiB, more than the memory limit of %zu MiB allows (%zu MiB "
                         "used so far)",
                         what, (bytes + MIB - 1) / MIB, c->limit / MIB, c->used / MIB);
    c->used += bytes;
    return 0;
}

void *gltf_alloc_out(rc_import *im, size_t n, size_t elem) {
    size_t bytes = mul_sat(n, elem);
    if (bytes == SIZE_MAX) return NULL;
    void *p = calloc(bytes ? bytes : 1, 1);
    if (p) im->bytes += bytes;
    return p;
}

/* ---- JSON fields ---- */

const cJSON *gltf_jget(const cJSON *o, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* An optional object field: 0 absent (*out NULL), 1 present, -1 not an object. */
int gltf_jobject(gctx *c, const cJSON *o, const char *path, const char *key, const cJSON **out) {
    char fp[256];
    *out = gltf_jget(o, key);
    if (!*out) return 0;
    if (!cJSON_IsObject(*out))
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "expected an object");
    return 1;
}

/* An optional array field: 0 absent, 1 present (n elements), -1 not an array. */
int gltf_jarray(gctx *c, const cJSON *o, const char *path, const char *key, const cJSON **out,
                int *n) {
    char fp[256];
    *out = gltf_jget(o, key);
    *n = 0;
    if (!*out) return 0;
    if (!cJSON_IsArray(*out))
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "expected an array");
    *n = cJSON_GetArraySize(*out);
    return 1;
}

/* An integer in [lo, hi]; absent: def, or an error when required. */
int gltf_juint(gctx *c, const cJSON *o, const char *path, const char *key, int required, size_t def,
               size_t lo, size_t hi, size_t *out) {
    char fp[256];
    const cJSON *it = gltf_jget(o, key);
    if (!it) {
        if (required) return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "missing");
        *out = def;
        return 0;
    }
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || !isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key),
                         "expected an integer in [%zu, %zu]", lo, hi);
    *out = (size_t)v;
    return 0;
}

/* An index into a top-level array of n elements named `arr`; absent: -1 unless required. */
int gltf_jref(gctx *c, const cJSON *o, const char *path, const char *key, int required, int n,
              const char *arr, int32_t *out) {
    char fp[256];
    const cJSON *it = gltf_jget(o, key);
    *out = -1;
    if (!it) {
        if (required) return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "missing");
        return 0;
    }
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || !isfinite(v) || v != floor(v) || v < 0)
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "expected an index into %s", arr);
    if (v >= n)
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key),
                         "%s[%.0f] does not exist (%d in the file)", arr, v > 1e15 ? 1e15 : v, n);
    *out = (int32_t)v;
    return 0;
}

/* A finite number in [lo, hi]; absent: def. */
int gltf_jnum(gctx *c, const cJSON *o, const char *path, const char *key, double def, double lo,
              double hi, float *out) {
    char fp[256];
    const cJSON *it = gltf_jget(o, key);
    if (!it) {
        *out = (float)def;
        return 0;
    }
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || !isfinite(v) || v < lo || v > hi)
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "expected a number in [%g, %g]",
                         lo, hi);
    *out = (float)v;
    return 0;
}

int gltf_jbool(gctx *c, const cJSON *o, const char *path, const char *key, int *out) {
    char fp[256];
    const cJSON *it = gltf_jget(o, key);
    if (!it) {
        *out = 0;
        return 0;
    }
    if (!cJSON_IsBool(it))
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "expected true or false");
    *out = cJSON_IsTrue(it);
    return 0;
}

/* An optional string: NULL when absent; -1 when not a string. */
int gltf_jstring(gctx *c, const cJSON *o, const char *path, const char *key, const char **out) {
    char fp[256];
    const cJSON *it = gltf_jget(o, key);
    *out = NULL;
    if (!it) return 0;
    if (!cJSON_IsString(it) || !it->valuestring)
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, path, key), "expected a string");
    *out = it->valuestring;
    return 0;
}

/* Exactly n numbers in [lo, hi] (finite); absent: *present 0 and out untouched. */
int gltf_jnums(gctx *c, const cJSON *o, const char *path, const char *key, int n, double lo,
               double hi, double *out, int *present) {
    char fp[256];
    const cJSON *it = gltf_jget(o, key);
    if (present) *present = 0;
    if (!it) return 0;
    gltf_jpath(fp, sizeof fp, path, key);
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != n)
        return gltf_fail(c, fp, "expected an array of %d numbers", n);
    int i = 0;
    for (const cJSON *e = it->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return gltf_fail(c, fp, "element %d is not a finite number", i);
        if (e->valuedouble < lo || e->valuedouble > hi)
            return gltf_fail(c, fp, "element %d (%g) is out of range [%g, %g]", i, e->valuedouble,
                             lo, hi);
        out[i] = e->valuedouble;
    }
    if (present) *present = 1;
    return 0;
}
