/* scene_json.c: the scene file reader (format: scenes/FORMAT.md). Every field is checked;
 * the first problem is reported as "file: field: what is wrong". */
#include "json_fields.h"
#include "json_instances.h"
#include "obj.h"
#include "grow.h"
#include "out_path.h"
#include "scene_import.h"
#include "timing.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCENE_BYTES ((size_t)1 << 30)

/* ---- render, camera, background ---- */

static int parse_render(rc_json_ctx *c, const cJSON *o) {
    static const char *const keys[] = {"width",     "height",         "spp",
                                       "max_depth", "light_sampling", NULL};
    rc_render_defaults *d = &c->s->defaults;
    if (!o) return 0;
    if (rc_json_check_fields(c, o, "render", keys) != 0) return -1;
    if (cJSON_GetObjectItemCaseSensitive(o, "light_sampling")) {
        const char *ls = rc_json_string(c, o, "render", "light_sampling");
        if (!ls) return -1;
        if (rc_light_sampling_parse(ls, &d->light_sampling) != 0)
            return rc_json_fail(c, "render.light_sampling", "'%s' is not one of: nee, bsdf", ls);
    }
    if (rc_json_uint(c, o, "render", "width", d->width, 1, RC_MAX_SIZE, &d->width) != 0) return -1;
    if (rc_json_uint(c, o, "render", "height", d->height, 1, RC_MAX_SIZE, &d->height) != 0)
        return -1;
    if (rc_json_uint(c, o, "render", "spp", d->spp, 1, 1u << 20, &d->spp) != 0) return -1;
    return rc_json_uint(c, o, "render", "max_depth", d->max_depth, 1, RC_MAX_DEPTH, &d->max_depth);
}

static int parse_camera(rc_json_ctx *c, const cJSON *o) {
    static const char *const keys[] = {"look_from", "look_at",        "up", "vfov",
                                       "aperture",  "focus_distance", NULL};
    rc_camera_desc *cam = &c->s->camera;
    if (!o) return rc_json_fail(c, "camera", "missing");
    if (rc_json_check_fields(c, o, "camera", keys) != 0) return -1;
    if (rc_json_vec3(c, o, "camera", "look_from", 1, cam->look_from, &cam->look_from) != 0 ||
        rc_json_vec3(c, o, "camera", "look_at", 1, cam->look_at, &cam->look_at) != 0 ||
        rc_json_vec3(c, o, "camera", "up", 0, rc_v3(0, 1, 0), &cam->up) != 0)
        return -1;
    rc_vec3 view = rc_sub(cam->look_at, cam->look_from);
    float dist = rc_length(view);
    if (!(dist > 0.0f)) return rc_json_fail(c, "camera.look_at", "equals look_from");
    if (rc_length(rc_cross(view, cam->up)) <= 1e-6f * dist * rc_length(cam->up))
        return rc_json_fail(c, "camera.up", "is zero or parallel to the viewing direction");
    if (rc_json_ranged(c, o, "camera", "vfov", 0, 40.0, 0.0, 180.0, 1, 1, &cam->vfov) != 0 ||
        rc_json_ranged(c, o, "camera", "aperture", 0, 0.0, 0.0, RC_JSON_MAX_COORD, 0, 0,
                       &cam->aperture) != 0)
        return -1;
    return rc_json_ranged(c, o, "camera", "focus_distance", 0, dist, 0.0, RC_JSON_MAX_COORD, 1, 0,
                          &cam->focus_distance);
}

static int parse_background(rc_json_ctx *c, const cJSON *o) {
    static const char *const keys[] = {"type", "color", "bottom", "top", NULL};
    rc_background *bg = &c->s->background;
    if (!o) return 0;
    if (rc_json_check_fields(c, o, "background", keys) != 0) return -1;
    const char *type = rc_json_string(c, o, "background", "type");
    if (!type) return -1;
    float big = 1e6f;
    if (strcmp(type, "sky") == 0) {
        bg->type = RC_BG_SKY;
        if (cJSON_GetObjectItemCaseSensitive(o, "color"))
            return rc_json_fail(c, "background.color", "a sky has bottom and top, not color");
        if (rc_json_color(c, o, "background", "bottom", 0, rc_v3(1, 1, 1), big, &bg->bottom) != 0)
            return -1;
        return rc_json_color(c, o, "background", "top", 0, rc_v3(0.5f, 0.7f, 1.0f), big, &bg->top);
    }
    if (strcmp(type, "constant") == 0) {
        bg->type = RC_BG_CONSTANT;
        if (cJSON_GetObjectItemCaseSensitive(o, "bottom") ||
            cJSON_GetObjectItemCaseSensitive(o, "top"))
            return rc_json_fail(c, "background", "a constant background has color, not bottom/top");
        if (rc_json_color(c, o, "background", "color", 1, rc_v3s(0), big, &bg->bottom) != 0)
            return -1;
        bg->top = bg->bottom;
        return 0;
    }
    return rc_json_fail(c, "background.type", "'%s' is not one of: sky, constant", type);
}

/* "environment": an equirectangular Radiance HDR map lighting the scene from every
 * direction, the file relative to the scene's folder; it takes the place of the background
 * (both at once are refused: one of them would be ignored). Its bytes count against the memory
 * limit as primitives' worth. */
#define ENV_MAX_SCALE 1e6

