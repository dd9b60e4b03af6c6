/* partition.cu: the k-way partition on the GPU (sc_partition; its specification is
 * src/cpu/partition.c, and both versions here must equal it byte for byte).
 *   single-pass: the single-pass idea of single_pass.cu generalised from 2 groups to k
 *     (Merrill & Garland 2016, as Merrill's one-sweep radix sort uses it): a histogram pass
 *     over the keys gives each group's base (the spec's exclusive scan of the group totals);
 *     then one pass of tiles taken by ticket: each tile ranks its elements per key (warp
 *     __match_any_sync, then a scan over the tile's warps: the spec's rank_key[i] within the
 *     tile), finds its per-key offsets by a decoupled look-back (one lane per key) and scatters
 *     every element to base[key] + offset[key] + rank. Traffic: keys twice, elements once.
 *   cub: the vendor baseline: cub::DeviceRadixSort::SortPairs of (key, index) over the few bits
 *     k needs (a stable LSD sort), then a gather of the elements.
 * Keys are checked while the histogram counts them; a bad key stops the scatter and is
 * reported through the counts (compaction.h). */
#include "common.cuh"
#include "primitives.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <limits.h>

#define PT_BLOCK 256
#define PT_ITEMS 8 /* elements per thread: rounds of PT_BLOCK in a tile */
#define PT_TILE  (PT_BLOCK * PT_ITEMS)
#define PT_WARPS (PT_BLOCK / SC_WARP)
#define PT_NONE  0xffu /* the key of a slot past the end */

/* The call's device scratch: hist[0..k) and the bad-key flag, the ticket counter, then one
 * look-back word per tile and key (cleared per call: status 0 = not ready). */
typedef struct pt_head {
    uint32_t hist[SC_PARTITION_MAX_KEYS];
    uint32_t bad;
    uint32_t ticket;
    uint32_t counts[SC_PARTITION_MAX_KEYS]; /* the counts, when the caller gave no d_kept */
} pt_head;

#define PT_AGGREGATE 1ull
#define PT_PREFIX    2ull

/* histogram: count each key; a key >= k marks the call bad. */
__global__ void pt_histogram_kernel(const uint8_t *keys, const uint32_t *d_n, uint32_t bound,
                                    unsigned k, pt_head *head) {
    __shared__ uint32_t cnt[SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t bad;
    if (threadIdx.x < SC_PARTITION_MAX_KEYS) cnt[threadIdx.x] = 0;
    if (threadIdx.x == 0) bad = 0;
    __syncthreads();
    uint32_t n = sc_dev_count(d_n, bound);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned key = keys[i];
        if (key < k)
            atomicAdd(&cnt[key], 1u);
        else
            bad = 1;
    }
    __syncthreads();
    if (threadIdx.x < k && cnt[threadIdx.x]) atomicAdd(&head->hist[threadIdx.x], cnt[threadIdx.x]);
    if (threadIdx.x == 0 && bad) atomicOr(&head->bad, 1u);
}

/* The counts where the caller wants them: d_out[j] = hist[j], or SC_BAD_LIST in d_out[0]. */
static __device__ void pt_write_counts(const pt_head *head, unsigned k, uint32_t *d_out) {
    if (threadIdx.x < k)
        d_out[threadIdx.x] =
            head->bad ? (threadIdx.x == 0 ? SC_BAD_LIST : 0u) : head->hist[threadIdx.x];
}

