/* test_surface.c: the surface model (app/core/surface.h) against independent answers.
 *   - barycentrics: rc_triangle_bary at points of known barycentric coordinates;
 *   - the leaf order: vertex data follows its triangle through the BVH's permutation (each
 *     triangle's uv names its own input index);
 *   - shading normals: a sphere tessellated with its exact normals as vertex normals renders
 *     close to the analytic sphere under the gradient sky (where the radiance depends on the
 *     normal), and closer than the same tessellation shaded flat;
 *   - the side: a vertex normal that disagrees with the winding is turned to the geometric
 *     normal's side, and a back-side hit turns both. */
#include "rc_test.h"
#include "core/surface.h"
#include "image.h"

#include <math.h>
#include <string.h>

static void barycentrics(void) {
    rc_prim pr;
    memset(&pr, 0, sizeof pr);
    pr.p = rc_v3(1, 0, 0);
    pr.a = rc_v3(2, 0, 0); /* vertex 1 = (3, 0, 0) */
    pr.b = rc_v3(0, 3, 0); /* vertex 2 = (1, 3, 0) */
    pr.type_mat = rc_prim_pack(RC_PRIM_TRIANGLE, 0);
    const float want[][2] = {{0.25f, 0.25f}, {0.1f, 0.7f}, {0.6f, 0.3f}, {0.0f, 0.0f}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        rc_vec3 x = rc_add(pr.p, rc_add(rc_scale(pr.a, want[i][0]), rc_scale(pr.b, want[i][1])));
        rc_vec3 o = rc_add(x, rc_v3(0.3f, -0.2f, 2.0f)), d = rc_normalize(rc_sub(x, o));
        float b1, b2;
        rc_triangle_bary(&pr, o, d, &b1, &b2);
        CHECK(fabsf(b1 - want[i][0]) < 1e-5f && fabsf(b2 - want[i][1]) < 1e-5f,
              "point %zu: barycentrics (%g, %g), want (%g, %g)", i, b1, b2, want[i][0], want[i][1]);
    }
}

/* A strip of n triangles, each with vertex data whose uv is (its input index, 0) and whose
 * normals are tilted; after the build, every leaf-order triangle finds its own data. */
static void leaf_order(void) {
    rc_scene s;
    rc_scene_init(&s);
    const uint32_t n = 257;
    rc_material m = test_material(RC_MAT_LAMBERTIAN, 0.5f, 0.5f, 0.5f, 0.0f);
    CHECK(rc_scene_add_material(&s, &m) == 0, "material");
    /* a sphere first: primitives without vertex data before and after the meshes' */
    CHECK(rc_scene_add_sphere(&s, rc_v3(0, 50, 0), 1.0f, 0) == 0, "sphere");
    for (uint32_t i = 0; i < n; i++) {
        float x = (float)((i * 37u) % n); /* shuffled positions: the BVH reorders them */
        float uv[2] = {(float)i, 0.0f}, nrm[3] = {0.0f, 0.2f, 1.0f};
        uint32_t vtx[3];
        for (int k = 0; k < 3; k++) {
            long v = rc_scene_add_vertex(&s, nrm, uv);
            CHECK(v >= 0, "vertex");
            vtx[k] = (uint32_t)v;
        }
        CHECK(rc_scene_add_triangle_vtx(&s, rc_v3(x, 0, 0), rc_v3(x + 1, 0, 0), rc_v3(x, 1, 0), 0,
                                        vtx) == 0,
              "triangle %u", i);
    }
    CHECK(rc_scene_add_triangle(&s, rc_v3(0, 9, 0), rc_v3(1, 9, 0), rc_v3(0, 10, 0), 0) == 0,
          "tri");
    rc_error err = {{0}};
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    rc_scene_view v = rc_scene_view_make(&s, 16, 16);
    uint32_t found = 0;
    for (uint32_t i = 0; i < s.bvh.num_prims; i++) {
        const rc_prim *pr = &s.bvh.prims[i];
        uint32_t id = s.bvh.ids[i];
        if (id == 0 || id == n + 1) {
            CHECK(v.mesh.prim_tri[i] == RC_NO_TRI, "prim %u (input %u) has vertex data", i, id);
            continue;
        }
        /* the triangle's input index from its position, against the uv its data carries */
        rc_vec3 c = rc_add(pr->p, rc_scale(rc_add(pr->a, pr->b), 1.0f / 3.0f));
        rc_vec3 o = rc_add(c, rc_v3(0, 0, 1)), d = rc_v3(0, 0, -1);
        rc_surface sf = rc_surface_at(&v.bvh, &v.mesh, i, o, d, 1.0f);
        uint32_t want = id - 1;
        CHECK((uint32_t)lrintf(sf.u) == want, "leaf %u: uv %g, want %u", i, sf.u, want);
        CHECK((uint32_t)((pr->p.x + 0.5f)) == (want * 37u) % n, "leaf %u: not triangle %u", i,
              want);
        CHECK(fabsf(rc_dot(sf.ns, rc_normalize(rc_v3(0.0f, 0.2f, 1.0f))) - 1.0f) < 1e-5f,
              "leaf %u: shading normal not the vertices'", i);
        found++;
    }
    CHECK(found == n, "%u triangles with vertex data, want %u", found, n);
    rc_scene_free(&s);
}

/* The side: winding says +z; the vertex normals say -z (turned to +z), and a ray from below
 * turns both to -z. */
