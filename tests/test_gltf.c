/* test_gltf.c: the glTF reader (scene/gltf.h) on files the test writes itself: JSON with
 * base64 buffers, .glb byte arrays, an external .bin, a node hierarchy checked against world
 * positions worked out by hand, strips and fans, sparse accessors, materials, an image; then a
 * table of broken files, each with the one-line error it must give, and corruptions of a valid
 * .glb that must never crash the reader. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "scene/gltf.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TEST_COUNTERS;

#include "gltf_build.h"

/* ---- files that load ---- */

static void triangle(void) {
    bin b = {{0}, 0};
    put(&b, k_tri, sizeof k_tri);
    char *json = doc(&b, TRI_ACC TRI_MESH ",\"nodes\":[{\"mesh\":0}]");
    rc_import im;
    rc_error err;
    int rc = parse_json(json, &im, &err);
    CHECK(rc == 0, "triangle: %s", err.msg);
    if (rc == 0) {
        CHECK(im.num_parts == 1 && im.num_triangles == 1 && im.num_vertices == 3,
              "triangle: %zu parts %zu triangles", im.num_parts, im.num_triangles);
        const rc_import_part *p = &im.parts[0];
        CHECK(memcmp(p->positions, k_tri, sizeof k_tri) == 0, "triangle: positions");
        CHECK(p->indices[0] == 0 && p->indices[1] == 1 && p->indices[2] == 2, "triangle: indices");
        CHECK(!p->normals && !p->tangents && !p->uv1 && !p->colors && p->uv0 && !p->has_uv0,
              "triangle: optional attributes");
        CHECK(im.num_materials == 1 && im.materials[0].is_default && p->material == 0 &&
                  im.materials[0].base_color[0] == 1.0f && im.materials[0].roughness == 1.0f,
              "triangle: the default material");
        CHECK(!im.camera.present, "triangle: no camera");
        CHECK(vec_is(im.bounds_min, 0, 0, 0) && vec_is(im.bounds_max, 1, 1, 0), "triangle: bounds");
        rc_import_camera cam;
        rc_import_frame(&im, 40.0f, 1.5f, &cam);
        CHECK(cam.present && vec_is(cam.look_at, 0.5f, 0.5f, 0) && cam.look_from[2] > 1.0f &&
                  near(cam.look_from[0], 0.5f),
              "frame: look at the centre from +z");
        /* the bounding sphere (radius 0.707) fits the 40 degree field of view */
        float d = cam.look_from[2];
        CHECK(near(d, 0.70710678f / sinf(20.0f * 3.14159265f / 180.0f)), "frame: distance %g", d);
        CHECK(im.bytes > 0, "triangle: bytes counted");
        rc_import_free(&im);
    }
    /* the same as a .glb, the buffer in the BIN chunk */
    char *gj = fmt("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":36}]%s%s%s}",
                   TRI_ACC, TRI_MESH, ",\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]");
    size_t gl;
    uint8_t *g = glb(gj, &b, &gl);
    rc = parse("t.glb", NULL, g, gl, 0, &im, &err);
    CHECK(rc == 0 && im.num_triangles == 1 &&
              memcmp(im.parts[0].positions, k_tri, sizeof k_tri) == 0,
          "glb triangle: %s", rc ? err.msg : "wrong content");
    if (rc == 0) rc_import_free(&im);
    free(g);
    free(gj);
    free(json);
}

