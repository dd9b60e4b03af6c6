/* bsdf.h: the scattering models behind one interface: sample a direction, evaluate f * |cos|,
 * give the density of a direction, and say which lobes a surface has. docs/materials.md
 * describes the models, their parameters and the papers.
 *
 * Conventions (pbrt-v4's): every direction is a unit vector in the local shading frame (rc_frame
 * below), z the surface's shading normal, pointing out of the object. wo points towards the
 * viewer (away from the surface), wi towards the light or the next ray; cos(theta) is the z
 * component. The opaque models (Lambertian, fuzzy metal, glTF PBR without transmission) are
 * two-sided: they mirror wo and wi to the side of z they see, so a caller may also pass a
 * normal turned towards the ray. The dielectrics tell entering (wo.z > 0) from leaving
 * (wo.z < 0) by the sign of wo.z, so they need the outward normal: rc_frame_from_hit builds
 * the frame that serves both.
 *
 * Random numbers: u0 picks a lobe or reflection against refraction, (u1, u2) the direction.
 * The Lambertian and the smooth dielectric then draw what material.h's rc_scatter draws from
 * (RC_DIM_CHOICE, RC_DIM_SCATTER_U, RC_DIM_SCATTER_V). The fuzzy metal draws its ball point
 * in the local frame, rc_scatter in world space: the same distribution, not the same samples
 * (they coincide where the frame is the world's axes, normal +z).
 *
 * Radiance through a dielectric is not scaled by eta^2 (Veach 1997, section 5.2), as
 * rc_scatter has it: the transmission lobes are f for importance, which conserves energy from
 * both sides. For a closed object seen and lit from outside the factors of entering and of
 * leaving cancel. */
#ifndef RC_BSDF_H
#define RC_BSDF_H

#include "material.h"

/* ---- the local shading frame ---- */

/* An orthonormal frame: s, t the tangents, n the normal (local z). */
typedef struct rc_frame {
    rc_vec3 s, t, n;
} rc_frame;

/* The frame about unit n, tangents from rc_onb (so a Lambertian sample lands where
 * rc_sample_cosine puts it). */
RC_FN rc_frame rc_frame_from_normal(rc_vec3 n) {
    rc_frame f;
    f.n = n;
    rc_onb(n, &f.s, &f.t);
    return f;
}

/* The frame of a hit as rc_scatter sees it: unit n turned towards the ray, front = 1 when the
 * ray came from outside. The tangents are rc_onb's of n, whichever the side, and z is the
 * outward normal (n, or -n from inside; the frame is then left-handed, which the isotropic
 * models do not see). So the dielectrics see the side in the sign of wo.z, and the two-sided
 * models' draws, mirrored back to n's side, land where rc_scatter's do. */
RC_FN rc_frame rc_frame_from_hit(rc_vec3 n, int front) {
    rc_frame f = rc_frame_from_normal(n);
    if (!front) f.n = rc_neg(n);
    return f;
}

/* The frame about unit n with s along the part of `tangent` perpendicular to n (Gram-Schmidt);
 * rc_onb's when that part vanishes. */
RC_FN rc_frame rc_frame_from_normal_tangent(rc_vec3 n, rc_vec3 tangent) {
    rc_vec3 s = rc_sub(tangent, rc_scale(n, rc_dot(n, tangent)));
    float l2 = rc_dot(s, s);
    if (!(l2 > 1e-12f)) return rc_frame_from_normal(n);
    rc_frame f;
    f.n = n;
    f.s = rc_scale(s, 1.0f / sqrtf(l2));
    f.t = rc_cross(n, f.s);
    return f;
}

RC_FN rc_vec3 rc_frame_to_local(const rc_frame *f, rc_vec3 v) {
    return rc_v3(rc_dot(v, f->s), rc_dot(v, f->t), rc_dot(v, f->n));
}

RC_FN rc_vec3 rc_frame_to_world(const rc_frame *f, rc_vec3 v) {
    return rc_add(rc_add(rc_scale(f->s, v.x), rc_scale(f->t, v.y)), rc_scale(f->n, v.z));
}

/* ---- the parameters at one hit ---- */

typedef enum rc_bsdf_model { /* material.h's RC_MAT_*, one enum */
                             RC_BSDF_LAMBERTIAN = RC_MAT_LAMBERTIAN, /* base_color = albedo */
                             RC_BSDF_FUZZ_METAL = RC_MAT_METAL,      /* base_color = albedo, fuzz */
                             RC_BSDF_SMOOTH_DIELECTRIC =
                                 RC_MAT_DIELECTRIC,              /* base_color = tint, ior */
                             RC_BSDF_EMISSIVE = RC_MAT_EMISSIVE, /* no scattering */
                             RC_BSDF_GLTF_PBR = RC_MAT_PBR,      /* base_color, metallic, roughness,
                                                                    ior, transmission */
                             RC_BSDF_ROUGH_DIELECTRIC =
                                 RC_MAT_ROUGH_DIELECTRIC, /* tint, roughness, ior */
                             RC_BSDF_MODEL_COUNT = RC_MAT_MODELS
} rc_bsdf_model;

