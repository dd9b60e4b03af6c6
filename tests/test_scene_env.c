/* test_scene_env.c: what the scene reader makes of an "environment" and of the glTF-like
 * materials ("pbr", "rough_dielectric", emission on any model), that such a scene renders,
 * and rc_scene_relight: an environment attached after the load gets its share of the light
 * table without a new BVH. */
#define _POSIX_C_SOURCE 200809L
#include "rc_test.h"

#include <string.h>
#include <unistd.h>

#define CAM "\"camera\": {\"look_from\": [0, 0, 5], \"look_at\": [0, 0, 0]}"

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* A 4 x 2 Radiance HDR map of flat RGBE scanlines, every texel (1, 0.5, 0.25) exactly. */
static void write_hdr(const char *path) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 4\n", f);
    static const unsigned char texel[4] = {128, 64, 32, 129};
    for (int i = 0; i < 8; i++) fwrite(texel, 1, sizeof texel, f);
    fclose(f);
}

static int near(float a, float b) {
    return fabsf(a - b) <= 1e-6f * fmaxf(1.0f, fabsf(b));
}

static int load_text(const char *path, const char *text, rc_scene *s) {
    write_file(path, text);
    return test_load(path, s);
}

/* The materials: each field where it belongs, the rest rc_material_make's defaults. */
static void materials(const char *path) {
    rc_scene s;
    const char *text =
        "{" CAM ", \"materials\": ["
        "{\"name\": \"p\", \"type\": \"pbr\", \"color\": [0.8, 0.2, 0.1], \"metallic\": 0.5,"
        " \"roughness\": 0.25, \"ior\": 1.45, \"transmission\": 0.75, \"emission\": [1, 0.5, 0],"
        " \"emission_strength\": 4},"
        "{\"name\": \"d\", \"type\": \"pbr\", \"color\": [1, 1, 1]},"
        "{\"name\": \"r\", \"type\": \"rough_dielectric\", \"roughness\": 0.125, \"ior\": 1.33},"
        "{\"name\": \"m\", \"type\": \"metal\", \"albedo\": [1, 1, 1], \"fuzz\": 0.5,"
        " \"emission\": [0, 2, 0]},"
        "{\"name\": \"e\", \"type\": \"emissive\", \"emission\": [1, 2, 3],"
        " \"emission_strength\": 2},"
        "{\"name\": \"g\", \"type\": \"dielectric\", \"ior\": 1.7}]}";
    if (load_text(path, text, &s) != 0) {
        CHECK(0, "the materials' scene loads");
        return;
    }
    CHECK(s.num_materials == 6, "%zu materials", s.num_materials);
    if (s.num_materials != 6) {
        rc_scene_free(&s);
        return;
    }
    const rc_material *p = &s.materials[0], *d = &s.materials[1], *r = &s.materials[2];
    const rc_material *m = &s.materials[3], *e = &s.materials[4], *g = &s.materials[5];
    CHECK(p->type == RC_MAT_PBR && near(p->color.x, 0.8f) && near(p->color.y, 0.2f) &&
              near(p->color.z, 0.1f),
          "pbr colour");
    CHECK(near(p->metallic, 0.5f) && near(p->roughness, 0.25f) && near(p->ior, 1.45f) &&
              near(p->transmission, 0.75f),
          "pbr parameters %g %g %g %g", p->metallic, p->roughness, p->ior, p->transmission);
    CHECK(near(p->emission.x, 4.0f) && near(p->emission.y, 2.0f) && p->emission.z == 0.0f,
          "pbr emission times its strength: %g %g %g", p->emission.x, p->emission.y, p->emission.z);
    rc_material def = rc_material_make(RC_MAT_PBR, rc_v3s(1.0f), 0.0f);
    CHECK(memcmp(d, &def, sizeof def) == 0, "a pbr material of only a colour is the default");
    CHECK(p->tex_base == RC_NO_TEXTURE && p->tex_mr == RC_NO_TEXTURE &&
              p->tex_normal == RC_NO_TEXTURE && p->tex_emissive == RC_NO_TEXTURE &&
              p->tex_transmission == RC_NO_TEXTURE && p->alpha == 1.0f && p->alpha_cutoff == 0.0f &&
              p->normal_scale == 1.0f && p->flags == 0u,
          "no textures, opaque");
    CHECK(r->type == RC_MAT_ROUGH_DIELECTRIC && r->color.x == 1.0f && r->color.y == 1.0f &&
              r->color.z == 1.0f && near(r->roughness, 0.125f) && near(r->ior, 1.33f) &&
              !rc_material_emits(r),
          "rough dielectric");
    CHECK(m->type == RC_MAT_METAL && near(m->param, 0.5f) && m->emission.x == 0.0f &&
              m->emission.y == 2.0f && m->emission.z == 0.0f,
          "a glossy emitter");
    CHECK(e->type == RC_MAT_EMISSIVE && e->emission.x == 2.0f && e->emission.y == 4.0f &&
              e->emission.z == 6.0f && e->color.z == 6.0f,
          "emissive with a strength: %g %g %g", e->emission.x, e->emission.y, e->emission.z);
    CHECK(g->type == RC_MAT_DIELECTRIC && near(g->param, 1.7f) && near(g->ior, 1.7f),
          "dielectric ior %g %g", g->param, g->ior);
    rc_scene_free(&s);
}

