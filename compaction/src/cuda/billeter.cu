/* billeter.cu: stable compaction by warp sequences (Billeter, Olsson & Assarsson 2009, as the
 * blog series describes it). The stream is cut into contiguous sequences, one per warp, each a
 * multiple of 4 * BL_CHUNK elements long; the metadata is one count per sequence. Their 480
 * sequences (120 blocks of 4 warps, part 2) fill a 30-SM GPU; here up to BL_SEQUENCES, so that
 * every SM of a current GPU has warps streaming, and whole 16-flag loads start each lane. The
 * sequences differ from the CPU version's, the output does not.
 * count: each warp counts the kept flags of its sequence (16 flags per lane per load).
 * prefix: exclusive scan of the sequence counts (at most BL_SEQUENCES, one scan tile).
 * move: each warp walks its sequence again, 4 elements per lane per step; a warp scan of the
 * lanes' counts (__shfl_up_sync, the blog's "modern" rewrite of the shared-memory scan) gives
 * each kept element its slot; 4-byte elements are read as one uint4 per lane, 8-byte ones as
 * two.
 * Run-time length (opt.d_n): the sequences are cut from the bound; each warp ends its sequence
 * at *d_n, so the warps past it count 0 and move nothing.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + n*E + m*E (count: F; move: F, every element in by vector loads, m*E out).
 */
#include "common.cuh"
#include "primitives.cuh"

#define BL_WARPS     4 /* warps per block, as Billeter et al.'s 128-thread blocks */
#define BL_ITEMS     4 /* elements per lane per move step */
#define BL_CHUNK     (SC_WARP * BL_ITEMS)
#define BL_SEQUENCES 2048 /* at most: the prefix is a single scan tile */

typedef struct bl_seq {
    uint32_t n;          /* the bound */
    uint32_t len;        /* elements per sequence, a multiple of 4 * BL_CHUNK */
    const uint32_t *d_n; /* run-time count, or NULL */
} bl_seq;

/* The end of the warp's sequence [begin, begin + len) under the run-time count. */
static __device__ __forceinline__ size_t seq_end(const bl_seq &sq, size_t begin) {
    const uint32_t n = sc_dev_count(sq.d_n, sq.n);
    return begin + sq.len < n ? begin + sq.len : n;
}

/* Bit b set for each nonzero byte b of w. */
static __device__ __forceinline__ unsigned nonzero_bytes(uint32_t w) {
    uint32_t t = (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) & 0x80808080u;
    return ((t >> 7) & 1u) | ((t >> 14) & 2u) | ((t >> 21) & 4u) | ((t >> 28) & 8u);
}

/* count: kept flags of one warp's sequence; one uint4 (16 flags) per lane per step. */
__global__ void __launch_bounds__(BL_WARPS *SC_WARP)
    count_kernel(const uint8_t *flags, bl_seq sq, int vec, uint32_t *counts) {
    uint32_t seq = blockIdx.x * BL_WARPS + sc_warp_id();
    size_t begin = (size_t)seq * sq.len;
    size_t end = seq_end(sq, begin);
    uint32_t count = 0;
    for (size_t i = begin + sc_lane() * 16; i < end; i += SC_WARP * 16) {
        if (vec && i + 16 <= end) {
            uint4 f = __ldg((const uint4 *)(flags + i));
            count += __popc(nonzero_bytes(f.x) | nonzero_bytes(f.y) << 4 | nonzero_bytes(f.z) << 8 |
                            nonzero_bytes(f.w) << 12);
        } else {
            for (size_t j = i; j < i + 16 && j < end; j++) count += flags[j] != 0;
        }
    }
    count = sc_warp_sum(count);
    if (sc_lane() == 0) counts[seq] = count;
}

/* Keep mask of the BL_ITEMS flags from `i` (one 32-bit load inside the sequence). */
static __device__ __forceinline__ unsigned lane_mask(const uint8_t *flags, size_t i, size_t end,
                                                     int vec) {
    if (vec && i + BL_ITEMS <= end) return nonzero_bytes(*(const uint32_t *)(flags + i));
    unsigned m = 0;
    for (unsigned b = 0; b < BL_ITEMS; b++)
        if (i + b < end && flags[i + b]) m |= 1u << b;
    return m;
}

/* Write the kept ones of a lane's BL_ITEMS elements e[] to consecutive slots from `slot`. */
template <typename T>
static __device__ __forceinline__ void put(T *out, uint32_t slot, unsigned mask, const T *e) {
#pragma unroll
    for (int k = 0; k < BL_ITEMS; k++)
        if (mask & (1u << k)) out[slot++] = e[k];
}

