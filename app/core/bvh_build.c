/* bvh_build.c: binned SAH build of the BVH, on the host, into the flat arrays of bvh.h. */
#include "bvh_build.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
/* The binning and the partition's bounds in SSE where the target has it (every x86-64): the
 * same operations in the same order as the scalar code beside them (min and max with the new
 * value first, the centroid as 0.5 (lo + hi), the bin as (c - lo) k clamped), so both give
 * the same tree bit for bit. -DRC_BVH_SCALAR builds the scalar code alone. */
#if defined(__SSE2__) && !defined(RC_BVH_SCALAR)
#include <emmintrin.h>
#define RC_BVH_SSE 1
#endif

/* A box in four lanes, of which three are used (so that SSE loads and stores a side whole);
 * the fourth is kept 0 and never read. */
typedef struct box {
    float lo[4], hi[4];
} box;

/* min and max of finite floats (the scene's numbers are checked finite before the build) as
 * comparisons the compiler turns into single instructions, where fminf and fmaxf, which must
 * also order NaN, are library calls. */
static inline float minf(float a, float b) {
    return b < a ? b : a;
}
static inline float maxf(float a, float b) {
    return b > a ? b : a;
}

static void box_empty(box *b) {
    for (int a = 0; a < 3; a++) {
        b->lo[a] = INFINITY;
        b->hi[a] = -INFINITY;
    }
    b->lo[3] = b->hi[3] = 0.0f;
}
static void box_grow(box *b, const box *o) {
#ifdef RC_BVH_SSE
    _mm_storeu_ps(b->lo, _mm_min_ps(_mm_loadu_ps(o->lo), _mm_loadu_ps(b->lo)));
    _mm_storeu_ps(b->hi, _mm_max_ps(_mm_loadu_ps(o->hi), _mm_loadu_ps(b->hi)));
#else
    for (int a = 0; a < 3; a++) {
        b->lo[a] = minf(b->lo[a], o->lo[a]);
        b->hi[a] = maxf(b->hi[a], o->hi[a]);
    }
#endif
}
/* Half the surface area (the SAH only compares areas). Empty boxes count as 0. */
static float box_area(const box *b) {
    float dx = b->hi[0] - b->lo[0], dy = b->hi[1] - b->lo[1], dz = b->hi[2] - b->lo[2];
    if (!(dx >= 0.0f && dy >= 0.0f && dz >= 0.0f)) return 0.0f;
    return dx * dy + dy * dz + dz * dx;
}

static void grow_vec(float lo[3], float hi[3], rc_vec3 p) {
    const float v[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; a++) {
        lo[a] = minf(lo[a], v[a]);
        hi[a] = maxf(hi[a], v[a]);
    }
}

void rc_prim_bounds(const rc_prim *p, float lo[3], float hi[3]) {
    for (int a = 0; a < 3; a++) {
        lo[a] = INFINITY;
        hi[a] = -INFINITY;
    }
    if (rc_prim_type(p) == RC_PRIM_SPHERE) {
        float r = fabsf(p->r);
        grow_vec(lo, hi, rc_sub(p->p, rc_v3s(r)));
        grow_vec(lo, hi, rc_add(p->p, rc_v3s(r)));
    } else {
        grow_vec(lo, hi, p->p);
        grow_vec(lo, hi, rc_add(p->p, p->a));
        grow_vec(lo, hi, rc_add(p->p, p->b));
        if (rc_prim_type(p) == RC_PRIM_QUAD) grow_vec(lo, hi, rc_add(p->p, rc_add(p->a, p->b)));
    }
    float m = 0.0f;
    for (int a = 0; a < 3; a++) m = maxf(m, maxf(fabsf(lo[a]), fabsf(hi[a])));
    float pad = 1e-5f * (1.0f + m);
    for (int a = 0; a < 3; a++) {
        lo[a] -= pad;
        hi[a] += pad;
    }
}

/* One primitive as the build moves it: its box and its input index. The build partitions
 * these records themselves (not indices into an array of boxes), so that every pass over a
 * node's range reads memory in order; the permutation is their ids at the end. A primitive's
 * centroid is its box's midpoint, computed where it is needed (12 bytes a primitive less to
 * hold; the same float expression every time, so the same bins). */
typedef struct ref {
    float lo[3], hi[3];
    uint32_t id;
} ref;

/* Build state: the references and the node array. */
typedef struct builder {
    ref *refs;
    rc_bvh_node *nodes;
    uint32_t num_nodes;
} builder;

typedef struct split {
    int axis;    /* -1: no useful split */
    int bin;     /* primitives in bins [0, bin] go left */
    float cost;  /* A_L N_L + A_R N_R */
    float lo, k; /* the axis's bins: bin_of(c, lo, k) */
} split;

static inline float centroid_of(const ref *r, int a) {
    return 0.5f * (r->lo[a] + r->hi[a]);
}

#ifdef RC_BVH_SSE
/* A reference's box as two vectors, their fourth lanes 0 (the loads overlap the next field:
 * the low side's fourth lane is hi[0], the high side's the id, whose bits must not reach an
 * addition as a denormal). */
static inline void ref_load(const ref *r, __m128 *lo, __m128 *hi) {
    const __m128 xyz = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
    *lo = _mm_and_ps(_mm_loadu_ps(r->lo), xyz);
    *hi = _mm_and_ps(_mm_loadu_ps(r->hi), xyz);
}
static inline void box_grow_v(box *b, __m128 lo, __m128 hi) {
    _mm_storeu_ps(b->lo, _mm_min_ps(lo, _mm_loadu_ps(b->lo)));
    _mm_storeu_ps(b->hi, _mm_max_ps(hi, _mm_loadu_ps(b->hi)));
}
#endif

