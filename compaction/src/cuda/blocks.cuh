/* blocks.cuh: the block-based framework on the GPU (JJ paper §3.4, Fig. 6 and 8, after Roger et
 * al. 2007; Moreira 2009 §3), shared by Horn, Jumping Jack, RLZ and Binary-Tree. Three kernels:
 *   tile scan (2 kernels): count the kept elements in groups of 32 flags over chunks of 32768
 *       flags and scan them across the chunk, which gives every tile its offset inside its chunk
 *       (a tile is 32..2048 flags, so tiles nest in chunks); then one block scans the chunk
 *       totals. Together: the inter-tile exclusive scan of the tile counts.
 *   per tile (the algorithm's kernel): build the tile's own data structure in shared memory
 *       (pSum, MAS, pRLSum, tree), search, and write each output straight to out[tile offset +
 *       i]. That write is the concatenation of Fig. 6: the GPU can scatter, so the compacted tile
 *       needs no intermediate copy (Roger et al.'s suggestion).
 * Tile kernel shape: a thread holds 8 consecutive items (fewer in tiles under 256), so a tile of
 * up to 256 elements is one warp. GPU departure: such tiles run as one warp each, several to a
 * block (the algorithm's table says how many), with warp barriers in place of block barriers,
 * because a block of one warp per SM slot caps the GPU at half its warps and pays a block launch
 * per 256 elements. Larger tiles run one per block, as in the paper. Each tile still builds and
 * searches its own structure, in its own shared memory.
 * The scans across a tile's threads are warp-shuffle forms of job->scan's variant: Hillis-Steele
 * (recursive doubling over the lanes) or Blelloch (up-sweep and down-sweep over the lanes).
 * Run-time length (opt.d_n): every kernel is launched over the bound; chunks past *d_n write a
 * zero total and return, tiles past it return at once (a tile's warp or block as a whole).
 * The tile kernels are compiled per access width (elements of 4, 8 or 16 aligned bytes, or any
 * size), so the narrow paths do not pay the registers of the wide ones. */
#ifndef SC_CUDA_BLOCKS_CUH
#define SC_CUDA_BLOCKS_CUH

#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

#include <stddef.h>

/* The tile scan's shape, from k_blocks_tune (tuning.cuh; evidence: docs/design.md#tuning-
 * evidence): the count kernel's threads per block and log2 of its flags per chunk (one block),
 * the chunk-scan kernel's one block, and the chunks (2^20 flags) up to which the tile kernel
 * scans them itself. */
static constexpr int SC_BLK_THREADS = SC_TUNED(k_blocks_tune).count_threads;
static constexpr int SC_BLK_SHIFT = SC_TUNED(k_blocks_tune).chunk_shift;
static constexpr int SC_BLK_SCAN = SC_TUNED(k_blocks_tune).scan_threads;
static constexpr int SC_BLK_FUSED = SC_TUNED(k_blocks_tune).fused_chunks;
#define SC_BLK_GROUP  32 /* count kernel: flags per group (structure: the smallest tile) */
#define SC_BLK_CHUNK  (1u << SC_BLK_SHIFT)
#define SC_BLK_ROUNDS (SC_BLK_CHUNK / (SC_BLK_THREADS * 16u)) /* 16-byte loads per thread: 8 */

/* What a tile kernel reads. Offsets of tile t: chunk_off[t * tile / SC_BLK_CHUNK] + local[t]. */
typedef struct sc_tile_args {
    const unsigned char *in;
    const uint8_t *flags;
    unsigned char *out;
    const uint32_t *local;     /* tile offset inside its chunk */
    const uint32_t *chunk_off; /* exclusive scan of the chunk totals (not fused) */
    const uint32_t *chunk_sum; /* the chunk totals (fused) */
    uint32_t *d_count;         /* the kept count's device slot (fused) */
    uint32_t *host_count;      /* the mapped host slot, or NULL (fused) */
    uint32_t chunks;           /* chunk totals (fused) */
    uint32_t fused;            /* 1: no chunk-scan kernel, the tile kernel scans the totals */
    uint32_t n;                /* the bound */
    const uint32_t *d_n;       /* run-time count, or NULL */
    uint32_t elem_size;
    uint32_t fast; /* 4, 8 or 16: aligned elements of that size; 0: any size */
    int scan;      /* SC_SCAN_HILLIS_STEELE or SC_SCAN_BLELLOCH */
    int rlz;       /* SC_RLZ_RECURSIVE_DOUBLING or SC_RLZ_BALANCED_TREE */
} sc_tile_args;

