/* rlz.cu: Run-Lengths of Zeros (Moreira et al. 2009 §3.3, Alg. 1-4) inside the block-based
 * framework (blocks.cuh): per tile, in its shared memory, the three stages of §3.3.1 and the
 * search of Alg. 1:
 *   run lengths: discriminate (removed = 1), the run of removed elements starting at every
 *                position by recursive doubling (Alg. 2) or by the balanced tree (Alg. 3 and 4),
 *                then keep only the lengths that start a run (second stage);
 *   prefix sum:  pRLSum = inclusive all-prefix-sum of those run lengths (third stage; each
 *                thread sums its 8 items, the scan across threads is job->scan's variant);
 *   search:      forall i < v in parallel: the first displacement with
 *                prlSum[i + d] = prlSum[i + prlSum[i + d]] (Alg. 1); output i gathers
 *                data[i + d], written straight to the tile's offset (the concatenation).
 * The tile is padded with kept elements to the tile size: a 0 ends every run at the tile's end.
 * A tile of up to 256 elements is one warp, 8 to a block (blocks.cuh); larger tiles one block.
 * The search's depth grows with the removed share: each step d <- prlSum[i + d] adds the runs in
 * the newly covered window, about that share of its length, so the steps a warp takes (the most
 * of its lanes) grow from about 4 at 10 % removed to 9 at 50 % and 14 at 90 % (tile 256, random
 * flags); each step is one dependent shared-memory load.
 * Timing: the stages run in one kernel and are timed together as "search"; "tile scan" is
 * timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* The kernel's shape by access width: k_rlz_shape (tuning.cuh). */

/* Alg. 2 (recursive doubling): RL starts as the discriminated data (in buf0); round p,
 * offset = 2^(p-1): forall i < s - offset: if RL[i] = offset then RL[i] += RL[i + offset].
 * Double-buffered as in the paper's GPU version: each round reads one buffer and writes the
 * other, so every read sees the previous round. rl[] holds this thread's items. After the round
 * of offset o no RL[i] exceeds 2o, so once none equals 2o the later rounds would change nothing
 * and are skipped. Returns the buffer that holds the final RL. */
template <class G>
static __device__ __forceinline__ uint16_t *rlz_doubling(uint16_t *buf0, uint16_t *buf1,
                                                         uint32_t *rl, uint32_t m, uint32_t tid) {
    constexpr unsigned ITEMS = G::ITEMS;
    const uint32_t first = tid * ITEMS;
    uint16_t *cur = buf0, *nxt = buf1;
    int full = 0;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) full |= rl[u] == 1;
    full = sc_tile_any<G>(full); /* also publishes buf0 */
    for (uint32_t offset = 1; offset < m && full; offset <<= 1) {
        full = 0;
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            uint32_t i = first + u;
            if (rl[u] == offset && i + offset < m) rl[u] += cur[i + offset];
            full |= rl[u] == 2 * offset;
        }
        sc_tile_store_u16<ITEMS>(nxt, rl, tid);
        full = sc_tile_any<G>(full);
        uint16_t *swap = cur;
        cur = nxt;
        nxt = swap;
    }
    return cur;
}

/* Alg. 2 for a tile of one warp, in registers: the same rounds (RL[i] += RL[i + offset] where
 * RL[i] = offset, every read from the previous round), with RL[i + offset] taken from this
 * thread's own items or, by a shuffle, from the thread offset / ITEMS (or one) lanes up; past
 * the tile it reads 0, the padding's kept elements. GPU departure: the warp's shuffles replace
 * the double-buffered shared array and its barriers, a third of the round's instructions. */
template <class G, unsigned TILE>
static __device__ __forceinline__ void rlz_doubling_warp(uint32_t *rl) {
    constexpr unsigned ITEMS = G::ITEMS;
    const unsigned lane = sc_lane();
    int full = 0;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) full |= rl[u] == 1;
#pragma unroll
    for (unsigned offset = 1; offset < TILE; offset <<= 1) {
        if (!__any_sync(SC_FULL_MASK, full)) break;
        const unsigned up = offset < ITEMS ? 1u : offset / ITEMS; /* lanes to the item i + offset */
        uint32_t nb[ITEMS];
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (offset < ITEMS && u + offset < ITEMS) {
                nb[u] = rl[u + offset];
            } else {
                const unsigned w = offset < ITEMS ? u + offset - ITEMS : u; /* its item there */
                nb[u] = __shfl_down_sync(SC_FULL_MASK, rl[w], up);
                if (lane + up >= SC_WARP) nb[u] = 0;
            }
        }
        full = 0;
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (rl[u] == offset) rl[u] += nb[u];
            full |= rl[u] == 2 * offset;
        }
    }
}

