/* blocks.cuh: the block-based framework on the GPU (JJ paper §3.4, Fig. 6 and 8, after Roger et
 * al. 2007; Moreira 2009 §3), shared by Horn, Jumping Jack, RLZ and Binary-Tree. Three kernels:
 *   tile scan (2 kernels): count the kept elements in groups of 32 flags over chunks of 32768
 *       flags and scan them across the chunk, which gives every tile its offset inside its chunk
 *       (a tile is 32..2048 flags, so tiles nest in chunks); then one block scans the chunk
 *       totals. Together: the inter-tile exclusive scan of the tile counts.
 *   per tile (the algorithm's kernel, one block per tile): build the tile's own data structure
 *       in shared memory (pSum, MAS, pRLSum, tree), search, and write each output straight to
 *       out[tile offset + i]. That write is the concatenation of Fig. 6: the GPU can scatter,
 *       so the compacted tile needs no intermediate copy (Roger et al.'s suggestion).
 * Helpers for the tile kernels: the tile's flags as a bit set in shared memory, the per-thread
 * items, the block scan variant of job->scan, packed 16-bit stores, and the gather-write.
 * Run-time length (opt.d_n): every kernel is launched over the bound; chunks past *d_n write a
 * zero total and return, tiles past it return at once (sc_tile_len). */
#ifndef SC_CUDA_BLOCKS_CUH
#define SC_CUDA_BLOCKS_CUH

#include "common.cuh"
#include "primitives.cuh"

#define SC_BLK_THREADS 256 /* count kernel: threads per block */
#define SC_BLK_GROUP   32  /* count kernel: flags per group (the smallest tile) */
#define SC_BLK_GROUPS  4   /* count kernel: groups per thread, 8 loads of 16 bytes in flight */
#define SC_BLK_SHIFT   15  /* count kernel: 2^15 = 32768 flags per chunk (one block) */
#define SC_BLK_CHUNK   (1u << SC_BLK_SHIFT)
#define SC_BLK_SCAN    1024 /* chunk-scan kernel: one block of this many threads */

/* Threads and items per thread of a tile kernel: 8 consecutive items per thread, so each thread
 * has 8 independent loads in flight; at least one warp. */
#define SC_TILE_ITEMS(tile)   ((tile) >= 256u ? 8u : (tile) / 32u)
#define SC_TILE_THREADS(tile) ((tile) / SC_TILE_ITEMS(tile))

/* What a tile kernel reads. Offsets of tile t: chunk_off[t * tile / SC_BLK_CHUNK] + local[t]. */
typedef struct sc_tile_args {
    const unsigned char *in;
    const uint8_t *flags;
    unsigned char *out;
    const uint32_t *local;     /* tile offset inside its chunk */
    const uint32_t *chunk_off; /* exclusive scan of the chunk totals */
    uint32_t n;                /* the bound */
    const uint32_t *d_n;       /* run-time count, or NULL */
    uint32_t elem_size;
    uint32_t fast; /* 4, 8 or 16: aligned elements of that size; 0: any size */
    int scan;      /* SC_SCAN_HILLIS_STEELE or SC_SCAN_BLELLOCH */
    int rlz;       /* SC_RLZ_RECURSIVE_DOUBLING or SC_RLZ_BALANCED_TREE */
} sc_tile_args;

/* ---- tile scan ---- */

/* Kept flags among 16 flags. */
static __device__ __forceinline__ uint32_t sc_count_kept16(uint4 w) {
    return (uint32_t)(__popc(__vcmpne4(w.x, 0u)) + __popc(__vcmpne4(w.y, 0u)) +
                      __popc(__vcmpne4(w.z, 0u)) + __popc(__vcmpne4(w.w, 0u))) >>
           3; /* __vcmpne4: 0xff per kept byte */
}

/* Kept flags among flags[first .. first + 32) below n. */
static __device__ __forceinline__ uint32_t sc_count_kept32(const uint8_t *flags, size_t first,
                                                           uint32_t n) {
    const uint8_t *f = flags + first;
    if (first + SC_BLK_GROUP <= n && ((uintptr_t)f & 15) == 0)
        return sc_count_kept16(((const uint4 *)f)[0]) + sc_count_kept16(((const uint4 *)f)[1]);
    uint32_t c = 0;
    for (uint32_t i = 0; i < SC_BLK_GROUP && first + i < n; i++) c += f[i] != 0;
    return c;
}

