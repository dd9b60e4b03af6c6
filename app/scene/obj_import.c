/* obj_import.c: an OBJ file with its MTL materials as an rc_import (scene_import.h), the form
 * the glTF reader gives: one part per material its faces use, each vertex a distinct
 * (position, uv, normal) of the faces, the MTL materials in glTF terms for
 * rc_import_material_map, their map_Kd images decoded. */
#include "scene_import.h"
#include "obj.h"
#include "texture_load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A glTF-like material with nothing set: white, opaque, metallic 0, roughness 1, no
 * textures (identity transforms). */
static void blank_material(rc_import_material *g) {
    memset(g, 0, sizeof *g);
    for (int k = 0; k < 4; k++) g->base_color[k] = 1.0f;
    g->roughness = 1.0f;
    g->normal_scale = 1.0f;
    g->emissive_strength = 1.0f;
    g->ior = 1.5f;
    rc_import_texref none = {-1, 0, {0, 0}, 0, {1, 1}};
    g->base_color_tex = g->metallic_roughness_tex = g->normal_tex = g->emissive_tex =
        g->transmission_tex = none;
}

/* The perceptual roughness of a Phong exponent: the Beckmann (and GGX) alpha of Walter et al.
 * 2007, section 5.2, alpha = sqrt(2 / (Ns + 2)), and roughness = sqrt(alpha) (glTF's
 * roughness is the square root of the microfacet alpha). */
static float ns_roughness(float ns) {
    return sqrtf(sqrtf(2.0f / (ns + 2.0f)));
}

/* The textures an MTL material names, as indices into the import's textures (-1: none). */
typedef struct mtl_maps {
    int32_t kd, norm;
    int alpha; /* the base texture's alpha is map_d's: alpha-masked at 0.5 */
} mtl_maps;

/* An MTL material as a glTF-like one, so that rc_import_material_map alone decides what the
 * renderer shades (by its MTL rules; scenes/FORMAT.md, OBJ):
 *   Ke -> the emission, on whichever model the rest makes (a black Kd without map_Kd makes
 *     a pure emitter);
 *   d < 1 with Ni > 1, or illum 4, 6 or 7 -> glass: transmission 1, IOR Ni (1.5 where Ni is
 *     1), tinted by Tf where given, else by Kd (white where the file gives no Kd or a black
 *     one), smooth unless Pr gives it a roughness;
 *   Pm or Pr given -> metallic Pm, roughness Pr (else from Ns, else 1) of base colour Kd;
 *   max(Ks) > max(Kd) with Ns >= 100 (a metal-like MTL) -> metallic 1 of base colour Ks,
 *     roughness from Ns (ns_roughness);
 *   Ks above 0 with Ns above 0 -> metallic 0 (a dielectric's highlight) of base colour Kd,
 *     roughness from Ns;
 *   else metallic 0, roughness 1 of base colour Kd: the rules make it Lambertian.
 * map_Kd is the base colour texture where Kd is the base colour, `norm` the normal map. */
static void mtl_as_import(const rc_mtl_material *s, const mtl_maps *maps, rc_import_material *g) {
    blank_material(g);
    memcpy(g->emissive, s->ke, sizeof g->emissive);
    float kd = fmaxf(s->kd[0], fmaxf(s->kd[1], s->kd[2]));
    float ks = fmaxf(s->ks[0], fmaxf(s->ks[1], s->ks[2]));
    int diffuse_base = 1;
    if ((s->d < 1.0f && s->ni > 1.0f) || s->illum == 4 || s->illum == 6 || s->illum == 7) {
        g->transmission = 1.0f;
        g->ior = s->ni != 1.0f ? s->ni : 1.5f;
        g->roughness = s->has_pr ? s->pr : 0.0f;
        for (int k = 0; k < 3; k++)
            g->base_color[k] = s->has_tf ? s->tf[k] : s->has_kd && kd > 0.0f ? s->kd[k] : 1.0f;
        diffuse_base = 0;
    } else if (s->has_pm || s->has_pr) {
        g->metallic = s->pm;
        g->roughness = s->has_pr ? s->pr : s->has_ns ? ns_roughness(s->ns) : 1.0f;
        memcpy(g->base_color, s->kd, 3 * sizeof(float));
    } else if (ks > kd && s->ns >= 100.0f) {
        g->metallic = 1.0f;
        g->roughness = ns_roughness(s->ns);
        memcpy(g->base_color, s->ks, 3 * sizeof(float));
        diffuse_base = 0;
    } else {
        if (ks > 0.0f && s->ns > 0.0f) g->roughness = ns_roughness(s->ns);
        memcpy(g->base_color, s->kd, 3 * sizeof(float));
    }
    if (diffuse_base && maps->kd >= 0) {
        g->base_color_tex.texture = maps->kd;
        if (maps->alpha) {
            g->alpha_mode = RC_IMPORT_ALPHA_MASK;
            g->alpha_cutoff = 0.5f;
        }
    }
    if (maps->norm >= 0) g->normal_tex.texture = maps->norm;
}

