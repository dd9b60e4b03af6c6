/* test_bvh_reference.c: the renderer's BVH build (bvh_build.h: references partitioned in place,
 * bins by multiplication, sweeps over occupied bins, SSE, large nodes over all threads)
 * against a plain one written here from Wald 2007 ("On fast construction of SAH-based
 * bounding volume hierarchies", §3): recursive, one thread, every node's bounds scanned anew,
 * bins by division, the full sweep of the 15 boundaries, the same leaf rule (at most
 * RC_BVH_LEAF_MAX primitives, and no costlier than the split with unit costs) and the object
 * median below RC_BVH_SAH_DEPTH. Bins may round differently at a boundary, so the trees may
 * differ in a node here and there: their SAH costs must agree within 1 %. Also the build
 * without SSE (bvh_build_scalar.c) must give the renderer's tree byte for byte, and on
 * every input the leaves hold each primitive once. Inputs: a triangle tube along a torus
 * knot (a mesh's coherence), a random soup of triangles and spheres, primitives piled on a
 * few points (ties), a thin flat sheet (an axis with no extent). */
#include "rc_test.h"

#include "core/bvh_build.h"

#include <string.h>

int scalar_rc_bvh_build(const rc_prim *prims, uint32_t n, rc_bvh *out);
void scalar_rc_bvh_free(rc_bvh *bvh);

#define BVH_RANDOM_SEED 0x9e3779b97f4a7c15ull
#include "bvh_random.h"

/* ---- the reference build ---- */
typedef struct rbox {
    float lo[3], hi[3];
} rbox;

typedef struct rbuild {
    const rbox *boxes;
    uint32_t *idx;
    double sah; /* sum of node areas (times the count for a leaf) */
    uint32_t nodes, leaves, prims_in_leaves;
} rbuild;

static void rbox_empty(rbox *b) {
    for (int a = 0; a < 3; a++) b->lo[a] = INFINITY, b->hi[a] = -INFINITY;
}
static void rbox_grow(rbox *b, const rbox *o) {
    for (int a = 0; a < 3; a++) {
        if (o->lo[a] < b->lo[a]) b->lo[a] = o->lo[a];
        if (o->hi[a] > b->hi[a]) b->hi[a] = o->hi[a];
    }
}
static float rbox_half_area(const rbox *b) {
    float dx = b->hi[0] - b->lo[0], dy = b->hi[1] - b->lo[1], dz = b->hi[2] - b->lo[2];
    if (!(dx >= 0.0f && dy >= 0.0f && dz >= 0.0f)) return 0.0f;
    return dx * dy + dy * dz + dz * dx;
}
static double rbox_area(const rbox *b) {
    double dx = (double)b->hi[0] - b->lo[0], dy = (double)b->hi[1] - b->lo[1],
           dz = (double)b->hi[2] - b->lo[2];
    return 2.0 * (dx * dy + dy * dz + dz * dx);
}
static float rcentroid(const rbox *b, int a) {
    return 0.5f * (b->lo[a] + b->hi[a]);
}
static int rbin(float c, float lo, float hi) {
    int b = (int)((c - lo) / (hi - lo) * RC_BVH_BINS);
    return b < 0 ? 0 : (b >= RC_BVH_BINS ? RC_BVH_BINS - 1 : b);
}

static const rbox *g_sort_boxes;
static int g_sort_axis;
static int cmp_median(const void *x, const void *y) {
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    float ca = rcentroid(&g_sort_boxes[a], g_sort_axis),
          cb = rcentroid(&g_sort_boxes[b], g_sort_axis);
    if (ca != cb) return ca < cb ? -1 : 1;
    return a < b ? -1 : (a > b);
}

