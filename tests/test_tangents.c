/* test_tangents.c: the tangent frame of normal maps (shading.h), against closed forms.
 *
 * One triangle in the plane y = 0, its normal +Y (vertex normals too), its uvs running +X in u
 * and -Z in v, a normal map of one texel whose tangent-space normal is (x, y, z) (decoded from
 * its 8-bit channels as 2 c - 1, glTF 2.0 sec. 3.9.3). The perturbed shading normal must be
 * normalize(x T + y B + z N) for:
 *   1. no TANGENT: T and B from the triangle's uvs (T = +X, B = -Z);
 *   2. a TANGENT of +Z with w = +1 (glTF 2.0 sec. 3.7.2.1: B = cross(N, T) w = +X), and w = -1
 *      (B = -X);
 *   3. a TANGENT not orthogonal to N: its part along N removed (Gram-Schmidt) first;
 *   4. the same triangle hit from below: the same normal on the primitive's side, turned to
 *      the ray;
 *   5. a vertex without a tangent (0 0 0 0) first in the triangle: the uvs' frame again.
 * And the import path: a part with TANGENT placed by a mirroring placement has its xyz
 * mirrored and normalized and its w turned; a part without keeps "none" (0 0 0 0), and a
 * scene without tangents has no array. */
#include "rc_test.h"

#include "core/shading.h"
#include "scene/scene_import.h"
#include "scene/texture_load.h"

#include <math.h>
#include <string.h>

static int close_v(rc_vec3 a, rc_vec3 b, float tol) {
    return fabsf(a.x - b.x) <= tol && fabsf(a.y - b.y) <= tol && fabsf(a.z - b.z) <= tol;
}

static unsigned char enc(float x) {
    return (unsigned char)lrintf((x + 1.0f) * 0.5f * 255.0f);
}
static float dec(unsigned char c) {
    return 2.0f * ((float)c / 255.0f) - 1.0f;
}