static void quad(void) {
    bin b = {{0}, 0};
    const float pos[12] = {0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0};
    const float nrm[12] = {0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 1}; /* the first not unit length */
    const float uv[8] = {0, 0, 1, 0, 1, 1, 0, 1};
    const uint16_t idx[6] = {0, 1, 2, 0, 2, 3};
    const uint8_t col[12] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255};
    size_t o_p = put(&b, pos, sizeof pos), o_n = put(&b, nrm, sizeof nrm);
    size_t o_u = put(&b, uv, sizeof uv), o_i = put(&b, idx, sizeof idx);
    size_t o_c = put(&b, col, sizeof col);
    char *rest = fmt(
        ",\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":%zu,"
        "\"byteLength\":32},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
        "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"VEC2\"},"
        "{\"bufferView\":3,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
        "{\"bufferView\":4,\"componentType\":5121,\"normalized\":true,\"count\":4,"
        "\"type\":\"VEC3\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,"
        "\"TEXCOORD_0\":2,\"COLOR_0\":4},\"indices\":3,\"material\":0}]}],"
        "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.25,1,1],"
        "\"metallicFactor\":0.2}}],\"nodes\":[{\"mesh\":0}]",
        o_p, o_n, o_u, o_i, o_c);
    char *json = doc(&b, rest);
    rc_import im;
    rc_error err;
    int rc = parse_json(json, &im, &err);
    CHECK(rc == 0, "quad: %s", err.msg);
    if (rc == 0) {
        const rc_import_part *p = &im.parts[0];
        CHECK(im.num_triangles == 2 && p->num_vertices == 4, "quad: %zu triangles",
              im.num_triangles);
        CHECK(memcmp(p->indices, (uint32_t[]){0, 1, 2, 0, 2, 3}, 24) == 0, "quad: indices");
        CHECK(p->has_uv0 && memcmp(p->uv0, uv, sizeof uv) == 0, "quad: uvs");
        CHECK(p->normals && vec_is(p->normals, 0, 0, 1) && vec_is(p->normals + 9, 0, 0, 1),
              "quad: normals unit length");
        CHECK(p->colors && near(p->colors[0], 1) && p->colors[1] == 0 && p->colors[3] == 1 &&
                  near(p->colors[13], 1),
              "quad: COLOR_0 of normalized bytes, alpha 1");
        CHECK(im.num_materials == 1 && p->material == 0 &&
                  near(im.materials[0].base_color[1], 0.25f) &&
                  near(im.materials[0].metallic, 0.2f) && im.materials[0].roughness == 1.0f,
              "quad: material");
        rc_import_free(&im);
    }
    free(json);
    free(rest);
}

/* parent: T (1 2 3), S 2; child: T (1 0 0), R 90 degrees about z; the triangle on the child.
 * (1 0 0) -> R (0 1 0) -> T (1 1 0) -> S (2 2 0) -> T (3 4 3); (0 1 0) -> (1 2 3);
 * (0 0 1) -> (3 2 5). A second use of the mesh by a node mirrored in x flips the winding. */
static void hierarchy(void) {
    bin b = {{0}, 0};
    const float pos[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const float nrm[9] = {1, 0, 0, 1, 0, 0, 0, 0, 1};
    put(&b, pos, sizeof pos);
    put(&b, nrm, sizeof nrm);
    const char *rest =
        ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
        "\"byteLength\":36}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
        "\"type\":\"VEC3\"},{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":"
        "\"VEC3\"}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1}}]}],"
        "\"nodes\":[{\"translation\":[1,2,3],\"scale\":[2,2,2],\"children\":[1]},"
        "{\"translation\":[1,0,0],\"rotation\":[0,0,0.70710678,0.70710678],\"mesh\":0},"
        "{\"matrix\":[-1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1],\"mesh\":0}],"
        "\"scenes\":[{\"nodes\":[2]},{\"nodes\":[0,2]}],\"scene\":1";
    char *json = doc(&b, rest);
    rc_import im;
    rc_error err;
    int rc = parse_json(json, &im, &err);
    CHECK(rc == 0, "hierarchy: %s", err.msg);
    if (rc == 0) {
        CHECK(im.num_parts == 2 && im.num_instances == 2, "hierarchy: %zu parts, %zu instances",
              im.num_parts, im.num_instances);
        const rc_import_part *p = &im.parts[0];
        CHECK(vec_is(p->positions, 3, 4, 3) && vec_is(p->positions + 3, 1, 2, 3) &&
                  vec_is(p->positions + 6, 3, 2, 5),
              "hierarchy: world positions (%g %g %g)", p->positions[0], p->positions[1],
              p->positions[2]);
        /* normal (1 0 0) turns with R to (0 1 0); uniform scale keeps it */
        CHECK(vec_is(p->normals, 0, 1, 0) && vec_is(p->normals + 6, 0, 0, 1), "hierarchy: normals");
        CHECK(p->indices[1] == 1 && p->indices[2] == 2, "hierarchy: winding kept");
        const rc_import_instance *in = &im.instances[0];
        CHECK(in->mesh == 0 && in->node == 1 && in->first_part == 0 && in->num_parts == 1 &&
                  near(in->world[12], 3) && near(in->world[13], 2) && near(in->world[14], 3),
              "hierarchy: the instance's transform");
        const rc_import_part *q = &im.parts[1];
        CHECK(q->instance == 1 && im.instances[1].node == 2 && vec_is(q->positions, -1, 0, 0),
              "hierarchy: the mirrored use");
        CHECK(q->indices[0] == 0 && q->indices[1] == 2 && q->indices[2] == 1,
              "hierarchy: mirrored winding flipped");
        CHECK(vec_is(q->normals, -1, 0, 0), "hierarchy: mirrored normal");
        rc_import_free(&im);
    }
    free(json);
}

static void strip_fan(void) {
    bin b = {{0}, 0};
    const float pos[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0};
    put(&b, pos, sizeof pos);
    const char *rest =
        ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":60}],\"accessors\":[{\"bufferView\":0,"
        "\"componentType\":5126,\"count\":5,\"type\":\"VEC3\"},{\"bufferView\":0,"
        "\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":1},\"mode\":5},"
        "{\"attributes\":{\"POSITION\":0},\"mode\":6},{\"attributes\":{\"POSITION\":0},"
        "\"mode\":1}]}],\"nodes\":[{\"mesh\":0}]";
    char *json = doc(&b, rest);
    rc_import im;
    rc_error err;
    g_notices = 0;
    int rc = parse_json(json, &im, &err);
    CHECK(rc == 0, "strip/fan: %s", err.msg);
    if (rc == 0) {
        CHECK(im.num_parts == 2 && im.parts[0].num_triangles == 2 && im.parts[1].num_triangles == 3,
              "strip/fan: triangle counts");
        /* strip (glTF's order): (0 1 2), (1 3 2); fan: (1 2 0), (2 3 0), (3 4 0) */
        CHECK(memcmp(im.parts[0].indices, (uint32_t[]){0, 1, 2, 1, 3, 2}, 24) == 0,
              "strip: indices");
        CHECK(memcmp(im.parts[1].indices, (uint32_t[]){1, 2, 0, 2, 3, 0, 3, 4, 0}, 36) == 0,
              "fan: indices");
        CHECK(im.num_skipped_primitives == 1 && g_notices == 1, "lines: skipped with a notice");
        rc_import_free(&im);
    }
    free(json);
}