/* The environment: placed as given; alone it takes every light sample, beside a light half. */
static void environment(const char *path) {
    rc_scene s;
    if (load_text(path,
                  "{" CAM ", \"environment\": {\"file\": \"sky.hdr\", \"rotation\": 90,"
                  " \"scale\": 1.5}}",
                  &s) != 0) {
        CHECK(0, "the environment's scene loads");
        return;
    }
    CHECK(s.has_env && s.background.type == RC_BG_ENV && s.env.width == 4 && s.env.height == 2,
          "the map is attached");
    CHECK(s.env_rotation == 90.0f && s.env_scale == 1.5f && s.env_prob == 1.0f,
          "rotation %g, scale %g, share %g", s.env_rotation, s.env_scale, s.env_prob);
    /* An empty scene shows the map: a constant one, times its scale. */
    rc_settings st = test_settings(&s, 4, 4, "none", RC_MODE_INDICES);
    float *img = test_render(&s, &st, 1);
    CHECK(img != NULL, "renders");
    for (int i = 0; img && i < 16; i++)
        CHECK(near(img[3 * i], 1.5f) && near(img[3 * i + 1], 0.75f) && near(img[3 * i + 2], 0.375f),
              "pixel %d: %g %g %g", i, img[3 * i], img[3 * i + 1], img[3 * i + 2]);
    free(img);
    rc_scene_free(&s);

    const char *lit =
        "{" CAM ", \"environment\": {\"file\": \"sky.hdr\"}, \"materials\": ["
        "{\"name\": \"e\", \"type\": \"emissive\", \"emission\": [4, 4, 4]},"
        "{\"name\": \"p\", \"type\": \"pbr\", \"color\": [0.9, 0.9, 0.9],"
        " \"metallic\": 1, \"roughness\": 0.3},"
        "{\"name\": \"r\", \"type\": \"rough_dielectric\", \"roughness\": 0.2}],"
        " \"quads\": [{\"corner\": [-1, 2, -1], \"u\": [2, 0, 0], \"v\": [0, 0, 2],"
        " \"material\": \"e\"}],"
        " \"spheres\": [{\"center\": [-1, 0, 0], \"radius\": 0.8, \"material\": \"p\"},"
        " {\"center\": [1, 0, 0], \"radius\": 0.8, \"material\": \"r\"}]}";
    if (load_text(path, lit, &s) != 0) {
        CHECK(0, "the lit scene loads");
        return;
    }
    CHECK(s.has_env && s.env_scale == 1.0f && s.env_rotation == 0.0f, "defaults");
    CHECK(s.num_lights == 1 && s.env_prob == 0.5f, "%u lights, share %g", s.num_lights, s.env_prob);
    st = test_settings(&s, 8, 8, "none", RC_MODE_INDICES);
    st.max_depth = 4;
    img = test_render(&s, &st, 2);
    CHECK(img != NULL, "the pbr scene renders");
    int finite = 1;
    for (int i = 0; img && i < 8 * 8 * 3; i++) finite &= isfinite(img[i]) && img[i] >= 0.0f;
    CHECK(finite, "every pixel finite and not negative");
    free(img);
    rc_scene_free(&s);
}

