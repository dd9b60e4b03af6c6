/* json_fields.h: checked reads of scene-file fields with cJSON. Each reader reports the first
 * problem as "file: field.path: what is wrong" into the context's error and returns -1 (NULL
 * for strings); absent optional fields take their default. */
#ifndef RC_JSON_FIELDS_H
#define RC_JSON_FIELDS_H

#include "echo.h"
#include "scene.h"

#include <cjson/cJSON.h>

/* Numbers of larger magnitude are refused: they would overflow the BVH's float maths. */
#define RC_JSON_MAX_COORD 1e15

/* A named material: scene files refer to materials by name. */
typedef struct rc_json_name {
    const char *name; /* points into the cJSON tree, which outlives the lookups */
    uint32_t index;
} rc_json_name;

/* The state of one scene file's reading. */
typedef struct rc_json_ctx {
    const char *file; /* the name messages start with */
    const char *dir;  /* mesh paths are relative to it */
    rc_scene *s;      /* the scene being filled */
    rc_error *err;
    rc_json_name *names; /* the materials list's names so far */
    size_t num_names, cap_names;
} rc_json_ctx;

/* "file: field: what" into the error; returns -1. */

int rc_json_fail(rc_json_ctx *c, const char *field, const char *fmt, ...) ECHO_PRINTF(3, 4);
/* Field paths for messages: "parent.key", "parent[i]" into buf. */
const char *rc_json_join(char *buf, size_t cap, const char *parent, const char *key);
const char *rc_json_index(char *buf, size_t cap, const char *parent, int i);
/* The object must be an object, and hold only the allowed keys, each once. */
int rc_json_check_fields(rc_json_ctx *c, const cJSON *o, const char *path,
                         const char *const *allowed);
/* A finite number; absent -> *out = def unless required. */
int rc_json_number(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                   double def, double *out);
/* A number in [lo, hi] (strict bounds when the flags say so). */
int rc_json_ranged(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                   double def, double lo, double hi, int lo_open, int hi_open, float *out);
/* An integer in [lo, hi]. */
int rc_json_uint(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, uint32_t def,
                 uint32_t lo, uint32_t hi, uint32_t *out);
/* An array of 3 numbers; `fp` is its path for messages. */
int rc_json_vec3_of(rc_json_ctx *c, const cJSON *it, const char *fp, rc_vec3 *out);
/* Field `key` of `o` as a vector; absent -> def unless required. */
int rc_json_vec3(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                 rc_vec3 def, rc_vec3 *out);
/* A colour: 3 numbers in [0, hi]. */
int rc_json_color(rc_json_ctx *c, const cJSON *o, const char *path, const char *key, int required,
                  rc_vec3 def, float hi, rc_vec3 *out);
/* A required string field; NULL (error set) if missing or not a string. */
const char *rc_json_string(rc_json_ctx *c, const cJSON *o, const char *path, const char *key);

#endif /* RC_JSON_FIELDS_H */
