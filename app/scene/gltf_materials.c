/* gltf_materials.c: the glTF reader's samplers, textures and materials (with
 * KHR_texture_transform, KHR_materials_emissive_strength, _transmission, _ior, _unlit and
 * _pbrSpecularGlossiness) into the result's tables (gltf_internal.h). The images they name are
 * decoded by gltf_images.c. */
#include "gltf_internal.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>

/* ---- samplers, textures, materials ---- */

int gltf_read_samplers(gctx *c) {
    rc_import *im = c->out;
    if (c->n_samps &&
        !(im->samplers = gltf_alloc_out(im, (size_t)c->n_samps, sizeof *im->samplers)))
        return gltf_fail(c, "samplers", "out of memory");
    im->num_samplers = (size_t)c->n_samps;
    for (int i = 0; i < c->n_samps; i++) {
        const cJSON *o = c->a_samps[i];
        char p[64], fp[96];
        gltf_jindex(p, sizeof p, "samplers", i);
        size_t mag, min, ws, wt;
        if (gltf_juint(c, o, p, "magFilter", 0, 0, 0, 1u << 16, &mag) != 0 ||
            gltf_juint(c, o, p, "minFilter", 0, 0, 0, 1u << 16, &min) != 0 ||
            gltf_juint(c, o, p, "wrapS", 0, 10497, 0, 1u << 16, &ws) != 0 ||
            gltf_juint(c, o, p, "wrapT", 0, 10497, 0, 1u << 16, &wt) != 0)
            return -1;
        if (gltf_jget(o, "magFilter") && mag != 9728 && mag != 9729)
            return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "magFilter"),
                             "%zu is not 9728 (NEAREST) or 9729 (LINEAR)", mag);
        if (gltf_jget(o, "minFilter") && min != 9728 && min != 9729 && (min < 9984 || min > 9987))
            return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "minFilter"),
                             "%zu is not one of 9728, 9729, 9984, 9985, 9986, 9987", min);
        size_t w[2] = {ws, wt};
        for (int k = 0; k < 2; k++)
            if (w[k] != 33071 && w[k] != 33648 && w[k] != 10497)
                return gltf_fail(
                    c, gltf_jpath(fp, sizeof fp, p, k ? "wrapT" : "wrapS"),
                    "%zu is not 33071 (CLAMP_TO_EDGE), 33648 (MIRRORED_REPEAT) or 10497 "
                    "(REPEAT)",
                    w[k]);
        rc_import_sampler *s = &im->samplers[i];
        s->mag_filter = (uint32_t)mag;
        s->min_filter = (uint32_t)min;
        s->wrap_s = (uint32_t)ws;
        s->wrap_t = (uint32_t)wt;
    }
    return 0;
}

int gltf_read_textures(gctx *c) {
    rc_import *im = c->out;
    if (c->n_texs && !(im->textures = gltf_alloc_out(im, (size_t)c->n_texs, sizeof *im->textures)))
        return gltf_fail(c, "textures", "out of memory");
    im->num_textures = (size_t)c->n_texs;
    for (int i = 0; i < c->n_texs; i++) {
        const cJSON *o = c->a_texs[i];
        char p[64];
        gltf_jindex(p, sizeof p, "textures", i);
        int32_t samp, img;
        if (gltf_jref(c, o, p, "sampler", 0, c->n_samps, "samplers", &samp) != 0 ||
            gltf_jref(c, o, p, "source", 0, c->n_imgs, "images", &img) != 0)
            return -1;
        rc_import_texture *t = &im->textures[i];
        t->image = img;
        t->sampler = (rc_import_sampler){0, 0, 10497, 10497};
        if (samp >= 0) t->sampler = im->samplers[samp];
    }
    return 0;
}

/* A textureInfo (with KHR_texture_transform); absent: texture -1. `scale_key` reads the
 * normalTexture's "scale" into *scale. */