/* One surface point's scattering, textures already applied; 36 bytes. Fields a model does not
 * name are ignored by it (the constructors below set them to 0, ior to 1.5).
 *   base_color   albedo, metal colour or tint, linear RGB in [0, 1]
 *   metallic     glTF metalness in [0, 1]
 *   roughness    glTF perceptual roughness in [0, 1]; the GGX alpha is roughness^2
 *   ior          index of refraction inside over outside (glTF default 1.5)
 *   transmission KHR_materials_transmission's weight in [0, 1]
 *   fuzz         RTIOW metal fuzz in [0, 1] */
typedef struct rc_bsdf {
    rc_vec3 base_color;
    uint32_t model;
    float metallic;
    float roughness;
    float ior;
    float transmission;
    float fuzz;
} rc_bsdf;

#if defined(__cplusplus)
static_assert(sizeof(rc_bsdf) <= 48, "rc_bsdf stays small: it travels with every ray");
#else
_Static_assert(sizeof(rc_bsdf) <= 48, "rc_bsdf stays small: it travels with every ray");
#endif

/* Lobe flags: a sampled direction has one of reflection/transmission and one of
 * diffuse/glossy/specular; rc_bsdf_flags gives the union over the surface's lobes. */
enum {
    RC_LOBE_REFLECTION = 1u,
    RC_LOBE_TRANSMISSION = 2u,
    RC_LOBE_DIFFUSE = 4u,
    RC_LOBE_GLOSSY = 8u,
    RC_LOBE_SPECULAR = 16u /* a delta lobe: eval and pdf are 0 for it */
};

/* A sampled direction. weight = f * |cos(wi)| / pdf (RGB). pdf is a solid-angle density, or for
 * a delta lobe (flags has RC_LOBE_SPECULAR) the discrete probability of having chosen it. */
typedef struct rc_bsdf_sampled {
    rc_vec3 wi;
    rc_vec3 weight;
    float pdf;
    uint32_t flags;
} rc_bsdf_sampled;

/* Below this alpha (GGX) a dielectric is smooth (a delta lobe), and the glTF model clamps its
 * alpha here: narrower lobes overflow the densities of multiple importance sampling in float
 * (pbrt-v4 takes the same bound as "effectively smooth"). */
#define RC_BSDF_MIN_ALPHA 1e-3f
/* Below this fuzz the RTIOW metal is a mirror (the bound of light.h's RC_NEE_MIN_FUZZ). */
#define RC_BSDF_MIN_FUZZ 1e-3f

RC_FN rc_bsdf rc_bsdf_make(uint32_t model, rc_vec3 base_color) {
    rc_bsdf b;
    b.base_color = base_color;
    b.model = model;
    b.metallic = 0.0f;
    b.roughness = 0.0f;
    b.ior = 1.5f;
    b.transmission = 0.0f;
    b.fuzz = 0.0f;
    return b;
}

RC_FN rc_bsdf rc_bsdf_gltf(rc_vec3 base_color, float metallic, float roughness, float ior,
                           float transmission) {
    rc_bsdf b = rc_bsdf_make(RC_BSDF_GLTF_PBR, base_color);
    b.metallic = metallic;
    b.roughness = roughness;
    b.ior = ior;
    b.transmission = transmission;
    return b;
}

/* The BSDF of a scene material (material.h) before textures; the RTIOW models draw as
 * rc_scatter draws. */
RC_FN rc_bsdf rc_bsdf_from_material(const rc_material *m) {
    switch (m->type) {
    case RC_MAT_LAMBERTIAN:
        return rc_bsdf_make(RC_BSDF_LAMBERTIAN, m->color);
    case RC_MAT_METAL: {
        rc_bsdf b = rc_bsdf_make(RC_BSDF_FUZZ_METAL, m->color);
        b.fuzz = m->param;
        return b;
    }
    case RC_MAT_DIELECTRIC: {
        rc_bsdf b = rc_bsdf_make(RC_BSDF_SMOOTH_DIELECTRIC, m->color);
        b.ior = m->param;
        return b;
    }
    case RC_MAT_PBR:
        return rc_bsdf_gltf(m->color, m->metallic, m->roughness, m->ior, m->transmission);
    case RC_MAT_ROUGH_DIELECTRIC: {
        rc_bsdf b = rc_bsdf_make(RC_BSDF_ROUGH_DIELECTRIC, m->color);
        b.roughness = m->roughness;
        b.ior = m->ior;
        return b;
    }
    default:
        return rc_bsdf_make(RC_BSDF_EMISSIVE, rc_v3s(0.0f));
    }
}

/* ---- shared pieces ---- */

