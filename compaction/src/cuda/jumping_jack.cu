/* jumping_jack.cu: Jumping Jack (Moreira, Reis & de Sousa 2009, JJ paper §4, Alg. 2) inside the
 * block-based framework (blocks.cuh, JJ paper §3.4): one block per tile of s elements, in shared
 * memory:
 *   prefix sum: pSum = inclusive all-prefix-sum of the discriminated tile (1 = invalid; Alg. 1:
 *               each thread sums its 8 items, the scan across threads is Hillis-Steele or
 *               Blelloch, job->scan), and Eq. 1: MAS[i] = s - pSum[i];
 *   jumps:      forall i < v = MAS[s - 1] in parallel: idx <- i; while data[idx] is not valid:
 *               idx <- MAS[idx]; output i gathers data[idx], written straight to the tile's
 *               offset in the output (the concatenation).
 * s is the tile's own length (the last tile may be short), as on the CPU backend, so both give
 * the same permutation. Unstable.
 * Timing: prefix sum, jumps and concatenation run in one kernel and are timed together as
 * "jumps", the dominant phase; "tile scan" is timed on its own.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (tile counts: F; tile pass: F, the m kept elements gathered and written).
 */
#include "blocks.cuh"

/* Alg. 2 loop body for output i: idx <- i; while data[idx] is not valid: idx <- MAS[idx]. */
static __device__ __forceinline__ uint32_t jj_jump(const uint32_t *s_kept, const uint16_t *s_mas,
                                                   uint32_t i) {
    uint32_t idx = i;
    while (!sc_tile_kept(s_kept, idx)) idx = s_mas[idx];
    return idx;
}

/* jumping-jack: one tile per block: MAS in shared memory, jumps per output, direct write. */
template <unsigned TILE>
static __global__ void __launch_bounds__(SC_TILE_THREADS(TILE)) jj_kernel(sc_tile_args a) {
    constexpr unsigned T = SC_TILE_THREADS(TILE), ITEMS = SC_TILE_ITEMS(TILE);
    __shared__ uint32_t s_kept[TILE / 32];
    __shared__ __align__(16) uint16_t s_mas[TILE];
    __shared__ uint32_t s_scan[2 * T];
    const uint32_t t = blockIdx.x, base = t * TILE;
    const uint32_t s = sc_tile_len<TILE>(a, base);
    if (s == 0) return; /* past the run-time count */

    /* prefix sum, then Eq. 1: MAS[i] = s - pSum[i] */
    const uint32_t kept = sc_tile_kept_bits<ITEMS>(a.flags, base, s);
    sc_tile_store_bits<ITEMS>(s_kept, kept);
    uint32_t p[ITEMS];
    const uint32_t z =
        sc_tile_prefix_sum<T, ITEMS>(~kept & sc_tile_in_mask<ITEMS>(s), a.scan, s_scan, p);
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) p[u] = s - p[u];
    sc_tile_store_u16<ITEMS>(s_mas, p);
    __syncthreads();

    /* jumps: v <- MAS[s - 1]; forall i < v in parallel */
    const uint32_t v = s - z;
    uint32_t src[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        uint32_t i = u * T + threadIdx.x;
        src[u] = i < v ? jj_jump(s_kept, s_mas, i) : 0;
    }
    sc_tile_write<T, ITEMS>(a, base, sc_tile_offset(a, t, TILE), v, src);
}

extern "C" sc_status sc_cuda_jumping_jack(sc_job *job) {
    SC_TILE_RUN(job, jj_kernel, "jumps");
}