static void sparse(void) {
    bin b = {{0}, 0};
    const uint8_t si[2] = {1, 2};
    const float sv[6] = {1, 0, 0, 0, 1, 0};
    put(&b, si, sizeof si);
    put(&b, sv, sizeof sv);
    const char *rest =
        ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":2},{\"buffer\":0,\"byteOffset\":4,"
        "\"byteLength\":24}],\"accessors\":[{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":0,\"componentType\":5121},"
        "\"values\":{\"bufferView\":1}}}],\"meshes\":[{\"primitives\":[{\"attributes\":"
        "{\"POSITION\":0}}]}],\"nodes\":[{\"mesh\":0}]";
    char *json = doc(&b, rest);
    rc_import im;
    rc_error err;
    int rc = parse_json(json, &im, &err);
    CHECK(rc == 0 && memcmp(im.parts[0].positions, k_tri, sizeof k_tri) == 0, "sparse: %s",
          rc ? err.msg : "wrong values");
    if (rc == 0) rc_import_free(&im);
    free(json);
}

static void materials_camera_image(void) {
    const uint8_t *png = k_png;
    bin b = {{0}, 0};
    put(&b, k_tri, sizeof k_tri);
    size_t o_png = put(&b, png, sizeof k_png);
    char *png64 = b64(png, sizeof k_png);
    char *rest = fmt(
        ",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,"
        "\"byteLength\":72}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
        "\"type\":\"VEC3\"}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},"
        "\"material\":0}]}],\"images\":[{\"bufferView\":1,\"mimeType\":\"image/png\"},"
        "{\"uri\":\"data:image/png;base64,%s\"}],\"samplers\":[{\"magFilter\":9728,"
        "\"minFilter\":9987,\"wrapS\":33071}],\"textures\":[{\"source\":1,\"sampler\":0},"
        "{\"source\":0}],\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":"
        "{\"index\":0,\"texCoord\":1,\"extensions\":{\"KHR_texture_transform\":{\"offset\":"
        "[0.5,0],\"rotation\":1.5,\"scale\":[2,3],\"texCoord\":0}}},\"metallicRoughnessTexture\":"
        "{\"index\":1}},\"normalTexture\":{\"index\":1,\"scale\":0.5},\"emissiveFactor\":[1,0.5,0],"
        "\"alphaMode\":\"BLEND\",\"doubleSided\":true,\"extensions\":{"
        "\"KHR_materials_emissive_strength\":{\"emissiveStrength\":4},"
        "\"KHR_materials_transmission\":{\"transmissionFactor\":0.75},\"KHR_materials_ior\":"
        "{\"ior\":1.33}}}],\"extensionsUsed\":[\"KHR_texture_transform\"],\"extensionsRequired\":"
        "[\"KHR_texture_transform\"],\"cameras\":[{\"type\":\"perspective\",\"perspective\":"
        "{\"yfov\":0.5,\"znear\":0.1,\"aspectRatio\":1.5}}],\"nodes\":[{\"mesh\":0},"
        "{\"camera\":0,\"translation\":[0,0,5]}]",
        o_png, png64);
    char *json = doc(&b, rest);
    rc_import im;
    rc_error err;
    int rc = parse_json(json, &im, &err);
    CHECK(rc == 0, "materials: %s", err.msg);
    if (rc == 0) {
        const rc_import_material *m = &im.materials[0];
        CHECK(im.num_materials == 1 && !m->is_default, "materials: no default needed");
        CHECK(m->base_color_tex.texture == 0 && m->base_color_tex.texcoord == 0 &&
                  m->base_color_tex.offset[0] == 0.5f && m->base_color_tex.rotation == 1.5f &&
                  m->base_color_tex.scale[1] == 3.0f,
              "materials: texture transform with its texCoord override");
        CHECK(m->metallic_roughness_tex.texture == 1 && m->metallic_roughness_tex.scale[0] == 1,
              "materials: metallicRoughnessTexture");
        CHECK(m->normal_tex.texture == 1 && m->normal_scale == 0.5f, "materials: normal");
        CHECK(m->emissive[1] == 0.5f && m->emissive_strength == 4.0f, "materials: emission");
        CHECK(m->alpha_mode == RC_IMPORT_ALPHA_BLEND && m->alpha_cutoff == 0.5f && m->double_sided,
              "materials: BLEND");
        CHECK(m->transmission == 0.75f && near(m->ior, 1.33f), "materials: transmission, ior");
        CHECK(im.num_textures == 2 && im.textures[0].image == 1 &&
                  im.textures[0].sampler.mag_filter == 9728 &&
                  im.textures[0].sampler.wrap_s == 33071 &&
                  im.textures[0].sampler.wrap_t == 10497 && im.textures[1].sampler.wrap_s == 10497,
              "textures and samplers");
        CHECK(im.num_images == 2, "images: %zu", im.num_images);
        for (size_t i = 0; i < im.num_images && i < 2; i++) {
            const rc_import_image *g = &im.images[i];
            CHECK(g->width == 2 && g->height == 1 && g->rgba[0] == 255 && g->rgba[1] == 0 &&
                      g->rgba[5] == 255 && g->rgba[7] == 128,
                  "images[%zu]: decoded RGBA", i);
        }
        const rc_import_camera *c = &im.camera;
        CHECK(c->present && c->node == 1 && vec_is(c->look_from, 0, 0, 5) &&
                  vec_is(c->look_at, 0, 0, 4) && vec_is(c->up, 0, 1, 0) &&
                  near(c->vfov, 0.5f * 180.0f / 3.14159265f) && c->aspect == 1.5f,
              "camera");
        rc_import_free(&im);
    }
    free(json);
    free(rest);
    free(png64);
}

