/* horn.cu: Horn's gather-search (Horn 2005; Moreira et al. 2009 §3.1) inside the block-based
 * framework (blocks.cuh): per tile, in its shared memory:
 *   prefix sum: pSum = inclusive all-prefix-sum of the discriminated tile (1 = invalid), so
 *               z = pSum[s - 1] and v = s - z; each thread sums its 8 items, the scan across the
 *               threads is Hillis-Steele or Blelloch (job->scan);
 *   search:     forall outputs c < v in parallel: binary-search d in [0, z] with pSum[c + d] = d
 *               and data[c + d] valid; output c gathers data[c + d], written straight to the
 *               tile's offset in the output (the concatenation).
 * A tile of up to 256 elements is one warp, 8 to a block (blocks.cuh); larger tiles one block.
 * Timing: prefix sum, search and concatenation run in one kernel and are timed together as
 * "search", the dominant phase (Moreira 2009 Fig. 7); "tile scan" is timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* The kernel's shape by access width: k_horn_shape (tuning.cuh). */

/* §3.1 binary search over d in [0, z] for pSum[c + d] = d with data[c + d] valid, for this
 * thread's outputs c[u] < v. pSum[c + d] - d never grows with d and is above 0 exactly left of
 * the source (which is the c-th valid element), so the source's d is the number of d with
 * pSum[c + d] > d. GPU departure: the search runs as a bit-by-bit descent (from the highest
 * power of two not above z; z is the tile's, so every thread skips the same steps) instead of
 * stopping at the first hit, so a thread's ITEMS searches advance in lock step and their
 * shared-memory loads overlap; it finds the same d. */
template <class G, unsigned TILE>
static __device__ __forceinline__ void horn_search(const uint16_t *s_psum, uint32_t z, uint32_t v,
                                                   uint32_t tid, uint32_t *src) {
    constexpr unsigned T = G::T, ITEMS = G::ITEMS;
    uint32_t d[ITEMS], zc[ITEMS];
    const uint16_t *ps[ITEMS]; /* pSum[c + .] of output c */
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        src[u] = u * T + tid;
        zc[u] = src[u] < v ? z : 0; /* outputs past v search nothing */
        ps[u] = s_psum + src[u];
        d[u] = 0;
    }
#pragma unroll
    for (uint32_t step = TILE / 2; step > 0; step >>= 1) {
        if (step > z) continue; /* no d + step fits in [0, z] */
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (u * T >= v) break; /* no output of this item or the next ones in the tile */
            const uint32_t nd = d[u] + step;
            if (nd <= zc[u] && ps[u][nd - 1] > nd - 1) d[u] = nd;
        }
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) src[u] += d[u];
}

/* horn: per tile: pSum in shared memory, binary search per output, direct write. */
template <unsigned TILE, unsigned W>
static __global__ void SC_TILE_BOUNDS(k_horn_shape, TILE, W) horn_kernel(sc_tile_args a) {
    typedef SC_TILE_GEOM(k_horn_shape, TILE, W) G;
    constexpr unsigned ITEMS = G::ITEMS;
    __shared__ __align__(16) uint16_t s_psum[G::TILES][TILE];
    __shared__ uint32_t s_warp[G::WARPS + 1];
    const sc_tile_pos p = sc_tile_locate<G, TILE>(a);
    const uint32_t kept = sc_tile_kept_bits<ITEMS>(a.flags, p.base, p.m, p.tid); /* first */
    const uint32_t offset = sc_tile_offset<G, TILE>(a, p);
    if (p.m == 0) return; /* past the run-time count: the tile's warp (or block) as a whole */
    uint16_t *psum = s_psum[p.slot];

    /* prefix sum: pSum[j] = invalid elements in [0, j] (items past m count as neither) */
    const uint32_t invalid = ~kept & sc_tile_in_mask<ITEMS>(p.m, p.tid);
    uint32_t q[ITEMS];
    const uint32_t z = sc_tile_prefix_sum<G>(invalid, a.scan, s_warp, q);
    sc_tile_store_u16<ITEMS>(psum, q, p.tid);
    sc_tile_sync<G>();

    /* search: forall outputs c < v in parallel */
    const uint32_t v = p.m - z;
    uint32_t src[ITEMS];
    horn_search<G, TILE>(psum, z, v, p.tid, src);
    sc_tile_write<G, W>(a, p, offset, v, src);
}

SC_TILE_LAUNCHER(horn_launcher, horn_kernel, k_horn_shape);

extern "C" sc_status sc_cuda_horn(sc_job *job) {
    SC_TILE_RUN(job, horn_launcher, "search");
}