static int parse_environment(rc_json_ctx *c, const cJSON *o, int has_background) {
    static const char *const keys[] = {"file", "rotation", "scale", NULL};
    if (!o) return 0;
    if (rc_json_check_fields(c, o, "environment", keys) != 0) return -1;
    if (has_background)
        return rc_json_fail(c, "environment",
                            "a scene has a background or an environment, not both (the "
                            "environment lights the rays that leave the scene)");
    const char *file = rc_json_string(c, o, "environment", "file");
    if (!file) return -1;
    if (!*file) return rc_json_fail(c, "environment.file", "is empty");
    double rot = 0.0;
    float scale = 1.0f;
    if (rc_json_number(c, o, "environment", "rotation", 0, 0.0, &rot) != 0 ||
        rc_json_ranged(c, o, "environment", "scale", 0, 1.0, 0.0, ENV_MAX_SCALE, 0, 0, &scale) != 0)
        return -1;
    char full[4096];
    if (file[0] == '/')
        snprintf(full, sizeof full, "%s", file);
    else
        snprintf(full, sizeof full, "%s/%s", c->dir, file);
    size_t room = SIZE_MAX;
    if (c->s->max_prims)
        room = c->s->num_prims < c->s->max_prims
                   ? (c->s->max_prims - c->s->num_prims) * RC_SCENE_PRIM_BYTES
                   : 0;
    rc_env_map env;
    rc_error eerr;
    double t0 = timing_now_ms();
    if (rc_env_load_file(full, room, &env, &eerr) != 0)
        return rc_json_fail(c, "environment", "%s", eerr.msg);
    c->s->image_ms += timing_now_ms() - t0;
    if (c->s->max_prims) {
        size_t used = (rc_env_bytes(&env) + RC_SCENE_PRIM_BYTES - 1) / RC_SCENE_PRIM_BYTES;
        /* the map fit the room, so used <= max_prims; 0 would mean no limit */
        c->s->max_prims = c->s->max_prims > used ? c->s->max_prims - used : 1;
    }
    rc_scene_set_env(c->s, &env, (float)rot, scale);
    return 0;
}

/* ---- materials ---- */

/* The emission any material may have beside its own fields: "emission" (each component in
 * [0, 1e6]) times "emission_strength" (in [0, 1e6], default 1); an emissive material's
 * emission is its required field, read here all the same. */
static int parse_emission(rc_json_ctx *c, const cJSON *o, const char *path, int required,
                          rc_vec3 *out) {
    float strength = 1.0f;
    if (rc_json_color(c, o, path, "emission", required, rc_v3s(0), 1e6f, out) != 0 ||
        rc_json_ranged(c, o, path, "emission_strength", 0, 1.0, 0.0, 1e6, 0, 0, &strength) != 0)
        return -1;
    char fp[256];
    if (cJSON_GetObjectItemCaseSensitive(o, "emission_strength") &&
        !cJSON_GetObjectItemCaseSensitive(o, "emission"))
        return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, "emission_strength"),
                            "needs an emission colour");
    *out = rc_scale(*out, strength);
    return 0;
}

#define MAT_TYPES "lambertian, metal, dielectric, emissive, pbr, rough_dielectric"

static int parse_material_body(rc_json_ctx *c, const cJSON *o, const char *path, rc_material *m) {
    static const char *const keys[] = {"name",     "type",      "albedo",       "fuzz",
                                       "ior",      "color",     "emission",     "emission_strength",
                                       "metallic", "roughness", "transmission", NULL};
    /* By RC_MAT_* value. */
    static const char *const types[RC_MAT_MODELS] = {"lambertian", "metal", "dielectric",
                                                     "emissive",   "pbr",   "rough_dielectric"};
    /* The fields each type reads beside name, type, emission and emission_strength. */
    static const char *const own[RC_MAT_MODELS][5] = {
        {"albedo", NULL},
        {"albedo", "fuzz", NULL},
        {"ior", "color", NULL},
        {NULL},
        {"color", "metallic", "roughness", "ior", "transmission"},
        {"color", "roughness", "ior", NULL}};
    if (rc_json_check_fields(c, o, path, keys) != 0) return -1;
    const char *type = rc_json_string(c, o, path, "type");
    if (!type) return -1;
    int t = -1;
    for (int i = 0; i < RC_MAT_MODELS; i++)
        if (strcmp(type, types[i]) == 0) t = i;
    char fp[256];
    if (t < 0)
        return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, "type"),
                            "'%s' is not one of: " MAT_TYPES, type);
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = !strcmp(it->string, "name") || !strcmp(it->string, "type") ||
                 !strcmp(it->string, "comment") || !strcmp(it->string, "emission") ||
                 !strcmp(it->string, "emission_strength");
        for (int k = 0; k < 5 && own[t][k]; k++) ok |= !strcmp(it->string, own[t][k]);
        if (!ok)
            return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, it->string),
                                "not a field of a %s material", type);
    }
    rc_vec3 color = rc_v3s(0.0f), emission = rc_v3s(0.0f);
    float param = 0.0f;
    switch (t) {
    case RC_MAT_LAMBERTIAN:
        if (rc_json_color(c, o, path, "albedo", 1, rc_v3s(0), 1.0f, &color) != 0) return -1;
        break;
    case RC_MAT_METAL:
        if (rc_json_color(c, o, path, "albedo", 1, rc_v3s(0), 1.0f, &color) != 0 ||
            rc_json_ranged(c, o, path, "fuzz", 0, 0.0, 0.0, 1.0, 0, 0, &param) != 0)
            return -1;
        break;
    case RC_MAT_DIELECTRIC:
        if (rc_json_color(c, o, path, "color", 0, rc_v3s(1), 1.0f, &color) != 0 ||
            rc_json_ranged(c, o, path, "ior", 0, 1.5, 0.0, 100.0, 1, 0, &param) != 0)
            return -1;
        break;
    case RC_MAT_PBR:
        if (rc_json_color(c, o, path, "color", 1, rc_v3s(0), 1.0f, &color) != 0) return -1;
        break;
    case RC_MAT_ROUGH_DIELECTRIC:
        if (rc_json_color(c, o, path, "color", 0, rc_v3s(1), 1.0f, &color) != 0) return -1;
        break;
    default: /* emissive: its colour is the emission */
        break;
    }
    if (parse_emission(c, o, path, t == RC_MAT_EMISSIVE, &emission) != 0) return -1;
    if (t == RC_MAT_EMISSIVE) color = emission;
    *m = rc_material_make((uint32_t)t, color, param);
    m->emission = emission;
    if (t == RC_MAT_PBR || t == RC_MAT_ROUGH_DIELECTRIC) {
        /* the defaults are rc_material_make's */
        if (rc_json_ranged(c, o, path, "roughness", 0, m->roughness, 0.0, 1.0, 0, 0,
                           &m->roughness) != 0 ||
            rc_json_ranged(c, o, path, "ior", 0, m->ior, 1.0, 4.0, 0, 0, &m->ior) != 0)
            return -1;
    }
    if (t == RC_MAT_PBR && (rc_json_ranged(c, o, path, "metallic", 0, m->metallic, 0.0, 1.0, 0, 0,
                                           &m->metallic) != 0 ||
                            rc_json_ranged(c, o, path, "transmission", 0, m->transmission, 0.0, 1.0,
                                           0, 0, &m->transmission) != 0))
        return -1;
    return 0;
}