static void sides(void) {
    rc_scene s;
    rc_scene_init(&s);
    rc_material m = test_material(RC_MAT_LAMBERTIAN, 0.5f, 0.5f, 0.5f, 0.0f);
    rc_scene_add_material(&s, &m);
    float nrm[3] = {0.1f, 0.0f, -1.0f};
    uint32_t vtx[3];
    for (int k = 0; k < 3; k++) vtx[k] = (uint32_t)rc_scene_add_vertex(&s, nrm, NULL);
    rc_scene_add_triangle_vtx(&s, rc_v3(0, 0, 0), rc_v3(1, 0, 0), rc_v3(0, 1, 0), 0, vtx);
    rc_error err = {{0}};
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    rc_scene_view v = rc_scene_view_make(&s, 8, 8);
    rc_surface a = rc_surface_at(&v.bvh, &v.mesh, 0, rc_v3(0.2f, 0.2f, 1), rc_v3(0, 0, -1), 1.0f);
    CHECK(a.front && a.ng.z > 0.99f && a.ns.z > 0.9f, "front: ng %g ns %g", a.ng.z, a.ns.z);
    rc_surface b = rc_surface_at(&v.bvh, &v.mesh, 0, rc_v3(0.2f, 0.2f, -1), rc_v3(0, 0, 1), 1.0f);
    CHECK(!b.front && b.ng.z < -0.99f && b.ns.z < -0.9f, "back: ng %g ns %g", b.ng.z, b.ns.z);
    CHECK(fabsf(a.u) == 0.0f && fabsf(a.v) == 0.0f, "no uvs: (%g, %g)", a.u, a.v);
    rc_scene_free(&s);
}

/* A unit sphere at the origin, `rings` rings of 2 x `rings` quads as triangles; with `smooth` each
 * vertex carries the sphere's exact normal. */
static void tessellated_sphere(rc_scene *s, int rings, int smooth, uint32_t mat) {
    const int segs = 2 * rings;
    for (int j = 0; j < rings; j++)
        for (int i = 0; i < segs; i++) {
            rc_vec3 p[4];
            for (int k = 0; k < 4; k++) {
                double th = RC_PI * (j + (k >> 1)) / rings, ph = 2.0 * RC_PI * (i + (k & 1)) / segs;
                p[k] =
                    rc_v3((float)(sin(th) * cos(ph)), (float)cos(th), (float)(sin(th) * sin(ph)));
            }
            const int tris[2][3] = {{0, 2, 1}, {1, 2, 3}};
            for (int t = 0; t < 2; t++) {
                rc_vec3 a = p[tris[t][0]], b = p[tris[t][1]], c = p[tris[t][2]];
                if (rc_length(rc_cross(rc_sub(b, a), rc_sub(c, a))) < 1e-9f) continue;
                if (!smooth) {
                    rc_scene_add_triangle(s, a, b, c, mat);
                    continue;
                }
                uint32_t vtx[3];
                const rc_vec3 q[3] = {a, b, c};
                for (int k = 0; k < 3; k++) {
                    float n[3] = {q[k].x, q[k].y, q[k].z};
                    vtx[k] = (uint32_t)rc_scene_add_vertex(s, n, NULL);
                }
                rc_scene_add_triangle_vtx(s, a, b, c, mat, vtx);
            }
        }
}

/* 0: analytic sphere; 1: flat tessellation; 2: smooth tessellation. */
static float *render_sphere(int kind, uint32_t w, uint32_t h) {
    rc_scene s;
    rc_scene_init(&s);
    rc_material m = test_material(RC_MAT_LAMBERTIAN, 0.8f, 0.8f, 0.8f, 0.0f);
    rc_scene_add_material(&s, &m);
    if (kind == 0)
        rc_scene_add_sphere(&s, rc_v3(0, 0, 0), 1.0f, 0);
    else
        tessellated_sphere(&s, 10, kind == 2, 0);
    s.background.type = RC_BG_SKY;
    s.background.bottom = rc_v3(0.05f, 0.05f, 0.05f);
    s.background.top = rc_v3(1.0f, 1.0f, 1.0f);
    s.camera.look_from = rc_v3(0, 0, 4);
    s.camera.look_at = rc_v3(0, 0, 0);
    s.camera.vfov = 36.0f;
    s.camera.focus_distance = 4.0f;
    rc_error err = {{0}};
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    rc_settings st = test_settings(&s, w, h, "auto", RC_MODE_INDICES);
    st.max_depth = 4;
    float *img = test_render(&s, &st, 64);
    rc_scene_free(&s);
    return img;
}

static void smooth_normals(void) {
    const uint32_t w = 48, h = 48;
    float *ref = render_sphere(0, w, h), *flat = render_sphere(1, w, h),
          *smooth = render_sphere(2, w, h);
    if (ref && flat && smooth) {
        /* the same random numbers in the three renders: what differs is the shading */
        double e_flat = rc_image_rmse(ref, flat, (size_t)w * h);
        double e_smooth = rc_image_rmse(ref, smooth, (size_t)w * h);
        printf("RMSE against the analytic sphere: flat %.4f, smooth %.4f\n", e_flat, e_smooth);
        CHECK(e_smooth < 0.5 * e_flat, "smooth normals %.4f not below half of flat %.4f", e_smooth,
              e_flat);
        CHECK(e_smooth < 0.02, "smooth normals: block RMSE %.4f against the sphere", e_smooth);
    }
    free(ref);
    free(flat);
    free(smooth);
}

int main(void) {
    barycentrics();
    leaf_order();
    sides();
    smooth_normals();
    return test_finish("test_surface");
}
