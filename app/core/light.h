/* light.h: next-event estimation. The light table (every emissive primitive: quads, spheres
 * and triangles, one chosen by power; the environment map beside them with its own share), a
 * point on a light drawn as seen from a surface point, the density of that choice
 * in solid angle, and the densities of the materials' own sampling that multiple importance
 * sampling weighs it against (Veach 1997, ch. 9; the power heuristic, beta = 2).
 *
 * A light's selection probability sits in its primitive's `pad` field (0 for every other
 * primitive), so a path that hits a light by scattering finds the density NEE had for the
 * same point without a search: rc_light_pdf. */
#ifndef RC_LIGHT_H
#define RC_LIGHT_H

#include "material.h"
#include "prim.h"

/* Lights in the table: prims[i] is the leaf-order primitive of light i, cdf[i] the
 * probability of choosing a light <= i among the table's (cdf[count - 1] = 1). env_prob: the
 * probability that a light sample goes to the environment map instead (scene.h says how it
 * is chosen); a table light's `pad` holds its probability with (1 - env_prob) in it. count ==
 * 0 and env_prob == 0: no NEE. */
typedef struct rc_light_view {
    const uint32_t *prims;
    const float *cdf;
    uint32_t count;
    float env_prob;
} rc_light_view;

/* Below this fuzz a metal is a mirror: its lobe is too narrow for a light sample to land in
 * it, and its density would overflow the power heuristic. */
#define RC_NEE_MIN_FUZZ 1e-3f

/* 1 for the materials NEE serves: Lambertian and fuzzy metal (dielectrics and mirrors keep
 * sampling their own direction). */
RC_FN int rc_material_nee(const rc_material *m) {
    return m->type == RC_MAT_LAMBERTIAN || (m->type == RC_MAT_METAL && m->param >= RC_NEE_MIN_FUZZ);
}

/* The density (solid angle) with which rc_scatter draws the unit direction w, for the
 * materials rc_material_nee accepts; 0 below the surface (unit normal n facing the unit ray
 * direction d). These materials' weight is their colour, so their f * cos(theta) is
 * color * pdf: what NEE multiplies a light sample by.
 *   Lambertian: cos(theta) / pi.
 *   Fuzzy metal: the direction of q = r + fuzz * (a point uniform in the unit ball), r the
 *   mirror direction. Along the ray s * w the ball |q - r| <= fuzz spans s0 .. s1, and the
 *   density is the ball's uniform density integrated over that segment with the s^2 of the
 *   solid angle: (s1^3 - s0^3) / (4 pi fuzz^3), s0 clamped at 0 (fuzz >= 1 holds the origin). */
RC_FN float rc_scatter_pdf(const rc_material *m, rc_vec3 d, rc_vec3 n, rc_vec3 w) {
    float c = rc_dot(n, w);
    if (!(c > 0.0f)) return 0.0f;
    if (m->type == RC_MAT_LAMBERTIAN) return c * (1.0f / RC_PI);
    float f = m->param;
    rc_vec3 r = rc_reflect(d, n);
    float b = rc_dot(w, r);
    rc_vec3 x = rc_cross(w, r);
    /* (b^2 - |r|^2 + f^2) without the cancellation: |r|^2 - b^2 = |w x r|^2 for unit w */
    float disc = f * f - rc_dot(x, x);
    if (!(disc > 0.0f)) return 0.0f;
    float sq = sqrtf(disc);
    float s1 = b + sq, s0 = b - sq;
    if (!(s1 > 0.0f)) return 0.0f;
    /* s1^3 - s0^3 = (s1 - s0)(s1^2 + s1 s0 + s0^2): the difference is exact for small fuzz */
    float cubes = s0 > 0.0f ? 2.0f * sq * (s1 * s1 + s1 * s0 + s0 * s0) : s1 * s1 * s1;
    return cubes / (4.0f * RC_PI * f * f * f);
}

/* The power heuristic's weight of a strategy of density a against one of density b. */
RC_FN float rc_mis_weight(float a, float b) {
    float a2 = a * a, b2 = b * b;
    return a2 > 0.0f ? a2 / (a2 + b2) : 0.0f;
}

