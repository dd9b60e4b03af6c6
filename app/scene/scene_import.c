/* scene_import.c: a model file (glTF 2.0 through gltf.c, OBJ through obj_import.c) as a scene of
 * the renderer: its triangles with their vertex normals, texture coordinates and colours, its
 * materials mapped onto the renderer's models with their textures in the scene's table, its
 * camera (or one that frames it), the default sky. */
#include "scene_import.h"
#include "scene_inst.h"
#include "gltf.h"
#include "out_path.h"
#include "texture_load.h"
#include "timing.h"

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

static int has_tex(const rc_import_texref *t) {
    return t->texture >= 0;
}

rc_material rc_import_material_map(const rc_import_material *g, int rules, int vertex_colors) {
    rc_vec3 base = rc_v3(g->base_color[0], g->base_color[1], g->base_color[2]);
    rc_material m = rc_material_make(RC_MAT_PBR, base, 0.0f);
    m.metallic = g->metallic;
    m.roughness = g->roughness;
    m.ior = g->ior;
    m.transmission = g->transmission;
    m.emission =
        rc_scale(rc_v3(g->emissive[0], g->emissive[1], g->emissive[2]), g->emissive_strength);
    m.alpha = g->base_color[3];
    m.alpha_cutoff = g->alpha_mode == RC_IMPORT_ALPHA_MASK    ? g->alpha_cutoff
                     : g->alpha_mode == RC_IMPORT_ALPHA_BLEND ? 0.5f
                                                              : 0.0f;
    m.normal_scale = g->normal_scale;
    if (has_tex(&g->base_color_tex) && g->base_color_tex.texcoord == 1) m.flags |= RC_MATF_UV1_BASE;
    if (has_tex(&g->metallic_roughness_tex) && g->metallic_roughness_tex.texcoord == 1)
        m.flags |= RC_MATF_UV1_MR;
    if (has_tex(&g->normal_tex) && g->normal_tex.texcoord == 1) m.flags |= RC_MATF_UV1_NORMAL;
    if (has_tex(&g->emissive_tex) && g->emissive_tex.texcoord == 1) m.flags |= RC_MATF_UV1_EMISSIVE;
    if (vertex_colors) m.flags |= RC_MATF_VERTEX_COLOR;
    if (rules != RC_IMPORT_RULES_MTL) return m;
    /* the MTL conversion's glass, lamps and plain diffuse surfaces (scenes/FORMAT.md) */
    if (g->transmission >= 0.5f) {
        m.type = m.roughness > 0.0f ? RC_MAT_ROUGH_DIELECTRIC : RC_MAT_DIELECTRIC;
        m.param = g->ior;
        m.metallic = m.transmission = 0.0f;
    } else if (rc_material_emits(&m) && rc_max_comp(base) == 0.0f && !has_tex(&g->base_color_tex) &&
               g->metallic == 0.0f) {
        m.type = RC_MAT_EMISSIVE;
        m.color = m.emission;
    } else if (g->metallic == 0.0f && g->roughness == 1.0f &&
               !has_tex(&g->metallic_roughness_tex)) {
        m.type = RC_MAT_LAMBERTIAN;
    }
    return m;
}

/* ---- textures ---- */

/* The image a texture reference reads, or -1 (none, or an index out of range). */
static int32_t ref_image(const rc_import *im, const rc_import_texref *r) {
    if (r->texture < 0 || (size_t)r->texture >= im->num_textures) return -1;
    int32_t ii = im->textures[r->texture].image;
    return ii >= 0 && (size_t)ii < im->num_images ? ii : -1;
}

/* A material's texture uses: the reference, whether its texels are sRGB, and its slot. */
typedef struct tex_use {
    const rc_import_texref *ref;
    int srgb;
    uint32_t *slot;
} tex_use;

static void tex_uses(const rc_import_material *g, rc_material *m, tex_use u[5]) {
    u[0] = (tex_use){&g->base_color_tex, 1, &m->tex_base};
    u[1] = (tex_use){&g->metallic_roughness_tex, 0, &m->tex_mr};
    u[2] = (tex_use){&g->normal_tex, 0, &m->tex_normal};
    u[3] = (tex_use){&g->emissive_tex, 1, &m->tex_emissive};
    u[4] = (tex_use){&g->transmission_tex, 0, &m->tex_transmission};
}

/* glTF's sampler filters as the renderer's: trilinear for a mipmap minification filter (or
 * none given), nearest when both filters are NEAREST, else bilinear. */
