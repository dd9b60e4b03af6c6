/* path.h: the path state that flows through the ray stream, and the per-path work of each
 * phase (generate, extend, shade). The CPU backend calls these functions in OpenMP loops;
 * the CUDA kernels are one-line wrappers around the same functions. */
#ifndef RC_PATH_H
#define RC_PATH_H

#include "light.h"
#include "scene_view.h"
#include "shading.h"

#include <stddef.h>

/* flags: bits 0..7 the bounce (0 = the camera ray); bits 8..30 the path's sample within its
 * wave (a wave traces several samples of every pixel in one stream, wavefront.h); bit 31 set
 * while the path is alive. */
#define RC_PATH_BOUNCE_MASK  0xffu
#define RC_PATH_SAMPLE_SHIFT 8u
#define RC_PATH_SAMPLE_MASK  0x7fffff00u
#define RC_PATH_MAX_WAVE     (1u << 23) /* samples a wave can hold */
#define RC_PATH_ALIVE        0x80000000u

/* One path, 64 bytes, aligned to 16: the record the `payload` mode compacts (elem_size =
 * sizeof(rc_path)). In `indices` mode the records stay in place, one per pixel and sample, and
 * a queue of uint32 path indices is compacted instead. The CUDA kernels copy a record into
 * registers with four 16-byte loads, work on the copy and store it back the same way: one
 * field at a time, a warp's 4-byte accesses 64 bytes apart would touch every sector 16 times.
 * The light a path gathers goes straight to its own slot of sample_rgb (rc_path_slot), not
 * into the record: the shadow rays of next-event estimation add theirs there too. */
typedef struct rc_path {
    RC_ALIGN16 rc_vec3 origin; /* ray origin */
    float t;                   /* extend: distance to the nearest hit (INFINITY on a miss) */
    rc_vec3 dir;               /* unit ray direction */
    uint32_t prim;             /* extend: nearest primitive, RC_NO_PRIM on a miss */
    rc_vec3 throughput; /* product of the scattering weights, over the roulette survival odds */
    uint32_t pixel;     /* y * width + x: the pixel this path's radiance belongs to */
    float pdf;          /* the density rc_scatter drew dir with, when the vertex it left also
                           sampled a light (MIS weighs a light hit against it); 0: the light
                           a hit finds counts fully (camera ray, glass, mirror, no NEE) */
    float cone_width;   /* the ray cone at the origin (texture.h): its width */
    float cone_spread;  /* and its whole angle */
    uint32_t flags;     /* bits 0..7: bounce; 8..30: sample in the wave; 31: alive */
} rc_path;

/* One shadow ray, 48 bytes, aligned to 16: what shade appends for a light sample, in the
 * stream slot of the path that drew it; the `shadow` phase traces it (any hit) and, when
 * nothing blocks it, adds `contrib` to the path's own sample_rgb slot. */
typedef struct rc_shadow {
    RC_ALIGN16 rc_vec3 origin;
    float tmax; /* just short of the light's point */
    rc_vec3 dir;
    uint32_t slot;   /* the path's sample_rgb index, | RC_PATH_ALIVE while there is a ray */
    rc_vec3 contrib; /* throughput x f cos x emission / light pdf x MIS weight */
    uint32_t pad;
} rc_shadow;

/* Per-frame constants of the shading phase. */
typedef struct rc_shade_params {
    uint32_t sample;     /* sample index of the wave's first sample: with the path's place in
                            the wave, part of every random key */
    uint32_t max_depth;  /* a path ends after this many bounces */
    uint32_t rr_depth;   /* Russian roulette from this bounce on */
    uint32_t num_pixels; /* sample_rgb holds the wave's samples one image after another; 0:
                            one slot for every path (a megakernel's own accumulator) */
    uint32_t nee;        /* 1: next-event estimation with MIS (light.h); 0: BSDF sampling only */
    uint32_t seed;       /* the render's seed, 0 .. RC_MAX_SEED (rng.h) */
} rc_shade_params;

#define RC_RR_DEPTH 3

RC_FN int rc_path_alive(const rc_path *p) {
    return (p->flags & RC_PATH_ALIVE) != 0;
}
RC_FN uint32_t rc_path_bounce(const rc_path *p) {
    return p->flags & RC_PATH_BOUNCE_MASK;
}
/* The path's sample within its wave (0 .. samples in the wave - 1). */
RC_FN uint32_t rc_path_wave_sample(const rc_path *p) {
    return (p->flags & RC_PATH_SAMPLE_MASK) >> RC_PATH_SAMPLE_SHIFT;
}

