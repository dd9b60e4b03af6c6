/* scan_scatter.cu: the textbook stable compaction on the GPU, and the device-wide exclusive
 * scan the other three-phase algorithms share (Moreira et al. 2009 §2: compaction by the
 * all-prefix-sum of Blelloch 1990, computed by recursive doubling, Hillis & Steele 1986, or by
 * a balanced tree, Blelloch 1990).
 * Pass 1 (scan: index = exclusive prefix sum of the flags), one kernel with a decoupled
 * look-back (Merrill & Garland 2016; lookback.cuh): each block takes the next tile of SS_BLOCK
 * threads x 32 flags (two 16-byte loads a thread, one 32-bit keep mask) by ticket, scans it
 * (each thread serially over its 32 flags, then the block scan job->scan, Hillis-Steele or
 * Blelloch, over the per-thread sums), publishes the tile's count, takes its offset from the
 * tiles before it, and writes the index of every element with whole 16-byte stores. GPU
 * departures: the flags are read once, not twice as by a reduce-then-scan (one pass and two
 * launches less; the prefix sums are the same); the index array is stored in two levels, a
 * 16-bit offset per element inside its tile of 8192 and a 32-bit base per tile (index[i] =
 * base[tile] + off[i], the same prefix sums in half the bytes: the scan writes and the scatter
 * reads 2 bytes an element instead of 4).
 * Pass 2 (scatter): forall i in parallel: if flags[i], out[index[i]] = in[i]. The scan's output
 * holds the flags (element i is kept exactly when index[i + 1] != index[i], index[n] = the
 * total), so the scatter reads the indices, not the flags again (GPU departure: one array less),
 * except when at most 1 in 64 elements is kept (read on the device from the scan's total): then
 * it tests the flags as written and reads the indices of the kept elements only, which skips
 * the index sectors with none kept.
 * The scan writes first to last and the scatter walks last to first, so it starts on the
 * indices the scan left in L2; its loads and stores of elements up to 8 bytes are evict-first,
 * which keeps them there longer. The scan hands the scatter the run-time count it read (a word
 * beside the indices), so the scatter does not read *d_n again.
 * The scan of 32-bit counts the other algorithms use (sc_cuda_scan_u32) stays reduce-then-scan:
 * (a) reduce: each tile writes its total; (b) one block scans the tile totals (beyond ss_small,
 * the same three steps again, recursively); (c) each tile re-reads and scans its counts, adds
 * its tile's offset and writes them back. Arrays up to ss_small values take one launch of one
 * block.
 * Run-time length (opt.d_n): tiles past *d_n take their ticket and return, the last live tile
 * writes the total and the count; the scatter's warps past the count return.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   F + 4n + 2m*E (scan: F in, 2n offsets out; scatter: 2n, m*E in, m*E out; per tile of 8192
 * a 4-byte base and 8 bytes of look-back state). With at most 1 in 64 kept the scatter reads F
 * more and skips the offset sectors with none kept; the model keeps 4n (how many it skips
 * depends on where the kept ones lie).
 */
#include "common.cuh"
#include "lookback.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

/* Per input type of the scan, the tile shape. Flags: 32 per thread (two 16-byte loads, one
 * 32-bit keep mask); 32-bit counts: 16 per thread (four 16-byte loads). The threads, from
 * k_scan_scatter_tune (tuning.cuh; evidence: docs/design.md#tuning-evidence): SS_BLOCK for the
 * tile kernels; SS_ONE for the single-block scan (one SM, so as wide as it can be), SS_FEW for
 * arrays of one such tile. */
static constexpr int SS_BLOCK = SC_TUNED(k_scan_scatter_tune).block;
static constexpr int SS_ONE = SC_TUNED(k_scan_scatter_tune).one;
static constexpr int SS_FEW = SC_TUNED(k_scan_scatter_tune).few;
template <typename T> static __host__ __device__ constexpr unsigned ss_items() {
    return sizeof(T) == 1 ? 32u : 16u;
}
template <typename T>
static __host__ __device__ constexpr unsigned ss_regs() { /* registers a thread's items take */
    return sizeof(T) == 1 ? 1u : 16u;
}
template <typename T> static __host__ __device__ constexpr size_t ss_tile() {
    return (size_t)SS_BLOCK * ss_items<T>();
}
/* Up to this many values one block scans the whole array (two rounds of its 1024 threads):
 * one launch instead of three. */