static uint32_t sampler_filter(const rc_import_sampler *s) {
    if (s->min_filter == 0 || (s->min_filter >= 9984 && s->min_filter <= 9987))
        return RC_FILTER_TRILINEAR;
    if (s->min_filter == 9728 && s->mag_filter == 9728) return RC_FILTER_NEAREST;
    return RC_FILTER_BILINEAR;
}

static uint32_t sampler_wrap(uint32_t w) {
    return w == 0 ? RC_WRAP_REPEAT : w;
}

static void mib_text(double bytes, char *buf, size_t cap) {
    double mib = bytes / 1048576.0;
    snprintf(buf, cap, mib >= 10.0 ? "%.0f MiB" : "%.2f MiB", mib);
}

/* The texels of every (image, sRGB) pair the import's materials use, each pyramid counted
 * once, against `left` bytes: the first that does not fit is refused in one line. */
static int textures_fit(const rc_import *im, size_t left, const char *name, rc_error *err) {
    if (im->num_images == 0) return 0;
    unsigned char *seen = calloc(2 * im->num_images, 1);
    if (!seen) return rc_fail(err, "%s: out of memory for its textures", name);
    int rc = 0;
    for (size_t i = 0; i < im->num_materials && rc == 0; i++) {
        rc_material dummy;
        tex_use u[5];
        tex_uses(&im->materials[i], &dummy, u);
        for (int k = 0; k < 5 && rc == 0; k++) {
            int32_t ii = ref_image(im, u[k].ref);
            if (ii < 0 || seen[2 * (size_t)ii + (size_t)u[k].srgb]) continue;
            seen[2 * (size_t)ii + (size_t)u[k].srgb] = 1;
            const rc_import_image *img = &im->images[ii];
            if (img->width < 1 || img->height < 1 || img->width > RC_TEX_MAX_SIZE ||
                img->height > RC_TEX_MAX_SIZE) {
                rc = rc_fail(err, "%s: images[%d]: %ux%u pixels: each side must be 1 to %u", name,
                             ii, img->width, img->height, RC_TEX_MAX_SIZE);
                break;
            }
            rc_texture_image lay;
            size_t bytes = rc_texture_pyramid(img->width, img->height, 1, &lay) * sizeof(uint32_t);
            if (bytes > left) {
                char need[32], have[32];
                mib_text((double)bytes, need, sizeof need);
                mib_text((double)left, have, sizeof have);
                rc = rc_fail(err,
                             "%s: images[%d]: %ux%u texture needs %s, over the %s left of the "
                             "memory limit (--max-memory MIB raises it)",
                             name, ii, img->width, img->height, need, have);
                break;
            }
            left -= bytes;
        }
    }
    free(seen);
    return rc;
}

/* One texture use as an entry of the scene's table; the texels of each (image, sRGB) pair
 * are decoded once (cache[2 image + srgb]: their entry, -1 before) and shared by later uses
 * with their own sampler and transform. The entry's id, or -1 with err. */
static long add_texture(rc_scene *s, const rc_import *im, const tex_use *u, long *cache,
                        const char *name, rc_error *err) {
    const rc_import_texture *t = &im->textures[u->ref->texture];
    int32_t ii = ref_image(im, u->ref);
    float xf[6];
    rc_tex_transform_make(u->ref->offset[0], u->ref->offset[1], u->ref->rotation, u->ref->scale[0],
                          u->ref->scale[1], xf);
    uint32_t ws = sampler_wrap(t->sampler.wrap_s), wt = sampler_wrap(t->sampler.wrap_t);
    uint32_t filter = sampler_filter(&t->sampler);
    long *c = &cache[2 * (size_t)ii + (size_t)u->srgb];
    rc_error terr;
    long id;
    if (*c >= 0) {
        id = rc_texture_table_add_shared(&s->textures, *c, ws, wt, filter, xf, &terr);
    } else {
        const rc_import_image *g = &im->images[ii];
        rc_texture_image img;
        double t0 = timing_now_ms();
        if (rc_texture_from_rgba8("texture", g->rgba, g->width, g->height, u->srgb, 1, SIZE_MAX,
                                  &img, &terr) != 0)
            return rc_fail(err, "%s: images[%d]: %s", name, ii, terr.msg);
        id = rc_texture_table_add(&s->textures, &img, ws, wt, filter, xf, &terr);
        rc_texture_image_free(&img);
        s->image_ms += timing_now_ms() - t0;
        if (id >= 0) *c = id;
    }
    if (id < 0) return rc_fail(err, "%s: images[%d]: %s", name, ii, terr.msg);
    return id;
}

