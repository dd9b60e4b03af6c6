/* jumping_jack.cu: Jumping Jack (Moreira, Reis & de Sousa 2009, JJ paper §4, Alg. 2) inside the
 * block-based framework (blocks.cuh, JJ paper §3.4): per tile of s elements, in its shared
 * memory:
 *   prefix sum: pSum = inclusive all-prefix-sum of the discriminated tile (1 = invalid; Alg. 1:
 *               each thread sums its 8 items, the scan across threads is Hillis-Steele or
 *               Blelloch, job->scan), and Eq. 1: MAS[i] = s - pSum[i];
 *   jumps:      forall i < v = MAS[s - 1] in parallel: idx <- i; while data[idx] is not valid:
 *               idx <- MAS[idx]; output i gathers data[idx], written straight to the tile's
 *               offset in the output (the concatenation).
 * s is the tile's own length (the last tile may be short), as on the CPU backend, so both give
 * the same permutation. Unstable. A tile of up to 256 elements is one warp, 8 to a block
 * (blocks.cuh); larger tiles one block.
 * The walks lengthen as the removed share grows: a hole lands beyond v, on a valid element only
 * as often as the kept share, so the jumps a warp takes (the most of its lanes) grow from about 2
 * at 10 % removed to 7 at 50 % and 36 at 90 % (tile 256, random flags), each one dependent
 * shared-memory load: Jumping Jack's cost at high removal.
 * GPU departure: MAS[i] and the validity of data[i] share one 16-bit word (MAS <= s <= 2048, the
 * top bit is "valid"), so a jump is one shared-memory load instead of two; a valid element's word
 * holds its own index, so finished walks stay put while the others jump (jj_jumps).
 * Timing: prefix sum, jumps and concatenation run in one kernel and are timed together as
 * "jumps", the dominant phase; "tile scan" is timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* The kernel's shape by access width: k_jj_shape (tuning.cuh). */

#define JJ_VALID 0x8000u /* MAS word: data[i] is valid */
#define JJ_INDEX 0x7fffu /* MAS word: the index it holds */
#define JJ_STEPS 4u      /* jumps between two tests for the end, when one item per thread walks */

/* Alg. 2 for this thread's outputs c = u * T + tid < v: idx <- c; while data[idx] is not valid:
 * idx <- MAS[idx]. GPU departure: a valid element's word holds its own index (with the valid
 * bit), so a walk that has ended stays where it is; the warp then jumps all its walks in lock
 * step without a test per lane and jump, and asks whether every walk has ended only every
 * JJ_STEPS jumps (one item per thread, as at high removal) or every jump (several: their loads
 * overlap). Outputs past v start on the tile's sentinel word (index TILE, valid). Each walk
 * visits the paper's indices, so the permutation is the same. */
template <class G, unsigned TILE>
static __device__ __forceinline__ void jj_jumps(const uint16_t *s_mas, uint32_t v, uint32_t tid,
                                                uint32_t *src) {
    constexpr unsigned T = G::T, ITEMS = G::ITEMS;
    uint32_t x[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        const uint32_t c = u * T + tid; /* idx <- c: the word read is MAS[c] and its validity */
        x[u] = TILE | JJ_VALID;
        if (u * T < v) x[u] = s_mas[c < v ? c : TILE];
    }
    if (v <= T) { /* one item per thread walks */
        while (!__all_sync(SC_FULL_MASK, x[0] & JJ_VALID))
#pragma unroll
            for (unsigned r = 0; r < JJ_STEPS; r++) x[0] = s_mas[x[0] & JJ_INDEX];
    } else {
        for (;;) {
            uint32_t valid = JJ_VALID;
#pragma unroll
            for (unsigned u = 0; u < ITEMS; u++) valid &= x[u];
            if (__all_sync(SC_FULL_MASK, valid)) break;
#pragma unroll
            for (unsigned u = 0; u < ITEMS; u++)
                if (u * T < v) x[u] = s_mas[x[u] & JJ_INDEX]; /* idx <- MAS[idx] */
        }
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) src[u] = x[u] & JJ_INDEX;
}

/* jumping-jack: per tile: MAS in shared memory, jumps per output, direct write. */
template <unsigned TILE, unsigned W>
static __global__ void SC_TILE_BOUNDS(k_jj_shape, TILE, W) jj_kernel(sc_tile_args a) {
    typedef SC_TILE_GEOM(k_jj_shape, TILE, W) G;
    constexpr unsigned ITEMS = G::ITEMS;
    __shared__ __align__(16) uint16_t s_mas[G::TILES][TILE + 8]; /* + the sentinel word */
    __shared__ uint32_t s_warp[G::WARPS + 1];
    const sc_tile_pos p = sc_tile_locate<G, TILE>(a);
    const uint32_t s = p.m;
    const uint32_t kept = sc_tile_kept_bits<ITEMS>(a.flags, p.base, s, p.tid); /* load first */
    const uint32_t offset = sc_tile_offset<G, TILE>(a, p);
    if (s == 0) return; /* past the run-time count: the tile's warp (or block) as a whole */
    uint16_t *mas = s_mas[p.slot];

    /* prefix sum, then Eq. 1: MAS[i] = s - pSum[i] where data[i] is invalid; a valid i holds
     * i and the valid bit (jj_jumps) */
    uint32_t q[ITEMS];
    const uint32_t z =
        sc_tile_prefix_sum<G>(~kept & sc_tile_in_mask<ITEMS>(s, p.tid), a.scan, s_warp, q);
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++)
        q[u] = (kept >> u) & 1u ? (p.tid * ITEMS + u) | JJ_VALID : s - q[u];
    sc_tile_store_u16<ITEMS>(mas, q, p.tid);
    if (p.tid == 0) mas[TILE] = TILE | JJ_VALID;
    sc_tile_sync<G>();

    /* jumps: v <- MAS[s - 1]; forall i < v in parallel */
    const uint32_t v = s - z;
    uint32_t src[ITEMS];
    jj_jumps<G, TILE>(mas, v, p.tid, src);
    sc_tile_write<G, W>(a, p, offset, v, src);
}

SC_TILE_LAUNCHER(jj_launcher, jj_kernel, k_jj_shape);

extern "C" sc_status sc_cuda_jumping_jack(sc_job *job) {
    SC_TILE_RUN(job, jj_launcher, "jumps");
}
