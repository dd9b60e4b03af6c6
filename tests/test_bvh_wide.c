/* test_bvh_wide.c: the wide BVH (bvh_wide.h) returns, for every ray, the binary BVH's nearest
 * hit bit for bit, (t, prim), and both return testing every primitive's, with the one tie rule
 * (of equal t the smaller index); the same occluded bit; its resumable steps, interleaved over
 * several rays, the full traversal's hit; every quantised child box holds its child's exact
 * box; the collapse keeps every binary leaf one range and the binary tree valid. On random
 * scenes with duplicate, coplanar and degenerate triangles (ties in t), axis-parallel rays,
 * rays from inside boxes, finite tmax, and on the shipped scenes (alpha masks through their
 * views). Usage: test_bvh_wide SCENE.json... */
#include "core/bvh_build.h"
#include "rc_test.h"

#include <string.h>

#define BVH_RANDOM_SEED 0x9e3779b97f4a7c15ull
#include "bvh_random.h"

/* Every wide node's decoded child boxes (p + q * scale) hold their children's exact boxes: the
 * union of the primitive bounds (rc_prim_bounds, the binary build's boxes) below each. Children
 * come after their parent, so the boxes are summed from the last node up. Every node and
 * primitive is reached once. */
static void check_tree(const rc_bvh *bvh, const char *what) {
    uint32_t bad = 0, prims = 0, nodes = 0, nw = bvh->num_wide;
    float(*box)[6] = malloc((nw ? nw : 1) * sizeof *box);
    for (uint32_t w = nw; w-- > 0;) {
        const rc_wide_node *n = &bvh->wide[w];
        uint32_t inner = 0;
        for (int a = 0; a < 3; a++) {
            box[w][a] = INFINITY;
            box[w][3 + a] = -INFINITY;
        }
        for (int s = 0; s < 8; s++) {
            const uint32_t m = n->meta[s];
            if (m == 0) continue;
            float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
            if ((n->imask >> s) & 1u) {
                const uint32_t c = n->child_base + inner++;
                nodes++;
                for (int a = 0; a < 3; a++) {
                    lo[a] = box[c][a];
                    hi[a] = box[c][3 + a];
                }
            } else {
                const uint32_t count = rc_popc(m >> 5), first = n->prim_base + (m & 31u);
                for (uint32_t i = first; i < first + count; i++) {
                    float pl[3], ph[3];
                    rc_prim_bounds(&bvh->prims[i], pl, ph);
                    for (int a = 0; a < 3; a++) {
                        lo[a] = fminf(lo[a], pl[a]);
                        hi[a] = fmaxf(hi[a], ph[a]);
                    }
                }
                prims += count;
            }
            for (int a = 0; a < 3; a++) {
                const float sc = ldexpf(1.0f, (int)n->e[a] - 127);
                bad += n->p[a] + (float)n->qlo[a][s] * sc > lo[a];
                bad += n->p[a] + (float)n->qhi[a][s] * sc < hi[a];
                box[w][a] = fminf(box[w][a], lo[a]);
                box[w][3 + a] = fmaxf(box[w][3 + a], hi[a]);
            }
        }
        CHECK(inner == rc_popc(n->imask), "%s: node %u: imask", what, w);
    }
    free(box);
    CHECK(bad == 0, "%s: %u quantised bounds inside their child's box", what, bad);
    CHECK(prims == bvh->num_prims, "%s: %u of %u primitives in wide leaves", what, prims,
          bvh->num_prims);
    CHECK(nw == 0 || nodes + 1 == nw, "%s: %u of %u nodes reached", what, nodes + 1, nw);
    /* the binary leaves: ranges that tile the primitives */
    uint32_t covered = 0;
    for (uint32_t i = 0; i < bvh->num_nodes; i++)
        if (bvh->nodes[i].count) covered += bvh->nodes[i].count;
    CHECK(covered == bvh->num_prims, "%s: binary leaves cover %u", what, covered);
}

/* Interleaved resumable traversals, as extend.cu's ray fetch leaves and resumes them. */
#define LANES 7
static void stepped(const rc_bvh_view *bin, const rc_bvh_view *wide, const rc_vec3 *o,
                    const rc_vec3 *d, const float *tmax, rc_hit *hb, rc_hit *hw) {
    rc_trav s[LANES];
    rc_trav_stack k[LANES];
    rc_wtrav ws[LANES];
    rc_wtrav_stack wk[LANES];
    int busy[LANES], wbusy[LANES], left = 0;
    for (int i = 0; i < LANES; i++) {
        busy[i] = rc_trav_begin(bin, &s[i], o[i], d[i], 0.0f, tmax[i]);
        wbusy[i] = rc_wtrav_begin(wide, &ws[i], o[i], d[i], 0.0f, tmax[i]);
        left += busy[i] + wbusy[i];
    }
    while (left > 0)
        for (int i = 0; i < LANES; i++) {
            if (busy[i] && !rc_trav_step(bin, &s[i], &k[i])) busy[i] = 0, left--;
            if (wbusy[i] && !rc_wtrav_step(wide, &ws[i], &wk[i])) wbusy[i] = 0, left--;
        }
    for (int i = 0; i < LANES; i++) {
        hb[i] = s[i].hit;
        hw[i] = ws[i].hit;
    }
}