static void rnode(rbuild *rb, uint32_t first, uint32_t count, uint32_t depth) {
    rbox nb, cb;
    rbox_empty(&nb);
    rbox_empty(&cb);
    for (uint32_t i = first; i < first + count; i++) {
        const rbox *p = &rb->boxes[rb->idx[i]];
        rbox_grow(&nb, p);
        rbox c;
        for (int a = 0; a < 3; a++) c.lo[a] = c.hi[a] = rcentroid(p, a);
        rbox_grow(&cb, &c);
    }
    rb->nodes++;
    double area = rbox_area(&nb);
    int leaf = count <= 1, axis = -1, bin = 0;
    if (!leaf && depth < RC_BVH_SAH_DEPTH) {
        float best = 0.0f;
        for (int a = 0; a < 3; a++) {
            if (!(cb.hi[a] > cb.lo[a])) continue;
            rbox bins[RC_BVH_BINS];
            uint32_t n[RC_BVH_BINS] = {0};
            for (int b = 0; b < RC_BVH_BINS; b++) rbox_empty(&bins[b]);
            for (uint32_t i = first; i < first + count; i++) {
                const rbox *p = &rb->boxes[rb->idx[i]];
                int b = rbin(rcentroid(p, a), cb.lo[a], cb.hi[a]);
                n[b]++;
                rbox_grow(&bins[b], p);
            }
            for (int s = 0; s < RC_BVH_BINS - 1; s++) { /* left: bins 0..s */
                rbox l, r;
                rbox_empty(&l);
                rbox_empty(&r);
                uint32_t nl = 0, nr = 0;
                for (int b = 0; b <= s; b++) rbox_grow(&l, &bins[b]), nl += n[b];
                for (int b = s + 1; b < RC_BVH_BINS; b++) rbox_grow(&r, &bins[b]), nr += n[b];
                if (!nl || !nr) continue;
                float cost = rbox_half_area(&l) * (float)nl + rbox_half_area(&r) * (float)nr;
                if (axis < 0 || cost < best) axis = a, bin = s, best = cost;
            }
        }
        float half = rbox_half_area(&nb);
        float split = axis >= 0 && half > 0.0f ? 1.0f + best / half : INFINITY;
        if (count <= RC_BVH_LEAF_MAX && (float)count <= split) leaf = 1;
    } else if (!leaf) {
        leaf = count <= RC_BVH_LEAF_MAX;
    }
    if (leaf) {
        rb->sah += area * count;
        rb->leaves++;
        rb->prims_in_leaves += count;
        return;
    }
    rb->sah += area;
    uint32_t left;
    if (axis >= 0) {
        uint32_t i = first, j = first + count;
        while (i < j) {
            uint32_t p = rb->idx[i];
            if (rbin(rcentroid(&rb->boxes[p], axis), cb.lo[axis], cb.hi[axis]) <= bin) {
                i++;
            } else {
                rb->idx[i] = rb->idx[--j];
                rb->idx[j] = p;
            }
        }
        left = i - first;
    } else { /* object median on the widest centroid axis */
        int w = 0;
        for (int a = 1; a < 3; a++)
            if (cb.hi[a] - cb.lo[a] > cb.hi[w] - cb.lo[w]) w = a;
        g_sort_boxes = rb->boxes;
        g_sort_axis = w;
        qsort(rb->idx + first, count, sizeof *rb->idx, cmp_median);
        left = count / 2;
    }
    rnode(rb, first, left, depth + 1);
    rnode(rb, first + left, count - left, depth + 1);
}

/* The reference tree's SAH cost (as rc_bvh_sah_cost: over the root's area). */
static double reference_sah(const rc_prim *p, uint32_t n, uint32_t *nodes) {
    rbox *boxes = malloc(n * sizeof *boxes);
    uint32_t *idx = malloc(n * sizeof *idx);
    CHECK(boxes && idx, "out of memory");
    if (!boxes || !idx) return 0.0;
    rbox root;
    rbox_empty(&root);
    for (uint32_t i = 0; i < n; i++) {
        rc_prim_bounds(&p[i], boxes[i].lo, boxes[i].hi);
        rbox_grow(&root, &boxes[i]);
        idx[i] = i;
    }
    rbuild rb = {boxes, idx, 0.0, 0, 0, 0};
    rnode(&rb, 0, n, 0);
    CHECK(rb.prims_in_leaves == n, "reference: leaves hold %u of %u", rb.prims_in_leaves, n);
    *nodes = rb.nodes;
    free(boxes);
    free(idx);
    return rb.sah / rbox_area(&root);
}

/* ---- inputs ---- */
static rc_prim tri(rc_vec3 a, rc_vec3 b, rc_vec3 c) {
    return prim(RC_PRIM_TRIANGLE, a, 0.0f, rc_sub(b, a), rc_sub(c, a));
}

static rc_vec3 knot_at(float t, float u, float r) { /* (2,3) torus knot, tube of radius r */
    rc_vec3 c = rc_v3((2.0f + cosf(3.0f * t)) * cosf(2.0f * t),
                      (2.0f + cosf(3.0f * t)) * sinf(2.0f * t), sinf(3.0f * t));
    return rc_add(c, rc_v3(r * cosf(u), r * sinf(u), r * cosf(u + 1.0f)));
}

