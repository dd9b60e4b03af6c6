/* test_bvh_threads.c: the BVH build gives the same tree, node for node and in the same leaf
 * order, on one thread and on several (bvh_build.h): a soup of triangles and spheres large
 * enough for the build to bin its top nodes over all threads and to build subtrees side by
 * side, with many primitives at one point (ties the object median breaks by index). Also the
 * tree's SAH cost against the same sum computed here, and every leaf range covering each
 * primitive once. And rc_bvh_permute, whose large arrays are walked from cuts in parallel,
 * against a plain gather for permutations of few long cycles, of many short ones, of cycles
 * through no cut, and the identity. Usage: test_bvh_threads [N] */
#include "rc_test.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static uint64_t state = 88172645463325252ull;
static float rnd(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (float)((double)(state >> 11) * (1.0 / 9007199254740992.0));
}

static int build(const rc_prim *p, uint32_t n, int threads, rc_bvh *out) {
#ifdef _OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    return rc_bvh_build(p, n, out);
}

static uint32_t rnd_below(uint32_t m) {
    return (uint32_t)(rnd() * (float)m) % m;
}

/* rc_bvh_permute on `threads` threads against prims[i] = old[perm[i]], with and without ids */
static void check_permute(const char *what, const uint32_t *perm, uint32_t n, int threads) {
    rc_prim *p = malloc((size_t)n * sizeof *p), *want = malloc((size_t)n * sizeof *want);
    uint32_t *ids = malloc((size_t)n * sizeof *ids);
    uint8_t *done = calloc((n + 7) / 8 + 1, 1);
    CHECK(p && want && ids && done, "out of memory");
    if (p && want && ids && done) {
        for (uint32_t i = 0; i < n; i++) {
            memset(&p[i], 0, sizeof p[i]);
            p[i].p = rc_v3((float)i, (float)(i ^ 0x5555u), 1.0f / (float)(i + 1));
            p[i].type_mat = i;
            ids[i] = i * 7u + 3u;
        }
        for (uint32_t i = 0; i < n; i++) want[i] = p[perm[i]];
#ifdef _OPENMP
        omp_set_num_threads(threads);
#endif
        rc_bvh_permute(p, ids, perm, n, done);
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++)
            bad += memcmp(&p[i], &want[i], sizeof p[i]) != 0 || ids[i] != perm[i] * 7u + 3u;
        CHECK(bad == 0, "%s, %u slots, %d threads: %u slots wrong", what, n, threads, bad);
        memset(done, 0, (n + 7) / 8 + 1);
        for (uint32_t i = 0; i < n; i++) p[i] = want[i];
        for (uint32_t i = 0; i < n; i++) want[i] = p[perm[i]];
        rc_bvh_permute(p, NULL, perm, n, done);
        bad = 0;
        for (uint32_t i = 0; i < n; i++) bad += memcmp(&p[i], &want[i], sizeof p[i]) != 0;
        CHECK(bad == 0, "%s without ids, %u slots, %d threads: %u slots wrong", what, n, threads,
              bad);
    }
    free(p);
    free(want);
    free(ids);
    free(done);
}