static __device__ __forceinline__ uint64_t pt_load(const uint64_t *p) {
    uint64_t v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
static __device__ __forceinline__ void pt_store(uint64_t *p, uint64_t v) {
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* single pass: rank per key in the tile, look back per key, scatter. */
__global__ void __launch_bounds__(PT_BLOCK)
    pt_scatter_kernel(const char *in, const uint8_t *keys, char *out, const uint32_t *d_n,
                      uint32_t bound, unsigned k, unsigned elem_size, pt_head *head,
                      uint64_t *status, uint32_t *d_counts) {
    __shared__ uint32_t s_warp[PT_ITEMS][PT_WARPS][SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t s_base[SC_PARTITION_MAX_KEYS];
    __shared__ uint32_t s_tile;
    if (threadIdx.x == 0) s_tile = atomicAdd(&head->ticket, 1u); /* tiles start in launch order */
    for (unsigned i = threadIdx.x; i < PT_ITEMS * PT_WARPS * SC_PARTITION_MAX_KEYS; i += PT_BLOCK)
        (&s_warp[0][0][0])[i] = 0;
    __syncthreads();
    const uint32_t tile = s_tile, n = sc_dev_count(d_n, bound);
    if (tile == 0) pt_write_counts(head, k, d_counts);
    if (head->bad || (size_t)tile * PT_TILE >= n) return; /* later tiles are empty too */
    const uint32_t base = tile * PT_TILE;
    const unsigned lane = sc_lane(), warp = sc_warp_id();
    uint8_t key[PT_ITEMS];
    uint8_t rank[PT_ITEMS]; /* rank among the warp's lanes with the same key this round */
    /* the spec's rank_key[i] within the tile: element order is (round, warp, lane) */
#pragma unroll
    for (int r = 0; r < PT_ITEMS; r++) {
        size_t e = (size_t)base + r * PT_BLOCK + threadIdx.x;
        key[r] = e < n ? keys[e] : (uint8_t)PT_NONE;
        unsigned same = __match_any_sync(SC_FULL_MASK, (unsigned)key[r]);
        rank[r] = (uint8_t)__popc(same & sc_lanemask_lt());
        if (key[r] != PT_NONE && lane == (unsigned)(__ffs(same) - 1))
            s_warp[r][warp][key[r]] = (uint32_t)__popc(same);
    }
    __syncthreads();
    /* one thread per key: exclusive scan over (round, warp), the tile's total, the look-back */
    if (threadIdx.x < k) {
        const unsigned j = threadIdx.x;
        uint32_t run = 0;
        for (int r = 0; r < PT_ITEMS; r++)
            for (unsigned w = 0; w < PT_WARPS; w++) {
                uint32_t c = s_warp[r][w][j];
                s_warp[r][w][j] = run;
                run += c;
            }
        uint64_t *mine = status + (size_t)tile * k + j;
        uint32_t prefix = 0;
        if (tile == 0) {
            pt_store(mine, PT_PREFIX << 32 | run);
        } else {
            pt_store(mine, PT_AGGREGATE << 32 | run);
            for (long long p = (long long)tile - 1; p >= 0; p--) {
                uint64_t w;
                do w = pt_load(status + (size_t)p * k + j);
                while ((w >> 32) == 0);
                prefix += (uint32_t)w;
                if ((w >> 32) == PT_PREFIX) break;
            }
            pt_store(mine, PT_PREFIX << 32 | (prefix + run));
        }
        uint32_t group = 0;
        for (unsigned i = 0; i < j; i++) group += head->hist[i];
        s_base[j] = group + prefix;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < PT_ITEMS; r++) {
        if (key[r] == PT_NONE) continue;
        uint32_t e = base + r * PT_BLOCK + threadIdx.x; /* < n: no wrap */
        uint32_t dst = s_base[key[r]] + s_warp[r][warp][key[r]] + rank[r];
        sc_move_elem(out, dst, in, e, elem_size);
    }
}

/* Scratch of the call: the head, then `words` look-back words. */
static sc_status pt_scratch(sc_job *job, size_t words, size_t extra, pt_head **head,
                            uint64_t **status, void **rest) {
    void *t;
    size_t head_bytes = sizeof(pt_head), status_bytes = words * sizeof(uint64_t);
    size_t extra_at = (head_bytes + status_bytes + 255) & ~(size_t)255;
    sc_status s = sc_cuda_temp(job, extra_at + extra, &t);
    if (s != SC_OK) return s;
    *head = (pt_head *)t;
    *status = (uint64_t *)((char *)t + head_bytes);
    if (rest) *rest = (char *)t + extra_at;
    return SC_OK;
}

/* Where the counts go on the device: the caller's d_kept[0..k), else the head's own slots
 * past the histogram (read back by pt_finish). */
static uint32_t *pt_count_dst(sc_job *job, pt_head *head) {
    return job->opt.d_kept ? job->opt.d_kept : head->counts;
}

/* Host counts when asked for: one copy and a wait. */
static sc_status pt_finish(sc_job *job, pt_head *head) {
    if (!job->host_kept) return sc_cuda_timing_end(job);
    uint32_t c[SC_PARTITION_MAX_KEYS];
    cudaStream_t st = sc_cuda_stream(job);
    SC_CUDA_TRY(cudaMemcpyAsync(c, pt_count_dst(job, head), job->num_keys * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, st));
    SC_CUDA_TRY(cudaStreamSynchronize(st));
    if (c[0] == SC_BAD_LIST) return SC_ERR_INVALID_ARGUMENT;
    for (unsigned j = 0; j < job->num_keys; j++) job->part_counts[j] = c[j];
    return sc_cuda_timing_end(job);
}

static unsigned pt_grid(const sc_job *job, size_t n) {
    unsigned cap = (unsigned)sc_cuda_state_of(job->ctx)->sm_count * 8u;
    unsigned b = sc_cuda_blocks(n, PT_BLOCK);
    return b < cap ? b : cap;
}

/* Clear the head and the look-back words, then count the keys. */
static sc_status pt_histogram(sc_job *job, pt_head *head, size_t words) {
    cudaStream_t st = sc_cuda_stream(job);
    SC_CUDA_TRY(cudaMemsetAsync(head, 0, sizeof *head + words * sizeof(uint64_t), st));
    pt_histogram_kernel<<<pt_grid(job, job->n), PT_BLOCK, 0, st>>>(
        job->keys, job->opt.d_n, (uint32_t)job->n, job->num_keys, head);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

extern "C" sc_status sc_cuda_partition_single_pass(sc_job *job) {
    size_t tiles = (job->n + PT_TILE - 1) / PT_TILE;
    size_t words = (tiles ? tiles : 1) * job->num_keys;
    pt_head *head;
    uint64_t *status;
    sc_status s = pt_scratch(job, words, 0, &head, &status, NULL);
    if (s != SC_OK) return s;
    sc_cuda_timing_begin(job);
    if ((s = pt_histogram(job, head, words)) != SC_OK) return s;
    sc_cuda_timing_phase(job, "histogram");
    pt_scatter_kernel<<<(unsigned)(tiles ? tiles : 1), PT_BLOCK, 0, sc_cuda_stream(job)>>>(
        (const char *)job->in, job->keys, (char *)job->out, job->opt.d_n, (uint32_t)job->n,
        job->num_keys, (unsigned)job->elem_size, head, status, pt_count_dst(job, head));
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "scatter");
    return pt_finish(job, head);
}

/* cub: sort keys: the key, or k past the end (sorted last); the values: the indices. */
__global__ void pt_sort_input_kernel(const uint8_t *keys, const uint32_t *d_n, uint32_t bound,
                                     unsigned k, uint8_t *sort_keys, uint32_t *index) {
    uint32_t n = sc_dev_count(d_n, bound);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < bound;
         i += gridDim.x * blockDim.x) {
        sort_keys[i] = i < n ? keys[i] : (uint8_t)k;
        index[i] = i;
    }
}

/* cub: out[i] = in[index[i]] for the first *d_n sorted slots (no work after a bad key). */
__global__ void pt_gather_kernel(const char *in, const uint32_t *index, char *out,
                                 const uint32_t *d_n, uint32_t bound, unsigned elem_size,
                                 const pt_head *head, unsigned k, uint32_t *d_counts) {
    if (blockIdx.x == 0) pt_write_counts(head, k, d_counts);
    if (head->bad) return;
    uint32_t n = sc_dev_count(d_n, bound);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        sc_move_elem(out, i, in, index[i], elem_size);
}

extern "C" sc_status sc_cuda_partition_cub(sc_job *job) {
    const size_t n = job->n;
    if (n > (size_t)INT_MAX) return SC_ERR_UNSUPPORTED; /* CUB's item count is an int */
    int bits = 1;
    while ((1u << bits) <= job->num_keys) bits++; /* k itself (past the end) must fit */
    size_t cub_bytes = 0;
    SC_CUDA_TRY(cub::DeviceRadixSort::SortPairs(NULL, cub_bytes, (const uint8_t *)NULL,
                                                (uint8_t *)NULL, (const uint32_t *)NULL,
                                                (uint32_t *)NULL, (int)n, 0, bits));
    size_t arrays = ((2 * n + 255) & ~(size_t)255) + 2 * ((n * 4 + 255) & ~(size_t)255);
    pt_head *head;
    uint64_t *status;
    void *rest;
    sc_status s = pt_scratch(job, 0, arrays + cub_bytes, &head, &status, &rest);
    if (s != SC_OK) return s;
    uint8_t *k_in = (uint8_t *)rest, *k_out = k_in + n;
    uint32_t *v_in = (uint32_t *)((char *)rest + ((2 * n + 255) & ~(size_t)255));
    uint32_t *v_out = (uint32_t *)((char *)v_in + ((n * 4 + 255) & ~(size_t)255));
    void *cub_temp = (char *)rest + arrays;
    cudaStream_t st = sc_cuda_stream(job);
    sc_cuda_timing_begin(job);
    if ((s = pt_histogram(job, head, 0)) != SC_OK) return s;
    sc_cuda_timing_phase(job, "histogram");
    if (n) {
        pt_sort_input_kernel<<<pt_grid(job, n), PT_BLOCK, 0, st>>>(
            job->keys, job->opt.d_n, (uint32_t)n, job->num_keys, k_in, v_in);
        SC_CUDA_LAUNCHED();
        SC_CUDA_TRY(cub::DeviceRadixSort::SortPairs(cub_temp, cub_bytes, k_in, k_out, v_in, v_out,
                                                    (int)n, 0, bits, st));
    }
    sc_cuda_timing_phase(job, "sort");
    pt_gather_kernel<<<pt_grid(job, n), PT_BLOCK, 0, st>>>(
        (const char *)job->in, v_out, (char *)job->out, job->opt.d_n, (uint32_t)n,
        (unsigned)job->elem_size, head, job->num_keys, pt_count_dst(job, head));
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "gather");
    return pt_finish(job, head);
}