/* Append an image of w x h RGBA8 pixels (the import takes `rgba` over) and a texture of it
 * (REPEAT, filters unset: trilinear) to the import; files[image] = path (NULL: made here, not
 * read from a file). Its texture's index, or -1 (out of memory, rgba freed). */
static int32_t add_image(rc_import *im, const char **files, const char *path, uint32_t w,
                         uint32_t h, uint8_t *rgba) {
    rc_import_image *ni = realloc(im->images, (im->num_images + 1) * sizeof *ni);
    if (ni) im->images = ni;
    rc_import_texture *nt = realloc(im->textures, (im->num_textures + 1) * sizeof *nt);
    if (nt) im->textures = nt;
    if (!ni || !nt) {
        free(rgba);
        return -1;
    }
    rc_import_image *dst = &im->images[im->num_images];
    dst->width = w;
    dst->height = h;
    dst->rgba = rgba;
    rc_import_texture *tx = &im->textures[im->num_textures];
    memset(tx, 0, sizeof *tx);
    tx->image = (int32_t)im->num_images;
    tx->sampler.wrap_s = tx->sampler.wrap_t = RC_WRAP_REPEAT;
    files[im->num_images] = path;
    im->num_images++;
    im->bytes += 4 * (size_t)w * h;
    return (int32_t)im->num_textures++;
}

/* A map's image (level 0 alone, within *max_bytes, which it then takes its share of) as a
 * texture of the import, or the one already read from the same file. The message names the
 * MTL's line and statement. */
static int load_map(rc_import *im, const char **files, const char *path, const char *mtl,
                    size_t line, const char *what, size_t *max_bytes, int32_t *tex, rc_error *err) {
    for (size_t i = 0; i < im->num_textures; i++) {
        const char *f = files[im->textures[i].image];
        if (f && strcmp(f, path) == 0) {
            *tex = (int32_t)i;
            return 0;
        }
    }
    rc_texture_image img;
    rc_error terr;
    if (rc_texture_load_file(path, 1, 0, *max_bytes, &img, &terr) != 0)
        return rc_fail(err, "%s:%zu: %s: %s", mtl, line, what, terr.msg);
    size_t n = (size_t)img.width[0] * img.height[0];
    uint8_t *rgba = malloc(4 * n);
    if (rgba)
        for (size_t i = 0; i < n; i++) {
            uint32_t t = img.texels[img.offset[0] + i];
            for (int k = 0; k < 4; k++) rgba[4 * i + k] = (uint8_t)(t >> (8 * k));
        }
    *tex = rgba ? add_image(im, files, path, img.width[0], img.height[0], rgba) : -1;
    rc_texture_image_free(&img);
    if (*tex < 0) return rc_fail(err, "%s:%zu: %s: out of memory", mtl, line, what);
    *max_bytes -= 4 * n < *max_bytes ? 4 * n : *max_bytes;
    return 0;
}

/* map_d as the base texture's alpha: with the same file as map_Kd, that image's own alpha;
 * else an image of its own, map_Kd's colours (white without map_Kd) with map_d's alpha (or,
 * where map_d is opaque throughout, its red channel: a grey mask). A map_d of another size
 * than map_Kd is ignored with a notice. 0, or -1 with err. */
static int load_alpha(rc_import *im, const char **files, const rc_mtl_material *s,
                      size_t *max_bytes, mtl_maps *maps, rc_error *err) {
    if (s->map_kd && strcmp(s->map_kd, s->map_d) == 0) {
        maps->alpha = 1;
        return 0;
    }
    int32_t dt;
    if (load_map(im, files, s->map_d, s->file, s->map_d_line, "map_d", max_bytes, &dt, err) != 0)
        return -1;
    const rc_import_image *d = &im->images[im->textures[dt].image];
    const rc_import_image *kd = maps->kd >= 0 ? &im->images[im->textures[maps->kd].image] : NULL;
    uint32_t w = d->width, h = d->height;
    if (kd && (kd->width != w || kd->height != h)) {
        fprintf(stderr,
                "raycompact: %s:%zu: map_d: %ux%u pixels, not the size of map_Kd (%ux%u): "
                "ignored\n",
                s->file, s->map_d_line, w, h, kd->width, kd->height);
        return 0;
    }
    size_t n = (size_t)w * h;
    if (4 * n > *max_bytes)
        return rc_fail(err, "%s:%zu: map_d: its mask would take more than the memory limit",
                       s->file, s->map_d_line);
    uint8_t *rgba = malloc(4 * n);
    if (!rgba) return rc_fail(err, "%s:%zu: map_d: out of memory", s->file, s->map_d_line);
    int opaque = 1;
    for (size_t i = 0; i < n && opaque; i++) opaque = d->rgba[4 * i + 3] == 255;
    size_t ch = opaque ? 0 : 3;
    if (kd)
        memcpy(rgba, kd->rgba, 4 * n);
    else
        memset(rgba, 255, 4 * n);
    for (size_t i = 0; i < n; i++) rgba[4 * i + 3] = d->rgba[4 * i + ch];
    int32_t t = add_image(im, files, NULL, w, h, rgba);
    if (t < 0) return rc_fail(err, "%s:%zu: map_d: out of memory", s->file, s->map_d_line);
    *max_bytes -= 4 * n;
    maps->kd = t;
    maps->alpha = 1;
    return 0;
}