static int add_material(rc_json_ctx *c, const rc_material *m, const char *path, uint32_t *index) {
    long i = rc_scene_add_material(c->s, m);
    if (i < 0) return rc_json_fail(c, path, "out of memory (or too many materials)");
    *index = (uint32_t)i;
    return 0;
}

static int name_order(const void *a, const void *b) {
    const rc_json_name *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->index > y->index) - (x->index < y->index);
}

static int name_find(const void *key, const void *elem) {
    return strcmp((const char *)key, ((const rc_json_name *)elem)->name);
}

static int parse_materials(rc_json_ctx *c, const cJSON *arr) {
    if (!arr) return 0;
    if (!cJSON_IsArray(arr)) return rc_json_fail(c, "materials", "expected an array");
    int i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        char path[64];
        rc_json_index(path, sizeof path, "materials", i);
        rc_material m;
        if (parse_material_body(c, o, path, &m) != 0) return -1;
        const char *name = rc_json_string(c, o, path, "name");
        if (!name) return -1;
        uint32_t index = 0;
        if (add_material(c, &m, path, &index) != 0) return -1;
        if (rc_grow((void **)&c->names, &c->cap_names, c->num_names + 1, sizeof *c->names) != 0)
            return rc_json_fail(c, path, "out of memory");
        c->names[c->num_names].name = name;
        c->names[c->num_names].index = index;
        c->num_names++;
    }
    /* Sorted by name (then by place), so that a duplicate is a neighbour and a lookup is a
     * binary search: O(n log n) for n names. */
    if (c->num_names > 1) qsort(c->names, c->num_names, sizeof *c->names, name_order);
    size_t dup = SIZE_MAX;
    for (size_t k = 1; k < c->num_names; k++)
        if (strcmp(c->names[k - 1].name, c->names[k].name) == 0 &&
            (dup == SIZE_MAX || c->names[k].index < c->names[dup].index))
            dup = k;
    if (dup != SIZE_MAX) {
        char path[64];
        rc_json_index(path, sizeof path, "materials", (int)c->names[dup].index);
        return rc_json_fail(c, path, "material name '%s' is used twice", c->names[dup].name);
    }
    return 0;
}

/* "material": a name from the materials list, or a material object given inline. */
static int material_ref(rc_json_ctx *c, const cJSON *o, const char *path, uint32_t *index) {
    char fp[256];
    rc_json_join(fp, sizeof fp, path, "material");
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, "material");
    if (!it) return rc_json_fail(c, fp, "missing");
    if (cJSON_IsString(it)) {
        const rc_json_name *n = c->num_names ? bsearch(it->valuestring, c->names, c->num_names,
                                                       sizeof *c->names, name_find)
                                             : NULL;
        if (!n) return rc_json_fail(c, fp, "no material named '%s'", it->valuestring);
        *index = n->index;
        return 0;
    }
    if (!cJSON_IsObject(it))
        return rc_json_fail(c, fp, "expected a material name or a material object");
    if (cJSON_GetObjectItemCaseSensitive(it, "name"))
        return rc_json_fail(c, fp,
                            "an inline material has no name (define named ones in materials)");
    rc_material m;
    if (parse_material_body(c, it, fp, &m) != 0) return -1;
    return add_material(c, &m, fp, index);
}

/* ---- geometry ---- */

typedef int (*item_fn)(rc_json_ctx *c, const cJSON *o, const char *path);