/* The import's materials mapped and appended, their textures added to the scene's table. */
static int add_materials(rc_scene *s, const rc_import *im, const char *name, rc_error *err) {
    int rules =
        rc_scene_model_kind(name) == RC_MODEL_OBJ ? RC_IMPORT_RULES_MTL : RC_IMPORT_RULES_GLTF;
    unsigned char *colored = calloc(im->num_materials + 1, 1);
    long *cache = malloc((2 * im->num_images + 1) * sizeof *cache);
    int rc = -1;
    if (!colored || !cache) {
        rc_fail(err, "%s: out of memory for its materials", name);
        goto done;
    }
    for (size_t i = 0; i < 2 * im->num_images; i++) cache[i] = -1;
    for (size_t pi = 0; pi < im->num_parts; pi++)
        if (im->parts[pi].colors && im->parts[pi].material < im->num_materials)
            colored[im->parts[pi].material] = 1;
    for (size_t i = 0; i < im->num_materials; i++) {
        const rc_import_material *g = &im->materials[i];
        rc_material m = rc_import_material_map(g, rules, colored[i]);
        tex_use u[5];
        tex_uses(g, &m, u);
        for (int k = 0; k < 5; k++) {
            if (ref_image(im, u[k].ref) < 0) continue;
            long id = add_texture(s, im, &u[k], cache, name, err);
            if (id < 0) goto done;
            *u[k].slot = (uint32_t)id + 1u;
        }
        if (rc_scene_add_material(s, &m) < 0) {
            rc_fail(err, "%s: out of memory for its materials", name);
            goto done;
        }
    }
    rc = 0;
done:
    free(colored);
    free(cache);
    return rc;
}

static int zero_area(const float *p, const uint32_t *t) {
    const float *a = p + 3 * (size_t)t[0], *b = p + 3 * (size_t)t[1], *c = p + 3 * (size_t)t[2];
    float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
          e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    float x = e1[1] * e2[2] - e1[2] * e2[1], y = e1[2] * e2[0] - e1[0] * e2[2],
          z = e1[0] * e2[1] - e1[1] * e2[0];
    return x == 0.0f && y == 0.0f && z == 0.0f;
}

/* A tangent (xyz, w) through the placement: xyz as a direction, normalized; w turned where
 * the placement mirrors (`mirror`: a negative determinant), as the glTF reader does for a
 * node's matrix. A tangent of zero length stays "none" (w 0). */
static void place_tangent(const rc_import_place *place, int mirror, const float *t, float out[4]) {
    out[0] = t[0], out[1] = t[1], out[2] = t[2], out[3] = t[3];
    if (place) {
        rc_vec3 d = place->dir(place->ctx, rc_v3(t[0], t[1], t[2]));
        float l = rc_length(d);
        if (l > 0.0f) d = rc_scale(d, 1.0f / l);
        out[0] = d.x, out[1] = d.y, out[2] = d.z;
        if (mirror) out[3] = -out[3];
    }
    if (out[0] == 0.0f && out[1] == 0.0f && out[2] == 0.0f) out[3] = 0.0f;
}

/* Parts this large are added over all threads, in chunks of PART_CHUNK triangles whose kept
 * (nonzero-area) ones are counted first, so each chunk writes at its place in the order a
 * single pass gives. */
#define PART_PAR   65536u
#define PART_CHUNK 16384u

/* Triangle t of part p: 1 when kept, 0 when of zero area, -1 when an index names no vertex. */
static int tri_kept(const rc_import_part *p, size_t t) {
    const uint32_t *ti = p->indices + 3 * t;
    if (ti[0] >= p->num_vertices || ti[1] >= p->num_vertices || ti[2] >= p->num_vertices) return -1;
    return !zero_area(p->positions, ti);
}