static void box_grow_ref(box *b, box *c, const ref *r) {
#ifdef RC_BVH_SSE
    __m128 lo, hi;
    ref_load(r, &lo, &hi);
    __m128 m = _mm_mul_ps(_mm_add_ps(lo, hi), _mm_set1_ps(0.5f));
    box_grow_v(b, lo, hi);
    box_grow_v(c, m, m);
#else
    for (int a = 0; a < 3; a++) {
        b->lo[a] = minf(b->lo[a], r->lo[a]);
        b->hi[a] = maxf(b->hi[a], r->hi[a]);
        float m = centroid_of(r, a);
        c->lo[a] = minf(c->lo[a], m);
        c->hi[a] = maxf(c->hi[a], m);
    }
#endif
}

/* The bin of centroid coordinate c, for bins of width 1/k from lo (k = RC_BVH_BINS over the
 * centroids' extent: one multiplication a primitive and axis, where a division was). Monotone
 * in c, and the same expression in the binning and the partition, so a primitive lands on the
 * side its bin was counted on. A NaN (k infinite over a denormal extent, c at lo) is bin 0. */
static inline int bin_of(float c, float lo, float k) {
    float f = (c - lo) * k;
    return f >= 1.0f ? (f < (float)(RC_BVH_BINS - 1) ? (int)f : RC_BVH_BINS - 1) : 0;
}

/* k of bin_of for each axis; 0 for an axis whose centroids do not spread (all in bin 0). */
static void bin_scale(const box *cb, float k[3]) {
    for (int a = 0; a < 3; a++)
        k[a] = cb->hi[a] > cb->lo[a] ? (float)RC_BVH_BINS / (cb->hi[a] - cb->lo[a]) : 0.0f;
}

/* Nodes of at least this many primitives bin and bound them over all threads. Min, max and
 * integer counts are exact in any order, so the bins (and the tree) are those of one thread. */
#define RC_BVH_PAR_NODE 65536u

#ifdef _OPENMP
/* This thread's share [*first, *first + *count) of a range of `count` from `first`, in one
 * contiguous chunk per thread. */
static void thread_share(uint32_t *first, uint32_t *count) {
    uint32_t t = (uint32_t)omp_get_thread_num(), nt = (uint32_t)omp_get_num_threads();
    uint32_t chunk = (*count + nt - 1) / nt, a = t * chunk;
    uint32_t lo = a < *count ? a : *count, hi = a + chunk < *count ? a + chunk : *count;
    *first += lo;
    *count = hi - lo;
}
#endif

/* The bins of all three axes in one pass over the range (each primitive's centroid and box
 * read once); an axis whose centroids do not spread (lo[a] >= hi[a]) is left out. */
typedef struct axis_bins {
    box bins[3][RC_BVH_BINS];
    uint32_t n[3][RC_BVH_BINS];
} axis_bins;

static void bins_clear(axis_bins *ab) {
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < RC_BVH_BINS; b++) {
            box_empty(&ab->bins[a][b]);
            ab->n[a][b] = 0;
        }
}

/* Every axis is binned, one that does not spread (k 0) into its bin 0, which no split uses:
 * fewer branches than skipping it. */
static void bin_range(const builder *bd, uint32_t first, uint32_t count, const box *cb,
                      const float k[3], axis_bins *ab) {
    bins_clear(ab);
    const ref *r = bd->refs + first, *end = r + count;
#ifdef RC_BVH_SSE
    const __m128 clo = _mm_set_ps(0.0f, cb->lo[2], cb->lo[1], cb->lo[0]);
    const __m128 k4 = _mm_set_ps(0.0f, k[2], k[1], k[0]);
    const __m128 half = _mm_set1_ps(0.5f), zero = _mm_setzero_ps();
    const __m128 last = _mm_set1_ps((float)(RC_BVH_BINS - 1));
    for (; r < end; r++) {
        __m128 lo, hi;
        ref_load(r, &lo, &hi);
        __m128 f = _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(_mm_add_ps(lo, hi), half), clo), k4);
        /* bin_of: max(f, 0) takes NaN to 0, then at most the last bin, then truncated */
        int bin[4];
        _mm_storeu_si128((__m128i *)(void *)bin,
                         _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(f, zero), last)));
        for (int a = 0; a < 3; a++) {
            ab->n[a][bin[a]]++;
            box_grow_v(&ab->bins[a][bin[a]], lo, hi);
        }
    }
#else
    for (; r < end; r++) {
        int bin[3];
        for (int a = 0; a < 3; a++) bin[a] = bin_of(centroid_of(r, a), cb->lo[a], k[a]);
        for (int a = 0; a < 3; a++) {
            box *bb = &ab->bins[a][bin[a]];
            ab->n[a][bin[a]]++;
            for (int j = 0; j < 3; j++) {
                bb->lo[j] = minf(bb->lo[j], r->lo[j]);
                bb->hi[j] = maxf(bb->hi[j], r->hi[j]);
            }
        }
    }
#endif
}