/* generate: the camera ray of `pixel` for sample `sample + k` (the k-th sample of a wave that
 * starts at `sample`) of the render with this seed, jittered in the pixel and on the lens. */
RC_FN void rc_path_generate(const rc_camera *cam, uint32_t width, uint32_t height, uint32_t pixel,
                            uint32_t sample, uint32_t k, uint32_t seed, rc_path *p) {
    uint32_t x = pixel % width, y = pixel / width;
    rc_rng_key key = {pixel, sample + k, seed << RC_SEED_SHIFT};
    float s = ((float)x + rc_key_rand(key, RC_DIM_PIXEL_X)) / (float)width;
    float t = 1.0f - ((float)y + rc_key_rand(key, RC_DIM_PIXEL_Y)) / (float)height;
    rc_camera_ray(cam, s, t, rc_key_rand(key, RC_DIM_LENS_U), rc_key_rand(key, RC_DIM_LENS_V),
                  &p->origin, &p->dir);
    p->t = INFINITY;
    p->prim = RC_NO_PRIM;
    p->throughput = rc_v3s(1.0f);
    p->pixel = pixel;
    p->pdf = 0.0f;
    /* a pinhole's cone (Ray Tracing Gems ch. 20, eq. 30 with atan(x) ~ x at a pixel's angle) */
    p->cone_width = 0.0f;
    p->cone_spread = 2.0f * cam->tan_half_fov / (float)height;
    p->flags = RC_PATH_ALIVE | (k << RC_PATH_SAMPLE_SHIFT);
}

/* extend: trace the path's ray to its nearest hit. */
RC_FN void rc_path_extend(const rc_scene_view *sc, rc_path *p) {
    const rc_bvh_view *bvh = &sc->bvh;
#ifdef RC_PROBES
    rc_bvh_view probed = sc->bvh; /* the traversal's probes count at the path's bounce */
    probed.probe_bounce = rc_path_bounce(p);
    bvh = &probed;
#endif
    rc_hit h = rc_bvh_intersect(bvh, p->origin, p->dir, 0.0f, INFINITY);
    p->t = h.t;
    p->prim = h.prim;
}

/* The path's slot of sample_rgb: its sample in the wave's image of its pixel. With
 * num_pixels == 0, slot 0: a megakernel thread passes its own accumulator as sample_rgb. */
RC_FN size_t rc_path_slot(const rc_shade_params *sp, const rc_path *p) {
    return sp->num_pixels ? (size_t)rc_path_wave_sample(p) * sp->num_pixels + p->pixel : 0;
}

/* Add light to the path's sample. Each slot belongs to one path, whose shade and shadow
 * phases add in bounce order: the sum never depends on the order of the stream. */
RC_FN void rc_path_add(const rc_shade_params *sp, const rc_path *p, rc_vec3 *sample_rgb,
                       rc_vec3 light) {
    size_t i = rc_path_slot(sp, p);
    sample_rgb[i] = rc_add(sample_rgb[i], light);
}

/* End the path: its light is all in sample_rgb already. */
RC_FN int rc_path_finish(rc_path *p) {
    p->flags &= ~RC_PATH_ALIVE;
    return 0;
}

/* Offset a surface point along the normal to the side the new ray leaves on, scaled to the
 * point's magnitude, so the next ray does not hit the surface it starts on. */
RC_FN rc_vec3 rc_offset_origin(rc_vec3 x, rc_vec3 n, rc_vec3 dir) {
    float eps = 1e-4f * (1.0f + rc_max_abs(x));
    return rc_add(x, rc_scale(n, rc_dot(dir, n) > 0.0f ? eps : -eps));
}

/* The environment's share of the light samples (0 without one). */
RC_FN float rc_env_share(const rc_scene_view *sc) {
    return (sc->features & RC_FEAT_ENV) ? sc->lights.env_prob : 0.0f;
}

/* Next-event estimation at surface point x (shading sh, geometric normal facing the ray):
 * choose the environment or a light of the table by power and a point on it, and write the
 * shadow ray that carries its light weighted by the power heuristic against the material's
 * own sampling. No ray (sh->slot stays 0) when the point lies behind the surface or the light
 * has nothing to offer. */