/* Part p's vertices and triangles into the scene through `place` (NULL: as they are). */
static int add_part(rc_scene *s, const rc_import_part *p, const rc_import_place *place,
                    uint32_t mat, size_t *dropped, const char *name, rc_error *err) {
    const long first = rc_scene_vertices_begin(s, p->num_vertices, p->uv1 != NULL,
                                               p->colors != NULL, p->tangents != NULL);
    if (first < 0) return rc_fail(err, "%s: out of memory for its vertices", name);
    int mirror = 0;
    if (place) {
        rc_vec3 ex = place->dir(place->ctx, rc_v3(1, 0, 0)),
                ey = place->dir(place->ctx, rc_v3(0, 1, 0)),
                ez = place->dir(place->ctx, rc_v3(0, 0, 1));
        mirror = rc_dot(rc_cross(ex, ey), ez) < 0.0f;
    }
    const int64_t nv = (int64_t)p->num_vertices;
    int any_normal = 0;
#pragma omp parallel for schedule(static) reduction(| : any_normal) if (nv >= PART_PAR)
    for (int64_t v = 0; v < nv; v++) {
        float n[3], t[4];
        const float *nrm = NULL;
        if (p->normals) {
            rc_vec3 q = rc_v3(p->normals[3 * v], p->normals[3 * v + 1], p->normals[3 * v + 2]);
            if (place) q = place->normal(place->ctx, q);
            n[0] = q.x, n[1] = q.y, n[2] = q.z;
            nrm = n;
            any_normal |= n[0] != 0.0f || n[1] != 0.0f || n[2] != 0.0f;
        }
        if (p->tangents) place_tangent(place, mirror, p->tangents + 4 * v, t);
        rc_scene_put_vertex(s, (size_t)first + (size_t)v, nrm, p->has_uv0 ? p->uv0 + 2 * v : NULL,
                            p->uv1 ? p->uv1 + 2 * v : NULL, p->colors ? p->colors + 4 * v : NULL,
                            p->tangents ? t : NULL);
    }
    rc_scene_vertices_end(s, p->num_vertices, any_normal, p->has_uv0);
    /* the kept triangles of each chunk, then each chunk's first place */
    const size_t nt = p->num_triangles, chunks = (nt + PART_CHUNK - 1) / PART_CHUNK;
    size_t *at = malloc((chunks + 1) * sizeof *at);
    if (!at) return rc_fail(err, "%s: out of memory for its triangles", name);
    int bad = 0;
#pragma omp parallel for schedule(static) reduction(| : bad) if (nt >= PART_PAR)
    for (int64_t k = 0; k < (int64_t)chunks; k++) {
        size_t kept = 0,
               end = ((size_t)k + 1) * PART_CHUNK < nt ? ((size_t)k + 1) * PART_CHUNK : nt;
        for (size_t t = (size_t)k * PART_CHUNK; t < end; t++) {
            int r = tri_kept(p, t);
            bad |= r < 0;
            kept += r > 0;
        }
        at[k + 1] = kept;
    }
    at[0] = 0;
    for (size_t k = 0; k < chunks; k++) at[k + 1] += at[k];
    const size_t kept = at[chunks];
    const size_t tri0 = s->num_tris;
    const long prim0 = bad ? -1 : rc_scene_triangles_begin(s, kept);
    if (prim0 < 0) {
        free(at);
        return rc_fail(err, "%s: out of memory for its triangles (or too many)", name);
    }
#pragma omp parallel for schedule(static) if (nt >= PART_PAR)
    for (int64_t k = 0; k < (int64_t)chunks; k++) {
        size_t o = at[k],
               end = ((size_t)k + 1) * PART_CHUNK < nt ? ((size_t)k + 1) * PART_CHUNK : nt;
        for (size_t t = (size_t)k * PART_CHUNK; t < end; t++) {
            if (tri_kept(p, t) <= 0) continue;
            const uint32_t *ti = p->indices + 3 * t;
            rc_vec3 c[3];
            uint32_t vtx[3];
            for (int j = 0; j < 3; j++) {
                const float *q = p->positions + 3 * (size_t)ti[j];
                c[j] = rc_v3(q[0], q[1], q[2]);
                if (place) c[j] = place->point(place->ctx, c[j]);
                vtx[j] = (uint32_t)(first + (long)ti[j]);
            }
            rc_scene_put_triangle(s, (size_t)prim0 + o, tri0 + o, c[0], c[1], c[2], mat, vtx);
            o++;
        }
    }
    rc_scene_triangles_end(s, kept);
    *dropped += nt - kept;
    free(at);
    return 0;
}

/* An affine map (3 rows of 4, double) as a placement: points, directions, and normals by the
 * transpose of `normal` (the inverse transpose of the map when normal is its inverse). */