static void bin_all(const builder *bd, uint32_t first, uint32_t count, const box *cb,
                    const float k[3], axis_bins *ab) {
#ifdef _OPENMP
    if (count >= RC_BVH_PAR_NODE && !omp_in_parallel() && omp_get_max_threads() > 1) {
        bins_clear(ab);
#pragma omp parallel
        {
            axis_bins mine;
            uint32_t f = first, c = count;
            thread_share(&f, &c);
            bin_range(bd, f, c, cb, k, &mine);
#pragma omp critical(rc_bvh_bins)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < RC_BVH_BINS; b++) {
                    ab->n[a][b] += mine.n[a][b];
                    box_grow(&ab->bins[a][b], &mine.bins[a][b]);
                }
        }
        return;
    }
#endif
    bin_range(bd, first, count, cb, k, ab);
}

/* The best of the 15 bin boundaries of one axis (Wald 2007 §3: bin, then sweep). The sweep
 * visits only the bins that hold primitives: a boundary between two of them with empty bins
 * in between splits the same sets at the same cost as the first boundary after the left one,
 * which is the one the sweep over all 15 would keep (a later equal cost does not replace it),
 * so the result is the full sweep's at a cost of the occupied bins (few in the small nodes
 * that are most of the tree). */
static void best_split_on_axis(const box *bins, const uint32_t *nbin, int axis, float lo, float k,
                               split *best) {
    int used[RC_BVH_BINS], m = 0;
    for (int b = 0; b < RC_BVH_BINS; b++)
        if (nbin[b]) used[m++] = b;
    if (m < 2) return;
    float right_area[RC_BVH_BINS];
    uint32_t right_n[RC_BVH_BINS];
    box acc;
    box_empty(&acc);
    uint32_t n = 0;
    for (int i = m - 1; i > 0; i--) {
        box_grow(&acc, &bins[used[i]]);
        n += nbin[used[i]];
        right_area[i] = box_area(&acc);
        right_n[i] = n;
    }
    box_empty(&acc);
    n = 0;
    for (int i = 0; i < m - 1; i++) {
        box_grow(&acc, &bins[used[i]]);
        n += nbin[used[i]];
        float cost = box_area(&acc) * (float)n + right_area[i + 1] * (float)right_n[i + 1];
        if (best->axis < 0 || cost < best->cost) {
            best->axis = axis;
            best->bin = used[i];
            best->cost = cost;
            best->lo = lo;
            best->k = k;
        }
    }
}

static split find_split(const builder *bd, uint32_t first, uint32_t count, const box *cb) {
    split best = {-1, 0, 0.0f, 0.0f, 0.0f};
    float k[3];
    bin_scale(cb, k);
    if (k[0] == 0.0f && k[1] == 0.0f && k[2] == 0.0f) return best;
    axis_bins ab;
    bin_all(bd, first, count, cb, k, &ab);
    for (int axis = 0; axis < 3; axis++)
        if (k[axis] > 0.0f)
            best_split_on_axis(ab.bins[axis], ab.n[axis], axis, cb->lo[axis], k[axis], &best);
    return best;
}

/* Move the primitives of the split's left bins to the front of the range; returns their
 * number (always in (0, count) for a split found by find_split). The children's bounds and
 * centroid bounds (kid[0], kid[1] left; kid[2], kid[3] right) are grown on the way, as each
 * primitive takes its side, so no child scans its range for them again. */
static uint32_t partition_serial(builder *bd, uint32_t first, uint32_t count, const split *s,
                                 box kid[4]) {
    for (int k = 0; k < 4; k++) box_empty(&kid[k]);
    ref *refs = bd->refs;
    uint32_t i = first, j = first + count;
    while (i < j) {
        if (bin_of(centroid_of(&refs[i], s->axis), s->lo, s->k) <= s->bin) {
            box_grow_ref(&kid[0], &kid[1], &refs[i]);
            i++;
        } else {
            j--;
            ref t = refs[i];
            refs[i] = refs[j];
            refs[j] = t;
            box_grow_ref(&kid[2], &kid[3], &t);
        }
    }
    return i - first;
}

#ifdef _OPENMP
#define RC_BVH_MAX_TEAM 256 /* threads a parallel partition uses at most */

typedef struct span {
    uint32_t at, n;
} span;

/* The spans of [a, b) ∩ [lo, hi) of each thread's chunk, in thread order; their total. */
static uint32_t clip_spans(const uint32_t *a, const uint32_t *b, int team, uint32_t lo, uint32_t hi,
                           span *out, int *num) {
    uint32_t total = 0;
    *num = 0;
    for (int t = 0; t < team; t++) {
        uint32_t x = a[t] > lo ? a[t] : lo, y = b[t] < hi ? b[t] : hi;
        if (x < y) {
            out[(*num)++] = (span){x, y - x};
            total += y - x;
        }
    }
    return total;
}

/* The position of the k-th element of a list of spans, as span index and offset. */
static void span_seek(const span *sp, uint32_t k, int *i, uint32_t *off) {
    *i = 0;
    while (k >= sp[*i].n) k -= sp[(*i)++].n;
    *off = k;
}

/* The partition of a large node over all threads: each partitions a contiguous chunk of the
 * range in place (and grows its share of the children's bounds), then the right-side
 * primitives that lie in what must be the left part trade places with the left-side ones
 * beyond it, the k-th of one with the k-th of the other, in parallel. The children hold the
 * same primitives as after the serial partition, in another order, which nothing below
 * depends on: binning and bounds are order-free, the median split sorts by centroid and id,
 * and a leaf's primitives are put in id order (sort_leaf). */