/* ---- warp scans of job->scan's variant ---- */

/* Blelloch's exclusive scan (JJ paper Fig. 3) over the 32 lanes: the up-sweep builds partial sums
 * at lanes 2d-1, 4d-1, ...; lane 31's sum is cleared; the down-sweep swaps and adds, each right
 * node taking its left sibling's value added, each left node the right node's old value. */
static __device__ __forceinline__ uint32_t sc_warp_scan_blelloch(uint32_t v, uint32_t *total) {
    const unsigned lane = sc_lane();
    uint32_t x = v;
#pragma unroll
    for (unsigned d = 1; d < SC_WARP; d <<= 1) {
        uint32_t left = __shfl_up_sync(SC_FULL_MASK, x, d);
        if ((lane + 1) % (2 * d) == 0) x += left;
    }
    *total = __shfl_sync(SC_FULL_MASK, x, SC_WARP - 1);
    if (lane == SC_WARP - 1) x = 0;
#pragma unroll
    for (unsigned d = SC_WARP / 2; d > 0; d >>= 1) {
        uint32_t left = __shfl_up_sync(SC_FULL_MASK, x, d);    /* for a right node */
        uint32_t right = __shfl_down_sync(SC_FULL_MASK, x, d); /* for a left node */
        if ((lane + 1) % (2 * d) == 0)
            x += left;
        else if ((lane + 1) % (2 * d) == d)
            x = right;
    }
    return x;
}

/* Exclusive scan over the 32 lanes with job->scan's variant (Hillis-Steele: primitives.cuh). */
static __device__ __forceinline__ uint32_t sc_warp_scan_variant(uint32_t v, int variant,
                                                                uint32_t *total) {
    if (variant == SC_SCAN_BLELLOCH) return sc_warp_scan_blelloch(v, total);
    return sc_warp_exclusive_scan(v, total);
}

/* ---- tile scan ---- */

/* Kept flags among 16 flags. */
static __device__ __forceinline__ uint32_t sc_count_kept16(uint4 w) {
    return (uint32_t)(__popc(__vcmpne4(w.x, 0u)) + __popc(__vcmpne4(w.y, 0u)) +
                      __popc(__vcmpne4(w.z, 0u)) + __popc(__vcmpne4(w.w, 0u))) >>
           3; /* __vcmpne4: 0xff per kept byte */
}

/* tile scan, first kernel: each warp counts 4096 flags in 8 rounds of coalesced 16-byte loads
 * (lane l holds flags [16 l, 16 l + 16) of each 512-flag round, a group of 32 flags is a pair of
 * lanes); warp scans (two rounds packed in one word, 16 bits each) and the warp totals give every
 * group its offset inside the chunk, which is stored for the groups that start a tile; the chunk
 * scan later adds the chunk's offset. Blocks take the chunks from the last one down, so the flags
 * still in L2 when the kernel ends are the first ones, which the tile kernel reads first. */