/* The scene: the triangle, the map of tangent-space normal q, tangents tg[3][4] (NULL: none). */
static int build(rc_scene *s, rc_vec3 q, const float tg[3][4]) {
    rc_error err = {{0}};
    rc_scene_init(s);
    unsigned char px[4] = {enc(q.x), enc(q.y), enc(q.z), 255};
    rc_texture_image img;
    if (rc_texture_from_rgba8("n.png", px, 1, 1, 0, 0, 1 << 20, &img, &err) != 0) return -1;
    long id = rc_texture_table_add(&s->textures, &img, RC_WRAP_REPEAT, RC_WRAP_REPEAT,
                                   RC_FILTER_NEAREST, NULL, &err);
    rc_texture_image_free(&img);
    if (id < 0) return -1;
    rc_material m = rc_material_make(RC_MAT_PBR, rc_v3s(0.8f), 0.0f);
    m.roughness = 0.5f;
    m.metallic = 0.0f;
    m.tex_normal = (uint32_t)id + 1u;
    uint32_t mi = (uint32_t)rc_scene_add_material(s, &m);
    const float n[3] = {0, 1, 0}, uv[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    uint32_t vtx[3];
    for (int k = 0; k < 3; k++) {
        long v = rc_scene_add_vertex(s, n, uv[k]);
        if (v < 0) return -1;
        vtx[k] = (uint32_t)v;
        if (tg && rc_scene_set_tangent(s, (size_t)v, tg[k]) != 0) return -1;
    }
    /* a (0 0 0) b (1 0 0) c (0 0 -1): the winding's normal is +Y */
    if (rc_scene_add_triangle_vtx(s, rc_v3(0, 0, 0), rc_v3(1, 0, 0), rc_v3(0, 0, -1), mi, vtx) != 0)
        return -1;
    return rc_scene_finish(s, &err);
}

/* The shading normal where a vertical ray (from above: up 1, else from below) meets it. */
static rc_vec3 shade(const rc_scene *s, int up) {
    rc_scene_view v = rc_scene_view_make(s, 1, 1);
    rc_vec3 o = rc_v3(0.25f, up ? 1.0f : -1.0f, -0.25f), d = rc_v3(0, up ? -1.0f : 1.0f, 0);
    rc_hit h = rc_bvh_intersect(&v.bvh, o, d, 0.0f, INFINITY);
    if (h.prim == RC_NO_PRIM) return rc_v3s(0.0f);
    rc_surface su = rc_surface_at(&v.bvh, &v.mesh, 1, h.prim, o, d, h.t);
    rc_shading sh = rc_shading_at(&v, &su, d, 0.0f);
    return sh.ns;
}

static void frame_case(const char *what, const float tg[3][4], rc_vec3 t_axis, rc_vec3 b_axis) {
    const rc_vec3 q = rc_normalize(rc_v3(0.5f, 0.3f, 0.8f));
    rc_scene s;
    CHECK(build(&s, q, tg) == 0, "%s: scene", what);
    /* the texel as the texture stores it */
    float x = dec(enc(q.x)), y = dec(enc(q.y)), z = dec(enc(q.z));
    rc_vec3 want = rc_normalize(
        rc_add(rc_add(rc_scale(t_axis, x), rc_scale(b_axis, y)), rc_scale(rc_v3(0, 1, 0), z)));
    rc_vec3 got = shade(&s, 1);
    CHECK(close_v(got, want, 1e-5f), "%s from above: ns (%g %g %g), want (%g %g %g)", what, got.x,
          got.y, got.z, want.x, want.y, want.z);
    got = shade(&s, 0);
    CHECK(close_v(got, rc_neg(want), 1e-5f), "%s from below: ns (%g %g %g), want (%g %g %g)", what,
          got.x, got.y, got.z, -want.x, -want.y, -want.z);
    rc_scene_free(&s);
}

static void frames(void) {
    frame_case("uvs' frame", NULL, rc_v3(1, 0, 0), rc_v3(0, 0, -1));
    const float pz[3][4] = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    frame_case("TANGENT +Z, w +1", pz, rc_v3(0, 0, 1), rc_v3(1, 0, 0));
    const float mz[3][4] = {{0, 0, 1, -1}, {0, 0, 1, -1}, {0, 0, 1, -1}};
    frame_case("TANGENT +Z, w -1", mz, rc_v3(0, 0, 1), rc_v3(-1, 0, 0));
    const float tilt[3][4] = {{1, 1, 0, 1}, {1, 1, 0, 1}, {1, 1, 0, 1}};
    frame_case("TANGENT (1 1 0), w +1", tilt, rc_v3(1, 0, 0), rc_v3(0, 0, -1));
    const float none_first[3][4] = {{0, 0, 0, 0}, {0, 0, 1, 1}, {0, 0, 1, 1}};
    frame_case("first vertex without", none_first, rc_v3(1, 0, 0), rc_v3(0, 0, -1));
}

static rc_vec3 mirror_x(const void *ctx, rc_vec3 p) {
    (void)ctx;
    return rc_v3(-p.x, p.y, p.z);
}

static void import_placed(void) {
    float pos[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint32_t idx[] = {0, 1, 2};
    float tan1[] = {3, 4, 0, 1, 0, 0, 2, -1, 1, 0, 0, 1};
    rc_import_part parts[2];
    memset(parts, 0, sizeof parts);
    for (int i = 0; i < 2; i++) {
        parts[i].positions = pos, parts[i].indices = idx;
        parts[i].num_vertices = 3, parts[i].num_triangles = 1, parts[i].material = 0;
    }
    parts[1].tangents = tan1;
    rc_import_material mat;
    memset(&mat, 0, sizeof mat);
    mat.base_color[0] = mat.base_color[1] = mat.base_color[2] = mat.base_color[3] = 1.0f;
    mat.roughness = mat.metallic = 1.0f;
    rc_import im;
    memset(&im, 0, sizeof im);
    im.parts = parts, im.num_parts = 2, im.materials = &mat, im.num_materials = 1;
    im.num_vertices = 6, im.num_triangles = 2;
    rc_import_place place = {mirror_x, mirror_x, mirror_x, NULL};
    rc_scene s;
    rc_error err = {{0}};
    rc_scene_init(&s);
    CHECK(rc_scene_add_import(&s, &im, &place, -1, 1 << 20, "t.glb", &err) == 0, "%s", err.msg);
    CHECK(s.tangents != NULL && s.num_vertices == 6, "tangents kept");
    if (s.tangents) {
        int none = 1;
        for (int i = 0; i < 12; i++) none &= s.tangents[i] == 0.0f;
        CHECK(none, "the part without TANGENT: none");
        const float *t = s.tangents + 12;
        CHECK(fabsf(t[0] + 0.6f) < 1e-6f && fabsf(t[1] - 0.8f) < 1e-6f && t[2] == 0.0f &&
                  t[3] == -1.0f,
              "mirrored and normalized, w turned: (%g %g %g %g)", t[0], t[1], t[2], t[3]);
        t = s.tangents + 16;
        CHECK(t[0] == 0.0f && t[1] == 0.0f && t[2] == 1.0f && t[3] == 1.0f,
              "a tangent of length 2: (%g %g %g %g)", t[0], t[1], t[2], t[3]);
        t = s.tangents + 20;
        CHECK(t[0] == -1.0f && t[1] == 0.0f && t[2] == 0.0f && t[3] == -1.0f,
              "third tangent: (%g %g %g %g)", t[0], t[1], t[2], t[3]);
    }
    rc_scene_free(&s);

    /* no part has TANGENT: no array, and the vertex bytes do not count one */
    parts[1].tangents = NULL;
    rc_scene_init(&s);
    CHECK(rc_scene_add_import(&s, &im, NULL, -1, 1 << 20, "t.glb", &err) == 0, "%s", err.msg);
    CHECK(s.tangents == NULL, "no tangents, no array");
    size_t without = rc_scene_vertex_bytes(&s);
    float t4[4] = {1, 0, 0, 1};
    CHECK(rc_scene_set_tangent(&s, 2, t4) == 0 && s.tangents && s.tangents[8] == 1.0f &&
              s.tangents[0] == 0.0f && rc_scene_vertex_bytes(&s) == without + 6 * 4 * sizeof(float),
          "a tangent set later: the others none, 16 bytes a vertex more");
    CHECK(rc_scene_set_tangent(&s, 6, t4) != 0, "no such vertex");
    long v = rc_scene_add_vertex(&s, NULL, NULL);
    CHECK(v == 6 && s.tangents[4 * 6 + 3] == 0.0f, "a vertex added after: none");
    rc_scene_free(&s);
}

int main(void) {
    frames();
    import_placed();
    return test_finish("test_tangents");
}