/* An external buffer in a temporary folder, its name percent-encoded; a FIFO is refused at
 * once (opened without blocking). */
static void external(const char *tmp) {
    char path[600];
    snprintf(path, sizeof path, "%s/my mesh.bin", tmp);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fwrite(k_tri, 1, sizeof k_tri, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/fifo.bin", tmp);
    CHECK(mkfifo(path, 0600) == 0, "mkfifo %s", path);
    const char *fmt_json =
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":36,\"uri\":\"%s\"}]" TRI_ACC
            TRI_MESH ",\"nodes\":[{\"mesh\":0}]%s}";
    char *json = fmt(fmt_json, "my%20mesh.bin", "");
    rc_import im;
    rc_error err;
    int rc = parse("t.gltf", tmp, json, strlen(json), 0, &im, &err);
    CHECK(rc == 0 && memcmp(im.parts[0].positions, k_tri, sizeof k_tri) == 0, "external: %s",
          rc ? err.msg : "wrong content");
    if (rc == 0) rc_import_free(&im);
    free(json);
    /* and the same through rc_gltf_load, which resolves against the file's folder */
    json = fmt(fmt_json, "my%20mesh.bin", "");
    snprintf(path, sizeof path, "%s/scene.gltf", tmp);
    f = fopen(path, "wb");
    if (f) {
        fputs(json, f);
        fclose(f);
    }
    rc = rc_gltf_load(path, NULL, &im, &err);
    CHECK(rc == 0 && im.num_triangles == 1, "rc_gltf_load: %s", rc ? err.msg : "no triangle");
    if (rc == 0) rc_import_free(&im);
    free(json);
    struct {
        const char *uri, *images, *want;
    } bad[] = {
        {"fifo.bin", "", "buffers[0]: 'fifo.bin' is not a regular file"},
        {"my%20mesh.bin", ",\"images\":[{\"uri\":\"fifo.bin\"}]",
         "images[0]: 'fifo.bin' is not a regular file"},
        {"nosuch.bin", "", "buffers[0]: cannot open 'nosuch.bin': No such file or directory"},
        {"../my%20mesh.bin", "", "paths leaving the file's directory are refused"},
        {"/etc/passwd", "", "absolute paths are refused"},
        {"http://example.com/a.bin", "", "only relative file paths and data: URIs are read"},
        {"a%2", "", "bad percent escape"},
        {"a%00b", "", "NUL byte in the path"},
        {".", "", "'.' is not a regular file"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json = fmt(fmt_json, bad[i].uri, bad[i].images);
        rc = parse("t.gltf", tmp, json, strlen(json), 0, &im, &err);
        CHECK(rc != 0 && strstr(err.msg, bad[i].want), "external %s: got '%s', want '%s'",
              bad[i].uri, rc ? err.msg : "(loaded)", bad[i].want);
        if (rc == 0) rc_import_free(&im);
        free(json);
    }
    /* no folder given: no external file is read */
    json = fmt(fmt_json, "my%20mesh.bin", "");
    rc = parse("t.gltf", NULL, json, strlen(json), 0, &im, &err);
    CHECK(rc != 0 && strstr(err.msg, "external files are not read here"), "no dir: %s", err.msg);
    free(json);
}

/* ---- broken files ---- */

typedef struct bad_case {
    const char *rest; /* after the data: buffer of the standard triangle (+ room) */
    const char *want;
} bad_case;

#define NODE ",\"nodes\":[{\"mesh\":0}]"
static const bad_case k_bad[] = {
    {TRI_ACC TRI_MESH NODE, NULL},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":24}],\"accessors\":[{\"bufferView\":0,"
     "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]" TRI_MESH NODE,
     "t.gltf: accessors[0]: byteOffset 0 + 3 x 12 bytes runs past bufferViews[0] (24 bytes)"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":48,\"byteStride\":16}],\"accessors\":"
     "[{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]",
     "t.gltf: accessors[0]: byteOffset 8 + 3 x 12 bytes at a stride of 16 runs past "
     "bufferViews[0] (48 bytes)"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteOffset\":40,\"byteLength\":36}]",
     "t.gltf: bufferViews[0]: byteOffset 40 + byteLength 36 runs past buffers[0] (48 bytes)"},
    {",\"bufferViews\":[{\"buffer\":1,\"byteLength\":36}]",
     "t.gltf: bufferViews[0].buffer: buffers[1] does not exist (1 in the file)"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36,\"byteStride\":6}]",
     "bufferViews[0]: byteStride 6 is not a multiple of 4"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],\"accessors\":[{\"bufferView\":0,"
     "\"componentType\":5124,\"count\":3,\"type\":\"VEC3\"}]",
     "t.gltf: accessors[0].componentType: 5124 is not a component type"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],\"accessors\":[{\"bufferView\":0,"
     "\"componentType\":5126,\"count\":3,\"type\":\"VEC5\"}]",
     "accessors[0].type: 'VEC5' is not one of"},
    {TRI_ACC ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":1}}]}]",
     "meshes[0].primitives[0].attributes.POSITION: expected an index into accessors (1 in the "
     "file)"},
    {TRI_ACC ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"NORMAL\":0}}]}]",
     "meshes[0].primitives[0].attributes: POSITION: missing"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],\"accessors\":[{\"bufferView\":0,"
     "\"componentType\":5126,\"count\":9,\"type\":\"SCALAR\"}]" TRI_MESH,
     "POSITION: accessors[0] is not VEC3 of FLOAT"},
    /* indices: the bytes 0 0 0 0 128 63 of the first floats at 10: 0, 0, 16256 */
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],\"accessors\":[{\"bufferView\":0,"
     "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},{\"bufferView\":0,\"byteOffset\":10,"
     "\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}],\"meshes\":[{\"primitives\":"
     "[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}]" NODE,
     "t.gltf: accessors[1]: index 16256 (element 2) is not below the vertex count 3 of "
     "meshes[0].primitives[0]"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],\"accessors\":[{\"bufferView\":0,"
     "\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},{\"bufferView\":0,"
     "\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"}],\"meshes\":[{\"primitives\":"
     "[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}]",
     "indices: accessors[1] is not a SCALAR of UNSIGNED_BYTE"},
    {TRI_ACC ",\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":7}]}]",
     "meshes[0].primitives[0].mode: expected an integer in [0, 6]"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":24}],\"accessors\":[{\"bufferView\":0,"
     "\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}]" TRI_MESH,
     "meshes[0].primitives[0]: 2 vertices is not a multiple of 3 (TRIANGLES)"},
    {TRI_ACC TRI_MESH ",\"nodes\":[{\"children\":[1]},{\"children\":[0],\"mesh\":0}]",
     "t.gltf: nodes[0]: is in a cycle of children (glTF nodes form a forest)"},
    {TRI_ACC TRI_MESH ",\"nodes\":[{\"children\":[0]}]",
     "nodes[0]: is its own child (the node hierarchy has a cycle)"},
    {TRI_ACC TRI_MESH ",\"nodes\":[{\"children\":[2]},{\"children\":[2]},{\"mesh\":0}]",
     "nodes[2]: has two parents, nodes[0] and nodes[1] (glTF nodes form a forest)"},
    {TRI_ACC TRI_MESH ",\"nodes\":[{\"mesh\":0,\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"
                      "\"scale\":[1,1,1]}]",
     "nodes[0]: has both a matrix and translation/rotation/scale"},
    {TRI_ACC TRI_MESH ",\"nodes\":[{\"mesh\":0,\"translation\":[1,1e999,0]}]",
     "nodes[0].translation: element 1 is not a finite number"},
    {TRI_ACC TRI_MESH ",\"nodes\":[{\"scale\":[1e30,1,1],\"children\":[1]},"
                      "{\"scale\":[1e30,1,1],\"mesh\":0}]",
     "nodes[1]: its transform makes POSITION of meshes[0].primitives[0] not finite"},
    {TRI_ACC TRI_MESH NODE ",\"extensionsRequired\":[\"KHR_draco_mesh_compression\"]",
     "t.gltf: extensionsRequired[0]: the file requires KHR_draco_mesh_compression, which this "
     "reader does not support"},
    {TRI_ACC TRI_MESH NODE ",\"extensionsRequired\":[\"EXT_meshopt_compression\"]",
     "requires EXT_meshopt_compression"},
    {TRI_ACC TRI_MESH NODE ",\"scene\":0",
     "t.gltf: scene: scenes[0] does not exist (0 in the file)"},
    {TRI_ACC TRI_MESH NODE ",\"scenes\":[{\"nodes\":[0,0]}]",
     "scenes[0].nodes: lists nodes[0] twice"},
    {TRI_ACC TRI_MESH ",\"nodes\":[{\"children\":[1]},{\"mesh\":0}],\"scenes\":[{\"nodes\":[1]}]",
     "scenes[0].nodes: nodes[1] is not a root (it is a child of nodes[0])"},
    {TRI_ACC ",\"materials\":[{\"alphaMode\":\"CLEAR\"}]",
     "materials[0].alphaMode: 'CLEAR' is not OPAQUE, MASK or BLEND"},
    {TRI_ACC ",\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}]",
     "materials[0].pbrMetallicRoughness.baseColorTexture.index: textures[0] does not exist"},
    {TRI_ACC ",\"materials\":[{\"pbrMetallicRoughness\":{\"metallicFactor\":2}}]",
     "materials[0].pbrMetallicRoughness.metallicFactor: expected a number in [0, 1]"},
    {TRI_ACC ",\"samplers\":[{\"wrapS\":1234}]",
     "samplers[0].wrapS: 1234 is not 33071 (CLAMP_TO_EDGE), 33648 (MIRRORED_REPEAT) or 10497"},
    {TRI_ACC ",\"samplers\":[{\"magFilter\":9986}]", "samplers[0].magFilter: 9986 is not 9728"},
    {TRI_ACC ",\"images\":[{\"uri\":\"data:image/gif;base64,R0lG\"}]",
     "images[0]: data: URI of media type 'image/gif' is not read"},
    {TRI_ACC ",\"images\":[{\"uri\":\"data:image/png;base64,AAAA\"}]",
     "images[0]: not a PNG or JPEG image"},
    {TRI_ACC ",\"images\":[{\"uri\":\"data:image/png;base64,AA*A\"}]",
     "images[0]: invalid base64 data (byte 2)"},
    {TRI_ACC ",\"cameras\":[{\"type\":\"perspective\",\"perspective\":{\"znear\":1}}]",
     "cameras[0].perspective: yfov missing"},
    {TRI_ACC ",\"skins\":[{}],\"nodes\":[{\"skin\":1}]",
     "nodes[0].skin: skins[1] does not exist (1 in the file)"},
    /* sparse: indices out of order, past the count */
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":2},{\"buffer\":0,\"byteOffset\":4,"
     "\"byteLength\":24}],\"accessors\":[{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
     "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":0,\"componentType\":5121},\"values\":"
     "{\"bufferView\":1}}}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]" NODE,
     "accessors[0]: sparse index 0 (entry 1) is not above the one before"},
    {",\"bufferViews\":[{\"buffer\":0,\"byteLength\":2}],\"accessors\":[{\"componentType\":5126,"
     "\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":0,"
     "\"componentType\":5121},\"values\":{\"bufferView\":0}}}]",
     "accessors[0].sparse.values: byteOffset 0 + 2 x 12 bytes runs past bufferViews[0] (2 bytes)"},
    /* no bufferView: zeros, a billion of them are over the limit of the test (64 MiB) */
    {",\"accessors\":[{\"componentType\":5126,\"count\":1000000000,\"type\":\"VEC3\"}],"
     "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":5}]}]" NODE,
     "t.gltf: meshes: the scene has 999999998 triangles, more than 268435456"},
    {",\"accessors\":[{\"componentType\":5126,\"count\":3000000,\"type\":\"VEC3\"}],"
     "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]" NODE,
     "more than the memory limit of 64 MiB allows"},
};