static void permutes(uint32_t n) {
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    CHECK(perm != NULL, "out of memory");
    if (!perm) return;
    const int threads[] = {1, 3, 8};
    for (int kind = 0; kind < 4; kind++) {
        const char *what = kind == 0   ? "random"
                           : kind == 1 ? "pairs"
                           : kind == 2 ? "no cut"
                                       : "identity";
        for (uint32_t i = 0; i < n; i++) perm[i] = i;
        if (kind == 0) /* Fisher-Yates: a few long cycles */
            for (uint32_t i = n - 1; i > 0; i--) {
                uint32_t j = rnd_below(i + 1), t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
        else if (kind == 1) /* neighbours swapped: n / 2 cycles of two */
            for (uint32_t i = 0; i + 1 < n; i += 2) {
                perm[i] = i + 1;
                perm[i + 1] = i;
            }
        else if (kind == 2) /* three-cycles among the slots that are no multiple of 1024 */
            for (uint32_t i = 1; i + 3 < n; i += 4)
                if ((i / 1024u) == ((i + 2) / 1024u) && i % 1024u != 0) {
                    perm[i] = i + 1;
                    perm[i + 1] = i + 2;
                    perm[i + 2] = i;
                }
        for (int t = 0; t < 3; t++) check_permute(what, perm, n, threads[t]);
    }
    free(perm);
}

int main(int argc, char **argv) {
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 200000u;
    rc_prim *p = calloc(n, sizeof *p);
    CHECK(p != NULL, "out of memory");
    if (!p) return test_finish("test_bvh_threads");
    for (uint32_t i = 0; i < n; i++) {
        rc_vec3 c = rc_v3(rnd() * 100.0f, rnd() * 10.0f, rnd() * 100.0f);
        if (i % 7 == 0) c = rc_v3(50.0f, 5.0f, 50.0f);
        p[i].p = c;
        p[i].a = rc_v3(rnd(), rnd(), rnd());
        p[i].b = rc_v3(rnd(), rnd(), rnd());
        p[i].r = 0.3f;
        p[i].type_mat = rc_prim_pack(i % 11 == 0 ? RC_PRIM_SPHERE : RC_PRIM_TRIANGLE, 0);
    }
    rc_bvh one;
    CHECK(build(p, n, 1, &one) == 0, "one-thread build failed");
    printf("%u primitives: %u nodes, depth %u, SAH cost %.3f\n", n, one.num_nodes,
           rc_bvh_depth(&one), rc_bvh_sah_cost(&one));
    /* the SAH cost, summed here independently */
    double root = 0.0, sum = 0.0;
    for (uint32_t i = 0; i < one.num_nodes; i++) {
        const rc_bvh_node *nd = &one.nodes[i];
        double x = (double)nd->hi[0] - nd->lo[0], y = (double)nd->hi[1] - nd->lo[1],
               z = (double)nd->hi[2] - nd->lo[2], a = 2.0 * (x * y + y * z + z * x);
        if (i == 0) root = a;
        sum += a * (nd->count ? (double)nd->count : 1.0);
    }
    CHECK(fabs(sum / root - rc_bvh_sah_cost(&one)) <= 1e-9 * (sum / root), "SAH cost %.6f, %.6f",
          rc_bvh_sah_cost(&one), sum / root);
    /* the leaves cover every primitive once, and ids is a permutation */
    uint8_t *seen = calloc(n, 1);
    size_t covered = 0;
    int perm = seen != NULL;
    for (uint32_t i = 0; i < one.num_nodes && seen; i++)
        if (one.nodes[i].count) covered += one.nodes[i].count;
    for (uint32_t i = 0; i < n && seen; i++) {
        if (one.ids[i] >= n || seen[one.ids[i]]) perm = 0;
        if (one.ids[i] < n) seen[one.ids[i]] = 1;
    }
    CHECK(covered == n, "the leaves hold %zu of %u primitives", covered, n);
    CHECK(perm, "ids is not a permutation");
    free(seen);
    const int counts[] = {2, 3, 4, 8};
    for (int k = 0; k < 4; k++) {
        rc_bvh many;
        CHECK(build(p, n, counts[k], &many) == 0, "%d-thread build failed", counts[k]);
        int same = many.num_nodes == one.num_nodes &&
                   !memcmp(many.nodes, one.nodes, one.num_nodes * sizeof *one.nodes) &&
                   !memcmp(many.ids, one.ids, n * sizeof *one.ids) &&
                   !memcmp(many.prims, one.prims, n * sizeof *one.prims);
        printf("%d threads: %s\n", counts[k], same ? "the same tree" : "another tree");
        CHECK(same, "%d threads: another tree than one thread's", counts[k]);
        rc_bvh_free(&many);
    }
    rc_bvh_free(&one);
    free(p);
    permutes(1000);
    permutes(n);
    permutes(n + 1023);
    return test_finish("test_bvh_threads");
}