static int same_hit(rc_hit a, rc_hit b) {
    return a.prim == b.prim && memcmp(&a.t, &b.t, sizeof a.t) == 0;
}

/* `rays` rays against views `bin` and `wide` of one tree (and brute force when `brute`);
 * origins in [lo, hi], every other one aimed at a primitive. */
static void compare(const rc_bvh_view *bin, const rc_bvh_view *wide, int rays, rc_vec3 lo,
                    rc_vec3 hi, int brute, const char *what) {
    int bad = 0, bad_occ = 0, bad_step = 0, bad_brute = 0, hits = 0, ties = 0;
    const uint32_t n = bin->num_prims;
    for (int r = 0; r < rays; r += LANES) {
        rc_vec3 o[LANES], d[LANES];
        float tmax[LANES];
        rc_hit a[LANES], b[LANES];
        for (int i = 0; i < LANES; i++) {
            o[i] = rc_v3(frange(lo.x, hi.x), frange(lo.y, hi.y), frange(lo.z, hi.z));
            d[i] = unit_rand();
            const int j = r + i;
            if (j % 2 && n) {
                const rc_prim *t = &bin->prims[(uint32_t)(frand() * (float)n) % n];
                rc_vec3 at = rc_prim_type(t) == RC_PRIM_SPHERE
                                 ? t->p
                                 : rc_add(t->p, rc_add(rc_scale(t->a, frand() * 0.5f),
                                                       rc_scale(t->b, frand() * 0.5f)));
                rc_vec3 to = rc_sub(at, o[i]);
                if (rc_length(to) > 0.0f) d[i] = rc_normalize(to);
            }
            if (j % 16 == 0) d[i] = rc_v3(0, (j / 16) % 2 ? 1.0f : -1.0f, 0);
            if (j % 16 == 8) d[i] = rc_v3((j / 16) % 2 ? 1.0f : -1.0f, 0, 0);
            tmax[i] = j % 3 == 0 ? frange(0.0f, rc_length(rc_sub(hi, lo))) : INFINITY;
        }
        stepped(bin, wide, o, d, tmax, a, b);
        for (int i = 0; i < LANES; i++) {
            rc_hit fb = rc_bvh_intersect(bin, o[i], d[i], 0.0f, tmax[i]);
            rc_hit fw = rc_bvh_intersect(wide, o[i], d[i], 0.0f, tmax[i]);
            hits += fb.prim != RC_NO_PRIM;
            if (!same_hit(fb, fw) && bad++ < 5)
                fprintf(stderr, "%s: ray %d: binary %u t %a, wide %u t %a\n", what, r + i, fb.prim,
                        fb.t, fw.prim, fw.t);
            bad_step += !same_hit(a[i], fb) || !same_hit(b[i], fw);
            int ob = rc_bvh_occluded(bin, o[i], d[i], 0.0f, tmax[i]);
            int ow = rc_bvh_occluded(wide, o[i], d[i], 0.0f, tmax[i]);
            bad_occ += ob != ow || ob != (fb.prim != RC_NO_PRIM && !bin->masked ? 1 : ob);
            if (brute) {
                rc_hit h = rc_brute_intersect(bin->prims, n, o[i], d[i], 0.0f, tmax[i]);
                if (!same_hit(h, fb) && bad_brute++ < 5)
                    fprintf(stderr, "%s: ray %d: brute %u t %a, binary %u t %a\n", what, r + i,
                            h.prim, h.t, fb.prim, fb.t);
                /* a tie: another primitive at the same t, which a smaller index won */
                if (h.prim != RC_NO_PRIM)
                    for (uint32_t p = h.prim + 1; p < n; p++) {
                        float t;
                        if (rc_prim_hit(&bin->prims[p], o[i], d[i], 0.0f, INFINITY, &t) &&
                            t == h.t) {
                            ties++;
                            break;
                        }
                    }
                bad_occ += ob != rc_brute_occluded(bin->prims, n, o[i], d[i], 0.0f, tmax[i]);
            }
        }
    }
    printf("%s: %d rays, %d hits, %d ties: %d wide, %d occluded, %d stepped, %d brute mismatches\n",
           what, rays, hits, ties, bad, bad_occ, bad_step, bad_brute);
    CHECK(bad == 0 && bad_occ == 0 && bad_step == 0 && bad_brute == 0, "%s: mismatches", what);
    CHECK(hits > rays / 8, "%s: only %d hits", what, hits);
    if (brute == 2) CHECK(ties > 0, "%s: no ties met", what);
}