/* tile scan, first kernel: each thread counts 4 groups of 32 flags; the block scan over the chunk
 * gives the first group of every tile its tile's offset inside the chunk; the chunk scan later
 * adds the chunk's offset. */
static __global__ void __launch_bounds__(SC_BLK_THREADS)
    sc_blocks_count_kernel(const uint8_t *flags, uint32_t bound, const uint32_t *d_n,
                           uint32_t tile_shift, uint32_t *local, uint32_t *chunk_sum) {
    __shared__ uint32_t tmp[SC_BLK_THREADS / SC_WARP + 1];
    const uint32_t n = sc_dev_count(d_n, bound);
    if (((size_t)blockIdx.x << SC_BLK_SHIFT) >= n && blockIdx.x > 0) { /* past the run-time n */
        if (threadIdx.x == 0) chunk_sum[blockIdx.x] = 0;
        return;
    }
    const size_t first =
        ((size_t)blockIdx.x << SC_BLK_SHIFT) + (size_t)threadIdx.x * SC_BLK_GROUP * SC_BLK_GROUPS;
    uint32_t c[SC_BLK_GROUPS], sum = 0, total;
    const uint8_t *f = flags + first;
    if (first + SC_BLK_GROUP * SC_BLK_GROUPS <= n && ((uintptr_t)f & 15) == 0) {
        uint4 w[2 * SC_BLK_GROUPS]; /* every load issued before the first count */
#pragma unroll
        for (int j = 0; j < 2 * SC_BLK_GROUPS; j++) w[j] = ((const uint4 *)f)[j];
#pragma unroll
        for (int g = 0; g < SC_BLK_GROUPS; g++)
            c[g] = sc_count_kept16(w[2 * g]) + sc_count_kept16(w[2 * g + 1]);
    } else {
#pragma unroll
        for (int g = 0; g < SC_BLK_GROUPS; g++)
            c[g] = sc_count_kept32(flags, first + (size_t)g * SC_BLK_GROUP, n);
    }
#pragma unroll
    for (int g = 0; g < SC_BLK_GROUPS; g++) sum += c[g];
    uint32_t x = sc_block_scan_warps<SC_BLK_THREADS>(sum, tmp, &total);
    const size_t tile_mask = ((size_t)1 << tile_shift) - 1;
#pragma unroll
    for (int g = 0; g < SC_BLK_GROUPS; g++) {
        size_t gf = first + (size_t)g * SC_BLK_GROUP;
        if (gf < n && (gf & tile_mask) == 0) local[gf >> tile_shift] = x;
        x += c[g];
    }
    if (threadIdx.x == 0) chunk_sum[blockIdx.x] = total;
}

/* tile scan, second kernel: exclusive scan of the chunk totals in one block (4 per thread per
 * round, the rounds chained by a carry); the grand total is the kept count, written to the
 * call's count slot and, when the caller waits for it, to the mapped host slot. */
static __global__ void __launch_bounds__(SC_BLK_SCAN)
    sc_blocks_scan_kernel(const uint32_t *chunk_sum, uint32_t chunks, uint32_t *chunk_off,
                          uint32_t *d_count, uint32_t *host_count) {
    __shared__ uint32_t tmp[SC_BLK_SCAN / SC_WARP + 1];
    uint32_t carry = 0;
    for (uint32_t i0 = 0; i0 < chunks; i0 += SC_BLK_SCAN * 4) {
        uint32_t v[4], sum = 0, total;
#pragma unroll
        for (int u = 0; u < 4; u++) {
            uint32_t i = i0 + threadIdx.x * 4 + u;
            v[u] = i < chunks ? chunk_sum[i] : 0;
            sum += v[u];
        }
        uint32_t x = carry + sc_block_scan_warps<SC_BLK_SCAN>(sum, tmp, &total);
#pragma unroll
        for (int u = 0; u < 4; u++) {
            uint32_t i = i0 + threadIdx.x * 4 + u;
            if (i < chunks) chunk_off[i] = x;
            x += v[u];
        }
        carry += total;
    }
    if (threadIdx.x == 0) {
        *d_count = carry;
        if (host_count) *(volatile uint32_t *)host_count = carry;
    }
}

