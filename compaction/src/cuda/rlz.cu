/* rlz.cu: Run-Lengths of Zeros (Moreira et al. 2009 §3.3, Alg. 1-4) inside the block-based
 * framework (blocks.cuh): one block per tile, in shared memory, the three stages of §3.3.1 and
 * the search of Alg. 1:
 *   run lengths: discriminate (removed = 1), the run of removed elements starting at every
 *                position by recursive doubling (Alg. 2) or by the balanced tree (Alg. 3 and 4),
 *                then keep only the lengths that start a run (second stage);
 *   prefix sum:  pRLSum = inclusive all-prefix-sum of those run lengths (third stage; each
 *                thread sums its 8 items, the scan across threads is job->scan's variant);
 *   search:      forall i < v in parallel: the first displacement with
 *                prlSum[i + d] = prlSum[i + prlSum[i + d]] (Alg. 1); output i gathers
 *                data[i + d], written straight to the tile's offset (the concatenation).
 * The tile is padded with kept elements to the tile size: a 0 ends every run at the tile's end.
 * Timing: the stages run in one kernel and are timed together as "search"; "tile scan" is
 * timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* Alg. 2 (recursive doubling): RL starts as the discriminated data (in buf0); round p,
 * offset = 2^(p-1): forall i < s - offset: if RL[i] = offset then RL[i] += RL[i + offset].
 * Double-buffered as in the paper's GPU version: each round reads one buffer and writes the
 * other, so every read sees the previous round. rl[] holds this thread's items. After the round
 * of offset o no RL[i] exceeds 2o, so once none equals 2o the later rounds would change nothing
 * and are skipped. Returns the buffer that holds the final RL. */
template <unsigned ITEMS>
static __device__ __forceinline__ uint16_t *rlz_doubling(uint16_t *buf0, uint16_t *buf1,
                                                         uint32_t *rl, uint32_t m) {
    const uint32_t first = threadIdx.x * ITEMS;
    uint16_t *cur = buf0, *nxt = buf1;
    int full = 0;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) full |= rl[u] == 1;
    full = __syncthreads_or(full);
    for (uint32_t offset = 1; offset < m && full; offset <<= 1) {
        full = 0;
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            uint32_t i = first + u;
            if (rl[u] == offset && i + offset < m) rl[u] += cur[i + offset];
            full |= rl[u] == 2 * offset;
        }
        sc_tile_store_u16<ITEMS>(nxt, rl);
        full = __syncthreads_or(full);
        uint16_t *swap = cur;
        cur = nxt;
        nxt = swap;
    }
    return cur;
}

/* Alg. 3 (up-sweep): US[q][i] = US[q-1][2i] + US[q-1][2i+1] if the left child is full
 * (= offset = 2^(q-1)), else US[q-1][2i]: the run starting at each node's leftmost leaf.
 * Alg. 4 (down-sweep): DS[L][0] = 0; a left (even) child takes its right sibling's up-sweep
 * value, plus the parent's DS if the sibling is full (= 2^q); a right (odd) child takes the
 * parent's DS: the run starting right after the node. Final adjustment (§3.3.1): RL[0] = the
 * root of the up-sweep, RL[i] = DS[0][i - 1]. Level q of either tree over TILE leaves sits at
 * 2 TILE - (2 TILE >> q), leaves first. */
template <unsigned TILE, unsigned T, unsigned ITEMS>
static __device__ __forceinline__ void rlz_tree(uint16_t *s_rl, uint16_t *us, uint16_t *ds,
                                                uint32_t *rl) {
    constexpr unsigned L = 31 - __builtin_clz(TILE);
#define RLZ_LEVEL(q) (2 * TILE - ((2 * TILE) >> (q)))
    sc_tile_store_u16<ITEMS>(us, rl); /* US[0]: the discriminated tile */
    __syncthreads();
    for (unsigned q = 1; q <= L; q++) {
        const uint32_t offset = 1u << (q - 1);
        const uint16_t *prev = us + RLZ_LEVEL(q - 1);
        for (uint32_t i = threadIdx.x; i < (TILE >> q); i += T)
            us[RLZ_LEVEL(q) + i] =
                prev[2 * i] == offset ? prev[2 * i] + prev[2 * i + 1] : prev[2 * i];
        __syncthreads();
    }
    if (threadIdx.x == 0) ds[RLZ_LEVEL(L)] = 0;
    __syncthreads();
    for (unsigned q = L; q-- > 0;) {
        const uint32_t offset = 1u << q;
        const uint16_t *usq = us + RLZ_LEVEL(q), *parent = ds + RLZ_LEVEL(q + 1);
        for (uint32_t i = threadIdx.x; i < (TILE >> q); i += T) {
            uint32_t up = i % 2 == 0 ? usq[i + 1] : 0;
            ds[RLZ_LEVEL(q) + i] = i % 2 ? parent[i / 2] : (up == offset ? up + parent[i / 2] : up);
        }
        __syncthreads();
    }
    const uint32_t first = threadIdx.x * ITEMS;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++)
        rl[u] = first + u == 0 ? us[RLZ_LEVEL(L)] : ds[first + u - 1];
