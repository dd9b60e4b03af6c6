/* single_pass.cu: stable compaction in one kernel (Merrill & Garland 2016, "Single-pass
 * Parallel Prefix Scan with Decoupled Look-back"). Each block takes the next tile by ticket,
 * counts its kept elements from 16-byte flag loads, publishes the count (the paper's status A),
 * finds its output offset by looking back over the tiles before it (inclusive prefixes, status P,
 * end the walk), publishes its own prefix, and copies its kept elements out. The tile-local list of
 * kept indices sits in shared memory, so both the gather from `in` and the store to `out` run in
 * order over whole vectors, and the gather of the first words is issued before the look-back, which
 * hides the wait. Elements of any size move as 16-, 8-, 4-, 2- or 1-byte words, whichever the size
 * and the pointers allow.
 * Run-time length (opt.d_n): the grid covers the bound; blocks whose tile lies past *d_n take
 * their ticket and return, the last live tile writes the count. The epoch and the ticket
 * counter of the look-back share one device word (lb_begin), so every call's arguments are the
 * same: a captured graph replays it correctly.
 * Launch: programmatic dependent launch (common.cuh, sc_cuda_launch_pdl) on sm_90+, so a call
 * that follows another kernel in a graph starts its blocks while that one ends (evidence:
 * docs/design.md#tuning-evidence).
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   F + 2m*E (one pass: flags, the kept elements gathered and written; 8 bytes of look-back state a
 * tile).
 */
#include "common.cuh"
#include "lookback.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

/* The launch shape, from k_single_pass_tune (tuning.cuh; evidence: docs/design.md#tuning-
 * evidence): threads per block, flags per thread (one 16- or 4-byte load), and the copy words
 * per thread gathered before the look-back by copy word. Small streams take SP_FLAGS_SMALL flags
 * a thread: the paper's tile is a block's threads times items per thread, tuned per problem.
 * Where even the small tiles are few enough for the look-back by whole blocks
 * (look_back_by_block), they put more blocks in flight, each with less of the serial work;
 * larger streams keep the full tile, whose look-back by warps is then faster. */
static constexpr int SP_BLOCK = SC_TUNED(k_single_pass_tune).block;
static constexpr int SP_FLAGS = SC_TUNED(k_single_pass_tune).flags;
static constexpr int SP_FLAGS_SMALL = SC_TUNED(k_single_pass_tune).flags_small;
static constexpr int SP_PREF_16 = SC_TUNED(k_single_pass_tune).pref16;
static constexpr int SP_PREF_8 = SC_TUNED(k_single_pass_tune).pref8;
static constexpr int SP_PREF_4 = SC_TUNED(k_single_pass_tune).pref4;
static constexpr int SP_PREF_2 = SC_TUNED(k_single_pass_tune).pref2;
static constexpr int SP_PREF_1 = SC_TUNED(k_single_pass_tune).pref1;
#define SP_TILE (SP_BLOCK * SP_FLAGS)
static_assert((SP_FLAGS == 16 || SP_FLAGS == 4) && (SP_FLAGS_SMALL == 16 || SP_FLAGS_SMALL == 4),
              "flags per thread: one 16- or 4-byte load (flag_mask)");

typedef struct sp_args {
    const char *in;
    const uint8_t *flags;
    char *out;
    uint32_t n;          /* the bound */
    const uint32_t *d_n; /* run-time count, or NULL */
    unsigned elem_size;
    unsigned wpe;      /* words per element */
    uint32_t magic;    /* q / wpe == __umulhi(q, magic) for every q < 2^24 (wpe > 1) */
    int flags_vec;     /* flags is 16-byte aligned */
    uint32_t tiles;    /* tiles of the bound: the grid */
    uint32_t *d_count; /* device slot for the kept count */
    uint32_t *h_count; /* mapped host slot, or NULL */
    sc_cuda_lookback lb;
} sp_args;

/* Keep mask of the FLAGS (16 or 4) flags from `first`: one 16- or 4-byte load inside the
 * stream, bytes at its end. */