/* Host side of the framework, first in the call: temp storage, the tile scan ("tile scan"
 * phase), and the arguments of the tile kernel. *d_count receives the kept count. */
static inline sc_status sc_blocks_prepare(sc_job *job, sc_tile_args *a, uint32_t **d_count) {
    cudaStream_t stream = sc_cuda_stream(job);
    const uint32_t n = (uint32_t)job->n, tile = (uint32_t)job->tile;
    const uint32_t tiles = (uint32_t)(((size_t)n + tile - 1) / tile);
    const uint32_t chunks = (uint32_t)(((size_t)n + SC_BLK_CHUNK - 1) >> SC_BLK_SHIFT);
    void *temp;
    sc_status s = sc_cuda_temp(job, ((size_t)tiles + 2 * (size_t)chunks + 2) * 4, &temp);
    if (s != SC_OK) return s;
    sc_cuda_timing_begin(job);
    uint32_t *local = (uint32_t *)temp, *chunk_sum = local + tiles, *chunk_off = chunk_sum + chunks;
    *d_count = sc_cuda_count_slot(job);
    const size_t es = job->elem_size;
    const uintptr_t align = (uintptr_t)job->in | (uintptr_t)job->out;
    a->in = (const unsigned char *)job->in;
    a->flags = job->flags;
    a->out = (unsigned char *)job->out;
    a->local = local;
    a->chunk_off = chunk_off;
    a->n = n;
    a->d_n = job->opt.d_n;
    a->elem_size = (uint32_t)es;
    a->fast = (es == 4 || es == 8 || es == 16) && align % es == 0 ? (uint32_t)es : 0;
    a->scan = job->scan;
    a->rlz = job->rlz;
    if (n > 0) {
        const uint32_t tile_shift = 31 - (uint32_t)__builtin_clz(tile);
        sc_blocks_count_kernel<<<chunks, SC_BLK_THREADS, 0, stream>>>(job->flags, n, job->opt.d_n,
                                                                      tile_shift, local, chunk_sum);
        SC_CUDA_LAUNCHED();
    }
    sc_blocks_scan_kernel<<<1, SC_BLK_SCAN, 0, stream>>>(chunk_sum, chunks, chunk_off, *d_count,
                                                         sc_cuda_host_count(job));
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "tile scan");
    return SC_OK;
}

/* ---- helpers for the tile kernels (one block per tile) ---- */

/* The length of tile t (at `base`) under the run-time count: 0 for a tile past it, whose block
 * returns at once (tile 0 of an empty stream too: the scan kernel wrote the count). */
template <unsigned TILE>
static __device__ __forceinline__ uint32_t sc_tile_len(const sc_tile_args &a, uint32_t base) {
    const uint32_t n = sc_dev_count(a.d_n, a.n);
    return base < n ? (n - base < TILE ? n - base : TILE) : 0u;
}

/* Output offset of tile t. */
static __device__ __forceinline__ uint32_t sc_tile_offset(const sc_tile_args &a, uint32_t t,
                                                          uint32_t tile) {
    return a.chunk_off[((size_t)t * tile) >> SC_BLK_SHIFT] + a.local[t];
}

/* This thread's ITEMS consecutive flags of the tile, items base + threadIdx.x * ITEMS + u, as
 * bits u (set = kept); items at or past m (the tile's length) read as removed. */
template <unsigned ITEMS>
static __device__ __forceinline__ uint32_t sc_tile_kept_bits(const uint8_t *flags, uint32_t base,
                                                             uint32_t m) {
    const uint32_t first = threadIdx.x * ITEMS;
    const uint8_t *f = flags + base + first;
    uint32_t bits = 0;
    if constexpr (ITEMS >= 4) {
        if (first + ITEMS <= m && ((uintptr_t)f & (ITEMS - 1)) == 0) {
#pragma unroll
            for (unsigned w = 0; w < ITEMS / 4; w++) {
                uint32_t ne = __vcmpne4(((const uint32_t *)f)[w], 0u); /* 0xff per kept byte */
                bits |= ((ne & 1u) | (ne >> 7 & 2u) | (ne >> 14 & 4u) | (ne >> 21 & 8u)) << (4 * w);
            }
            return bits;
        }
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++)
        if (first + u < m && f[u]) bits |= 1u << u;
    return bits;
}