template <typename T> static __host__ __device__ constexpr size_t ss_small() {
    return 2 * (size_t)SS_ONE * ss_items<T>();
}

/* The scatter's threads, its blocks per SM, and its rounds of 32 elements per warp by element
 * size (k_scan_scatter_tune): 8 rounds keep 8 index loads and 8 element loads in flight per
 * thread within 64 registers (4 blocks per SM); 16-byte elements move 4x the bytes per load, so
 * 4 rounds do, and the generic copy loops per element. */
static constexpr int SS_SCATTER_BLOCK = SC_TUNED(k_scan_scatter_tune).scatter_block;
static constexpr int SS_SCATTER_BLOCKS = SC_TUNED(k_scan_scatter_tune).scatter_blocks;
static constexpr int SS_SCATTER_4 = SC_TUNED(k_scan_scatter_tune).scatter4;
static constexpr int SS_SCATTER_8 = SC_TUNED(k_scan_scatter_tune).scatter8;
static constexpr int SS_SCATTER_16 = SC_TUNED(k_scan_scatter_tune).scatter16;
static constexpr int SS_SCATTER_ANY = SC_TUNED(k_scan_scatter_tune).scatter_any;

/* ---- a thread's items ---- */

/* `vec` bits of the scan kernels: 16-byte loads of the input, 16-byte stores of the indices. */
#define SS_VEC_IN  1
#define SS_VEC_OUT 2

/* Flags: the keep mask of the 32 flags from `first` (bit b: flag first + b), 0 past n. */
static __device__ __forceinline__ void load_items(const uint8_t *in, size_t first, uint32_t n,
                                                  int vec, uint32_t (&w)[1]) {
    if ((vec & SS_VEC_IN) && first + 32 <= n) {
        uint4 a = __ldg((const uint4 *)(in + first)), b = __ldg((const uint4 *)(in + first) + 1);
        w[0] = sc_nonzero_bytes16(a) | sc_nonzero_bytes16(b) << 16;
        return;
    }
    uint32_t m = 0;
    for (unsigned b = 0; b < 32; b++)
        if (first + b < n && in[first + b]) m |= 1u << b;
    w[0] = m;
}

/* Counts: the 16 values from `first`, 0 past n. Plain loads: the scan may run in place. */
static __device__ __forceinline__ void load_items(const uint32_t *in, size_t first, uint32_t n,
                                                  int vec, uint32_t (&w)[16]) {
    if ((vec & SS_VEC_IN) && first + 16 <= n) {
        const uint4 *p = (const uint4 *)(in + first);
#pragma unroll
        for (int j = 0; j < 4; j++) {
            uint4 q = p[j];
            w[4 * j] = q.x;
            w[4 * j + 1] = q.y;
            w[4 * j + 2] = q.z;
            w[4 * j + 3] = q.w;
        }
        return;
    }
#pragma unroll
    for (int k = 0; k < 16; k++) w[k] = first + k < n ? in[first + k] : 0u;
}

static __device__ __forceinline__ uint32_t thread_sum(const uint32_t (&w)[1]) {
    return (uint32_t)__popc(w[0]);
}
static __device__ __forceinline__ uint32_t thread_sum(const uint32_t (&w)[16]) {
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < 16; k++) s += w[k];
    return s;
}

/* The sum of a thread's 16 counts (the reduce step). */
static __device__ __forceinline__ uint32_t thread_total(const uint32_t *in, size_t first,
                                                        uint32_t n, int vec) {
    uint32_t w[16];
    load_items(in, first, n, vec, w);
    return thread_sum(w);
}

static_assert(SS_BLOCK * 32 <= 65535, "a tile offset (0 .. the tile's flags) fits 16 bits");

/* Flags: write the tile offsets of the warp's 1024 flags (lane l holds flags 32l..32l+31 of
 * them as mask, x = the tile offset of its first) as 4 rounds of whole 16-byte stores of 8
 * offsets: in round s lane l writes offsets 256s + 8l .. +7, which belong to lane 8s + l/4, bits
 * 8(l%4) .. +7. Every lane of the warp must call it. */