/* move: one warp's sequence to its offset; VEC 4 or 8 = element size read with uint4 loads
 * (4 or 2 elements per uint4), 0 = any size, one element copy at a time. */
template <int VEC>
__global__ void __launch_bounds__(BL_WARPS *SC_WARP)
    move_kernel(const void *in, const uint8_t *flags, void *out, bl_seq sq, unsigned elem_size,
                int vec, const uint32_t *offsets) {
    uint32_t seq = blockIdx.x * BL_WARPS + sc_warp_id();
    size_t begin = (size_t)seq * sq.len;
    size_t end = seq_end(sq, begin);
    uint32_t slot = offsets[seq];
    for (size_t c = begin; c < end; c += BL_CHUNK) {
        size_t i = c + sc_lane() * BL_ITEMS;
        unsigned mask = lane_mask(flags, i, end, vec);
        uint32_t total;
        uint32_t at = slot + sc_warp_exclusive_scan((uint32_t)__popc(mask), &total);
        if (VEC && i + BL_ITEMS <= end) {
            const uint4 *src = (const uint4 *)((const char *)in + i * VEC);
            uint4 e[VEC ? VEC / 4 : 1];
#pragma unroll
            for (int k = 0; k < VEC / 4; k++) e[k] = __ldg(src + k);
            if (VEC == 4)
                put((uint32_t *)out, at, mask, (const uint32_t *)e);
            else
                put((uint2 *)out, at, mask, (const uint2 *)e);
        } else {
            for (unsigned m = mask; m; m &= m - 1)
                sc_move_elem(out, at++, in, (uint32_t)(i + __ffs(m) - 1), elem_size);
        }
        slot += total;
    }
}

template <int VEC>
static sc_status move(sc_job *job, unsigned blocks, bl_seq sq, int vec, const uint32_t *offsets) {
    move_kernel<VEC><<<blocks, BL_WARPS * SC_WARP, 0, sc_cuda_stream(job)>>>(
        job->in, job->flags, job->out, sq, (unsigned)job->elem_size, vec, offsets);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

extern "C" sc_status sc_cuda_billeter(sc_job *job) {
    bl_seq sq;
    sq.n = (uint32_t)job->n;
    sq.d_n = job->opt.d_n;
    /* As few sequences as give every warp slot of the device one, each whole chunks long. */
    size_t step = 4 * BL_CHUNK;
    size_t len = (job->n + BL_SEQUENCES - 1) / BL_SEQUENCES;
    sq.len = (uint32_t)(len ? (len + step - 1) / step * step : step);
    size_t seqs = sc_cuda_blocks(job->n, sq.len);
    unsigned blocks = sc_cuda_blocks(seqs, BL_WARPS);
    seqs = (size_t)blocks * BL_WARPS; /* trailing warps count empty sequences */
    /* Storage for the most sequences any n up to this one makes (at most one per 4 * BL_CHUNK
     * elements, at most BL_SEQUENCES), so that it grows with n: a call with a smaller n than an
     * earlier one never allocates (seqs itself drops where the sequence length steps up). */
    size_t most = sc_cuda_blocks(sc_cuda_blocks(job->n, step), BL_WARPS) * (size_t)BL_WARPS;
    if (most > BL_SEQUENCES) most = BL_SEQUENCES;
    if (most < seqs) most = seqs;
    void *temp;
    sc_status s =
        sc_cuda_temp(job, most * sizeof(uint32_t) + sc_cuda_scan_temp_bytes(most) + 256, &temp);
    if (s != SC_OK) return s;
    uint32_t *counts = (uint32_t *)temp;
    uint32_t *d_count = sc_cuda_count_slot(job);
    void *scan_temp = (char *)temp + ((seqs * sizeof(uint32_t) + 255) & ~(size_t)255);
    int vec16 = ((uintptr_t)job->flags & 15) == 0, vec4 = ((uintptr_t)job->flags & 3) == 0;
    sc_cuda_timing_begin(job);

    count_kernel<<<blocks, BL_WARPS * SC_WARP, 0, sc_cuda_stream(job)>>>(job->flags, sq, vec16,
                                                                         counts);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "count");

    s = sc_cuda_scan_u32(job, SC_SCAN_BLELLOCH, counts, seqs, d_count, scan_temp);
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "prefix");

    uintptr_t io = (uintptr_t)job->in | (uintptr_t)job->out;
    if (job->elem_size == 4 && !(io & 15))
        s = move<4>(job, blocks, sq, vec4, counts);
    else if (job->elem_size == 8 && !(io & 15))
        s = move<8>(job, blocks, sq, vec4, counts);
    else
        s = move<0>(job, blocks, sq, vec4, counts);
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "move");
    return sc_cuda_finish_count(job, d_count);
}
