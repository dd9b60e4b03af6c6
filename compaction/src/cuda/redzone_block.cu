/* redzone_block.cu: Redzone compaction in one block (Bontes & Gain 2024, Alg. 1): all three phases
 * in one kernel of one block of 1024 threads, the dotted sync points of Alg. 1 being
 * __syncthreads (§4.4: low-latency sync, no kernel boundaries). Phase 1 also checks the list
 * (redzone.cuh), and the barrier after it ends the kernel before any write if the check failed.
 * Phase 3 pairs Z'[i] with R'[i] directly: with one batch both lists are global and
 * |Z'| = |R'| (Lemma 4.2), so no load balancing is needed.
 * Timing: one kernel has no event boundaries inside, so with opt.timing thread 0 stamps the
 * global timer after each barrier, as the paper times its phases with an on-chip clock (§5).
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   8k + 2k*E as redzone, with one block: latency, not bytes, bounds it.
 */
#include "redzone.cuh"

/* the one block's threads (k_redzone_tune in tuning.cuh) */
static constexpr int RZB_THREADS = SC_TUNED(k_redzone_tune).block_threads;
#define RZB_STAMPS 4 /* d_counters slots 8..15: 4 stamps of 64 bits */

static __device__ __forceinline__ void rzb_stamp(unsigned long long *stamps, int i) {
    if (!stamps || threadIdx.x != 0) return;
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    stamps[i] = t;
}

/* redzone-block: Alg. 1 lines 1-17 in one block. */
template <typename V, bool FAST>
static __global__ void __launch_bounds__(RZB_THREADS, 1)
    rzb_kernel(rz_args a, unsigned long long *stamps) {
    __shared__ uint32_t s_jk[2];
    rz_resolve(a); /* run-time n and k, and the red zone [n - k, n) */
    rzb_stamp(stamps, 0);
    if (threadIdx.x < 2) s_jk[threadIdx.x] = 0;
    /* phase 1, lines 3-4; the barrier makes the marks visible to phase 2 */
    if (__syncthreads_or(rz_mark(a, threadIdx.x, blockDim.x))) {
        if (threadIdx.x == 0) rz_write_count(a, 1);
        for (int i = 1; i < RZB_STAMPS; i++) rzb_stamp(stamps, i);
        return;
    }
    rzb_stamp(stamps, 1);
    rz_pair_batch<V, FAST>(a, 0, a.k, s_jk); /* phase 2, lines 5-15 */
    rzb_stamp(stamps, 2);
    const uint32_t j = s_jk[0]; /* phase 3, lines 16-17: j = |Z'| = |R'| */
    for (uint32_t i = threadIdx.x; i < j; i += blockDim.x)
        sc_move_elem(a.data, a.orphans[a.k - 1 - i], a.data, a.orphans[i], a.elem_size);
    __syncthreads();
    rzb_stamp(stamps, 3);
    if (threadIdx.x == 0) rz_write_count(a, 0);
}

static sc_status rzb_launch(const sc_job *job, const rz_args &a, unsigned long long *stamps) {
    cudaStream_t stream = sc_cuda_stream(job);
    switch (rz_fast_size(job)) {
    case 1:
        rzb_kernel<uint8_t, true><<<1, RZB_THREADS, 0, stream>>>(a, stamps);
        break;
    case 2:
        rzb_kernel<uint16_t, true><<<1, RZB_THREADS, 0, stream>>>(a, stamps);
        break;
    case 4:
        rzb_kernel<uint32_t, true><<<1, RZB_THREADS, 0, stream>>>(a, stamps);
        break;
    case 8:
        rzb_kernel<uint2, true><<<1, RZB_THREADS, 0, stream>>>(a, stamps);
        break;
    case 16:
        rzb_kernel<uint4, true><<<1, RZB_THREADS, 0, stream>>>(a, stamps);
        break;
    default:
        rzb_kernel<uint8_t, false><<<1, RZB_THREADS, 0, stream>>>(a, stamps);
    }
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

/* The in-kernel phase times (ns stamps) added to the event-timed clearing of the map. */
static sc_status rzb_record_stamps(sc_job *job, const unsigned long long *d_stamps) {
    unsigned long long h[RZB_STAMPS];
    SC_CUDA_TRY(
        cudaMemcpyAsync(h, d_stamps, sizeof h, cudaMemcpyDeviceToHost, sc_cuda_stream(job)));
    SC_CUDA_TRY(cudaStreamSynchronize(sc_cuda_stream(job)));
    static const char *const names[RZB_STAMPS - 1] = {"mark", "pair", "orphans"};
    for (int i = 0; i < RZB_STAMPS - 1; i++)
        sc_timing_add(job->ctx, names[i], (double)(h[i + 1] - h[i]) * 1e-6);
    return SC_OK;
}

extern "C" sc_status sc_cuda_redzone_block(sc_job *job) {
    sc_cuda_timing_begin(job);
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    cudaStream_t stream = sc_cuda_stream(job);
    rz_args a = rz_make_args(job);
    const uint32_t n = a.n, k = a.k;
    unsigned long long *stamps =
        job->opt.timing ? (unsigned long long *)(st->d_counters + 2 * RZB_STAMPS) : NULL;
    if (k == 0) { /* line 1: nothing to check or move */
        SC_CUDA_TRY(cudaMemsetAsync(a.err, 0, sizeof(uint32_t), stream));
        rz_count_kernel<<<1, 1, 0, stream>>>(a);
        SC_CUDA_LAUNCHED();
        return sc_cuda_finish_count(job, a.count);
    }
    const size_t words = ((size_t)n + 31) / 32, bits_bytes = (words * 4 + 255) & ~(size_t)255;
    void *temp;
    sc_status rc = sc_cuda_temp(job, bits_bytes + (size_t)k * 4, &temp);
    if (rc != SC_OK) return rc;
    a.bits = (uint32_t *)temp;
    a.orphans = (uint32_t *)((char *)temp + bits_bytes);
    SC_CUDA_TRY(cudaMemsetAsync(a.err, 0, sizeof(uint32_t), stream));
    rc = rz_clear_map(job, a);
    if (rc != SC_OK) return rc;
    sc_cuda_timing_phase(job, "mark"); /* clearing the map; the kernel's phases follow */
    rc = rzb_launch(job, a, stamps);
    if (rc != SC_OK) return rc;
    rc = rz_check_result(job, sc_cuda_finish_count(job, a.count));
    if (rc == SC_OK && stamps) rc = rzb_record_stamps(job, stamps);
    return rc;
}
