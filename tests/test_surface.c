/* test_surface.c: the surface model (app/core/surface.h) against independent answers.
 *   - barycentrics: rc_triangle_bary at points of known barycentric coordinates;
 *   - the leaf order: vertex data follows its triangle through the BVH's permutation (each
 *     triangle's uv names its own input index);
 *   - shading normals: on a sphere tessellated with its exact normals as vertex normals, the
 *     interpolated normal at a hit is much closer to the sphere's normal than the facet's;
 *   - the side: a vertex normal that disagrees with the winding is turned to the geometric
 *     normal's side, and a back-side hit turns both. */
#include "rc_test.h"
#include "core/surface.h"

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
        rc_surface sf = rc_surface_at(&v.bvh, &v.mesh, 1, i, o, d, 1.0f);
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
    rc_surface a =
        rc_surface_at(&v.bvh, &v.mesh, 1, 0, rc_v3(0.2f, 0.2f, 1), rc_v3(0, 0, -1), 1.0f);
    CHECK(a.front && a.ng.z > 0.99f && a.ns.z > 0.9f, "front: ng %g ns %g", a.ng.z, a.ns.z);
    rc_surface b =
        rc_surface_at(&v.bvh, &v.mesh, 1, 0, rc_v3(0.2f, 0.2f, -1), rc_v3(0, 0, 1), 1.0f);
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

/* On a tessellated unit sphere with its exact normals at the vertices, the interpolated shading
 * normal at a hit lies closer to the sphere's true normal there than the facet's own normal,
 * for rays from every direction. */
static void smooth_normals(void) {
    rc_scene s;
    rc_scene_init(&s);
    rc_material m = test_material(RC_MAT_LAMBERTIAN, 0.8f, 0.8f, 0.8f, 0.0f);
    rc_scene_add_material(&s, &m);
    tessellated_sphere(&s, 10, 1, 0);
    rc_error err = {{0}};
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    rc_scene_view v = rc_scene_view_make(&s, 8, 8);
    double e_ng = 0.0, e_ns = 0.0;
    int hits = 0;
    for (int i = 0; i < 400; i++) {
        float u1 = rc_rand(i, 0, 0, 0), u2 = rc_rand(i, 0, 0, 1);
        float z = 1.0f - 2.0f * u1, r = sqrtf(fmaxf(0.0f, 1.0f - z * z)), ph = 2.0f * RC_PI * u2;
        rc_vec3 dir = rc_v3(r * cosf(ph), z, r * sinf(ph)); /* towards the centre from outside */
        rc_vec3 o = rc_scale(dir, -3.0f);
        rc_hit h = rc_bvh_intersect(&v.bvh, o, dir, 0.0f, INFINITY);
        if (h.prim == RC_NO_PRIM) continue;
        rc_surface sf = rc_surface_at(&v.bvh, &v.mesh, 1, h.prim, o, dir, h.t);
        rc_vec3 truth = rc_normalize(sf.p);
        /* the winding here points inwards: the normals are turned to face the ray */
        CHECK(rc_dot(dir, sf.ng) < 0.0f && rc_dot(sf.ns, sf.ng) > 0.0f,
              "ray %d: a normal off the ray's side", i);
        e_ng += acos(fmin(1.0, rc_dot(sf.ng, truth)));
        e_ns += acos(fmin(1.0, rc_dot(sf.ns, truth)));
        hits++;
    }
    CHECK(hits > 390, "%d of 400 rays hit the sphere", hits);
    printf("mean angle to the sphere's normal: facet %.4f rad, interpolated %.4f rad\n",
           e_ng / hits, e_ns / hits);
    CHECK(e_ns < 0.2 * e_ng, "interpolated normals %.4f not well below the facets' %.4f",
          e_ns / hits, e_ng / hits);
    rc_scene_free(&s);
}

int main(void) {
    barycentrics();
    leaf_order();
    sides();
    smooth_normals();
    return test_finish("test_surface");
}
