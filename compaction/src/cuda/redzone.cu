/* redzone.cu: Redzone compaction for many blocks (Bontes & Gain 2024, Alg. 2 and 3): remove the
 * k listed elements of A in place in O(k); survivors of the red zone [z, n), z = n - k, fill the
 * holes below z. Unstable. One kernel per phase, a kernel boundary being the global sync of
 * §4.4:
 *   mark    phase 1 (Alg. 1 lines 3-4) over the whole grid, with the list check (redzone.cuh);
 *   pair    phase 2 (Alg. 2 lines 0-15): block p pairs R[i] with A[z + i] over its batch;
 *   orphans phase 3 (Alg. 2 lines 16-22, Alg. 3): leftover orphans paired across batches.
 * GPU departures: |P| is the whole GPU (blocks from st->sm_count), not the published code's
 * 63-block cooperative grid, since no phase needs a grid-wide barrier inside a kernel; and each
 * batch pairs its own orphans at the end of phase 2 (§6, last optimisation), so phase 3 moves
 * only the surplus of each batch. Phase 1 costs k atomics on the n-bit map; they, not the
 * scattered writes of phase 2, set Redzone apart from k plain scattered writes.
 * Run-time lengths (opt.d_n, opt.d_k): |P| and the storage come from the bound k; s comes from
 * the run-time k (rz_batch_size), so a small k fills the first batches, and the others record
 * empty batches and return.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   8k + 2k*E (mark: the list; pair: the list again, k red-zone elements in, k out); phase 1's k
 * atomics on the bit map.
 */
#include "redzone.cuh"

/* The launch shape, from k_redzone_tune (tuning.cuh; evidence: docs/design.md#tuning-evidence):
 * threads per block; pair blocks per SM (RZ_ITEMS loads in flight per thread suffice); |P| at
 * most (phase 3 keeps 3 words per batch in shared memory: 24 KB); mark blocks per SM at most. */
static constexpr int RZ_THREADS = SC_TUNED(k_redzone_tune).threads;
static constexpr int RZ_BLOCKS_SM = SC_TUNED(k_redzone_tune).pair_blocks;
static constexpr int RZ_MAX_BLOCKS = SC_TUNED(k_redzone_tune).max_blocks;
static constexpr int RZ_MARK_BLOCKS = SC_TUNED(k_redzone_tune).mark_blocks;

/* mark: phase 1 over the grid; any bad index raises the error flag for the later kernels. */
static __global__ void __launch_bounds__(RZ_THREADS) rz_mark_kernel(rz_args a) {
    rz_resolve(a);
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (rz_mark(a, first, (size_t)gridDim.x * blockDim.x)) *a.err = 1;
}

/* Batch p of s pairs (Alg. 2 line 0: the last batch takes the remainder). */
static __device__ __forceinline__ void rz_batch(uint32_t k, uint32_t s, uint32_t p, size_t *from,
                                                size_t *to) {
    size_t f = (size_t)p * s;
    *from = f < k ? f : k;
    *to = f + s < k ? f + s : k;
}

/* pair: phase 2 for batch p = blockIdx.x, then the batch pairs min(j_p, k_p) of its own orphans
 * (§6) and leaves its surplus counts for phase 3: left[p] sources, left[P + p] destinations,
 * left[2P + p] the number it paired itself. */
template <typename V, bool FAST>
static __global__ void __launch_bounds__(RZ_THREADS, RZ_BLOCKS_SM)
    rz_pair_kernel(rz_args a, uint32_t *left) {
    __shared__ uint32_t s_jk[2];
    if (rz_list_bad(a)) return; /* the list check failed: write nothing */
    rz_resolve(a);
    const uint32_t p = blockIdx.x, P = gridDim.x, s = rz_batch_size(a.k, P);
    size_t from, to;
    rz_batch(a.k, s, p, &from, &to);
    if (from == to) { /* an empty batch (the run-time k is below the bound) */
        if (threadIdx.x == 0) left[p] = left[P + p] = left[2 * P + p] = 0;
        return;
    }
    if (threadIdx.x < 2) s_jk[threadIdx.x] = 0;
    __syncthreads();
    rz_pair_batch<V, FAST>(a, from, to, s_jk);
    const uint32_t j = s_jk[0], k = s_jk[1], m = j < k ? j : k;
    for (uint32_t t = threadIdx.x; t < m; t += blockDim.x)
        sc_move_elem(a.data, a.orphans[to - 1 - t], a.data, a.orphans[from + t], a.elem_size);
    if (threadIdx.x == 0) {
        left[p] = j - m;
        left[P + p] = k - m;
        left[2 * P + p] = m;
    }
}