typedef struct affine_place {
    double m[12], normal[12];
} affine_place;
static rc_vec3 affine_point(const void *ctx, rc_vec3 p) {
    const double *m = ((const affine_place *)ctx)->m;
    return rc_v3((float)(m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3]),
                 (float)(m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7]),
                 (float)(m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]));
}
static rc_vec3 affine_dir(const void *ctx, rc_vec3 d) {
    const double *m = ((const affine_place *)ctx)->m;
    return rc_v3((float)(m[0] * d.x + m[1] * d.y + m[2] * d.z),
                 (float)(m[4] * d.x + m[5] * d.y + m[6] * d.z),
                 (float)(m[8] * d.x + m[9] * d.y + m[10] * d.z));
}
static rc_vec3 affine_normal(const void *ctx, rc_vec3 n) {
    const double *m = ((const affine_place *)ctx)->normal;
    return rc_v3((float)(m[0] * n.x + m[4] * n.y + m[8] * n.z),
                 (float)(m[1] * n.x + m[5] * n.y + m[9] * n.z),
                 (float)(m[2] * n.x + m[6] * n.y + m[10] * n.z));
}

/* glTF's column-major world matrix as 3 rows of 4. */
static void world_rows(const float w[16], double out[12]) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) out[4 * r + c] = w[4 * c + r];
}
static double det3(const double m[12]) {
    return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
           m[2] * (m[4] * m[9] - m[5] * m[8]);
}

/* The placement as an affine map (from the images of the origin and the axes). */
static void place_rows(const rc_import_place *place, double out[12]) {
    static const double id[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    if (!place) {
        memcpy(out, id, sizeof id);
        return;
    }
    rc_vec3 t = place->point(place->ctx, rc_v3(0, 0, 0));
    rc_vec3 e[3] = {place->dir(place->ctx, rc_v3(1, 0, 0)), place->dir(place->ctx, rc_v3(0, 1, 0)),
                    place->dir(place->ctx, rc_v3(0, 0, 1))};
    for (int c = 0; c < 3; c++) {
        out[c] = e[c].x;
        out[4 + c] = e[c].y;
        out[8 + c] = e[c].z;
    }
    out[3] = t.x, out[7] = t.y, out[11] = t.z;
}
static void compose(const double a[12], const double b[12], double out[12]) {
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++)
            out[4 * r + c] = a[4 * r] * b[c] + a[4 * r + 1] * b[4 + c] + a[4 * r + 2] * b[8 + c];
        out[4 * r + 3] += a[4 * r + 3];
    }
}

/* Which import instances become scene instances: those whose mesh two or more uses share with
 * the same side of mirroring (a mirroring use's parts have their winding flipped back, so its
 * object-space copy is only the same mesh for uses that mirror too) and an invertible world
 * matrix. leader[i]: the first use of i's group, or SIZE_MAX for a use drawn as copies. */