static __global__ void __launch_bounds__(SC_BLK_THREADS)
    sc_blocks_count_kernel(const uint8_t *flags, uint32_t bound, const uint32_t *d_n,
                           uint32_t tile_shift, uint32_t *local, uint32_t *chunk_sum) {
    constexpr unsigned R = SC_BLK_ROUNDS, WARPS = SC_BLK_THREADS / SC_WARP;
    static_assert(R % 2 == 0, "rounds are scanned in pairs");
    __shared__ uint32_t s_warp[WARPS];
    const uint32_t n = sc_dev_count(d_n, bound);
    const uint32_t ci = gridDim.x - 1 - blockIdx.x; /* last chunk first: see above */
    const size_t chunk = (size_t)ci << SC_BLK_SHIFT;
    if (chunk >= n && ci > 0) { /* past the run-time n */
        if (threadIdx.x == 0) chunk_sum[ci] = 0;
        return;
    }
    const unsigned lane = sc_lane(), warp = sc_warp_id();
    const size_t wbase = chunk + (size_t)warp * R * 512; /* this warp's 4096 flags */
    uint32_t c[R];
    if (wbase + R * 512 <= n && ((uintptr_t)flags & 15) == 0) {
        const uint4 *f = (const uint4 *)(flags + wbase);
        uint4 w[R]; /* every load issued before the first count */
#pragma unroll
        for (unsigned r = 0; r < R; r++) w[r] = f[r * SC_WARP + lane];
#pragma unroll
        for (unsigned r = 0; r < R; r++) c[r] = sc_count_kept16(w[r]);
    } else {
#pragma unroll
        for (unsigned r = 0; r < R; r++) {
            const size_t first = wbase + r * 512 + lane * 16;
            uint32_t k = 0;
            for (unsigned i = 0; i < 16; i++) k += first + i < n && flags[first + i] != 0;
            c[r] = k;
        }
    }
    uint32_t excl[R], rtot[R], wsum = 0;
#pragma unroll
    for (unsigned r = 0; r < R; r += 2) { /* at most 512 per round: no carry between halves */
        const uint32_t packed = c[r] | c[r + 1] << 16;
        const uint32_t inc = sc_warp_inclusive_scan(packed);
        const uint32_t tot = __shfl_sync(SC_FULL_MASK, inc, SC_WARP - 1), ex = inc - packed;
        excl[r] = ex & 0xffffu;
        excl[r + 1] = ex >> 16;
        rtot[r] = tot & 0xffffu;
        rtot[r + 1] = tot >> 16;
        wsum += rtot[r] + rtot[r + 1];
    }
    if (lane == 0) s_warp[warp] = wsum;
    __syncthreads();
    uint32_t x = 0, total = 0;
#pragma unroll
    for (unsigned w = 0; w < WARPS; w++) {
        const uint32_t s = s_warp[w];
        x += w < warp ? s : 0u;
        total += s;
    }
    const size_t tile_mask = ((size_t)1 << tile_shift) - 1;
#pragma unroll
    for (unsigned r = 0; r < R; r++) {
        const size_t gf = wbase + r * 512 + lane * 16; /* a group's first flag on even lanes */
        if (lane % 2 == 0 && gf < n && (gf & tile_mask) == 0) local[gf >> tile_shift] = x + excl[r];
        x += rtot[r];
    }
    if (threadIdx.x == 0) chunk_sum[ci] = total;
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
    a->chunk_sum = chunk_sum;
    a->chunks = chunks;
    a->d_count = *d_count;
    a->host_count = NULL;
    a->fused = n > 0 && chunks <= SC_BLK_FUSED;
    if (n > 0) {
        const uint32_t tile_shift = 31 - (uint32_t)__builtin_clz(tile);
        sc_blocks_count_kernel<<<chunks, SC_BLK_THREADS, 0, stream>>>(job->flags, n, job->opt.d_n,
                                                                      tile_shift, local, chunk_sum);
        SC_CUDA_LAUNCHED();
    }
    if (a->fused) { /* the tile kernel scans the chunk totals and writes the count */
        a->host_count = sc_cuda_host_count(job);
    } else {
        sc_blocks_scan_kernel<<<1, SC_BLK_SCAN, 0, stream>>>(chunk_sum, chunks, chunk_off, *d_count,
                                                             sc_cuda_host_count(job));
        SC_CUDA_LAUNCHED();
    }
    sc_cuda_timing_phase(job, "tile scan");
    return SC_OK;
}

/* ---- the tile kernel's shape ---- */

/* An algorithm's table has one row per access width (4, 8, 16 bytes; 0 = any element size):
 * {width, tiles per block, warps per SM}: the tiles of up to 256 elements a block runs (one warp
 * each), and the warps an SM should hold at once, which caps the registers a thread may use
 * (65536 / (32 * warps)) through the kernel's launch bounds. */
template <size_t N>
static constexpr unsigned sc_tile_table(const unsigned (&table)[N][3], unsigned width,
                                        unsigned column) {
    for (size_t i = 0; i < N; i++)
        if (table[i][0] == width) return table[i][column];
    return 1;
}

/* The most warps and blocks an SM of the architecture being compiled holds (k_sm_limits in
 * tuning.cuh): the launch bounds may not ask for more. */
