/* shading.h: the one place where a surface interaction (surface.h) meets its material: the
 * textures applied, the shading normal perturbed by a normal map, and the scattering model's
 * sample, eval and pdf in world space. Next-event estimation, MIS, the sort keys and every
 * kernel that shades go through these functions and never test a material's model.
 *
 * The models of "Ray Tracing in One Weekend" (RC_MAT_LAMBERTIAN .. RC_MAT_DIELECTRIC) sample in
 * world space with material.h's rc_scatter and give their density with light.h's
 * rc_scatter_pdf, as they always have: the scenes made of them render the bytes they rendered
 * before this interface existed. bsdf.h's local-frame forms of the same models are their
 * tested specification (tests/test_bsdf.c checks that both draw the same directions). The
 * glTF models (RC_MAT_PBR, RC_MAT_ROUGH_DIELECTRIC) work in the local frame of bsdf.h.
 *
 * Shading normals (Veach 1997, sec. 5.3): a direction counts only where the shading and the
 * geometric normal agree on its side; a sample or a light direction that leaves on the other
 * side of the geometric surface than the shading normal says is dropped (the light leak and
 * black fringes of interpolated normals both come from ignoring this). */
#ifndef RC_SHADING_H
#define RC_SHADING_H

#include "bsdf.h"
#include "scene_view.h"

/* The surface spread angle a cone gains at a bounce that is not a mirror or a refraction
 * through a smooth surface (texture.h's rc_cone_propagate): a diffuse lobe is far wider than
 * any pixel, so its secondary hits read coarse levels (blurred, not aliased); a glossy lobe
 * gains twice its GGX alpha, about its width. (Ray Tracing Gems ch. 20 leaves beta to the
 * renderer; this is ours.) */
#define RC_CONE_DIFFUSE_BETA 1.0f

/* A surface point's scattering, ready to sample or evaluate. */
typedef struct rc_shading {
    rc_bsdf b;         /* the model and its parameters here (textures applied) */
    rc_vec3 ns;        /* unit shading normal on the ray's side (normal map applied) */
    rc_vec3 ng;        /* unit geometric normal on the ray's side */
    rc_vec3 emission;  /* emitted radiance (both sides) */
    int front;         /* the ray came from the side the primitive's own normal points to */
    int smooth;        /* ns differs from ng: the side checks apply */
    uint32_t features; /* the scene's RC_FEAT_* */
} rc_shading;

/* The RTIOW material of the shading's parameters, for rc_scatter and rc_scatter_pdf. */
RC_FN rc_material rc_shading_rtiow(const rc_shading *sh) {
    rc_material m;
    m.color = sh->b.base_color;
    m.type = sh->b.model;
    m.param = sh->b.model == RC_MAT_METAL ? sh->b.fuzz : sh->b.ior;
    return m;
}

RC_FN int rc_shading_is_rtiow(const rc_shading *sh) {
    return !(sh->features & RC_FEAT_MODELS) || sh->b.model <= RC_MAT_DIELECTRIC;
}

/* The texture lookup of slot `id` of the material at the hit: the slot's uv set, the level of
 * detail from the ray cone's width at the hit (texture.h, Ray Tracing Gems ch. 20). */
RC_FN rc_rgba rc_shading_tex(const rc_scene_view *sc, const rc_surface *s, uint32_t id, int uv1,
                             float delta, float width, float n_dot_d) {
    float uv[2];
    rc_material_uv(&sc->mesh, s->tri, uv1, s->b1, s->b2, uv);
    float lod = rc_tex_cone_lod(&sc->textures, id - 1u, delta, width, n_dot_d);
    return rc_tex_sample(&sc->textures, id - 1u, uv[0], uv[1], lod);
}

/* A triangle's tangent and bitangent (the directions of increasing u and v on it) from its
 * edges and uvs, as the glTF 2.0 specification's reference viewer derives them for files
 * without TANGENT; 0 when the uvs are degenerate. */
RC_FN int rc_tri_tangents(const rc_prim *pr, const float uv0[2], const float uv1[2],
                          const float uv2[2], rc_vec3 *t, rc_vec3 *bt) {
    float du1 = uv1[0] - uv0[0], dv1 = uv1[1] - uv0[1];
    float du2 = uv2[0] - uv0[0], dv2 = uv2[1] - uv0[1];
    float det = du1 * dv2 - du2 * dv1;
    if (!(fabsf(det) > 1e-20f)) return 0;
    float r = 1.0f / det;
    *t = rc_scale(rc_sub(rc_scale(pr->a, dv2), rc_scale(pr->b, dv1)), r);
    *bt = rc_scale(rc_sub(rc_scale(pr->b, du1), rc_scale(pr->a, du2)), r);
    return 1;
}