/* Light i: the smallest i with u < cdf[i] (binary search); u in [0, 1). */
RC_FN uint32_t rc_light_pick(const rc_light_view *l, float u) {
    uint32_t lo = 0, hi = l->count - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (u < l->cdf[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The cone a sphere fills as seen from o: 1 - cos(theta_max) (from sin^2 / (1 + cos), exact
 * for small, distant spheres), or 0 when o is inside it or on it (no sample, density 0). */
RC_FN float rc_sphere_cone(const rc_prim *pr, rc_vec3 o) {
    rc_vec3 to = rc_sub(pr->p, o);
    float d2 = rc_dot(to, to), r2 = pr->r * pr->r;
    if (!(d2 > r2 * 1.0001f)) return 0.0f;
    float s2 = r2 / d2;
    return s2 / (1.0f + sqrtf(1.0f - s2));
}

/* The density (solid angle, selection included) with which NEE from o draws the point at
 * distance t along unit w on light primitive pr: 0 when pr is no light of the table.
 *   quad, triangle: uniform in area: sel * t^2 / (area * |cos| at the light) (it emits both
 *           ways); a triangle's area is half the quad's of the same edges
 *   sphere: uniform in the cone it fills: sel / (2 pi (1 - cos theta_max)) */
RC_FN float rc_light_pdf(const rc_prim *pr, rc_vec3 o, rc_vec3 w, float t) {
    float sel = pr->pad;
    if (!(sel > 0.0f)) return 0.0f;
    if (rc_prim_type(pr) != RC_PRIM_SPHERE) {
        rc_vec3 n = rc_cross(pr->a, pr->b);
        float area = rc_length(n);
        float cos_l = fabsf(rc_dot(n, w)) / area;
        if (rc_prim_type(pr) == RC_PRIM_TRIANGLE) area *= 0.5f;
        return cos_l > 0.0f ? sel * t * t / (area * cos_l) : 0.0f;
    }
    float omc = rc_sphere_cone(pr, o);
    return omc > 0.0f ? sel / (2.0f * RC_PI * omc) : 0.0f;
}

/* A point on light primitive pr as seen from o, from two uniforms: the unit direction to it,
 * its distance and the density of this choice (selection included, as rc_light_pdf gives
 * it), and for a triangle the point's barycentrics (bary1, bary2) (its emission may be textured).
 * Returns 0 when there is nothing to sample (o inside a sphere, grazing a quad). A triangle's
 * point is uniform in area: b1 = sqrt(u1) (1 - u2), b2 = sqrt(u1) u2 (Shirley & Chiu's warp,
 * pbrt-v3 sec. 13.6.5). */
RC_FN int rc_light_sample(const rc_prim *pr, rc_vec3 o, float u1, float u2, rc_vec3 *w, float *dist,
                          float *pdf, float *bary1, float *bary2) {
    *bary1 = *bary2 = 0.0f;
    if (rc_prim_type(pr) != RC_PRIM_SPHERE) {
        if (rc_prim_type(pr) == RC_PRIM_TRIANGLE) {
            float su = sqrtf(u1);
            u1 = su * (1.0f - u2);
            u2 = su * u2;
            *bary1 = u1;
            *bary2 = u2;
        }
        rc_vec3 y = rc_add(pr->p, rc_add(rc_scale(pr->a, u1), rc_scale(pr->b, u2)));
        rc_vec3 to = rc_sub(y, o);
        float d = rc_length(to);
        if (!(d > 0.0f)) return 0;
        *w = rc_scale(to, 1.0f / d);
        *dist = d;
        *pdf = rc_light_pdf(pr, o, *w, d);
        return *pdf > 0.0f;
    }
    float omc = rc_sphere_cone(pr, o);
    if (!(omc > 0.0f)) return 0;
    /* cos theta uniform in [cos theta_max, 1]; sin^2 = (1 - cos)(1 + cos) without cancellation */
    float v = u1 * omc;
    float cos_t = 1.0f - v, sin_t = sqrtf(fmaxf(0.0f, v * (2.0f - v)));
    float phi = 2.0f * RC_PI * u2;
    rc_vec3 axis = rc_normalize(rc_sub(pr->p, o)), b1, b2;
    rc_onb(axis, &b1, &b2);
    *w = rc_normalize(
        rc_add(rc_add(rc_scale(b1, sin_t * cosf(phi)), rc_scale(b2, sin_t * sinf(phi))),
               rc_scale(axis, cos_t)));
    float t;
    if (!rc_sphere_hit(pr, o, *w, 0.0f, INFINITY, &t)) return 0; /* the cone's rim, in float */
    *dist = t;
    *pdf = pr->pad / (2.0f * RC_PI * omc);
    return 1;
}

#endif /* RC_LIGHT_H */