static uint32_t partition_parallel(builder *bd, uint32_t first, uint32_t count, const split *s,
                                   box kid[4]) {
    uint32_t cf[RC_BVH_MAX_TEAM], ce[RC_BVH_MAX_TEAM], cm[RC_BVH_MAX_TEAM];
    span wrong_left[RC_BVH_MAX_TEAM], wrong_right[RC_BVH_MAX_TEAM];
    int team = 1, want = omp_get_max_threads();
    if (want > RC_BVH_MAX_TEAM) want = RC_BVH_MAX_TEAM;
    for (int k = 0; k < 4; k++) box_empty(&kid[k]);
#pragma omp parallel num_threads(want)
    {
        int t = omp_get_thread_num();
#pragma omp single
        team = omp_get_num_threads();
        uint32_t f = first, c = count;
        thread_share(&f, &c);
        box mine[4];
        uint32_t l = partition_serial(bd, f, c, s, mine);
        cf[t] = f;
        cm[t] = f + l;
        ce[t] = f + c;
#pragma omp critical(rc_bvh_partition)
        for (int k = 0; k < 4; k++) box_grow(&kid[k], &mine[k]);
    }
    uint32_t left = 0;
    for (int t = 0; t < team; t++) left += cm[t] - cf[t];
    uint32_t mid = first + left;
    int nl, nr;
    /* right-side primitives before mid, left-side ones from mid on: as many of each */
    uint32_t wrong = clip_spans(cm, ce, team, first, mid, wrong_left, &nl);
    (void)clip_spans(cf, cm, team, mid, first + count, wrong_right, &nr);
    ref *refs = bd->refs;
#pragma omp parallel num_threads(team) if (wrong >= RC_BVH_PAR_NODE / 4)
    {
        uint32_t k = 0, c = wrong;
        thread_share(&k, &c);
        if (c > 0) {
            int a, b;
            uint32_t oa, ob;
            span_seek(wrong_left, k, &a, &oa);
            span_seek(wrong_right, k, &b, &ob);
            for (; c > 0; c--) {
                ref *x = &refs[wrong_left[a].at + oa], *y = &refs[wrong_right[b].at + ob];
                ref tmp = *x;
                *x = *y;
                *y = tmp;
                if (++oa == wrong_left[a].n) a++, oa = 0;
                if (++ob == wrong_right[b].n) b++, ob = 0;
            }
        }
    }
    return left;
}
#endif

static uint32_t partition(builder *bd, uint32_t first, uint32_t count, const split *s, box kid[4]) {
#ifdef _OPENMP
    if (count >= RC_BVH_PAR_NODE && !omp_in_parallel() && omp_get_max_threads() > 1)
        return partition_parallel(bd, first, count, s, kid);
#endif
    return partition_serial(bd, first, count, s, kid);
}

/* A leaf's primitives in input order (at most a few: insertion sort), so that the order the
 * partitions left them in, which depends on the thread count, never shows. */
static void sort_leaf(ref *r, uint32_t count) {
    for (uint32_t i = 1; i < count; i++) {
        ref x = r[i];
        uint32_t j = i;
        for (; j > 0 && r[j - 1].id > x.id; j--) r[j] = r[j - 1];
        r[j] = x;
    }
}

typedef struct keyed {
    float key;
    uint32_t id, at;
} keyed;

/* Ties broken by input index, so the order (and the tree) does not depend on qsort's
 * algorithm. */
static int cmp_keyed(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->id < y->id ? -1 : (x->id > y->id);
}

static void bounds_of_refs(const ref *r, uint32_t count, box *nb, box *cb) {
    box_empty(nb);
    box_empty(cb);
    for (uint32_t i = 0; i < count; i++) box_grow_ref(nb, cb, &r[i]);
}

/* Object median along the widest centroid axis: always splits, whatever the input. Without
 * memory for the sort it still halves the range, unsorted. The children's bounds into kid[]
 * as partition gives them. */
static uint32_t median_split(builder *bd, uint32_t first, uint32_t count, const box *cb,
                             box kid[4]) {
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (cb->hi[a] - cb->lo[a] > cb->hi[axis] - cb->lo[axis]) axis = a;
    ref *r = bd->refs + first;
    keyed *k = malloc(count * sizeof *k);
    ref *sorted = malloc(count * sizeof *sorted);
    if (k && sorted) {
        for (uint32_t i = 0; i < count; i++) {
            k[i].id = r[i].id;
            k[i].at = i;
            k[i].key = centroid_of(&r[i], axis);
        }
        qsort(k, count, sizeof *k, cmp_keyed);
        for (uint32_t i = 0; i < count; i++) sorted[i] = r[k[i].at];
        memcpy(r, sorted, count * sizeof *r);
    }
    free(k);
    free(sorted);
    uint32_t left = count / 2;
    bounds_of_refs(r, left, &kid[0], &kid[1]);
    bounds_of_refs(r + left, count - left, &kid[2], &kid[3]);
    return left;
}

static void set_bounds(rc_bvh_node *node, const box *b) {
    for (int a = 0; a < 3; a++) {
        node->lo[a] = b->lo[a];
        node->hi[a] = b->hi[a];
    }
}

/* Decide leaf or split for one node; returns the left count, or 0 for a leaf (the
 * children's bounds into kid[] for a split). */