static int parse_list(rc_json_ctx *c, const cJSON *root, const char *key, item_fn fn) {
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!arr) return 0;
    if (!cJSON_IsArray(arr)) return rc_json_fail(c, key, "expected an array");
    int i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        char path[64];
        if (fn(c, o, rc_json_index(path, sizeof path, key, i)) != 0) return -1;
    }
    return 0;
}

static int out_of_memory(rc_json_ctx *c, const char *path) {
    if (c->s->max_prims && c->s->num_prims >= c->s->max_prims)
        return rc_json_fail(c, path,
                            "too many primitives: more than %zu would take more than the memory "
                            "limit of %zu MiB (--max-memory MIB raises it)",
                            c->s->max_prims, c->s->max_mib);
    return rc_json_fail(c, path, "out of memory (or too many primitives)");
}

static int parse_sphere(rc_json_ctx *c, const cJSON *o, const char *path) {
    static const char *const keys[] = {"center", "radius", "material", NULL};
    rc_vec3 center;
    double r;
    uint32_t mat;
    if (rc_json_check_fields(c, o, path, keys) != 0 ||
        rc_json_vec3(c, o, path, "center", 1, rc_v3s(0), &center) != 0 ||
        rc_json_number(c, o, path, "radius", 1, 0.0, &r) != 0)
        return -1;
    char fp[256];
    if (r == 0.0)
        return rc_json_fail(c, rc_json_join(fp, sizeof fp, path, "radius"), "must not be 0");
    if (material_ref(c, o, path, &mat) != 0) return -1;
    if (rc_scene_add_sphere(c->s, center, (float)r, mat) != 0) return out_of_memory(c, path);
    return 0;
}

static int parse_quad(rc_json_ctx *c, const cJSON *o, const char *path) {
    static const char *const keys[] = {"corner", "u", "v", "material", NULL};
    rc_vec3 q, u, v;
    uint32_t mat;
    if (rc_json_check_fields(c, o, path, keys) != 0 ||
        rc_json_vec3(c, o, path, "corner", 1, rc_v3s(0), &q) != 0 ||
        rc_json_vec3(c, o, path, "u", 1, rc_v3s(0), &u) != 0 ||
        rc_json_vec3(c, o, path, "v", 1, rc_v3s(0), &v) != 0)
        return -1;
    if (!(rc_length(rc_cross(u, v)) > 0.0f))
        return rc_json_fail(c, path, "u and v are zero or parallel (the quad has no area)");
    if (material_ref(c, o, path, &mat) != 0) return -1;
    if (rc_scene_add_quad(c->s, q, u, v, mat) != 0) return out_of_memory(c, path);
    return 0;
}

static int parse_triangle(rc_json_ctx *c, const cJSON *o, const char *path) {
    static const char *const keys[] = {"vertices", "material", NULL};
    char fp[256];
    if (rc_json_check_fields(c, o, path, keys) != 0) return -1;
    rc_json_join(fp, sizeof fp, path, "vertices");
    const cJSON *vs = cJSON_GetObjectItemCaseSensitive(o, "vertices");
    if (!vs) return rc_json_fail(c, fp, "missing");
    if (!cJSON_IsArray(vs) || cJSON_GetArraySize(vs) != 3)
        return rc_json_fail(c, fp, "expected an array of 3 points");
    rc_vec3 p[3];
    int i = 0;
    for (const cJSON *e = vs->child; e; e = e->next, i++) {
        char ep[300];
        snprintf(ep, sizeof ep, "%s[%d]", fp, i);
        if (rc_json_vec3_of(c, e, ep, &p[i]) != 0) return -1;
    }
    if (!(rc_length(rc_cross(rc_sub(p[1], p[0]), rc_sub(p[2], p[0]))) > 0.0f))
        return rc_json_fail(c, fp, "the triangle has no area");
    uint32_t mat;
    if (material_ref(c, o, path, &mat) != 0) return -1;
    if (rc_scene_add_triangle(c->s, p[0], p[1], p[2], mat) != 0) return out_of_memory(c, path);
    return 0;
}

/* A placement: scale, then rotate about y (degrees), then translate. */
typedef struct placement {
    rc_vec3 scale, translate;
    float cos_y, sin_y;
} placement;

static rc_vec3 place_dir(const placement *pl, rc_vec3 d) {
    d = rc_mul(d, pl->scale);
    return rc_v3(pl->cos_y * d.x + pl->sin_y * d.z, d.y, -pl->sin_y * d.x + pl->cos_y * d.z);
}
static rc_vec3 place_point(const placement *pl, rc_vec3 p) {
    return rc_add(place_dir(pl, p), pl->translate);
}

static int parse_placement(rc_json_ctx *c, const cJSON *o, const char *path, int allow_scale,
                           placement *pl) {
    double deg = 0.0;
    char fp[256];
    if (rc_json_number(c, o, path, "rotate_y", 0, 0.0, &deg) != 0 ||
        rc_json_vec3(c, o, path, "translate", 0, rc_v3s(0), &pl->translate) != 0)
        return -1;
    pl->cos_y = (float)cos(deg * 3.14159265358979323846 / 180.0);
    pl->sin_y = (float)sin(deg * 3.14159265358979323846 / 180.0);
    pl->scale = rc_v3s(1.0f);
    const cJSON *sc = allow_scale ? cJSON_GetObjectItemCaseSensitive(o, "scale") : NULL;
    if (!sc) return 0;
    rc_json_join(fp, sizeof fp, path, "scale");
    if (cJSON_IsNumber(sc)) {
        double s;
        if (rc_json_number(c, o, path, "scale", 1, 1.0, &s) != 0) return -1;
        pl->scale = rc_v3s((float)s);
    } else if (rc_json_vec3_of(c, sc, fp, &pl->scale) != 0) {
        return -1;
    }
    if (pl->scale.x == 0.0f || pl->scale.y == 0.0f || pl->scale.z == 0.0f)
        return rc_json_fail(c, fp, "must not be 0");
    return 0;
}

