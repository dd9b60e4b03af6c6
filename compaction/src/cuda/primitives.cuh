/* primitives.cuh: the warp and block building blocks the CUDA algorithm files share, from the
 * bottom up: lane masks and ballot offsets, warp scans with __shfl_up_sync, block exclusive
 * scans over shared memory (Hillis-Steele recursive doubling and Blelloch up-/down-sweep, both
 * papers of Moreira et al. 2009), and element copies with the widest vector the size and
 * alignment allow. Warp functions need all 32 lanes active; block functions need every
 * thread of the block, blockDim.x a multiple of 32, and end with a barrier so the shared
 * memory they used can be reused at once. */
#ifndef SC_CUDA_PRIMITIVES_CUH
#define SC_CUDA_PRIMITIVES_CUH

#include <stdint.h>

#define SC_WARP      32
#define SC_FULL_MASK 0xffffffffu

/* ---- lanes and ballots ---- */

/* This thread's lane in its warp. */
static __device__ __forceinline__ unsigned sc_lane(void) {
    return threadIdx.x & (SC_WARP - 1);
}

/* This thread's warp in its block. */
static __device__ __forceinline__ unsigned sc_warp_id(void) {
    return threadIdx.x / SC_WARP;
}

/* Bits of the lanes below this one. */
static __device__ __forceinline__ unsigned sc_lanemask_lt(void) {
    unsigned m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

/* Lane offset among the lanes whose pred is set (= __popc(ballot & lanemask_lt)); *count
 * receives the warp's number of set lanes. */
static __device__ __forceinline__ unsigned sc_warp_ballot_prefix(int pred, unsigned *count) {
    unsigned ballot = __ballot_sync(SC_FULL_MASK, pred);
    *count = (unsigned)__popc(ballot);
    return (unsigned)__popc(ballot & sc_lanemask_lt());
}

/* ---- warp scans (Hillis-Steele over the lanes, 5 shuffle steps) ---- */

/* Inclusive prefix sum of v over the warp's lanes. */
static __device__ __forceinline__ uint32_t sc_warp_inclusive_scan(uint32_t v) {
    unsigned lane = sc_lane();
#pragma unroll
    for (unsigned d = 1; d < SC_WARP; d <<= 1) {
        uint32_t u = __shfl_up_sync(SC_FULL_MASK, v, d);
        if (lane >= d) v += u;
    }
    return v;
}

/* Exclusive prefix sum of v over the warp's lanes; *total receives the warp's sum. */
static __device__ __forceinline__ uint32_t sc_warp_exclusive_scan(uint32_t v, uint32_t *total) {
    uint32_t inc = sc_warp_inclusive_scan(v);
    *total = __shfl_sync(SC_FULL_MASK, inc, SC_WARP - 1);
    return inc - v;
}

/* Sum of v over the warp, in every lane. */
static __device__ __forceinline__ uint32_t sc_warp_sum(uint32_t v) {
#pragma unroll
    for (unsigned d = SC_WARP / 2; d > 0; d >>= 1) v += __shfl_xor_sync(SC_FULL_MASK, v, d);
    return v;
}

/* ---- block scans over an array in shared memory (any n; all threads of the block) ---- */

/* Hillis-Steele (recursive doubling, Moreira JJ paper Alg. 1): data[0..n) becomes its
 * exclusive prefix sum; tmp holds n words (double buffer). Returns the total. */
static __device__ inline uint32_t sc_smem_scan_hillis_steele(uint32_t *data, uint32_t *tmp,
                                                             unsigned n) {
    uint32_t last = n ? data[n - 1] : 0;
    /* Shift right by one first, so the inclusive rounds below give the exclusive scan. */
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) tmp[i] = i ? data[i - 1] : 0;
    __syncthreads();
    uint32_t *src = tmp, *dst = data;
    for (unsigned d = 1; d < n; d <<= 1) {
        for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
            dst[i] = src[i] + (i >= d ? src[i - d] : 0);
        __syncthreads();
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != data)
        for (unsigned i = threadIdx.x; i < n; i += blockDim.x) data[i] = src[i];
    __syncthreads();
    uint32_t total = n ? data[n - 1] + last : 0;
    __syncthreads();
    return total;
}

