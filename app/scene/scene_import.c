/* scene_import.c: a model file (glTF 2.0 through gltf.c, OBJ through obj.c) as a scene of the
 * renderer: its triangles with their vertex normals and texture coordinates, its materials
 * mapped onto the renderer's models, its camera (or one that frames it), the default sky. */
#include "scene_import.h"
#include "gltf.h"
#include "obj.h"
#include "out_path.h"
#include "texture_load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m) return 0;
    for (size_t i = 0; i < m; i++) {
        char c = s[n - m + i];
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != suffix[i]) return 0;
    }
    return 1;
}

int rc_scene_model_kind(const char *path) {
    if (ends_with(path, ".gltf") || ends_with(path, ".glb")) return RC_MODEL_GLTF;
    if (ends_with(path, ".obj")) return RC_MODEL_OBJ;
    return RC_MODEL_NONE;
}

/* The linear mean of a texture's RGB (sRGB texels decoded), or 1 1 1 without one. */
static void texture_mean(const rc_import *im, const rc_import_texref *t, float out[3]) {
    out[0] = out[1] = out[2] = 1.0f;
    if (t->texture < 0 || (size_t)t->texture >= im->num_textures) return;
    int32_t ii = im->textures[t->texture].image;
    if (ii < 0 || (size_t)ii >= im->num_images) return;
    const rc_import_image *img = &im->images[ii];
    size_t n = (size_t)img->width * img->height;
    if (n == 0) return;
    double sum[3] = {0, 0, 0};
    for (size_t p = 0; p < n; p++)
        for (int k = 0; k < 3; k++) {
            double v = img->rgba[4 * p + k] / 255.0;
            sum[k] += v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
        }
    for (int k = 0; k < 3; k++) out[k] = (float)(sum[k] / (double)n);
}

rc_material rc_import_material_map(const rc_import *im, const rc_import_material *g) {
    rc_material m;
    memset(&m, 0, sizeof m);
    float tex[3];
    texture_mean(im, &g->base_color_tex, tex);
    rc_vec3 base =
        rc_v3(g->base_color[0] * tex[0], g->base_color[1] * tex[1], g->base_color[2] * tex[2]);
    float e[3];
    texture_mean(im, &g->emissive_tex, e);
    rc_vec3 emit =
        rc_scale(rc_v3(g->emissive[0] * e[0], g->emissive[1] * e[1], g->emissive[2] * e[2]),
                 g->emissive_strength);
    if (rc_max_comp(emit) > 0.0f) {
        m.type = RC_MAT_EMISSIVE;
        m.color = emit;
    } else if (g->transmission >= 0.5f) {
        m.type = RC_MAT_DIELECTRIC;
        m.color = base;
        m.param = g->ior;
    } else if (g->metallic >= 0.5f) {
        m.type = RC_MAT_METAL;
        m.color = base;
        m.param = fminf(1.0f, g->roughness * g->roughness); /* the microfacet alpha */
    } else {
        m.type = RC_MAT_LAMBERTIAN;
        m.color = base;
    }
    return m;
}

/* Host bytes a triangle of a model takes in the scene: the primitive with its BVH share, its
 * vertex indices, its entries in both orders of the index; and a vertex's normal and uv. */
#define TRI_BYTES    (RC_SCENE_PRIM_BYTES + 5 * sizeof(uint32_t))
#define VERTEX_BYTES (5 * sizeof(float))

static int zero_area(const float *p, const uint32_t *t) {
    const float *a = p + 3 * (size_t)t[0], *b = p + 3 * (size_t)t[1], *c = p + 3 * (size_t)t[2];
    float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
          e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    float x = e1[1] * e2[2] - e1[2] * e2[1], y = e1[2] * e2[0] - e1[0] * e2[2],
          z = e1[0] * e2[1] - e1[1] * e2[0];
    return x == 0.0f && y == 0.0f && z == 0.0f;
}