static uint32_t make_input(int which, rc_prim *p, uint32_t n, const char **name) {
    const float two_pi = 6.28318531f;
    if (which == 0) {
        *name = "knot tube";
        uint32_t rings = n / 64, sides = 32, k = 0;
        for (uint32_t i = 0; i < rings; i++)
            for (uint32_t j = 0; j < sides; j++) {
                float t0 = two_pi * i / rings, t1 = two_pi * (i + 1) / rings;
                float u0 = two_pi * j / sides, u1 = two_pi * (j + 1) / sides;
                rc_vec3 a = knot_at(t0, u0, 0.4f), b = knot_at(t1, u0, 0.4f),
                        c = knot_at(t1, u1, 0.4f), d = knot_at(t0, u1, 0.4f);
                p[k++] = tri(a, b, c);
                p[k++] = tri(a, c, d);
            }
        return k;
    }
    if (which == 1) {
        *name = "random soup";
        for (uint32_t i = 0; i < n; i++) {
            rc_vec3 c = vrand(-50.0f, 50.0f);
            p[i] = i % 9 == 0
                       ? prim(RC_PRIM_SPHERE, c, frange(0.1f, 1.5f), c, c)
                       : tri(c, rc_add(c, rc_scale(unit_rand(), 2.0f)), rc_add(c, vrand(-2, 2)));
        }
        return n;
    }
    if (which == 2) {
        *name = "piled on 5 points";
        for (uint32_t i = 0; i < n; i++) {
            rc_vec3 c = rc_v3((float)(i % 5), 0.0f, 0.0f);
            p[i] = tri(c, rc_add(c, rc_v3(0.5f, 0, 0)), rc_add(c, rc_v3(0, 0.5f, 0)));
        }
        return n;
    }
    *name = "flat sheet";
    for (uint32_t i = 0; i < n; i++) {
        rc_vec3 c = rc_v3(frange(0, 100), 3.0f, frange(0, 100));
        p[i] = tri(c, rc_add(c, rc_v3(0.3f, 0, 0)), rc_add(c, rc_v3(0, 0, 0.3f)));
    }
    return n;
}

int main(int argc, char **argv) {
    uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 150000u;
    rc_prim *p = malloc(n * sizeof *p);
    CHECK(p != NULL, "out of memory");
    if (!p) return test_finish("test_bvh_reference");
    for (int which = 0; which < 4; which++) {
        const char *name;
        uint32_t m = make_input(which, p, n, &name), ref_nodes = 0;
        rc_bvh fast, scalar;
        CHECK(rc_bvh_build(p, m, &fast) == 0, "%s: build failed", name);
        CHECK(scalar_rc_bvh_build(p, m, &scalar) == 0, "%s: scalar build failed", name);
        double ref = reference_sah(p, m, &ref_nodes), got = rc_bvh_sah_cost(&fast);
        printf("%-18s %7u primitives: SAH cost %.4f (%u nodes), reference %.4f (%u nodes), "
               "%+.3f %%\n",
               name, m, got, fast.num_nodes, ref, ref_nodes, 100.0 * (got - ref) / ref);
        CHECK(fabs(got - ref) <= 0.01 * ref, "%s: SAH cost %.4f, the reference's %.4f", name, got,
              ref);
        int same = scalar.num_nodes == fast.num_nodes &&
                   !memcmp(scalar.nodes, fast.nodes, fast.num_nodes * sizeof *fast.nodes) &&
                   !memcmp(scalar.ids, fast.ids, m * sizeof *fast.ids) &&
                   !memcmp(scalar.prims, fast.prims, m * sizeof *fast.prims);
        CHECK(same, "%s: the scalar build's tree is not the SSE build's", name);
        /* every primitive in one leaf, and ids a permutation */
        uint8_t *seen = calloc(m, 1);
        size_t covered = 0;
        int perm = seen != NULL;
        for (uint32_t i = 0; i < fast.num_nodes; i++) covered += fast.nodes[i].count;
        for (uint32_t i = 0; i < m && seen; i++) {
            if (fast.ids[i] >= m || seen[fast.ids[i]]) perm = 0;
            if (fast.ids[i] < m) seen[fast.ids[i]] = 1;
        }
        CHECK(covered == m && perm, "%s: leaves hold %zu of %u, ids %sa permutation", name, covered,
              m, perm ? "" : "not ");
        free(seen);
        rc_bvh_free(&fast);
        scalar_rc_bvh_free(&scalar);
    }
    free(p);
    return test_finish("test_bvh_reference");
}
