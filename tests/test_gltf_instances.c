/* test_gltf_instances.c: a glTF mesh that several nodes use loads as instances of one mesh
 * (scene_import.c), where a file whose nodes each use a mesh of their own (the same accessors)
 * loads as copies: the same triangles in world space. Checked: the counts (one mesh, its uses
 * of one side of mirroring as instances, a lone mirroring use as a copy), random rays against
 * both scenes (the same hits within a float tolerance, the same shading normals: vertex
 * normals and the normal map in the tangent frame), the same emitting power, and a render
 * within a block RMSE of RC_GLTF_INST_RMSE. */
#define _POSIX_C_SOURCE 200809L
#include "gltf_build.h" /* b64 */
#include "rc_test.h"
#include "core/shading.h"
#include "png.h"
#include "scene/scene_import.h"

#include <string.h>
#include <unistd.h>

#define RC_GLTF_INST_RMSE 0.005

/* An octahedron (8 triangles) with flat normals left out: positions and indices. */
static const float k_pos[18] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1};
static const uint16_t k_idx[24] = {0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4,
                                   2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5};

/* The nodes: translation, rotation (a quaternion), scale; node 3 mirrors. */
static const char *const k_nodes[5] = {
    "\"translation\":[-3,1,0]",
    "\"translation\":[0,1.5,-1],\"rotation\":[0,0.3826834,0,0.9238795],\"scale\":[1,0.5,1.5]",
    "\"translation\":[3,1,0],\"rotation\":[0.2588190,0,0,0.9659258]",
    "\"translation\":[0,1,3],\"scale\":[-1,1,1]",
    "\"translation\":[0,4,0],\"scale\":[0.5,0.5,0.5]"};

/* The file: `shared` 1: every node uses mesh 0 (the lamp node its own mesh, emissive); 0: node i
 * uses mesh i, all alike but the lamp's. Mesh 0 has vertex normals, uvs and tangents and a
 * normal map (nrm.png beside the file: tilts of up to 40 degrees), so the shading frame goes
 * through the instances' transforms too. */
static void write_gltf(const char *path, int shared) {
    enum { POS = 0, NRM = 72, UV = 144, TAN = 192, IDX = 288, LEN = 336 };
    uint8_t data[LEN];
    float nrm[18], uv[12], tan[24];
    for (int v = 0; v < 6; v++) {
        const float *n = k_pos + 3 * v;
        /* a tangent across the normal: n x (0.3, 1, 0.2), normalised */
        float t[3] = {n[1] * 0.2f - n[2] * 1.0f, n[2] * 0.3f - n[0] * 0.2f,
                      n[0] * 1.0f - n[1] * 0.3f};
        float l = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        for (int k = 0; k < 3; k++) {
            nrm[3 * v + k] = n[k];
            tan[4 * v + k] = t[k] / l;
        }
        tan[4 * v + 3] = v % 2 ? 1.0f : -1.0f;
        uv[2 * v] = 0.25f * (float)v;
        uv[2 * v + 1] = 0.5f + 0.1f * (float)v;
    }
    memcpy(data + POS, k_pos, 72);
    memcpy(data + NRM, nrm, 72);
    memcpy(data + UV, uv, 48);
    memcpy(data + TAN, tan, 96);
    memcpy(data + IDX, k_idx, 48);
    char *e = b64(data, sizeof data);
    FILE *f = fopen(path, "w");
    fprintf(f,
            "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%d,\"uri\":"
            "\"data:application/octet-stream;base64,%s\"}],"
            "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":72},"
            "{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":72},"
            "{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":48},"
            "{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":96},"
            "{\"buffer\":0,\"byteOffset\":%d,\"byteLength\":48}],"
            "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":6,\"type\":"
            "\"VEC3\",\"min\":[-1,-1,-1],\"max\":[1,1,1]},"
            "{\"bufferView\":4,\"componentType\":5123,\"count\":24,\"type\":\"SCALAR\"},"
            "{\"bufferView\":1,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"},"
            "{\"bufferView\":2,\"componentType\":5126,\"count\":6,\"type\":\"VEC2\"},"
            "{\"bufferView\":3,\"componentType\":5126,\"count\":6,\"type\":\"VEC4\"}],"
            "\"images\":[{\"uri\":\"nrm.png\"}],\"textures\":[{\"source\":0}],"
            "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.3,0.2,1],"
            "\"metallicFactor\":0},\"normalTexture\":{\"index\":0}},{\"emissiveFactor\":[1,1,0.9],"
            "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":5}}}],"
            "\"extensionsUsed\":[\"KHR_materials_emissive_strength\"],\"meshes\":[",
            LEN, e, POS, NRM, UV, TAN, IDX);
    free(e);
    const int meshes = shared ? 2 : 5;
    for (int m = 0; m < meshes; m++) {
        const int lamp = m == meshes - 1;
        fprintf(f,
                "%s{\"primitives\":[{\"attributes\":{\"POSITION\":0%s},\"indices\":1,"
                "\"material\":%d}]}",
                m ? "," : "", lamp ? "" : ",\"NORMAL\":2,\"TEXCOORD_0\":3,\"TANGENT\":4",
                lamp ? 1 : 0);
    }
    fprintf(f, "],\"nodes\":[");
    for (int i = 0; i < 5; i++)
        fprintf(f, "%s{\"mesh\":%d,%s}", i ? "," : "", shared ? (i == 4 ? 1 : 0) : i, k_nodes[i]);
    fprintf(f, "],\"scenes\":[{\"nodes\":[0,1,2,3,4]}],\"scene\":0}");
    fclose(f);
}