static constexpr unsigned SC_SM_MAX_WARPS = SC_TUNED(k_sm_limits).max_warps;
static constexpr unsigned SC_SM_MAX_BLOCKS = SC_TUNED(k_sm_limits).max_blocks;

/* Shape of a tile kernel over tiles of TILE elements: ITEMS consecutive items per thread (8, so
 * each thread has 8 independent loads in flight; fewer in tiles under 256), T threads per tile,
 * TILES tiles per block (WARP_TILES when a tile is one warp, else 1), and MIN_BLOCKS, the blocks
 * per SM of the launch bounds, from SM_WARPS. */
template <unsigned TILE, unsigned WARP_TILES, unsigned SM_WARPS = 0> struct sc_tile_geom {
    static constexpr unsigned ITEMS = TILE >= 256u ? 8u : TILE / 32u;
    static constexpr unsigned T = TILE / ITEMS;
    static constexpr unsigned WARPS = T / SC_WARP; /* warps per tile */
    static constexpr unsigned TILES = T == SC_WARP ? WARP_TILES : 1u;
    static constexpr unsigned BLOCK = T * TILES;
    static constexpr unsigned SM_THREADS =
        (SM_WARPS < SC_SM_MAX_WARPS ? SM_WARPS : SC_SM_MAX_WARPS) * SC_WARP;
    static constexpr unsigned MIN_BLOCKS =
        SM_THREADS / BLOCK < 1u
            ? 1u
            : (SM_THREADS / BLOCK > SC_SM_MAX_BLOCKS ? SC_SM_MAX_BLOCKS : SM_THREADS / BLOCK);
    static constexpr unsigned LEVELS = 31 - __builtin_clz(TILE); /* log2 TILE */
    static_assert(TILE >= 32 && TILE <= 2048 && (TILE & (TILE - 1)) == 0, "tile of 32..2048");
    static_assert(T % SC_WARP == 0 && BLOCK <= 1024, "whole warps, at most 1024 threads");
};

/* The shape of an algorithm's kernel from its table, and its launch bounds. */
#define SC_TILE_GEOM(table, TILE, W)                                                               \
    sc_tile_geom<TILE, sc_tile_table(table, W, 1), sc_tile_table(table, W, 2)>
#define SC_TILE_BOUNDS(table, TILE, W)                                                             \
    __launch_bounds__(SC_TILE_GEOM(table, TILE, W)::BLOCK, SC_TILE_GEOM(table, TILE, W)::MIN_BLOCKS)

/* Blocks for `tiles` tiles. */
template <class G> static inline unsigned sc_tile_grid(uint32_t tiles) {
    return (unsigned)((tiles + G::TILES - 1) / G::TILES);
}

/* Where this thread works: tile t (elements base .. base + m under the run-time count; m = 0 for
 * a tile past it), tid its index among the tile's T threads, slot the tile's index in the block
 * (its shared memory). */
typedef struct sc_tile_pos {
    uint32_t t, base, m, tid, slot;
} sc_tile_pos;

template <class G, unsigned TILE>
static __device__ __forceinline__ sc_tile_pos sc_tile_locate(const sc_tile_args &a) {
    sc_tile_pos p;
    p.slot = G::TILES > 1 ? sc_warp_id() : 0u;
    p.tid = G::TILES > 1 ? sc_lane() : threadIdx.x;
    p.t = blockIdx.x * G::TILES + p.slot;
    const size_t base = (size_t)p.t * TILE; /* a tile past 2^32 - 1 must not wrap */
    const uint32_t n = sc_dev_count(a.d_n, a.n);
    p.base = base < n ? (uint32_t)base : 0u;
    p.m = base < n ? (n - (uint32_t)base < TILE ? n - (uint32_t)base : TILE) : 0u;
    return p;
}

/* Barrier of the tile's threads: its warp, or its block when a tile spans warps. A warp barrier
 * also orders the lanes' shared-memory accesses. */
template <class G> static __device__ __forceinline__ void sc_tile_sync(void) {
    if constexpr (G::WARPS == 1)
        __syncwarp();
    else
        __syncthreads();
}

/* Barrier of the tile's threads that also returns whether pred holds in any of them. */
template <class G> static __device__ __forceinline__ int sc_tile_any(int pred) {
    if constexpr (G::WARPS == 1) {
        __syncwarp();
        return __any_sync(SC_FULL_MASK, pred);
    } else {
        return __syncthreads_or(pred);
    }
}