static __device__ __forceinline__ void store_offsets(uint16_t *out, size_t first, uint32_t n,
                                                     int vec, uint32_t x, uint32_t w) {
    const unsigned lane = sc_lane();
    const size_t warp_first = first - (size_t)lane * 32;
    const unsigned b0 = (lane & 3u) * 8u;
#pragma unroll
    for (unsigned s = 0; s < 4; s++) {
        const unsigned src = s * 8u + (lane >> 2);
        const uint32_t xo = __shfl_sync(SC_FULL_MASK, x, src);
        const uint32_t mo = __shfl_sync(SC_FULL_MASK, w, src);
        uint32_t o[8];
        o[0] = xo + (uint32_t)__popc(mo & ((1u << b0) - 1u));
#pragma unroll
        for (unsigned j = 1; j < 8; j++) o[j] = o[j - 1] + ((mo >> (b0 + j - 1)) & 1u);
        const size_t p = warp_first + s * 256u + lane * 8u;
        if ((vec & SS_VEC_OUT) && p + 8 <= n) {
            *(uint4 *)(out + p) = make_uint4(o[0] | o[1] << 16, o[2] | o[3] << 16,
                                             o[4] | o[5] << 16, o[6] | o[7] << 16);
        } else {
#pragma unroll
            for (unsigned j = 0; j < 8; j++)
                if (p + j < n) out[p + j] = (uint16_t)o[j];
        }
    }
}

/* Counts: the thread's 16 exclusive sums from x, in four 16-byte stores. */
static __device__ __forceinline__ void store_items(uint32_t *out, size_t first, uint32_t n, int vec,
                                                   uint32_t x, const uint32_t (&w)[16]) {
    uint32_t e[16];
#pragma unroll
    for (int k = 0; k < 16; k++) {
        e[k] = x;
        x += w[k];
    }
    if ((vec & SS_VEC_OUT) && first + 16 <= n) {
        uint4 *p = (uint4 *)(out + first);
#pragma unroll
        for (int j = 0; j < 4; j++)
            p[j] = make_uint4(e[4 * j], e[4 * j + 1], e[4 * j + 2], e[4 * j + 3]);
        return;
    }
#pragma unroll
    for (int k = 0; k < 16; k++)
        if (first + k < n) out[first + k] = e[k];
}

/* ---- tiles ---- */

/* Exclusive scan of one value per thread by the variant the caller chose (the teaching point:
 * Moreira et al. 2009, Hillis-Steele O(s log s) against Blelloch O(s)); smem: 2 * BLOCK words. */
template <sc_scan VARIANT, unsigned BLOCK>
static __device__ __forceinline__ uint32_t block_scan(uint32_t v, uint32_t *smem, uint32_t *total) {
    return VARIANT == SC_SCAN_HILLIS_STEELE ? sc_block_scan_hillis_steele<BLOCK>(v, smem, total)
                                            : sc_block_scan_blelloch<BLOCK>(v, smem, total);
}

/* Scan one tile of BLOCK * items values from tile * that: each thread sums its items serially,
 * the block scans the sums, each thread writes its items' indices plus `offset`. Returns the
 * tile's total (the same in every thread). */
template <typename T, sc_scan VARIANT, unsigned BLOCK>
static __device__ __forceinline__ uint32_t scan_tile(const T *in, uint32_t *out, uint32_t n,
                                                     size_t tile, uint32_t offset, int vec,
                                                     uint32_t *smem) {
    const size_t first = (tile * BLOCK + threadIdx.x) * ss_items<T>();
    uint32_t w[ss_regs<T>()];
    load_items(in, first, n, vec, w);
    uint32_t total;
    uint32_t x = block_scan<VARIANT, BLOCK>(thread_sum(w), smem, &total);
    store_items(out, first, n, vec, offset + x, w);
    return total;
}

/* reduce: each tile's total to sums[tile]; tiles past the run-time count write 0. */
template <typename T>
__global__ void __launch_bounds__(SS_BLOCK)
    reduce_kernel(const T *in, uint32_t bound, const uint32_t *d_n, int vec, uint32_t *sums) {
    __shared__ uint32_t s_warp[SS_BLOCK / SC_WARP];
    const uint32_t n = sc_dev_count(d_n, bound);
    const size_t tile = blockIdx.x;
    if (tile * ss_tile<T>() >= n) {
        if (threadIdx.x == 0) sums[tile] = 0;
        return;
    }
    uint32_t v =
        sc_warp_sum(thread_total(in, (tile * SS_BLOCK + threadIdx.x) * ss_items<T>(), n, vec));
    if (sc_lane() == 0) s_warp[sc_warp_id()] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t t = 0;
#pragma unroll
        for (unsigned w = 0; w < SS_BLOCK / SC_WARP; w++) t += s_warp[w];
        sums[tile] = t;
    }
}