#undef RLZ_LEVEL
    sc_tile_store_u16<ITEMS>(s_rl, rl);
    __syncthreads();
}

/* Alg. 1 for output i: the paper's faster test prlSum[i + d] = prlSum[i + prlSum[i + d]]. */
static __device__ __forceinline__ uint32_t rlz_search(const uint16_t *s_prl, uint32_t i) {
    uint32_t curr = s_prl[i], next = s_prl[i + curr];
    while (curr != next) {
        curr = s_prl[i + next];
        next = s_prl[i + curr];
    }
    return i + curr;
}

/* rlz: one tile per block: run lengths, pRLSum, forward search per output, direct write. */
template <unsigned TILE>
static __global__ void __launch_bounds__(SC_TILE_THREADS(TILE)) rlz_kernel(sc_tile_args a) {
    constexpr unsigned T = SC_TILE_THREADS(TILE), ITEMS = SC_TILE_ITEMS(TILE);
    __shared__ __align__(16) uint16_t s_buf[2][TILE]; /* RL (double-buffered), then pRLSum */
    __shared__ __align__(16) uint16_t s_us[2 * TILE];
    __shared__ __align__(16) uint16_t s_ds[2 * TILE];
    __shared__ uint32_t s_scan[2 * T];
    const uint32_t t = blockIdx.x, base = t * TILE;
    const uint32_t m = sc_tile_len<TILE>(a, base);
    if (m == 0) return; /* past the run-time count */

    /* run lengths: discriminate, then Alg. 2 or Alg. 3-4 */
    const uint32_t removed =
        ~sc_tile_kept_bits<ITEMS>(a.flags, base, m) & sc_tile_in_mask<ITEMS>(m);
    uint32_t rl[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) rl[u] = (removed >> u) & 1u;
    sc_tile_store_u16<ITEMS>(s_buf[0], rl);
    const uint16_t *s_rl;
    if (a.rlz == SC_RLZ_BALANCED_TREE) {
        rlz_tree<TILE, T, ITEMS>(s_buf[0], s_us, s_ds, rl);
        s_rl = s_buf[0];
    } else {
        s_rl = rlz_doubling<ITEMS>(s_buf[0], s_buf[1], rl, m);
    }
    uint16_t *s_prl = s_rl == s_buf[0] ? s_buf[1] : s_buf[0]; /* nobody reads it any more */

    /* second stage: the non-null run lengths with a null on their left; third stage: pRLSum */
    const uint32_t first = threadIdx.x * ITEMS;
    uint32_t left = first == 0 ? 0 : s_rl[first - 1], starts[ITEMS], sum = 0;
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        starts[u] = rl[u] != 0 && left == 0 ? rl[u] : 0;
        left = rl[u];
        sum += starts[u];
    }
    uint32_t z, x = sc_tile_scan<T>(sum, a.scan, s_scan, &z);
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) starts[u] = x += starts[u];
    sc_tile_store_u16<ITEMS>(s_prl, starts);
    __syncthreads();

    /* search: forall positions i in [0, v[ in parallel */
    const uint32_t v = m - z;
    uint32_t src[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        uint32_t i = u * T + threadIdx.x;
        src[u] = i < v ? rlz_search(s_prl, i) : 0;
    }
    sc_tile_write<T, ITEMS>(a, base, sc_tile_offset(a, t, TILE), v, src);
}

extern "C" sc_status sc_cuda_rlz(sc_job *job) {
    SC_TILE_RUN(job, rlz_kernel, "search");
}
