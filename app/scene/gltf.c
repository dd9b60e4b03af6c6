/* gltf.c: the glTF 2.0 reader (gltf.h). The JSON is checked element by element into small
 * tables (buffers, views, accessors, primitives, nodes) before any binary data is read; the
 * data is then read straight from the buffers, strided, with every range proven in bounds by
 * the tables. Sizes are size_t and every product is checked.
 *
 * The reader is split by idea into files listed in gltf_internal.h, which holds what they
 * share. This file: the .glb container, the JSON text, the asset and the top-level arrays,
 * the order of the reading, and the result. */
#define _POSIX_C_SOURCE 200809L
#include "gltf_internal.h"
#include "read_file.h"
#include "read_par.h"
#include "scene.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_NODE_BYTES 96        /* a cJSON node, its key's copy and the allocator's share */
#define MAX_ARRAY       (1 << 24) /* elements of a top-level array */
#define GLB_JSON        0x4E4F534Au
#define GLB_BIN         0x004E4942u

/* ---- the top level ---- */

/* A top-level array of objects as element pointers. */
static int top_array(gctx *c, const char *key, const cJSON ***items, int *n) {
    const cJSON *arr;
    if (gltf_jarray(c, c->root, "", key, &arr, n) <= 0) return arr ? -1 : 0;
    if (*n > MAX_ARRAY) return gltf_fail(c, key, "more than %d elements", MAX_ARRAY);
    if (*n == 0) return 0;
    *items = malloc((size_t)*n * sizeof **items);
    if (!*items) return gltf_fail(c, key, "out of memory");
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        char fp[64];
        gltf_jindex(fp, sizeof fp, key, i);
        if (!cJSON_IsObject(e)) return gltf_fail(c, fp, "expected an object");
        /* the properties every glTF object may have */
        const char *name;
        const cJSON *ext;
        if (gltf_jstring(c, e, fp, "name", &name) != 0 ||
            gltf_jobject(c, e, fp, "extensions", &ext) < 0)
            return -1;
        (*items)[i] = e;
    }
    return 0;
}

static int check_asset(gctx *c) {
    static const char *const supported[] = {
        "KHR_texture_transform", "KHR_materials_emissive_strength", "KHR_materials_transmission",
        "KHR_materials_ior",     "KHR_mesh_quantization",           NULL};
    const cJSON *asset, *arr;
    const char *ver, *minv;
    int n;
    if (gltf_jobject(c, c->root, "", "asset", &asset) < 0) return -1;
    if (!asset) return gltf_fail(c, "asset", "missing");
    if (gltf_jstring(c, asset, "asset", "version", &ver) != 0 ||
        gltf_jstring(c, asset, "asset", "minVersion", &minv) != 0)
        return -1;
    if (!ver) return gltf_fail(c, "asset.version", "missing");
    char shown[40];
    size_t d = 2;
    int ok = ver[0] == '2' && ver[1] == '.' && ver[2] >= '0' && ver[2] <= '9';
    while (ok && ver[d + 1]) ok = ver[++d] >= '0' && ver[d] <= '9';
    if (!ok)
        return gltf_fail(c, "asset.version", "'%s' is not 2.x (only glTF 2 is read)",
                         echo_escape(shown, sizeof shown, ver));
    if (minv && strcmp(minv, "2.0") != 0)
        return gltf_fail(c, "asset.minVersion", "'%s': only glTF 2.0 is read",
                         echo_escape(shown, sizeof shown, minv));
    for (int pass = 0; pass < 2; pass++) {
        const char *key = pass ? "extensionsRequired" : "extensionsUsed";
        if (gltf_jarray(c, c->root, "", key, &arr, &n) < 0) return -1;
        int i = 0;
        for (const cJSON *e = n ? arr->child : NULL; e; e = e->next, i++) {
            char p[64];
            if (!cJSON_IsString(e))
                return gltf_fail(c, gltf_jindex(p, sizeof p, key, i), "expected a string");
            if (!pass) {
                c->quantized |= !strcmp(e->valuestring, "KHR_mesh_quantization");
                continue;
            }
            int known = 0;
            for (const char *const *s = supported; *s; s++) known |= !strcmp(*s, e->valuestring);
            if (!known)
                return gltf_fail(c, gltf_jindex(p, sizeof p, key, i),
                                 "the file requires %s, which this reader does not support",
                                 echo_escape(shown, sizeof shown, e->valuestring));
        }
    }
    return 0;
}

/* An upper bound of the cJSON tree's size: one node a value at most, and a value is the first
 * of its container or follows a comma; the text itself for the strings' copies. */
static size_t json_estimate(const char *s, size_t n) {
    size_t nodes = 1;
    for (size_t i = 0; i < n; i++) nodes += s[i] == ',' || s[i] == '[' || s[i] == '{';
    return add_sat(mul_sat(nodes, JSON_NODE_BYTES), n + 1);
}