/* Line 17: out[0..P] = exclusive prefix sum of in[0..P) with out[P] = the total, by the whole
 * block (BLOCK threads; tmp holds BLOCK / 32 + 1 words). Ends with a barrier. */
template <unsigned BLOCK>
static __device__ void rz_scan_counts(const uint32_t *in, uint32_t *out, uint32_t P,
                                      uint32_t *tmp) {
    uint32_t per = (P + BLOCK - 1) / BLOCK, lo = threadIdx.x * per;
    uint32_t hi = lo + per < P ? lo + per : P, sum = 0, total;
    for (uint32_t i = lo; i < hi; i++) sum += in[i];
    uint32_t x = sc_block_scan_warps<BLOCK>(sum, tmp, &total);
    for (uint32_t i = lo; i < hi; i++) {
        out[i] = x;
        x += in[i];
    }
    if (threadIdx.x == 0) out[P] = total;
    __syncthreads();
}

/* Alg. 3: the batch holding orphan number t, given S = the exclusive prefix sum of the batches'
 * counts. Line 1: no batch holds more than s orphans, so S[t / s] <= t and the batch is at least
 * t / s; lines 3-6 walk forward from there, here as a binary search over [t / s, P). */
static __device__ __forceinline__ uint32_t rz_load_balance(const uint32_t *S, uint32_t P,
                                                           uint32_t t, uint32_t s) {
    uint32_t lo = t / s, hi = P - 1; /* the answer is the last batch p with S[p] <= t */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (S[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* orphans: phase 3 (Alg. 2 lines 16-22): orphan number t of Z' meets orphan number t of R':
 * A'[R'[x]] <- Z'[y] (line 21), the runs c of line 18 being a grid-stride loop. Also writes the
 * kept count. */
static __global__ void __launch_bounds__(RZ_THREADS)
    rz_orphans_kernel(rz_args a, uint32_t P, const uint32_t *left) {
    extern __shared__ uint32_t sh[]; /* J[P + 1] | K[P + 1] | M[P] */
    __shared__ uint32_t tmp[RZ_THREADS / SC_WARP + 1];
    rz_resolve(a);
    const uint32_t s = rz_batch_size(a.k, P);
    const int bad = rz_list_bad(a);
    if (blockIdx.x == 0 && threadIdx.x == 0) rz_write_count(a, bad);
    if (bad) return;
    uint32_t *J = sh, *K = sh + P + 1, *M = sh + 2 * (P + 1);
    rz_scan_counts<RZ_THREADS>(left, J, P, tmp); /* line 17, in every block */
    rz_scan_counts<RZ_THREADS>(left + P, K, P, tmp);
    for (uint32_t p = threadIdx.x; p < P; p += blockDim.x) M[p] = left[2 * P + p];
    __syncthreads();
    const uint32_t total = J[P]; /* = K[P] (Lemma 4.2) */
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < total;
         t += gridDim.x * blockDim.x) {
        uint32_t py = rz_load_balance(J, P, t, s), px = rz_load_balance(K, P, t, s);
        size_t fy, ty, fx, tx;
        rz_batch(a.k, s, py, &fy, &ty);
        rz_batch(a.k, s, px, &fx, &tx);
        uint32_t y = a.orphans[fy + M[py] + (t - J[py])];     /* line 19: source */
        uint32_t x = a.orphans[tx - 1 - M[px] - (t - K[px])]; /* line 20: destination */
        sc_move_elem(a.data, x, a.data, y, a.elem_size);      /* line 21 */
    }
}

static sc_status rz_launch_pair(const sc_job *job, const rz_args &a, uint32_t P, uint32_t *left) {
    cudaStream_t stream = sc_cuda_stream(job);
    switch (rz_fast_size(job)) {
    case 1:
        rz_pair_kernel<uint8_t, true><<<P, RZ_THREADS, 0, stream>>>(a, left);
        break;
    case 2:
        rz_pair_kernel<uint16_t, true><<<P, RZ_THREADS, 0, stream>>>(a, left);
        break;
    case 4:
        rz_pair_kernel<uint32_t, true><<<P, RZ_THREADS, 0, stream>>>(a, left);
        break;
    case 8:
        rz_pair_kernel<uint2, true><<<P, RZ_THREADS, 0, stream>>>(a, left);
        break;
    case 16:
        rz_pair_kernel<uint4, true><<<P, RZ_THREADS, 0, stream>>>(a, left);
        break;
    default:
        rz_pair_kernel<uint8_t, false><<<P, RZ_THREADS, 0, stream>>>(a, left);
    }
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

extern "C" sc_status sc_cuda_redzone(sc_job *job) {
    sc_cuda_timing_begin(job);
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    cudaStream_t stream = sc_cuda_stream(job);
    rz_args a = rz_make_args(job);
    const uint32_t k = a.k;
    if (k == 0) { /* Alg. 1 line 1: nothing to check or move */
        SC_CUDA_TRY(cudaMemsetAsync(a.err, 0, sizeof(uint32_t), stream));
        rz_count_kernel<<<1, 1, 0, stream>>>(a);
        SC_CUDA_LAUNCHED();
        return sc_cuda_finish_count(job, a.count);
    }
    /* Alg. 2 line 0: |P| blocks fill the GPU, s = ceil(k / |P|); no block is left without pairs.
     * k == n runs too: the list must still be checked, and every pair is then case B. The
     * kernels take s from the run-time k (rz_batch_size); for the bound it gives this P. */
    uint32_t P = (uint32_t)st->sm_count * RZ_BLOCKS_SM, want = sc_cuda_blocks(k, RZ_THREADS);
    if (P > want) P = want;
    if (P > RZ_MAX_BLOCKS) P = RZ_MAX_BLOCKS;
    const uint32_t s = (uint32_t)(((size_t)k + P - 1) / P);
    P = (uint32_t)(((size_t)k + s - 1) / s);
    /* Storage for the most batches any k may take (k + 3P words would not grow with k), so that
     * a smaller k than an earlier call's never allocates. */
    const uint32_t P_max = (uint32_t)st->sm_count * RZ_BLOCKS_SM < RZ_MAX_BLOCKS
                               ? (uint32_t)st->sm_count * RZ_BLOCKS_SM
                               : RZ_MAX_BLOCKS;
    const size_t map_bytes = (((size_t)a.n + 31) / 32 * 4 + 255) & ~(size_t)255;
    void *temp;
    sc_status rc = sc_cuda_temp(job, map_bytes + ((size_t)k + 3 * (size_t)P_max) * 4, &temp);
    if (rc != SC_OK) return rc;
    a.bits = (uint32_t *)temp;
    a.orphans = (uint32_t *)((char *)temp + map_bytes);
    uint32_t *left = a.orphans + k;

    SC_CUDA_TRY(cudaMemsetAsync(a.err, 0, sizeof(uint32_t), stream));
    rc = rz_clear_map(job, a);
    if (rc != SC_OK) return rc;
    unsigned mark_blocks = sc_cuda_blocks(k, (size_t)RZ_THREADS * RZ_ITEMS);
    if (mark_blocks > (unsigned)st->sm_count * RZ_MARK_BLOCKS)
        mark_blocks = (unsigned)st->sm_count * RZ_MARK_BLOCKS;
    rz_mark_kernel<<<mark_blocks, RZ_THREADS, 0, stream>>>(a);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "mark");

    rc = rz_launch_pair(job, a, P, left);
    if (rc != SC_OK) return rc;
    sc_cuda_timing_phase(job, "pair");

    size_t smem = (3 * (size_t)P + 2) * sizeof(uint32_t);
    rz_orphans_kernel<<<(unsigned)st->sm_count, RZ_THREADS, smem, stream>>>(a, P, left);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "orphans");
    return rz_check_result(job, sc_cuda_finish_count(job, a.count));
}