/* An environment attached after rc_scene_finish, then rc_scene_relight: the table's lights
 * keep their order and give up half of their probability, and the BVH is the same one. */
static void relight(void) {
    rc_scene s;
    rc_scene_init(&s);
    rc_material em = rc_material_make(RC_MAT_EMISSIVE, rc_v3s(2.0f), 0.0f);
    rc_material grey = rc_material_make(RC_MAT_LAMBERTIAN, rc_v3s(0.5f), 0.0f);
    long e = rc_scene_add_material(&s, &em), g = rc_scene_add_material(&s, &grey);
    CHECK(e == 0 && g == 1, "materials");
    rc_scene_add_quad(&s, rc_v3(-1, 2, -1), rc_v3(2, 0, 0), rc_v3(0, 0, 2), 0);
    rc_scene_add_sphere(&s, rc_v3(0, 0, 0), 1.0f, 1);
    rc_scene_add_sphere(&s, rc_v3(3, 0, 0), 0.5f, 0);
    rc_error err;
    CHECK(rc_scene_finish(&s, &err) == 0, "finish");
    CHECK(s.num_lights == 2 && s.env_prob == 0.0f, "two lights, no environment");
    float before[2] = {0, 0};
    for (uint32_t i = 0; i < s.num_lights && i < 2; i++)
        before[i] = s.bvh.prims[s.light_prims[i]].pad;
    const rc_bvh_node *nodes = s.bvh.nodes;
    float rgb[4 * 2 * 3];
    for (int i = 0; i < 24; i++) rgb[i] = 1.0f;
    rc_env_map env;
    CHECK(rc_env_build("white", rgb, 4, 2, (size_t)1 << 20, &env, &err) == 0, "env: %s", err.msg);
    rc_scene_set_env(&s, &env, 30.0f, 2.0f);
    CHECK(rc_scene_relight(&s, &err) == 0, "relight: %s", err.msg);
    CHECK(s.bvh.nodes == nodes, "the BVH stays");
    CHECK(s.num_lights == 2 && s.env_prob == 0.5f, "%u lights, share %g", s.num_lights, s.env_prob);
    for (uint32_t i = 0; i < s.num_lights && i < 2; i++)
        CHECK(near(s.bvh.prims[s.light_prims[i]].pad, 0.5f * before[i]), "light %u: %g, was %g", i,
              s.bvh.prims[s.light_prims[i]].pad, before[i]);
    rc_scene_view v = rc_scene_view_make(&s, 8, 8);
    CHECK(v.lights.env_prob == 0.5f && v.env.width == 4 && v.env.scale == 2.0f, "the view");
    rc_scene_free(&s);
}

int main(void) {
    char dir[] = "/tmp/rc_scene_env_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char path[256], sky[256];
    snprintf(path, sizeof path, "%s/scene.json", dir);
    snprintf(sky, sizeof sky, "%s/sky.hdr", dir);
    write_hdr(sky);
    materials(path);
    environment(path);
    relight();
    unlink(path);
    unlink(sky);
    rmdir(dir);
    return test_finish("test_scene_env");
}
