/* billeter.cu: stable compaction by warp sequences (Billeter, Olsson & Assarsson 2009, as the
 * blog series describes it). The stream is cut into contiguous sequences, one per warp, each a
 * whole number of move steps long; the metadata is one count per sequence. Their 480 sequences
 * (120 blocks of 4 warps, part 2) fill a 30-SM GPU; here up to BL_SEQUENCES, so that every SM of
 * a current GPU has warps streaming while the prefix stays one scan tile. The sequences differ
 * from the CPU version's, the output does not.
 * count: each warp counts the kept flags of its sequence, BL_COUNT_LOADS 16-flag loads per lane
 *   issued before the first is counted.
 * prefix: exclusive scan of the sequence counts (at most BL_SEQUENCES, one scan tile).
 * move: each warp walks its sequence again in steps of BL_SUBS sub-chunks; in sub-chunk k lane l
 *   holds 16-byte vector 32 * k + l of the step and its elements' flags (the blog's vectorized IO:
 *   every load of a warp is one contiguous run). A warp scan of the lanes' kept counts
 *   (__shfl_up_sync, the blog's "modern" rewrite of the shared-memory scan; the BL_SUBS counts
 *   packed as bytes of one word, so one scan serves every sub-chunk) gives each kept element its
 *   slot. The flags and elements of the next two steps are loaded before the current step is
 *   scanned and stored (BL_SEQUENCES warps are only ~16 an SM, so each keeps more in flight).
 * Element sizes 4, 8 and 16 (aligned) move as 16-byte vectors (table bl_shapes); any other size
 *   or alignment takes the same walk with 4 flags a lane per sub-chunk and copies each kept
 *   element with the widest words it allows.
 * Run-time length (opt.d_n): the sequences are cut from the bound; each warp ends its sequence
 * at *d_n, so the warps past it count 0 and move nothing.
 * Traffic model (compact list --models; F = n flag bytes, E = element bytes, m kept, k removed):
 *   2F + n*E + m*E for elements under 16 bytes (count: F; move: F, every element in by vector
 *   loads, m*E out); 2F + 2m*E for 16 bytes and more (only the kept elements are read).
 */
#include "common.cuh"
#include "primitives.cuh"
#include "tuning.cuh"

/* The launch shape, from k_billeter_tune (tuning.cuh; evidence: docs/design.md#tuning-evidence):
 * warps per block (Billeter et al.'s 128-thread blocks are 4); sequences at most (the prefix is
 * a single scan tile); the count's 16-byte flag loads per lane in flight; the move's sub-chunks
 * per step (their counts are the bytes of a word). */
static constexpr int BL_WARPS = SC_TUNED(k_billeter_tune).warps;
static constexpr int BL_SEQUENCES = SC_TUNED(k_billeter_tune).sequences;
static constexpr int BL_COUNT_LOADS = SC_TUNED(k_billeter_tune).count_loads;
static constexpr int BL_SUBS = SC_TUNED(k_billeter_tune).subs;

/* Per element size: elements per lane per sub-chunk, so that each lane loads one 16-byte vector
 * of elements per sub-chunk (64 bytes a step); any other size or alignment (elem 0) takes 4
 * flags (one 32-bit load) a lane per sub-chunk and copies elements one at a time. A step is
 * 32 * BL_SUBS * vec elements; a sequence is a whole number of steps. */
typedef struct bl_shape {
    unsigned elem; /* element size of the vector path, 0: any size */
    unsigned vec;  /* elements per lane per sub-chunk */
} bl_shape;
static constexpr bl_shape bl_shapes[] = {{4, 4}, {8, 2}, {16, 1}, {0, 4}};

template <unsigned E> static constexpr unsigned bl_vec() {
    for (const bl_shape &sh : bl_shapes)
        if (sh.elem == E) return sh.vec;
    return 4u;
}

typedef struct bl_seq {
    uint32_t n;          /* the bound */
    uint32_t len;        /* elements per sequence, a whole number of steps */
    const uint32_t *d_n; /* run-time count, or NULL */
} bl_seq;

/* The end of the warp's sequence [begin, begin + len) under the run-time count. */
static __device__ __forceinline__ size_t seq_end(const bl_seq &sq, size_t begin) {
    const uint32_t n = sc_dev_count(sq.d_n, sq.n);
    return begin + sq.len < n ? begin + sq.len : n;
}