static uint32_t g_rng = 99u;
static float frand(void) {
    g_rng = g_rng * 1664525u + 1013904223u;
    return (float)(g_rng >> 8) / 16777216.0f;
}

static void rays(const rc_scene *a, const rc_scene *b) {
    rc_scene_view va = rc_scene_view_make(a, 8, 8), vb = rc_scene_view_make(b, 8, 8);
    int hits = 0, bad = 0, shaded = 0, frame_bad = 0;
    for (int r = 0; r < 20000; r++) {
        rc_vec3 o = rc_v3(frand() * 16 - 8, frand() * 8 - 2, frand() * 16 - 8);
        rc_vec3 d = rc_sub(rc_v3(frand() * 8 - 4, frand() * 4, frand() * 6 - 3), o);
        rc_hit ha = rc_bvh_intersect(&va.bvh, o, d, 0.0f, INFINITY);
        rc_hit hb = rc_bvh_intersect(&vb.bvh, o, d, 0.0f, INFINITY);
        if ((ha.prim == RC_NO_PRIM) != (hb.prim == RC_NO_PRIM) ||
            (ha.prim != RC_NO_PRIM && !(fabsf(ha.t - hb.t) <= 1e-4f * (1.0f + hb.t))))
            bad++;
        hits += hb.prim != RC_NO_PRIM;
        rc_prim ba, bb;
        if (ha.prim != RC_NO_PRIM && hb.prim != RC_NO_PRIM) {
            /* the same material and the same side of the surface */
            const rc_prim *pa = rc_bvh_prim(&va.bvh, ha.prim, &ba),
                          *pb = rc_bvh_prim(&vb.bvh, hb.prim, &bb);
            const rc_material *ma = &a->materials[rc_prim_material(pa)],
                              *mb = &b->materials[rc_prim_material(pb)];
            if (ma->type != mb->type) bad++;
            if ((rc_dot(rc_cross(pa->a, pa->b), d) < 0.0f) !=
                (rc_dot(rc_cross(pb->a, pb->b), d) < 0.0f))
                bad++;
            /* the shading frame: vertex normals, the normal map in the tangents' frame */
            rc_vec3 dn = rc_normalize(d);
            rc_surface sa = rc_surface_at(&va.bvh, &va.mesh, 1, ha.prim, o, d, ha.t),
                       sb = rc_surface_at(&vb.bvh, &vb.mesh, 1, hb.prim, o, d, hb.t);
            rc_shading ga = rc_shading_at(&va, &sa, dn, 0.0f),
                       gb = rc_shading_at(&vb, &sb, dn, 0.0f);
            if (ma->type != RC_MAT_EMISSIVE) {
                shaded++;
                if (!(rc_dot(ga.ns, gb.ns) > 0.9999f) || !(rc_dot(sa.ns, sb.ns) > 0.9999f))
                    frame_bad++;
            }
        }
    }
    printf("  rays: 20000, %d hits, %d disagree; %d shading normals, %d apart\n", hits, bad, shaded,
           frame_bad);
    CHECK(shaded > 500 && frame_bad <= shaded / 500, "%d of %d shading normals apart", frame_bad,
          shaded);
    CHECK(hits > 1000, "only %d hits", hits);
    CHECK(bad <= 10, "%d rays disagree", bad);
}