static void bad_files(void) {
    bin b = {{0}, 0};
    float room[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
    put(&b, room, sizeof room);
    for (size_t i = 0; i < sizeof k_bad / sizeof *k_bad; i++) {
        const bad_case *c = &k_bad[i];
        char *json = doc(&b, c->rest);
        rc_import im;
        rc_error err;
        int rc = parse("t.gltf", NULL, json, strlen(json), 64, &im, &err);
        if (!c->want) {
            CHECK(rc == 0, "case %zu: %s", i, err.msg);
        } else {
            CHECK(rc != 0 && strstr(err.msg, c->want), "case %zu: got '%s', want '%s'", i,
                  rc ? err.msg : "(loaded)", c->want);
            CHECK(im.parts == NULL && im.num_parts == 0 && im.materials == NULL,
                  "case %zu: not empty", i);
        }
        if (rc == 0) rc_import_free(&im);
        free(json);
    }
    /* whole-document errors */
    struct {
        const char *json, *want;
    } docs[] = {
        {"{\"asset\":{\"version\":\"1.0\"}}", "t.gltf: asset.version: '1.0' is not 2.x"},
        {"{\"asset\":{\"version\":\"2.0\",\"minVersion\":\"2.1\"}}", "asset.minVersion: '2.1'"},
        {"{}", "t.gltf: asset: missing"},
        {"[1]", "t.gltf: the glTF JSON must be an object"},
        {"{\"asset\":{\"version\":\"2.0\"}", "t.gltf:1:26: invalid JSON"},
        {"{\"asset\":{\"version\":\"2.0\"}} x", "text after the JSON value at byte 28"},
        {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":{}}", "t.gltf: nodes: expected an array"},
        {"{\"asset\":{\"version\":\"2.0\"},\"nodes\":[1]}", "t.gltf: nodes[0]: expected an object"},
        {"{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"name\":42}]}",
         "scenes[0].name: expected a string"},
        {"{\"asset\":{\"version\":\"2.0\"},\"scene\":\"hello\"}",
         "scene: expected an integer in [0,"},
        {"{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4}]}",
         "buffers[0]: no uri, and it is not the first buffer of a .glb with a BIN chunk"},
        {"{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":"
         "\"data:application/octet-stream;base64,AAA=\"}]}",
         "buffers[0]: byteLength 4, but the data has only 2 bytes"},
        {"{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,\"uri\":"
         "\"data:application/octet-stream,AAAA\"}]}",
         "a data: URI must be base64"},
        {"{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{}]}", NULL},
    };
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
        rc_import im;
        rc_error err;
        int rc = parse_json(docs[i].json, &im, &err);
        if (!docs[i].want)
            CHECK(rc == 0 && im.num_triangles == 0, "doc %zu: %s", i, err.msg);
        else
            CHECK(rc != 0 && strstr(err.msg, docs[i].want), "doc %zu: got '%s', want '%s'", i,
                  rc ? err.msg : "(loaded)", docs[i].want);
        if (rc == 0) rc_import_free(&im);
    }
}

