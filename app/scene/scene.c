/* scene.c: the host-side scene container and its BVH. */
#include "scene.h"
#include "grow.h"
#include "scene_inst.h"
#include "timing.h"

#include <stdlib.h>
#include <string.h>

void rc_scene_init(rc_scene *s) {
    memset(s, 0, sizeof *s);
    s->camera.look_from = rc_v3(0.0f, 0.0f, 1.0f);
    s->camera.look_at = rc_v3(0.0f, 0.0f, 0.0f);
    s->camera.up = rc_v3(0.0f, 1.0f, 0.0f);
    s->camera.vfov = 40.0f;
    s->camera.aperture = 0.0f;
    s->camera.focus_distance = 1.0f;
    s->background.type = RC_BG_SKY;
    s->background.bottom = rc_v3(1.0f, 1.0f, 1.0f);
    s->background.top = rc_v3(0.5f, 0.7f, 1.0f);
    s->defaults.width = RC_DEFAULT_WIDTH;
    s->defaults.height = RC_DEFAULT_HEIGHT;
    s->defaults.spp = RC_DEFAULT_SPP;
    s->defaults.max_depth = RC_DEFAULT_MAX_DEPTH;
    rc_texture_table_init(&s->textures);
    s->env_scale = 1.0f;
}

void rc_scene_free(rc_scene *s) {
    if (!s) return;
    free(s->prims);
    free(s->materials);
    free(s->light_prims);
    free(s->light_cdf);
    free(s->normals);
    free(s->uvs);
    free(s->tri_vtx);
    free(s->prim_tri);
    free(s->leaf_tri);
    free(s->uv1s);
    free(s->tangents);
    free(s->colors);
    rc_texture_table_free(&s->textures);
    rc_env_free(&s->env);
    rc_bvh_free(&s->bvh);
    rc_scene_inst_free(s);
    memset(s, 0, sizeof *s);
}

long rc_scene_add_material(rc_scene *s, const rc_material *m) {
    if (s->num_materials >= RC_PRIM_MAX_MATERIALS) return -1;
    if (rc_grow((void **)&s->materials, &s->cap_materials, s->num_materials + 1, sizeof *m) != 0)
        return -1;
    s->materials[s->num_materials] = *m;
    if (m->type == RC_MAT_EMISSIVE) s->materials[s->num_materials].emission = m->color;
    return (long)s->num_materials++;
}

/* After rc_scene_finish the BVH holds the primitives (in leaf order): the array of the input
 * order back, for a primitive added or a BVH built again. 0, or -1 when out of memory. */
static int unfinish_prims(rc_scene *s) {
    const size_t n = s->num_prims;
    if (s->prims || n == 0) return 0;
    if (s->bvh.num_prims != n) return -1;
    s->prims = malloc(n * sizeof *s->prims);
    if (!s->prims) return -1;
    s->cap_prims = n;
    for (size_t i = 0; i < n; i++) s->prims[s->bvh.ids[i]] = s->bvh.prims[i];
    return 0;
}

const rc_prim *rc_scene_prim_at(const rc_scene *s, size_t i) {
    if (i >= s->num_prims) return NULL;
    if (s->prims) return &s->prims[i];
    for (uint32_t k = 0; k < s->bvh.num_prims; k++)
        if (s->bvh.ids[k] == i) return &s->bvh.prims[k];
    return NULL;
}

int rc_scene_add_prim(rc_scene *s, const rc_prim *p) {
    if (s->num_prims >= UINT32_MAX / 2 || (s->max_prims && s->num_prims >= s->max_prims)) return -1;
    if (unfinish_prims(s) != 0) return -1;
    if (rc_grow((void **)&s->prims, &s->cap_prims, s->num_prims + 1, sizeof *p) != 0) return -1;
    s->prims[s->num_prims++] = *p;
    return 0;
}

static rc_prim make_prim(uint32_t type, uint32_t material, rc_vec3 p, float r, rc_vec3 a,
                         rc_vec3 b) {
    rc_prim pr;
    memset(&pr, 0, sizeof pr);
    pr.p = p;
    pr.r = r;
    pr.a = a;
    pr.b = b;
    pr.type_mat = rc_prim_pack(type, material);
    return pr;
}

