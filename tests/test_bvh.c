/* test_bvh.c: the BVH returns the same nearest hit as testing every primitive, on random
 * scenes of spheres, quads and triangles, on a pathological scene (every centroid equal) and
 * on a shipped mesh; and every tree stays within the traversal stack.
 * Usage: test_bvh [MESH.obj] */
#include "core/bvh_build.h"
#include "rc_test.h"
#include "scene/obj.h"

#include <math.h>

#define BVH_RANDOM_SEED 88172645463325252ull
#include "bvh_random.h"

/* Compare BVH and brute force on `rays` rays; origins in a box of half-size `extent`. */
static void compare(const rc_prim *prims, uint32_t n, int rays, float extent, const char *what) {
    rc_bvh bvh;
    CHECK(rc_bvh_build(prims, n, &bvh) == 0, "%s: build failed", what);
    uint32_t depth = rc_bvh_depth(&bvh);
    CHECK(depth < RC_BVH_STACK, "%s: depth %u", what, depth);
    rc_bvh_view v = rc_bvh_view_of(&bvh);
    int mismatches = 0, any_mismatches = 0, hits = 0;
    for (int i = 0; i < rays; i++) {
        rc_vec3 o = vrand(-extent, extent), d = unit_rand();
        /* Every other ray is aimed near a random primitive, so that many rays hit. */
        if (i % 2) {
            const rc_prim *t = &v.prims[(uint32_t)(frand() * (float)n) % n];
            d = rc_normalize(rc_sub(rc_add(t->p, vrand(-0.1f, 0.1f)), o));
        }
        /* Every 16th ray is axis-parallel: the slab test's division by zero. */
        if (i % 16 == 0) d = rc_v3(0, (i / 16) % 2 ? 1.0f : -1.0f, 0);
        rc_hit a = rc_bvh_intersect(&v, o, d, 0.0f, INFINITY);
        rc_hit b = rc_brute_intersect(v.prims, v.num_prims, o, d, 0.0f, INFINITY);
        /* Same primitive, or (a tie) the same distance: both call the same test. */
        int same = a.prim == b.prim || (a.t == b.t && a.prim != RC_NO_PRIM && b.prim != RC_NO_PRIM);
        if (!same && mismatches++ < 5)
            fprintf(stderr, "%s: ray %d: bvh prim %u t %g, brute prim %u t %g\n", what, i, a.prim,
                    a.t, b.prim, b.t);
        hits += b.prim != RC_NO_PRIM;
        /* Any hit (shadow rays) up to a distance before, at about, or past the nearest hit:
         * occluded exactly when the nearest hit lies inside, and brute force agrees. */
        float tmax = b.prim == RC_NO_PRIM ? 1e3f
                                          : b.t * (i % 3 == 0   ? 0.5f
                                                   : i % 3 == 1 ? 1.001f
                                                                : 4.0f);
        int want = b.prim != RC_NO_PRIM && b.t < tmax;
        int occ = rc_bvh_occluded(&v, o, d, 0.0f, tmax);
        if (occ != want && any_mismatches++ < 5)
            fprintf(stderr, "%s: ray %d: occluded %d up to %g, nearest hit at %g\n", what, i, occ,
                    tmax, b.t);
        if (occ != rc_brute_occluded(v.prims, v.num_prims, o, d, 0.0f, tmax) &&
            any_mismatches++ < 5)
            fprintf(stderr, "%s: ray %d: bvh and brute-force any hit differ\n", what, i);
    }
    CHECK(mismatches == 0, "%s: %d of %d rays differ", what, mismatches, rays);
    CHECK(any_mismatches == 0, "%s: %d any-hit answers differ", what, any_mismatches);
    CHECK(hits > rays / 10, "%s: only %d of %d rays hit anything", what, hits, rays);
    printf("%s: %u prims, %u nodes, depth %u, %d/%d rays hit, all agree: %s\n", what, n,
           bvh.num_nodes, depth, hits, rays, mismatches ? "no" : "yes");
    rc_bvh_free(&bvh);
}

