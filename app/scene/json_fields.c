/* json_fields.c: the field readers of the scene format (json_fields.h). */
#include "json_fields.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int rc_json_fail(rc_json_ctx *c, const char *field, const char *fmt, ...) {
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return rc_fail(c->err, "%s: %s: %s", c->file, field, what);
}

/* "parent.key" or "parent[i]" into buf. */
const char *rc_json_join(char *buf, size_t cap, const char *parent, const char *key) {
    snprintf(buf, cap, "%s%s%s", parent, *parent ? "." : "", key);
    return buf;
}
const char *rc_json_index(char *buf, size_t cap, const char *parent, int i) {
    snprintf(buf, cap, "%s[%d]", parent, i);
    return buf;
}

/* The object must be an object, and hold only the allowed keys, each once. */
int rc_json_check_fields(rc_json_ctx *c, const cJSON *o, const char *path,
                         const char *const *allowed) {
    if (!cJSON_IsObject(o)) return rc_json_fail(c, path, "expected an object");
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = strcmp(it->string, "comment") == 0;
        for (const char *const *a = allowed; *a && !ok; a++) ok = strcmp(*a, it->string) == 0;
        char fp[256];
        if (!ok)
            return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, it->string), "unknown field");
        for (const cJSON *jt = o->child; jt != it; jt = jt->next)
            if (strcmp(jt->string, it->string) == 0)
                return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, it->string),
                                    "field given twice");
    }
    return 0;
}

/* A finite number; absent -> *out = def unless required. */
int rc_json_number(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                   double def, double *out) {
    char fp[256];
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it) {
        if (required) return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, key), "missing");
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) ||
        fabs(it->valuedouble) > RC_JSON_MAX_COORD)
        return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, key),
                            "expected a number (|x| <= 1e15)");
    *out = it->valuedouble;
    return 0;
}

/* A number in [lo, hi] (strict bounds when the flags say so). */
int rc_json_ranged(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                   double def, double lo, double hi, int lo_open, int hi_open, float *out) {
    double v = 0.0;
    if (rc_json_number(c, o, path, key, required, def, &v) != 0) return -1;
    if (v < lo || v > hi || (lo_open && v == lo) || (hi_open && v == hi)) {
        char fp[256];
        return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, key),
                            "%g is out of range %s%g, %g%s", v, lo_open ? "(" : "[", lo, hi,
                            hi_open ? ")" : "]");
    }
    *out = (float)v;
    return 0;
}

/* An integer in [lo, hi]. */
int rc_json_uint(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, uint32_t def,
                 uint32_t lo, uint32_t hi, uint32_t *out) {
    double v = 0.0;
    char fp[256];
    if (rc_json_number(c, o, path, key, 0, def, &v) != 0) return -1;
    if (v != floor(v) || v < lo || v > hi)
        return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, key),
                            "expected an integer in [%u, %u]", lo, hi);
    *out = (uint32_t)v;
    return 0;
}

int rc_json_vec3_of(rc_json_ctx *c, const cJSON *it, const char *fp, rc_vec3 *out) {
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 3)
        return rc_json_fail(c, fp, "expected an array of 3 numbers");
    float v[3];
    int i = 0;
    for (const cJSON *e = it->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) ||
            fabs(e->valuedouble) > RC_JSON_MAX_COORD)
            return rc_json_fail(c, fp, "expected an array of 3 numbers (|x| <= 1e15)");
        v[i] = (float)e->valuedouble;
    }
    *out = rc_v3(v[0], v[1], v[2]);
    return 0;
}

int rc_json_vec3(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                 rc_vec3 def, rc_vec3 *out) {
    char fp[256];
    rc_json_join(fp, sizeof fp, path, key);
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it) {
        if (required) return rc_json_fail(c, fp, "missing");
        *out = def;
        return 0;
    }
    return rc_json_vec3_of(c, it, fp, out);
}

/* A colour: 3 numbers in [0, hi]. */
int rc_json_color(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                  rc_vec3 def, float hi, rc_vec3 *out) {
    if (rc_json_vec3(c, o, path, key, required, def, out) != 0) return -1;
    if (out->x < 0 || out->y < 0 || out->z < 0 || out->x > hi || out->y > hi || out->z > hi) {
        char fp[256];
        return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, key),
                            "each component must be in [0, %g]", hi);
    }
    return 0;
}

const char *rc_json_string(rc_json_ctx *c, const cJSON *o, const char *path, const char *key) {
    char fp[256];
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it) {
        rc_json_fail(c, rc_json_join(fp, sizeof fp, path, key), "missing");
        return NULL;
    }
    if (!cJSON_IsString(it) || !it->valuestring) {
        rc_json_fail(c, rc_json_join(fp, sizeof fp, path, key), "expected a string");
        return NULL;
    }
    return it->valuestring;
}