/* Alg. 3 (up-sweep): US[q][i] = US[q-1][2i] + US[q-1][2i+1] if the left child is full
 * (= offset = 2^(q-1)), else US[q-1][2i]: the run starting at each node's leftmost leaf.
 * Alg. 4 (down-sweep): DS[L][0] = 0; a left (even) child takes its right sibling's up-sweep
 * value, plus the parent's DS if the sibling is full (= 2^q); a right (odd) child takes the
 * parent's DS: the run starting right after the node. Final adjustment (§3.3.1): RL[0] = the
 * root of the up-sweep, RL[i] = DS[0][i - 1]. Level q of either tree over TILE leaves sits at
 * 2 TILE - (2 TILE >> q), leaves first. */
template <class G, unsigned TILE>
static __device__ __forceinline__ void rlz_tree(uint16_t *s_rl, uint16_t *us, uint16_t *ds,
                                                uint32_t *rl, uint32_t tid) {
    constexpr unsigned L = G::LEVELS, T = G::T, ITEMS = G::ITEMS;
#define RLZ_LEVEL(q) (2 * TILE - ((2 * TILE) >> (q)))
    sc_tile_store_u16<ITEMS>(us, rl, tid); /* US[0]: the discriminated tile */
    sc_tile_sync<G>();
    for (unsigned q = 1; q <= L; q++) {
        const uint32_t offset = 1u << (q - 1);
        const uint16_t *prev = us + RLZ_LEVEL(q - 1);
        for (uint32_t i = tid; i < (TILE >> q); i += T)
            us[RLZ_LEVEL(q) + i] =
                prev[2 * i] == offset ? prev[2 * i] + prev[2 * i + 1] : prev[2 * i];
        sc_tile_sync<G>();
    }
    if (tid == 0) ds[RLZ_LEVEL(L)] = 0;
    sc_tile_sync<G>();
    for (unsigned q = L; q-- > 0;) {
        const uint32_t offset = 1u << q;
        const uint16_t *usq = us + RLZ_LEVEL(q), *parent = ds + RLZ_LEVEL(q + 1);
        for (uint32_t i = tid; i < (TILE >> q); i += T) {
            uint32_t up = i % 2 == 0 ? usq[i + 1] : 0;
            ds[RLZ_LEVEL(q) + i] = i % 2 ? parent[i / 2] : (up == offset ? up + parent[i / 2] : up);
        }
        sc_tile_sync<G>();
    }
    const uint32_t first = tid * ITEMS;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++)
        rl[u] = first + u == 0 ? us[RLZ_LEVEL(L)] : ds[first + u - 1];
#undef RLZ_LEVEL
    sc_tile_store_u16<ITEMS>(s_rl, rl, tid);
    sc_tile_sync<G>();
}

#define RLZ_STEPS 4u /* search steps between two tests for the end, one item per thread */

/* Alg. 1 for this thread's outputs c = u * T + tid < v: d <- prlSum[c], then d <- prlSum[c + d]
 * until it no longer changes (the paper's test prlSum[c + d] = prlSum[c + prlSum[c + d]]: d is
 * a fixed point, and stays one). GPU departure: the warp steps every search in lock step and
 * asks whether all have reached their fixed point every RLZ_STEPS steps (one item per thread,
 * as at high removal) or every step (several items: their loads overlap), with no test per lane
 * and step; outputs past v search from the tile's sentinel word (index TILE, holding 0), a
 * fixed point. The fixed points are the paper's, so the permutation is the same. */
template <class G, unsigned TILE>
static __device__ __forceinline__ void rlz_search(const uint16_t *s_prl, uint32_t v, uint32_t tid,
                                                  uint32_t *src) {
    constexpr unsigned T = G::T, ITEMS = G::ITEMS;
    uint32_t d[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        const uint32_t c = u * T + tid;
        src[u] = c < v ? c : TILE;
        d[u] = 0;
        if (u * T < v) d[u] = s_prl[src[u]];
    }
    if (v <= T) { /* one item per thread searches */
        for (;;) {
            uint32_t before = d[0];
#pragma unroll
            for (unsigned r = 0; r < RLZ_STEPS; r++) {
                before = d[0];
                d[0] = s_prl[src[0] + d[0]];
            }
            if (__all_sync(SC_FULL_MASK, d[0] == before)) break;
        }
    } else {
        for (;;) {
            int moved = 0;
#pragma unroll
            for (unsigned u = 0; u < ITEMS; u++) {
                if (u * T >= v) break; /* no output of this item or the next ones in the tile */
                const uint32_t nd = s_prl[src[u] + d[u]];
                moved |= nd != d[u];
                d[u] = nd;
            }
            if (!__any_sync(SC_FULL_MASK, moved)) break;
        }
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) src[u] += d[u];
}

