/* horn.cu: Horn's gather-search (Horn 2005; Moreira et al. 2009 §3.1) inside the block-based
 * framework (blocks.cuh): one block per tile, in shared memory:
 *   prefix sum: pSum = inclusive all-prefix-sum of the discriminated tile (1 = invalid), so
 *               z = pSum[s - 1] and v = s - z; each thread sums its 8 items, the scan across the
 *               threads is Hillis-Steele or Blelloch (job->scan);
 *   search:     forall outputs c < v in parallel: binary-search d in [0, z] with pSum[c + d] = d
 *               and data[c + d] valid; output c gathers data[c + d], written straight to the
 *               tile's offset in the output (the concatenation).
 * Timing: prefix sum, search and concatenation run in one kernel and are timed together as
 * "search", the dominant phase (Moreira 2009 Fig. 7); "tile scan" is timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* §3.1 binary search over d in [0, z] for pSum[c + d] = d with data[c + d] valid, for this
 * thread's outputs c[u] < v. pSum[c + d] - d never grows with d and is above 0 exactly left of
 * the source (which is the c-th valid element), so the source's d is the number of d with
 * pSum[c + d] > d. GPU departure: the search runs as a bit-by-bit descent of fixed length
 * log2 s instead of stopping at the first hit, so a thread's ITEMS searches advance in lock step
 * and their shared-memory loads overlap; it finds the same d. */
template <unsigned TILE, unsigned ITEMS>
static __device__ __forceinline__ void horn_search(const uint16_t *s_psum, uint32_t z, uint32_t v,
                                                   uint32_t *src) {
    constexpr unsigned T = SC_TILE_THREADS(TILE);
    uint32_t c[ITEMS], d[ITEMS], zc[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        c[u] = u * T + threadIdx.x;
        zc[u] = c[u] < v ? z : 0; /* outputs past v search nothing */
        d[u] = 0;
    }
#pragma unroll
    for (uint32_t step = TILE / 2; step > 0; step >>= 1) {
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            uint32_t nd = d[u] + step;
            if (nd <= zc[u] && s_psum[c[u] + nd - 1] > nd - 1) d[u] = nd;
        }
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) src[u] = c[u] + d[u];
}

/* horn: one tile per block: pSum in shared memory, binary search per output, direct write. */
template <unsigned TILE>
static __global__ void __launch_bounds__(SC_TILE_THREADS(TILE)) horn_kernel(sc_tile_args a) {
    constexpr unsigned T = SC_TILE_THREADS(TILE), ITEMS = SC_TILE_ITEMS(TILE);
    __shared__ __align__(16) uint16_t s_psum[TILE];
    __shared__ uint32_t s_scan[2 * T];
    const uint32_t t = blockIdx.x, base = t * TILE;
    const uint32_t m = sc_tile_len<TILE>(a, base);
    if (m == 0) return; /* past the run-time count */

    /* prefix sum: pSum[j] = invalid elements in [0, j] (items past m count as neither) */
    const uint32_t kept = sc_tile_kept_bits<ITEMS>(a.flags, base, m);
    const uint32_t invalid = ~kept & sc_tile_in_mask<ITEMS>(m);
    uint32_t p[ITEMS];
    const uint32_t z = sc_tile_prefix_sum<T, ITEMS>(invalid, a.scan, s_scan, p);
    sc_tile_store_u16<ITEMS>(s_psum, p);
    __syncthreads();

    /* search: forall outputs c < v in parallel */
    const uint32_t v = m - z;
    uint32_t src[ITEMS];
    horn_search<TILE, ITEMS>(s_psum, z, v, src);
    sc_tile_write<T, ITEMS>(a, base, sc_tile_offset(a, t, TILE), v, src);
}

extern "C" sc_status sc_cuda_horn(sc_job *job) {
    SC_TILE_RUN(job, horn_kernel, "search");
}