/* scan: each tile, last to first (the reduce read the last tiles most recently), scanned with
 * its scanned offset sums[tile] added. Tiles past the run-time count return. */
template <typename T, sc_scan VARIANT>
__global__ void __launch_bounds__(SS_BLOCK)
    scan_kernel(const T *in, uint32_t *out, uint32_t bound, const uint32_t *d_n, int vec,
                const uint32_t *sums) {
    __shared__ uint32_t smem[2 * SS_BLOCK];
    const uint32_t n = sc_dev_count(d_n, bound);
    const size_t tile = gridDim.x - 1 - blockIdx.x;
    if (tile * ss_tile<T>() >= n) return;
    scan_tile<T, VARIANT, SS_BLOCK>(in, out, n, tile, sums[tile], vec, smem);
}

/* scan, small arrays: one block of BLOCK threads walks all tiles carrying the running total;
 * writes the total. */
template <typename T, sc_scan VARIANT, unsigned BLOCK>
__global__ void __launch_bounds__(BLOCK)
    scan_one_kernel(const T *in, uint32_t *out, uint32_t bound, const uint32_t *d_n, int vec,
                    uint32_t *total) {
    __shared__ uint32_t smem[2 * BLOCK];
    const uint32_t n = sc_dev_count(d_n, bound);
    const size_t tiles = ((size_t)n + BLOCK * ss_items<T>() - 1) / (BLOCK * ss_items<T>());
    uint32_t carry = 0;
    for (size_t t = 0; t < tiles; t++)
        carry += scan_tile<T, VARIANT, BLOCK>(in, out, n, t, carry, vec, smem);
    if (threadIdx.x == 0 && total) *total = carry;
}

/* Launch scan_one_kernel in one block of BLOCK threads, the Hillis-Steele or Blelloch scan. */
template <typename T, unsigned BLOCK>
static void scan_one_launch(cudaStream_t st, int hs, const T *in, uint32_t *out, uint32_t n,
                            const uint32_t *d_n, int vec, uint32_t *total) {
    if (hs)
        scan_one_kernel<T, SC_SCAN_HILLIS_STEELE, BLOCK>
            <<<1, BLOCK, 0, st>>>(in, out, n, d_n, vec, total);
    else
        scan_one_kernel<T, SC_SCAN_BLELLOCH, BLOCK>
            <<<1, BLOCK, 0, st>>>(in, out, n, d_n, vec, total);
}

/* The scan's arguments, and what it leaves the scatter. */
typedef struct ss_args {
    const uint8_t *flags;
    uint16_t *off;       /* off[i]: kept elements before element i in its scan tile */
    uint32_t *base;      /* base[t]: kept elements before scan tile t (index = base + off) */
    uint32_t bound;      /* n, the bound */
    const uint32_t *d_n; /* run-time count, or NULL */
    uint32_t *live;      /* the run-time count as the scan read it, for the scatter */
    uint32_t *d_total;   /* the kept count; the scatter's index after the last element */
} ss_args;

/* scan of the flags in one pass: each block takes its tile by ticket (lookback.cuh), scans it,
 * publishes its count, looks back for its offset (BLOCK_LB: by the whole block, for grids of a
 * few tiles per SM) and writes its indices. The last live tile (tile 0 of an empty stream)
 * writes the live count and the total; tiles past the run-time count take their ticket and
 * return. */