static void views(const rc_bvh *bvh, rc_bvh_view *bin, rc_bvh_view *wide) {
    rc_bvh t = *bvh;
    t.layout = RC_BVH_BINARY;
    *bin = rc_bvh_view_of(&t);
    t.layout = RC_BVH_WIDE;
    *wide = rc_bvh_view_of(&t);
}

/* Triangles of a few planes, many duplicated (the same triangle at several indices: exact
 * ties), fans sharing vertices and edges, degenerate ones (zero area, a point), some spheres
 * and quads. */
static void random_scene(uint32_t n, int rays, int brute, const char *what) {
    rc_prim *p = malloc(n * sizeof *p);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t kind = i % 10;
        if (kind < 3 && i >= 10) { /* a duplicate of an earlier primitive */
            p[i] = p[(uint32_t)(frand() * (float)i) % i];
            continue;
        }
        rc_vec3 c = vrand(-4, 4);
        if (kind < 6) c.z = (float)((int)(frand() * 4.0f)) - 2.0f; /* one of four planes */
        rc_vec3 a = vrand(-0.6f, 0.6f), b = vrand(-0.6f, 0.6f);
        if (kind < 6) a.z = b.z = 0.0f;
        /* degenerate, det exactly 0: collinear along an axis, two vertices at one point, a
         * point (a det that only rounds to near 0 gives hits off the triangle, outside its
         * box, which no BVH finds) */
        if (kind == 6) a = rc_v3(a.x, 0, 0), b = rc_v3(2.0f * a.x, 0, 0);
        if (kind == 7) a = (i / 10) % 2 ? rc_v3s(0.0f) : a, b = (i / 10) % 2 ? b : rc_v3s(0.0f);
        if (kind == 7 && (i / 10) % 4 == 0) a = b = rc_v3s(0.0f);
        if (kind == 8)
            p[i] = prim(RC_PRIM_SPHERE, c, frange(0.05f, 0.4f), rc_v3s(0), rc_v3s(0));
        else if (kind == 9)
            p[i] = prim(RC_PRIM_QUAD, c, 0, a, b);
        else
            p[i] = prim(RC_PRIM_TRIANGLE, c, 0, a, b);
    }
    rc_bvh bvh;
    CHECK(rc_bvh_build(p, n, &bvh) == 0 && rc_bvh_build_wide(&bvh) == 0, "%s: build", what);
    check_tree(&bvh, what);
    rc_bvh_view bin, wide;
    views(&bvh, &bin, &wide);
    compare(&bin, &wide, rays, rc_v3s(-5.0f), rc_v3s(5.0f), brute, what);
    /* rays from inside the boxes */
    compare(&bin, &wide, rays / 4, rc_v3s(-1.0f), rc_v3s(1.0f), brute, what);
    rc_bvh_free(&bvh);
    free(p);
}

/* A shipped scene through the views the renderer makes (alpha masks included). */
static void scene(const char *path) {
    rc_scene s;
    if (test_load(path, &s) != 0) {
        CHECK(0, "%s: load", path);
        return;
    }
    check_tree(&s.bvh, path);
    rc_scene_view v = rc_scene_view_make(&s, 64, 64);
    rc_bvh_view bin = v.bvh, wide = v.bvh;
    rc_bvh_view w = rc_bvh_view_of(
        &(rc_bvh){.wide = s.bvh.wide, .num_wide = s.bvh.num_wide, .layout = RC_BVH_WIDE});
    bin.layout = RC_BVH_BINARY;
    wide.layout = RC_BVH_WIDE;
    wide.wide = w.wide;
    wide.num_wide = w.num_wide;
    rc_vec3 lo = rc_v3s(INFINITY), hi = rc_v3s(-INFINITY);
    if (s.bvh.num_nodes) {
        const rc_bvh_node *r = &s.bvh.nodes[0];
        lo = rc_v3(r->lo[0], r->lo[1], r->lo[2]);
        hi = rc_v3(r->hi[0], r->hi[1], r->hi[2]);
    }
    const int brute = s.bvh.num_prims <= 2000 && !bin.masked;
    compare(&bin, &wide, brute ? 60000 : 100000, lo, hi, brute, path);
    rc_scene_free(&s);
}

/* The parallel collapse against the one-thread one: the same wide nodes, primitives, ids and
 * binary leaves, byte for byte, on n random triangles (enough for the subtrees to be parallel). */
