/* test_gltf_ext.c: the glTF reader's extensions beyond the core format, on files the test
 * writes itself: KHR_mesh_quantization's integer attributes (and their refusal without it),
 * KHR_materials_pbrSpecularGlossiness and KHR_materials_unlit. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "scene/gltf.h"

TEST_COUNTERS;

#include "gltf_build.h"

/* KHR_mesh_quantization: POSITION as SHORT (not normalized) placed by a node scale, NORMAL and
 * TANGENT as normalized BYTE, TEXCOORD_0 as normalized UNSIGNED_SHORT, each turned into floats
 * by the format's rules (glTF 2.0 sec. 3.11); without the extension the same file is refused by
 * the core rule naming the accessor. */
static void quantized(void) {
    bin b = {{0}, 0};
    const int16_t pos[12] = {0, 0, 0, 0, 1000, 0, 0, 0, 0, 1000, 0, 0}; /* VEC3 + 2 B padding */
    const int8_t nrm[12] = {0, 0, 127, 0, 0, 0, 127, 0, 0, 0, -128, 0}; /* stride 4 */
    const int8_t tan[12] = {127, 0, 0, 127, 127, 0, 0, 127, 0, 127, 0, -127};
    const uint16_t uv[6] = {0, 0, 65535, 0, 0, 32768};
    size_t op = put(&b, pos, sizeof pos), on = put(&b, nrm, sizeof nrm),
           ot = put(&b, tan, sizeof tan), ou = put(&b, uv, sizeof uv);
    for (int ext = 0; ext < 2; ext++) {
        char *rest = fmt(
            "%s,\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24,"
            "\"byteStride\":8},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12,\"byteStride\":4}"
            ","
            "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,"
            "\"byteLength\":12}],\"accessors\":[{\"bufferView\":0,\"componentType\":5122,"
            "\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1000,1000,0]},"
            "{\"bufferView\":1,\"componentType\":5120,\"normalized\":true,\"count\":3,"
            "\"type\":\"VEC3\"},{\"bufferView\":2,\"componentType\":5120,\"normalized\":true,"
            "\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":3,\"componentType\":5123,"
            "\"normalized\":true,\"count\":3,\"type\":\"VEC2\"}],\"meshes\":[{\"primitives\":"
            "[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"TANGENT\":2,\"TEXCOORD_0\":3}}]}],"
            "\"nodes\":[{\"mesh\":0,\"scale\":[0.001,0.001,0.001]}]",
            ext ? ",\"extensionsUsed\":[\"KHR_mesh_quantization\"],\"extensionsRequired\":"
                  "[\"KHR_mesh_quantization\"]"
                : "",
            op, on, ot, ou);
        char *json = doc(&b, rest);
        rc_import im;
        rc_error err;
        int rc = parse_json(json, &im, &err);
        if (!ext) {
            CHECK(rc != 0 && strstr(err.msg, "POSITION: accessors[0] is not VEC3 of FLOAT"),
                  "quantized without the extension: refused: '%s'", rc ? err.msg : "loaded");
        } else {
            CHECK(rc == 0, "quantized: %s", err.msg);
            if (rc == 0) {
                const rc_import_part *p = &im.parts[0];
                CHECK(im.num_triangles == 1 && vec_is(p->positions, 0, 0, 0) &&
                          vec_is(p->positions + 3, 1, 0, 0) && vec_is(p->positions + 6, 0, 1, 0),
                      "quantized: positions through the node's scale");
                CHECK(p->normals && vec_is(p->normals, 0, 0, 1) &&
                          vec_is(p->normals + 3, 0, 0, 1) && vec_is(p->normals + 6, 0, 0, -1),
                      "quantized: normals (-128 clamps to -1)");
                CHECK(p->tangents && vec_is(p->tangents, 1, 0, 0) && p->tangents[3] == 1.0f &&
                          vec_is(p->tangents + 8, 0, 1, 0) && p->tangents[11] == -1.0f,
                      "quantized: tangents and their handedness");
                CHECK(p->has_uv0 && near(p->uv0[2], 1.0f) && near(p->uv0[5], 32768.0f / 65535.0f),
                      "quantized: uvs");
                rc_import_free(&im);
            }
        }
        free(json);
        free(rest);
    }
}