/* count: kept flags of one warp's sequence; LOADS uint4 loads (16 flags each) per lane issued,
 * then counted: BL_COUNT_LOADS, or 1 where a sequence is at most 512 flags (n up to 2^20). */
template <unsigned LOADS>
__global__ void __launch_bounds__(BL_WARPS *SC_WARP)
    count_kernel(const uint8_t *flags, bl_seq sq, int vec, uint32_t *counts) {
    constexpr unsigned STEP = SC_WARP * 16 * LOADS;
    const uint32_t seq = blockIdx.x * BL_WARPS + sc_warp_id();
    const size_t begin = (size_t)seq * sq.len;
    const size_t end = seq_end(sq, begin);
    uint32_t count = 0;
    for (size_t c = begin; c < end; c += STEP) {
        uint4 f[LOADS];
#pragma unroll
        for (unsigned r = 0; r < LOADS; r++) {
            const size_t i = c + (size_t)(r * SC_WARP + sc_lane()) * 16;
            f[r] =
                vec && i + 16 <= end ? __ldg((const uint4 *)(flags + i)) : make_uint4(0, 0, 0, 0);
        }
#pragma unroll
        for (unsigned r = 0; r < LOADS; r++) {
            const size_t i = c + (size_t)(r * SC_WARP + sc_lane()) * 16;
            if (vec && i + 16 <= end) {
                count += __popc(sc_nonzero_bytes16(f[r]));
            } else {
                for (size_t j = i; j < i + 16 && j < end; j++) count += flags[j] != 0;
            }
        }
    }
    count = sc_warp_sum(count);
    if (sc_lane() == 0) counts[seq] = count;
}

/* Element types of the vector paths (a 16-byte vector splits into them: sc_vec_split). */
template <unsigned E> struct bl_elem { typedef uint32_t type; /* E = 0: unused */ };
template <> struct bl_elem<8> { typedef uint2 type; };
template <> struct bl_elem<16> { typedef uint4 type; };

/* One step of a lane: its kept bits and (vector paths) its elements, of every sub-chunk. */
template <unsigned E> struct bl_step {
    unsigned mask[BL_SUBS];
    typename bl_elem<E>::type e[E ? BL_SUBS : 1][E ? bl_vec<E>() : 1];
};

/* Load the lane's flags of the step at c: in sub-chunk k the VEC flags from
 * i = c + (32 * k + lane) * VEC. vec: flags aligned to VEC bytes. Flags past the sequence's end
 * read as removed. */
template <unsigned E>
static __device__ __forceinline__ void load_flags(const uint8_t *flags, size_t c, size_t end,
                                                  int vec, bl_step<E> &s) {
    constexpr unsigned VEC = bl_vec<E>();
#pragma unroll
    for (unsigned k = 0; k < BL_SUBS; k++) {
        const size_t i = c + (size_t)(k * SC_WARP + sc_lane()) * VEC;
        unsigned m = 0;
        if (vec && i + VEC <= end) {
            if constexpr (VEC == 4)
                m = sc_nonzero_bytes(__ldg((const uint32_t *)(flags + i)));
            else if constexpr (VEC == 2)
                m = sc_nonzero_bytes(__ldg((const uint16_t *)(flags + i)));
            else
                m = __ldg(flags + i) != 0;
        } else {
#pragma unroll
            for (unsigned j = 0; j < VEC; j++)
                if (i + j < end && flags[i + j]) m |= 1u << j;
        }
        s.mask[k] = m;
    }
}

/* Load the lane's elements of the step at c (vector paths), the same places as its flags:
 * 16-byte elements (one a vector) only where kept, so a sparse step reads only its survivors
 * (evidence: docs/design.md#tuning-evidence); smaller elements share a vector, which is loaded
 * whole. Elements past the sequence's end are not loaded. */
template <unsigned E>
static __device__ __forceinline__ void load_elems(const void *in, size_t c, size_t end,
                                                  bl_step<E> &s) {
    constexpr unsigned VEC = bl_vec<E>();
    typedef typename bl_elem<E>::type V;
#pragma unroll
    for (unsigned k = 0; k < BL_SUBS; k++) {
        const size_t i = c + (size_t)(k * SC_WARP + sc_lane()) * VEC;
        if (i + VEC <= end) {
            if (VEC > 1 || s.mask[k]) sc_vec_split(__ldg((const uint4 *)in + i / VEC), s.e[k]);
        } else {
#pragma unroll
            for (unsigned j = 0; j < VEC; j++)
                if (i + j < end) s.e[k][j] = __ldg((const V *)in + i + j);
        }
    }
}