RC_FN void rc_path_nee(const rc_scene_view *sc, const rc_shade_params *sp, const rc_path *p,
                       const rc_shading *sg, rc_vec3 x, rc_rng_key key, rc_shadow *sh) {
    /* the origin a scattered ray leaving above the surface has: the same light density */
    rc_vec3 n = sg->ng;
    rc_vec3 o = rc_offset_origin(x, n, n), w, le;
    float dist, pl, u = rc_key_rand(key, RC_DIM_LIGHT);
    const float pe = rc_env_share(sc);
    if (pe > 0.0f && u < pe) {
        le = rc_env_sample(&sc->env, rc_key_rand(key, RC_DIM_LIGHT_U),
                           rc_key_rand(key, RC_DIM_LIGHT_V), &w, &pl);
        pl *= pe;
        dist = INFINITY;
        if (!(pl > 0.0f) || !(rc_dot(w, n) > 0.0f)) return;
    } else {
        if (pe > 0.0f) u = fminf((u - pe) / (1.0f - pe), 0.99999994f);
        uint32_t li = rc_light_pick(&sc->lights, u);
        uint32_t lpi = sc->lights.prims[li], tri;
        rc_prim lbuf;
        const rc_prim *lp = rc_scene_prim(sc, lpi, &lbuf, &tri);
        float b1, b2;
        if (!rc_light_sample(lp, o, rc_key_rand(key, RC_DIM_LIGHT_U),
                             rc_key_rand(key, RC_DIM_LIGHT_V), &w, &dist, &pl, &b1, &b2))
            return;
        const rc_material *lm = &sc->materials[rc_prim_material(lp)];
        /* a masked light's holes emit nothing: the rays that would hit it there pass through
           (alpha.h), so its light samples must see the same holes */
        if (sc->bvh.masked && (lp->type_mat & RC_PRIM_MASKED) &&
            !rc_alpha_solid(lm, &sc->mesh, &sc->textures, tri, b1, b2))
            return;
        le = rc_emission_at(sc, lm, tri, b1, b2);
    }
    float k, pb;
    rc_vec3 c = rc_shading_eval(sg, p->dir, w, &k, &pb);
    if (!(pb > 0.0f)) return;
    /* f cos = c * k (shading.h): throughput * c * Le * k / pl * w_light */
    k = k / pl * rc_mis_weight(pl, pb);
    sh->origin = o;
    sh->tmax = dist * (1.0f - 1e-4f);
    sh->dir = w;
    sh->contrib = rc_scale(rc_mul(rc_mul(p->throughput, c), le), k);
    sh->slot = (uint32_t)rc_path_slot(sp, p) | RC_PATH_ALIVE;
}

/* shade: add the background (miss) or what the surface emits (MIS-weighed against the light
 * sample of the vertex before); end the path at a miss or an emitter that does not scatter;
 * otherwise sample a light (sh != NULL and NEE on), scatter by the material, end absorbed
 * paths and paths at max_depth, and play Russian roulette from rr_depth on. Returns 1 if the
 * path goes on, 0 if it ended. `sh` receives the shadow ray, or slot 0 for none. */
