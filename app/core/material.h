/* material.h: the scene's material record, and how the four materials of "Ray Tracing in One
 * Weekend" scatter a ray (in world space; the other models are in bsdf.h).
 * All sampling draws from the counter-based RNG, keyed by the path's (pixel, sample, bounce). */
#ifndef RC_MATERIAL_H
#define RC_MATERIAL_H

#include "rng.h"
#include "vec.h"

/* The material models: one enum for the scene's materials, the BSDF interface (bsdf.h,
 * shading.h) and the sort keys. 0 .. 3 are the models of "Ray Tracing in One Weekend" (their
 * sampling is the world-space rc_scatter below), 4 and 5 the glTF 2.0 ones (bsdf.h). Adding a
 * model: a value here, its functions in bsdf.h, its case in shading.h, its name in
 * scene_json.c. */
enum {
    RC_MAT_LAMBERTIAN = 0,
    RC_MAT_METAL = 1,
    RC_MAT_DIELECTRIC = 2,
    RC_MAT_EMISSIVE = 3, /* emits `emission` and ends the path (scatters nothing) */
    RC_MAT_PBR = 4,      /* glTF metallic-roughness, with transmission and an ior */
    RC_MAT_ROUGH_DIELECTRIC = 5,
    RC_MAT_MODELS = 6
};

/* No texture in a material's texture slot; slot value k > 0 names entry k - 1 of the scene's
 * texture table, so a zeroed record has none. */
#define RC_NO_TEXTURE 0u

/* Material flags. */
#define RC_MATF_UV1_BASE     0x01u /* the base colour texture reads the second uv set */
#define RC_MATF_UV1_MR       0x02u
#define RC_MATF_UV1_NORMAL   0x04u
#define RC_MATF_UV1_EMISSIVE 0x08u
#define RC_MATF_VERTEX_COLOR 0x10u /* the base colour (and alpha) times the vertex colours */

/* One material, 96 bytes.
 *   lambertian: color = albedo
 *   metal:      color = albedo, param = fuzz in [0, 1]
 *   dielectric: color = tint (1 1 1 for clear glass), param = index of refraction
 *   emissive:   color = emission = radiance (both sides); the path ends there
 *   pbr:        color = base colour; metallic, roughness (perceptual), ior, transmission
 *   rough_dielectric: color = transmission tint; roughness, ior
 * Any model may emit: `emission` (linear radiance, both sides, times the emissive texture),
 * and a surface with emission joins the light table. Textures are slots into the scene's
 * texture table (texture.h): RC_NO_TEXTURE (0) for none, k for entry k - 1; each entry is a
 * texture together with its sampler and uv transform (one record per use). A record zeroed
 * but for color, type and param is the RTIOW material it always was (rc_scene_add_material
 * sets an emissive one's emission to its colour). alpha_cutoff > 0 makes the surface
 * alpha-masked: where alpha (the base colour's, times its texture's and the vertex
 * colour's) is below it, rays pass through (extend and shadow rays alike). */
typedef struct rc_material {
    rc_vec3 color;
    uint32_t type; /* RC_MAT_* */
    float param;   /* RTIOW metal: fuzz; RTIOW dielectric: ior */
    float metallic, roughness, ior;
    float transmission;
    rc_vec3 emission;
    float alpha;        /* the base colour's alpha factor */
    float alpha_cutoff; /* 0: opaque */
    float normal_scale; /* glTF normalTexture.scale */
    uint32_t flags;     /* RC_MATF_* */
    uint32_t tex_base;  /* sRGB base colour (RGB) and alpha (A) */
    uint32_t tex_mr;    /* roughness in G, metallic in B (glTF) */
    uint32_t tex_normal;
    uint32_t tex_emissive;
    uint32_t tex_transmission; /* R */
    float pad[3];
} rc_material;

/* A material of one of the models with its parameters' defaults: no emission, no textures,
 * opaque, roughness 0.5, ior 1.5. */
RC_FN rc_material rc_material_make(uint32_t type, rc_vec3 color, float param) {
    rc_material m;
    m.color = color;
    m.type = type;
    m.param = param;
    m.metallic = 0.0f;
    m.roughness = 0.5f;
    m.ior = type == RC_MAT_DIELECTRIC ? param : 1.5f;
    m.transmission = 0.0f;
    m.emission = type == RC_MAT_EMISSIVE ? color : rc_v3s(0.0f);
    m.alpha = 1.0f;
    m.alpha_cutoff = 0.0f;
    m.normal_scale = 1.0f;
    m.flags = 0u;
    m.tex_base = m.tex_mr = m.tex_normal = m.tex_emissive = m.tex_transmission = RC_NO_TEXTURE;
    m.pad[0] = m.pad[1] = m.pad[2] = 0.0f;
    return m;
}