static uint32_t choose_split(builder *bd, uint32_t first, uint32_t count, uint32_t depth,
                             const box *nb, const box *cb, box kid[4]) {
    if (count <= 1) return 0;
    if (depth >= RC_BVH_SAH_DEPTH)
        return count <= RC_BVH_LEAF_MAX ? 0 : median_split(bd, first, count, cb, kid);
    split s = find_split(bd, first, count, cb);
    /* SAH with unit intersection cost and unit traversal cost, relative to the node's area. */
    float area = box_area(nb);
    float split_cost = s.axis >= 0 && area > 0.0f ? 1.0f + s.cost / area : INFINITY;
    if (count <= RC_BVH_LEAF_MAX && (float)count <= split_cost) return 0;
    if (s.axis >= 0) return partition(bd, first, count, &s, kid);
    return median_split(bd, first, count, cb, kid);
}

/* A node to build: its range, depth, and the bounds of its primitives (nb) and of their
 * centroids (cb), which its parent's partition found. */
typedef struct work {
    uint32_t node, first, count, depth;
    box nb, cb;
} work;

/* The bounds of a range's primitives and of their centroids, over all threads for a large one
 * (min and max: the same numbers in any order). */
static void range_bounds_serial(const builder *bd, uint32_t first, uint32_t count, box *nb,
                                box *cb) {
    bounds_of_refs(bd->refs + first, count, nb, cb);
}

static void range_bounds(const builder *bd, uint32_t first, uint32_t count, box *nb, box *cb) {
#ifdef _OPENMP
    if (count >= RC_BVH_PAR_NODE && !omp_in_parallel() && omp_get_max_threads() > 1) {
        box_empty(nb);
        box_empty(cb);
#pragma omp parallel
        {
            box mn, mc;
            uint32_t f = first, c = count;
            thread_share(&f, &c);
            range_bounds_serial(bd, f, c, &mn, &mc);
#pragma omp critical(rc_bvh_bounds)
            {
                box_grow(nb, &mn);
                box_grow(cb, &mc);
            }
        }
        return;
    }
#endif
    range_bounds_serial(bd, first, count, nb, cb);
}

/* One node's work: leaf or split. Returns the left count (0: a leaf); for a split, the
 * children's work (their node numbers left to the caller) into kids[0] (left), kids[1]. */
static uint32_t build_node(builder *bd, rc_bvh_node *node, const work *w, work kids[2]) {
    box kid[4];
    set_bounds(node, &w->nb);
    uint32_t left = choose_split(bd, w->first, w->count, w->depth, &w->nb, &w->cb, kid);
    if (left == 0) {
        node->first = w->first;
        node->count = w->count;
        sort_leaf(bd->refs + w->first, w->count);
        return 0;
    }
    kids[0] = (work){0, w->first, left, w->depth + 1, kid[0], kid[1]};
    kids[1] = (work){0, w->first + left, w->count - left, w->depth + 1, kid[2], kid[3]};
    return left;
}

/* The serial build of the subtree of root work `root` into nodes[] (the root at nodes[0], its
 * descendants numbered from 1 as they are split); returns the node count. Leaves' `first`
 * index the shared references, which the subtree only reorders inside its own range. */
static uint32_t build_subtree(builder *bd, rc_bvh_node *nodes, work root, work *stack) {
    int top = 0;
    uint32_t num = 1;
    root.node = 0;
    stack[top++] = root;
    while (top > 0) {
        work w = stack[--top], kids[2];
        rc_bvh_node *node = &nodes[w.node];
        if (build_node(bd, node, &w, kids) == 0) continue;
        uint32_t child = num;
        num += 2;
        node->first = child;
        node->count = 0;
        kids[1].node = child + 1;
        kids[0].node = child;
        stack[top++] = kids[1];
        stack[top++] = kids[0];
    }
    return num;
}

/* Subtrees of at most this many primitives are built as tasks of their own, in parallel; at
 * least RC_BVH_TASK_PRIMS, and an eighth of a thread's share where that is more, so that the
 * top of the tree, whose nodes take turns with all threads, ends where there are about eight
 * tasks a thread (on 16 threads and 16 M primitives the nodes from 32768 to 131072 primitives
 * were one level of the tree built one node at a time). Which nodes are tasks does not change
 * the tree: a node is split the same way on one thread or on all. */
#define RC_BVH_TASK_PRIMS 32768u

static uint32_t task_prims(uint32_t n) {
#ifdef _OPENMP
    const uint64_t share = (uint64_t)n / (8u * (uint64_t)omp_get_max_threads());
    return share > RC_BVH_TASK_PRIMS ? (uint32_t)share : RC_BVH_TASK_PRIMS;
#else
    (void)n;
    return RC_BVH_TASK_PRIMS;
#endif
}

typedef struct subtree {
    work root;
    rc_bvh_node *nodes; /* its own array, root at 0 */
    uint32_t num;
} subtree;

/* A reference to a node while the tree is in pieces: the top tree's node (tree -1) or node i
 * of subtree `tree`. */
typedef struct noderef {
    int32_t tree;
    uint32_t i;
} noderef;

/* Subtree `sub` (its root at sub[0]) into nodes[] as the renumber numbers it: its root at
 * `at`, its descendants from `next` on. */
