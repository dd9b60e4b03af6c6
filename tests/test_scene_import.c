/* test_scene_import.c: model files as scenes (scene_import.c), on imports built by hand.
 *   - the material map: glTF's factors, cutoffs and flags on the PBR model; the MTL rules'
 *     glass, lamps and plain diffuse surfaces;
 *   - rc_scene_add_import: triangles placed, zero-area ones dropped and counted, vertex data
 *     kept per vertex (both uv sets and colours), the file's materials appended or the
 *     caller's used, and a budget too small refused in one line before anything is added;
 *   - textures: one table entry per use with its sampler, sRGB or linear by slot, texels of an
 *     (image, sRGB) pair shared, a budget that cannot hold them refused naming the image;
 *   - an OBJ file and a textured glTF file (a data: URI PNG) as whole scenes. */
#include "rc_test.h"
#include "scene/scene_import.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static rc_import_material plain(float r, float g, float b) {
    rc_import_material m;
    memset(&m, 0, sizeof m);
    m.base_color[0] = r, m.base_color[1] = g, m.base_color[2] = b, m.base_color[3] = 1.0f;
    m.roughness = 1.0f;
    m.emissive_strength = 1.0f;
    m.normal_scale = 1.0f;
    m.ior = 1.5f;
    rc_import_texref none = {-1, 0, {0, 0}, 0, {1, 1}};
    m.base_color_tex = m.emissive_tex = m.normal_tex = none;
    m.metallic_roughness_tex = m.transmission_tex = none;
    return m;
}

static int close3(rc_vec3 a, float x, float y, float z) {
    return fabsf(a.x - x) < 1e-5f && fabsf(a.y - y) < 1e-5f && fabsf(a.z - z) < 1e-5f;
}