template <sc_scan VARIANT, bool BLOCK_LB>
__global__ void __launch_bounds__(SS_BLOCK)
    scan_lookback_kernel(ss_args a, int vec, sc_cuda_lookback lb) {
    __shared__ uint32_t smem[2 * SS_BLOCK];
    __shared__ uint32_t s_tile, s_epoch, s_n, s_excl;
    if (threadIdx.x == 0) {
        s_n = sc_dev_count(a.d_n, a.bound); /* issued with the ticket: both in flight at once */
        lb_begin(lb, &s_tile, &s_epoch);
    }
    __syncthreads();
    const uint32_t tile = s_tile, epoch = s_epoch, n = s_n;
    if ((size_t)tile * ss_tile<uint8_t>() < n || tile == 0) {
        const size_t first = ((size_t)tile * SS_BLOCK + threadIdx.x) * ss_items<uint8_t>();
        uint32_t w[1];
        load_items(a.flags, first, n, vec, w);
        uint32_t agg;
        const uint32_t x = block_scan<VARIANT, SS_BLOCK>(thread_sum(w), smem, &agg);
        if (threadIdx.x == 0)
            lb_store(lb, epoch, tile, tile == 0 ? SC_LB_PREFIX : SC_LB_AGGREGATE, agg);
        store_offsets(a.off, first, n, vec, x, w[0]); /* needs no look-back: stored before it */
        const uint32_t excl =
            look_back_tile<SS_BLOCK, BLOCK_LB>(lb, epoch, tile, agg, smem, &s_excl);
        if (threadIdx.x == 0) a.base[tile] = excl;
        const uint32_t live =
            n ? (uint32_t)(((size_t)n + ss_tile<uint8_t>() - 1) / ss_tile<uint8_t>()) : 1u;
        if (tile == live - 1 && threadIdx.x == 0) {
            *a.live = n;
            *a.d_total = excl + agg;
        }
    }
    lb_end(lb, epoch, &s_excl);
}

template <bool BLOCK_LB>
static void scan_lookback_launch(sc_job *job, unsigned tiles, const ss_args &a, int vec,
                                 const sc_cuda_lookback &lb) {
    const cudaStream_t st = sc_cuda_stream(job);
    if (job->scan == SC_SCAN_HILLIS_STEELE)
        scan_lookback_kernel<SC_SCAN_HILLIS_STEELE, BLOCK_LB>
            <<<tiles, SS_BLOCK, 0, st>>>(a, vec, lb);
    else
        scan_lookback_kernel<SC_SCAN_BLELLOCH, BLOCK_LB><<<tiles, SS_BLOCK, 0, st>>>(a, vec, lb);
}

/* ---- scatter ---- */

/* Element loads and stores of the scatter, up to 8-byte words: evict-first in L2, so the indices
 * the scan wrote last stay there for the scatter's first warps; 16-byte elements plain
 * (evidence: docs/design.md#tuning-evidence). */
template <typename W> static __device__ __forceinline__ W elem_load(const W *p) {
    if constexpr (sizeof(W) <= 8)
        return __ldcs(p);
    else
        return __ldg(p);
}
template <typename W> static __device__ __forceinline__ void elem_store(W *p, W v) {
    if constexpr (sizeof(W) <= 8)
        __stcs(p, v);
    else
        *p = v;
}

/* scatter: warp w of the grid takes S rounds of 32 consecutive elements (lane l: element
 * 32k + l of its segment, so loads and stores of a round are contiguous), the grid's blocks last
 * to first (the scan wrote the last indices most recently). Keep test from the indices alone:
 * kept iff the next element's index differs (index[n] = *d_total), or from the flags when at
 * most 1 in 64 is kept (see below). W: the element as one word
 * (sizeof(W) == elem_size, aligned), or char for any size. */