template <int FLAGS>
static __device__ __forceinline__ unsigned flag_mask(const sp_args &a, uint32_t n, size_t first) {
    if (a.flags_vec && first + FLAGS <= n) {
        if (FLAGS == 4) return sc_nonzero_bytes(__ldg((const uint32_t *)(a.flags + first)));
        uint4 f = __ldg((const uint4 *)(a.flags + first));
        return sc_nonzero_bytes16(f);
    }
    unsigned m = 0;
    for (unsigned b = 0; b < FLAGS; b++)
        if (first + b < n && a.flags[first + b]) m |= 1u << b;
    return m;
}

static __device__ __forceinline__ uint32_t word_elem(const sp_args &a, uint32_t q) {
    return a.wpe == 1 ? q : __umulhi(q, a.magic);
}

/* Address of word q of the tile's kept elements, in `in` (tile base `base`) or in `out`. */
template <typename W>
static __device__ __forceinline__ const W *src_word(const sp_args &a, const uint16_t *src,
                                                    size_t base, uint32_t q) {
    uint32_t j = word_elem(a, q), r = q - j * a.wpe;
    return (const W *)(a.in + (base + src[j]) * a.elem_size) + r;
}
template <typename W>
static __device__ __forceinline__ W *dst_word(const sp_args &a, size_t excl, uint32_t q) {
    uint32_t j = word_elem(a, q), r = q - j * a.wpe;
    return (W *)(a.out + (excl + j) * a.elem_size) + r;
}

/* compact: one tile of SP_BLOCK * FLAGS elements per block; W is the copy word, PREF the words
 * per thread gathered before the look-back, BLOCK_LB the look-back by the whole block (grids of
 * a few tiles per SM). */
template <typename W, int PREF, bool BLOCK_LB, int FLAGS>
static __device__ __forceinline__ void compact_tile(const sp_args &a, uint32_t n, uint32_t tile,
                                                    uint32_t epoch, uint16_t *s_src,
                                                    uint32_t *s_warp, uint32_t *s_excl) {
    const size_t base = (size_t)tile * SP_BLOCK * FLAGS;
    unsigned mask = flag_mask<FLAGS>(a, n, base + threadIdx.x * FLAGS);
    uint32_t agg;
    uint32_t off = sc_block_scan_warps<SP_BLOCK>((uint32_t)__popc(mask), s_warp, &agg);
    if (threadIdx.x == 0)
        lb_store(a.lb, epoch, tile, tile == 0 ? SC_LB_PREFIX : SC_LB_AGGREGATE, agg);
    for (; mask; mask &= mask - 1) s_src[off++] = (uint16_t)(threadIdx.x * FLAGS + __ffs(mask) - 1);
    __syncthreads();

    const uint32_t words = agg * a.wpe;
    W v[PREF];
#pragma unroll
    for (int k = 0; k < PREF; k++) {
        uint32_t q = threadIdx.x + k * SP_BLOCK;
        if (q < words) v[k] = __ldg(src_word<W>(a, s_src, base, q));
    }
    const size_t excl = look_back_tile<SP_BLOCK, BLOCK_LB>(a.lb, epoch, tile, agg, s_warp, s_excl);
    sc_block_copy_rest<W, PREF, SP_BLOCK>(
        v, words, [&](uint32_t q) { return src_word<W>(a, s_src, base, q); },
        [&](uint32_t q) { return dst_word<W>(a, excl, q); });
    /* the last live tile (tile 0 of an empty stream) writes the kept count */
    const uint32_t live =
        n ? (uint32_t)(((size_t)n + SP_BLOCK * FLAGS - 1) / (SP_BLOCK * FLAGS)) : 1u;
    if (tile == live - 1 && threadIdx.x == 0) {
        *a.d_count = (uint32_t)excl + agg;
        if (a.h_count) *(volatile uint32_t *)a.h_count = (uint32_t)excl + agg;
    }
}