static void material_map(void) {
    rc_import_material m = plain(0.5f, 0.25f, 1.0f);
    m.base_color[3] = 0.75f;
    m.metallic = 0.3f, m.roughness = 0.6f, m.ior = 1.33f, m.transmission = 0.2f;
    m.normal_scale = 0.5f;
    m.emissive[0] = 1.0f, m.emissive[1] = 0.5f, m.emissive_strength = 4.0f;
    rc_material r = rc_import_material_map(&m, RC_IMPORT_RULES_GLTF, 0);
    CHECK(r.type == RC_MAT_PBR && close3(r.color, 0.5f, 0.25f, 1.0f) && r.alpha == 0.75f &&
              r.metallic == 0.3f && r.roughness == 0.6f && r.ior == 1.33f &&
              r.transmission == 0.2f && r.normal_scale == 0.5f && close3(r.emission, 4, 2, 0) &&
              r.alpha_cutoff == 0.0f && r.flags == 0 && r.tex_base == RC_NO_TEXTURE,
          "glTF: type %u", r.type);
    m.alpha_mode = RC_IMPORT_ALPHA_MASK, m.alpha_cutoff = 0.3f;
    r = rc_import_material_map(&m, RC_IMPORT_RULES_GLTF, 0);
    CHECK(r.alpha_cutoff == 0.3f, "MASK: cutoff %g", r.alpha_cutoff);
    m.alpha_mode = RC_IMPORT_ALPHA_BLEND, m.alpha_cutoff = 0.9f;
    r = rc_import_material_map(&m, RC_IMPORT_RULES_GLTF, 0);
    CHECK(r.alpha_cutoff == 0.5f, "BLEND: as MASK at 0.5, got %g", r.alpha_cutoff);
    m.alpha_mode = RC_IMPORT_ALPHA_OPAQUE;
    m.base_color_tex.texture = 0, m.base_color_tex.texcoord = 1;
    m.normal_tex.texture = 0, m.normal_tex.texcoord = 1;
    m.metallic_roughness_tex.texture = 0;
    r = rc_import_material_map(&m, RC_IMPORT_RULES_GLTF, 1);
    CHECK(r.alpha_cutoff == 0.0f &&
              r.flags == (RC_MATF_UV1_BASE | RC_MATF_UV1_NORMAL | RC_MATF_VERTEX_COLOR),
          "flags %#x", r.flags);
    /* glTF never leaves the PBR model: glass, an emitter on black, a rough dielectric */
    m = plain(0, 0, 0);
    m.emissive[0] = 1.0f;
    r = rc_import_material_map(&m, RC_IMPORT_RULES_GLTF, 0);
    CHECK(r.type == RC_MAT_PBR, "glTF emitter: type %u", r.type);
    /* the MTL rules */
    r = rc_import_material_map(&m, RC_IMPORT_RULES_MTL, 0);
    CHECK(r.type == RC_MAT_EMISSIVE && close3(r.color, 1, 0, 0), "MTL lamp: type %u", r.type);
    m = plain(0.9f, 0.8f, 0.7f);
    m.transmission = 1.0f, m.ior = 1.33f, m.roughness = 0.0f;
    r = rc_import_material_map(&m, RC_IMPORT_RULES_MTL, 0);
    CHECK(r.type == RC_MAT_DIELECTRIC && r.param == 1.33f && close3(r.color, 0.9f, 0.8f, 0.7f),
          "MTL glass: type %u ior %g", r.type, r.param);
    m.roughness = 0.2f;
    r = rc_import_material_map(&m, RC_IMPORT_RULES_MTL, 0);
    CHECK(r.type == RC_MAT_ROUGH_DIELECTRIC && r.roughness == 0.2f && r.ior == 1.33f,
          "MTL rough glass: type %u", r.type);
    m = plain(0.5f, 0.5f, 0.5f);
    r = rc_import_material_map(&m, RC_IMPORT_RULES_MTL, 0);
    CHECK(r.type == RC_MAT_LAMBERTIAN && close3(r.color, 0.5f, 0.5f, 0.5f), "MTL diffuse: %u",
          r.type);
    m.roughness = 0.4f;
    r = rc_import_material_map(&m, RC_IMPORT_RULES_MTL, 0);
    CHECK(r.type == RC_MAT_PBR && r.roughness == 0.4f, "MTL glossy: %u", r.type);
}

/* Two parts: a quad as two triangles plus one of zero area (material 0), one triangle with
 * normals (material 1). */
static void add_import(void) {
    float pos0[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 2, 2};
    uint32_t idx0[] = {0, 1, 2, 0, 2, 3, 4, 4, 4};
    float uv0[] = {0, 0, 1, 0, 1, 1, 0, 1, 0, 0};
    float pos1[] = {0, 0, 5, 1, 0, 5, 0, 1, 5}, nrm1[] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    uint32_t idx1[] = {0, 1, 2};
    rc_import_part parts[2];
    memset(parts, 0, sizeof parts);
    parts[0].positions = pos0, parts[0].uv0 = uv0, parts[0].has_uv0 = 1, parts[0].indices = idx0;
    parts[0].num_vertices = 5, parts[0].num_triangles = 3, parts[0].material = 0;
    parts[1].positions = pos1, parts[1].normals = nrm1, parts[1].indices = idx1;
    parts[1].num_vertices = 3, parts[1].num_triangles = 1, parts[1].material = 1;
    rc_import_material mats[2] = {plain(0.5f, 0.5f, 0.5f), plain(0.1f, 0.2f, 0.3f)};
    rc_import im;
    memset(&im, 0, sizeof im);
    im.parts = parts, im.num_parts = 2, im.materials = mats, im.num_materials = 2;
    im.num_vertices = 8, im.num_triangles = 4;

    rc_scene s;
    rc_scene_init(&s);
    rc_material own = test_material(RC_MAT_METAL, 1, 1, 1, 0.1f);
    rc_scene_add_material(&s, &own);
    rc_error err = {{0}};
    CHECK(rc_scene_add_import(&s, &im, NULL, -1, 1 << 20, "two.glb", &err) == 0, "%s", err.msg);
    CHECK(s.num_triangles == 3 && s.num_degenerate == 1 && s.num_vertices == 8,
          "%zu triangles, %zu dropped, %zu vertices", s.num_triangles, s.num_degenerate,
          s.num_vertices);
    CHECK(s.num_materials == 3 && rc_prim_material(rc_scene_prim_at(&s, 2)) == 2 &&
              rc_prim_material(rc_scene_prim_at(&s, 0)) == 1,
          "the file's materials appended after the scene's own");
    CHECK(s.has_normals && s.has_uvs && s.uvs[2 * 2] == 1.0f, "vertex data");
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    rc_scene_free(&s);

    rc_scene_init(&s);
    rc_scene_add_material(&s, &own);
    CHECK(rc_scene_add_import(&s, &im, NULL, 0, 1 << 20, "two.glb", &err) == 0, "%s", err.msg);
    CHECK(s.num_materials == 1 && rc_prim_material(rc_scene_prim_at(&s, 2)) == 0,
          "the caller's material");
    rc_scene_free(&s);

    rc_scene_init(&s);
    int rc = rc_scene_add_import(&s, &im, NULL, -1, 100, "two.glb", &err);
    CHECK(rc != 0 && strstr(err.msg, "two.glb: 4 triangles and 8 vertices would take") &&
              strstr(err.msg, "--max-memory") && s.num_prims == 0 && s.num_materials == 0,
          "budget: '%s'", err.msg);
    rc_scene_free(&s);
}