/* A box as six quads (RTIOW "The Next Week" §8), placed by rotate_y and translate. */
static int parse_box(rc_json_ctx *c, const cJSON *o, const char *path) {
    static const char *const keys[] = {"min", "max", "rotate_y", "translate", "material", NULL};
    rc_vec3 a, b;
    placement pl;
    uint32_t mat;
    if (rc_json_check_fields(c, o, path, keys) != 0 ||
        rc_json_vec3(c, o, path, "min", 1, rc_v3s(0), &a) != 0 ||
        rc_json_vec3(c, o, path, "max", 1, rc_v3s(0), &b) != 0 ||
        parse_placement(c, o, path, 0, &pl) != 0)
        return -1;
    if (!(a.x < b.x && a.y < b.y && a.z < b.z))
        return rc_json_fail(c, path, "min must be below max on every axis");
    if (material_ref(c, o, path, &mat) != 0) return -1;
    rc_vec3 dx = rc_v3(b.x - a.x, 0, 0), dy = rc_v3(0, b.y - a.y, 0), dz = rc_v3(0, 0, b.z - a.z);
    const rc_vec3 corner[6] = {rc_v3(a.x, a.y, b.z), rc_v3(b.x, a.y, b.z), rc_v3(b.x, a.y, a.z),
                               rc_v3(a.x, a.y, a.z), rc_v3(a.x, b.y, b.z), a};
    const rc_vec3 u[6] = {dx, rc_neg(dz), rc_neg(dx), dz, dx, dx};
    const rc_vec3 v[6] = {dy, dy, dy, dy, rc_neg(dz), dz};
    for (int f = 0; f < 6; f++)
        if (rc_scene_add_quad(c->s, place_point(&pl, corner[f]), place_dir(&pl, u[f]),
                              place_dir(&pl, v[f]), mat) != 0)
            return out_of_memory(c, path);
    return 0;
}

/* A normal placed: the inverse transpose of the scale, then the rotation (not normalized:
 * the surface normalizes what it interpolates). */
static rc_vec3 place_normal(const placement *pl, rc_vec3 n) {
    n = rc_v3(n.x / pl->scale.x, n.y / pl->scale.y, n.z / pl->scale.z);
    return rc_v3(pl->cos_y * n.x + pl->sin_y * n.z, n.y, -pl->sin_y * n.x + pl->cos_y * n.z);
}

/* The vertex data of corner k of triangle t: its normal (placed) and uv, each where the face
 * names one. */
static long add_corner(rc_json_ctx *c, const rc_mesh *mesh, const placement *pl, size_t t, int k) {
    uint32_t ti = mesh->tri_t ? mesh->tri_t[3 * t + k] : RC_OBJ_NONE;
    uint32_t ni = mesh->tri_n ? mesh->tri_n[3 * t + k] : RC_OBJ_NONE;
    float nrm[3], uv[2];
    if (ni != RC_OBJ_NONE) {
        const float *n = &mesh->vn[3 * (size_t)ni];
        rc_vec3 q = place_normal(pl, rc_v3(n[0], n[1], n[2]));
        nrm[0] = q.x, nrm[1] = q.y, nrm[2] = q.z;
    }
    if (ti != RC_OBJ_NONE) {
        uv[0] = mesh->vt[2 * (size_t)ti];
        uv[1] = mesh->vt[2 * (size_t)ti + 1];
    }
    return rc_scene_add_vertex(c->s, ni != RC_OBJ_NONE ? nrm : NULL, ti != RC_OBJ_NONE ? uv : NULL);
}

/* Host bytes a triangle's vertex data takes: three corners of a normal and a uv (each corner
 * its own vertex), its vertex indices and its entries in both orders of the index. */
#define MESH_TRI_VERTEX_BYTES (3 * 5 * sizeof(float) + 5 * sizeof(uint32_t))

static int add_mesh(rc_json_ctx *c, const rc_mesh *mesh, const placement *pl, uint32_t mat,
                    const char *path) {
    int attrs = mesh->tri_t || mesh->tri_n;
    if (attrs && c->s->max_prims) {
        /* the vertex data counts against the memory limit as primitives' worth of bytes */
        size_t extra = (mesh->num_triangles * MESH_TRI_VERTEX_BYTES + RC_SCENE_PRIM_BYTES - 1) /
                       RC_SCENE_PRIM_BYTES;
        if (c->s->num_prims + mesh->num_triangles + extra > c->s->max_prims)
            return rc_json_fail(c, path,
                                "%zu triangles with their normals and texture coordinates would "
                                "take more than the memory limit of %zu MiB (--max-memory MIB "
                                "raises it)",
                                mesh->num_triangles, c->s->max_mib);
        c->s->max_prims -= extra;
    }
    for (size_t t = 0; t < mesh->num_triangles; t++) {
        rc_vec3 p[3];
        for (int k = 0; k < 3; k++) {
            const float *v = &mesh->v[3 * mesh->tri[3 * t + k]];
            p[k] = place_point(pl, rc_v3(v[0], v[1], v[2]));
        }
        int rc;
        if (attrs) {
            uint32_t vtx[3];
            for (int k = 0; k < 3; k++) {
                long vi = add_corner(c, mesh, pl, t, k);
                if (vi < 0) return out_of_memory(c, path);
                vtx[k] = (uint32_t)vi;
            }
            rc = rc_scene_add_triangle_vtx(c->s, p[0], p[1], p[2], mat, vtx);
        } else {
            rc = rc_scene_add_triangle(c->s, p[0], p[1], p[2], mat);
        }
        if (rc != 0) return out_of_memory(c, path);
    }
    return 0;
}