/* Output offset of the tile at p (0 for a tile past the run-time count). Every thread of the
 * tile calls it, before the tile's early return. Fused (at most SC_BLK_FUSED chunks): each warp
 * scans the chunk totals itself, one per lane, and the tile kernel's thread 0 writes the grand
 * total, the kept count, in place of the chunk-scan kernel (one launch less where launches
 * dominate). */
template <class G, unsigned TILE>
static __device__ __forceinline__ uint32_t sc_tile_offset(const sc_tile_args &a,
                                                          const sc_tile_pos &p) {
    const uint32_t chunk = (uint32_t)(((size_t)p.t * TILE) >> SC_BLK_SHIFT);
    if (!a.fused) return p.m ? a.chunk_off[chunk] + a.local[p.t] : 0u;
    const unsigned lane = sc_lane();
    const uint32_t inc = sc_warp_inclusive_scan(lane < a.chunks ? a.chunk_sum[lane] : 0u);
    const uint32_t all = __shfl_sync(SC_FULL_MASK, inc, SC_WARP - 1);
    const uint32_t before = chunk ? __shfl_sync(SC_FULL_MASK, inc, (chunk - 1) & 31u) : 0u;
    if (blockIdx.x == 0 && threadIdx.x == 0) { /* tile 0, there in every call */
        *a.d_count = all;
        if (a.host_count) *(volatile uint32_t *)a.host_count = all;
    }
    return p.m ? before + a.local[p.t] : 0u;
}

/* ---- helpers for the tile kernels ---- */

/* This thread's ITEMS consecutive flags of the tile, items base + tid * ITEMS + u, as bits u
 * (set = kept); items at or past m (the tile's length) read as removed, and are not loaded (a
 * tile past the run-time count, m = 0, loads nothing). The tile kernels call it first, so the
 * flags' loads are in flight while the tile's offset is found. */
template <unsigned ITEMS>
static __device__ __forceinline__ uint32_t sc_tile_kept_bits(const uint8_t *flags, uint32_t base,
                                                             uint32_t m, uint32_t tid) {
    const uint32_t first = tid * ITEMS;
    const uint8_t *f = flags + base + first;
    uint32_t bits = 0;
    if constexpr (ITEMS >= 4) {
        if (first + ITEMS <= m && ((uintptr_t)f & (ITEMS - 1)) == 0) {
            uint32_t w[2];
            if constexpr (ITEMS == 8) {
                const uint2 q = *(const uint2 *)f;
                w[0] = q.x;
                w[1] = q.y;
            } else {
                w[0] = *(const uint32_t *)f;
                w[1] = 0;
            }
#pragma unroll
            for (unsigned i = 0; i < ITEMS / 4; i++) {
                uint32_t ne = __vcmpne4(w[i], 0u); /* 0xff per kept byte */
                bits |= ((ne & 1u) | (ne >> 7 & 2u) | (ne >> 14 & 4u) | (ne >> 21 & 8u)) << (4 * i);
            }
            return bits;
        }
    }
#pragma unroll
    for (unsigned u = 0; u < ITEMS; u++)
        if (first + u < m && f[u]) bits |= 1u << u;
    return bits;
}

/* Store every thread's ITEMS bits into the tile's bit set s_bits[TILE / 32] (lanes that share a
 * word OR their bits together first). */
template <unsigned ITEMS>
static __device__ __forceinline__ void sc_tile_store_bits(uint32_t *s_bits, uint32_t bits,
                                                          uint32_t tid) {
    constexpr unsigned L = 32 / ITEMS; /* lanes per word */
    const unsigned lane = sc_lane();
    uint32_t w = bits << ((lane % L) * ITEMS);
#pragma unroll
    for (unsigned d = 1; d < L; d <<= 1) w |= __shfl_xor_sync(SC_FULL_MASK, w, d);
    if (lane % L == 0) s_bits[tid * ITEMS / 32] = w;
}

static __device__ __forceinline__ int sc_tile_kept(const uint32_t *s_bits, uint32_t j) {
    return (int)((s_bits[j >> 5] >> (j & 31)) & 1u);
}