/* Textures: one image used by three materials' slots: base colour and emissive (sRGB, one
 * copy of the texels shared by two records of their own samplers and transforms),
 * metallic-roughness (linear, a copy of its own); a second image used by none is not added.
 * Vertex colours and the second uv set reach the scene; a budget that holds the triangles
 * but not the textures is refused in one line naming the image. */
static void textured_import(void) {
    float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    float uv0[] = {0, 0, 1, 0, 0, 1}, uv1[] = {0.5f, 0.5f, 1, 1, 0, 0};
    float col[] = {1, 0, 0, 1, 0, 1, 0, 0.5f, 0, 0, 1, 1};
    uint32_t idx[] = {0, 1, 2};
    rc_import_part parts[2];
    memset(parts, 0, sizeof parts);
    for (int i = 0; i < 2; i++) {
        parts[i].positions = pos, parts[i].uv0 = uv0, parts[i].has_uv0 = 1;
        parts[i].indices = idx, parts[i].num_vertices = 3, parts[i].num_triangles = 1;
        parts[i].material = (uint32_t)i;
    }
    parts[0].uv1 = uv1, parts[0].colors = col;
    uint8_t px[64], unused[4] = {1, 2, 3, 4};
    for (int i = 0; i < 64; i++) px[i] = (uint8_t)(i * 4);
    rc_import_image imgs[2] = {{4, 4, px}, {1, 1, unused}};
    rc_import_texture texs[3] = {{0, {9728, 9728, 33071, 33648}},
                                 {0, {9729, 9987, 10497, 10497}},
                                 {0, {9729, 9729, 10497, 10497}}};
    rc_import_material mats[2] = {plain(1, 1, 1), plain(0.5f, 0.5f, 0.5f)};
    mats[0].base_color_tex.texture = 0;
    mats[0].base_color_tex.texcoord = 1;
    mats[0].base_color_tex.offset[0] = 0.25f;
    mats[0].base_color_tex.scale[0] = 2.0f;
    mats[0].metallic_roughness_tex.texture = 1;
    mats[1].emissive_tex.texture = 2;
    mats[1].emissive[0] = mats[1].emissive[1] = mats[1].emissive[2] = 1.0f;
    rc_import im;
    memset(&im, 0, sizeof im);
    im.parts = parts, im.num_parts = 2, im.materials = mats, im.num_materials = 2;
    im.textures = texs, im.num_textures = 3, im.images = imgs, im.num_images = 2;
    im.num_vertices = 6, im.num_triangles = 2;

    rc_scene s;
    rc_scene_init(&s);
    rc_error err = {{0}};
    CHECK(rc_scene_add_import(&s, &im, NULL, -1, 1 << 20, "tex.gltf", &err) == 0, "%s", err.msg);
    const rc_texture_table *tt = &s.textures;
    CHECK(s.num_materials == 2 && tt->count == 3, "%zu materials, %zu textures", s.num_materials,
          tt->count);
    if (s.num_materials == 2 && tt->count == 3) {
        const rc_material *a = &s.materials[0], *b = &s.materials[1];
        CHECK(a->type == RC_MAT_PBR && a->tex_base != 0 && a->tex_mr != 0 && a->tex_normal == 0 &&
                  a->tex_emissive == 0 && b->tex_emissive != 0 && b->tex_base == 0,
              "slots: %u %u / %u", a->tex_base, a->tex_mr, b->tex_emissive);
        const rc_texture *tb = &tt->textures[a->tex_base - 1], *tm = &tt->textures[a->tex_mr - 1],
                         *te = &tt->textures[b->tex_emissive - 1];
        CHECK(tb->srgb == 1 && tm->srgb == 0 && te->srgb == 1, "sRGB: base %u, mr %u, em %u",
              tb->srgb, tm->srgb, te->srgb);
        CHECK(tb->width[0] == 4 && tb->height[0] == 4 && tb->levels == 3 && tm->levels == 3,
              "size and mip levels");
        CHECK(te->base == tb->base && tm->base != tb->base && tt->num_texels == 2 * 21,
              "texels shared by (image, sRGB): %zu texels", tt->num_texels);
        CHECK(tb->filter == RC_FILTER_NEAREST && tm->filter == RC_FILTER_TRILINEAR &&
                  te->filter == RC_FILTER_BILINEAR,
              "filters %u %u %u", tb->filter, tm->filter, te->filter);
        CHECK(tb->wrap_s == RC_WRAP_CLAMP_TO_EDGE && tb->wrap_t == RC_WRAP_MIRRORED_REPEAT &&
                  te->wrap_s == RC_WRAP_REPEAT,
              "wraps");
        CHECK(tb->xform[0] == 2.0f && tb->xform[2] == 0.25f && te->xform[0] == 1.0f &&
                  te->xform[2] == 0.0f,
              "transforms");
        CHECK((a->flags & RC_MATF_UV1_BASE) && (a->flags & RC_MATF_VERTEX_COLOR) &&
                  !(b->flags & RC_MATF_VERTEX_COLOR),
              "flags %#x %#x", a->flags, b->flags);
        CHECK(close3(b->emission, 1, 1, 1) && rc_material_emits(b), "emission");
    }
    CHECK(s.uv1s && s.colors && s.uv1s[0] == 0.5f && s.colors[4 * 1 + 3] == 0.5f &&
              s.colors[4 * 3] == 1.0f && s.colors[4 * 3 + 1] == 1.0f,
          "uv1 and colours (white where a part has none)");
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    rc_scene_free(&s);

    /* the triangles fit (2 x 212 + 6 x 44 bytes), the first texture does not */
    rc_scene_init(&s);
    int rc = rc_scene_add_import(&s, &im, NULL, -1, 700, "tex.gltf", &err);
    CHECK(rc != 0 &&
              strstr(err.msg, "tex.gltf: images[0]: 4x4 texture needs 0.00 MiB, over the 0.00 "
                              "MiB left of the memory limit (--max-memory MIB raises it)") &&
              !strchr(err.msg, '\n') && s.num_materials == 0 && s.textures.count == 0,
          "texture budget: '%s'", err.msg);
    rc_scene_free(&s);
    /* with the caller's material the textures are not wanted */
    rc_scene_init(&s);
    rc_material own = test_material(RC_MAT_LAMBERTIAN, 1, 1, 1, 0);
    rc_scene_add_material(&s, &own);
    CHECK(rc_scene_add_import(&s, &im, NULL, 0, 700, "tex.gltf", &err) == 0 &&
              s.textures.count == 0,
          "caller's material: %s", err.msg);
    rc_scene_free(&s);
}