RC_FN float rc_luminance(rc_vec3 c) {
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

/* v mirrored through the tangent plane (z negated). */
RC_FN rc_vec3 rc_flip_z(rc_vec3 v) {
    return rc_v3(v.x, v.y, -v.z);
}

/* The mirror direction of wo about the normal z. */
RC_FN rc_vec3 rc_mirror_z(rc_vec3 wo) {
    return rc_v3(-wo.x, -wo.y, wo.z);
}

RC_FN void rc_bsdf_set(rc_bsdf_sampled *s, rc_vec3 wi, rc_vec3 weight, float pdf, uint32_t flags) {
    s->wi = wi;
    s->weight = weight;
    s->pdf = pdf;
    s->flags = flags;
}

/* Cosine-weighted direction about +z (Malley's method, as rc_sample_cosine). */
RC_FN rc_vec3 rc_local_cosine(float u1, float u2) {
    float r = sqrtf(u1), phi = 2.0f * RC_PI * u2;
    return rc_normalize(rc_v3(r * cosf(phi), r * sinf(phi), sqrtf(fmaxf(0.0f, 1.0f - u1))));
}

/* Exact Fresnel reflectance of a dielectric interface for unpolarized light (the mean of the
 * s and p reflectances; Walter et al. 2007, eq. 22 in cosine form): cos_i >= 0 the cosine on
 * the incident side, eta = n_transmitted / n_incident. 1 under total internal reflection. */
RC_FN float rc_fresnel_dielectric(float cos_i, float eta) {
    float sin2_t = (1.0f - cos_i * cos_i) / (eta * eta);
    if (sin2_t >= 1.0f) return 1.0f;
    float cos_t = sqrtf(1.0f - sin2_t);
    float r_par = (eta * cos_i - cos_t) / (eta * cos_i + cos_t);
    float r_perp = (cos_i - eta * cos_t) / (cos_i + eta * cos_t);
    return 0.5f * (r_par * r_par + r_perp * r_perp);
}

/* Schlick's Fresnel (glTF 2.0 Appendix B.3.4) for a reflectance f0 at normal incidence. */
RC_FN float rc_schlick_f0(float f0, float cos_v) {
    float m = fminf(fmaxf(1.0f - cos_v, 0.0f), 1.0f);
    float m2 = m * m;
    return f0 + (1.0f - f0) * m2 * m2 * m;
}

RC_FN rc_vec3 rc_schlick_rgb(rc_vec3 f0, float cos_v) {
    return rc_v3(rc_schlick_f0(f0.x, cos_v), rc_schlick_f0(f0.y, cos_v),
                 rc_schlick_f0(f0.z, cos_v));
}

/* ---- Trowbridge-Reitz (GGX) microfacets, isotropic, a2 = alpha^2 ---- */

/* D(h) for unit h with h.z > 0 (Walter et al. 2007, eq. 33), written with
 * sin^2 + a2 cos^2 for (a2 - 1) cos^2 + 1, which does not cancel for small alpha. */
RC_FN float rc_ggx_d(float a2, rc_vec3 h) {
    if (!(h.z > 0.0f)) return 0.0f;
    float k = h.x * h.x + h.y * h.y + a2 * h.z * h.z;
    return a2 / (RC_PI * k * k);
}

/* Smith's Lambda for GGX (Heitz 2014, eq. 72): (sqrt(1 + a2 tan^2) - 1) / 2, here as
 * q / (2 (sqrt(1 + q) + 1)) with q = a2 tan^2 (no cancellation for small q). */
RC_FN float rc_ggx_lambda(float a2, rc_vec3 w) {
    float z2 = w.z * w.z;
    if (!(z2 > 0.0f)) return INFINITY;
    float q = a2 * (w.x * w.x + w.y * w.y) / z2;
    return 0.5f * q / (sqrtf(1.0f + q) + 1.0f);
}

RC_FN float rc_ggx_g1(float a2, rc_vec3 w) {
    return 1.0f / (1.0f + rc_ggx_lambda(a2, w));
}

/* Height-correlated masking-shadowing (Heitz 2014, eq. 99), used for reflection and, as
 * pbrt-v4 does, for transmission. */
RC_FN float rc_ggx_g2(float a2, rc_vec3 wo, rc_vec3 wi) {
    return 1.0f / (1.0f + rc_ggx_lambda(a2, wo) + rc_ggx_lambda(a2, wi));
}

/* A microfacet normal drawn from the distribution of normals visible from wo (wo.z > 0):
 * D_wo(h) = G1(wo) max(0, wo.h) D(h) / wo.z (Heitz 2018, "Sampling the GGX Distribution of
 * Visible Normals", JCGT 7(4), eq. 1 and listing 1). */
RC_FN rc_vec3 rc_ggx_sample_vndf(float alpha, rc_vec3 wo, float u1, float u2) {
    /* section 3.2: the view direction in the hemisphere configuration */
    rc_vec3 vh = rc_normalize(rc_v3(alpha * wo.x, alpha * wo.y, wo.z));
    /* section 4.1: an orthonormal basis about it */
    float lensq = vh.x * vh.x + vh.y * vh.y;
    rc_vec3 t1 = lensq > 0.0f ? rc_scale(rc_v3(-vh.y, vh.x, 0.0f), 1.0f / sqrtf(lensq))
                              : rc_v3(1.0f, 0.0f, 0.0f);
    rc_vec3 t2 = rc_cross(vh, t1);
    /* section 4.2: a point of the projected area, a disk half warped by the view */
    float r = sqrtf(u1), phi = 2.0f * RC_PI * u2;
    float p1 = r * cosf(phi), p2 = r * sinf(phi);
    float sv = 0.5f * (1.0f + vh.z);
    p2 = (1.0f - sv) * sqrtf(fmaxf(0.0f, 1.0f - p1 * p1)) + sv * p2;
    /* section 4.3: back onto the hemisphere; section 3.4: back to the ellipsoid */
    float p3 = sqrtf(fmaxf(0.0f, 1.0f - p1 * p1 - p2 * p2));
    rc_vec3 nh = rc_add(rc_add(rc_scale(t1, p1), rc_scale(t2, p2)), rc_scale(vh, p3));
    return rc_normalize(rc_v3(alpha * nh.x, alpha * nh.y, fmaxf(0.0f, nh.z)));
}

/* The density of rc_ggx_sample_vndf's normal turned into the mirrored direction wi, with
 * wo.z > 0 and wi.z > 0: D_wo(h) / (4 wo.h) = G1(wo) D(h) / (4 wo.z) (Heitz 2018, eq. 17 with
 * the reflection Jacobian of Walter et al. 2007, eq. 14). */
RC_FN float rc_ggx_reflect_pdf(float a2, rc_vec3 wo, rc_vec3 wi) {
    rc_vec3 h = rc_normalize(rc_add(wo, wi));
    return rc_ggx_g1(a2, wo) * rc_ggx_d(a2, h) / (4.0f * wo.z);
}

/* GGX reflection without Fresnel, times cos(wi): D G2 / (4 wo.z) (Walter et al. 2007, eq. 20
 * times wi.z), wo.z > 0 and wi.z > 0. */
RC_FN float rc_ggx_reflect_eval(float a2, rc_vec3 wo, rc_vec3 wi) {
    rc_vec3 h = rc_normalize(rc_add(wo, wi));
    return rc_ggx_d(a2, h) * rc_ggx_g2(a2, wo, wi) / (4.0f * wo.z);
}

/* ---- Lambertian ---- */

RC_FN int rc_lambert_sample(const rc_bsdf *b, rc_vec3 wo, float u1, float u2, rc_bsdf_sampled *s) {
    rc_vec3 wi = rc_local_cosine(u1, u2);
    if (wo.z < 0.0f) wi = rc_flip_z(wi);
    rc_bsdf_set(s, wi, b->base_color, fabsf(wi.z) * (1.0f / RC_PI),
                RC_LOBE_REFLECTION | RC_LOBE_DIFFUSE);
    return 1;
}

/* ---- RTIOW fuzzy metal ---- */

/* The density of normalize(r + fuzz * (a point uniform in the unit ball)), r the mirror of wo,
 * at wi above the surface (wo.z > 0): light.h's rc_scatter_pdf, the same formulas. Along the
 * ray s * wi the ball |q - r| <= fuzz spans s0 .. s1, and the density is the ball's uniform
 * density over that segment with the s^2 of the solid angle: (s1^3 - s0^3) / (4 pi fuzz^3),
 * s0 clamped at 0 (fuzz >= 1 holds the origin). */
RC_FN float rc_fuzz_pdf(float f, rc_vec3 wo, rc_vec3 wi) {
    if (!(wi.z > 0.0f)) return 0.0f;
    rc_vec3 r = rc_mirror_z(wo);
    float b = rc_dot(wi, r);
    rc_vec3 x = rc_cross(wi, r);
    float disc = f * f - rc_dot(x, x); /* b^2 - |r|^2 + f^2, |r|^2 - b^2 = |wi x r|^2 */
    if (!(disc > 0.0f)) return 0.0f;
    float sq = sqrtf(disc);
    float s1 = b + sq, s0 = b - sq;
    if (!(s1 > 0.0f)) return 0.0f;
    float cubes = s0 > 0.0f ? 2.0f * sq * (s1 * s1 + s1 * s0 + s0 * s0) : s1 * s1 * s1;
    return cubes / (4.0f * RC_PI * f * f * f);
}

/* reflect + fuzz * ball(u1, u2, u0) as rc_scatter, below the surface absorbed. The weight is
 * the colour, so f * cos = colour * pdf (not reciprocal: pdf depends on wi alone). */
RC_FN int rc_fuzz_sample(const rc_bsdf *b, rc_vec3 wo, float u0, float u1, float u2,
                         rc_bsdf_sampled *s) {
    float side = wo.z < 0.0f ? -1.0f : 1.0f;
    wo.z *= side;
    rc_vec3 ball = rc_sample_ball(u1, u2, u0);
    rc_vec3 wi = rc_normalize(rc_add(rc_mirror_z(wo), rc_scale(ball, b->fuzz)));
    if (!(wi.z > 0.0f)) return 0;
    int delta = b->fuzz < RC_BSDF_MIN_FUZZ;
    float pdf = delta ? 1.0f : rc_fuzz_pdf(b->fuzz, wo, wi);
    if (!(pdf > 0.0f)) return 0; /* the ball's rim, in float */
    wi.z *= side;
    rc_bsdf_set(s, wi, b->base_color, pdf,
                RC_LOBE_REFLECTION | (delta ? RC_LOBE_SPECULAR : RC_LOBE_GLOSSY));
    return 1;
}

/* ---- RTIOW smooth dielectric ---- */

/* rc_scatter's glass in the local frame: Schlick's reflectance against u0 picks the mirror or
 * Snell's refraction; both carry the tint (RTIOW's convention, so f of each lobe is tint times
 * its probability and the weight is the tint). */
RC_FN int rc_glass_sample(const rc_bsdf *b, rc_vec3 wo, float u0, rc_bsdf_sampled *s) {
    int front = wo.z > 0.0f;
    rc_vec3 n = rc_v3(0.0f, 0.0f, front ? 1.0f : -1.0f), d = rc_neg(wo);
    float eta = front ? 1.0f / b->ior : b->ior;
    float cos_t = fminf(rc_dot(wo, n), 1.0f);
    float sin2 = fmaxf(0.0f, 1.0f - cos_t * cos_t);
    int tir = eta * eta * sin2 > 1.0f;
    float fr = rc_schlick(cos_t, eta);
    if (tir || fr > u0) {
        rc_bsdf_set(s, rc_mirror_z(wo), b->base_color, tir ? 1.0f : fr,
                    RC_LOBE_REFLECTION | RC_LOBE_SPECULAR);
        return 1;
    }
    rc_vec3 perp = rc_scale(rc_add(d, rc_scale(n, cos_t)), eta);
    float par = sqrtf(fmaxf(0.0f, 1.0f - rc_dot(perp, perp)));
    rc_bsdf_set(s, rc_normalize(rc_sub(perp, rc_scale(n, par))), b->base_color, 1.0f - fr,
                RC_LOBE_TRANSMISSION | RC_LOBE_SPECULAR);
    return 1;
}

/* ---- rough dielectric (Walter et al. 2007) ---- *
 * In the helpers wo.z > 0 (the callers mirror the frame when wo is inside) and eta is the
 * index on the far side over the index on wo's side. */

/* The generalized half vector of a refraction from wo into wi (Walter et al. 2007, eq. 16),
 * turned to +z; 0 when wo and wi are not on the two sides of it. */
RC_FN int rc_refract_half(rc_vec3 wo, rc_vec3 wi, float eta, rc_vec3 *h) {
    rc_vec3 m = rc_normalize(rc_add(wo, rc_scale(wi, eta)));
    if (m.z < 0.0f) m = rc_neg(m);
    *h = m;
    return m.z > 0.0f && rc_dot(wo, m) > 0.0f && rc_dot(wi, m) < 0.0f;
}

/* f * |cos(wi)| (reflection: Walter et al. 2007, eq. 20; transmission: eq. 21 with its o =
 * wi, i.e. without the 1 / eta^2 of radiance, see the top of this file); the transmitted
 * part times `tint`. */
RC_FN rc_vec3 rc_diel_eval(float a2, float eta, rc_vec3 tint, rc_vec3 wo, rc_vec3 wi) {
    if (wi.z > 0.0f) {
        rc_vec3 h = rc_normalize(rc_add(wo, wi));
        float fr = rc_fresnel_dielectric(rc_dot(wo, h), eta);
        return rc_v3s(fr * rc_ggx_reflect_eval(a2, wo, wi));
    }
    rc_vec3 h;
    if (!(wi.z < 0.0f) || !rc_refract_half(wo, wi, eta, &h)) return rc_v3s(0.0f);
    float co = rc_dot(wo, h), ci = rc_dot(wi, h), den = co + eta * ci;
    float fr = rc_fresnel_dielectric(co, eta);
    float v = co * -ci * eta * eta * (1.0f - fr) * rc_ggx_g2(a2, wo, wi) * rc_ggx_d(a2, h) /
              (wo.z * den * den);
    return rc_scale(tint, v);
}

/* The density of rc_diel_sample_dir: the visible normal's density, times the probability of
 * the lobe (F or 1 - F), times the Jacobian of the half vector (Walter et al. 2007, eqs. 14
 * and 17). */
RC_FN float rc_diel_pdf(float a2, float eta, rc_vec3 wo, rc_vec3 wi) {
    if (wi.z > 0.0f) {
        rc_vec3 h = rc_normalize(rc_add(wo, wi));
        return rc_fresnel_dielectric(rc_dot(wo, h), eta) * rc_ggx_reflect_pdf(a2, wo, wi);
    }
    rc_vec3 h;
    if (!(wi.z < 0.0f) || !rc_refract_half(wo, wi, eta, &h)) return 0.0f;
    float co = rc_dot(wo, h), ci = rc_dot(wi, h), den = co + eta * ci;
    float fr = rc_fresnel_dielectric(co, eta);
    float dvis = rc_ggx_g1(a2, wo) * co * rc_ggx_d(a2, h) / wo.z;
    return (1.0f - fr) * dvis * eta * eta * -ci / (den * den);
}

/* A direction: a visible normal, then reflection with the exact Fresnel probability F, else
 * refraction through it (Walter et al. 2007, section 5.3). 0 when it leaves on the wrong side. */
RC_FN int rc_diel_sample_dir(float alpha, float eta, rc_vec3 wo, float u0, float u1, float u2,
                             rc_vec3 *wi, uint32_t *flags) {
    rc_vec3 h = rc_ggx_sample_vndf(alpha, wo, u1, u2);
    float co = rc_dot(wo, h);
    if (!(co > 0.0f)) return 0;
    float fr = rc_fresnel_dielectric(co, eta);
    if (u0 < fr) {
        *wi = rc_sub(rc_scale(h, 2.0f * co), wo);
        *flags = RC_LOBE_REFLECTION | RC_LOBE_GLOSSY;
        return wi->z > 0.0f;
    }
    float cos_t = sqrtf(fmaxf(0.0f, 1.0f - (1.0f - co * co) / (eta * eta)));
    *wi = rc_normalize(rc_add(rc_scale(wo, -1.0f / eta), rc_scale(h, co / eta - cos_t)));
    *flags = RC_LOBE_TRANSMISSION | RC_LOBE_GLOSSY;
    return wi->z < 0.0f;
}

/* eta of a dielectric as seen from wo, kept off 1: an index-matched rough interface has no
 * half vector (its transmission is a delta straight through). */
RC_FN float rc_diel_eta(float ior, rc_vec3 wo) {
    float eta = fabsf(ior - 1.0f) < 1e-3f ? 1.001f : ior;
    return wo.z < 0.0f ? 1.0f / eta : eta;
}

/* A smooth dielectric with exact Fresnel: mirror with probability F, else Snell's refraction;
 * weights 1 and tint. */
RC_FN int rc_diel_smooth_sample(const rc_bsdf *b, rc_vec3 wo, float u0, rc_bsdf_sampled *s) {
    float eta = rc_diel_eta(b->ior, wo), side = wo.z < 0.0f ? -1.0f : 1.0f;
    float co = fabsf(wo.z), fr = rc_fresnel_dielectric(co, eta);
    if (u0 < fr) {
        rc_bsdf_set(s, rc_mirror_z(wo), rc_v3s(1.0f), fr, RC_LOBE_REFLECTION | RC_LOBE_SPECULAR);
        return 1;
    }
    float cos_t = sqrtf(fmaxf(0.0f, 1.0f - (1.0f - co * co) / (eta * eta)));
    rc_vec3 wi = rc_normalize(rc_v3(-wo.x / eta, -wo.y / eta, -side * cos_t));
    rc_bsdf_set(s, wi, b->base_color, 1.0f - fr, RC_LOBE_TRANSMISSION | RC_LOBE_SPECULAR);
    return 1;
}

RC_FN float rc_rough_alpha(const rc_bsdf *b) {
    return b->roughness * b->roughness;
}

/* ---- glTF 2.0 metallic-roughness (Appendix B), with KHR_materials_transmission ----
 * material = mix(dielectric_brdf, metal_brdf, metallic), dielectric_brdf =
 * fresnel_mix(ior, base = mix(diffuse, specular_btdf * base_color, transmission), layer =
 * specular_brdf). Expanded, with F_d the dielectric's Schlick Fresnel (f0 from the ior) and
 * F_m the metal's (f0 = base_color), at h = normalize(wo + wi):
 *   f = [(1 - m)(1 - t) F_d + m F_m] * GGX + (1 - m)(1 - t)(1 - F_d) base_color / pi
 *       + (1 - m) t * rough dielectric (its reflection and tinted transmission)
 * The last term's fresnel_mix of specular_brdf and specular_btdf is a dielectric interface,
 * done here with the exact Fresnel of rc_diel_*. Three lobes, chosen with the probabilities
 * of rc_pbr_setup. As the specification has it, fresnel_mix weighs the diffuse base by 1 - F
 * at each direction's half vector, not by what the coat reflects, so the model gains energy at
 * grazing view (white, roughness 0.2: albedo 1.43 at cos 0.1; docs/materials.md). */

typedef struct rc_pbr_terms {
    float a2, alpha, eta, f0, w_coat, w_tr; /* w_coat = (1 - m)(1 - t), w_tr = (1 - m) t */
    float p_spec, p_diff, p_tr;
} rc_pbr_terms;

/* The lobes' parameters and choice probabilities for wo (wo.z > 0, eta as seen from wo): each
 * lobe's share of the albedo, estimated by Schlick's Fresnel at cos(wo). */
RC_FN rc_pbr_terms rc_pbr_setup(const rc_bsdf *b, float eta, rc_vec3 wo) {
    rc_pbr_terms t;
    float m = b->metallic, r0 = (b->ior - 1.0f) / (b->ior + 1.0f);
    t.alpha = fmaxf(b->roughness * b->roughness, RC_BSDF_MIN_ALPHA);
    t.a2 = t.alpha * t.alpha;
    t.eta = eta;
    t.f0 = r0 * r0;
    t.w_coat = (1.0f - m) * (1.0f - b->transmission);
    t.w_tr = (1.0f - m) * b->transmission;
    float fd = fmaxf(rc_schlick_f0(t.f0, wo.z), 1e-3f); /* > 0: a lobe with f > 0 is drawn */
    float lb = rc_luminance(b->base_color);
    float fm = rc_luminance(rc_schlick_rgb(b->base_color, wo.z));
    float ws = t.w_coat * fd + m * fm, wd = t.w_coat * (1.0f - fd) * lb;
    float wt = t.w_tr * (fd + (1.0f - fd) * lb), sum = ws + wd + wt;
    if (!(sum > 0.0f)) sum = ws = 1.0f;
    t.p_spec = ws / sum;
    t.p_diff = wd / sum;
    t.p_tr = wt / sum;
    return t;
}

RC_FN rc_vec3 rc_pbr_eval_up(const rc_bsdf *b, const rc_pbr_terms *t, rc_vec3 wo, rc_vec3 wi) {
    rc_vec3 f = rc_v3s(0.0f);
    if (wi.z > 0.0f) {
        float vh = rc_dot(wo, rc_normalize(rc_add(wo, wi)));
        float fd = rc_schlick_f0(t->f0, vh);
        rc_vec3 fs = rc_add(rc_v3s(t->w_coat * fd),
                            rc_scale(rc_schlick_rgb(b->base_color, vh), b->metallic));
        f = rc_scale(fs, rc_ggx_reflect_eval(t->a2, wo, wi));
        f = rc_add(f, rc_scale(b->base_color, t->w_coat * (1.0f - fd) * wi.z * (1.0f / RC_PI)));
    }
    if (t->w_tr > 0.0f)
        f = rc_add(f, rc_scale(rc_diel_eval(t->a2, t->eta, b->base_color, wo, wi), t->w_tr));
    return f;
}

/* The mixed density: sum over lobes of choice probability times the lobe's density. */
RC_FN float rc_pbr_pdf_up(const rc_pbr_terms *t, rc_vec3 wo, rc_vec3 wi) {
    float p = 0.0f;
    if (wi.z > 0.0f)
        p = t->p_spec * rc_ggx_reflect_pdf(t->a2, wo, wi) + t->p_diff * wi.z * (1.0f / RC_PI);
    if (t->p_tr > 0.0f) p += t->p_tr * rc_diel_pdf(t->a2, t->eta, wo, wi);
    return p;
}

/* One-sample MIS over the lobes: the weight is the whole f * cos over the mixed density, so
 * sample, eval and pdf agree whichever lobe drew the direction. */
RC_FN int rc_pbr_sample(const rc_bsdf *b, rc_vec3 wo, float u0, float u1, float u2,
                        rc_bsdf_sampled *s) {
    if (wo.z == 0.0f) return 0;
    float side = wo.z < 0.0f ? -1.0f : 1.0f, eta = rc_diel_eta(b->ior, wo);
    wo.z *= side;
    rc_pbr_terms t = rc_pbr_setup(b, eta, wo);
    rc_vec3 wi;
    uint32_t flags;
    if (u0 < t.p_spec) {
        rc_vec3 h = rc_ggx_sample_vndf(t.alpha, wo, u1, u2);
        wi = rc_sub(rc_scale(h, 2.0f * rc_dot(wo, h)), wo);
        flags = RC_LOBE_REFLECTION | RC_LOBE_GLOSSY;
        if (!(wi.z > 0.0f)) return 0;
    } else if (u0 < t.p_spec + t.p_diff) {
        wi = rc_local_cosine(u1, u2);
        flags = RC_LOBE_REFLECTION | RC_LOBE_DIFFUSE;
    } else {
        float ut = fminf((u0 - t.p_spec - t.p_diff) / t.p_tr, 0.99999994f);
        if (!rc_diel_sample_dir(t.alpha, t.eta, wo, ut, u1, u2, &wi, &flags)) return 0;
    }
    float pdf = rc_pbr_pdf_up(&t, wo, wi);
    if (!(pdf > 0.0f)) return 0;
    rc_vec3 f = rc_pbr_eval_up(b, &t, wo, wi);
    wi.z *= side;
    rc_bsdf_set(s, wi, rc_scale(f, 1.0f / pdf), pdf, flags);
    return 1;
}

/* ---- the interface: one switch over the model in each ---- */

/* Draw wi for wo from the uniforms u0 (lobe choice) and (u1, u2) (direction). Returns 1 with
 * *s filled, or 0 when the path is absorbed (the direction left on the wrong side). */
RC_FN int rc_bsdf_sample(const rc_bsdf *b, rc_vec3 wo, float u0, float u1, float u2,
                         rc_bsdf_sampled *s) {
    switch (b->model) {
    case RC_BSDF_LAMBERTIAN:
        return rc_lambert_sample(b, wo, u1, u2, s);
    case RC_BSDF_FUZZ_METAL:
        return rc_fuzz_sample(b, wo, u0, u1, u2, s);
    case RC_BSDF_SMOOTH_DIELECTRIC:
        return rc_glass_sample(b, wo, u0, s);
    case RC_BSDF_GLTF_PBR:
        return rc_pbr_sample(b, wo, u0, u1, u2, s);
    case RC_BSDF_ROUGH_DIELECTRIC: {
        float alpha = rc_rough_alpha(b);
        if (alpha < RC_BSDF_MIN_ALPHA) return rc_diel_smooth_sample(b, wo, u0, s);
        if (wo.z == 0.0f) return 0;
        float eta = rc_diel_eta(b->ior, wo), side = wo.z < 0.0f ? -1.0f : 1.0f;
        rc_vec3 wol = rc_v3(wo.x, wo.y, wo.z * side), wi;
        uint32_t flags;
        if (!rc_diel_sample_dir(alpha, eta, wol, u0, u1, u2, &wi, &flags)) return 0;
        float pdf = rc_diel_pdf(alpha * alpha, eta, wol, wi);
        if (!(pdf > 0.0f)) return 0;
        rc_vec3 f = rc_diel_eval(alpha * alpha, eta, b->base_color, wol, wi);
        wi.z *= side;
        rc_bsdf_set(s, wi, rc_scale(f, 1.0f / pdf), pdf, flags);
        return 1;
    }
    default: /* emissive: the path ends */
        return 0;
    }
}

/* f(wo, wi) * |cos(wi)|, RGB; 0 for the delta lobes. */
RC_FN rc_vec3 rc_bsdf_eval(const rc_bsdf *b, rc_vec3 wo, rc_vec3 wi) {
    float eta = rc_diel_eta(b->ior, wo);
    if (wo.z < 0.0f) {
        wo = rc_flip_z(wo);
        wi = rc_flip_z(wi);
    }
    rc_vec3 zero = rc_v3s(0.0f);
    if (!(wo.z > 0.0f)) return zero;
    switch (b->model) {
    case RC_BSDF_LAMBERTIAN:
        return wi.z > 0.0f ? rc_scale(b->base_color, wi.z * (1.0f / RC_PI)) : zero;
    case RC_BSDF_FUZZ_METAL:
        return b->fuzz < RC_BSDF_MIN_FUZZ ? zero
                                          : rc_scale(b->base_color, rc_fuzz_pdf(b->fuzz, wo, wi));
    case RC_BSDF_GLTF_PBR: {
        rc_pbr_terms t = rc_pbr_setup(b, eta, wo);
        return rc_pbr_eval_up(b, &t, wo, wi);
    }
    case RC_BSDF_ROUGH_DIELECTRIC: {
        float alpha = rc_rough_alpha(b);
        return alpha < RC_BSDF_MIN_ALPHA ? zero
                                         : rc_diel_eval(alpha * alpha, eta, b->base_color, wo, wi);
    }
    default: /* the smooth dielectric (delta lobes only), emissive */
        return zero;
    }
}

/* The density (solid angle) with which rc_bsdf_sample draws wi for wo; 0 for the delta
 * lobes. Its integral over the sphere is the probability that rc_bsdf_sample returns 1 with a
 * non-delta lobe. */
RC_FN float rc_bsdf_pdf(const rc_bsdf *b, rc_vec3 wo, rc_vec3 wi) {
    float eta = rc_diel_eta(b->ior, wo);
    if (wo.z < 0.0f) {
        wo = rc_flip_z(wo);
        wi = rc_flip_z(wi);
    }
    if (!(wo.z > 0.0f)) return 0.0f;
    switch (b->model) {
    case RC_BSDF_LAMBERTIAN:
        return wi.z > 0.0f ? wi.z * (1.0f / RC_PI) : 0.0f;
    case RC_BSDF_FUZZ_METAL:
        return b->fuzz < RC_BSDF_MIN_FUZZ ? 0.0f : rc_fuzz_pdf(b->fuzz, wo, wi);
    case RC_BSDF_GLTF_PBR: {
        rc_pbr_terms t = rc_pbr_setup(b, eta, wo);
        return rc_pbr_pdf_up(&t, wo, wi);
    }
    case RC_BSDF_ROUGH_DIELECTRIC: {
        float alpha = rc_rough_alpha(b);
        return alpha < RC_BSDF_MIN_ALPHA ? 0.0f : rc_diel_pdf(alpha * alpha, eta, wo, wi);
    }
    default:
        return 0.0f;
    }
}

/* The union of the surface's lobe flags. */
RC_FN uint32_t rc_bsdf_flags(const rc_bsdf *b) {
    const uint32_t refl = RC_LOBE_REFLECTION, tr = RC_LOBE_TRANSMISSION;
    switch (b->model) {
    case RC_BSDF_LAMBERTIAN:
        return refl | RC_LOBE_DIFFUSE;
    case RC_BSDF_FUZZ_METAL:
        return refl | (b->fuzz < RC_BSDF_MIN_FUZZ ? RC_LOBE_SPECULAR : RC_LOBE_GLOSSY);
    case RC_BSDF_SMOOTH_DIELECTRIC:
        return refl | tr | RC_LOBE_SPECULAR;
    case RC_BSDF_GLTF_PBR: {
        float coat = (1.0f - b->metallic) * (1.0f - b->transmission);
        uint32_t f = refl | RC_LOBE_GLOSSY;
        if (coat > 0.0f && rc_luminance(b->base_color) > 0.0f) f |= RC_LOBE_DIFFUSE;
        if ((1.0f - b->metallic) * b->transmission > 0.0f) f |= tr;
        return f;
    }
    case RC_BSDF_ROUGH_DIELECTRIC:
        return refl | tr |
               (rc_rough_alpha(b) < RC_BSDF_MIN_ALPHA ? RC_LOBE_SPECULAR : RC_LOBE_GLOSSY);
    default:
        return 0u;
    }
}

/* Whether light sampling can reach the surface: it has a diffuse or glossy lobe. */
RC_FN int rc_bsdf_nee_worthwhile(uint32_t flags) {
    return (flags & (RC_LOBE_DIFFUSE | RC_LOBE_GLOSSY)) != 0u;
}

#endif /* RC_BSDF_H */