/* Store the kept elements of the step at c from `slot` on; returns the step's kept count. The
 * BL_SUBS lane counts (at most VEC each, at most 32 * VEC <= 128 a warp) are the bytes of one
 * word, so one warp scan gives the lane's offset in every sub-chunk and the sub-chunks' totals. */
template <unsigned E>
static __device__ __forceinline__ uint32_t store_step(const void *in, void *out, size_t c,
                                                      unsigned elem_size, uint32_t slot,
                                                      const bl_step<E> &s) {
    constexpr unsigned VEC = bl_vec<E>();
    typedef typename bl_elem<E>::type V;
    static_assert(BL_SUBS <= 4 && SC_WARP * VEC < 256, "counts packed as bytes of a word");
    uint32_t packed = 0;
#pragma unroll
    for (unsigned k = 0; k < BL_SUBS; k++) packed |= (uint32_t)__popc(s.mask[k]) << (8 * k);
    uint32_t totals;
    const uint32_t below = sc_warp_exclusive_scan(packed, &totals);
    uint32_t at = slot;
#pragma unroll
    for (unsigned k = 0; k < BL_SUBS; k++) {
        uint32_t j = at + ((below >> (8 * k)) & 0xffu);
#pragma unroll
        for (unsigned u = 0; u < VEC; u++) {
            if (!((s.mask[k] >> u) & 1u)) continue;
            if constexpr (E != 0)
                ((V *)out)[j] = s.e[k][u];
            else
                sc_move_elem(out, j, in, (uint32_t)(c + (k * SC_WARP + sc_lane()) * VEC + u),
                             elem_size);
            j++;
        }
        at += (totals >> (8 * k)) & 0xffu;
    }
    return at - slot;
}

/* move: one warp's sequence to its offset, loads ahead of the step being scanned and stored
 * (a warp streams 2 steps, 4-5 KB, per memory latency: with 16 warps an SM, enough to keep the
 * memory busy). E = 4 or 8: aligned elements of that size as 16-byte vectors, flags and
 * elements two steps ahead; 16: the flags two steps ahead and the kept elements one (their
 * loads wait for their flags, which arrived during the step before); 0: any size, copied one
 * element at a time, the flags of one step ahead. */
template <unsigned E>
__global__ void __launch_bounds__(BL_WARPS *SC_WARP)
    move_kernel(const void *in, const uint8_t *flags, void *out, bl_seq sq, unsigned elem_size,
                int vec, const uint32_t *offsets) {
    constexpr unsigned STEP = SC_WARP * BL_SUBS * bl_vec<E>();
    constexpr bool KEPT_ONLY = E != 0 && bl_vec<E>() == 1; /* element loads need the flags */
    const uint32_t seq = blockIdx.x * BL_WARPS + sc_warp_id();
    const size_t begin = (size_t)seq * sq.len;
    const size_t end = seq_end(sq, begin);
    if (begin >= end) return; /* a warp-uniform test */
    uint32_t slot = offsets[seq];
    bl_step<E> cur, next, after;
    load_flags<E>(flags, begin, end, vec, cur);
    if constexpr (E != 0) load_elems<E>(in, begin, end, cur);
    if (E != 0 && begin + STEP < end) {
        load_flags<E>(flags, begin + STEP, end, vec, next);
        if constexpr (!KEPT_ONLY) load_elems<E>(in, begin + STEP, end, next);
    }
    for (size_t c = begin; c < end; c += STEP) {
        if constexpr (E != 0) {
            if (c + 2 * STEP < end) {
                load_flags<E>(flags, c + 2 * STEP, end, vec, after);
                if constexpr (!KEPT_ONLY) load_elems<E>(in, c + 2 * STEP, end, after);
            }
            if (KEPT_ONLY && c + STEP < end) load_elems<E>(in, c + STEP, end, next);
        } else {
            if (c + STEP < end) load_flags<E>(flags, c + STEP, end, vec, next);
        }
        slot += store_step<E>(in, out, c, elem_size, slot, cur);
        cur = next;
        if constexpr (E != 0) next = after;
    }
}

