/* redzone.cuh: what Redzone's two CUDA versions share (Bontes & Gain 2024): phase 1 (mark the
 * red zone, and check the removal list on the device), one round of phase 2 (Table 1: pair R[i]
 * with the source A[z + i]), and the device slots that carry the list check and the count.
 *
 * Marks. The paper marks A[r] itself in a spare state bit (§4). Our elements are opaque bytes, so
 * phase 1 sets bit r of an n-bit map instead: bits [z, n) are the paper's red-zone marks
 * (isDeleted(A[z + i]) = bit z + i), and the rest of the map lets the same pass find duplicated
 * indices (the bit was already set) and indices >= n, before anything is written. The map is
 * cleared per call (n/8 bytes of context temp storage, one cudaMemsetAsync).
 *
 * Orphans. The paper keeps Z' in Z and R' in R (§4.3); our R is the caller's read-only list, so
 * both live in temp storage, as indices. A batch [from, to) makes at most to - from orphans in
 * all (each pair is at most one orphan), so the two lists share one k-word array: Z' grows up
 * from `from`, R' grows down from to - 1 (§4.1: "we could conceivably intersperse Z' and R'").
 * With storage of their own, phase 2 needs no barrier between reading pair i and writing orphan
 * j <= i (§4.4).
 *
 * Run-time lengths (opt.d_n, opt.d_k). The host sizes grids and storage from the bounds; every
 * kernel first reads the counts (rz_resolve), so the red zone [n - k, n) is computed on the
 * device, and the map is cleared by a kernel that reads them too (rz_clear_kernel). */
#ifndef SC_CUDA_REDZONE_CUH
#define SC_CUDA_REDZONE_CUH

#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

/* pairs per thread per round: independent loads in flight (k_redzone_tune in tuning.cuh) */
static constexpr int RZ_ITEMS = SC_TUNED(k_redzone_tune).items;
/* the map-clearing kernel's threads, and its blocks per SM at most (k_redzone_tune) */
static constexpr int RZ_CLEAR_THREADS = SC_TUNED(k_redzone_tune).clear_threads;
static constexpr int RZ_CLEAR_BLOCKS = SC_TUNED(k_redzone_tune).clear_blocks;
#define RZ_SLOT_ERR 1           /* d_counters slot: nonzero when the list check failed */
#define RZ_BAD_LIST 0xffffffffu /* the count a failed list check leaves */

typedef struct rz_args {
    unsigned char *data;
    const uint32_t *removed; /* R */
    uint32_t *bits;          /* the n-bit map */
    uint32_t *orphans;       /* Z' up from a batch's start, R' down from its end */
    uint32_t *err;           /* RZ_SLOT_ERR */
    uint32_t *count;         /* sc_cuda_count_slot */
    uint32_t *host_count;    /* sc_cuda_host_count: mapped host slot, or NULL */
    uint32_t n, k, z;        /* z = n - k: the red zone is [z, n) */
    uint32_t elem_size;
    uint32_t trusted;    /* opt.trusted_list: mark the red zone only, no check */
    const uint32_t *d_n; /* run-time counts, or NULL: n and k are then the bounds */
    const uint32_t *d_k;
} rz_args;

/* First in every kernel: n and k from the run-time counts (clamped to the bounds, k to n), and
 * the red zone's start z = n - k. */
static __device__ __forceinline__ void rz_resolve(rz_args &a) {
    a.n = sc_dev_count(a.d_n, a.n);
    a.k = sc_dev_count(a.d_k, a.k);
    if (a.k > a.n) a.k = a.n;
    a.z = a.n - a.k;
}

/* Pairs per batch for P batches (Alg. 2 line 0: s = ceil(k / |P|)), from the run-time k; with a
 * smaller k than the bound the trailing batches are empty. */
static __device__ __forceinline__ uint32_t rz_batch_size(uint32_t k, uint32_t P) {
    return (uint32_t)(((size_t)k + P - 1) / P);
}

/* Phase 1 (Alg. 1 lines 3-4) over the list items first, first + step, ... < k: set bit r of the
 * map for every r = R[i]. Returns 1 if this thread met an index >= n or one whose bit was
 * already set (a duplicate). The bits >= z are the red-zone marks of line 4. */