/* KHR_materials_pbrSpecularGlossiness where no pbrMetallicRoughness is given: diffuse as the
 * base colour, 1 - glossiness the roughness, metallic 0 (beside a pbrMetallicRoughness the
 * latter wins); KHR_materials_unlit: an emitter of the base colour and texture that reflects
 * nothing, the base texture kept only where alpha masks. */
static void material_extensions(void) {
    bin b = {{0}, 0};
    put(&b, k_tri, sizeof k_tri);
    char *png64 = b64(k_png, sizeof k_png);
    char *rest =
        fmt(TRI_ACC TRI_MESH
            ",\"nodes\":[{\"mesh\":0}],\"images\":[{\"uri\":\"data:image/png;base64,%s\"}],"
            "\"textures\":[{\"source\":0}],\"materials\":["
            "{\"extensions\":{\"KHR_materials_pbrSpecularGlossiness\":"
            "{\"diffuseFactor\":[0.5,0.25,1,1],\"glossinessFactor\":0.75,"
            "\"diffuseTexture\":{\"index\":0}}}},"
            "{\"pbrMetallicRoughness\":{\"roughnessFactor\":0.5},\"extensions\":"
            "{\"KHR_materials_pbrSpecularGlossiness\":{\"glossinessFactor\":0}}},"
            "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.2,0.4,0.6,1],"
            "\"baseColorTexture\":{\"index\":0}},\"extensions\":"
            "{\"KHR_materials_unlit\":{}}},"
            "{\"alphaMode\":\"MASK\",\"pbrMetallicRoughness\":"
            "{\"baseColorTexture\":{\"index\":0}},\"extensions\":"
            "{\"KHR_materials_unlit\":{}}}],"
            "\"extensionsUsed\":[\"KHR_materials_pbrSpecularGlossiness\","
            "\"KHR_materials_unlit\"]",
            png64);
    char *json = doc(&b, rest);
    free(rest);
    free(png64);
    rc_import im;
    rc_error err;
    rc_gltf_options o = {0, on_notice, NULL};
    memset(&err, 0, sizeof err);
    o.max_mib = 0;
    int rc = rc_gltf_parse("t.gltf", NULL, json, strlen(json), &o, &im, &err);
    CHECK(rc == 0, "material extensions: '%s'", err.msg);
    if (rc != 0) {
        free(json);
        return;
    }
    CHECK(im.num_materials >= 4, "%zu materials", im.num_materials);
    if (im.num_materials >= 4) {
        const rc_import_material *sg = &im.materials[0], *both = &im.materials[1],
                                 *un = &im.materials[2], *um = &im.materials[3];
        CHECK(vec_is(sg->base_color, 0.5f, 0.25f, 1) && sg->metallic == 0.0f &&
                  near(sg->roughness, 0.25f) && sg->base_color_tex.texture == 0,
              "specular-glossiness: base (%g %g %g) metallic %g roughness %g", sg->base_color[0],
              sg->base_color[1], sg->base_color[2], sg->metallic, sg->roughness);
        CHECK(both->roughness == 0.5f && both->metallic == 1.0f,
              "beside pbrMetallicRoughness: the latter");
        CHECK(vec_is(un->emissive, 0.2f, 0.4f, 0.6f) && vec_is(un->base_color, 0, 0, 0) &&
                  un->emissive_tex.texture == 0 && un->base_color_tex.texture == -1 &&
                  un->metallic == 0.0f && un->emissive_strength == 1.0f,
              "unlit: an emitter of the base colour");
        CHECK(um->emissive_tex.texture == 0 && um->base_color_tex.texture == 0 &&
                  um->alpha_mode == RC_IMPORT_ALPHA_MASK,
              "unlit and masked: the base texture kept for its alpha");
    }
    rc_import_free(&im);
    free(json);
}

int main(void) {
    quantized();
    material_extensions();
    return test_finish_line("test_gltf_ext", test_checks, TEST_LINE_CHECKS);
}