int rc_scene_add_import(rc_scene *s, const rc_import *im, const rc_import_place *place,
                        long material, size_t budget, const char *name, rc_error *err) {
    /* the memory first, from the counts, before anything is added */
    double need = (double)im->num_triangles * TRI_BYTES + (double)im->num_vertices * VERTEX_BYTES;
    if (need > (double)budget)
        return rc_fail(err,
                       "%s: %zu triangles and %zu vertices would take %.0f MiB, over the %zu MiB "
                       "left of the memory limit (--max-memory MIB raises it)",
                       name, im->num_triangles, im->num_vertices, need / 1048576.0, budget >> 20);
    long base = (long)s->num_materials;
    if (material < 0)
        for (size_t i = 0; i < im->num_materials; i++) {
            rc_material m = rc_import_material_map(im, &im->materials[i]);
            if (rc_scene_add_material(s, &m) < 0)
                return rc_fail(err, "%s: out of memory for its materials", name);
        }
    size_t dropped = 0;
    for (size_t pi = 0; pi < im->num_parts; pi++) {
        const rc_import_part *p = &im->parts[pi];
        long first = (long)s->num_vertices;
        for (size_t v = 0; v < p->num_vertices; v++) {
            float n[3] = {0, 0, 0};
            const float *nrm = NULL;
            if (p->normals) {
                rc_vec3 q = rc_v3(p->normals[3 * v], p->normals[3 * v + 1], p->normals[3 * v + 2]);
                if (place) q = place->normal(place->ctx, q);
                n[0] = q.x, n[1] = q.y, n[2] = q.z;
                nrm = n;
            }
            if (rc_scene_add_vertex(s, nrm, p->has_uv0 ? p->uv0 + 2 * v : NULL) < 0)
                return rc_fail(err, "%s: out of memory for its vertices", name);
        }
        uint32_t mat = material >= 0 ? (uint32_t)material : (uint32_t)(base + (long)p->material);
        for (size_t t = 0; t < p->num_triangles; t++) {
            const uint32_t *ti = p->indices + 3 * t;
            if (zero_area(p->positions, ti)) {
                dropped++;
                continue;
            }
            rc_vec3 c[3];
            uint32_t vtx[3];
            for (int k = 0; k < 3; k++) {
                const float *q = p->positions + 3 * (size_t)ti[k];
                c[k] = rc_v3(q[0], q[1], q[2]);
                if (place) c[k] = place->point(place->ctx, c[k]);
                vtx[k] = (uint32_t)(first + (long)ti[k]);
            }
            if (rc_scene_add_triangle_vtx(s, c[0], c[1], c[2], mat, vtx) != 0)
                return rc_fail(err, "%s: out of memory for its triangles (or too many)", name);
        }
    }
    s->num_degenerate += dropped;
    return 0;
}

/* An MTL material as a glTF-like one, so that rc_import_material_map alone decides what the
 * renderer shades (scenes/FORMAT.md, OBJ):
 *   Ke above 0 -> emissive of colour Ke;
 *   d < 1 with Ni > 1, or illum 4, 6 or 7 -> dielectric of IOR Ni (1.5 where Ni is 1) tinted
 *     by Kd (white where the file gives no Kd or a black one);
 *   max(Ks) > max(Kd) with Ns >= 100 (a metal-like MTL: a specular colour brighter than the
 *     diffuse one and a sharp highlight) -> metal of colour Ks with fuzz alpha =
 *     sqrt(2 / (Ns + 2)), the Beckmann roughness of the Phong exponent Ns (Walter et al. 2007,
 *     "Microfacet Models for Refraction through Rough Surfaces", section 5.2); the map takes
 *     roughness^2 as the fuzz, so roughness = sqrt(alpha);
 *   else Lambertian of Kd times map_Kd's mean colour (texture index `tex`, -1 for none). */
