/* spataro.cu: the 3-phase stable compaction of Spataro 2015; a tile (job->tile elements) is the
 * data one block owns, as the post's block is.
 * Phase 1 (count, computeBlockCounts): each tile's kept count from __syncthreads_count.
 * Phase 2 (scan): exclusive scan of the tile counts gives each tile its output offset (the post
 * calls thrust::exclusive_scan; here the library's scan, job->scan's variant).
 * Phase 3 (move): inside a warp, a kept element's offset is the number of kept elements of the
 * lanes below it (__popc of the ballot under the lane mask); warp offsets inside the tile come
 * from the bit-sliced scan of the warp totals (one ballot per bit plane); element i goes to
 * tileOffset + warpOffset + laneOffset.
 * Where the GPU version departs from the post, and why:
 *   - a thread holds SP_ITEMS consecutive elements of its tile (the post: one), so a tile of 256
 *     is 64 threads with one 4-byte flag load each, not 256 threads with one byte each; the lane
 *     offsets take one ballot per item, the count one __syncthreads_count per bit of the
 *     thread's count (bit-sliced, like the post's warp-offset scan);
 *   - a block works through several tiles in sequence (SP_COUNT_TILES, move_tiles), each with
 *     its own count or offset, so that a block has enough loads in flight and 2^26 elements do
 *     not need 2^18 tiny blocks; every load of a block's tiles is issued before the first
 *     barrier, and a tile's scan is the post's, by one warp;
 *   - kept elements of 4, 8 and 16 bytes are read as 16-byte vectors where the thread's items
 *     fill one (any other size or alignment moves byte-wise wide copies, one element at a time);
 *     16-byte elements are striped over the warp instead (item u of lane l is element 32u + l
 *     of the warp's), so that each load and store of a warp covers 512 contiguous bytes.
 * Run-time length (opt.d_n): the grid covers the bound's tiles; tiles past *d_n count 0 and
 * move nothing, blocks wholly past it return; the scan runs over the bound's tile counts.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + 2m*E (count: F; move: F, the m kept elements in and out; 4 bytes a tile for the counts,
 * scanned in place).
 */
#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

/* Threads and items per thread by tile: at least one warp, 4 flags (one 32-bit load) a thread
 * from tile 128, 8 (one 64-bit load) from tile 1024: one warp up to tile 128, 2-8 above. */
#define SP_ITEMS(tile)   ((tile) >= 1024u ? 8u : (tile) >= 128u ? 4u : (tile) / 32u)
#define SP_THREADS(tile) ((tile) / SP_ITEMS(tile))
/* The launch shape, from k_spataro_tune (tuning.cuh; evidence: docs/design.md#tuning-
 * evidence). count: tiles per block, so that a block counts SP_COUNT_FLAGS flags (tiles under
 * 128, one warp, count as 128: at most 16 tiles of 2048 flags). */
static constexpr unsigned SP_COUNT_FLAGS = SC_TUNED(k_spataro_tune).count_flags;
#define SP_COUNT_TILES(tile)                                                                       \
    ((tile) >= SP_COUNT_FLAGS ? 1u : SP_COUNT_FLAGS / ((tile) >= 128u ? (tile) : 128u))
/* move: a thread holds its kept elements of every tile of its block in registers from their
 * load to their store. Per element size, the bytes of elements a thread holds (at least one
 * tile's items), which sets the tiles a block works through (1 to SP_MOVE_TILES): 64 bytes (16
 * registers) keep 4 tiles of 256 in flight per block for 4-byte elements, 2 for 8-byte ones, 1
 * for 16-byte ones (their own loads are already wide and there are 4 of them); any other size
 * (elem 0) loads at store time and takes up to SP_ANY_ELEMS elements a block. */