/* Exclusive scan of one value per thread across the tile's T threads with job->scan's variant:
 * in each warp, then (a tile of several warps) over the warp totals in warp 0, through s_warp
 * (G::WARPS + 1 words). */
template <class G>
static __device__ __forceinline__ uint32_t sc_tile_scan(uint32_t v, int variant, uint32_t *s_warp,
                                                        uint32_t *total) {
    uint32_t wtot;
    const uint32_t x = sc_warp_scan_variant(v, variant, &wtot);
    if constexpr (G::WARPS == 1) {
        (void)s_warp;
        *total = wtot;
        return x;
    } else {
        const unsigned lane = sc_lane(), warp = sc_warp_id();
        if (lane == 0) s_warp[warp] = wtot;
        __syncthreads();
        if (warp == 0) {
            const uint32_t w = lane < G::WARPS ? s_warp[lane] : 0u;
            uint32_t all;
            const uint32_t wx = sc_warp_scan_variant(w, variant, &all);
            if (lane < G::WARPS) s_warp[lane] = wx;
            if (lane == 0) s_warp[G::WARPS] = all;
        }
        __syncthreads();
        const uint32_t r = x + s_warp[warp];
        *total = s_warp[G::WARPS];
        __syncthreads(); /* s_warp may be reused at once */
        return r;
    }
}

/* The papers' inclusive all-prefix-sum over the tile of the bits in `ones` (this thread's
 * items): p[u] = ones among items [0, tid * ITEMS + u]. Each thread sums its items, the scan
 * across threads is job->scan's variant. Returns the tile's total. */
template <class G>
static __device__ __forceinline__ uint32_t sc_tile_prefix_sum(uint32_t ones, int variant,
                                                              uint32_t *s_warp, uint32_t *p) {
    uint32_t total, x = sc_tile_scan<G>((uint32_t)__popc(ones), variant, s_warp, &total);
#pragma unroll
    for (unsigned u = 0; u < G::ITEMS; u++) {
        x += (ones >> u) & 1u;
        p[u] = x;
    }
    return total;
}

/* dst[tid * ITEMS + u] = v[u] as 16-bit values, with one store of 2 * ITEMS bytes. */
template <unsigned ITEMS>
static __device__ __forceinline__ void sc_tile_store_u16(uint16_t *dst, const uint32_t *v,
                                                         uint32_t tid) {
    uint32_t p[(ITEMS + 1) / 2];
#pragma unroll
    for (unsigned w = 0; w < (ITEMS + 1) / 2; w++)
        p[w] = (v[2 * w] & 0xffffu) | (2 * w + 1 < ITEMS ? v[2 * w + 1] << 16 : 0u);
    uint16_t *d = dst + tid * ITEMS;
    if constexpr (ITEMS == 8)
        *(uint4 *)d = make_uint4(p[0], p[1], p[2], p[3]);
    else if constexpr (ITEMS == 4)
        *(uint2 *)d = make_uint2(p[0], p[1]);
    else if constexpr (ITEMS == 2)
        *(uint32_t *)d = p[0];
    else
        *d = (uint16_t)v[0];
}

/* Mask of this thread's items that lie inside the tile's m elements. */
template <unsigned ITEMS>
static __device__ __forceinline__ uint32_t sc_tile_in_mask(uint32_t m, uint32_t tid) {
    const uint32_t first = tid * ITEMS;
    if (first >= m) return 0;
    return m - first >= ITEMS ? (1u << ITEMS) - 1 : (1u << (m - first)) - 1;
}

/* The vector type that moves one element of W bytes. */
template <unsigned W> struct sc_vec_of;
template <> struct sc_vec_of<4> { typedef uint32_t type; };
template <> struct sc_vec_of<8> { typedef uint2 type; };
template <> struct sc_vec_of<16> { typedef uint4 type; };

/* Gather-write of the tile's outputs c = u * T + tid < v: out[offset + c] = in[base + src[u]].
 * Consecutive lanes write consecutive outputs (one coalesced store of 32 elements per item), and
 * the loads of all ITEMS outputs are issued before the first store. Items whose outputs all lie
 * past v (v is the tile's, so the test is uniform) are skipped. W: the access width (4, 8, 16),
 * 0 for any element size. */