/* The maps of MTL material s as textures of the import: map_Kd, map_d, a `norm` normal map
 * (a `bump` or `map_Bump` height map is ignored with a notice: it is not a normal map). */
static int load_maps(rc_import *im, const char **files, const rc_mtl_material *s, size_t *max_bytes,
                     mtl_maps *maps, rc_error *err) {
    maps->kd = maps->norm = -1;
    maps->alpha = 0;
    if (s->map_kd && load_map(im, files, s->map_kd, s->file, s->map_kd_line, "map_Kd", max_bytes,
                              &maps->kd, err) != 0)
        return -1;
    if (s->map_d && load_alpha(im, files, s, max_bytes, maps, err) != 0) return -1;
    if (s->map_bump && s->bump_is_normal) {
        if (load_map(im, files, s->map_bump, s->file, s->map_bump_line, "norm", max_bytes,
                     &maps->norm, err) != 0)
            return -1;
    } else if (s->map_bump) {
        fprintf(stderr,
                "raycompact: %s:%zu: a bump (height) map is not a normal map: ignored (`norm "
                "FILE` names a tangent-space normal map)\n",
                s->file, s->map_bump_line);
    }
    return 0;
}

/* The grey Lambertian of faces without a material. */
static void default_material(rc_import_material *mat) {
    blank_material(mat);
    mat->base_color[0] = mat->base_color[1] = mat->base_color[2] = 0.8f;
    mat->is_default = 1;
}

#define SHARE_PROBES 16

/* The block at p cut to n bytes (p itself where realloc cannot). */
static void *shrink(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    return q ? q : p;
}

/* One part of an OBJ: the triangles of material `key` (an index into the MTL materials, or
 * RC_OBJ_NONE). The OBJ's corners name their own normal and uv, so a vertex of the part is a
 * distinct (position, uv, normal) triple, in the order the triangles first use it: corners that
 * name the same three share it. head[v] (RC_OBJ_NONE for every mesh vertex on entry and on
 * return) starts each position's chain of the part's vertices at it. */