typedef struct sp_shape {
    unsigned elem; /* element size of the register path, 0: any size */
    unsigned hold; /* bytes of elements a thread holds at most */
} sp_shape;
static constexpr unsigned SP_HOLD_4 = SC_TUNED(k_spataro_tune).hold4;
static constexpr unsigned SP_HOLD_8 = SC_TUNED(k_spataro_tune).hold8;
static constexpr unsigned SP_HOLD_16 = SC_TUNED(k_spataro_tune).hold16;
static constexpr unsigned SP_ANY_ELEMS = SC_TUNED(k_spataro_tune).any_elems;
static constexpr unsigned SP_MOVE_TILES = SC_TUNED(k_spataro_tune).max_tiles;
static constexpr sp_shape sp_shapes[] = {{4, SP_HOLD_4}, {8, SP_HOLD_8}, {16, SP_HOLD_16}, {0, 0}};

template <unsigned TILE, unsigned E> static constexpr unsigned move_tiles() {
    unsigned hold = 0;
    for (const sp_shape &sh : sp_shapes)
        if (sh.elem == E) hold = sh.hold;
    const unsigned per_tile = SP_ITEMS(TILE) * (E ? E : 1u);
    const unsigned g = E == 0 ? SP_ANY_ELEMS / TILE : hold / per_tile;
    return g < 1u ? 1u : g > SP_MOVE_TILES ? SP_MOVE_TILES : g;
}

/* Bit-sliced planes of a value up to `max`. */
static constexpr unsigned planes(unsigned max) {
    return max ? 1u + planes(max >> 1) : 0u;
}

/* Kept bits of the I flags from `i` (bit u = element i + u); elements at or past n read as
 * removed. vec: flags is 8-byte aligned, so the I flags are one aligned I-byte load. */
template <unsigned I>
static __device__ __forceinline__ unsigned kept_bits(const uint8_t *flags, size_t i, uint32_t n,
                                                     int vec) {
    if (vec && i + I <= n) {
        if constexpr (I == 8) {
            uint2 w = __ldg((const uint2 *)(flags + i));
            return sc_nonzero_bytes(w.x) | sc_nonzero_bytes(w.y) << 4;
        } else if constexpr (I == 4) {
            return sc_nonzero_bytes(__ldg((const uint32_t *)(flags + i)));
        } else if constexpr (I == 2) {
            return sc_nonzero_bytes(__ldg((const uint16_t *)(flags + i)));
        } else {
            return __ldg(flags + i) != 0;
        }
    }
    unsigned m = 0;
#pragma unroll
    for (unsigned u = 0; u < I; u++)
        if (i + u < n && flags[i + u]) m |= 1u << u;
    return m;
}

/* Phase 1: tile counts (computeBlockCounts). The block counts SP_COUNT_TILES tiles in turn, its
 * flag loads all issued first. A thread's count c (0..I) goes through __syncthreads_count one
 * bit at a time: the number of threads with bit j of c set, << j, summed over j, is the tile's
 * count. Tiles past the run-time n count 0. */
template <unsigned TILE>
__global__ void __launch_bounds__(SP_THREADS(TILE))
    count_kernel(const uint8_t *flags, uint32_t bound, const uint32_t *d_n, int vec, uint32_t tiles,
                 uint32_t *counts) {
    constexpr unsigned I = SP_ITEMS(TILE), G = SP_COUNT_TILES(TILE), P = planes(I);
    const uint32_t n = sc_dev_count(d_n, bound);
    const uint32_t t0 = blockIdx.x * G;
    unsigned bits[G];
#pragma unroll
    for (unsigned g = 0; g < G; g++)
        bits[g] = kept_bits<I>(flags, (size_t)(t0 + g) * TILE + threadIdx.x * I, n, vec);
#pragma unroll
    for (unsigned g = 0; g < G; g++) {
        if (t0 + g >= tiles) break; /* the grid's last block: a block-uniform test */
        const unsigned c = (unsigned)__popc(bits[g]);
        uint32_t count = 0;
#pragma unroll
        for (unsigned j = 0; j < P; j++) count += (uint32_t)__syncthreads_count((c >> j) & 1u) << j;
        if (threadIdx.x == 0) counts[t0 + g] = count;
    }
}