static void mtl_as_import(const rc_mtl_material *s, int32_t tex, rc_import_material *g) {
    memset(g, 0, sizeof *g);
    g->base_color[3] = 1.0f;
    g->emissive_strength = 1.0f;
    g->ior = 1.5f;
    g->roughness = 1.0f;
    g->base_color_tex.texture = g->emissive_tex.texture = -1;
    g->metallic_roughness_tex.texture = g->normal_tex.texture = g->transmission_tex.texture = -1;
    g->base_color_tex.scale[0] = g->base_color_tex.scale[1] = 1.0f;
    memcpy(g->emissive, s->ke, sizeof g->emissive);
    float kd = fmaxf(s->kd[0], fmaxf(s->kd[1], s->kd[2]));
    float ks = fmaxf(s->ks[0], fmaxf(s->ks[1], s->ks[2]));
    if ((s->d < 1.0f && s->ni > 1.0f) || s->illum == 4 || s->illum == 6 || s->illum == 7) {
        g->transmission = 1.0f;
        g->ior = s->ni != 1.0f ? s->ni : 1.5f;
        for (int k = 0; k < 3; k++) g->base_color[k] = s->has_kd && kd > 0.0f ? s->kd[k] : 1.0f;
    } else if (ks > kd && s->ns >= 100.0f) {
        g->metallic = 1.0f;
        g->roughness = sqrtf(sqrtf(2.0f / (s->ns + 2.0f)));
        memcpy(g->base_color, s->ks, 3 * sizeof(float));
    } else {
        memcpy(g->base_color, s->kd, 3 * sizeof(float));
        g->base_color_tex.texture = tex;
    }
}

/* map_Kd's image (sRGB, level 0 alone, within max_bytes) as the import's image and texture
 * number im->num_textures. The message names the MTL's line. */
static int load_map(rc_import *im, const rc_mtl_material *s, size_t max_bytes, rc_error *err) {
    rc_texture_image img;
    rc_error terr;
    if (rc_texture_load_file(s->map_kd, 1, 0, max_bytes, &img, &terr) != 0)
        return rc_fail(err, "%s:%zu: map_Kd: %s", s->file, s->map_kd_line, terr.msg);
    size_t n = (size_t)img.width[0] * img.height[0];
    uint8_t *rgba = malloc(4 * n);
    rc_import_image *ni = realloc(im->images, (im->num_images + 1) * sizeof *ni);
    if (ni) im->images = ni;
    rc_import_texture *nt = realloc(im->textures, (im->num_textures + 1) * sizeof *nt);
    if (nt) im->textures = nt;
    if (!rgba || !ni || !nt) {
        free(rgba);
        rc_texture_image_free(&img);
        return rc_fail(err, "%s:%zu: map_Kd: out of memory", s->file, s->map_kd_line);
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t t = img.texels[img.offset[0] + i];
        for (int k = 0; k < 4; k++) rgba[4 * i + k] = (uint8_t)(t >> (8 * k));
    }
    rc_import_image *dst = &im->images[im->num_images];
    dst->width = img.width[0];
    dst->height = img.height[0];
    dst->rgba = rgba;
    rc_import_texture *tx = &im->textures[im->num_textures];
    memset(tx, 0, sizeof *tx);
    tx->image = (int32_t)im->num_images;
    im->num_images++;
    im->num_textures++;
    im->bytes += 4 * n;
    rc_texture_image_free(&img);
    return 0;
}

/* The grey Lambertian of faces without a material. */
static void default_material(rc_import_material *mat) {
    memset(mat, 0, sizeof *mat);
    mat->base_color[0] = mat->base_color[1] = mat->base_color[2] = 0.8f;
    mat->base_color[3] = 1.0f;
    mat->emissive_strength = 1.0f;
    mat->ior = 1.5f;
    mat->roughness = 1.0f;
    mat->base_color_tex.texture = mat->emissive_tex.texture = -1;
    mat->is_default = 1;
}

/* One part of an OBJ: the triangles of material `key` (an index into the MTL materials, or
 * RC_OBJ_NONE), per corner (the OBJ's corners name their own normal and uv). */
