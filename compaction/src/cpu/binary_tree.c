/* binary_tree.c: Binary-Tree compaction (Moreira et al. 2009 §3.4), one tile at a time inside
 * the block-based framework. Per tile:
 *   reduction: the tile padded to a power of two p is encoded into a binary tree whose nodes
 *              count the kept elements under them, built bottom-up one level per pass;
 *   traversal: output i walks from the root to the leaf holding the i-th kept element,
 *              keeping the range [minR, maxR[ of output indices under the node (Alg. 5).
 * No prefix sum is computed. Stable: the kept elements are found in order. */
#include "cpu.h"

#include <stdio.h>

/* Per-tile scratch: the 2p - 1 tree nodes (uint32), level q at tree + level_offset(p, q),
 * leaves (level 0) first, the root (level log2 p) last. */
#define TREE_SCRATCH_ELEMS(p) (2 * (p))

static size_t next_pow2(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

static size_t log2_size(size_t p) {
    size_t l = 0;
    while (((size_t)1 << l) < p) l++;
    return l;
}

/* Level q of a tree over p leaves has p >> q nodes. */
static size_t level_offset(size_t p, size_t q) {
    return 2 * p - ((2 * p) >> q);
}

/* §3.4 binary tree encoding: the leaves are the discriminated tile (kept = 1, padding = 0);
 * each pass halves the level: node = left child + right child, up to the root, which holds v. */
static void reduction(uint32_t *tree, const uint8_t *flags, size_t m, size_t p, size_t levels) {
    for (size_t i = 0; i < p; i++) tree[i] = i < m && flags[i] != 0;
    for (size_t q = 1; q <= levels; q++) {
        const uint32_t *child = tree + level_offset(p, q - 1);
        uint32_t *node = tree + level_offset(p, q);
        for (size_t i = 0; i < (p >> q); i++) node[i] = child[2 * i] + child[2 * i + 1];
    }
}

static void trace_tree(const sc_job *job, const uint32_t *tree, size_t p, size_t levels) {
    sc_tracef(job, "tree of kept counts, root first (level 0 = leaves)");
    for (size_t q = levels + 1; q-- > 0;) {
        char name[32];
        snprintf(name, sizeof name, "level %zu", q);
        sc_trace_u32(job, name, tree + level_offset(p, q), p >> q);
    }
}

/* Appends one step "L|R[minR,maxR[" of a traversal to the trace path. */
static void path_step(char *path, size_t size, size_t *len, char move, size_t lo, size_t hi) {
    if (*len >= size) return;
    int w = snprintf(path + *len, size - *len, " %c[%zu,%zu[", move, lo, hi);
    if (w > 0) *len += (size_t)w;
}

/* Alg. 5 for output i. Following the text of §3.4, a move to the next sibling sets the range
 * to [minR + n, maxR[ with n the first child's count (the pseudo-code's line adds the
 * sibling's value after the move, which would skip the first child's outputs). */
static size_t traverse(const sc_job *job, const uint32_t *tree, size_t p, size_t levels, size_t i) {
    char path[512];
    size_t len = 0, node = 0; /* the root: index 0 of level `levels` */
    size_t minR = 0, maxR = tree[level_offset(p, levels)];
    const int tracing = sc_tracing(job);
    if (tracing) path_step(path, sizeof path, &len, '*', minR, maxR);
    for (size_t q = levels; q > 0; q--) {
        const uint32_t *below = tree + level_offset(p, q - 1);
        node = 2 * node; /* firstChild */
        size_t first_max = minR + below[node];
        if (!(i >= minR && i < first_max)) {
            node = node + 1; /* nextSibling */
            minR = first_max;
            if (tracing) path_step(path, sizeof path, &len, 'R', minR, maxR);
        } else {
            maxR = first_max;
            if (tracing) path_step(path, sizeof path, &len, 'L', minR, maxR);
        }
    }
    if (tracing) sc_tracef(job, "output %zu <- data %zu (path:%s)", i, node, path);
    return node; /* indexOf(leaf) */
}

static double lap(const sc_job *job, const char *phase, double t0) {
    double t1 = sc_cpu_now_ms();
    sc_cpu_phase_add(job, phase, t1 - t0);
    return t1;
}

static size_t binary_tree_tile(const sc_job *job, size_t t, const uint8_t *flags, size_t m,
                               uint32_t *src, void *scratch) {
    (void)t;
    const size_t p = next_pow2(m), levels = log2_size(p);
    uint32_t *tree = scratch;
    double t0 = sc_cpu_now_ms();

    reduction(tree, flags, m, p, levels);
    const size_t v = tree[level_offset(p, levels)];
    if (sc_tracing(job)) {
        sc_trace_flags(job, "flags", flags, m);
        trace_tree(job, tree, p, levels);
        sc_tracef(job, "traversals: * = root, L = first child, R = next sibling, "
                       "[minR,maxR[ = outputs under the node");
    }
    t0 = lap(job, "reduction", t0);

    /* Alg. 5: forall i < v in parallel. */
    for (size_t i = 0; i < v; i++) src[i] = (uint32_t)traverse(job, tree, p, levels, i);
    lap(job, "traversal", t0);
    return v;
}

sc_status sc_cpu_binary_tree(sc_job *job) {
    const size_t p = next_pow2(job->tile);
    return sc_cpu_blocks_run(job, binary_tree_tile, TREE_SCRATCH_ELEMS(p) * sizeof(uint32_t));
}