static void bad_glb(void) {
    bin b = {{0}, 0};
    put(&b, k_tri, sizeof k_tri);
    char *gj = fmt("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":36}]%s%s%s}",
                   TRI_ACC, TRI_MESH, NODE);
    size_t gl;
    uint8_t *g = glb(gj, &b, &gl);
    uint8_t *w = malloc(gl);
    rc_import im;
    rc_error err;
    struct {
        size_t at, len; /* a 32-bit word at `at` (or nothing), and the length given */
        uint32_t word;
        const char *want;
    } cases[] = {
        {0, 0, 0x54546C67u, "t.glb: not a .glb file: it does not start with 'glTF'"},
        {4, 0, 1, "t.glb: glb version 1 (only 2 is read)"},
        {SIZE_MAX, 60, 0, "t.glb: the glb header's length"},
        {8, 0, 4000, "the glb header's length 4000 is not the file's size"},
        {12, 0, 4000, "glb chunk at byte 12: length 4000 runs past the end of the file"},
        {12, 0, 0xFFFFFFF0u, "glb chunk at byte 12: length 4294967280 runs past the end"},
        {16, 0, 0x004E4942u, "the first glb chunk is not JSON"},
        {SIZE_MAX, 8, 0, "a .glb needs a 12-byte header (the file has 8 bytes)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(w, g, gl);
        size_t n = cases[i].len ? cases[i].len : gl;
        if (cases[i].at != SIZE_MAX) memcpy(w + cases[i].at, &cases[i].word, 4);
        int rc = parse("t.glb", NULL, w, n, 0, &im, &err);
        CHECK(rc != 0 && strstr(err.msg, cases[i].want), "glb %zu: got '%s', want '%s'", i,
              rc ? err.msg : "(loaded)", cases[i].want);
        if (rc == 0) rc_import_free(&im);
    }
    /* a NaN in the BIN chunk */
    memcpy(w, g, gl);
    uint32_t nan_bits = 0x7FC00000u;
    size_t json_len;
    memcpy(&json_len, g + 12, 4);
    json_len &= 0xFFFFFFFFu;
    memcpy(w + 20 + json_len + 8 + 16, &nan_bits, 4);
    int rc = parse("t.glb", NULL, w, gl, 0, &im, &err);
    CHECK(rc != 0 && strcmp(err.msg, "t.glb: accessors[0]: element 1 (POSITION of "
                                     "meshes[0].primitives[0]) is not finite") == 0,
          "glb NaN: %s", rc ? err.msg : "(loaded)");
    /* random corruptions never crash it, and an error is one printable line */
    uint64_t s = 12345;
    size_t loaded = 0;
    for (int k = 0; k < 20000; k++) {
        memcpy(w, g, gl);
        int flips = 1 + k % 4;
        for (int f = 0; f < flips; f++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            w[(s >> 33) % gl] = (uint8_t)(s >> 20);
        }
        size_t n = k % 7 == 0 ? (size_t)((s >> 40) % gl) : gl;
        rc = parse("t.glb", NULL, w, n, 16, &im, &err);
        if (rc == 0) {
            loaded++;
            for (size_t p = 0; p < im.num_parts; p++)
                for (size_t t = 0; t < 3 * im.parts[p].num_triangles; t++)
                    if (im.parts[p].indices[t] >= im.parts[p].num_vertices) {
                        CHECK(0, "corruption %d: index out of range", k);
                        break;
                    }
            rc_import_free(&im);
        } else {
            int ok = err.msg[0] != '\0';
            for (const char *q = err.msg; *q; q++) ok &= *q >= 0x20 && *q < 0x7f;
            if (!ok) CHECK(0, "corruption %d: bad message '%s'", k, err.msg);
        }
    }
    CHECK(loaded > 0 && loaded < 20000, "corruptions: %zu of 20000 loaded", loaded);
    free(w);
    free(g);
    free(gj);
}

int main(void) {
    char tmp[] = "/tmp/test_gltf_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    triangle();
    quad();
    hierarchy();
    strip_fan();
    sparse();
    materials_camera_image();
    external(tmp);
    bad_files();
    bad_glb();
    char path[600];
    const char *names[] = {"my mesh.bin", "fifo.bin", "scene.gltf"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, names[i]);
        unlink(path);
    }
    rmdir(tmp);
    return test_finish_line("test_gltf", test_checks, TEST_LINE_CHECKS);
}