static int read_texref(gctx *c, const cJSON *o, const char *path, const char *key,
                       rc_import_texref *t, const char *scale_key, float *scale) {
    char p[160];
    const cJSON *ti;
    *t = (rc_import_texref){-1, 0, {0, 0}, 0, {1, 1}};
    int r = gltf_jobject(c, o, path, key, &ti);
    if (r <= 0) return r;
    gltf_jpath(p, sizeof p, path, key);
    size_t tc;
    if (gltf_jref(c, ti, p, "index", 1, c->n_texs, "textures", &t->texture) != 0 ||
        gltf_juint(c, ti, p, "texCoord", 0, 0, 0, 1, &tc) != 0)
        return -1;
    t->texcoord = (uint32_t)tc;
    if (scale_key && gltf_jnum(c, ti, p, scale_key, 1.0, -1e6, 1e6, scale) != 0) return -1;
    const cJSON *ext, *tt;
    if (gltf_jobject(c, ti, p, "extensions", &ext) < 0) return -1;
    if (!ext) return 0;
    char ep[200];
    gltf_jpath(ep, sizeof ep, p, "extensions");
    if (gltf_jobject(c, ext, ep, "KHR_texture_transform", &tt) < 0) return -1;
    if (!tt) return 0;
    char tp[240];
    gltf_jpath(tp, sizeof tp, ep, "KHR_texture_transform");
    double off[2] = {0, 0}, sc[2] = {1, 1};
    if (gltf_jnums(c, tt, tp, "offset", 2, -1e6, 1e6, off, NULL) != 0 ||
        gltf_jnums(c, tt, tp, "scale", 2, -1e6, 1e6, sc, NULL) != 0 ||
        gltf_jnum(c, tt, tp, "rotation", 0.0, -1e6, 1e6, &t->rotation) != 0)
        return -1;
    if (gltf_jget(tt, "texCoord")) {
        if (gltf_juint(c, tt, tp, "texCoord", 0, 0, 0, 1, &tc) != 0) return -1;
        t->texcoord = (uint32_t)tc;
    }
    t->offset[0] = (float)off[0];
    t->offset[1] = (float)off[1];
    t->scale[0] = (float)sc[0];
    t->scale[1] = (float)sc[1];
    return 0;
}

static void default_material(rc_import_material *m) {
    memset(m, 0, sizeof *m);
    for (int k = 0; k < 4; k++) m->base_color[k] = 1.0f;
    m->metallic = 1.0f;
    m->roughness = 1.0f;
    m->normal_scale = 1.0f;
    m->emissive_strength = 1.0f;
    m->ior = 1.5f;
    rc_import_texref none = {-1, 0, {0, 0}, 0, {1, 1}};
    m->base_color_tex = m->metallic_roughness_tex = m->normal_tex = m->emissive_tex =
        m->transmission_tex = none;
}