static int parse_json(gctx *c, const char *text, size_t len) {
    if (gltf_charge(c, json_estimate(text, len), "", "the JSON tree") != 0) return -1;
    const char *end = NULL;
    c->root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!c->root) {
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        size_t line = 1, col = 1;
        for (size_t i = 0; i < at && i < len; i++) {
            if (text[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return rc_fail(c->err, "%s:%zu:%zu: invalid JSON", c->file, line, col);
    }
    for (const char *q = end; q && q < text + len; q++)
        if (*q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' && *q != '\0')
            return gltf_fail(c, "", "text after the JSON value at byte %zu", (size_t)(q - text));
    if (!cJSON_IsObject(c->root)) return gltf_fail(c, "", "the glTF JSON must be an object");
    return 0;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The .glb container: header, the JSON chunk, an optional BIN chunk (used in place). */
static int parse_glb(gctx *c, const uint8_t *d, size_t len, const char **json, size_t *json_len) {
    if (len < 12)
        return gltf_fail(c, "", "a .glb needs a 12-byte header (the file has %zu bytes)", len);
    uint32_t version = le32(d + 4), total = le32(d + 8);
    if (version != 2) return gltf_fail(c, "", "glb version %u (only 2 is read)", version);
    if (total != len)
        return gltf_fail(c, "", "the glb header's length %u is not the file's size %zu", total,
                         len);
    size_t at = 12;
    int have_json = 0, have_bin = 0;
    while (at < len) {
        if (len - at < 8) return gltf_fail(c, "", "glb chunk header at byte %zu is truncated", at);
        uint32_t cl = le32(d + at), ct = le32(d + at + 4);
        if (cl > len - at - 8)
            return gltf_fail(c, "",
                             "glb chunk at byte %zu: length %u runs past the end of the file "
                             "(%zu bytes)",
                             at, cl, len);
        if (cl % 4)
            return gltf_fail(c, "", "glb chunk at byte %zu: length %u is not a multiple of 4", at,
                             cl);
        const uint8_t *body = d + at + 8;
        if (!have_json) {
            if (ct != GLB_JSON) return gltf_fail(c, "", "the first glb chunk is not JSON");
            *json = (const char *)body;
            *json_len = cl;
            have_json = 1;
        } else if (ct == GLB_JSON) {
            return gltf_fail(c, "", "a second JSON chunk at byte %zu", at);
        } else if (ct == GLB_BIN) {
            if (have_bin) return gltf_fail(c, "", "a second BIN chunk at byte %zu", at);
            if (at != 12 + 8 + *json_len)
                return gltf_fail(c, "", "the BIN chunk does not follow the JSON chunk");
            c->bin = body;
            c->bin_len = cl;
            have_bin = 1;
        }
        at += 8 + (size_t)cl;
    }
    if (!have_json) return gltf_fail(c, "", "the glb has no JSON chunk");
    return 0;
}

static int parse_all(gctx *c, const uint8_t *data, size_t len) {
    const char *json = (const char *)data;
    size_t json_len = len;
    c->is_glb = len >= 4 && memcmp(data, "glTF", 4) == 0;
    size_t nl = strlen(c->file);
    if (!c->is_glb && nl >= 4 && strcmp(c->file + nl - 4, ".glb") == 0)
        return gltf_fail(c, "", "not a .glb file: it does not start with 'glTF'");
    if (c->is_glb && parse_glb(c, data, len, &json, &json_len) != 0) return -1;
    if (parse_json(c, json, json_len) != 0) return -1;
    size_t scene;
    if (check_asset(c) != 0 ||
        gltf_juint(c, c->root, "", "scene", 0, 0, 0, SIZE_MAX >> 1, &scene) != 0)
        return -1;
    if (top_array(c, "buffers", &c->a_buffers, &c->n_buffers) != 0 ||
        top_array(c, "bufferViews", &c->a_views, &c->n_views) != 0 ||
        top_array(c, "accessors", &c->a_accs, &c->n_accs) != 0 ||
        top_array(c, "meshes", &c->a_meshes, &c->n_meshes) != 0 ||
        top_array(c, "nodes", &c->a_nodes, &c->n_nodes) != 0 ||
        top_array(c, "materials", &c->a_mats, &c->n_mats) != 0 ||
        top_array(c, "textures", &c->a_texs, &c->n_texs) != 0 ||
        top_array(c, "images", &c->a_imgs, &c->n_imgs) != 0 ||
        top_array(c, "samplers", &c->a_samps, &c->n_samps) != 0 ||
        top_array(c, "cameras", &c->a_cams, &c->n_cams) != 0 ||
        top_array(c, "scenes", &c->a_scenes, &c->n_scenes) != 0)
        return -1;
    if (gltf_read_buffers(c) != 0 || gltf_read_views(c) != 0 || gltf_read_accessors(c) != 0 ||
        gltf_read_samplers(c) != 0 || gltf_read_textures(c) != 0 || gltf_check_cameras(c) != 0 ||
        gltf_read_meshes(c) != 0 || gltf_read_nodes(c) != 0 || gltf_select_scene(c) != 0)
        return -1;
    int need_default = 0;
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->mesh < 0) continue;
        for (size_t j = 0; j < c->meshes[nd->mesh].count; j++) {
            const gprim *g = &c->prims[c->meshes[nd->mesh].first + j];
            need_default |= g->triangles && g->material < 0;
        }
    }
    if (gltf_read_materials(c, need_default) != 0 || gltf_build_parts(c) != 0 ||
        gltf_read_images(c) != 0 || gltf_read_camera(c) != 0)
        return -1;
    return 0;
}

static void ctx_free(gctx *c) {
    cJSON_Delete(c->root);
    free(c->a_buffers);
    free(c->a_views);
    free(c->a_accs);
    free(c->a_meshes);
    free(c->a_nodes);
    free(c->a_mats);
    free(c->a_texs);
    free(c->a_imgs);
    free(c->a_samps);
    free(c->a_cams);
    free(c->a_scenes);
    for (int i = 0; c->bufs && i < c->n_buffers; i++) free(c->bufs[i].owned);
    free(c->bufs);
    free(c->views);
    free(c->accs);
    free(c->prims);
    free(c->meshes);
    free(c->nodes);
    free(c->order);
}

static size_t limit_bytes(const rc_gltf_options *opt) {
    size_t mib = opt->max_mib ? opt->max_mib : RC_DEFAULT_MAX_MEMORY_MIB;
    return mib > SIZE_MAX / MIB ? SIZE_MAX : mib * MIB;
}

static int parse_with(const char *name, const char *dir, const void *data, size_t len,
                      const rc_gltf_options *opt, size_t used, rc_import *out, rc_error *err) {
    static const rc_gltf_options none = {0, NULL, NULL};
    memset(out, 0, sizeof *out);
    gctx c;
    memset(&c, 0, sizeof c);
    c.file = name;
    c.dir = dir;
    c.err = err;
    c.opt = opt ? opt : &none;
    c.limit = limit_bytes(c.opt);
    c.used = used;
    c.out = out;
    int rc = parse_all(&c, data, len);
    ctx_free(&c);
    if (rc != 0) rc_import_free(out);
    return rc;
}

int rc_gltf_parse(const char *name, const char *dir, const void *data, size_t len,
                  const rc_gltf_options *opt, rc_import *out, rc_error *err) {
    return parse_with(name, dir, data, len, opt, 0, out, err);
}

int rc_gltf_load(const char *path, const rc_gltf_options *opt, rc_import *out, rc_error *err) {
    static const rc_gltf_options none = {0, NULL, NULL};
    memset(out, 0, sizeof *out);
    size_t limit = limit_bytes(opt ? opt : &none);
    char *data;
    size_t len;
    if (rc_read_file_par(path, limit, &data, &len, err) != 0) return -1;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int rc = parse_with(path, dir, data, len, opt, len, out, err);
    free(data);
    return rc;
}

/* ---- the result ---- */

void rc_import_free(rc_import *im) {
    if (!im) return;
    for (size_t i = 0; im->parts && i < im->num_parts; i++) {
        rc_import_part *p = &im->parts[i];
        free(p->positions);
        free(p->normals);
        free(p->tangents);
        free(p->uv0);
        free(p->uv1);
        free(p->colors);
        free(p->indices);
    }
    free(im->parts);
    free(im->instances);
    free(im->materials);
    free(im->textures);
    for (size_t i = 0; im->images && i < im->num_images; i++) free(im->images[i].rgba);
    free(im->images);
    free(im->samplers);
    memset(im, 0, sizeof *im);
}

void rc_import_frame(const rc_import *im, float vfov, float aspect, rc_import_camera *cam) {
    memset(cam, 0, sizeof *cam);
    float c[3], r2 = 0.0f;
    for (int k = 0; k < 3; k++) {
        c[k] = 0.5f * (im->bounds_min[k] + im->bounds_max[k]);
        float h = 0.5f * (im->bounds_max[k] - im->bounds_min[k]);
        r2 += h * h;
    }
    float r = sqrtf(r2);
    if (!(r > 0.0f)) r = 1.0f;
    if (!(vfov > 0.0f && vfov < 180.0f)) vfov = 40.0f;
    double half_v = vfov * 3.14159265358979323846 / 360.0;
    double half = half_v;
    if (aspect > 0.0f) {
        double half_h = atan(tan(half_v) * aspect);
        if (half_h < half) half = half_h;
    }
    float dist = (float)(r / sin(half));
    cam->present = 1;
    for (int k = 0; k < 3; k++) {
        cam->look_at[k] = c[k];
        cam->look_from[k] = c[k];
    }
    cam->look_from[2] += dist;
    cam->up[1] = 1.0f;
    cam->vfov = vfov;
    cam->aspect = aspect;
    cam->znear = dist - r > 0.0f ? 0.01f * (dist - r) : 0.001f * r;
}