template <typename W, int PREF, bool BLOCK_LB, int FLAGS>
__global__ void __launch_bounds__(SP_BLOCK) single_pass_kernel(sp_args a) {
    /* output slot j of the tile takes tile element s_src[j] */
    __shared__ uint16_t s_src[SP_BLOCK * FLAGS];
    __shared__ uint32_t s_warp[SP_BLOCK / SC_WARP + 1];
    __shared__ uint32_t s_tile, s_epoch, s_excl, s_n;

    sc_pdl_wait(); /* launched early behind the previous kernel (sc_cuda_launch_pdl) */
    sc_pdl_release();
    if (threadIdx.x == 0) {
        s_n = sc_dev_count(a.d_n, a.n); /* issued with the ticket: both in flight at once */
        lb_begin(a.lb, &s_tile, &s_epoch);
    }
    __syncthreads();
    const uint32_t tile = s_tile, epoch = s_epoch, n = s_n;
    /* tiles past the run-time count: nothing to count, nobody looks back at them */
    if ((size_t)tile * SP_BLOCK * FLAGS < n || tile == 0)
        compact_tile<W, PREF, BLOCK_LB, FLAGS>(a, n, tile, epoch, s_src, s_warp, &s_excl);
    lb_end(a.lb, epoch, &s_excl);
}

template <typename W, int PREF, int FLAGS>
static cudaError_t launch_tiles(sc_job *job, const sp_args &a) {
    if (look_back_by_block(job, a.tiles))
        return sc_cuda_launch_pdl(job, single_pass_kernel<W, PREF, true, FLAGS>, a.tiles, SP_BLOCK,
                                  a);
    return sc_cuda_launch_pdl(job, single_pass_kernel<W, PREF, false, FLAGS>, a.tiles, SP_BLOCK, a);
}

template <typename W, int PREF> static sc_status launch(sc_job *job, const sp_args &a, int small) {
    cudaError_t e = small ? launch_tiles<W, (PREF / 4 > 2 ? PREF / 4 : 2), SP_FLAGS_SMALL>(job, a)
                          : launch_tiles<W, PREF, SP_FLAGS>(job, a);
    if (e == cudaSuccess) e = cudaGetLastError();
    if (e != cudaSuccess) {
        sc_cuda_lookback_failed(job);
        return sc_cuda_status(e);
    }
    return SC_OK;
}

extern "C" sc_status sc_cuda_single_pass(sc_job *job) {
    sp_args a;
    a.in = (const char *)job->in;
    a.flags = job->flags;
    a.out = (char *)job->out;
    a.n = (uint32_t)job->n;
    a.d_n = job->opt.d_n;
    a.elem_size = (unsigned)job->elem_size;
    unsigned w = sc_cuda_word_bytes(job);
    a.wpe = a.elem_size / w;
    a.magic = sc_cuda_word_magic(a.wpe);
    a.flags_vec = ((uintptr_t)job->flags & 15) == 0;
    /* the bound, not the run-time count, picks the tile: every call of a captured graph is the
       same, and the look-back storage reserved for the bound fits */
    const int small = look_back_by_block(job, sc_cuda_blocks(job->n, SP_BLOCK * SP_FLAGS_SMALL));
    a.tiles = sc_cuda_blocks(job->n, small ? SP_BLOCK * SP_FLAGS_SMALL : SP_TILE);
    sc_status s = sc_cuda_lookback_begin(job, a.tiles, &a.lb);
    if (s != SC_OK) return s;
    sc_cuda_timing_begin(job);
    a.d_count = sc_cuda_count_slot(job);
    a.h_count = sc_cuda_host_count(job);

    switch (w) {
    case 16:
        s = launch<uint4, SP_PREF_16>(job, a, small);
        break;
    case 8:
        s = launch<uint2, SP_PREF_8>(job, a, small);
        break;
    case 4:
        s = launch<uint32_t, SP_PREF_4>(job, a, small);
        break;
    case 2:
        s = launch<unsigned short, SP_PREF_2>(job, a, small);
        break;
    default:
        s = launch<unsigned char, SP_PREF_1>(job, a, small);
    }
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "compact");
    return sc_cuda_finish_count(job, a.d_count);
}