static void renumber_subtree(rc_bvh_node *nodes, const rc_bvh_node *sub, uint32_t at,
                             uint32_t next) {
    uint32_t rs[2 * RC_BVH_STACK + 2], ri[2 * RC_BVH_STACK + 2];
    int top = 0;
    rs[top] = 0;
    ri[top++] = at;
    while (top > 0) {
        top--;
        const rc_bvh_node *src = &sub[rs[top]];
        rc_bvh_node *dst = &nodes[ri[top]];
        *dst = *src;
        if (dst->count > 0) continue;
        const uint32_t child = next;
        next += 2;
        dst->first = child;
        rs[top] = src->first + 1;
        ri[top++] = child + 1;
        rs[top] = src->first;
        ri[top++] = child;
    }
}

/* The build: the top of the tree one node at a time (each large node binned over all
 * threads), the subtrees below RC_BVH_TASK_PRIMS side by side, then every node renumbered in
 * the order the one-thread build numbers them (a node's children as a pair when it is split,
 * the left subtree's before the right one's), so the tree is the same node for node whatever
 * the thread count. Returns 0, or -1 when out of memory. */
static int build_nodes(builder *bd, uint32_t n, work *stack, uint32_t **ids) {
    size_t cap_top = 64, cap_sub = 64;
    rc_bvh_node *top_nodes = malloc(cap_top * sizeof *top_nodes);
    int32_t *top_task = malloc(cap_top * sizeof *top_task); /* subtree of a top node, or -1 */
    subtree *subs = malloc(cap_sub * sizeof *subs);
    uint32_t num_top = 1, num_subs = 0;
    const uint32_t task = task_prims(n);
    int rc = -1;
    if (!top_nodes || !top_task || !subs) goto done;
    top_task[0] = -1;
    {
        int top = 0;
        stack[top] = (work){0, 0, n, 0, {{0}, {0}}, {{0}, {0}}};
        range_bounds(bd, 0, n, &stack[top].nb, &stack[top].cb);
        top++;
        while (top > 0) {
            work w = stack[--top], kids[2];
            if (w.count <= task && n > task) {
                if (num_subs == cap_sub) {
                    subtree *g = realloc(subs, 2 * cap_sub * sizeof *subs);
                    if (!g) goto done;
                    subs = g;
                    cap_sub *= 2;
                }
                top_task[w.node] = (int32_t)num_subs;
                subs[num_subs].root = w;
                subs[num_subs].nodes = NULL;
                subs[num_subs++].num = 0;
                continue;
            }
            if (build_node(bd, &top_nodes[w.node], &w, kids) == 0) continue;
            if (num_top + 2 > cap_top) {
                rc_bvh_node *g = realloc(top_nodes, 2 * cap_top * sizeof *top_nodes);
                if (!g) goto done;
                top_nodes = g;
                int32_t *gt = realloc(top_task, 2 * cap_top * sizeof *top_task);
                if (!gt) goto done;
                top_task = gt;
                cap_top *= 2;
            }
            uint32_t child = num_top;
            num_top += 2;
            top_task[child] = top_task[child + 1] = -1;
            top_nodes[w.node].first = child;
            top_nodes[w.node].count = 0;
            kids[1].node = child + 1;
            kids[0].node = child;
            stack[top++] = kids[1];
            stack[top++] = kids[0];
        }
    }
    /* the subtrees, each on one thread with its own stack */
    int failed = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : failed)
    for (uint32_t t = 0; t < num_subs; t++) {
        work *st = malloc((2 * (size_t)RC_BVH_STACK + 2) * sizeof *st);
        subs[t].nodes = malloc(2 * (size_t)subs[t].root.count * sizeof *subs[t].nodes);
        if (!st || !subs[t].nodes) {
            failed = 1;
        } else {
            subs[t].num = build_subtree(bd, subs[t].nodes, subs[t].root, st);
        }
        free(st);
    }
    if (failed) goto done;
    /* The boxes are not needed any more, only the permutation (the references' ids, packed
     * in place to the front of their array and the rest given back), and the tree's size is
     * known: the final array holds exactly its nodes (each subtree's root takes the top tree's
     * slot that stood for it). */
    {
        uint32_t *packed = (uint32_t *)(void *)bd->refs;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t id = bd->refs[i].id; /* ids[i] overwrites bytes of refs before i only */
            packed[i] = id;
        }
        uint32_t *shrunk = realloc(packed, (size_t)n * sizeof *shrunk);
        *ids = shrunk ? shrunk : packed;
        bd->refs = NULL;
    }
    {
        size_t total = num_top;
        for (uint32_t t = 0; t < num_subs; t++) total += subs[t].num - 1u;
        bd->nodes = malloc(total * sizeof *bd->nodes);
        if (!bd->nodes) goto done;
    }
    {
        /* renumber: pop a node, give a split node's children the next pair, visit left first.
         * A node's descendants are numbered before anything popped after it, so a subtree's
         * take one block (num - 1 of them, after its root's place): the top tree is walked
         * here, each subtree given its root's place and its block, and the subtrees are
         * renumbered side by side, each freed once copied, so the copies and the pieces never
         * add up to two trees. */
        noderef *rs = malloc((2 * (size_t)RC_BVH_STACK + 2) * sizeof *rs);
        uint32_t *ri = malloc((2 * (size_t)RC_BVH_STACK + 2) * sizeof *ri);
        uint32_t *sub_at = malloc((2 * (size_t)num_subs + 1) * sizeof *sub_at);
        if (!rs || !ri || !sub_at) {
            free(rs);
            free(ri);
            free(sub_at);
            goto done;
        }
        uint32_t *sub_next = sub_at + num_subs;
        int top = 0;
        uint32_t next = 1;
        rs[top] = (noderef){-1, 0};
        ri[top++] = 0;
        while (top > 0) {
            top--;
            const noderef r = rs[top];
            const uint32_t at = ri[top];
            if (top_task[r.i] >= 0) {
                const uint32_t t = (uint32_t)top_task[r.i];
                sub_at[t] = at;
                sub_next[t] = next;
                next += subs[t].num - 1u;
                continue;
            }
            const rc_bvh_node *src = &top_nodes[r.i];
            rc_bvh_node *dst = &bd->nodes[at];
            *dst = *src;
            if (dst->count > 0) continue;
            uint32_t child = next;
            next += 2;
            dst->first = child;
            rs[top] = (noderef){-1, src->first + 1};
            ri[top++] = child + 1;
            rs[top] = (noderef){-1, src->first};
            ri[top++] = child;
        }
        bd->num_nodes = next;
        free(rs);
        free(ri);
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t t = 0; t < (int64_t)num_subs; t++) {
            renumber_subtree(bd->nodes, subs[t].nodes, sub_at[t], sub_next[t]);
            free(subs[t].nodes);
            subs[t].nodes = NULL;
        }
        free(sub_at);
    }
    rc = 0;