static rc_vec3 import_point(const void *ctx, rc_vec3 p) {
    return place_point(ctx, p);
}
static rc_vec3 import_normal(const void *ctx, rc_vec3 n) {
    return place_normal(ctx, n);
}
static rc_vec3 import_dir(const void *ctx, rc_vec3 d) {
    return place_dir(ctx, d);
}

/* A glTF model as a mesh: its triangles placed, of the material the JSON names, or of the
 * file's own materials (mapped) when it names none. An OBJ mesh without a material comes here
 * too: its MTL materials (or the grey default). */
static int parse_gltf_mesh(rc_json_ctx *c, const cJSON *o, const char *path, const char *full,
                           const placement *pl) {
    long mat = -1;
    if (cJSON_GetObjectItemCaseSensitive(o, "material")) {
        uint32_t m;
        if (material_ref(c, o, path, &m) != 0) return -1;
        mat = (long)m;
    }
    size_t room = SIZE_MAX;
    if (c->s->max_prims)
        room = c->s->num_prims < c->s->max_prims
                   ? (c->s->max_prims - c->s->num_prims) * RC_SCENE_PRIM_BYTES
                   : 0;
    rc_import im;
    rc_error ierr;
    if (rc_import_read(full, room == SIZE_MAX ? 0 : (room >> 20) + 1, &im, &ierr) != 0)
        return rc_json_fail(c, path, "%s", ierr.msg);
    rc_import_place place = {import_point, import_normal, import_dir, pl};
    size_t budget = room == SIZE_MAX ? SIZE_MAX : room > im.bytes ? room - im.bytes : 0;
    int rc = rc_scene_add_import(c->s, &im, &place, mat, budget, full, &ierr);
    rc_import_free(&im);
    return rc != 0 ? rc_json_fail(c, path, "%s", ierr.msg) : 0;
}

static int parse_mesh(rc_json_ctx *c, const cJSON *o, const char *path) {
    static const char *const keys[] = {"file",     "scale", "rotate_y", "translate",
                                       "material", "name",  NULL};
    placement pl;
    uint32_t mat;
    if (rc_json_check_fields(c, o, path, keys) != 0 || parse_placement(c, o, path, 1, &pl) != 0)
        return -1;
    const char *file = rc_json_string(c, o, path, "file");
    if (!file) return -1;
    char full[4096];
    if (file[0] == '/')
        snprintf(full, sizeof full, "%s", file);
    else
        snprintf(full, sizeof full, "%s/%s", c->dir, file);
    int kind = rc_scene_model_kind(full);
    if (kind == RC_MODEL_GLTF ||
        (kind == RC_MODEL_OBJ && !cJSON_GetObjectItemCaseSensitive(o, "material")))
        return parse_gltf_mesh(c, o, path, full, &pl);
    /* an OBJ with a material: its MTL files are not read */
    if (material_ref(c, o, path, &mat) != 0) return -1;
    rc_mesh mesh;
    rc_error oerr;
    /* The file's text takes no more than the primitives still allowed would. */
    size_t room = SIZE_MAX;
    if (c->s->max_prims)
        room = c->s->num_prims < c->s->max_prims
                   ? (c->s->max_prims - c->s->num_prims) * RC_SCENE_PRIM_BYTES
                   : 0;
    if (rc_obj_load_max(full, room, &mesh, &oerr) != 0)
        return rc_json_fail(c, path, "%s", oerr.msg);
    int rc = add_mesh(c, &mesh, &pl, mat, path);
    rc_mesh_free(&mesh);
    return rc;
}

/* "meshes", each entry that an instance names made a mesh of its own (drawn through its
 * instances), then "instances". */
static int parse_meshes_instances(rc_json_ctx *c, const cJSON *root) {
    uint8_t *used = NULL;
    if (rc_json_instances_scan(c, root, &used) != 0) {
        free(used);
        return -1;
    }
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "meshes");
    if (!arr) {
        free(used);
        return rc_json_instances_parse(c, root, NULL);
    }
    if (!cJSON_IsArray(arr)) {
        free(used);
        return rc_json_fail(c, "meshes", "expected an array");
    }
    const int n = cJSON_GetArraySize(arr);
    long *mesh_of = malloc((n > 0 ? (size_t)n : 1) * sizeof *mesh_of);
    int rc = mesh_of ? 0 : rc_json_fail(c, "meshes", "out of memory");
    int i = 0;
    for (const cJSON *o = arr->child; o && rc == 0; o = o->next, i++) {
        char path[64];
        const size_t first = c->s->num_prims;
        rc = parse_mesh(c, o, rc_json_index(path, sizeof path, "meshes", i));
        mesh_of[i] = -1;
        if (rc == 0 && used && used[i]) {
            mesh_of[i] = rc_scene_add_mesh(c->s, first);
            if (mesh_of[i] < 0) rc = rc_json_fail(c, path, "out of memory");
        }
    }
    if (rc == 0) rc = rc_json_instances_parse(c, root, mesh_of);
    free(mesh_of);
    free(used);
    return rc;
}

