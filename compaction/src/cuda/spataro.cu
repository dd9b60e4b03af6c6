/* spataro.cu: the 3-phase stable compaction of Spataro 2015, one block per tile (job->tile).
 * Phase 1 (count): each block counts its kept elements with __syncthreads_count.
 * Phase 2 (scan): exclusive scan of the block counts gives each block its output offset.
 * Phase 3 (move): inside a warp, a kept element's offset is the number of kept lanes below it
 * (__popc of the ballot under the lane mask); warp offsets inside the block come from the
 * bit-sliced scan of the warp totals (one ballot per bit plane); element i goes to
 * blockOffset + warpOffset + laneOffset.
 * A block has at most 1024 threads, so a tile of 2048 runs as two chunks of 1024, the second
 * after the first's count: the paper's block and tile are the same, ours may hold 2 chunks.
 * Run-time length (opt.d_n): the grid covers the bound; blocks past *d_n count 0 and return,
 * the scan runs over the bound's block counts.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (count: F; move: F, the m kept elements in and out).
 */
#include "common.cuh"
#include "primitives.cuh"

/* Phase 1: block counts (paper: computeBlockCounts). */
__global__ void count_kernel(const uint8_t *flags, uint32_t bound, const uint32_t *d_n,
                             uint32_t tile, uint32_t *block_counts) {
    const uint32_t n = sc_dev_count(d_n, bound);
    size_t first = (size_t)blockIdx.x * tile;
    if (first >= n) { /* past the run-time n (a block-uniform test) */
        if (threadIdx.x == 0) block_counts[blockIdx.x] = 0;
        return;
    }
    uint32_t count = 0;
    for (uint32_t c = 0; c < tile; c += blockDim.x) {
        size_t i = first + c + threadIdx.x;
        count += (uint32_t)__syncthreads_count(i < n && flags[i]);
    }
    if (threadIdx.x == 0) block_counts[blockIdx.x] = count;
}

/* Bit-sliced exclusive scan of the warp totals, run by warp 0 (paper, phase 3): bit plane j of
 * every total is one ballot; lane w adds __popc of the planes of the warps below it, << j.
 * The paper takes log2(32) = 5 planes; a warp total can be 32 itself, so this takes 6.
 * Returns the sum of all totals. */
static __device__ uint32_t bit_sliced_scan(uint32_t *warp_totals, unsigned warps) {
    unsigned lane = sc_lane();
    uint32_t total = lane < warps ? warp_totals[lane] : 0;
    uint32_t offset = 0, sum = 0;
#pragma unroll
    for (unsigned j = 0; j < 6; j++) {
        unsigned plane = __ballot_sync(SC_FULL_MASK, total & (1u << j));
        offset += (uint32_t)__popc(plane & sc_lanemask_lt()) << j;
        sum += (uint32_t)__popc(plane) << j;
    }
    if (lane < warps) warp_totals[lane] = offset;
    return sum;
}

/* Phase 3: move the kept elements of one tile to blockOffset + warp offset + lane offset. */
__global__ void move_kernel(const void *in, const uint8_t *flags, void *out, uint32_t bound,
                            const uint32_t *d_n, uint32_t tile, unsigned elem_size,
                            const uint32_t *block_offsets) {
    __shared__ uint32_t warp_totals[SC_WARP];
    __shared__ uint32_t chunk_total;
    const unsigned w_i = sc_warp_id(), w_l = sc_lane(), warps = blockDim.x / SC_WARP;
    const uint32_t n = sc_dev_count(d_n, bound);
    size_t first = (size_t)blockIdx.x * tile;
    if (first >= n) return; /* past the run-time n */
    uint32_t offset = block_offsets[blockIdx.x];
    for (uint32_t c = 0; c < tile; c += blockDim.x) {
        size_t i = first + c + threadIdx.x;
        int pred = i < n && flags[i];
        unsigned b = __ballot_sync(SC_FULL_MASK, pred) & sc_lanemask_lt();
        uint32_t t_u = (uint32_t)__popc(b);
        if (w_l == SC_WARP - 1) warp_totals[w_i] = t_u + pred;
        __syncthreads();
        if (w_i == 0) {
            uint32_t sum = bit_sliced_scan(warp_totals, warps);
            if (w_l == 0) chunk_total = sum;
        }
        __syncthreads();
        if (pred) sc_move_elem(out, offset + warp_totals[w_i] + t_u, in, (uint32_t)i, elem_size);
        offset += chunk_total;
        __syncthreads(); /* warp_totals and chunk_total are reused by the next chunk */
    }
}

extern "C" sc_status sc_cuda_spataro(sc_job *job) {
    size_t n = job->n, tile = job->tile;
    size_t blocks = sc_cuda_blocks(n, tile);
    unsigned threads = tile < 1024 ? (unsigned)tile : 1024u;
    size_t counts_bytes = (blocks * sizeof(uint32_t) + 255) & ~(size_t)255;
    void *temp;
    sc_status s = sc_cuda_temp(job, counts_bytes + sc_cuda_scan_temp_bytes(blocks), &temp);
    if (s != SC_OK) return s;
    uint32_t *counts = (uint32_t *)temp;
    uint32_t *d_count = sc_cuda_count_slot(job);
    cudaStream_t stream = sc_cuda_stream(job);
    sc_cuda_timing_begin(job);

    count_kernel<<<(unsigned)blocks, threads, 0, stream>>>(job->flags, (uint32_t)n, job->opt.d_n,
                                                           (uint32_t)tile, counts);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "count");

    s = sc_cuda_scan_u32(job, job->scan, counts, blocks, d_count, (char *)temp + counts_bytes);
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "scan");

    move_kernel<<<(unsigned)blocks, threads, 0, stream>>>(job->in, job->flags, job->out,
                                                          (uint32_t)n, job->opt.d_n, (uint32_t)tile,
                                                          (unsigned)job->elem_size, counts);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "move");
    return sc_cuda_finish_count(job, d_count);
}
