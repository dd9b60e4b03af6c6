/* bvh_build.c: binned SAH build of the BVH, on the host, into the flat arrays of bvh.h. */
#include "bvh_build.h"

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct box {
    float lo[3], hi[3];
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
}
static void box_grow(box *b, const box *o) {
    for (int a = 0; a < 3; a++) {
        b->lo[a] = minf(b->lo[a], o->lo[a]);
        b->hi[a] = maxf(b->hi[a], o->hi[a]);
    }
}
static void box_grow_point(box *b, const float p[3]) {
    for (int a = 0; a < 3; a++) {
        b->lo[a] = minf(b->lo[a], p[a]);
        b->hi[a] = maxf(b->hi[a], p[a]);
    }
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

/* Build state: per-primitive boxes, the index permutation, the node array. A primitive's
 * centroid is its box's midpoint, computed where it is needed (12 bytes a primitive less to
 * hold; the same float expression every time, so the same bins). */
typedef struct builder {
    box *boxes;
    uint32_t *idx;
    rc_bvh_node *nodes;
    uint32_t num_nodes;
} builder;

typedef struct split {
    int axis;     /* -1: no useful split */
    int bin;      /* primitives in bins [0, bin] go left */
    float cost;   /* A_L N_L + A_R N_R */
    float lo, hi; /* centroid range of the axis */
} split;

static inline float centroid_of(const builder *bd, uint32_t p, int a) {
    return 0.5f * (bd->boxes[p].lo[a] + bd->boxes[p].hi[a]);
}

static int bin_of(float c, float lo, float hi) {
    int b = (int)((c - lo) / (hi - lo) * RC_BVH_BINS);
    return b < 0 ? 0 : (b >= RC_BVH_BINS ? RC_BVH_BINS - 1 : b);
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

static void bin_range(const builder *bd, uint32_t first, uint32_t count, const box *cb,
                      const int use[3], axis_bins *ab) {
    bins_clear(ab);
    for (uint32_t i = first; i < first + count; i++) {
        uint32_t p = bd->idx[i];
        const box *pb = &bd->boxes[p];
        for (int a = 0; a < 3; a++) {
            if (!use[a]) continue;
            int b = bin_of(centroid_of(bd, p, a), cb->lo[a], cb->hi[a]);
            ab->n[a][b]++;
            box_grow(&ab->bins[a][b], pb);
        }
    }
}

static void bin_all(const builder *bd, uint32_t first, uint32_t count, const box *cb,
                    const int use[3], axis_bins *ab) {
#ifdef _OPENMP
    if (count >= RC_BVH_PAR_NODE && !omp_in_parallel() && omp_get_max_threads() > 1) {
        bins_clear(ab);
#pragma omp parallel
        {
            axis_bins mine;
            uint32_t f = first, c = count;
            thread_share(&f, &c);
            bin_range(bd, f, c, cb, use, &mine);
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
    bin_range(bd, first, count, cb, use, ab);
}

/* The best of the 15 bin boundaries of one axis (Wald 2007 §3: bin, then sweep). */
static void best_split_on_axis(const box *bins, const uint32_t *nbin, int axis, float lo, float hi,
                               split *best) {
    float right_area[RC_BVH_BINS];
    uint32_t right_n[RC_BVH_BINS];
    box acc;
    box_empty(&acc);
    uint32_t n = 0;
    for (int b = RC_BVH_BINS - 1; b > 0; b--) {
        box_grow(&acc, &bins[b]);
        n += nbin[b];
        right_area[b] = box_area(&acc);
        right_n[b] = n;
    }
    box_empty(&acc);
    n = 0;
    for (int b = 0; b < RC_BVH_BINS - 1; b++) {
        box_grow(&acc, &bins[b]);
        n += nbin[b];
        if (n == 0 || right_n[b + 1] == 0) continue;
        float cost = box_area(&acc) * (float)n + right_area[b + 1] * (float)right_n[b + 1];
        if (best->axis < 0 || cost < best->cost) {
            best->axis = axis;
            best->bin = b;
            best->cost = cost;
            best->lo = lo;
            best->hi = hi;
        }
    }
}

static split find_split(const builder *bd, uint32_t first, uint32_t count, const box *cb) {
    split best = {-1, 0, 0.0f, 0.0f, 0.0f};
    int use[3];
    for (int a = 0; a < 3; a++) use[a] = cb->hi[a] > cb->lo[a];
    if (!use[0] && !use[1] && !use[2]) return best;
    axis_bins ab;
    bin_all(bd, first, count, cb, use, &ab);
    for (int axis = 0; axis < 3; axis++)
        if (use[axis])
            best_split_on_axis(ab.bins[axis], ab.n[axis], axis, cb->lo[axis], cb->hi[axis], &best);
    return best;
}

/* Move the primitives of the split's left bins to the front of the range; returns their
 * number (always in (0, count) for a split found by find_split). */
static uint32_t partition(builder *bd, uint32_t first, uint32_t count, const split *s) {
    uint32_t i = first, j = first + count;
    while (i < j) {
        uint32_t p = bd->idx[i];
        if (bin_of(centroid_of(bd, p, s->axis), s->lo, s->hi) <= s->bin) {
            i++;
        } else {
            j--;
            bd->idx[i] = bd->idx[j];
            bd->idx[j] = p;
        }
    }
    return i - first;
}

typedef struct keyed {
    float key;
    uint32_t idx;
} keyed;

/* Ties broken by index, so the order (and the tree) does not depend on qsort's algorithm. */
static int cmp_keyed(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

/* Object median along the widest centroid axis: always splits, whatever the input. Without
 * memory for the sort it still halves the range, unsorted. */
static uint32_t median_split(builder *bd, uint32_t first, uint32_t count, const box *cb) {
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (cb->hi[a] - cb->lo[a] > cb->hi[axis] - cb->lo[axis]) axis = a;
    keyed *k = malloc(count * sizeof *k);
    if (!k) return count / 2;
    for (uint32_t i = 0; i < count; i++) {
        k[i].idx = bd->idx[first + i];
        k[i].key = centroid_of(bd, k[i].idx, axis);
    }
    qsort(k, count, sizeof *k, cmp_keyed);
    for (uint32_t i = 0; i < count; i++) bd->idx[first + i] = k[i].idx;
    free(k);
    return count / 2;
}

static void set_bounds(rc_bvh_node *node, const box *b) {
    for (int a = 0; a < 3; a++) {
        node->lo[a] = b->lo[a];
        node->hi[a] = b->hi[a];
    }
}

/* Decide leaf or split for one node; returns the left count, or 0 for a leaf. */
static uint32_t choose_split(builder *bd, uint32_t first, uint32_t count, uint32_t depth,
                             const box *nb, const box *cbp) {
    if (count <= 1) return 0;
    box cb = *cbp;
    if (depth >= RC_BVH_SAH_DEPTH)
        return count <= RC_BVH_LEAF_MAX ? 0 : median_split(bd, first, count, &cb);
    split s = find_split(bd, first, count, &cb);
    /* SAH with unit intersection cost and unit traversal cost, relative to the node's area. */
    float area = box_area(nb);
    float split_cost = s.axis >= 0 && area > 0.0f ? 1.0f + s.cost / area : INFINITY;
    if (count <= RC_BVH_LEAF_MAX && (float)count <= split_cost) return 0;
    if (s.axis >= 0) return partition(bd, first, count, &s);
    return median_split(bd, first, count, &cb);
}

typedef struct work {
    uint32_t node, first, count, depth;
} work;

/* The bounds of a range's primitives and of their centroids, over all threads for a large one
 * (min and max: the same numbers in any order). */
static void range_bounds_serial(const builder *bd, uint32_t first, uint32_t count, box *nb,
                                box *cb) {
    box_empty(nb);
    box_empty(cb);
    for (uint32_t i = first; i < first + count; i++) {
        uint32_t p = bd->idx[i];
        const float c[3] = {centroid_of(bd, p, 0), centroid_of(bd, p, 1), centroid_of(bd, p, 2)};
        box_grow(nb, &bd->boxes[p]);
        box_grow_point(cb, c);
    }
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

/* One node's work: its bounds, then leaf or split. Returns the left count (0: a leaf). */
static uint32_t build_node(builder *bd, rc_bvh_node *node, const work *w) {
    box nb, cb;
    range_bounds(bd, w->first, w->count, &nb, &cb);
    set_bounds(node, &nb);
    uint32_t left = choose_split(bd, w->first, w->count, w->depth, &nb, &cb);
    if (left == 0) {
        node->first = w->first;
        node->count = w->count;
    }
    return left;
}

/* The serial build of the subtree of root work `root` into nodes[] (the root at nodes[0], its
 * descendants numbered from 1 as they are split); returns the node count. Leaves' `first`
 * index the shared permutation idx, which the subtree only reorders inside its own range. */
static uint32_t build_subtree(builder *bd, rc_bvh_node *nodes, work root, work *stack) {
    int top = 0;
    uint32_t num = 1;
    root.node = 0;
    stack[top++] = root;
    while (top > 0) {
        work w = stack[--top];
        rc_bvh_node *node = &nodes[w.node];
        uint32_t left = build_node(bd, node, &w);
        if (left == 0) continue;
        uint32_t child = num;
        num += 2;
        node->first = child;
        node->count = 0;
        stack[top++] = (work){child + 1, w.first + left, w.count - left, w.depth + 1};
        stack[top++] = (work){child, w.first, left, w.depth + 1};
    }
    return num;
}

/* Subtrees of at most this many primitives are built as tasks of their own, in parallel. */
#define RC_BVH_TASK_PRIMS 32768u

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

/* The build: the top of the tree one node at a time (each large node binned over all
 * threads), the subtrees below RC_BVH_TASK_PRIMS side by side, then every node renumbered in
 * the order the one-thread build numbers them (a node's children as a pair when it is split,
 * the left subtree's before the right one's), so the tree is the same node for node whatever
 * the thread count. Returns 0, or -1 when out of memory. */
static int build_nodes(builder *bd, uint32_t n, work *stack) {
    size_t cap_top = 64, cap_sub = 64;
    rc_bvh_node *top_nodes = malloc(cap_top * sizeof *top_nodes);
    int32_t *top_task = malloc(cap_top * sizeof *top_task); /* subtree of a top node, or -1 */
    subtree *subs = malloc(cap_sub * sizeof *subs);
    uint32_t num_top = 1, num_subs = 0;
    int rc = -1;
    if (!top_nodes || !top_task || !subs) goto done;
    top_task[0] = -1;
    {
        int top = 0;
        stack[top++] = (work){0, 0, n, 0};
        while (top > 0) {
            work w = stack[--top];
            if (w.count <= RC_BVH_TASK_PRIMS && n > RC_BVH_TASK_PRIMS) {
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
            uint32_t left = build_node(bd, &top_nodes[w.node], &w);
            if (left == 0) continue;
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
            stack[top++] = (work){child + 1, w.first + left, w.count - left, w.depth + 1};
            stack[top++] = (work){child, w.first, left, w.depth + 1};
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
    /* The boxes are not needed any more, and the tree's size is known: the final array holds
     * exactly its nodes (each subtree's root takes the top tree's slot that stood for it). */
    free(bd->boxes);
    bd->boxes = NULL;
    {
        size_t total = num_top;
        for (uint32_t t = 0; t < num_subs; t++) total += subs[t].num - 1u;
        bd->nodes = malloc(total * sizeof *bd->nodes);
        if (!bd->nodes) goto done;
    }
    {
        /* renumber: pop a node, give a split node's children the next pair, visit left first.
         * A subtree's nodes are freed once its last one is copied (the renumber walks each
         * subtree whole), so the copies and the pieces never add up to two trees. */
        noderef *rs = malloc((2 * (size_t)RC_BVH_STACK + 2) * sizeof *rs);
        uint32_t *ri = malloc((2 * (size_t)RC_BVH_STACK + 2) * sizeof *ri);
        uint32_t *left_in = malloc((num_subs ? num_subs : 1) * sizeof *left_in);
        if (!rs || !ri || !left_in) {
            free(rs);
            free(ri);
            free(left_in);
            goto done;
        }
        for (uint32_t t = 0; t < num_subs; t++) left_in[t] = subs[t].num;
        int top = 0;
        uint32_t next = 1;
        rs[top] = (noderef){-1, 0};
        ri[top++] = 0;
        while (top > 0) {
            top--;
            noderef r = rs[top];
            uint32_t at = ri[top];
            if (r.tree < 0 && top_task[r.i] >= 0) r = (noderef){top_task[r.i], 0};
            const rc_bvh_node *src = r.tree < 0 ? &top_nodes[r.i] : &subs[r.tree].nodes[r.i];
            rc_bvh_node *dst = &bd->nodes[at];
            *dst = *src;
            if (r.tree >= 0 && --left_in[r.tree] == 0) {
                free(subs[r.tree].nodes);
                subs[r.tree].nodes = NULL;
                continue; /* its last node, a leaf */
            }
            if (dst->count > 0) continue;
            uint32_t child = next;
            next += 2;
            dst->first = child;
            rs[top] = (noderef){r.tree, src->first + 1};
            ri[top++] = child + 1;
            rs[top] = (noderef){r.tree, src->first};
            ri[top++] = child;
        }
        bd->num_nodes = next;
        free(rs);
        free(ri);
        free(left_in);
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

void rc_bvh_permute(rc_prim *prims, uint32_t *ids, const uint32_t *perm, uint32_t n,
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

/* The build over `prims`, which it reorders into leaf order in place on success (untouched on
 * failure). Its memory at the peak: the boxes (24 bytes a primitive) and the permutation (4)
 * beside the tree, whose pieces are copied into one array and freed one by one. */
static int build_in_place(rc_prim *prims, uint32_t n, rc_bvh *out) {
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    builder bd = {0};
    bd.boxes = malloc(n * sizeof *bd.boxes);
    bd.idx = malloc(n * sizeof *bd.idx);
    /* The work stack holds at most one pending sibling per level, plus the current node. */
    work *stack = malloc((2 * (size_t)RC_BVH_STACK + 2) * sizeof *stack);
    uint8_t *done = NULL;
    if (!bd.boxes || !bd.idx || !stack) goto fail;
#pragma omp parallel for schedule(static) if (n >= RC_BVH_PAR_NODE)
    for (uint32_t i = 0; i < n; i++) {
        rc_prim_bounds(&prims[i], bd.boxes[i].lo, bd.boxes[i].hi);
        bd.idx[i] = i;
    }
    if (build_nodes(&bd, n, stack) != 0) goto fail;
    done = calloc(((size_t)n + 7) / 8, 1);
    if (!done) goto fail;
    rc_bvh_permute(prims, NULL, bd.idx, n, done);
    free(done);
    out->nodes = bd.nodes;
    out->num_nodes = bd.num_nodes;
    out->prims = prims;
    out->ids = bd.idx; /* leaf-order primitive i is input primitive idx[i] */
    out->num_prims = n;
    free(bd.boxes);
    free(stack);
    return 0;
fail:
    free(bd.boxes);
    free(bd.idx);
    free(bd.nodes);
    free(stack);
    memset(out, 0, sizeof *out);
    return -1;
}

int rc_bvh_build_take(rc_prim *prims, uint32_t n, rc_bvh *out) {
    if (build_in_place(prims, n, out) != 0) return -1;
    if (n == 0) free(prims);
    return 0;
}

int rc_bvh_build(const rc_prim *prims, uint32_t n, rc_bvh *out) {
    memset(out, 0, sizeof *out);
    if (n == 0) return 0;
    rc_prim *copy = malloc(n * sizeof *copy);
    if (!copy) return -1;
    memcpy(copy, prims, n * sizeof *copy);
    if (build_in_place(copy, n, out) != 0) {
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