/* The emitted radiance of material m at the surface (its emissive texture at level 0: light
 * sampling has no cone). */
RC_FN rc_vec3 rc_emission_at(const rc_scene_view *sc, const rc_material *m, uint32_t tri, float b1,
                             float b2) {
    rc_vec3 e = m->emission;
    if ((sc->features & RC_FEAT_TEXTURES) && m->tex_emissive != RC_NO_TEXTURE && tri != RC_NO_TRI) {
        float uv[2];
        rc_material_uv(&sc->mesh, tri, (m->flags & RC_MATF_UV1_EMISSIVE) != 0u, b1, b2, uv);
        rc_rgba c = rc_tex_sample(&sc->textures, m->tex_emissive - 1u, uv[0], uv[1], 0.0f);
        e = rc_mul(e, rc_v3(c.r, c.g, c.b));
    }
    return e;
}

/* The shading at surface s, hit by unit direction d with a ray cone `width` wide there. */
RC_FN rc_shading rc_shading_at(const rc_scene_view *sc, const rc_surface *s, rc_vec3 d,
                               float width) {
    const rc_material *m = &sc->materials[s->material];
    rc_shading sh;
    sh.b = rc_bsdf_from_material(m);
    sh.ns = s->ns;
    sh.ng = s->ng;
    sh.front = s->front;
    sh.emission = m->emission;
    sh.smooth = (sc->features & RC_FEAT_MESH) && s->smooth;
    sh.features = sc->features;
    if (!(sc->features & RC_FEAT_TEXTURES)) return sh;
    const uint32_t any_tex =
        m->tex_base | m->tex_mr | m->tex_normal | m->tex_emissive | m->tex_transmission;
    if (s->tri == RC_NO_TRI || (any_tex == RC_NO_TEXTURE && !(m->flags & RC_MATF_VERTEX_COLOR)))
        return sh;
    rc_prim pbuf;
    const rc_instance *in;
    uint32_t stored;
    const rc_prim *pr = rc_bvh_prim_ref(&sc->bvh, s->prim, &pbuf, &in, &stored);
    /* the triangle's base level of detail (uv0; a texture on the second set shares it) */
    float delta = 0.0f;
    const uint32_t *vi = sc->mesh.tri_vtx + 3 * (size_t)s->tri;
    const float *uvs = sc->mesh.uvs;
    float n_dot_d = rc_dot(s->ng, d);
    if (uvs) {
        const float *t0 = uvs + 2 * (size_t)vi[0], *t1 = uvs + 2 * (size_t)vi[1],
                    *t2 = uvs + 2 * (size_t)vi[2];
        float t_a = fabsf((t1[0] - t0[0]) * (t2[1] - t0[1]) - (t2[0] - t0[0]) * (t1[1] - t0[1]));
        float p_a = rc_length(rc_cross(pr->a, pr->b));
        delta = 0.5f * log2f(t_a / p_a);
    }
    if (m->tex_base != RC_NO_TEXTURE) {
        rc_rgba c = rc_shading_tex(sc, s, m->tex_base, (m->flags & RC_MATF_UV1_BASE) != 0u, delta,
                                   width, n_dot_d);
        sh.b.base_color = rc_mul(sh.b.base_color, rc_v3(c.r, c.g, c.b));
    }
    if ((m->flags & RC_MATF_VERTEX_COLOR) && sc->mesh.colors) {
        float c[4];
        rc_mesh_lerp(sc->mesh.colors, 4, vi, s->b1, s->b2, c);
        sh.b.base_color = rc_mul(sh.b.base_color, rc_v3(c[0], c[1], c[2]));
    }
    if (m->tex_mr != RC_NO_TEXTURE) {
        rc_rgba c = rc_shading_tex(sc, s, m->tex_mr, (m->flags & RC_MATF_UV1_MR) != 0u, delta,
                                   width, n_dot_d);
        sh.b.roughness *= c.g;
        sh.b.metallic *= c.b;
    }
    if (m->tex_transmission != RC_NO_TEXTURE) {
        rc_rgba c = rc_shading_tex(sc, s, m->tex_transmission, 0, delta, width, n_dot_d);
        sh.b.transmission *= c.r;
    }
    if (m->tex_emissive != RC_NO_TEXTURE) {
        rc_rgba c = rc_shading_tex(sc, s, m->tex_emissive, (m->flags & RC_MATF_UV1_EMISSIVE) != 0u,
                                   delta, width, n_dot_d);
        sh.emission = rc_mul(sh.emission, rc_v3(c.r, c.g, c.b));
    }
    if (m->tex_normal != RC_NO_TEXTURE) {
        const int set1 = (m->flags & RC_MATF_UV1_NORMAL) != 0u && sc->mesh.uv1s;
        const float *a = set1 ? sc->mesh.uv1s : uvs;
        const float *tg0 = sc->mesh.tangents ? sc->mesh.tangents + 4 * (size_t)vi[0] : NULL;
        /* the tangent: the file's (glTF 2.0 sec. 3.7.2.1, TANGENT interpolated; w the
           handedness, one per triangle, taken from its first vertex), else the triangle's own
           from its uvs; bt only gives the bitangent's side */
        rc_vec3 t = rc_v3s(0.0f), bt = rc_v3s(0.0f);
        float w = 0.0f;
        int have = 0;
        if (tg0 && tg0[3] != 0.0f) {
            float tg[4];
            rc_mesh_lerp(sc->mesh.tangents, 4, vi, s->b1, s->b2, tg);
            t = rc_v3(tg[0], tg[1], tg[2]);
            w = tg0[3] > 0.0f ? 1.0f : -1.0f;
            if (in) {
                /* an instanced mesh's tangents are in its own space: each vertex's into the
                   world by the transform and normalised, then interpolated (as a copy placed
                   in the world has them), the handedness turned where the transform mirrors
                   (as the glTF reader does for a node's matrix) */
                const float bw[3] = {1.0f - s->b1 - s->b2, s->b1, s->b2};
                t = rc_v3s(0.0f);
                for (int k = 0; k < 3; k++) {
                    const float *tk = sc->mesh.tangents + 4 * (size_t)vi[k];
                    rc_vec3 wk = rc_xf_dir(in->xf, rc_v3(tk[0], tk[1], tk[2]));
                    const float l2 = rc_dot(wk, wk);
                    if (l2 > 0.0f) wk = rc_scale(wk, 1.0f / sqrtf(l2));
                    t = rc_add(t, rc_scale(wk, bw[k]));
                }
                if (rc_xf_det(in->xf) < 0.0f) w = -w;
            }
            have = 1;
        } else if (a) {
            have = rc_tri_tangents(pr, a + 2 * (size_t)vi[0], a + 2 * (size_t)vi[1],
                                   a + 2 * (size_t)vi[2], &t, &bt);
        }
        if (have) {
            rc_rgba c = rc_shading_tex(sc, s, m->tex_normal, set1, delta, width, n_dot_d);
            /* glTF 2.0 sec. 3.9.3: tangent-space normal = (2 c - 1) scaled in x and y; the
               tangent frame is built about the shading normal on the primitive's own side */
            rc_vec3 n = s->front ? sh.ns : rc_neg(sh.ns);
            rc_vec3 tt = rc_sub(t, rc_scale(n, rc_dot(n, t)));
            float tl = rc_length(tt);
            if (tl > 0.0f) {
                tt = rc_scale(tt, 1.0f / tl);
                rc_vec3 bb = rc_cross(n, tt);
                if (w != 0.0f ? w < 0.0f : rc_dot(bb, bt) < 0.0f) bb = rc_neg(bb);
                float x = (2.0f * c.r - 1.0f) * m->normal_scale;
                float y = (2.0f * c.g - 1.0f) * m->normal_scale;
                float z = 2.0f * c.b - 1.0f;
                rc_vec3 np =
                    rc_normalize(rc_add(rc_add(rc_scale(tt, x), rc_scale(bb, y)), rc_scale(n, z)));
                if (!s->front) np = rc_neg(np);
                /* a perturbed normal must stay on the geometric normal's side */
                if (rc_dot(np, sh.ng) > 1e-3f) {
                    sh.ns = np;
                    sh.smooth = 1;
                }
            }
        }
    }
    return sh;
}