/* Store every thread's ITEMS bits into the tile's bit set s_bits[tile / 32] (lanes that share a
 * word OR their bits together first). */
template <unsigned ITEMS>
static __device__ __forceinline__ void sc_tile_store_bits(uint32_t *s_bits, uint32_t bits) {
    constexpr unsigned L = 32 / ITEMS; /* lanes per word */
    const unsigned lane = sc_lane();
    uint32_t w = bits << ((lane % L) * ITEMS);
#pragma unroll
    for (unsigned d = 1; d < L; d <<= 1) w |= __shfl_xor_sync(SC_FULL_MASK, w, d);
    if (lane % L == 0) s_bits[threadIdx.x * ITEMS / 32] = w;
}

static __device__ __forceinline__ int sc_tile_kept(const uint32_t *s_bits, uint32_t j) {
    return (int)((s_bits[j >> 5] >> (j & 31)) & 1u);
}

/* Exclusive scan of one value per thread across the tile's block with job->scan's variant
 * (primitives.cuh); smem holds 2 * T words. */
template <unsigned T>
static __device__ __forceinline__ uint32_t sc_tile_scan(uint32_t v, int variant, uint32_t *smem,
                                                        uint32_t *total) {
    if (variant == SC_SCAN_BLELLOCH) return sc_block_scan_blelloch<T>(v, smem, total);
    return sc_block_scan_hillis_steele<T>(v, smem, total);
}

/* The papers' inclusive all-prefix-sum over the tile of the bits in `ones` (this thread's
 * items): p[u] = ones among items [0, threadIdx.x * ITEMS + u]. Each thread sums its items, the
 * scan across threads is job->scan's variant. Returns the tile's total. */
template <unsigned T, unsigned ITEMS>
static __device__ __forceinline__ uint32_t sc_tile_prefix_sum(uint32_t ones, int variant,
                                                              uint32_t *s_scan, uint32_t *p) {
    uint32_t total, x = sc_tile_scan<T>((uint32_t)__popc(ones), variant, s_scan, &total);
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        x += (ones >> u) & 1u;
        p[u] = x;
    }
    return total;
}

/* dst[threadIdx.x * ITEMS + u] = v[u] as 16-bit values, with one store of 2 * ITEMS bytes. */
template <unsigned ITEMS>
static __device__ __forceinline__ void sc_tile_store_u16(uint16_t *dst, const uint32_t *v) {
    uint32_t p[(ITEMS + 1) / 2];
#pragma unroll
    for (unsigned w = 0; w < (ITEMS + 1) / 2; w++)
        p[w] = v[2 * w] | (2 * w + 1 < ITEMS ? v[2 * w + 1] << 16 : 0u);
    uint16_t *d = dst + threadIdx.x * ITEMS;
    if (ITEMS == 8)
        *(uint4 *)d = make_uint4(p[0], p[1], p[2], p[3]);
    else if (ITEMS == 4)
        *(uint2 *)d = make_uint2(p[0], p[1]);
    else if (ITEMS == 2)
        *(uint32_t *)d = p[0];
    else
        *d = (uint16_t)v[0];
}

/* v[u] = src[threadIdx.x * ITEMS + u] for 16-bit values, with one load of 2 * ITEMS bytes. */
template <unsigned ITEMS>
static __device__ __forceinline__ void sc_tile_load_u16(const uint16_t *src, uint32_t *v) {
    const uint16_t *s = src + threadIdx.x * ITEMS;
    uint32_t p[4];
    if (ITEMS == 8) {
        uint4 q = *(const uint4 *)s;
        p[0] = q.x, p[1] = q.y, p[2] = q.z, p[3] = q.w;
    } else if (ITEMS == 4) {
        uint2 q = *(const uint2 *)s;
        p[0] = q.x, p[1] = q.y;
    } else if (ITEMS == 2) {
        p[0] = *(const uint32_t *)s;
    } else {
        p[0] = *s;
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) v[u] = (p[u / 2] >> (16 * (u % 2))) & 0xffffu;
}