/* Blelloch (balanced tree, Moreira JJ paper Fig. 3): data[0..n) becomes its exclusive prefix
 * sum in place, n a power of two. Up-sweep builds partial sums, down-sweep distributes them.
 * Returns the total. */
static __device__ inline uint32_t sc_smem_scan_blelloch(uint32_t *data, unsigned n) {
    for (unsigned d = 1; d < n; d <<= 1) {
        for (unsigned k = threadIdx.x; k < n / (2 * d); k += blockDim.x) {
            unsigned i = (2 * k + 2) * d - 1;
            data[i] += data[i - d];
        }
        __syncthreads();
    }
    uint32_t total = n ? data[n - 1] : 0;
    __syncthreads();
    if (threadIdx.x == 0 && n) data[n - 1] = 0;
    __syncthreads();
    for (unsigned d = n / 2; d >= 1; d >>= 1) {
        for (unsigned k = threadIdx.x; k < n / (2 * d); k += blockDim.x) {
            unsigned i = (2 * k + 2) * d - 1;
            uint32_t t = data[i - d];
            data[i - d] = data[i];
            data[i] += t;
        }
        __syncthreads();
    }
    return total;
}

/* ---- block scans of one value per thread (BLOCK = blockDim.x, a multiple of 32) ---- */

/* Exclusive scan of v across the block by Hillis-Steele; smem holds 2 * BLOCK words. */
template <unsigned BLOCK>
static __device__ inline uint32_t sc_block_scan_hillis_steele(uint32_t v, uint32_t *smem,
                                                              uint32_t *total) {
    smem[threadIdx.x] = v;
    __syncthreads();
    uint32_t t = sc_smem_scan_hillis_steele(smem, smem + BLOCK, BLOCK);
    uint32_t r = smem[threadIdx.x];
    __syncthreads();
    *total = t;
    return r;
}

/* Exclusive scan of v across the block by Blelloch; smem holds BLOCK words (power of two). */
template <unsigned BLOCK>
static __device__ inline uint32_t sc_block_scan_blelloch(uint32_t v, uint32_t *smem,
                                                         uint32_t *total) {
    smem[threadIdx.x] = v;
    __syncthreads();
    uint32_t t = sc_smem_scan_blelloch(smem, BLOCK);
    uint32_t r = smem[threadIdx.x];
    __syncthreads();
    *total = t;
    return r;
}

/* Exclusive scan of v across the block by warp shuffles: scan in each warp, scan the warp
 * totals in warp 0, add back (2 barriers instead of log2(BLOCK)); smem holds BLOCK/32 words. */
template <unsigned BLOCK>
static __device__ inline uint32_t sc_block_scan_warps(uint32_t v, uint32_t *smem, uint32_t *total) {
    static_assert(BLOCK % SC_WARP == 0 && BLOCK <= SC_WARP * SC_WARP, "block of 32..1024");
    uint32_t wsum;
    uint32_t x = sc_warp_exclusive_scan(v, &wsum);
    if (sc_lane() == SC_WARP - 1) smem[sc_warp_id()] = wsum;
    __syncthreads();
    if (threadIdx.x < SC_WARP) {
        uint32_t w = threadIdx.x < BLOCK / SC_WARP ? smem[threadIdx.x] : 0;
        uint32_t all;
        uint32_t wx = sc_warp_exclusive_scan(w, &all);
        if (threadIdx.x < BLOCK / SC_WARP) smem[threadIdx.x] = wx;
        if (threadIdx.x == 0) smem[BLOCK / SC_WARP] = all;
    }
    __syncthreads();
    uint32_t r = x + smem[sc_warp_id()];
    *total = smem[BLOCK / SC_WARP];
    __syncthreads();
    return r;
}

/* ---- flag bytes and vectors ---- */

/* Bit b set for each nonzero byte b of w (bit 7 of ((w & 0x7f..) + 0x7f..) | w is set exactly
 * for the nonzero bytes). */
static __device__ __forceinline__ unsigned sc_nonzero_bytes(uint32_t w) {
    uint32_t t = (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) & 0x80808080u;
    return ((t >> 7) & 1u) | ((t >> 14) & 2u) | ((t >> 21) & 4u) | ((t >> 28) & 8u);
}