int rc_scene_add_sphere(rc_scene *s, rc_vec3 center, float radius, uint32_t material) {
    rc_prim p = make_prim(RC_PRIM_SPHERE, material, center, radius, rc_v3s(0), rc_v3s(0));
    if (rc_scene_add_prim(s, &p) != 0) return -1;
    s->num_spheres++;
    return 0;
}

int rc_scene_add_quad(rc_scene *s, rc_vec3 corner, rc_vec3 u, rc_vec3 v, uint32_t material) {
    rc_prim p = make_prim(RC_PRIM_QUAD, material, corner, 0.0f, u, v);
    if (rc_scene_add_prim(s, &p) != 0) return -1;
    s->num_quads++;
    return 0;
}

int rc_scene_add_triangle(rc_scene *s, rc_vec3 a, rc_vec3 b, rc_vec3 c, uint32_t material) {
    rc_prim p = make_prim(RC_PRIM_TRIANGLE, material, a, 0.0f, rc_sub(b, a), rc_sub(c, a));
    if (rc_scene_add_prim(s, &p) != 0) return -1;
    s->num_triangles++;
    return 0;
}

/* Room for `need` elements: exactly that the first time, at least half as much again after. */
static int reserve(void **a, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap && (*a || need == 0)) return 0;
    size_t c = *cap + *cap / 2;
    if (c < need) c = need;
    if (c == 0) c = 1;
    if (elem && c > SIZE_MAX / elem) return -1;
    void *g = realloc(*a, c * elem);
    if (!g) return -1;
    *a = g;
    *cap = c;
    return 0;
}

/* An optional per-vertex array of k floats reserved for `need` vertices, created where absent
 * with the default `def` for the `have` vertices before. */
static int reserve_optional(float **a, size_t *cap, size_t have, size_t need, int k,
                            const float *def) {
    const int fresh = *a == NULL;
    if (reserve((void **)a, cap, need, (size_t)k * sizeof(float)) != 0) return -1;
    if (fresh)
        for (size_t v = 0; v < have; v++)
            for (int c = 0; c < k; c++) (*a)[(size_t)k * v + c] = def[c];
    return 0;
}

/* The arrays every vertex has, and those of triangles with vertex data, reserved for `v`
 * vertices, `p` primitives and `t` triangles. */
static int reserve_vertices(rc_scene *s, size_t v) {
    if (reserve((void **)&s->normals, &s->cap_normals, v, 3 * sizeof(float)) != 0) return -1;
    return reserve((void **)&s->uvs, &s->cap_uvs, v, 2 * sizeof(float));
}
static int reserve_triangles(rc_scene *s, size_t p, size_t t) {
    if (unfinish_prims(s) != 0 ||
        reserve((void **)&s->prims, &s->cap_prims, p, sizeof *s->prims) != 0 ||
        reserve((void **)&s->prim_tri, &s->cap_prim_tri, p, sizeof(uint32_t)) != 0)
        return -1;
    return reserve((void **)&s->tri_vtx, &s->cap_tri_vtx, t, 3 * sizeof(uint32_t));
}

long rc_scene_add_vertex_full(rc_scene *s, const float normal[3], const float uv[2],
                              const float uv1[2], const float color[4]) {
    const long i = rc_scene_vertices_begin(s, 1, uv1 != NULL, color != NULL, 0);
    if (i < 0) return -1;
    rc_scene_put_vertex(s, (size_t)i, normal, uv, uv1, color, NULL);
    rc_scene_vertices_end(
        s, 1, normal && (normal[0] != 0.0f || normal[1] != 0.0f || normal[2] != 0.0f), uv != NULL);
    return i;
}