static void parallel_collapse(uint32_t n) {
    rc_prim *p = malloc(n * sizeof *p);
    for (uint32_t i = 0; i < n; i++) {
        rc_vec3 c = rc_v3(frange(-50, 50), frange(-50, 50), frange(-50, 50));
        p[i] = prim(RC_PRIM_TRIANGLE, c, 0, rc_v3(frange(-1, 1), frange(-1, 1), frange(-1, 1)),
                    rc_v3(frange(-1, 1), frange(-1, 1), frange(-1, 1)));
    }
    rc_bvh a, b;
    CHECK(rc_bvh_build(p, n, &a) == 0 && rc_bvh_build(p, n, &b) == 0, "parallel collapse: build");
    CHECK(rc_bvh_build_wide_serial(&a) == 0 && rc_bvh_build_wide(&b) == 0,
          "parallel collapse: collapse");
    CHECK(a.num_wide == b.num_wide && a.num_wide > 512 &&
              memcmp(a.wide, b.wide, a.num_wide * sizeof *a.wide) == 0,
          "parallel collapse: %u and %u wide nodes, the same bytes", a.num_wide, b.num_wide);
    CHECK(memcmp(a.prims, b.prims, n * sizeof *a.prims) == 0 &&
              memcmp(a.ids, b.ids, n * sizeof *a.ids) == 0 &&
              memcmp(a.nodes, b.nodes, a.num_nodes * sizeof *a.nodes) == 0,
          "parallel collapse: the same primitive order and binary leaves");
    rc_bvh_free(&a);
    rc_bvh_free(&b);
    free(p);
}

/* A deferred build (primitives left in input order, reordered once by the collapse or by
 * rc_bvh_order) against the build that reorders them at once: the same bytes either way. */
static void deferred(uint32_t n) {
    rc_prim *p = malloc(n * sizeof *p), *q = malloc(n * sizeof *q), *r = malloc(n * sizeof *r);
    CHECK(p && q && r, "deferred: out of memory");
    if (!p || !q || !r) return;
    for (uint32_t i = 0; i < n; i++) {
        rc_vec3 c = rc_v3(frange(-50, 50), frange(-5, 5), frange(-50, 50));
        p[i] = i % 13 == 0 ? prim(RC_PRIM_SPHERE, c, frange(0.1f, 2.0f), c, c)
                           : prim(RC_PRIM_TRIANGLE, c, 0, vrand(-1, 1), vrand(-1, 1));
    }
    memcpy(q, p, n * sizeof *p);
    memcpy(r, p, n * sizeof *p);
    rc_bvh a, b, c;
    CHECK(rc_bvh_build(p, n, &a) == 0 && rc_bvh_build_deferred(q, n, &b) == 0 &&
              rc_bvh_build_deferred(r, n, &c) == 0,
          "deferred %u: build", n);
    CHECK(b.input_order && !a.input_order, "deferred %u: input order kept", n);
    CHECK(b.num_nodes == a.num_nodes &&
              memcmp(a.nodes, b.nodes, a.num_nodes * sizeof *a.nodes) == 0 &&
              memcmp(a.ids, b.ids, n * sizeof *a.ids) == 0 &&
              memcmp(b.prims, p, n * sizeof *p) == 0,
          "deferred %u: the same tree, the primitives untouched", n);
    CHECK(rc_bvh_order(&c) == 0 && !c.input_order &&
              memcmp(a.prims, c.prims, n * sizeof *a.prims) == 0,
          "deferred %u: rc_bvh_order gives the leaf order", n);
    CHECK(rc_bvh_build_wide(&a) == 0 && rc_bvh_build_wide(&b) == 0 && !b.input_order,
          "deferred %u: collapse", n);
    CHECK(a.num_wide == b.num_wide && memcmp(a.wide, b.wide, a.num_wide * sizeof *a.wide) == 0 &&
              memcmp(a.prims, b.prims, n * sizeof *a.prims) == 0 &&
              memcmp(a.ids, b.ids, n * sizeof *a.ids) == 0 &&
              memcmp(a.nodes, b.nodes, a.num_nodes * sizeof *a.nodes) == 0,
          "deferred %u: the same wide nodes, primitive order, ids and binary leaves", n);
    rc_bvh_free(&a);
    rc_bvh_free(&b);
    rc_bvh_free(&c);
    free(p);
}

int main(int argc, char **argv) {
    deferred(3000);
    deferred(150000);
    random_scene(1, 20000, 1, "one primitive");
    random_scene(5, 20000, 1, "one leaf");
    random_scene(300, 150000, 2, "300 primitives with duplicates");
    random_scene(20000, 200000, 0, "20000 primitives with duplicates");
    parallel_collapse(150000);
    for (int i = 1; i < argc; i++) scene(argv[i]);
    return test_finish("test_bvh_wide");
}