RC_FN int rc_path_shade(const rc_scene_view *sc, const rc_shade_params *sp, rc_path *p,
                        rc_vec3 *sample_rgb, rc_shadow *sh) {
    RC_PROBE(&sc->bvh, RC_PROBE_SHADE, rc_path_bounce(p));
    if (sh) sh->slot = 0u;
    if (p->prim == RC_NO_PRIM) {
        rc_vec3 bg = rc_mul(p->throughput, rc_scene_background(sc, p->dir));
        /* the environment is a light NEE samples: weigh the hit against that strategy */
        if ((sc->features & RC_FEAT_ENV) && p->pdf > 0.0f && sc->lights.env_prob > 0.0f)
            bg = rc_scale(
                bg, rc_mis_weight(p->pdf, sc->lights.env_prob * rc_env_pdf(&sc->env, p->dir)));
        rc_path_add(sp, p, sample_rgb, bg);
        return rc_path_finish(p);
    }
    rc_prim pbuf;
    const rc_prim *pr = rc_scene_prim(sc, p->prim, &pbuf, NULL);
    const rc_material *m = &sc->materials[rc_prim_material(pr)];
    if (m->type == RC_MAT_EMISSIVE &&
        (!(sc->features & RC_FEAT_TEXTURES) || m->tex_emissive == RC_NO_TEXTURE)) {
        /* an emitter that scatters nothing and has no texture: no surface interaction needed */
        rc_vec3 le = rc_mul(p->throughput, m->emission);
        /* the vertex before sampled a light too: weigh this hit against that strategy */
        if (p->pdf > 0.0f)
            le = rc_scale(le, rc_mis_weight(p->pdf, rc_light_pdf(pr, p->origin, p->dir, p->t)));
        rc_path_add(sp, p, sample_rgb, le);
        return rc_path_finish(p);
    }
    uint32_t bounce = rc_path_bounce(p);
    rc_rng_key key = {p->pixel, sp->sample + rc_path_wave_sample(p),
                      bounce | sp->seed << RC_SEED_SHIFT};
    rc_surface s = rc_surface_at(&sc->bvh, &sc->mesh, (sc->features & RC_FEAT_MESH) != 0u, p->prim,
                                 p->origin, p->dir, p->t);
    rc_vec3 x = s.p;
    const float width = p->cone_width + p->cone_spread * p->t; /* RTG eq. 29 */
    rc_shading sg = rc_shading_at(sc, &s, p->dir, width);
    if ((sc->features & RC_FEAT_MODELS) && rc_material_emits(m)) {
        rc_vec3 le = rc_mul(p->throughput, sg.emission);
        if (p->pdf > 0.0f)
            le = rc_scale(le, rc_mis_weight(p->pdf, rc_light_pdf(pr, p->origin, p->dir, p->t)));
        rc_path_add(sp, p, sample_rgb, le);
        if (m->type == RC_MAT_EMISSIVE) return rc_path_finish(p);
    }
    /* a light sample counts a path one vertex longer: only where scattering could still
       reach a light within max_depth */
    int nee = sh && sp->nee && (sc->lights.count > 0 || rc_env_share(sc) > 0.0f) &&
              bounce + 1 < sp->max_depth && rc_shading_nee(&sg);
    if (nee) rc_path_nee(sc, sp, p, &sg, x, key, sh);
    rc_vec3 dir, weight;
    float pdf, beta;
    RC_PROBE(&sc->bvh, RC_PROBE_SCATTER, bounce);
    RC_PROBE(&sc->bvh, RC_PROBE_CLASS + m->type, bounce);
    if (!rc_shading_sample(&sg, p->dir, key, nee, &dir, &weight, &pdf, &beta))
        return rc_path_finish(p);
    /* a direction into the surface: NEE from the front could not have drawn it */
    p->pdf = nee && rc_dot(dir, s.ng) > 0.0f ? pdf : 0.0f;
    p->throughput = rc_mul(p->throughput, weight);
    bounce++;
    if (bounce >= sp->max_depth) return rc_path_finish(p);
    if (bounce >= sp->rr_depth) {
        /* Survive with probability q and divide by q: unbiased, and dim paths end early. */
        float q = fminf(rc_max_comp(p->throughput), 0.95f);
        if (!(rc_key_rand(key, RC_DIM_ROULETTE) < q)) return rc_path_finish(p);
        p->throughput = rc_scale(p->throughput, 1.0f / q);
    }
    p->origin = rc_offset_origin(x, s.ng, dir);
    p->dir = dir;
    p->cone_width = width;
    p->cone_spread += beta;
    p->flags = (p->flags & RC_PATH_SAMPLE_MASK) | RC_PATH_ALIVE | bounce;
    return 1;
}

/* --sort-materials: the keys of the partition before shade, the material model of the hit
 * (material.h's RC_MAT_* are 0 .. RC_MAT_MODELS - 1), then a miss, then a path that has ended
 * already (only `none` keeps those in the stream). */
#define RC_SORT_MISS RC_MAT_MODELS
#define RC_SORT_DEAD (RC_MAT_MODELS + 1u)
#define RC_SORT_KEYS (RC_MAT_MODELS + 2u)
#if defined(__cplusplus)
static_assert(RC_PROBE_CLASSES == RC_MAT_MODELS, "probe.h: a class point per material model");
#else
_Static_assert(RC_PROBE_CLASSES == RC_MAT_MODELS, "probe.h: a class point per material model");
#endif

/* The key of a path after extend. */
RC_FN uint8_t rc_material_key(const rc_scene_view *sc, const rc_path *p) {
    if (!rc_path_alive(p)) return (uint8_t)RC_SORT_DEAD;
    if (p->prim == RC_NO_PRIM) return (uint8_t)RC_SORT_MISS;
    rc_prim buf;
    return (uint8_t)sc->materials[rc_prim_material(rc_bvh_prim(&sc->bvh, p->prim, &buf))].type;
}

/* shadow: trace a shadow ray (any hit); when nothing blocks it, its light goes to its path's
 * sample (rc_shadow_light). One ray per path and bounce: no two rays of a phase share a slot. */
RC_FN void rc_shadow_light(const rc_shadow *s, rc_vec3 *sample_rgb) {
    size_t i = s->slot & ~RC_PATH_ALIVE;
    sample_rgb[i] = rc_add(sample_rgb[i], s->contrib);
}
RC_FN void rc_shadow_trace(const rc_scene_view *sc, const rc_shadow *s, rc_vec3 *sample_rgb) {
    if (!rc_bvh_occluded(&sc->bvh, s->origin, s->dir, 0.0f, s->tmax))
        rc_shadow_light(s, sample_rgb);
}

#endif /* RC_PATH_H */