int rc_scene_set_tangent(rc_scene *s, size_t v, const float tangent[4]) {
    static const float none[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (v >= s->num_vertices) return -1;
    if (!s->tangents && reserve_optional(&s->tangents, &s->cap_tangents, s->num_vertices,
                                         s->num_vertices, 4, none) != 0)
        return -1;
    memcpy(s->tangents + 4 * v, tangent, 4 * sizeof(float));
    return 0;
}

long rc_scene_add_vertex(rc_scene *s, const float normal[3], const float uv[2]) {
    return rc_scene_add_vertex_full(s, normal, uv, NULL, NULL);
}

void rc_scene_set_env(rc_scene *s, rc_env_map *env, float rotation_deg, float scale) {
    rc_env_free(&s->env);
    s->env = *env;
    memset(env, 0, sizeof *env);
    s->has_env = 1;
    s->env_rotation = rotation_deg;
    s->env_scale = scale;
    s->background.type = RC_BG_ENV;
}

size_t rc_scene_device_bytes(const rc_scene *s) {
    size_t b = rc_bvh_device_bytes(&s->bvh) + s->num_materials * sizeof(rc_material) +
               s->num_lights * (sizeof(uint32_t) + sizeof(float));
    if (s->leaf_tri || s->inst.prim_tri) b += rc_scene_vertex_bytes(s);
    b += rc_scene_inst_device_bytes(s, s->bvh.layout);
    return b + rc_scene_image_bytes(s);
}

size_t rc_scene_host_bytes(const rc_scene *s) {
    /* both layouts' nodes are kept on the host, one is uploaded */
    const size_t both = s->bvh.num_nodes * sizeof(rc_bvh_node) +
                        s->bvh.num_wide * sizeof(rc_wide_node) + s->bvh.num_prims * sizeof(rc_prim);
    return rc_scene_device_bytes(s) - rc_bvh_device_bytes(&s->bvh) + both +
           (s->prims ? s->num_prims * sizeof(rc_prim) : 0) + s->bvh.num_prims * sizeof(uint32_t) +
           rc_scene_inst_host_extra_bytes(s);
}

size_t rc_scene_image_bytes(const rc_scene *s) {
    return rc_texture_table_bytes(&s->textures) + (s->has_env ? rc_env_bytes(&s->env) : 0);
}

int rc_scene_add_triangle_vtx(rc_scene *s, rc_vec3 a, rc_vec3 b, rc_vec3 c, uint32_t material,
                              const uint32_t vtx[3]) {
    for (int k = 0; k < 3; k++)
        if (vtx[k] >= s->num_vertices) return -1;
    const long prim = rc_scene_triangles_begin(s, 1);
    if (prim < 0) return -1;
    rc_scene_put_triangle(s, (size_t)prim, s->num_tris, a, b, c, material, vtx);
    rc_scene_triangles_end(s, 1);
    return 0;
}

int rc_scene_reserve(rc_scene *s, size_t vertices, size_t triangles) {
    if (vertices && reserve_vertices(s, s->num_vertices + vertices) != 0) return -1;
    if (triangles && reserve_triangles(s, s->num_prims + triangles, s->num_tris + triangles) != 0)
        return -1;
    return 0;
}

long rc_scene_vertices_begin(rc_scene *s, size_t count, int uv1, int color, int tangent) {
    static const float zero2[2] = {0.0f, 0.0f}, white[4] = {1.0f, 1.0f, 1.0f, 1.0f},
                       none[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const size_t i = s->num_vertices, need = i + count;
    if (count > UINT32_MAX || need > UINT32_MAX) return -1;
    if (reserve_vertices(s, need) != 0) return -1;
    if ((uv1 || s->uv1s) && reserve_optional(&s->uv1s, &s->cap_uv1s, i, need, 2, zero2) != 0)
        return -1;
    if ((color || s->colors) &&
        reserve_optional(&s->colors, &s->cap_colors, i, need, 4, white) != 0)
        return -1;
    if ((tangent || s->tangents) &&
        reserve_optional(&s->tangents, &s->cap_tangents, i, need, 4, none) != 0)
        return -1;
    return (long)i;
}

void rc_scene_put_vertex(rc_scene *s, size_t v, const float normal[3], const float uv[2],
                         const float uv1[2], const float color[4], const float tangent[4]) {
    for (int k = 0; k < 3; k++) s->normals[3 * v + k] = normal ? normal[k] : 0.0f;
    for (int k = 0; k < 2; k++) s->uvs[2 * v + k] = uv ? uv[k] : 0.0f;
    if (s->uv1s)
        for (int k = 0; k < 2; k++) s->uv1s[2 * v + k] = uv1 ? uv1[k] : 0.0f;
    if (s->colors)
        for (int k = 0; k < 4; k++) s->colors[4 * v + k] = color ? color[k] : 1.0f;
    if (s->tangents)
        for (int k = 0; k < 4; k++) s->tangents[4 * v + k] = tangent ? tangent[k] : 0.0f;
}

void rc_scene_vertices_end(rc_scene *s, size_t count, int any_normal, int any_uv) {
    s->num_vertices += count;
    if (any_normal) s->has_normals = 1;
    if (any_uv && count) s->has_uvs = 1;
}

long rc_scene_triangles_begin(rc_scene *s, size_t count) {
    const size_t prim = s->num_prims, t = s->num_tris;
    if (count == 0) return (long)prim;
    if (prim + count > UINT32_MAX / 2 || (s->max_prims && prim + count > s->max_prims)) return -1;
    if (reserve_triangles(s, prim + count, t + count) != 0) return -1;
    /* the primitives added since the last one with vertex data have none */
    for (size_t i = s->num_prim_tri; i < prim; i++) s->prim_tri[i] = RC_NO_TRI;
    s->num_prim_tri = prim;
    return (long)prim;
}

void rc_scene_put_triangle(rc_scene *s, size_t prim, size_t tri, rc_vec3 a, rc_vec3 b, rc_vec3 c,
                           uint32_t material, const uint32_t vtx[3]) {
    s->prims[prim] = make_prim(RC_PRIM_TRIANGLE, material, a, 0.0f, rc_sub(b, a), rc_sub(c, a));
    memcpy(s->tri_vtx + 3 * tri, vtx, 3 * sizeof(uint32_t));
    s->prim_tri[prim] = (uint32_t)tri;
}

void rc_scene_triangles_end(rc_scene *s, size_t count) {
    s->num_prims += count;
    s->num_triangles += count;
    s->num_tris += count;
    if (count) s->num_prim_tri = s->num_prims;
}

size_t rc_scene_vertex_bytes(const rc_scene *s) {
    return s->num_vertices * ((s->uv1s ? 7 : 5) + (s->colors ? 4 : 0) + (s->tangents ? 4 : 0)) *
               sizeof(float) +
           s->num_tris * 3 * sizeof(uint32_t) +
           (s->prim_tri ? 2 * s->num_prims * sizeof(uint32_t) : 0);
}

const char *rc_light_sampling_name(int ls) {
    return ls == RC_LIGHTS_BSDF ? "bsdf" : "nee";
}

int rc_light_sampling_parse(const char *s, int *out) {
    if (strcmp(s, "nee") == 0)
        *out = RC_LIGHTS_NEE;
    else if (strcmp(s, "bsdf") == 0)
        *out = RC_LIGHTS_BSDF;
    else
        return -1;
    return 0;
}

/* The mean of an emissive texture's linear RGB at level 0 (entry `slot` - 1 of the table), or
 * 1 1 1 without one: a textured light's power is its factor times this. */
static rc_vec3 texture_mean_rgb(const rc_scene *s, uint32_t slot) {
    if (slot == RC_NO_TEXTURE || slot > s->textures.count) return rc_v3s(1.0f);
    const rc_texture *t = &s->textures.textures[slot - 1];
    const uint32_t *px = s->textures.texels + t->base + t->offset[0];
    size_t n = (size_t)t->width[0] * t->height[0];
    double sum[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        rc_rgba c = rc_tex_decode(px[i], t->srgb);
        sum[0] += c.r, sum[1] += c.g, sum[2] += c.b;
    }
    if (n == 0) return rc_v3s(1.0f);
    return rc_v3((float)(sum[0] / n), (float)(sum[1] / n), (float)(sum[2] / n));
}

/* Emitted power of a light primitive, up to the factor pi every one shares: radiance
 * (luminance, a textured emission's mean) x area x the sides it emits from (quads and
 * triangles both, a sphere its outside). 0 for a primitive that emits nothing. */
static double light_power(const rc_prim *p, const rc_material *mats, const rc_vec3 *tex_mean) {
    const rc_material *m = &mats[rc_prim_material(p)];
    if (!rc_material_emits(m)) return 0.0;
    rc_vec3 e = rc_mul(m->emission, tex_mean[rc_prim_material(p)]);
    double lum = 0.2126 * e.x + 0.7152 * e.y + 0.0722 * e.z;
    if (rc_prim_type(p) == RC_PRIM_QUAD) return lum * 2.0 * rc_length(rc_cross(p->a, p->b));
    if (rc_prim_type(p) == RC_PRIM_TRIANGLE) return lum * rc_length(rc_cross(p->a, p->b));
    return lum * 4.0 * (double)RC_PI * p->r * p->r;
}

/* The light table over the BVH's primitives (leaf order): a light is chosen with probability
 * proportional to its power, through a CDF; each one's probability, as the float CDF gives
 * it times the table's share (1 - env_prob), goes to its primitive's pad for rc_light_pdf.
 * The environment's share: 1 when it is the only light, 0.5 beside a table (its power
 * relative to the table's has no meaning without the scene's extent; half the samples each
 * way bounds the variance of either strategy by a factor 2). */
/* Instanced primitive `stored` of the packed meshes placed by instance `in`, in world space. */
static rc_prim inst_world_prim(const rc_scene *s, const rc_instance *in, size_t stored) {
    rc_prim p = s->inst.prims[stored];
    p.p = rc_xf_point(in->xf, p.p);
    p.a = rc_xf_dir(in->xf, p.a);
    p.b = rc_xf_dir(in->xf, p.b);
    return p;
}

/* The instanced emitters' ranks in their meshes (s->inst.light_rank) and each instance's first
 * entry of the table (the one-level lights come first). Returns the entries, or -1 when out of
 * memory, -2 past RC_INST_MAX_LIGHTS. */
static long inst_light_ranks(rc_scene *s, const rc_vec3 *tex_mean, uint32_t first) {
    rc_scene_inst *si = &s->inst;
    free(si->light_rank);
    si->light_rank = NULL;
    if (s->num_instances == 0 || !si->leaf) return 0;
    uint32_t *emitters = calloc(s->num_meshes ? s->num_meshes : 1, sizeof *emitters);
    if (!emitters) return -1;
    size_t any = 0;
    for (size_t k = 0; k < s->num_meshes; k++) {
        const rc_inst_mesh *m = &si->meshes[k];
        for (uint32_t i = m->prim_first; i < m->prim_first + m->num_prims; i++)
            if (light_power(&si->prims[i], s->materials, tex_mean) > 0.0) emitters[k]++, any++;
    }
    if (any == 0) {
        free(emitters);
        return 0;
    }
    si->light_rank = malloc(si->num_prims * sizeof *si->light_rank);
    if (!si->light_rank) {
        free(emitters);
        return -1;
    }
    for (size_t k = 0; k < s->num_meshes; k++) {
        const rc_inst_mesh *m = &si->meshes[k];
        uint32_t r = 0;
        for (uint32_t i = m->prim_first; i < m->prim_first + m->num_prims; i++)
            si->light_rank[i] =
                light_power(&si->prims[i], s->materials, tex_mean) > 0.0 ? r++ : RC_NO_PRIM;
    }
    uint64_t entries = 0;
    for (size_t i = 0; i < s->num_instances; i++) {
        rc_instance *in = &si->leaf[i];
        in->light = emitters[in->mesh] ? (uint32_t)(first + entries) : RC_NO_PRIM;
        entries += emitters[in->mesh];
    }
    free(emitters);
    return entries > RC_INST_MAX_LIGHTS ? -2 : (long)entries;
}

/* The light table over the BVH's primitives (leaf order), then the instanced emitters (each
 * instance's in its mesh's order, in the top-level tree's order of the instances): a light is
 * chosen with probability proportional to its power, through a CDF; each one-level light's
 * probability, as the float CDF gives it times the table's share (1 - env_prob), goes to its
 * primitive's pad for rc_light_pdf (an instanced one's is found from the CDF the same way,
 * scene_view.h's rc_scene_prim). The environment's share: 1 when it is the only light, 0.5
 * beside a table (its power relative to the table's has no meaning without the scene's extent;
 * half the samples each way bounds the variance of either strategy by a factor 2). 0; -1 out of
 * memory; -2 more instanced emitters than RC_INST_MAX_LIGHTS. */
static int build_lights(rc_scene *s) {
    free(s->light_prims);
    free(s->light_cdf);
    s->light_prims = NULL;
    s->light_cdf = NULL;
    s->num_lights = 0;
    rc_prim *prims = s->bvh.prims;
    uint32_t n = s->bvh.num_prims, count = 0;
    rc_vec3 *tex_mean = malloc((s->num_materials ? s->num_materials : 1) * sizeof *tex_mean);
    if (!tex_mean) return -1;
    for (size_t i = 0; i < s->num_materials; i++)
        tex_mean[i] = rc_material_emits(&s->materials[i])
                          ? texture_mean_rgb(s, s->materials[i].tex_emissive)
                          : rc_v3s(0.0f);
    double total = 0.0;
    for (uint32_t i = 0; i < n; i++) {
        prims[i].pad = 0.0f;
        double w = light_power(&prims[i], s->materials, tex_mean);
        if (w > 0.0) {
            count++;
            total += w;
        }
    }
    const uint32_t own = count;
    const long inst = inst_light_ranks(s, tex_mean, own);
    if (inst < 0) {
        free(tex_mean);
        return (int)inst;
    }
    const rc_scene_inst *si = &s->inst;
    for (size_t k = 0; inst > 0 && k < s->num_instances; k++) {
        const rc_instance *in = &si->leaf[k];
        const rc_inst_mesh *m = &si->meshes[in->mesh];
        if (in->light == RC_NO_PRIM) continue;
        for (uint32_t i = m->prim_first; i < m->prim_first + m->num_prims; i++) {
            if (si->light_rank[i] == RC_NO_PRIM) continue;
            rc_prim wp = inst_world_prim(s, in, i);
            total += light_power(&wp, s->materials, tex_mean);
            count++;
        }
    }
    s->env_prob = s->has_env ? (count > 0 ? 0.5f : 1.0f) : 0.0f;
    if (count == 0) {
        free(tex_mean);
        return 0;
    }
    s->light_prims = malloc(count * sizeof *s->light_prims);
    s->light_cdf = malloc(count * sizeof *s->light_cdf);
    if (!s->light_prims || !s->light_cdf) {
        free(tex_mean);
        return -1;
    }
    double sum = 0.0;
    float prev = 0.0f, share = 1.0f - s->env_prob;
    for (uint32_t i = 0; i < n; i++) {
        double w = light_power(&prims[i], s->materials, tex_mean);
        if (!(w > 0.0)) continue;
        sum += w;
        float c = s->num_lights + 1 == count ? 1.0f : (float)(sum / total);
        s->light_prims[s->num_lights] = i;
        s->light_cdf[s->num_lights++] = c;
        prims[i].pad = share == 1.0f ? c - prev : (c - prev) * share;
        prev = c;
    }
    for (size_t k = 0; inst > 0 && k < s->num_instances; k++) {
        const rc_instance *in = &si->leaf[k];
        const rc_inst_mesh *m = &si->meshes[in->mesh];
        if (in->light == RC_NO_PRIM) continue;
        for (uint32_t i = m->prim_first; i < m->prim_first + m->num_prims; i++) {
            if (si->light_rank[i] == RC_NO_PRIM) continue;
            rc_prim wp = inst_world_prim(s, in, i);
            sum += light_power(&wp, s->materials, tex_mean);
            float c = s->num_lights + 1 == count ? 1.0f : (float)(sum / total);
            s->light_prims[s->num_lights] = in->base + (i - m->prim_first);
            s->light_cdf[s->num_lights++] = c;
        }
    }
    free(tex_mean);
    return 0;
}

/* build_lights' failure as one line. */
static int lights_fail(rc_error *err, int rc) {
    if (rc == -2)
        return rc_fail(err,
                       "the instances hold more than %u emissive primitives (the light "
                       "table's limit for instanced emitters)",
                       (unsigned)RC_INST_MAX_LIGHTS);
    return rc_fail(err, "out of memory for the light table");
}

/* Flag the primitives of alpha-masked materials (prim.h's RC_PRIM_MASKED) for the traversal. */
static void flag_masked(rc_scene *s) {
    for (uint32_t i = 0; i < s->bvh.num_prims; i++) {
        rc_prim *p = &s->bvh.prims[i];
        p->type_mat &= ~RC_PRIM_MASKED;
        if (s->materials[rc_prim_material(p)].alpha_cutoff > 0.0f) p->type_mat |= RC_PRIM_MASKED;
    }
}

int rc_scene_finish(rc_scene *s, rc_error *err) {
    const uint32_t layout = s->bvh.layout;
    uint32_t n = (uint32_t)s->num_prims;
    /* The build takes the primitives and reorders them in place into the BVH's leaf order, so
     * the scene holds them once. Finished before: the input order back from the leaf order. */
    if (unfinish_prims(s) != 0) return rc_fail(err, "out of memory for %u primitives", (unsigned)n);
    /* the instanced meshes leave the one-level primitives for trees of their own (their
     * builds count as BVH time, as the top level's does) */
    double t0 = timing_now_ms();
    if (rc_scene_inst_meshes(s, err) != 0) return -1;
    n = (uint32_t)s->num_prims;
    rc_bvh_free(&s->bvh);
    /* the primitives stay in input order until the wide collapse reorders them once */
    if (rc_bvh_build_deferred(s->prims, n, &s->bvh) != 0)
        return rc_fail(err, "out of memory building the BVH of %zu primitives", s->num_prims);
    s->prims = NULL; /* now s->bvh.prims */
    s->cap_prims = 0;
    s->bvh.layout = layout;
    s->bvh_build_ms = timing_now_ms() - t0;
    /* the wide layout always, whichever is traced: its leaf order is both layouts' */
    t0 = timing_now_ms();
    if (rc_bvh_build_wide(&s->bvh) != 0)
        return rc_fail(err, "out of memory building the wide BVH of %zu primitives", s->num_prims);
    s->bvh.wide_ms = timing_now_ms() - t0;
    t0 = timing_now_ms();
    if (rc_scene_inst_top(s, err) != 0) return -1;
    s->bvh_build_ms += timing_now_ms() - t0;
    int lrc = build_lights(s);
    if (lrc != 0) return lights_fail(err, lrc);
    flag_masked(s);
    free(s->leaf_tri);
    s->leaf_tri = NULL;
    if (s->num_tris > 0) {
        s->leaf_tri = malloc((n ? n : 1) * sizeof *s->leaf_tri);
        if (!s->leaf_tri) return rc_fail(err, "out of memory for the vertex data's index");
#pragma omp parallel for schedule(static) if (n >= 65536)
        for (int64_t i = 0; i < (int64_t)n; i++) {
            uint32_t id = s->bvh.ids[i];
            s->leaf_tri[i] = id < s->num_prim_tri ? s->prim_tri[id] : RC_NO_TRI;
        }
    }
    return 0;
}

int rc_scene_relight(rc_scene *s, rc_error *err) {
    int rc = build_lights(s);
    return rc != 0 ? lights_fail(err, rc) : 0;
}

uint32_t rc_scene_features(const rc_scene *s) {
    uint32_t f = 0u;
    for (size_t i = 0; i < s->num_materials; i++) {
        const rc_material *m = &s->materials[i];
        if (m->type > RC_MAT_EMISSIVE || (m->type != RC_MAT_EMISSIVE && rc_material_emits(m)))
            f |= RC_FEAT_MODELS;
        if (m->tex_base | m->tex_mr | m->tex_normal | m->tex_emissive | m->tex_transmission ||
            (m->flags & RC_MATF_VERTEX_COLOR))
            f |= RC_FEAT_TEXTURES;
    }
    if (s->has_env) f |= RC_FEAT_ENV;
    if (s->leaf_tri || s->inst.prim_tri) f |= RC_FEAT_MESH;
    if (s->num_instances > 0) f |= RC_FEAT_INST;
    return f;
}

rc_scene_view rc_scene_view_make(const rc_scene *s, uint32_t width, uint32_t height) {
    rc_scene_view v;
    memset(&v, 0, sizeof v);
    v.bvh = rc_bvh_view_of(&s->bvh);
    v.materials = s->materials;
    v.num_materials = (uint32_t)s->num_materials;
    v.background = s->background;
    v.camera = rc_camera_make(&s->camera, (float)width / (float)height);
    v.lights.prims = s->light_prims;
    v.lights.cdf = s->light_cdf;
    v.lights.count = s->num_lights;
    v.lights.env_prob = s->env_prob;
    const int vtx = s->leaf_tri || s->inst.prim_tri;
    v.mesh.prim_tri = s->leaf_tri;
    v.mesh.tri_vtx = s->tri_vtx;
    v.mesh.normals = vtx && s->has_normals ? s->normals : NULL;
    v.mesh.uvs = vtx && s->has_uvs ? s->uvs : NULL;
    v.mesh.uv1s = vtx ? s->uv1s : NULL;
    v.mesh.colors = vtx ? s->colors : NULL;
    v.mesh.tangents = vtx ? s->tangents : NULL;
    v.bvh.inst = rc_scene_inst_view(s, v.bvh.layout);
    v.textures = rc_texture_table_view(&s->textures);
    if (s->has_env) v.env = rc_env_view_make(&s->env, s->env_rotation, s->env_scale);
    v.features = rc_scene_features(s);
    v.bvh.masked = 0u;
    for (size_t i = 0; i < s->num_materials; i++)
        if (s->materials[i].alpha_cutoff > 0.0f) v.bvh.masked = 1u;
    v.bvh.alpha.materials = s->materials;
    v.bvh.alpha.mesh = v.mesh;
    v.bvh.alpha.textures = v.textures;
    return v;
}