/* rlz: per tile: run lengths, pRLSum, forward search per output, direct write. */
template <unsigned TILE, unsigned W>
static __global__ void SC_TILE_BOUNDS(k_rlz_shape, TILE, W) rlz_kernel(sc_tile_args a) {
    typedef SC_TILE_GEOM(k_rlz_shape, TILE, W) G;
    constexpr unsigned ITEMS = G::ITEMS;
    __shared__ __align__(16) uint16_t s_buf[G::TILES][2][TILE + 8]; /* RL (2 buffers), pRLSum */
    __shared__ __align__(16) uint16_t s_tree[G::TILES][4 * TILE];   /* US, then DS (Alg. 3-4) */
    __shared__ uint32_t s_warp[G::WARPS + 1];
    const sc_tile_pos p = sc_tile_locate<G, TILE>(a);
    const uint32_t m = p.m;
    const uint32_t kept = sc_tile_kept_bits<ITEMS>(a.flags, p.base, m, p.tid); /* load first */
    const uint32_t offset = sc_tile_offset<G, TILE>(a, p);
    if (m == 0) return; /* past the run-time count: the tile's warp (or block) as a whole */
    uint16_t *buf0 = s_buf[p.slot][0], *buf1 = s_buf[p.slot][1];

    /* run lengths: discriminate, then Alg. 2 or Alg. 3-4 */
    const uint32_t removed = ~kept & sc_tile_in_mask<ITEMS>(m, p.tid);
    const uint32_t first = p.tid * ITEMS;
    uint32_t rl[ITEMS], left;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) rl[u] = (removed >> u) & 1u;
    uint16_t *s_prl = buf0; /* pRLSum: the buffer nobody reads any more */
    bool in_regs = false;
    if constexpr (G::WARPS == 1) in_regs = a.rlz != SC_RLZ_BALANCED_TREE;
    if (in_regs) {
        rlz_doubling_warp<G, TILE>(rl);
        left = __shfl_up_sync(SC_FULL_MASK, rl[ITEMS - 1], 1);
        if (p.tid == 0) left = 0;
    } else {
        sc_tile_store_u16<ITEMS>(buf0, rl, p.tid);
        const uint16_t *s_rl;
        if (a.rlz == SC_RLZ_BALANCED_TREE) {
            rlz_tree<G, TILE>(buf0, s_tree[p.slot], s_tree[p.slot] + 2 * TILE, rl, p.tid);
            s_rl = buf0;
        } else {
            s_rl = rlz_doubling<G>(buf0, buf1, rl, m, p.tid);
        }
        s_prl = s_rl == buf0 ? buf1 : buf0;
        left = first == 0 ? 0 : s_rl[first - 1];
    }

    /* second stage: the non-null run lengths with a null on their left; third stage: pRLSum */
    uint32_t starts[ITEMS], sum = 0;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        starts[u] = rl[u] != 0 && left == 0 ? rl[u] : 0;
        left = rl[u];
        sum += starts[u];
    }
    uint32_t z, x = sc_tile_scan<G>(sum, a.scan, s_warp, &z);
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) starts[u] = x += starts[u];
    sc_tile_store_u16<ITEMS>(s_prl, starts, p.tid);
    if (p.tid == 0) s_prl[TILE] = 0; /* the sentinel: a search from TILE stays there */
    sc_tile_sync<G>();

    /* search: forall positions i in [0, v[ in parallel */
    const uint32_t v = m - z;
    uint32_t src[ITEMS];
    rlz_search<G, TILE>(s_prl, v, p.tid, src);
    sc_tile_write<G, W>(a, p, offset, v, src);
}

SC_TILE_LAUNCHER(rlz_launcher, rlz_kernel, k_rlz_shape);

extern "C" sc_status sc_cuda_rlz(sc_job *job) {
    SC_TILE_RUN(job, rlz_launcher, "search");
}
