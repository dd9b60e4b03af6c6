/* scan_scatter.cu: the textbook stable compaction on the GPU, and the device-wide exclusive
 * scan the other three-phase algorithms share. Pass 1 (scan): exclusive prefix sum of the
 * flags, by tiles of SCAN_TILE with a block scan (Hillis-Steele or Blelloch, job->scan), the
 * tile totals scanned the same way, recursively, and added back. Pass 2 (scatter): forall i in
 * parallel: if flags[i], out[index[i]] = in[i].
 * Run-time length (opt.d_n): the flags' tiles past *d_n write a zero total and return; the
 * levels above scan the bound's few tile totals; the scatter's blocks past *d_n return.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 16n + 2m*E (scan: F in, 4n out; add offsets: 4n in, 4n out; scatter: F, 4n, m*E in, m*E
 * out).
 */
#include "common.cuh"
#include "primitives.cuh"

#define SCAN_BLOCK 512
#define SCAN_ITEMS 4
#define SCAN_TILE  (SCAN_BLOCK * SCAN_ITEMS)

static __device__ __forceinline__ uint32_t scan_value(uint8_t flag) {
    return flag != 0;
}
static __device__ __forceinline__ uint32_t scan_value(uint32_t count) {
    return count;
}

/* scan: exclusive scan of one tile of flags (as 0/1) or counts; its total goes to sums[tile]
 * and, for a single tile, to *total. Each thread sums SCAN_ITEMS values serially, so the
 * block scan runs over SCAN_BLOCK partial sums. */
template <typename T, sc_scan VARIANT>
__global__ void __launch_bounds__(SCAN_BLOCK)
    scan_tiles_kernel(const T *in, uint32_t *out, uint32_t bound, const uint32_t *d_n,
                      uint32_t *sums, uint32_t *total) {
    __shared__ uint32_t smem[2 * SCAN_BLOCK];
    const uint32_t n = sc_dev_count(d_n, bound);
    if ((size_t)blockIdx.x * SCAN_TILE >= n && blockIdx.x > 0) { /* past the run-time n */
        if (threadIdx.x == 0 && sums) sums[blockIdx.x] = 0;
        return;
    }
    size_t base = (size_t)blockIdx.x * SCAN_TILE + threadIdx.x * SCAN_ITEMS;
    uint32_t v[SCAN_ITEMS], sum = 0;
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; k++) {
        v[k] = base + k < n ? scan_value(in[base + k]) : 0;
        sum += v[k];
    }
    uint32_t tile_total;
    uint32_t x = VARIANT == SC_SCAN_HILLIS_STEELE
                     ? sc_block_scan_hillis_steele<SCAN_BLOCK>(sum, smem, &tile_total)
                     : sc_block_scan_blelloch<SCAN_BLOCK>(sum, smem, &tile_total);
#pragma unroll
    for (int k = 0; k < SCAN_ITEMS; k++) {
        if (base + k < n) out[base + k] = x;
        x += v[k];
    }
    if (threadIdx.x == 0) {
        if (sums) sums[blockIdx.x] = tile_total;
        if (total) *total = tile_total;
    }
}

/* scan: add each tile's scanned offset to the tile's elements. */
__global__ void add_offsets_kernel(uint32_t *data, uint32_t bound, const uint32_t *d_n,
                                   const uint32_t *offsets) {
    const uint32_t n = sc_dev_count(d_n, bound);
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] += offsets[i / SCAN_TILE];
}

/* scatter: every kept element to its scanned index. */
__global__ void scatter_kernel(const void *in, const uint8_t *flags, const uint32_t *index,
                               void *out, uint32_t bound, const uint32_t *d_n, unsigned elem_size) {
    const uint32_t n = sc_dev_count(d_n, bound);
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i]) sc_move_elem(out, index[i], in, (uint32_t)i, elem_size);
}

static size_t round_words(size_t words) {
    return (words + 63) & ~(size_t)63;
}

size_t sc_cuda_scan_temp_bytes(size_t n) {
    size_t words = 0;
    while (n > SCAN_TILE) {
        n = (n + SCAN_TILE - 1) / SCAN_TILE;
        words += round_words(n);
    }
    return words * sizeof(uint32_t);
}

template <typename T>
static sc_status scan_launch(sc_job *job, sc_scan variant, const T *in, uint32_t *out, size_t n,
                             const uint32_t *d_n, uint32_t *sums, uint32_t *total) {
    unsigned tiles = sc_cuda_blocks(n, SCAN_TILE);
    cudaStream_t s = sc_cuda_stream(job);
    if (variant == SC_SCAN_HILLIS_STEELE)
        scan_tiles_kernel<T, SC_SCAN_HILLIS_STEELE>
            <<<tiles, SCAN_BLOCK, 0, s>>>(in, out, (uint32_t)n, d_n, sums, total);
    else
        scan_tiles_kernel<T, SC_SCAN_BLELLOCH>
            <<<tiles, SCAN_BLOCK, 0, s>>>(in, out, (uint32_t)n, d_n, sums, total);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

/* One level of the recursion: scan tiles, scan their totals (next level), add them back. Only
 * the first level reads the run-time count d_n (may be NULL): the tile totals above it are
 * the bound's, zero past d_n. */
template <typename T>
static sc_status scan_level(sc_job *job, sc_scan variant, const T *in, uint32_t *out, size_t n,
                            const uint32_t *d_n, uint32_t *d_total, uint32_t *temp) {
    if (n <= SCAN_TILE) return scan_launch(job, variant, in, out, n, d_n, NULL, d_total);
    size_t tiles = (n + SCAN_TILE - 1) / SCAN_TILE;
    uint32_t *sums = temp;
    sc_status s = scan_launch(job, variant, in, out, n, d_n, sums, NULL);
    if (s == SC_OK)
        s = scan_level<uint32_t>(job, variant, sums, sums, tiles, NULL, d_total,
                                 temp + round_words(tiles));
    if (s != SC_OK) return s;
    add_offsets_kernel<<<sc_cuda_blocks(n, 256), 256, 0, sc_cuda_stream(job)>>>(out, (uint32_t)n,
                                                                                d_n, sums);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

sc_status sc_cuda_scan_u32(sc_job *job, sc_scan variant, uint32_t *d_data, size_t n,
                           uint32_t *d_total, void *d_temp) {
    return scan_level<uint32_t>(job, variant, d_data, d_data, n, NULL, d_total, (uint32_t *)d_temp);
}

extern "C" sc_status sc_cuda_scan_scatter(sc_job *job) {
    size_t n = job->n;
    size_t index_bytes = round_words(n) * sizeof(uint32_t);
    void *temp;
    sc_status s = sc_cuda_temp(job, index_bytes + sc_cuda_scan_temp_bytes(n), &temp);
    if (s != SC_OK) return s;
    uint32_t *index = (uint32_t *)temp;
    uint32_t *d_count = sc_cuda_count_slot(job);
    sc_cuda_timing_begin(job);

    s = scan_level<uint8_t>(job, job->scan, job->flags, index, n, job->opt.d_n, d_count,
                            (uint32_t *)((char *)temp + index_bytes));
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "scan");

    if (n) {
        scatter_kernel<<<sc_cuda_blocks(n, 256), 256, 0, sc_cuda_stream(job)>>>(
            job->in, job->flags, index, job->out, (uint32_t)n, job->opt.d_n,
            (unsigned)job->elem_size);
        SC_CUDA_LAUNCHED();
    }
    sc_cuda_timing_phase(job, "scatter");
    return sc_cuda_finish_count(job, d_count);
}