done:
    if (subs)
        for (uint32_t t = 0; t < num_subs; t++) free(subs[t].nodes);
    free(subs);
    free(top_nodes);
    free(top_task);
    return rc;
}

/* One cycle after another from each unmarked slot: the reordering of a small array, and of
 * the cycles the cut walks below leave (those through no cut). */
static void permute_cycles(rc_prim *prims, uint32_t *ids, const uint32_t *perm, uint32_t n,
                           uint8_t *done) {
    for (uint32_t start = 0; start < n; start++) {
        if (done[start >> 3] & (1u << (start & 7))) continue;
        const rc_prim keep = prims[start];
        const uint32_t keep_id = ids ? ids[start] : 0u;
        uint32_t at = start;
        for (;;) {
            done[at >> 3] |= (uint8_t)(1u << (at & 7));
            const uint32_t from = perm[at];
            const int last = from == start;
            prims[at] = last ? keep : prims[from];
            if (ids) ids[at] = last ? keep_id : ids[from];
            if (last) break;
            at = from;
        }
    }
}

/* A large permutation's cycles are few and long, and walking one is a chain of dependent
 * cache misses (about 200 ns a step on 16 M primitives). So the walk is cut: every slot at a
 * multiple of PERM_CUT is a cut, its old value saved first; from each cut a walk moves values
 * along its cycle up to the next cut, whose old value it takes from the saved copy. Each slot
 * has one predecessor in the permutation, so exactly one walk reads it and then writes it:
 * the walks run in parallel, PERM_LANES interleaved in each thread so that as many misses are
 * in flight, and the cycles through no cut are walked whole afterwards. The result is the
 * serial walk's, slot for slot. */
#define PERM_CUT   1024u
#define PERM_LANES 8
#define PERM_MIN   (1u << 16)

static void mark_done(uint8_t *done, uint32_t at) {
    __atomic_fetch_or(&done[at >> 3], (uint8_t)(1u << (at & 7)), __ATOMIC_RELAXED);
}

void rc_bvh_permute(rc_prim *prims, uint32_t *ids, const uint32_t *perm, uint32_t n,
                    uint8_t *done) {
    const uint32_t cuts = (n + PERM_CUT - 1) / PERM_CUT;
    rc_prim *saved = n >= PERM_MIN ? malloc((size_t)cuts * sizeof *saved) : NULL;
    uint32_t *saved_id = saved && ids ? malloc((size_t)cuts * sizeof *saved_id) : NULL;
    if (!saved || (ids && !saved_id)) { /* small, or no memory for the copies: one walk */
        free(saved);
        permute_cycles(prims, ids, perm, n, done);
        return;
    }
    for (uint32_t k = 0; k < cuts; k++) {
        saved[k] = prims[(size_t)k * PERM_CUT];
        if (ids) saved_id[k] = ids[(size_t)k * PERM_CUT];
    }
    const int64_t groups = (int64_t)((cuts + PERM_LANES - 1) / PERM_LANES);
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t g = 0; g < groups; g++) {
        uint32_t at[PERM_LANES], from[PERM_LANES];
        int live = 0;
        for (int l = 0; l < PERM_LANES; l++) {
            const uint64_t k = (uint64_t)g * PERM_LANES + (uint64_t)l;
            at[l] = k < cuts ? (uint32_t)k * PERM_CUT : UINT32_MAX;
            live += k < cuts;
        }
        while (live > 0) {
            for (int l = 0; l < PERM_LANES; l++) {
                if (at[l] == UINT32_MAX) continue;
                from[l] = perm[at[l]];
                __builtin_prefetch(&prims[from[l]]);
                if (ids) __builtin_prefetch(&ids[from[l]]);
            }
            for (int l = 0; l < PERM_LANES; l++) {
                const uint32_t a = at[l];
                if (a == UINT32_MAX) continue;
                const uint32_t f = from[l];
                mark_done(done, a);
                if (f % PERM_CUT == 0) { /* the next cut: its old value, and this walk ends */
                    prims[a] = saved[f / PERM_CUT];
                    if (ids) ids[a] = saved_id[f / PERM_CUT];
                    at[l] = UINT32_MAX;
                    live--;
                    continue;
                }
                prims[a] = prims[f];
                if (ids) ids[a] = ids[f];
                at[l] = f;
                __builtin_prefetch(&perm[f]);
            }
        }
    }
    free(saved);
    free(saved_id);
    permute_cycles(prims, ids, perm, n, done);
}