static __device__ __forceinline__ int rz_mark(const rz_args &a, size_t first, size_t step) {
    int bad = 0;
    for (size_t i0 = first; i0 < a.k; i0 += step * RZ_ITEMS) {
        uint32_t r[RZ_ITEMS];
#pragma unroll
        for (int u = 0; u < RZ_ITEMS; u++) {
            size_t i = i0 + (size_t)u * step;
            r[u] = i < a.k ? a.removed[i] : RZ_BAD_LIST;
        }
#pragma unroll
        for (int u = 0; u < RZ_ITEMS; u++) {
            size_t i = i0 + (size_t)u * step;
            if (i >= a.k) continue;
            if (a.trusted) { /* line 4 alone: fire-and-forget marks of the red zone */
                if (r[u] >= a.z) atomicOr(a.bits + (r[u] >> 5), 1u << (r[u] & 31));
                continue;
            }
            if (r[u] >= a.n) {
                bad = 1;
                continue;
            }
            uint32_t bit = 1u << (r[u] & 31);
            if (atomicOr(a.bits + (r[u] >> 5), bit) & bit) bad = 1;
        }
    }
    return bad;
}

/* Lines 9 and 12 (PrefixSumToIndex): this lane's slot among the warp's orphans of one kind, the
 * warp's base taken from the block's running count in shared memory. */
static __device__ __forceinline__ uint32_t rz_orphan_slot(int pred, uint32_t *s_count) {
    unsigned count;
    unsigned offset = sc_warp_ballot_prefix(pred, &count);
    uint32_t base = 0;
    if (count && sc_lane() == 0) base = atomicAdd(s_count, count);
    return __shfl_sync(SC_FULL_MASK, base, 0) + offset;
}

/* One round of phase 2 (Alg. 1 lines 6-15) for the block's batch [from, to): thread t takes pairs
 * i = i0 + u * blockDim.x + t. s_jk[0] and s_jk[1] count the batch's orphans (j_p and k_p).
 * FAST: the element is one V (1, 2, 4, 8 or 16 bytes, aligned), loaded ahead of the stores;
 * otherwise any size through sc_move_elem. Every store lands below z, every source is >= z, so
 * the copies never overlap and no source is overwritten. */
template <typename V, bool FAST>
static __device__ __forceinline__ void rz_pair_round(const rz_args &a, size_t i0, size_t from,
                                                     size_t to, uint32_t *s_jk) {
    uint32_t r[RZ_ITEMS];
    int del[RZ_ITEMS];
    V v[RZ_ITEMS];
#pragma unroll
    for (int u = 0; u < RZ_ITEMS; u++) { /* line 6: a <- A[z + i]; r <- R[i] */
        size_t i = i0 + (size_t)u * blockDim.x + threadIdx.x, zi = a.z + i;
        int in = i < to;
        r[u] = in ? a.removed[i] : a.z; /* past the batch: case B, nothing to do */
        del[u] = in ? (int)((a.bits[zi >> 5] >> (zi & 31)) & 1u) : 1;
        if (FAST && in) v[u] = ((const V *)a.data)[zi];
    }
#pragma unroll
    for (int u = 0; u < RZ_ITEMS; u++) {
        size_t i = i0 + (size_t)u * blockDim.x + threadIdx.x;
        uint32_t zi = (uint32_t)(a.z + i);
        int red = r[u] >= a.z;
        if (!red && !del[u]) { /* line 15: both valid, A'[r] <- a */
            if (FAST)
                ((V *)a.data)[r[u]] = v[u];
            else
                sc_move_elem(a.data, r[u], a.data, zi, a.elem_size);
        }
        int src_orphan = red && !del[u], dst_orphan = !red && del[u];
        if (__any_sync(SC_FULL_MASK, src_orphan)) { /* lines 9-10: keep orphaned a */
            uint32_t j = rz_orphan_slot(src_orphan, &s_jk[0]);
            if (src_orphan) a.orphans[from + j] = zi;
        }
        if (__any_sync(SC_FULL_MASK, dst_orphan)) { /* lines 12-13: keep orphaned r */
            uint32_t k = rz_orphan_slot(dst_orphan, &s_jk[1]);
            if (dst_orphan) a.orphans[to - 1 - k] = r[u];
        }
    }
}

/* Phase 2 for the batch [from, to) by the whole block; s_jk must be zero on entry (and visible).
 * Ends with a barrier, after which s_jk holds the batch's orphan counts. */
template <typename V, bool FAST>
static __device__ __forceinline__ void rz_pair_batch(const rz_args &a, size_t from, size_t to,
                                                     uint32_t *s_jk) {
    for (size_t i0 = from; i0 < to; i0 += (size_t)blockDim.x * RZ_ITEMS)
        rz_pair_round<V, FAST>(a, i0, from, to, s_jk);
    __syncthreads();
}