template <typename W, unsigned S>
__global__ void __launch_bounds__(SS_SCATTER_BLOCK, SS_SCATTER_BLOCKS)
    scatter_kernel(const void *in, void *out, ss_args a, unsigned elem_size) {
    const uint32_t n = *a.live;
    const size_t block = gridDim.x - 1 - blockIdx.x;
    const size_t seg = (block * (SS_SCATTER_BLOCK / SC_WARP) + sc_warp_id()) * (SC_WARP * S);
    if (seg >= n) return; /* the whole warp */
    const unsigned lane = sc_lane();
    static_assert(ss_tile<uint8_t>() % (SC_WARP * S) == 0, "a segment lies in one scan tile");
    const uint32_t total = *a.d_total;
    const uint16_t *off = a.off;
    const uint32_t base = __ldg(a.base + seg / ss_tile<uint8_t>()); /* the segment's scan tile */
    uint32_t idx[S];
    unsigned keep = 0;
    if (64ull * total <= n) {
        /* at most 1 in 64 kept (the same choice in every thread): the textbook keep test from
         * the flags, and an index loaded for the kept elements only, so the 32-byte sectors of
         * 8 indices with none kept are not read. Denser streams keep the test from the indices:
         * there the flag loads and the load chain flag -> index -> element cost more than the
         * sectors saved (evidence: docs/design.md#tuning-evidence). */
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            const size_t e = seg + k * SC_WARP + lane;
            const unsigned kept = e < n && __ldg(a.flags + e);
            keep |= kept << k;
            idx[k] = kept ? base + __ldg(off + e) : 0u;
        }
    } else {
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            size_t e = seg + k * SC_WARP + lane;
            idx[k] = e < n ? base + __ldg(off + e) : total;
        }
        const size_t after = seg + (size_t)S * SC_WARP;
        const uint32_t idx_after =
            after < n ? __ldg(a.base + after / ss_tile<uint8_t>()) + __ldg(off + after) : total;
#pragma unroll
        for (unsigned k = 0; k < S; k++) {
            uint32_t next = __shfl_down_sync(SC_FULL_MASK, idx[k], 1);
            uint32_t wrap =
                k + 1 < S ? __shfl_sync(SC_FULL_MASK, idx[k + 1 < S ? k + 1 : k], 0) : idx_after;
            if (lane == SC_WARP - 1) next = wrap;
            keep |= (unsigned)(next != idx[k]) << k;
        }
    }
    if constexpr (sizeof(W) > 1) {
        W v[S];
#pragma unroll
        for (unsigned k = 0; k < S; k++)
            if (keep >> k & 1u) v[k] = elem_load((const W *)in + seg + k * SC_WARP + lane);
#pragma unroll
        for (unsigned k = 0; k < S; k++)
            if (keep >> k & 1u) elem_store((W *)out + idx[k], v[k]);
    } else {
        for (unsigned k = 0; k < S; k++)
            if (keep >> k & 1u)
                sc_move_elem(out, idx[k], in, (uint32_t)(seg + k * SC_WARP + lane), elem_size);
    }
}