template <class G, unsigned W>
static __device__ __forceinline__ void sc_tile_write(const sc_tile_args &a, const sc_tile_pos &p,
                                                     uint32_t offset, uint32_t v,
                                                     const uint32_t *src) {
    constexpr unsigned T = G::T, ITEMS = G::ITEMS;
    if constexpr (W == 0) {
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (u * T >= v) break;
            const uint32_t c = u * T + p.tid;
            if (c < v) sc_move_elem(a.out, offset + c, a.in, p.base + src[u], a.elem_size);
        }
    } else {
        typedef typename sc_vec_of<W>::type V;
        const V *in = (const V *)a.in;
        V *out = (V *)a.out;
        V x[ITEMS];
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (u * T >= v) break;
            if (u * T + p.tid < v) x[u] = __ldg(in + (p.base + src[u]));
        }
#pragma unroll
        for (unsigned u = 0; u < ITEMS; u++) {
            if (u * T >= v) break;
            const uint32_t c = u * T + p.tid;
            if (c < v) out[offset + c] = x[u];
        }
    }
}

/* ---- launch ---- */

/* An algorithm's launcher: struct K { template <unsigned TILE, unsigned W> static void
 * launch(uint32_t tiles, cudaStream_t, const sc_tile_args &); }. This picks the tile size and the
 * access width. */
template <class K, unsigned W>
static inline void sc_tile_launch_width(unsigned tile, uint32_t tiles, cudaStream_t stream,
                                        const sc_tile_args &a) {
    switch (tile) {
    case 32:
        K::template launch<32, W>(tiles, stream, a);
        break;
    case 64:
        K::template launch<64, W>(tiles, stream, a);
        break;
    case 128:
        K::template launch<128, W>(tiles, stream, a);
        break;
    case 256:
        K::template launch<256, W>(tiles, stream, a);
        break;
    case 512:
        K::template launch<512, W>(tiles, stream, a);
        break;
    case 1024:
        K::template launch<1024, W>(tiles, stream, a);
        break;
    default:
        K::template launch<2048, W>(tiles, stream, a);
    }
}

template <class K>
static inline void sc_tile_launch(unsigned tile, uint32_t tiles, cudaStream_t stream,
                                  const sc_tile_args &a) {
    switch (a.fast) {
    case 4:
        sc_tile_launch_width<K, 4>(tile, tiles, stream, a);
        break;
    case 8:
        sc_tile_launch_width<K, 8>(tile, tiles, stream, a);
        break;
    case 16:
        sc_tile_launch_width<K, 16>(tile, tiles, stream, a);
        break;
    default:
        sc_tile_launch_width<K, 0>(tile, tiles, stream, a);
    }
}

/* The launcher struct of a tile kernel `kernel<TILE, W>` whose tiles per block come from
 * `table` (sc_tile_table). */
#define SC_TILE_LAUNCHER(name, kernel, table)                                                      \
    struct name {                                                                                  \
        template <unsigned TILE, unsigned W>                                                       \
        static void launch(uint32_t tiles, cudaStream_t stream, const sc_tile_args &a) {           \
            typedef SC_TILE_GEOM(table, TILE, W) G;                                                \
            kernel<TILE, W><<<sc_tile_grid<G>(tiles), G::BLOCK, 0, stream>>>(a);                   \
        }                                                                                          \
    }

/* Run a tile kernel (its launcher struct) over every tile and finish the call (its phase name:
 * see the file's comment at the algorithm). */
#define SC_TILE_RUN(job, launcher, phase)                                                          \
    do {                                                                                           \
        sc_tile_args a_;                                                                           \
        uint32_t *count_;                                                                          \
        sc_status s_ = sc_blocks_prepare(job, &a_, &count_);                                       \
        if (s_ != SC_OK) return s_;                                                                \
        if (job->n > 0) {                                                                          \
            const uint32_t tiles_ = (uint32_t)((job->n + job->tile - 1) / job->tile);              \
            sc_tile_launch<launcher>((unsigned)job->tile, tiles_, sc_cuda_stream(job), a_);        \
            SC_CUDA_LAUNCHED();                                                                    \
            sc_cuda_timing_phase(job, phase);                                                      \
        }                                                                                          \
        return sc_cuda_finish_count(job, count_);                                                  \
    } while (0)

#endif /* SC_CUDA_BLOCKS_CUH */