/* Bit-sliced exclusive scan of the warp totals, run by one whole warp (paper, phase 3): bit
 * plane j of every total is one ballot; lane w adds __popc of the planes of the warps below it,
 * << j. The post takes log2(32) = 5 planes for totals up to 31; a warp's total here is up to
 * 32 * I, so P = log2(32 * I) + 1 planes. */
template <unsigned P>
static __device__ __forceinline__ void bit_sliced_scan(uint32_t *warp_totals, unsigned warps) {
    const unsigned lane = sc_lane();
    const uint32_t total = lane < warps ? warp_totals[lane] : 0;
    uint32_t offset = 0;
#pragma unroll
    for (unsigned j = 0; j < P; j++) {
        unsigned plane = __ballot_sync(SC_FULL_MASK, total & (1u << j));
        offset += (uint32_t)__popc(plane & sc_lanemask_lt()) << j;
    }
    if (lane < warps) warp_totals[lane] = offset;
}

/* Element types of the fast paths (E bytes; a 16-byte vector splits into them: sc_vec_split). */
template <unsigned E> struct sp_elem;
template <> struct sp_elem<4> { typedef uint32_t type; };
template <> struct sp_elem<8> { typedef uint2 type; };
template <> struct sp_elem<16> { typedef uint4 type; };

/* The kept ones of a thread's I elements from `i`, into e[] (removed ones are left unset).
 * Whole 16-byte vectors when the I elements fill them (wide: `in` 16-byte aligned) and lie
 * inside the stream, one element at a time otherwise. */
template <unsigned I, unsigned E, typename V>
static __device__ __forceinline__ void load_kept(const void *in, size_t i, uint32_t n,
                                                 unsigned bits, int wide, V *e) {
    constexpr unsigned PER = 16u / E; /* elements per vector */
    if constexpr (I % PER == 0) {
        if (wide && i + I <= n) {
            const uint4 *src = (const uint4 *)in + i / PER;
#pragma unroll
            for (unsigned q = 0; q < I / PER; q++)
                if ((bits >> (q * PER)) & ((1u << PER) - 1u))
                    sc_vec_split(__ldg(src + q), e + q * PER);
            return;
        }
    }
#pragma unroll
    for (unsigned u = 0; u < I; u++)
        if ((bits >> u) & 1u) e[u] = __ldg((const V *)in + i + u);
}

/* Phase 3: move the kept elements of the block's G tiles to tileOffset + warpOffset +
 * laneOffset. E = 4, 8 or 16: aligned elements of that size held in registers from their load
 * to their store; E = 0: any size, copied at store time. Two barriers a block: warp totals of
 * every tile written, then every tile's warp offsets scanned (warp g scans tile g). */