static size_t *instance_groups(const rc_import *im) {
    const size_t n = im->num_instances;
    size_t *leader = malloc((n ? n : 1) * sizeof *leader);
    if (!leader) return NULL;
    for (size_t i = 0; i < n; i++) {
        double w[12], inv[12];
        world_rows(im->instances[i].world, w);
        leader[i] = rc_affine_invert(w, inv) == 0 ? i : SIZE_MAX;
        for (size_t j = 0; j < i && leader[i] == i; j++) {
            double wj[12];
            world_rows(im->instances[j].world, wj);
            if (leader[j] == j && im->instances[j].mesh == im->instances[i].mesh &&
                (det3(wj) < 0.0) == (det3(w) < 0.0))
                leader[i] = j;
        }
    }
    size_t *size = calloc(n ? n : 1, sizeof *size);
    if (!size) {
        free(leader);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (leader[i] != SIZE_MAX) size[leader[i]]++;
    for (size_t i = 0; i < n; i++)
        if (leader[i] != SIZE_MAX && size[leader[i]] < 2) leader[i] = SIZE_MAX;
    free(size);
    return leader;
}

int rc_scene_add_import(rc_scene *s, const rc_import *im, const rc_import_place *place,
                        long material, size_t budget, const char *name, rc_error *err) {
    /* the memory first, from the counts, before anything is added: a second uv set and
       vertex colours take 2 and 4 more floats a vertex where any part has them */
    size_t vertex_bytes = RC_IMPORT_VERTEX_BYTES;
    int any_uv1 = 0, any_color = 0;
    for (size_t pi = 0; pi < im->num_parts; pi++) {
        any_uv1 |= im->parts[pi].uv1 != NULL;
        any_color |= im->parts[pi].colors != NULL;
    }
    int any_tangent = 0;
    for (size_t pi = 0; pi < im->num_parts; pi++) any_tangent |= im->parts[pi].tangents != NULL;
    vertex_bytes += (any_uv1 ? 2 : 0) * sizeof(float) + (any_color ? 4 : 0) * sizeof(float) +
                    (any_tangent ? 4 : 0) * sizeof(float);
    double need =
        (double)im->num_triangles * RC_IMPORT_TRI_BYTES + (double)im->num_vertices * vertex_bytes;
    if (need > (double)budget)
        return rc_fail(err,
                       "%s: %zu triangles and %zu vertices would take %.0f MiB, over the %zu MiB "
                       "left of the memory limit (--max-memory MIB raises it)",
                       name, im->num_triangles, im->num_vertices, need / 1048576.0, budget >> 20);
    /* then the textures, each image's pyramid */
    if (material < 0 && textures_fit(im, budget - (size_t)need, name, err) != 0) return -1;
    long base = (long)s->num_materials;
    if (material < 0 && add_materials(s, im, name, err) != 0) return -1;
    size_t dropped = 0;
    size_t *leader = im->num_instances > 1 ? instance_groups(im) : NULL;
    if (im->num_instances > 1 && !leader) return rc_fail(err, "%s: out of memory", name);
    /* a part is drawn as a copy unless its use is instanced; a group's first use adds the
       mesh in object space (its world matrix undone), which becomes a scene mesh */
    const size_t ni = leader ? im->num_instances : 0;
    long *mesh_of = leader ? malloc(2 * ni * sizeof *mesh_of) : NULL;
    if (leader && !mesh_of) {
        free(leader);
        return rc_fail(err, "%s: out of memory", name);
    }
    long *mesh_start = mesh_of ? mesh_of + ni : NULL;
    for (size_t i = 0; i < ni; i++) mesh_of[i] = mesh_start[i] = -1;
    /* the arrays at their size once, for the parts that are added (a group's first use only) */
    size_t all_v = 0, all_t = 0;
    for (size_t pi = 0; pi < im->num_parts; pi++) {
        const size_t in = im->parts[pi].instance;
        if (leader && in < ni && leader[in] != SIZE_MAX && leader[in] != in) continue;
        all_v += im->parts[pi].num_vertices;
        all_t += im->parts[pi].num_triangles;
    }
    if (rc_scene_reserve(s, all_v, all_t) != 0) {
        free(mesh_of);
        free(leader);
        return rc_fail(err, "%s: out of memory", name);
    }
    int rc = 0;
    for (size_t pi = 0; pi < im->num_parts && rc == 0; pi++) {
        const rc_import_part *p = &im->parts[pi];
        uint32_t mat = material >= 0 ? (uint32_t)material : (uint32_t)(base + (long)p->material);
        const size_t in = p->instance;
        if (!leader || in >= ni || leader[in] == SIZE_MAX) {
            rc = add_part(s, p, place, mat, &dropped, name, err);
            continue;
        }
        if (leader[in] != in) continue; /* drawn by its group's instances */
        const rc_import_instance *ii = &im->instances[in];
        affine_place obj;
        double w[12];
        world_rows(ii->world, w);
        rc_affine_invert(w, obj.m);
        memcpy(obj.normal, w, sizeof w);
        const rc_import_place op = {affine_point, affine_normal, affine_dir, &obj};
        if (mesh_start[in] < 0) mesh_start[in] = (long)s->num_prims;
        rc = add_part(s, p, &op, mat, &dropped, name, err);
        if (rc == 0 && pi + 1 >= ii->first_part + ii->num_parts) {
            mesh_of[in] = rc_scene_add_mesh(s, (size_t)mesh_start[in]);
            if (mesh_of[in] < 0) rc = rc_fail(err, "%s: out of memory for its meshes", name);
        }
    }
    /* every use of an instanced mesh, its own among them: the placement after its world */
    double pl[12];
    place_rows(place, pl);
    for (size_t i = 0; i < ni && rc == 0; i++) {
        if (leader[i] == SIZE_MAX || mesh_of[leader[i]] < 0) continue;
        double w[12], xf[12];
        world_rows(im->instances[i].world, w);
        compose(pl, w, xf);
        if (rc_scene_add_instance(s, (uint32_t)mesh_of[leader[i]], xf) == -1)
            rc = rc_fail(err, "%s: out of memory for its instances", name);
    }
    free(mesh_of);
    free(leader);
    s->num_degenerate += dropped;
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
        return rc_obj_import(path, limit / 5, limit, im, err);
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