static void render(rc_scene *a, rc_scene *b) {
    const uint32_t w = 96, h = 64, spp = 32;
    for (int k = 0; k < 2; k++) {
        rc_scene *s = k ? b : a;
        s->camera.look_from = rc_v3(0, 2.5f, 7);
        s->camera.look_at = rc_v3(0, 1, 0);
        s->camera.vfov = 60.0f;
    }
    rc_settings st = test_settings(a, w, h, "auto", RC_MODE_INDICES);
    st.max_depth = 4;
    float *ia = test_render(a, &st, spp), *ib = test_render(b, &st, spp);
    CHECK(ia && ib, "render");
    if (ia && ib) {
        double rmse = rc_image_block_rmse(ia, ib, w, h, 8);
        printf("  render %ux%u, %u spp: block RMSE %.5f (bound %.3f)\n", w, h, spp, rmse,
               RC_GLTF_INST_RMSE);
        CHECK(rmse < RC_GLTF_INST_RMSE, "block RMSE %g", rmse);
    }
    free(ia);
    free(ib);
}

/* An 8 x 8 tangent-space normal map of tilts in every direction. */
static int write_normal_map(const char *path) {
    unsigned char rgb[8 * 8 * 3];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            unsigned char *p = rgb + 3 * (8 * y + x);
            p[0] = (unsigned char)(128 + 80 * sin(0.8 * x + 0.3 * y));
            p[1] = (unsigned char)(128 + 80 * cos(0.5 * x - 0.9 * y));
            p[2] = 210;
        }
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int rc = rc_png_write(f, rgb, 8, 8, 1);
    return fclose(f) != 0 || rc != 0 ? -1 : 0;
}

int main(void) {
    char dir[] = "/tmp/rc_gltf_inst_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char nrm[256];
    snprintf(nrm, sizeof nrm, "%s/nrm.png", dir);
    if (write_normal_map(nrm) != 0) return 1;
    char shared[256], copied[256];
    snprintf(shared, sizeof shared, "%s/shared.gltf", dir);
    snprintf(copied, sizeof copied, "%s/copied.gltf", dir);
    write_gltf(shared, 1);
    write_gltf(copied, 0);
    rc_scene a, b;
    rc_error err;
    if (rc_scene_load_model(shared, 512, &a, &err) != 0 ||
        rc_scene_load_model(copied, 512, &b, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* mesh 0: nodes 0-2 instance it, node 3 (mirrored) is a copy; the lamp is used once */
    printf("  shared: %zu meshes, %zu instances, %u one-level primitives; copied: %zu meshes, "
           "%u primitives\n",
           a.num_meshes, a.num_instances, a.bvh.num_prims, b.num_meshes, b.bvh.num_prims);
    CHECK(a.num_meshes == 1 && a.num_instances == 3, "shared: %zu meshes, %zu instances",
          a.num_meshes, a.num_instances);
    CHECK(a.bvh.num_prims == 16 && a.inst.total_prims == 24, "shared: %u + %llu primitives",
          a.bvh.num_prims, (unsigned long long)a.inst.total_prims);
    CHECK(b.num_meshes == 0 && b.num_instances == 0 && b.bvh.num_prims == 40,
          "copied: %zu meshes, %zu instances, %u primitives", b.num_meshes, b.num_instances,
          b.bvh.num_prims);
    CHECK(a.num_lights == b.num_lights, "lights %u vs %u", a.num_lights, b.num_lights);
    rays(&a, &b);
    render(&a, &b);
    rc_scene_free(&a);
    rc_scene_free(&b);
    if (!getenv("RC_KEEP")) unlink(shared);
    unlink(copied);
    if (!getenv("RC_KEEP")) unlink(nrm);
    rmdir(dir);
    return test_finish("test_gltf_instances");
}