/* Bit b set for each nonzero byte b of the 16 bytes of f. */
static __device__ __forceinline__ unsigned sc_nonzero_bytes16(uint4 f) {
    return sc_nonzero_bytes(f.x) | sc_nonzero_bytes(f.y) << 4 | sc_nonzero_bytes(f.z) << 8 |
           sc_nonzero_bytes(f.w) << 12;
}

/* A 16-byte vector split into elements of 4, 8 or 16 bytes. */
static __device__ __forceinline__ void sc_vec_split(uint4 w, uint32_t *e) {
    e[0] = w.x, e[1] = w.y, e[2] = w.z, e[3] = w.w;
}
static __device__ __forceinline__ void sc_vec_split(uint4 w, uint2 *e) {
    e[0] = make_uint2(w.x, w.y), e[1] = make_uint2(w.z, w.w);
}
static __device__ __forceinline__ void sc_vec_split(uint4 w, uint4 *e) {
    e[0] = w;
}

/* ---- a block's gather-copy of words ---- */

/* The tail of a block's gather-copy of `words` words (BLOCK threads; word q of the run at
 * src(q), to dst(q)): each thread gathered its first PREF words into v before a wait (an atomic,
 * a look-back) so their loads were in flight; store those, then move the rest four words a
 * thread at a time, the round's loads issued before its stores. */
template <typename W, int PREF, unsigned BLOCK, typename Src, typename Dst>
static __device__ __forceinline__ void sc_block_copy_rest(const W (&v)[PREF], uint32_t words,
                                                          Src src, Dst dst) {
#pragma unroll
    for (int k = 0; k < PREF; k++) {
        const uint32_t q = threadIdx.x + k * BLOCK;
        if (q < words) *dst(q) = v[k];
    }
    for (uint32_t q0 = threadIdx.x + PREF * BLOCK; q0 < words; q0 += 4 * BLOCK) {
        W u[4];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const uint32_t q = q0 + k * BLOCK;
            if (q < words) u[k] = __ldg(src(q));
        }
#pragma unroll
        for (int k = 0; k < 4; k++) {
            const uint32_t q = q0 + k * BLOCK;
            if (q < words) *dst(q) = u[k];
        }
    }
}

/* ---- element copies ---- */

/* Widest access (16, 8, 4, 2 or 1 bytes) that divides the element size and both addresses. */
static __device__ __forceinline__ unsigned sc_vec_width(const void *dst, const void *src,
                                                        unsigned elem_size) {
    unsigned a = (unsigned)((uintptr_t)dst | (uintptr_t)src) | elem_size;
    return a & 15u ? (a & 7u ? (a & 3u ? (a & 1u ? 1u : 2u) : 4u) : 8u) : 16u;
}

/* Copy elem_size bytes with accesses of `width` bytes (a value from sc_vec_width). */
static __device__ __forceinline__ void sc_copy_width(void *dst, const void *src, unsigned elem_size,
                                                     unsigned width) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    switch (width) {
    case 16:
        for (unsigned b = 0; b < elem_size; b += 16) *(uint4 *)(d + b) = *(const uint4 *)(s + b);
        break;
    case 8:
        for (unsigned b = 0; b < elem_size; b += 8) *(uint2 *)(d + b) = *(const uint2 *)(s + b);
        break;
    case 4:
        for (unsigned b = 0; b < elem_size; b += 4)
            *(uint32_t *)(d + b) = *(const uint32_t *)(s + b);
        break;
    case 2:
        for (unsigned b = 0; b < elem_size; b += 2)
            *(uint16_t *)(d + b) = *(const uint16_t *)(s + b);
        break;
    default:
        for (unsigned b = 0; b < elem_size; b++) d[b] = s[b];
    }
}

/* Copy one element of 1..256 bytes, widest vectors first (plain loads: safe in place). */
static __device__ __forceinline__ void sc_copy_elem_dev(void *dst, const void *src,
                                                        unsigned elem_size) {
    sc_copy_width(dst, src, elem_size, sc_vec_width(dst, src, elem_size));
}

/* Copy element i of `in` to slot j of `out` (both arrays of elem_size-byte elements). */
static __device__ __forceinline__ void sc_move_elem(void *out, uint32_t j, const void *in,
                                                    uint32_t i, unsigned elem_size) {
    sc_copy_elem_dev((char *)out + (size_t)j * elem_size, (const char *)in + (size_t)i * elem_size,
                     elem_size);
}

#endif /* SC_CUDA_PRIMITIVES_CUH */