static void random_scene(uint32_t n) {
    rc_prim *p = malloc(n * sizeof *p);
    for (uint32_t i = 0; i < n; i++) {
        rc_vec3 c = vrand(-10, 10);
        switch (i % 3) {
        case 0:
            p[i] = prim(RC_PRIM_SPHERE, c, frange(0.05f, 1.0f) * (i % 7 ? 1.0f : -1.0f), rc_v3s(0),
                        rc_v3s(0));
            break;
        case 1:
            p[i] = prim(RC_PRIM_QUAD, c, 0, vrand(-1.5f, 1.5f), vrand(-1.5f, 1.5f));
            break;
        default:
            p[i] = prim(RC_PRIM_TRIANGLE, c, 0, vrand(-1, 1), vrand(-1, 1));
            break;
        }
    }
    /* Axis-aligned quads (zero-thickness boxes), as in the Cornell box. */
    for (uint32_t i = 0; i < n / 10; i++)
        p[i] = prim(RC_PRIM_QUAD, vrand(-10, 10), 0, rc_v3(frange(1, 4), 0, 0),
                    rc_v3(0, 0, frange(1, 4)));
    char what[64];
    snprintf(what, sizeof what, "random %u", n);
    compare(p, n, 20000, 12.0f, what);
    free(p);
}

/* Every primitive has the same centroid: the SAH finds no split; the median split must. */
static void same_centroid(void) {
    const uint32_t n = 5000;
    rc_prim *p = malloc(n * sizeof *p);
    for (uint32_t i = 0; i < n; i++)
        p[i] = prim(RC_PRIM_SPHERE, rc_v3s(1.0f), 0.5f + 0.0001f * (float)i, rc_v3s(0), rc_v3s(0));
    compare(p, n, 500, 3.0f, "same centroid");
    free(p);
}

/* Exponentially spaced spheres: a deep SAH tree, capped by the median fallback. */
static void exponential(void) {
    const uint32_t n = 3000;
    rc_prim *p = malloc(n * sizeof *p);
    for (uint32_t i = 0; i < n; i++) {
        float x = powf(1.01f, (float)i) - 1.0f;
        p[i] = prim(RC_PRIM_SPHERE, rc_v3(x, 0, 0), 0.001f + 0.004f * x, rc_v3s(0), rc_v3s(0));
    }
    compare(p, n, 20000, 2.0f, "exponential");
    free(p);
}

static void mesh(const char *path) {
    rc_mesh m;
    rc_error err;
    int ok = rc_obj_load(path, &m, &err) == 0;
    CHECK(ok, "%s", err.msg);
    if (!ok) return;
    rc_prim *p = malloc(m.num_triangles * sizeof *p);
    for (size_t t = 0; t < m.num_triangles; t++) {
        const float *a = &m.v[3 * m.tri[3 * t]], *b = &m.v[3 * m.tri[3 * t + 1]],
                    *c = &m.v[3 * m.tri[3 * t + 2]];
        rc_vec3 va = rc_v3(a[0], a[1], a[2]);
        p[t] = prim(RC_PRIM_TRIANGLE, va, 0, rc_sub(rc_v3(b[0], b[1], b[2]), va),
                    rc_sub(rc_v3(c[0], c[1], c[2]), va));
    }
    compare(p, (uint32_t)m.num_triangles, 2000, 3.0f, path);
    free(p);
    rc_mesh_free(&m);
}

int main(int argc, char **argv) {
    random_scene(1);
    random_scene(7);
    random_scene(1000);
    same_centroid();
    exponential();
    rc_bvh empty;
    CHECK(rc_bvh_build(NULL, 0, &empty) == 0 && empty.num_nodes == 0, "empty build");
    rc_bvh_view ev = rc_bvh_view_of(&empty);
    CHECK(rc_bvh_intersect(&ev, rc_v3s(0), rc_v3(0, 0, 1), 0, INFINITY).prim == RC_NO_PRIM,
          "empty scene hit");
    CHECK(!rc_bvh_occluded(&ev, rc_v3s(0), rc_v3(0, 0, 1), 0, INFINITY), "empty scene occludes");
    if (argc > 1) mesh(argv[1]);
    return test_finish("test_bvh");
}