static int obj_part(const rc_mesh *m, uint32_t key, size_t count, rc_import_part *p) {
    size_t nc = 3 * count;
    memset(p, 0, sizeof *p);
    p->positions = malloc(nc * 3 * sizeof(float));
    p->indices = malloc(nc * sizeof(uint32_t));
    if (m->tri_n) p->normals = calloc(nc * 3, sizeof(float));
    if (m->tri_t) p->uv0 = calloc(nc * 2, sizeof(float));
    if (!p->positions || !p->indices || (m->tri_n && !p->normals) || (m->tri_t && !p->uv0))
        return -1;
    size_t c = 0;
    for (size_t t = 0; t < m->num_triangles; t++) {
        if ((m->tri_m ? m->tri_m[t] : RC_OBJ_NONE) != key) continue;
        for (size_t k = 3 * t; k < 3 * t + 3; k++, c++) {
            memcpy(p->positions + 3 * c, m->v + 3 * (size_t)m->tri[k], 3 * sizeof(float));
            p->indices[c] = (uint32_t)c;
            if (p->normals && m->tri_n[k] != RC_OBJ_NONE) {
                const float *n = m->vn + 3 * (size_t)m->tri_n[k];
                double l = sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
                for (int j = 0; j < 3 && l > 0.0; j++) p->normals[3 * c + j] = (float)(n[j] / l);
            }
            if (p->uv0 && m->tri_t[k] != RC_OBJ_NONE)
                memcpy(p->uv0 + 2 * c, m->vt + 2 * (size_t)m->tri_t[k], 2 * sizeof(float));
        }
    }
    p->has_uv0 = p->uv0 != NULL;
    p->num_vertices = nc;
    p->num_triangles = count;
    return 0;
}

/* An OBJ mesh (with its MTL files) as an import: one part per material its faces use, the
 * MTL materials converted for rc_import_material_map, a grey Lambertian default for faces
 * without one. The text of the OBJ and its MTL files takes at most max_bytes, and so do the
 * map_Kd images. */
static int obj_import(const char *path, size_t max_bytes, rc_import *im, rc_error *err) {
    rc_mesh m;
    memset(im, 0, sizeof *im);
    if (rc_obj_load_mtl(path, max_bytes, &m, err) != 0) return -1;
    size_t nm = m.mtl.count;
    /* triangles per material, the default's last */
    size_t *count = calloc(nm + 1, sizeof *count);
    int rc = -1;
    if (!count) {
        rc_fail(err, "%s: out of memory", path);
        goto done;
    }
    for (size_t t = 0; t < m.num_triangles; t++) {
        uint32_t k = m.tri_m ? m.tri_m[t] : RC_OBJ_NONE;
        count[k == RC_OBJ_NONE ? nm : k]++;
    }
    size_t used = 0;
    for (size_t k = 0; k <= nm; k++) used += count[k] > 0;
    im->parts = calloc(used, sizeof *im->parts);
    im->materials = calloc(used, sizeof *im->materials);
    if (!im->parts || !im->materials) {
        rc_fail(err, "%s: out of memory", path);
        goto done;
    }
    size_t tex_bytes = max_bytes;
    for (size_t k = 0; k <= nm; k++) {
        if (count[k] == 0) continue;
        rc_import_material *g = &im->materials[im->num_materials];
        if (k == nm) {
            default_material(g);
        } else {
            const rc_mtl_material *s = &m.mtl.materials[k];
            int32_t tex = -1;
            if (s->map_kd) {
                size_t before = im->bytes;
                if (load_map(im, s, tex_bytes, err) != 0) goto done;
                tex_bytes -= im->bytes - before < tex_bytes ? im->bytes - before : tex_bytes;
                tex = (int32_t)im->num_textures - 1;
            }
            mtl_as_import(s, tex, g);
        }
        rc_import_part *p = &im->parts[im->num_parts];
        if (obj_part(&m, k == nm ? RC_OBJ_NONE : (uint32_t)k, count[k], p) != 0) {
            free(p->positions), free(p->indices), free(p->normals), free(p->uv0);
            memset(p, 0, sizeof *p);
            rc_fail(err, "%s: out of memory", path);
            goto done;
        }
        p->material = (uint32_t)im->num_materials;
        im->num_parts++;
        im->num_materials++;
        im->num_vertices += p->num_vertices;
    }
    im->num_triangles = m.num_triangles;
    for (int k = 0; k < 3; k++) {
        im->bounds_min[k] = INFINITY;
        im->bounds_max[k] = -INFINITY;
    }
    for (size_t v = 0; v < m.num_vertices; v++)
        for (int k = 0; k < 3; k++) {
            im->bounds_min[k] = fminf(im->bounds_min[k], m.v[3 * v + k]);
            im->bounds_max[k] = fmaxf(im->bounds_max[k], m.v[3 * v + k]);
        }
    rc = 0;
done:
    free(count);
    rc_mesh_free(&m);
    if (rc != 0) rc_import_free(im);
    return rc;
}