template <unsigned E>
static sc_status move(sc_job *job, unsigned blocks, bl_seq sq, int vec, const uint32_t *offsets) {
    move_kernel<E><<<blocks, BL_WARPS * SC_WARP, 0, sc_cuda_stream(job)>>>(
        job->in, job->flags, job->out, sq, (unsigned)job->elem_size, vec, offsets);
    SC_CUDA_LAUNCHED();
    return SC_OK;
}

extern "C" sc_status sc_cuda_billeter(sc_job *job) {
    const size_t es = job->elem_size;
    const uintptr_t io = (uintptr_t)job->in | (uintptr_t)job->out;
    /* The element path (bl_shapes): a vector path needs `in` 16-byte aligned, `out` aligned to
     * the element size. */
    unsigned elem = 0, vec_items = 4;
    for (const bl_shape &sh : bl_shapes)
        if (sh.elem && sh.elem == es && ((uintptr_t)job->in & 15) == 0 && io % es == 0) {
            elem = sh.elem;
            vec_items = sh.vec;
        }
    bl_seq sq;
    sq.n = (uint32_t)job->n;
    sq.d_n = job->opt.d_n;
    /* As few sequences as give every warp slot of the device one, each whole steps long. */
    const size_t step = (size_t)SC_WARP * BL_SUBS * vec_items;
    size_t len = (job->n + BL_SEQUENCES - 1) / BL_SEQUENCES;
    sq.len = (uint32_t)(len ? (len + step - 1) / step * step : step);
    size_t seqs = sc_cuda_blocks(job->n, sq.len);
    unsigned blocks = sc_cuda_blocks(seqs, BL_WARPS);
    seqs = (size_t)blocks * BL_WARPS; /* trailing warps count empty sequences */
    /* Storage for the most sequences any n up to this one makes (at most one per 128 elements,
     * the shortest step, at most BL_SEQUENCES), so that it grows with n and does not depend on
     * the element path: a call with a smaller n than an earlier one never allocates. */
    const size_t min_step = (size_t)SC_WARP * BL_SUBS;
    size_t most = sc_cuda_blocks(sc_cuda_blocks(job->n, min_step), BL_WARPS) * (size_t)BL_WARPS;
    if (most > BL_SEQUENCES) most = BL_SEQUENCES;
    if (most < seqs) most = seqs;
    void *temp;
    sc_status s =
        sc_cuda_temp(job, most * sizeof(uint32_t) + sc_cuda_scan_temp_bytes(most) + 256, &temp);
    if (s != SC_OK) return s;
    uint32_t *counts = (uint32_t *)temp;
    uint32_t *d_count = sc_cuda_count_slot(job);
    void *scan_temp = (char *)temp + ((seqs * sizeof(uint32_t) + 255) & ~(size_t)255);
    const int vec16 = ((uintptr_t)job->flags & 15) == 0;
    const int vec_move = ((uintptr_t)job->flags & (vec_items - 1)) == 0;
    sc_cuda_timing_begin(job);

    if (sq.len <= SC_WARP * 16)
        count_kernel<1>
            <<<blocks, BL_WARPS * SC_WARP, 0, sc_cuda_stream(job)>>>(job->flags, sq, vec16, counts);
    else
        count_kernel<BL_COUNT_LOADS>
            <<<blocks, BL_WARPS * SC_WARP, 0, sc_cuda_stream(job)>>>(job->flags, sq, vec16, counts);
    SC_CUDA_LAUNCHED();
    sc_cuda_timing_phase(job, "count");

    s = sc_cuda_scan_u32(job, SC_SCAN_BLELLOCH, counts, seqs, d_count, scan_temp);
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "prefix");

    if (elem == 4)
        s = move<4>(job, blocks, sq, vec_move, counts);
    else if (elem == 8)
        s = move<8>(job, blocks, sq, vec_move, counts);
    else if (elem == 16)
        s = move<16>(job, blocks, sq, vec_move, counts);
    else
        s = move<0>(job, blocks, sq, vec_move, counts);
    if (s != SC_OK) return s;
    sc_cuda_timing_phase(job, "move");
    return sc_cuda_finish_count(job, d_count);
}