/* Whether the material emits light (and belongs in the light table). */
RC_FN int rc_material_emits(const rc_material *m) {
    return m->emission.x > 0.0f || m->emission.y > 0.0f || m->emission.z > 0.0f;
}

/* The key of a path's random numbers at one bounce; `bounce` carries the seed above its
 * 8 bits (rng.h). */
typedef struct rc_rng_key {
    uint32_t pixel, sample, bounce;
} rc_rng_key;

RC_FN float rc_key_rand(rc_rng_key k, uint32_t dim) {
    return rc_rand(k.pixel, k.sample, k.bounce, dim);
}

/* An orthonormal basis around unit n, branch-free (Duff et al. 2017, JCGT 6(1)). */
RC_FN void rc_onb(rc_vec3 n, rc_vec3 *b1, rc_vec3 *b2) {
    float sign = copysignf(1.0f, n.z);
    float a = -1.0f / (sign + n.z);
    float b = n.x * n.y * a;
    *b1 = rc_v3(1.0f + sign * n.x * n.x * a, sign * b, -sign * n.x);
    *b2 = rc_v3(b, sign + n.y * n.y * a, -n.y);
}

/* Cosine-weighted direction about unit n (Malley: a disk sample lifted to the hemisphere).
 * Its pdf is cos / pi, so a Lambertian path's weight is exactly the albedo. */
RC_FN rc_vec3 rc_sample_cosine(rc_vec3 n, float u1, float u2) {
    rc_vec3 b1, b2;
    rc_onb(n, &b1, &b2);
    float r = sqrtf(u1), phi = 2.0f * RC_PI * u2;
    float z = sqrtf(fmaxf(0.0f, 1.0f - u1));
    rc_vec3 d =
        rc_add(rc_add(rc_scale(b1, r * cosf(phi)), rc_scale(b2, r * sinf(phi))), rc_scale(n, z));
    return rc_normalize(d);
}

/* A point uniformly inside the unit ball, from three uniforms (no rejection loop). */
RC_FN rc_vec3 rc_sample_ball(float u1, float u2, float u3) {
    float z = 1.0f - 2.0f * u1;
    float s = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    float phi = 2.0f * RC_PI * u2;
    float r = cbrtf(u3);
    return rc_scale(rc_v3(s * cosf(phi), s * sinf(phi), z), r);
}

/* Schlick's approximation of the Fresnel reflectance. */
RC_FN float rc_schlick(float cosine, float eta) {
    float r0 = (1.0f - eta) / (1.0f + eta);
    r0 = r0 * r0;
    float m = 1.0f - cosine;
    return r0 + (1.0f - r0) * m * m * m * m * m;
}

/* Scatter the unit direction d that hit a surface with unit normal n facing the ray
 * (dot(d, n) < 0); front = 1 when the ray arrived from the outside. Returns 1 with the new
 * unit direction and the path weight, or 0 when the surface absorbs the path (metal fuzz
 * below the surface; emissive surfaces never scatter). */
RC_FN int rc_scatter(const rc_material *m, rc_vec3 d, rc_vec3 n, int front, rc_rng_key key,
                     rc_vec3 *out, rc_vec3 *weight) {
    float u1 = rc_key_rand(key, RC_DIM_SCATTER_U), u2 = rc_key_rand(key, RC_DIM_SCATTER_V);
    *weight = m->color;
    switch (m->type) {
    case RC_MAT_LAMBERTIAN:
        *out = rc_sample_cosine(n, u1, u2);
        return 1;
    case RC_MAT_METAL: {
        rc_vec3 fuzz = rc_sample_ball(u1, u2, rc_key_rand(key, RC_DIM_SCATTER_W));
        *out = rc_normalize(rc_add(rc_reflect(d, n), rc_scale(fuzz, m->param)));
        return rc_dot(*out, n) > 0.0f;
    }
    case RC_MAT_DIELECTRIC: {
        float eta = front ? 1.0f / m->param : m->param;
        float cos_t = fminf(-rc_dot(d, n), 1.0f);
        float sin2 = fmaxf(0.0f, 1.0f - cos_t * cos_t);
        int tir = eta * eta * sin2 > 1.0f;
        if (tir || rc_schlick(cos_t, eta) > rc_key_rand(key, RC_DIM_CHOICE)) {
            *out = rc_reflect(d, n);
        } else {
            /* Snell: the part along the surface scales by eta, the normal part follows. */
            rc_vec3 perp = rc_scale(rc_add(d, rc_scale(n, cos_t)), eta);
            float par = sqrtf(fmaxf(0.0f, 1.0f - rc_dot(perp, perp)));
            *out = rc_normalize(rc_sub(perp, rc_scale(n, par)));
        }
        return 1;
    }
    default:
        return 0;
    }
}

#endif /* RC_MATERIAL_H */