/* Whether a direction w leaving the surface is consistent: on the same side of the geometric
 * surface as of the shading one (always, without a shading normal). */
RC_FN int rc_shading_side_ok(const rc_shading *sh, rc_vec3 w) {
    return !(sh->features & RC_FEAT_MESH) || !sh->smooth ||
           ((rc_dot(w, sh->ns) > 0.0f) == (rc_dot(w, sh->ng) > 0.0f));
}

/* Whether light sampling can reach the surface: a diffuse or glossy lobe (RTIOW: Lambertian or
 * a fuzzy metal, light.h). */
RC_FN int rc_shading_nee(const rc_shading *sh) {
    if (rc_shading_is_rtiow(sh)) {
        rc_material m = rc_shading_rtiow(sh);
        return rc_material_nee(&m);
    }
    return rc_bsdf_nee_worthwhile(rc_bsdf_flags(&sh->b));
}

/* f * |cos| towards unit w for the unit ray direction d that arrived, as a colour c and a
 * scalar k with f |cos| = c k (the RTIOW models' f |cos| is their colour times their density,
 * kept apart so that their light samples round as they always have); *pdf the density of
 * sampling w. 0 (k = 0, pdf = 0) where w does not count. */
RC_FN rc_vec3 rc_shading_eval(const rc_shading *sh, rc_vec3 d, rc_vec3 w, float *k, float *pdf) {
    *k = *pdf = 0.0f;
    if (!rc_shading_side_ok(sh, w)) return rc_v3s(0.0f);
    if (rc_shading_is_rtiow(sh)) {
        rc_material m = rc_shading_rtiow(sh);
        *pdf = *k = rc_scatter_pdf(&m, d, sh->ns, w);
        return m.color;
    }
    rc_frame f = rc_frame_from_hit(sh->ns, sh->front);
    rc_vec3 wo = rc_frame_to_local(&f, rc_neg(d)), wi = rc_frame_to_local(&f, w);
    *pdf = rc_bsdf_pdf(&sh->b, wo, wi);
    *k = 1.0f;
    return rc_bsdf_eval(&sh->b, wo, wi);
}