static int read_material(gctx *c, const cJSON *o, const char *p, rc_import_material *m) {
    const cJSON *pbr, *ext, *x;
    char fp[160];
    default_material(m);
    if (gltf_jobject(c, o, p, "pbrMetallicRoughness", &pbr) < 0) return -1;
    if (pbr) {
        gltf_jpath(fp, sizeof fp, p, "pbrMetallicRoughness");
        double bc[4] = {1, 1, 1, 1};
        if (gltf_jnums(c, pbr, fp, "baseColorFactor", 4, 0.0, 1.0, bc, NULL) != 0 ||
            read_texref(c, pbr, fp, "baseColorTexture", &m->base_color_tex, NULL, NULL) != 0 ||
            gltf_jnum(c, pbr, fp, "metallicFactor", 1.0, 0.0, 1.0, &m->metallic) != 0 ||
            gltf_jnum(c, pbr, fp, "roughnessFactor", 1.0, 0.0, 1.0, &m->roughness) != 0 ||
            read_texref(c, pbr, fp, "metallicRoughnessTexture", &m->metallic_roughness_tex, NULL,
                        NULL) != 0)
            return -1;
        for (int k = 0; k < 4; k++) m->base_color[k] = (float)bc[k];
    }
    double em[3] = {0, 0, 0};
    float cutoff = 0.5f;
    const char *mode;
    if (read_texref(c, o, p, "normalTexture", &m->normal_tex, "scale", &m->normal_scale) != 0 ||
        read_texref(c, o, p, "emissiveTexture", &m->emissive_tex, NULL, NULL) != 0 ||
        gltf_jnums(c, o, p, "emissiveFactor", 3, 0.0, 1.0, em, NULL) != 0 ||
        gltf_jstring(c, o, p, "alphaMode", &mode) != 0 ||
        gltf_jnum(c, o, p, "alphaCutoff", 0.5, 0.0, 1e6, &cutoff) != 0 ||
        gltf_jbool(c, o, p, "doubleSided", &m->double_sided) != 0)
        return -1;
    const cJSON *occ;
    if (gltf_jobject(c, o, p, "occlusionTexture", &occ) < 0) return -1; /* read by no one */
    for (int k = 0; k < 3; k++) m->emissive[k] = (float)em[k];
    m->alpha_mode = RC_IMPORT_ALPHA_OPAQUE;
    if (mode && strcmp(mode, "MASK") == 0) {
        m->alpha_mode = RC_IMPORT_ALPHA_MASK;
        m->alpha_cutoff = cutoff;
    } else if (mode && strcmp(mode, "BLEND") == 0) {
        m->alpha_mode = RC_IMPORT_ALPHA_BLEND;
        m->alpha_cutoff = 0.5f;
    } else if (mode && strcmp(mode, "OPAQUE") != 0) {
        char shown[40];
        return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "alphaMode"),
                         "'%s' is not OPAQUE, MASK or BLEND",
                         echo_escape(shown, sizeof shown, mode));
    }
    if (gltf_jobject(c, o, p, "extensions", &ext) < 0) return -1;
    if (!ext) return 0;
    char ep[160], xp[224];
    gltf_jpath(ep, sizeof ep, p, "extensions");
    if (gltf_jobject(c, ext, ep, "KHR_materials_emissive_strength", &x) < 0) return -1;
    if (x && gltf_jnum(c, x, gltf_jpath(xp, sizeof xp, ep, "KHR_materials_emissive_strength"),
                       "emissiveStrength", 1.0, 0.0, 1e9, &m->emissive_strength) != 0)
        return -1;
    if (gltf_jobject(c, ext, ep, "KHR_materials_transmission", &x) < 0) return -1;
    if (x) {
        gltf_jpath(xp, sizeof xp, ep, "KHR_materials_transmission");
        if (gltf_jnum(c, x, xp, "transmissionFactor", 0.0, 0.0, 1.0, &m->transmission) != 0 ||
            read_texref(c, x, xp, "transmissionTexture", &m->transmission_tex, NULL, NULL) != 0)
            return -1;
    }
    if (gltf_jobject(c, ext, ep, "KHR_materials_pbrSpecularGlossiness", &x) < 0) return -1;
    if (x && !pbr) {
        /* KHR_materials_pbrSpecularGlossiness (archived), read where the file gives no
           pbrMetallicRoughness to fall back on: the diffuse colour and texture as the base
           colour, 1 - glossiness as the roughness, a dielectric's specular (metallic 0). The
           specular colour and the specular-glossiness texture are not read (a notice says
           which). */
        gltf_jpath(xp, sizeof xp, ep, "KHR_materials_pbrSpecularGlossiness");
        double df[4] = {1, 1, 1, 1}, sp[3] = {1, 1, 1};
        float gloss;
        rc_import_texref sg;
        if (gltf_jnums(c, x, xp, "diffuseFactor", 4, 0.0, 1.0, df, NULL) != 0 ||
            read_texref(c, x, xp, "diffuseTexture", &m->base_color_tex, NULL, NULL) != 0 ||
            gltf_jnums(c, x, xp, "specularFactor", 3, 0.0, 1.0, sp, NULL) != 0 ||
            gltf_jnum(c, x, xp, "glossinessFactor", 1.0, 0.0, 1.0, &gloss) != 0 ||
            read_texref(c, x, xp, "specularGlossinessTexture", &sg, NULL, NULL) != 0)
            return -1;
        for (int k = 0; k < 4; k++) m->base_color[k] = (float)df[k];
        m->metallic = 0.0f;
        m->roughness = 1.0f - gloss;
        if (sg.texture >= 0)
            gltf_notice(c, xp,
                        "specularGlossinessTexture not read: the roughness is 1 - "
                        "glossinessFactor throughout");
    }
    if (gltf_jobject(c, ext, ep, "KHR_materials_unlit", &x) < 0) return -1;
    if (x) {
        /* KHR_materials_unlit: the surface shows its base colour whatever the light falls on
           it; to a path tracer, an emitter of that colour (and texture) that reflects nothing.
           The base texture stays where alpha masks or blends: its alpha cuts the surface. */
        for (int k = 0; k < 3; k++) {
            m->emissive[k] = m->base_color[k];
            m->base_color[k] = 0.0f;
        }
        m->emissive_strength = 1.0f;
        m->emissive_tex = m->base_color_tex;
        if (m->alpha_mode == RC_IMPORT_ALPHA_OPAQUE) m->base_color_tex.texture = -1;
        m->metallic = 0.0f;
        m->roughness = 1.0f;
        m->transmission = 0.0f;
        m->transmission_tex.texture = -1;
    }
    if (gltf_jobject(c, ext, ep, "KHR_materials_ior", &x) < 0) return -1;
    if (x) {
        gltf_jpath(xp, sizeof xp, ep, "KHR_materials_ior");
        if (gltf_jnum(c, x, xp, "ior", 1.5, 0.0, 100.0, &m->ior) != 0) return -1;
        if (m->ior != 0.0f && m->ior < 1.0f)
            return gltf_fail(c, gltf_jpath(fp, sizeof fp, xp, "ior"),
                             "%g is neither 0 nor at least 1", m->ior);
    }
    return 0;
}

int gltf_read_materials(gctx *c, int need_default) {
    rc_import *im = c->out;
    size_t n = (size_t)c->n_mats + (need_default ? 1 : 0);
    if (n && !(im->materials = gltf_alloc_out(im, n, sizeof *im->materials)))
        return gltf_fail(c, "materials", "out of memory");
    im->num_materials = n;
    for (int i = 0; i < c->n_mats; i++) {
        char p[64];
        if (read_material(c, c->a_mats[i], gltf_jindex(p, sizeof p, "materials", i),
                          &im->materials[i]) != 0)
            return -1;
    }
    if (need_default) {
        default_material(&im->materials[c->n_mats]);
        im->materials[c->n_mats].is_default = 1;
    }
    return 0;
}