/* The build over `prims`, which it reorders into leaf order in place on success (untouched on
 * failure). Its memory at the peak: the references (28 bytes a primitive) beside the tree's
 * pieces, then the permutation (4) beside the tree, whose pieces are copied into one array
 * and freed one by one. */
static int build_in_place(rc_prim *prims, uint32_t n, rc_bvh *out, int permute) {
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    builder bd = {0};
    uint32_t *ids = NULL;
    bd.refs = malloc(n * sizeof *bd.refs);
    /* The work stack holds at most one pending sibling per level, plus the current node. */
    work *stack = malloc((2 * (size_t)RC_BVH_STACK + 2) * sizeof *stack);
    uint8_t *done = NULL;
    if (!bd.refs || !stack) goto fail;
#pragma omp parallel for schedule(static) if (n >= RC_BVH_PAR_NODE)
    for (uint32_t i = 0; i < n; i++) {
        rc_prim_bounds(&prims[i], bd.refs[i].lo, bd.refs[i].hi);
        bd.refs[i].id = i;
    }
    if (build_nodes(&bd, n, stack, &ids) != 0) goto fail;
    if (permute) {
        done = calloc(((size_t)n + 7) / 8, 1);
        if (!done) goto fail;
        rc_bvh_permute(prims, NULL, ids, n, done);
        free(done);
    }
    out->input_order = !permute;
    out->nodes = bd.nodes;
    out->num_nodes = bd.num_nodes;
    out->prims = prims;
    out->ids = ids; /* leaf-order primitive i is input primitive ids[i] */
    out->num_prims = n;
    free(stack);
    return 0;
fail:
    free(bd.refs);
    free(ids);
    free(bd.nodes);
    free(stack);
    memset(out, 0, sizeof *out);
    return -1;
}

int rc_bvh_build_take(rc_prim *prims, uint32_t n, rc_bvh *out) {
    if (build_in_place(prims, n, out, 1) != 0) return -1;
    if (n == 0) free(prims);
    return 0;
}

int rc_bvh_build_deferred(rc_prim *prims, uint32_t n, rc_bvh *out) {
    if (build_in_place(prims, n, out, 0) != 0) return -1;
    if (n == 0) free(prims);
    return 0;
}

int rc_bvh_order(rc_bvh *bvh) {
    if (!bvh->input_order) return 0;
    uint8_t *done = calloc(((size_t)bvh->num_prims + 7) / 8, 1);
    if (!done) return -1;
    rc_bvh_permute(bvh->prims, NULL, bvh->ids, bvh->num_prims, done);
    free(done);
    bvh->input_order = 0;
    return 0;
}

int rc_bvh_build(const rc_prim *prims, uint32_t n, rc_bvh *out) {
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    rc_prim *copy = malloc(n * sizeof *copy);
    if (!copy) return -1;
    memcpy(copy, prims, n * sizeof *copy);
    if (build_in_place(copy, n, out, 1) != 0) {
        free(copy);
        return -1;
    }
    return 0;
}

void rc_bvh_free(rc_bvh *bvh) {
    if (!bvh) return;
    free(bvh->nodes);
    free(bvh->prims);
    free(bvh->ids);
    free(bvh->wide);
    memset(bvh, 0, sizeof *bvh);
}

rc_bvh_view rc_bvh_view_of(const rc_bvh *bvh) {
    rc_bvh_view v;
    memset(&v, 0, sizeof v);
    v.nodes = bvh->nodes;
    v.prims = bvh->prims;
    v.num_nodes = bvh->num_nodes;
    v.num_prims = bvh->num_prims;
    v.layout = bvh->layout == RC_BVH_WIDE && bvh->wide ? RC_BVH_WIDE : RC_BVH_BINARY;
    if (v.layout == RC_BVH_WIDE) {
        v.wide = bvh->wide;
        v.num_wide = bvh->num_wide;
    }
    return v;
}

static double node_area(const rc_bvh_node *n) {
    double dx = (double)n->hi[0] - n->lo[0], dy = (double)n->hi[1] - n->lo[1],
           dz = (double)n->hi[2] - n->lo[2];
    return 2.0 * (dx * dy + dy * dz + dz * dx);
}

double rc_bvh_sah_cost(const rc_bvh *bvh) {
    if (bvh->num_nodes == 0) return 0.0;
    double root = node_area(&bvh->nodes[0]), sum = 0.0;
    if (!(root > 0.0)) return 0.0;
    for (uint32_t i = 0; i < bvh->num_nodes; i++) {
        const rc_bvh_node *n = &bvh->nodes[i];
        sum += node_area(n) * (n->count > 0 ? (double)n->count : 1.0);
    }
    return sum / root;
}

static uint32_t depth_of(const rc_bvh *bvh, uint32_t node, uint32_t d) {
    const rc_bvh_node *n = &bvh->nodes[node];
    if (n->count > 0) return d;
    uint32_t a = depth_of(bvh, n->first, d + 1), b = depth_of(bvh, n->first + 1, d + 1);
    return a > b ? a : b;
}

uint32_t rc_bvh_depth(const rc_bvh *bvh) {
    return bvh->num_nodes ? depth_of(bvh, 0, 0) : 0;
}