int rc_import_read(const char *path, size_t max_mib, rc_import *im, rc_error *err) {
    memset(im, 0, sizeof *im);
    int kind = rc_scene_model_kind(path);
    if (kind == RC_MODEL_GLTF) {
        rc_gltf_options opt;
        memset(&opt, 0, sizeof opt);
        opt.max_mib = max_mib;
        return rc_gltf_load(path, &opt, im, err);
    }
    if (kind == RC_MODEL_OBJ) {
        size_t limit = max_mib == 0 || max_mib > SIZE_MAX >> 21 ? SIZE_MAX >> 1 : max_mib << 20;
        /* the text takes at most a fifth of the limit: the rest is for what it becomes (and
           its map_Kd images at most another fifth) */
        return obj_import(path, limit / 5, im, err);
    }
    return rc_fail(err, "%s: not a model file (.gltf, .glb or .obj)", path);
}

int rc_scene_load_model(const char *path, size_t max_mib, rc_scene *out, rc_error *err) {
    rc_scene_init(out);
    rc_import im;
    if (rc_import_read(path, max_mib, &im, err) != 0) return -1;
    if (im.num_triangles == 0) {
        rc_import_free(&im);
        return rc_fail(err, "%s: no triangles to render", path);
    }
    size_t limit = max_mib > SIZE_MAX >> 21 ? SIZE_MAX >> 1 : max_mib << 20;
    size_t budget = limit > im.bytes ? limit - im.bytes : 0;
    int rc = rc_scene_add_import(out, &im, NULL, -1, budget, path, err);
    if (rc == 0) {
        float aspect = (float)out->defaults.width / (float)out->defaults.height;
        rc_import_camera cam = im.camera;
        if (!cam.present) {
            /* the bounding sphere fits at any angle: look from above and to the right, so
               that a box shows three faces */
            rc_import_frame(&im, 40.0f, aspect, &cam);
            rc_vec3 at = rc_v3(cam.look_at[0], cam.look_at[1], cam.look_at[2]);
            float dist =
                rc_length(rc_sub(rc_v3(cam.look_from[0], cam.look_from[1], cam.look_from[2]), at));
            rc_vec3 from = rc_add(at, rc_scale(rc_normalize(rc_v3(0.6f, 0.45f, 1.0f)), dist));
            cam.look_from[0] = from.x, cam.look_from[1] = from.y, cam.look_from[2] = from.z;
            cam.up[0] = 0.0f, cam.up[1] = 1.0f, cam.up[2] = 0.0f;
        }
        out->camera.look_from = rc_v3(cam.look_from[0], cam.look_from[1], cam.look_from[2]);
        out->camera.look_at = rc_v3(cam.look_at[0], cam.look_at[1], cam.look_at[2]);
        out->camera.up = rc_v3(cam.up[0], cam.up[1], cam.up[2]);
        out->camera.vfov = cam.vfov;
        out->camera.focus_distance = rc_length(rc_sub(out->camera.look_from, out->camera.look_at));
        if (!(out->camera.focus_distance > 0.0f)) out->camera.focus_distance = 1.0f;
    }
    rc_import_free(&im);
    if (rc == 0) rc = rc_scene_finish(out, err);
    if (rc != 0) rc_scene_free(out);
    return rc;
}
