/* test_scene_import.c: model files as scenes (scene_import.c), on imports built by hand.
 *   - the material map: each rule of rc_import_material_map on its own, a base-colour texture
 *     counted by its mean colour worked out by hand (sRGB decoded);
 *   - rc_scene_add_import: triangles placed, zero-area ones dropped and counted, vertex data
 *     kept per vertex, the file's materials appended or the caller's used, and a budget too
 *     small refused in one line before anything is added;
 *   - an OBJ file as a whole scene: a framing camera that sees it, the default material. */
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
    m.ior = 1.5f;
    m.base_color_tex.texture = m.emissive_tex.texture = m.normal_tex.texture = -1;
    m.metallic_roughness_tex.texture = m.transmission_tex.texture = -1;
    return m;
}

static int close3(rc_vec3 a, float x, float y, float z) {
    return fabsf(a.x - x) < 1e-5f && fabsf(a.y - y) < 1e-5f && fabsf(a.z - z) < 1e-5f;
}

static void material_map(void) {
    rc_import im;
    memset(&im, 0, sizeof im);
    /* a 2x1 texture: sRGB 255 and 0 in red, 128 and 128 in green, 0 and 0 in blue */
    uint8_t px[8] = {255, 128, 0, 255, 0, 128, 0, 255};
    rc_import_image img = {2, 1, px};
    rc_import_texture tex = {0, {0, 0, 0, 0}};
    im.images = &img;
    im.num_images = 1;
    im.textures = &tex;
    im.num_textures = 1;
    double g128 = pow((128.0 / 255.0 + 0.055) / 1.055, 2.4);

    rc_import_material m = plain(0.5f, 0.25f, 1.0f);
    rc_material r = rc_import_material_map(&im, &m);
    CHECK(r.type == RC_MAT_LAMBERTIAN && close3(r.color, 0.5f, 0.25f, 1.0f), "plain: type %u",
          r.type);
    m.base_color_tex.texture = 0;
    r = rc_import_material_map(&im, &m);
    CHECK(r.type == RC_MAT_LAMBERTIAN && close3(r.color, 0.25f, (float)(0.25 * g128), 0.0f),
          "textured: (%g %g %g)", r.color.x, r.color.y, r.color.z);
    m = plain(0.9f, 0.8f, 0.7f);
    m.metallic = 1.0f;
    m.roughness = 0.5f;
    r = rc_import_material_map(&im, &m);
    CHECK(r.type == RC_MAT_METAL && fabsf(r.param - 0.25f) < 1e-6f &&
              close3(r.color, 0.9f, 0.8f, 0.7f),
          "metal: type %u fuzz %g", r.type, r.param);
    m.transmission = 1.0f;
    m.ior = 1.33f;
    r = rc_import_material_map(&im, &m);
    CHECK(r.type == RC_MAT_DIELECTRIC && fabsf(r.param - 1.33f) < 1e-6f, "glass: type %u ior %g",
          r.type, r.param);
    m.emissive[0] = 1.0f, m.emissive[1] = 0.5f;
    m.emissive_strength = 4.0f;
    r = rc_import_material_map(&im, &m);
    CHECK(r.type == RC_MAT_EMISSIVE && close3(r.color, 4.0f, 2.0f, 0.0f), "emitter: type %u",
          r.type);
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
    CHECK(s.num_materials == 3 && rc_prim_material(&s.prims[2]) == 2 &&
              rc_prim_material(&s.prims[0]) == 1,
          "the file's materials appended after the scene's own");
    CHECK(s.has_normals && s.has_uvs && s.uvs[2 * 2] == 1.0f, "vertex data");
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    rc_scene_free(&s);

    rc_scene_init(&s);
    rc_scene_add_material(&s, &own);
    CHECK(rc_scene_add_import(&s, &im, NULL, 0, 1 << 20, "two.glb", &err) == 0, "%s", err.msg);
    CHECK(s.num_materials == 1 && rc_prim_material(&s.prims[2]) == 0, "the caller's material");
    rc_scene_free(&s);

    rc_scene_init(&s);
    int rc = rc_scene_add_import(&s, &im, NULL, -1, 100, "two.glb", &err);
    CHECK(rc != 0 && strstr(err.msg, "two.glb: 4 triangles and 8 vertices would take") &&
              strstr(err.msg, "--max-memory") && s.num_prims == 0 && s.num_materials == 0,
          "budget: '%s'", err.msg);
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
        const rc_prim *p = &s.prims[0];
        CHECK(close3(p->p, 0, 0, -3) && close3(p->a, 2, 0, 0) && close3(p->b, 0, 2, 0),
              "placement: corner (%g %g %g)", p->p.x, p->p.y, p->p.z);
        const rc_material *m = &s.materials[rc_prim_material(p)];
        if (named)
            CHECK(rc_prim_material(p) == 0 && m->type == RC_MAT_LAMBERTIAN, "the scene's material");
        else
            CHECK(m->type == RC_MAT_EMISSIVE && close3(m->color, 1.0f, 0.5f, 0.0f),
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
    obj_scene(argv[1]);
    json_mesh(argv[1]);
    return test_finish("test_scene_import");
}