/* A glTF file with a PNG in a data: URI as the whole scene: the base colour texture (sRGB)
 * and the metallic-roughness one (linear) of the same image, decoded twice, in the table. */
static void textured_gltf(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tex.gltf", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs("{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],"
          " \"nodes\": [{\"mesh\": 0}], \"meshes\": [{\"primitives\": [{\"attributes\":"
          " {\"POSITION\": 0}, \"material\": 0}]}], \"materials\": [{\"pbrMetallicRoughness\":"
          " {\"baseColorTexture\": {\"index\": 0}, \"metallicRoughnessTexture\": {\"index\": 0},"
          " \"metallicFactor\": 0.25, \"roughnessFactor\": 0.75}, \"alphaMode\": \"MASK\","
          " \"alphaCutoff\": 0.25}], \"textures\": [{\"source\": 0}], \"images\": [{\"uri\":"
          " \"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAD0lEQVR4nGP4z8"
          "DwHwgbABB5A359Y87XAAAAAElFTkSuQmCC\"}], \"accessors\": [{\"bufferView\": 0,"
          " \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\", \"min\": [0, 0, 0],"
          " \"max\": [1, 1, 0]}], \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 36}],"
          " \"buffers\": [{\"byteLength\": 36, \"uri\": \"data:application/octet-stream;base64,"
          "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]}\n",
          f);
    fclose(f);
    rc_scene s;
    rc_error err = {{0}};
    CHECK(rc_scene_load_max(path, 64, &s, &err) == 0, "%s", err.msg);
    if (err.msg[0]) return;
    const rc_material *m = &s.materials[0];
    CHECK(s.num_materials == 1 && m->type == RC_MAT_PBR && m->metallic == 0.25f &&
              m->roughness == 0.75f && m->alpha_cutoff == 0.25f,
          "the file's material: type %u", m->type);
    CHECK(m->tex_base != 0 && m->tex_mr != 0 && m->tex_base != m->tex_mr && s.textures.count == 2,
          "slots %u %u, %zu textures", m->tex_base, m->tex_mr, s.textures.count);
    if (s.textures.count == 2 && m->tex_base && m->tex_mr) {
        const rc_texture *b = &s.textures.textures[m->tex_base - 1],
                         *r = &s.textures.textures[m->tex_mr - 1];
        CHECK(b->srgb == 1 && r->srgb == 0 && b->width[0] == 2 && b->height[0] == 1 &&
                  b->levels == 2 && b->filter == RC_FILTER_TRILINEAR && b->wrap_s == RC_WRAP_REPEAT,
              "base: srgb %u %ux%u; mr: srgb %u", b->srgb, b->width[0], b->height[0], r->srgb);
        /* level 0 is the file's pixels: (255, 0, ...), (..., 255, ..., 128) */
        uint32_t t0 = s.textures.texels[b->base], t1 = s.textures.texels[b->base + 1];
        CHECK((t0 & 255u) == 255u && (t1 >> 24) == 128u, "texels %08x %08x", t0, t1);
    }
    rc_scene_free(&s);
}