template <unsigned TILE, unsigned E>
__global__ void __launch_bounds__(SP_THREADS(TILE))
    move_kernel(const void *in, const uint8_t *flags, void *out, uint32_t bound,
                const uint32_t *d_n, int vec, int wide, uint32_t tiles, unsigned elem_size,
                const uint32_t *tile_offsets) {
    constexpr unsigned I = SP_ITEMS(TILE), T = SP_THREADS(TILE), WARPS = T / SC_WARP;
    constexpr unsigned G = move_tiles<TILE, E>(), P = planes(SC_WARP * I);
    /* 16-byte elements: item u of lane l is element 32u + l of the warp's 32 * I, so that a
     * warp's loads and stores of one item are 32 consecutive elements (one vector each; with
     * consecutive items a lane's loads lie 16 * I bytes apart). The offsets follow that order,
     * which is the elements' own: the output is the same. */
    constexpr bool STRIPED = E == 16;
    typedef typename sp_elem<E ? E : 4>::type V;
    __shared__ uint32_t warp_totals[G][SC_WARP];
    const unsigned w_i = sc_warp_id(), w_l = sc_lane();
    const uint32_t n = sc_dev_count(d_n, bound);
    const uint32_t t0 = blockIdx.x * G;
    if ((size_t)t0 * TILE >= n) return; /* past the run-time n (a block-uniform test) */

    unsigned bits[G];
    uint32_t offset[G];
    V e[E ? G : 1][E ? I : 1];
#pragma unroll
    for (unsigned g = 0; g < G; g++) {
        const size_t i = (size_t)(t0 + g) * TILE + threadIdx.x * I;
        bits[g] = kept_bits<I>(flags, i, n, vec);
        offset[g] = t0 + g < tiles ? tile_offsets[t0 + g] : 0;
    }
    if constexpr (STRIPED) {
#pragma unroll
        for (unsigned g = 0; g < G; g++) {
            /* the flag of element 32u + l is bit (32u + l) % I of lane (32u + l) / I */
            unsigned sb = 0;
#pragma unroll
            for (unsigned u = 0; u < I; u++) {
                const unsigned f = u * SC_WARP + w_l;
                sb |= ((__shfl_sync(SC_FULL_MASK, bits[g], f / I) >> (f % I)) & 1u) << u;
            }
            bits[g] = sb;
            const size_t w0 = (size_t)(t0 + g) * TILE + (size_t)w_i * SC_WARP * I;
#pragma unroll
            for (unsigned u = 0; u < I; u++)
                if ((sb >> u) & 1u) e[g][u] = __ldg((const V *)in + w0 + u * SC_WARP + w_l);
        }
    } else if constexpr (E != 0) {
#pragma unroll
        for (unsigned g = 0; g < G; g++)
            load_kept<I, E>(in, (size_t)(t0 + g) * TILE + threadIdx.x * I, n, bits[g], wide, e[g]);
    }

    /* Lane offsets: item u of lane w_l follows the kept items u' of the lanes below it
     * (__popc(__ballot(bit u') & t_m), summed over u') and its own kept items below u. */
    uint32_t lane_off[G], item_off[STRIPED ? G : 1][STRIPED ? I : 1];
#pragma unroll
    for (unsigned g = 0; g < G; g++) {
        uint32_t below = 0, total = 0;
#pragma unroll
        for (unsigned u = 0; u < I; u++) {
            const unsigned b = __ballot_sync(SC_FULL_MASK, (bits[g] >> u) & 1u);
            if constexpr (STRIPED) /* after every kept item u' < u of the warp */
                item_off[g][u] = total + (uint32_t)__popc(b & sc_lanemask_lt());
            below += (uint32_t)__popc(b & sc_lanemask_lt());
            total += (uint32_t)__popc(b);
        }
        lane_off[g] = below;
        if (w_l == 0) warp_totals[g][w_i] = total;
    }
    __syncthreads();
    for (unsigned g = w_i; g < G; g += WARPS) bit_sliced_scan<P>(warp_totals[g], WARPS);
    __syncthreads();

#pragma unroll
    for (unsigned g = 0; g < G; g++) {
        const uint32_t at = offset[g] + warp_totals[g][w_i] + lane_off[g];
        const size_t i = (size_t)(t0 + g) * TILE + threadIdx.x * I;
#pragma unroll
        for (unsigned u = 0; u < I; u++) {
            if (!((bits[g] >> u) & 1u)) continue;
            if constexpr (STRIPED) {
                ((V *)out)[at - lane_off[g] + item_off[g][u]] = e[g][u];
                continue;
            }
            const uint32_t j = at + (uint32_t)__popc(bits[g] & ((1u << u) - 1u));
            if constexpr (E != 0)
                ((V *)out)[j] = e[g][u];
            else
                sc_move_elem(out, j, in, (uint32_t)(i + u), elem_size);
        }
    }
}