/* Draw the next direction for unit ray direction d. Returns 1 with *dir, the path weight
 * (f |cos| / pdf) and *pdf (the solid-angle density, 0 for a delta lobe; computed for the RTIOW
 * models only when want_pdf), *beta the cone's surface spread angle for this bounce; 0 when
 * the path is absorbed. */
RC_FN int rc_shading_sample(const rc_shading *sh, rc_vec3 d, rc_rng_key key, int want_pdf,
                            rc_vec3 *dir, rc_vec3 *weight, float *pdf, float *beta) {
    *pdf = 0.0f;
    if (rc_shading_is_rtiow(sh)) {
        rc_material m = rc_shading_rtiow(sh);
        if (!rc_scatter(&m, d, sh->ns, sh->front, key, dir, weight)) return 0;
        if (!rc_shading_side_ok(sh, *dir)) return 0;
        *beta = m.type == RC_MAT_LAMBERTIAN ? RC_CONE_DIFFUSE_BETA
                : m.type == RC_MAT_METAL    ? 2.0f * m.param
                                            : 0.0f;
        if (want_pdf) *pdf = rc_scatter_pdf(&m, d, sh->ns, *dir);
        return 1;
    }
    if (sh->b.model == RC_MAT_EMISSIVE) return 0;
    rc_frame f = rc_frame_from_hit(sh->ns, sh->front);
    rc_vec3 wo = rc_frame_to_local(&f, rc_neg(d));
    rc_bsdf_sampled s;
    /* RC_MAT_EMISSIVE is not RTIOW's and ends above: without RC_FEAT_MODELS nothing gets here */
    if (!rc_bsdf_sample(&sh->b, wo, rc_key_rand(key, RC_DIM_CHOICE),
                        rc_key_rand(key, RC_DIM_SCATTER_U), rc_key_rand(key, RC_DIM_SCATTER_V), &s))
        return 0;
    *dir = rc_normalize(rc_frame_to_world(&f, s.wi));
    if (!rc_shading_side_ok(sh, *dir)) return 0;
    *weight = s.weight;
    const int delta = (s.flags & RC_LOBE_SPECULAR) != 0u;
    *pdf = delta ? 0.0f : s.pdf;
    *beta = delta ? 0.0f
            : (s.flags & RC_LOBE_DIFFUSE)
                ? RC_CONE_DIFFUSE_BETA
                : 2.0f * fmaxf(sh->b.roughness * sh->b.roughness, RC_BSDF_MIN_ALPHA);
    return 1;
}

#endif /* RC_SHADING_H */