static int obj_part(const rc_mesh *m, uint32_t key, size_t count, uint32_t *head,
                    rc_import_part *p) {
    size_t nc = 3 * count, nu = 0;
    memset(p, 0, sizeof *p);
    /* room for a vertex a corner; the pages the distinct ones do not touch stay unmapped */
    p->positions = malloc(nc * 3 * sizeof(float));
    p->indices = malloc(nc * sizeof(uint32_t));
    uint32_t *next = malloc(nc * sizeof(uint32_t)), *from = malloc(nc * sizeof(uint32_t));
    if (m->tri_n) p->normals = malloc(nc * 3 * sizeof(float));
    if (m->tri_t) p->uv0 = malloc(nc * 2 * sizeof(float));
    int rc = -1;
    if (!p->positions || !p->indices || !next || !from || (m->tri_n && !p->normals) ||
        (m->tri_t && !p->uv0))
        goto done;
    size_t c = 0;
    for (size_t t = 0; t < m->num_triangles; t++) {
        if ((m->tri_m ? m->tri_m[t] : RC_OBJ_NONE) != key) continue;
        for (size_t k = 3 * t; k < 3 * t + 3; k++, c++) {
            /* at most SHARE_PROBES of the position's vertices are looked at, the latest first:
               a position that hostile faces pair with a million normals costs no more */
            uint32_t v = m->tri[k], u = head[v];
            for (int probes = 0;
                 u != RC_OBJ_NONE && ((m->tri_t && m->tri_t[from[u]] != m->tri_t[k]) ||
                                      (m->tri_n && m->tri_n[from[u]] != m->tri_n[k]));
                 u = next[u])
                if (++probes == SHARE_PROBES) {
                    u = RC_OBJ_NONE;
                    break;
                }
            if (u == RC_OBJ_NONE) {
                u = (uint32_t)nu++;
                from[u] = (uint32_t)k;
                next[u] = head[v];
                head[v] = u;
                memcpy(p->positions + 3 * (size_t)u, m->v + 3 * (size_t)v, 3 * sizeof(float));
                if (p->normals) {
                    float *o = p->normals + 3 * (size_t)u;
                    o[0] = o[1] = o[2] = 0.0f;
                    if (m->tri_n[k] != RC_OBJ_NONE) {
                        const float *n = m->vn + 3 * (size_t)m->tri_n[k];
                        double l =
                            sqrt((double)n[0] * n[0] + (double)n[1] * n[1] + (double)n[2] * n[2]);
                        for (int j = 0; j < 3 && l > 0.0; j++) o[j] = (float)(n[j] / l);
                    }
                }
                if (p->uv0) {
                    float *o = p->uv0 + 2 * (size_t)u;
                    o[0] = o[1] = 0.0f;
                    if (m->tri_t[k] != RC_OBJ_NONE) {
                        /* OBJ's v grows upwards, a texture's rows downwards (core/texture.h) */
                        o[0] = m->vt[2 * (size_t)m->tri_t[k]];
                        o[1] = 1.0f - m->vt[2 * (size_t)m->tri_t[k] + 1];
                    }
                }
            }
            p->indices[c] = u;
        }
    }
    for (size_t i = 0; i < nu; i++) head[m->tri[from[i]]] = RC_OBJ_NONE;
    p->positions = shrink(p->positions, nu * 3 * sizeof(float));
    if (p->normals) p->normals = shrink(p->normals, nu * 3 * sizeof(float));
    if (p->uv0) p->uv0 = shrink(p->uv0, nu * 2 * sizeof(float));
    p->has_uv0 = p->uv0 != NULL;
    p->num_vertices = nu;
    p->num_triangles = count;
    rc = 0;
done:
    free(next);
    free(from);
    return rc;
}

/* An OBJ mesh (with its MTL files) as an import: one part per material its faces use, the
 * MTL materials converted for rc_import_material_map, a grey Lambertian default for faces
 * without one. The text of the OBJ and its MTL files takes at most max_bytes, and so do the
 * map_Kd images. */
int rc_obj_import(const char *path, size_t max_bytes, size_t limit, rc_import *im, rc_error *err) {
    rc_mesh m;
    memset(im, 0, sizeof *im);
    if (rc_obj_load_mtl(path, max_bytes, &m, err) != 0) return -1;
    if (m.num_unknown_usemtl)
        fprintf(stderr,
                "raycompact: %s: usemtl '%s'%s names no material (no mtllib defines any): "
                "its faces take the grey default\n",
                path, m.unknown_usemtl, m.num_unknown_usemtl > 1 ? " (and later ones)" : "");
    size_t nm = m.mtl.count;
    /* triangles per material, the default's last */
    size_t *count = calloc(nm + 1, sizeof *count);
    const char **files = NULL; /* per image of the import: the map file it came from */
    uint32_t *head = NULL;
    int rc = -1;
    /* what the scene's triangles alone will take, before the parts and the scene are made */
    double need = (double)m.num_triangles * RC_IMPORT_TRI_BYTES +
                  (double)m.num_vertices * RC_IMPORT_VERTEX_BYTES;
    if (need > (double)limit) {
        rc_fail(err,
                "%s: %zu triangles would take %.0f MiB, over the memory limit of %zu MiB "
                "(--max-memory MIB raises it)",
                path, m.num_triangles, need / 1048576.0, limit >> 20);
        goto done;
    }
    head = malloc((m.num_vertices ? m.num_vertices : 1) * sizeof *head);
    if (head) memset(head, 0xff, m.num_vertices * sizeof *head);
    if (!count || !head) {
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
    /* each material's maps: at most 4 images (map_Kd, map_d, its mask, norm) */
    files = calloc(4 * used + 1, sizeof *files);
    if (!files) {
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
            mtl_maps maps;
            if (load_maps(im, files, s, &tex_bytes, &maps, err) != 0) goto done;
            mtl_as_import(s, &maps, g);
        }
        rc_import_part *p = &im->parts[im->num_parts];
        if (obj_part(&m, k == nm ? RC_OBJ_NONE : (uint32_t)k, count[k], head, p) != 0) {
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
    free(files);
    free(head);
    rc_mesh_free(&m);
    if (rc != 0) rc_import_free(im);
    return rc;
}
