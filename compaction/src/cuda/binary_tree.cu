/* binary_tree.cu: Binary-Tree compaction (Moreira et al. 2009 §3.4, Alg. 5) inside the
 * block-based framework (blocks.cuh): one block per tile, in shared memory:
 *   reduction: the tile, padded with removed elements to the tile size p, is encoded into a
 *              binary tree whose nodes count the kept elements under them, one level per pass
 *              (the leaves are the tile's bit set of kept flags);
 *   traversal: forall outputs i < v (the root) in parallel: walk from the root to the leaf of
 *              the i-th kept element, keeping the range [minR, maxR[ of outputs under the node
 *              (Alg. 5); output i gathers that leaf's element, written straight to the tile's
 *              offset in the output (the concatenation).
 * No prefix sum. Stable.
 * Timing: reduction, traversal and concatenation run in one kernel and are timed together as
 * "traversal", the dominant phase; "tile scan" is timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* Level q >= 1 of the tree over TILE leaves: TILE >> q nodes from this offset; the root (level
 * log2 TILE) is last. */
template <unsigned TILE> static __device__ __forceinline__ unsigned bt_level(unsigned q) {
    return TILE - (TILE >> (q - 1));
}

/* Kept count of node i of level q (level 0: the leaves). */
template <unsigned TILE>
static __device__ __forceinline__ uint32_t bt_count(const uint32_t *s_kept, const uint16_t *s_tree,
                                                    unsigned q, uint32_t i) {
    return q == 0 ? (uint32_t)sc_tile_kept(s_kept, i) : s_tree[bt_level<TILE>(q) + i];
}

/* Alg. 5 for output i. As the text of §3.4 says, a move to the next sibling sets the range to
 * [minR + n, maxR[ with n the first child's count (the pseudo-code's line adds the sibling's
 * own count, which would skip the first child's outputs). maxR only narrows the range, so the
 * walk keeps minR alone. */
template <unsigned TILE, unsigned LEVELS>
static __device__ __forceinline__ uint32_t bt_traverse(const uint32_t *s_kept,
                                                       const uint16_t *s_tree, uint32_t i) {
    uint32_t node = 0, minR = 0; /* the root */
#pragma unroll
    for (unsigned q = LEVELS; q > 0; q--) {
        node = 2 * node; /* firstChild */
        uint32_t first_max = minR + bt_count<TILE>(s_kept, s_tree, q - 1, node);
        if (i >= first_max) { /* i not in [minR, first_max[: nextSibling */
            node++;
            minR = first_max;
        }
    }
    return node; /* indexOf(leaf) */
}

/* binary-tree: one tile per block: tree of kept counts in shared memory, one walk per output,
 * direct write. */
template <unsigned TILE>
static __global__ void __launch_bounds__(SC_TILE_THREADS(TILE)) bt_kernel(sc_tile_args a) {
    constexpr unsigned T = SC_TILE_THREADS(TILE), ITEMS = SC_TILE_ITEMS(TILE);
    constexpr unsigned LEVELS = 31 - __builtin_clz(TILE);
    __shared__ uint32_t s_kept[TILE / 32];
    __shared__ uint16_t s_tree[TILE];
    const uint32_t t = blockIdx.x, base = t * TILE;
    const uint32_t m = sc_tile_len<TILE>(a, base);
    if (m == 0) return; /* past the run-time count */

    /* reduction: leaves = kept flags (padding 0), then node = left child + right child */
    sc_tile_store_bits<ITEMS>(s_kept, sc_tile_kept_bits<ITEMS>(a.flags, base, m));
    __syncthreads();
    for (unsigned q = 1; q <= LEVELS; q++) {
        for (uint32_t i = threadIdx.x; i < (TILE >> q); i += T)
            s_tree[bt_level<TILE>(q) + i] =
                (uint16_t)(bt_count<TILE>(s_kept, s_tree, q - 1, 2 * i) +
                           bt_count<TILE>(s_kept, s_tree, q - 1, 2 * i + 1));
        __syncthreads();
    }

    /* traversal: forall i < v in parallel */
    const uint32_t v = s_tree[bt_level<TILE>(LEVELS)];
    uint32_t src[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        uint32_t i = u * T + threadIdx.x;
        src[u] = i < v ? bt_traverse<TILE, LEVELS>(s_kept, s_tree, i) : 0;
    }
    sc_tile_write<T, ITEMS>(a, base, sc_tile_offset(a, t, TILE), v, src);
}

extern "C" sc_status sc_cuda_binary_tree(sc_job *job) {
    SC_TILE_RUN(job, bt_kernel, "traversal");
}
