/* binary_tree.cu: Binary-Tree compaction (Moreira et al. 2009 §3.4, Alg. 5) inside the
 * block-based framework (blocks.cuh): per tile, in its shared memory:
 *   reduction: the tile, padded with removed elements to the tile size p, is encoded into a
 *              binary tree whose nodes count the kept elements under them, one level per pass
 *              (the leaves are the tile's bit set of kept flags);
 *   traversal: forall outputs i < v (the root) in parallel: walk from the root to the leaf of
 *              the i-th kept element, keeping the range [minR, maxR[ of outputs under the node
 *              (Alg. 5); output i gathers that leaf's element, written straight to the tile's
 *              offset in the output (the concatenation).
 * No prefix sum. Stable. A tile of up to 256 elements is one warp, 8 to a block (blocks.cuh);
 * larger tiles one block.
 * GPU departure in the reduction: a thread's 8 leaves lie in its registers, so the levels under
 * a thread's node (node = left child + right child) are population counts of its bits, and the
 * levels under a warp's node are sums across lanes by shuffles; each level is stored as the
 * paper's tree, only the levels above a warp pass through shared memory with a barrier each.
 * Timing: reduction, traversal and concatenation run in one kernel and are timed together as
 * "traversal", the dominant phase; "tile scan" is timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* The kernel's shape by access width: k_bt_shape (tuning.cuh). */

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

/* The reduction: every level of the tree, bottom up, from this thread's kept bits. Levels
 * 1 .. log2 ITEMS: nodes under one thread (population counts of bit fields); the next 5: nodes
 * under up to 32 lanes (butterfly sums: after r steps every lane holds its aligned group of 2^r
 * lanes); the rest (tiles of several warps): node = left child + right child in shared memory. */
template <class G, unsigned TILE>
static __device__ __forceinline__ void bt_reduce(uint16_t *s_tree, uint32_t bits, uint32_t tid) {
    constexpr unsigned ITEMS = G::ITEMS, T = G::T, LEVELS = G::LEVELS;
    constexpr unsigned QI = ITEMS == 8 ? 3 : ITEMS == 4 ? 2 : ITEMS == 2 ? 1 : 0;
#pragma unroll
    for (unsigned q = 1; q <= QI; q++) {
        const uint32_t mask = (1u << (1u << q)) - 1;
#pragma unroll
        for (unsigned j = 0; j < (ITEMS >> q); j++)
            s_tree[bt_level<TILE>(q) + tid * (ITEMS >> q) + j] =
                (uint16_t)__popc((bits >> (j << q)) & mask);
    }
    const unsigned lane = sc_lane();
    uint32_t x = (uint32_t)__popc(bits);
#pragma unroll
    for (unsigned r = 1; r <= 5; r++) {
        if (QI + r > LEVELS) break;
        x += __shfl_xor_sync(SC_FULL_MASK, x, 1u << (r - 1));
        if ((lane & ((1u << r) - 1)) == 0)
            s_tree[bt_level<TILE>(QI + r) + (tid >> r)] = (uint16_t)x;
    }
    sc_tile_sync<G>();
    for (unsigned q = QI + 6; q <= LEVELS; q++) {
        for (uint32_t i = tid; i < (TILE >> q); i += T)
            s_tree[bt_level<TILE>(q) + i] = (uint16_t)(s_tree[bt_level<TILE>(q - 1) + 2 * i] +
                                                       s_tree[bt_level<TILE>(q - 1) + 2 * i + 1]);
        sc_tile_sync<G>();
    }
}

/* Alg. 5 for this thread's outputs i = u * T + tid < v. As the text of §3.4 says, a move to the
 * next sibling sets the range to [minR + n, maxR[ with n the first child's count (the
 * pseudo-code's line adds the sibling's own count, which would skip the first child's outputs).
 * maxR only narrows the range, so the walk keeps minR alone. The ITEMS walks descend level by
 * level in lock step, so their loads overlap. */
template <class G, unsigned TILE>
static __device__ __forceinline__ void bt_traverse(const uint32_t *s_kept, const uint16_t *s_tree,
                                                   uint32_t v, uint32_t tid, uint32_t *src) {
    constexpr unsigned ITEMS = G::ITEMS, T = G::T;
    uint32_t node[ITEMS], minR[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) node[u] = minR[u] = 0; /* the root */
#pragma unroll
    for (unsigned q = G::LEVELS; q > 0; q--) {
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (u * T >= v) break; /* no output of this item or the next ones in the tile */
            node[u] = 2 * node[u]; /* firstChild */
            const uint32_t first_max = minR[u] + bt_count<TILE>(s_kept, s_tree, q - 1, node[u]);
            if (u * T + tid >= first_max) { /* i not in [minR, first_max[: nextSibling */
                node[u]++;
                minR[u] = first_max;
            }
        }
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) src[u] = node[u]; /* indexOf(leaf) */
}

/* binary-tree: per tile: tree of kept counts in shared memory, one walk per output, direct
 * write. */
template <unsigned TILE, unsigned W>
static __global__ void SC_TILE_BOUNDS(k_bt_shape, TILE, W) bt_kernel(sc_tile_args a) {
    typedef SC_TILE_GEOM(k_bt_shape, TILE, W) G;
    constexpr unsigned ITEMS = G::ITEMS;
    __shared__ uint32_t s_kept[G::TILES][TILE / 32];
    __shared__ uint16_t s_tree[G::TILES][TILE];
    const sc_tile_pos p = sc_tile_locate<G, TILE>(a);
    const uint32_t bits = sc_tile_kept_bits<ITEMS>(a.flags, p.base, p.m, p.tid); /* first */
    const uint32_t offset = sc_tile_offset<G, TILE>(a, p);
    if (p.m == 0) return; /* past the run-time count: the tile's warp (or block) as a whole */
    uint32_t *kept = s_kept[p.slot];
    uint16_t *tree = s_tree[p.slot];

    /* reduction: leaves = kept flags (padding 0), then node = left child + right child */
    sc_tile_store_bits<ITEMS>(kept, bits, p.tid);
    bt_reduce<G, TILE>(tree, bits, p.tid);

    /* traversal: forall i < v in parallel */
    const uint32_t v = tree[bt_level<TILE>(G::LEVELS)];
    uint32_t src[ITEMS];
    bt_traverse<G, TILE>(kept, tree, v, p.tid, src);
    sc_tile_write<G, W>(a, p, offset, v, src);
}

SC_TILE_LAUNCHER(bt_launcher, bt_kernel, k_bt_shape);

extern "C" sc_status sc_cuda_binary_tree(sc_job *job) {
    SC_TILE_RUN(job, bt_launcher, "traversal");
}