/* An OBJ file as the whole scene: its triangles, a grey Lambertian, a camera whose view holds
 * the model (its centre straight ahead). */
static void obj_scene(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tri.obj", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs("v 10 0 0\nv 12 0 0\nv 10 2 0\nvn 0 0 1\nf 1//1 2//1 3//1\n", f);
    fclose(f);
    rc_scene s;
    rc_error err = {{0}};
    CHECK(rc_scene_load_max(path, 64, &s, &err) == 0, "%s", err.msg);
    CHECK(s.num_triangles == 1 && s.num_materials == 1 && s.materials[0].type == RC_MAT_LAMBERTIAN,
          "one grey triangle");
    rc_vec3 centre = rc_v3(11, 1, 0),
            ahead = rc_normalize(rc_sub(s.camera.look_at, s.camera.look_from));
    CHECK(rc_dot(ahead, rc_normalize(rc_sub(centre, s.camera.look_from))) > 0.999f,
          "the camera does not look at the model");
    rc_scene_free(&s);
    snprintf(path, sizeof path, "%s/none.glb", dir);
    CHECK(rc_scene_load_max(path, 64, &s, &err) != 0 && strstr(err.msg, "none.glb"),
          "a missing model: '%s'", err.msg);
}

/* A JSON scene's mesh that names a glTF file: placed (scale 2, then moved), of the file's own
 * material (mapped: an emitter) or of the one the scene names. */