static int parse_root(rc_json_ctx *c, const cJSON *root) {
    static const char *const keys[] = {"render",    "camera",  "background", "environment",
                                       "materials", "spheres", "quads",      "boxes",
                                       "triangles", "meshes",  "instances",  NULL};
    if (!cJSON_IsObject(root))
        return rc_fail(c->err, "%s: the scene must be a JSON object", c->file);
    if (rc_json_check_fields(c, root, "", keys) != 0) return -1;
    if (parse_render(c, cJSON_GetObjectItemCaseSensitive(root, "render")) != 0 ||
        parse_camera(c, cJSON_GetObjectItemCaseSensitive(root, "camera")) != 0 ||
        parse_background(c, cJSON_GetObjectItemCaseSensitive(root, "background")) != 0 ||
        parse_environment(c, cJSON_GetObjectItemCaseSensitive(root, "environment"),
                          cJSON_GetObjectItemCaseSensitive(root, "background") != NULL) != 0 ||
        parse_materials(c, cJSON_GetObjectItemCaseSensitive(root, "materials")) != 0)
        return -1;
    if (parse_list(c, root, "spheres", parse_sphere) != 0 ||
        parse_list(c, root, "quads", parse_quad) != 0 ||
        parse_list(c, root, "boxes", parse_box) != 0 ||
        parse_list(c, root, "triangles", parse_triangle) != 0 ||
        parse_meshes_instances(c, root) != 0)
        return -1;
    return 0;
}

/* ---- the memory a scene file needs, before it is parsed ----
 * cJSON turns every value into a node of its own (some 80 bytes with the allocator's share,
 * and a copy of each string): a 200 MB file of small numbers would become a tree of 8 GB. One
 * pass over the text, which allocates nothing, counts what the tree will hold and stops at the
 * first point where it outgrows the budget, naming the array that is growing then. */

#define JSON_NODE_BYTES 96 /* a cJSON node, its key's copy and the allocator's overhead */
#define JSON_SCAN_DEPTH 64 /* containers named in messages; deeper ones count all the same */
#define JSON_SCAN_NAME  48

typedef struct scan_frame {
    char name[JSON_SCAN_NAME]; /* "spheres", "[3]", "center": how the parent holds it */
    int is_array;
    size_t count; /* elements so far (arrays) */
} scan_frame;

/* The field path of frame `last`, e.g. "spheres" or "meshes[2].translate". */
static void scan_path(const scan_frame *st, int last, char *out, size_t cap) {
    size_t j = 0;
    out[0] = '\0';
    for (int i = 1; i <= last && j + 1 < cap; i++) {
        const char *sep = st[i].name[0] == '[' || j == 0 ? "" : ".";
        int w = snprintf(out + j, cap - j, "%s%s", sep, st[i].name);
        if (w < 0) break;
        j += (size_t)w < cap - j ? (size_t)w : cap - j - 1;
    }
    if (!out[0]) snprintf(out, cap, "(the top level)");
}

/* 0 if the tree of `text` fits `budget` bytes (*tree: its estimate); else -1 with
 * "name: path: ..." in err. Syntax is
 * not checked here: cJSON reports it, with its position, when the text is small enough. */
static int json_budget(const char *name, const char *text, size_t len, size_t budget,
                       size_t limit_mib, size_t *tree, rc_error *err) {
    scan_frame st[JSON_SCAN_DEPTH];
    int depth = 0;
    size_t nodes = 1, string_bytes = 0;
    const char *key = NULL; /* the last string read in an object: the next container's name */
    size_t key_len = 0;
    memset(&st[0], 0, sizeof st[0]);
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (ch == '"') {
            size_t start = ++i;
            while (i < len && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
            key = text + start;
            key_len = (i < len ? i : len) - start;
            string_bytes += key_len + 1 + 16;
        } else if (ch == '[' || ch == '{') {
            nodes++;
            if (depth + 1 < JSON_SCAN_DEPTH) {
                scan_frame *f = &st[depth + 1];
                memset(f, 0, sizeof *f);
                f->is_array = ch == '[';
                if (depth > 0 && st[depth].is_array)
                    snprintf(f->name, sizeof f->name, "[%zu]", st[depth].count);
                else if (depth > 0 && key)
                    snprintf(f->name, sizeof f->name, "%.*s",
                             (int)(key_len < JSON_SCAN_NAME - 1 ? key_len : JSON_SCAN_NAME - 1),
                             key);
            }
            depth++;
            key = NULL;
        } else if (ch == ']' || ch == '}') {
            if (depth > 0) depth--;
        } else if (ch == ',') {
            nodes++;
            if (depth > 0 && depth < JSON_SCAN_DEPTH && st[depth].is_array) st[depth].count++;
        } else {
            continue;
        }
        if (nodes * JSON_NODE_BYTES + string_bytes > budget) {
            /* The open array with the most elements is the one that outgrew the limit (the
             * outermost of equals: "spheres" rather than "spheres[9].center"). */
            int top = depth < JSON_SCAN_DEPTH ? depth : JSON_SCAN_DEPTH - 1, a = 0;
            for (int k = 1; k <= top; k++)
                if (st[k].is_array && (a == 0 || st[k].count > st[a].count)) a = k;
            char path[256];
            scan_path(st, a, path, sizeof path);
            if (a == 0)
                return rc_fail(err,
                               "%s: too large: reading the scene would take more than the "
                               "memory limit of %zu MiB (--max-memory MIB raises it)",
                               name, limit_mib);
            return rc_fail(err,
                           "%s: %s: too many elements: at element %zu reading the scene would "
                           "take more than the memory limit of %zu MiB (--max-memory MIB raises "
                           "it)",
                           name, path, st[a].count + 1, limit_mib);
        }
    }
    *tree = nodes * JSON_NODE_BYTES + string_bytes;
    return 0;
}