/* Launches, one instantiation per tile size (job->tile: a power of two in 32..2048). */
template <unsigned TILE>
static void count_launch(const sc_job *job, unsigned tiles, int vec, uint32_t *counts) {
    count_kernel<TILE>
        <<<sc_cuda_blocks(tiles, SP_COUNT_TILES(TILE)), SP_THREADS(TILE), 0, sc_cuda_stream(job)>>>(
            job->flags, (uint32_t)job->n, job->opt.d_n, vec, tiles, counts);
}

template <unsigned TILE, unsigned E>
static void move_launch(const sc_job *job, unsigned tiles, int vec, int wide,
                        const uint32_t *offsets) {
    move_kernel<TILE, E><<<sc_cuda_blocks(tiles, move_tiles<TILE, E>()), SP_THREADS(TILE), 0,
                           sc_cuda_stream(job)>>>(job->in, job->flags, job->out, (uint32_t)job->n,
                                                  job->opt.d_n, vec, wide, tiles,
                                                  (unsigned)job->elem_size, offsets);
}

/* The phases for one tile size; E: the element path (4, 8, 16 or 0 = any). */
template <unsigned TILE>
static void phase_launch(const sc_job *job, int phase, unsigned E, unsigned tiles, int vec,
                         int wide, uint32_t *counts) {
    if (phase == 1)
        count_launch<TILE>(job, tiles, vec, counts);
    else if (E == 4)
        move_launch<TILE, 4>(job, tiles, vec, wide, counts);
    else if (E == 8)
        move_launch<TILE, 8>(job, tiles, vec, wide, counts);
    else if (E == 16)
        move_launch<TILE, 16>(job, tiles, vec, wide, counts);
    else
        move_launch<TILE, 0>(job, tiles, vec, wide, counts);
}

static void launch(const sc_job *job, int phase, unsigned E, unsigned tiles, int vec, int wide,
                   uint32_t *counts) {
    switch (job->tile) {
    case 32:
        phase_launch<32>(job, phase, E, tiles, vec, wide, counts);
        break;
    case 64:
        phase_launch<64>(job, phase, E, tiles, vec, wide, counts);
        break;
    case 128:
        phase_launch<128>(job, phase, E, tiles, vec, wide, counts);
        break;
    case 256:
        phase_launch<256>(job, phase, E, tiles, vec, wide, counts);
        break;
    case 512:
        phase_launch<512>(job, phase, E, tiles, vec, wide, counts);
        break;
    case 1024:
        phase_launch<1024>(job, phase, E, tiles, vec, wide, counts);
        break;
    default:
        phase_launch<2048>(job, phase, E, tiles, vec, wide, counts);
    }
}

extern "C" sc_status sc_cuda_spataro(sc_job *job) {
    const size_t n = job->n, tile = job->tile, es = job->elem_size;
    const unsigned tiles = sc_cuda_blocks(n, tile);
    size_t counts_bytes = ((size_t)tiles * sizeof(uint32_t) + 255) & ~(size_t)255;
    void *temp;
    sc_status s = sc_cuda_temp(job, counts_bytes + sc_cuda_scan_temp_bytes(tiles), &temp);
    if (s != SC_OK) return s;
    uint32_t *counts = (uint32_t *)temp;
    uint32_t *d_count = sc_cuda_count_slot(job);
    const int vec = ((uintptr_t)job->flags & 7) == 0;
    const int wide = ((uintptr_t)job->in & 15) == 0;
    const uintptr_t io = (uintptr_t)job->in | (uintptr_t)job->out;
    sc_cuda_timing_begin(job);

    launch(job, 1, 0, tiles, vec, wide, counts);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "count");

    s = sc_cuda_scan_u32(job, job->scan, counts, tiles, d_count, (char *)temp + counts_bytes);
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "scan");

    /* The element path: aligned 4-, 8- and 16-byte elements, or any size. */
    const unsigned fast = (es == 4 || es == 8 || es == 16) && io % es == 0 ? (unsigned)es : 0u;
    launch(job, 3, fast, tiles, vec, wide, counts);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "move");
    return sc_cuda_finish_count(job, d_count);
}