static void json_mesh(const char *dir) {
    char path[4096], scene[4096];
    snprintf(path, sizeof path, "%s/tri.gltf", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs("{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],"
          " \"nodes\": [{\"mesh\": 0}], \"meshes\": [{\"primitives\": [{\"attributes\":"
          " {\"POSITION\": 0}, \"material\": 0}]}], \"materials\": [{\"emissiveFactor\":"
          " [1, 0.5, 0]}], \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126,"
          " \"count\": 3, \"type\": \"VEC3\", \"min\": [0, 0, 0], \"max\": [1, 1, 0]}],"
          " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 36}], \"buffers\":"
          " [{\"byteLength\": 36, \"uri\": \"data:application/octet-stream;base64,"
          "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]}\n",
          f);
    fclose(f);
    for (int named = 0; named < 2; named++) {
        snprintf(scene, sizeof scene, "%s/s%d.json", dir, named);
        f = fopen(scene, "w");
        CHECK(f != NULL, "cannot write %s", scene);
        if (!f) return;
        fprintf(f,
                "{\"camera\": {\"look_from\": [0, 0, 4], \"look_at\": [0, 0, 0]},"
                " \"materials\": [{\"name\": \"m\", \"type\": \"lambertian\", \"albedo\":"
                " [0.5, 0.5, 0.5]}], \"meshes\": [{\"file\": \"tri.gltf\", \"scale\": 2,"
                " \"translate\": [0, 0, -3]%s}]}\n",
                named ? ", \"material\": \"m\"" : "");
        fclose(f);
        rc_scene s;
        rc_error err = {{0}};
        CHECK(rc_scene_load_max(scene, 64, &s, &err) == 0, "%s", err.msg);
        if (s.num_prims != 1) {
            CHECK(0, "%zu primitives, want 1", s.num_prims);
            rc_scene_free(&s);
            continue;
        }
        const rc_prim *p = rc_scene_prim_at(&s, 0);
        CHECK(close3(p->p, 0, 0, -3) && close3(p->a, 2, 0, 0) && close3(p->b, 0, 2, 0),
              "placement: corner (%g %g %g)", p->p.x, p->p.y, p->p.z);
        const rc_material *m = &s.materials[rc_prim_material(p)];
        if (named)
            CHECK(rc_prim_material(p) == 0 && m->type == RC_MAT_LAMBERTIAN, "the scene's material");
        else
            CHECK(m->type == RC_MAT_PBR && close3(m->emission, 1.0f, 0.5f, 0.0f) &&
                      close3(m->color, 1, 1, 1) && m->metallic == 1.0f,
                  "the file's material: type %u", m->type);
        rc_scene_free(&s);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_scene_import DIR\n");
        return 2;
    }
    material_map();
    add_import();
    textured_import();
    obj_scene(argv[1]);
    textured_gltf(argv[1]);
    json_mesh(argv[1]);
    return test_finish("test_scene_import");
}