/* cJSON reports a failed allocation as a syntax error where it happened: noted here, so that
 * the message says what went wrong. */
static _Thread_local int json_alloc_failed;

static void *json_malloc(size_t n) {
    void *p = malloc(n);
    if (!p) json_alloc_failed = 1;
    return p;
}

/* "file:line:col: invalid JSON near '...'" from the parser's stop position. */
static int json_syntax_error(const char *name, const char *text, const char *at, rc_error *err) {
    size_t line = 1, col = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char near[24];
    size_t j = 0;
    for (const char *p = at; *p && *p != '\n' && j < sizeof near - 1; p++)
        near[j++] = (*p >= 32 && *p < 127) ? *p : '?';
    near[j] = '\0';
    if (!*at)
        return rc_fail(err, "%s:%zu:%zu: invalid JSON: unexpected end of file", name, line, col);
    return rc_fail(err, "%s:%zu:%zu: invalid JSON near '%s'", name, line, col, near);
}

int rc_scene_parse_max(const char *name, const char *dir, const char *text, size_t len,
                       size_t max_mib, rc_scene *out, rc_error *err) {
    rc_scene_init(out);
    size_t sl = strlen(text);
    if (sl != len) {
        size_t line = 1;
        for (size_t i = 0; i < sl; i++) line += text[i] == '\n';
        return rc_fail(err, "%s:%zu: NUL byte in the file (not a text file)", name, line);
    }
    /* The budget: the limit, less the text (which the caller holds while this runs). */
    size_t limit = max_mib > SIZE_MAX >> 21 ? SIZE_MAX >> 1 : max_mib << 20;
    if (len >= limit)
        return rc_fail(err,
                       "%s: the file's %zu bytes alone exceed the memory limit of %zu MiB "
                       "(--max-memory MIB raises it)",
                       name, len, max_mib);
    size_t tree = 0;
    if (json_budget(name, text, len, limit - len, max_mib, &tree, err) != 0) return -1;
    const char *end = NULL;
    cJSON_Hooks hooks = {json_malloc, free};
    cJSON_InitHooks(&hooks);
    json_alloc_failed = 0;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root && json_alloc_failed)
        return rc_fail(err, "%s: out of memory reading the JSON (a tree of about %zu MiB)", name,
                       tree >> 20);
    if (!root) return json_syntax_error(name, text, end ? end : text, err);
    /* What is left after the text and the tree is for the primitives and their BVH. */
    out->max_prims = (limit - len - tree) / RC_SCENE_PRIM_BYTES;
    out->max_mib = max_mib;
    rc_json_ctx c = {name, dir, out, err, NULL, 0, 0};
    int rc = parse_root(&c, root);
    free(c.names);
    cJSON_Delete(root);
    if (rc == 0) rc = rc_scene_finish(out, err);
    if (rc != 0) rc_scene_free(out);
    return rc;
}

int rc_scene_parse(const char *name, const char *dir, const char *text, size_t len, rc_scene *out,
                   rc_error *err) {
    return rc_scene_parse_max(name, dir, text, len, RC_DEFAULT_MAX_MEMORY_MIB, out, err);
}

static int load_any(const char *path, size_t max_mib, rc_scene *out, rc_error *err) {
    char *text;
    size_t len;
    if (rc_scene_model_kind(path) != RC_MODEL_NONE)
        return rc_scene_load_model(path, max_mib, out, err);
    rc_scene_init(out);
    size_t limit = max_mib > SIZE_MAX >> 21 ? SIZE_MAX >> 1 : max_mib << 20;
    if (rc_read_file(path, limit < MAX_SCENE_BYTES ? limit : MAX_SCENE_BYTES, &text, &len, err) !=
        0)
        return -1;
    char dir[4096];
    rc_dirname(path, dir, sizeof dir);
    int rc = rc_scene_parse_max(path, dir, text, len, max_mib, out, err);
    free(text);
    return rc;
}

int rc_scene_load_max(const char *path, size_t max_mib, rc_scene *out, rc_error *err) {
    double t0 = timing_now_ms();
    int rc = load_any(path, max_mib, out, err);
    if (rc == 0) out->load_ms = timing_now_ms() - t0;
    return rc;
}

int rc_scene_load(const char *path, rc_scene *out, rc_error *err) {
    return rc_scene_load_max(path, RC_DEFAULT_MAX_MEMORY_MIB, out, err);
}