/* The element type of the fast path: 0 = any size (sc_move_elem), else the size in bytes of an
 * aligned 1/2/4/8/16-byte element. */
static inline unsigned rz_fast_size(const sc_job *job) {
    size_t es = job->elem_size;
    int pow2 = es == 1 || es == 2 || es == 4 || es == 8 || es == 16;
    return pow2 && ((uintptr_t)job->data % es) == 0 ? (unsigned)es : 0u;
}

/* 1 when phase 1 found an index >= n or one listed twice. */
static __device__ __forceinline__ int rz_list_bad(const rz_args &a) {
    return *(volatile const uint32_t *)a.err != 0;
}

/* The kept count, or RZ_BAD_LIST after a failed list check, where sc_cuda_finish_count and the
 * caller read it. */
static __device__ __forceinline__ void rz_write_count(const rz_args &a, int bad) {
    uint32_t kept = bad ? RZ_BAD_LIST : a.n - a.k;
    *a.count = kept;
    if (a.host_count) *(volatile uint32_t *)a.host_count = kept;
}

/* count: k = 0, nothing to check or move; only the count is written. */
static __global__ void rz_count_kernel(rz_args a) {
    rz_resolve(a);
    rz_write_count(a, 0);
}

/* Clearing the map with run-time counts: the words of rz_map_words, from *d_n and *d_k. */
static __global__ void rz_clear_kernel(rz_args a) {
    rz_resolve(a);
    const size_t first = a.trusted ? a.z / 32 : 0, words = ((size_t)a.n + 31) / 32;
    for (size_t w = first + (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < words;
         w += (size_t)gridDim.x * blockDim.x)
        a.bits[w] = 0;
}

/* The arguments every Redzone call starts from; call after sc_cuda_timing_begin. */
static inline rz_args rz_make_args(sc_job *job) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    rz_args a;
    a.data = (unsigned char *)job->data;
    a.removed = job->removed;
    a.bits = NULL;
    a.orphans = NULL;
    a.err = st->d_counters + RZ_SLOT_ERR;
    a.count = sc_cuda_count_slot(job);
    a.host_count = sc_cuda_host_count(job);
    a.n = (uint32_t)job->n;
    a.k = (uint32_t)job->k;
    a.z = a.n - a.k;
    a.elem_size = (uint32_t)job->elem_size;
    a.trusted = job->opt.trusted_list != 0;
    a.d_n = job->opt.d_n;
    a.d_k = job->opt.d_k;
    return a;
}

/* The words of the n-bit map a call must clear: all of them when the list is checked, only the
 * red zone's [z/32, n/32] with a trusted list (k/8 bytes instead of n/8). */
static inline void rz_map_words(const rz_args &a, size_t *first, size_t *count) {
    size_t words = ((size_t)a.n + 31) / 32;
    *first = a.trusted ? a.z / 32 : 0;
    *count = words - *first;
}

/* Clear the map's words for this call: a memset of the words rz_map_words gives, or with
 * run-time counts a kernel that reads them (grid from the bound, capped; the words past the
 * count are left alone). */
static inline sc_status rz_clear_map(const sc_job *job, const rz_args &a) {
    cudaStream_t stream = sc_cuda_stream(job);
    if (a.d_n || a.d_k) {
        unsigned blocks = sc_cuda_blocks(((size_t)a.n + 31) / 32, RZ_CLEAR_THREADS);
        const unsigned cap = (unsigned)sc_cuda_state_of(job->ctx)->sm_count * RZ_CLEAR_BLOCKS;
        if (blocks > cap) blocks = cap;
        rz_clear_kernel<<<blocks, RZ_CLEAR_THREADS, 0, stream>>>(a);
        SC_CUDA_LAUNCHED();
        return SC_OK;
    }
    size_t first_word, words;
    rz_map_words(a, &first_word, &words);
    SC_CUDA_TRY(cudaMemsetAsync(a.bits + first_word, 0, words * 4, stream));
    return SC_OK;
}

/* After sc_cuda_finish_count: a failed list check reads back as RZ_BAD_LIST. With only a device
 * count (opt.d_kept, no host `kept`) the error cannot be returned: *d_kept holds RZ_BAD_LIST. */
static inline sc_status rz_check_result(const sc_job *job, sc_status s) {
    if (s == SC_OK && job->k > 0 && (job->host_kept || !job->opt.d_kept) &&
        job->kept == RZ_BAD_LIST)
        return SC_ERR_INVALID_ARGUMENT;
    return s;
}

#endif /* SC_CUDA_REDZONE_CUH */