/* Mask of this thread's items that lie inside the tile's m elements. */
template <unsigned ITEMS> static __device__ __forceinline__ uint32_t sc_tile_in_mask(uint32_t m) {
    const uint32_t first = threadIdx.x * ITEMS;
    if (first >= m) return 0;
    return m - first >= ITEMS ? (1u << ITEMS) - 1 : (1u << (m - first)) - 1;
}

/* Gather-write of the tile's outputs c = u * T + threadIdx.x < v: out[offset + c] =
 * in[base + src[u]]. The loads of all ITEMS outputs are issued before the first store. */
template <unsigned T, unsigned ITEMS, typename V>
static __device__ __forceinline__ void sc_tile_write_vec(const sc_tile_args &a, uint32_t base,
                                                         uint32_t offset, uint32_t v,
                                                         const uint32_t *src) {
    V x[ITEMS];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++)
        if (u * T + threadIdx.x < v) x[u] = ((const V *)a.in)[base + src[u]];
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++) {
        uint32_t c = u * T + threadIdx.x;
        if (c < v) ((V *)a.out)[offset + c] = x[u];
    }
}

template <unsigned T, unsigned ITEMS>
static __device__ __forceinline__ void sc_tile_write(const sc_tile_args &a, uint32_t base,
                                                     uint32_t offset, uint32_t v,
                                                     const uint32_t *src) {
    switch (a.fast) {
    case 4:
        sc_tile_write_vec<T, ITEMS, uint32_t>(a, base, offset, v, src);
        break;
    case 8:
        sc_tile_write_vec<T, ITEMS, uint2>(a, base, offset, v, src);
        break;
    case 16:
        sc_tile_write_vec<T, ITEMS, uint4>(a, base, offset, v, src);
        break;
    default:
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            uint32_t c = u * T + threadIdx.x;
            if (c < v) sc_move_elem(a.out, offset + c, a.in, base + src[u], a.elem_size);
        }
    }
}

/* Launch one block per tile of a tile kernel templated on the tile size. */
#define SC_TILE_LAUNCH(kernel, tile, tiles, stream, args)                                          \
    switch (tile) {                                                                                \
    case 32:                                                                                       \
        kernel<32><<<tiles, SC_TILE_THREADS(32u), 0, stream>>> args;                               \
        break;                                                                                     \
    case 64:                                                                                       \
        kernel<64><<<tiles, SC_TILE_THREADS(64u), 0, stream>>> args;                               \
        break;                                                                                     \
    case 128:                                                                                      \
        kernel<128><<<tiles, SC_TILE_THREADS(128u), 0, stream>>> args;                             \
        break;                                                                                     \
    case 256:                                                                                      \
        kernel<256><<<tiles, SC_TILE_THREADS(256u), 0, stream>>> args;                             \
        break;                                                                                     \
    case 512:                                                                                      \
        kernel<512><<<tiles, SC_TILE_THREADS(512u), 0, stream>>> args;                             \
        break;                                                                                     \
    case 1024:                                                                                     \
        kernel<1024><<<tiles, SC_TILE_THREADS(1024u), 0, stream>>> args;                           \
        break;                                                                                     \
    default:                                                                                       \
        kernel<2048><<<tiles, SC_TILE_THREADS(2048u), 0, stream>>> args;                           \
    }

/* Run a tile kernel over every tile and finish the call (its phase name: see the file's
 * comment at the algorithm). */
#define SC_TILE_RUN(job, kernel, phase)                                                            \
    do {                                                                                           \
        sc_tile_args a_;                                                                           \
        uint32_t *count_;                                                                          \
        sc_status s_ = sc_blocks_prepare(job, &a_, &count_);                                       \
        if (s_ != SC_OK) return s_;                                                                \
        if (job->n > 0) {                                                                          \
            const unsigned tiles_ = (unsigned)((job->n + job->tile - 1) / job->tile);              \
            SC_TILE_LAUNCH(kernel, job->tile, tiles_, sc_cuda_stream(job), (a_));                  \
            SC_CUDA_LAUNCHED();                                                                    \
            sc_cuda_timing_phase(job, phase);                                                      \
        }                                                                                          \
        return sc_cuda_finish_count(job, count_);                                                  \
    } while (0)

#endif /* SC_CUDA_BLOCKS_CUH */