template <typename W, unsigned S> static sc_status scatter_launch(sc_job *job, const ss_args &a) {
    size_t segs = (job->n + (size_t)SC_WARP * S - 1) / ((size_t)SC_WARP * S);
    scatter_kernel<W, S><<<sc_cuda_blocks(segs, SS_SCATTER_BLOCK / SC_WARP), SS_SCATTER_BLOCK, 0,
                           sc_cuda_stream(job)>>>(job->in, job->out, a, (unsigned)job->elem_size);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

/* ---- the device-wide scan ---- */

static size_t round_words(size_t words) {
    return (words + 63) & ~(size_t)63; /* 256 bytes: each level's counts start aligned */
}

/* Temporary words a scan of n values of T needs: each level's tile counts, and theirs. */
template <typename T> static size_t scan_words(size_t n) {
    if (n <= ss_small<T>()) return 0;
    size_t tiles = (n + ss_tile<T>() - 1) / ss_tile<T>();
    return round_words(tiles) + scan_words<uint32_t>(tiles);
}

size_t sc_cuda_scan_temp_bytes(size_t n) {
    return scan_words<uint32_t>(n) * sizeof(uint32_t);
}

/* One level: small arrays in one launch; otherwise reduce, scan the tile counts (next level,
 * which writes the total), scan the tiles with their offsets. Only the first level reads the
 * run-time count d_n (may be NULL): the counts above it are the bound's, zero past d_n. */
template <typename T>
static sc_status scan_level(sc_job *job, sc_scan variant, const T *in, uint32_t *out, size_t n,
                            const uint32_t *d_n, uint32_t *d_total, uint32_t *temp) {
    const cudaStream_t st = sc_cuda_stream(job);
    const int vec =
        (((uintptr_t)in & 15) ? 0 : SS_VEC_IN) | (((uintptr_t)out & 15) ? 0 : SS_VEC_OUT);
    const int hs = variant == SC_SCAN_HILLIS_STEELE;
    if (n <= ss_small<T>()) {
        /* up to one tile of SS_FEW threads (Billeter's 2048 sequence counts): a block that
         * small scans its sums in fewer steps and barriers of fewer threads */
        if (n <= SS_FEW * ss_items<T>())
            scan_one_launch<T, SS_FEW>(st, hs, in, out, (uint32_t)n, d_n, vec, d_total);
        else
            scan_one_launch<T, SS_ONE>(st, hs, in, out, (uint32_t)n, d_n, vec, d_total);
        SC_CUDA_LAUNCHED();
        return SC_OK;
    }
    const unsigned tiles = sc_cuda_blocks(n, ss_tile<T>());
    uint32_t *sums = temp;
    reduce_kernel<T><<<tiles, SS_BLOCK, 0, st>>>(in, (uint32_t)n, d_n, vec, sums);
    SC_CUDA_LAUNCHED();
    sc_status s = scan_level<uint32_t>(job, variant, sums, sums, tiles, NULL, d_total,
                                       temp + round_words(tiles));
    if (s != SC_OK) return s;
    if (hs)
        scan_kernel<T, SC_SCAN_HILLIS_STEELE>
            <<<tiles, SS_BLOCK, 0, st>>>(in, out, (uint32_t)n, d_n, vec, sums);
    else
        scan_kernel<T, SC_SCAN_BLELLOCH>
            <<<tiles, SS_BLOCK, 0, st>>>(in, out, (uint32_t)n, d_n, vec, sums);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

sc_status sc_cuda_scan_u32(sc_job *job, sc_scan variant, uint32_t *d_data, size_t n,
                           uint32_t *d_total, void *d_temp) {
    return scan_level<uint32_t>(job, variant, d_data, d_data, n, NULL, d_total, (uint32_t *)d_temp);
}

/* ---- scan-scatter ---- */

extern "C" sc_status sc_cuda_scan_scatter(sc_job *job) {
    const size_t n = job->n;
    const unsigned tiles = sc_cuda_blocks(n, ss_tile<uint8_t>()); /* 1 for n = 0 */
    /* the indices and the live count, then the look-back states: sc_context_reserve grows both
     * (each stops the call as reserved; the second decides) */
    const size_t off_bytes = round_words(n) * sizeof(uint16_t);
    const size_t base_bytes = round_words(tiles) * sizeof(uint32_t);
    void *temp;
    sc_cuda_lookback lb;
    sc_status s = sc_cuda_temp(job, off_bytes + base_bytes + sizeof(uint32_t), &temp);
    if (job->reserve && job->reserve_done) {
        job->reserve_done = 0;
        return sc_cuda_lookback_begin(job, tiles, &lb);
    }
    if (s != SC_OK || (s = sc_cuda_lookback_begin(job, tiles, &lb)) != SC_OK) return s;
    ss_args a;
    a.flags = job->flags;
    a.off = (uint16_t *)temp;
    a.base = (uint32_t *)((char *)temp + off_bytes);
    a.bound = (uint32_t)n;
    a.d_n = job->opt.d_n;
    a.live = (uint32_t *)((char *)temp + off_bytes + base_bytes);
    a.d_total = sc_cuda_count_slot(job);
    sc_cuda_timing_begin(job);

    const int vec = (((uintptr_t)job->flags & 15) ? 0 : SS_VEC_IN) | SS_VEC_OUT;
    if (look_back_by_block(job, tiles))
        scan_lookback_launch<true>(job, tiles, a, vec, lb);
    else
        scan_lookback_launch<false>(job, tiles, a, vec, lb);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        sc_cuda_lookback_failed(job);
        return sc_cuda_status(e);
    }
    sc_cuda_timing_phase(job, "scan");

    if (n) {
        const uintptr_t io = (uintptr_t)job->in | (uintptr_t)job->out;
        const size_t es = job->elem_size;
        if (es == 4 && !(io & 3))
            s = scatter_launch<uint32_t, SS_SCATTER_4>(job, a);
        else if (es == 8 && !(io & 7))
            s = scatter_launch<uint2, SS_SCATTER_8>(job, a);
        else if (es == 16 && !(io & 15))
            s = scatter_launch<uint4, SS_SCATTER_16>(job, a);
        else
            s = scatter_launch<char, SS_SCATTER_ANY>(job, a);
        if (s != SC_OK) return s;
    }
    sc_cuda_timing_phase(job, "scatter");
    return sc_cuda_finish_count(job, a.d_total);
}
