/* atomic.cu: the unstable baseline. Each warp takes chunks of 128 elements (4 flags per lane
 * in one 32-bit load), counts the chunk's kept elements with a warp scan, reserves that many
 * output slots with one atomicAdd on a global counter, and writes them there. Chunks land in
 * the order their atomics win, so the output order varies from run to run. The counter is the
 * kept-count slot itself: it holds the count when the kernel ends.
 * Run-time length (opt.d_n): the grid is sized for the bound; the warps stride over the chunks
 * below *d_n only.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   F + 2m*E, and one atomic on one counter per chunk of 128: the atomics serialise.
 */
#include "common.cuh"
#include "primitives.cuh"

#define AT_BLOCK 256
#define AT_ITEMS 4 /* flags per lane per chunk */
#define AT_CHUNK (SC_WARP * AT_ITEMS)

/* Keep mask of the AT_ITEMS flags from `first`. */
static __device__ __forceinline__ unsigned chunk_mask(const uint8_t *flags, size_t first,
                                                      uint32_t n, int vec) {
    if (vec && first + AT_ITEMS <= n) {
        uchar4 f = *(const uchar4 *)(flags + first);
        return (f.x != 0) | (f.y != 0) << 1 | (f.z != 0) << 2 | (f.w != 0) << 3;
    }
    unsigned m = 0;
    for (unsigned b = 0; b < AT_ITEMS; b++)
        if (first + b < n && flags[first + b]) m |= 1u << b;
    return m;
}

/* append: warp-aggregated atomic append, one atomicAdd per warp and chunk. */
__global__ void __launch_bounds__(AT_BLOCK)
    append_kernel(const void *in, const uint8_t *flags, void *out, uint32_t bound,
                  const uint32_t *d_n, unsigned elem_size, int flags_vec, uint32_t *counter) {
    const uint32_t n = sc_dev_count(d_n, bound);
    size_t chunks = ((size_t)n + AT_CHUNK - 1) / AT_CHUNK;
    size_t warps = (size_t)gridDim.x * (AT_BLOCK / SC_WARP);
    unsigned lane = sc_lane();
    for (size_t c = (size_t)blockIdx.x * (AT_BLOCK / SC_WARP) + sc_warp_id(); c < chunks;
         c += warps) {
        size_t first = c * AT_CHUNK + lane * AT_ITEMS;
        unsigned mask = chunk_mask(flags, first, n, flags_vec);
        uint32_t total;
        uint32_t off = sc_warp_exclusive_scan((uint32_t)__popc(mask), &total);
        if (total == 0) continue;
        uint32_t base = 0;
        if (lane == 0) base = atomicAdd(counter, total);
        off += __shfl_sync(SC_FULL_MASK, base, 0);
        for (; mask; mask &= mask - 1)
            sc_move_elem(out, off++, in, (uint32_t)(first + __ffs(mask) - 1), elem_size);
    }
}

extern "C" sc_status sc_cuda_atomic(sc_job *job) {
    if (job->reserve) return sc_cuda_reserved(job); /* no temporary storage */
    uint32_t *d_count = sc_cuda_count_slot(job);
    const sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    cudaStream_t stream = sc_cuda_stream(job);
    sc_cuda_timing_begin(job);
    SC_CUDA_TRY(cudaMemsetAsync(d_count, 0, sizeof *d_count, stream));
    size_t chunks = (job->n + AT_CHUNK - 1) / AT_CHUNK;
    unsigned blocks = sc_cuda_blocks(chunks, AT_BLOCK / SC_WARP);
    unsigned resident = (unsigned)st->sm_count * (2048 / AT_BLOCK);
    if (blocks > resident) blocks = resident;
    append_kernel<<<blocks, AT_BLOCK, 0, stream>>>(job->in, job->flags, job->out, (uint32_t)job->n,
                                                   job->opt.d_n, (unsigned)job->elem_size,
                                                   ((uintptr_t)job->flags & 3) == 0, d_count);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "append");
    return sc_cuda_finish_count(job, d_count);
}
