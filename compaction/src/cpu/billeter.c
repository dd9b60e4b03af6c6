/* billeter.c: warp-sized sequences (Billeter, Olsson & Assarsson 2009), as the blog series
 * "Parallel Stream Compaction" takes their code apart (parts 2 and 4). Each warp owns one
 * sequence: a contiguous run of 32-element chunks, lane l reading element l of every chunk.
 *   count:  each warp sums its sequence's predicates lane by lane, then warpReduceSum; one
 *           count per sequence is the only metadata;
 *   prefix: exclusive scan of the sequence counts (one block, one thread per sequence);
 *   move:   each warp walks its sequence again: per chunk a __ballot, lane offset
 *           __popc(ballot & lanemask_lt), the sequence's running offset grows by __popc(ballot).
 * Sequences are ordered, contiguous and non-overlapping, so the output is stable. */
#include "cpu.h"

#include <stdio.h>

/* Sequence count, as Billeter et al. configure it (blog part 2, "Default threading
 * configuration" and "Number of sequences"): Count and Move run 120 blocks of 128 threads, 4
 * warps each, so 480 warp sequences, and the Prefix step scans the 480 counts with 480 threads
 * of one block. Few, long sequences keep the metadata tiny (480 counts where Spataro's has one
 * per block, part 4) and let every warp stream through contiguous memory. */
#define BLOCKS          120
#define WARPS_PER_BLOCK 4
#define SEQUENCES       (BLOCKS * WARPS_PER_BLOCK)

/* Sequence lengths follow their recipe (part 2, "Size of the sequences"): the stream is cut
 * into data blocks of one warp load, each sequence gets blocks / sequences of them and the first
 * blocks % sequences one more. A data block here is a chunk of 32 elements, one per lane: the
 * blog's uint2/uint4 vector loads (part 4, "Lesson learned") change how a lane loads its share,
 * not which elements a warp owns, so they belong to the CUDA version. Where their code processes
 * the n mod 32 auxiliary elements separately, here they are the last, partial chunk of the last
 * sequence (its lanes past n are inactive), so the metadata stays one count per sequence. Short
 * streams use one sequence per chunk: a warp without a chunk would only write a zero count. */
typedef struct seq_layout {
    size_t sequences, chunks, per_seq, extra; /* extra = chunks % sequences */
} seq_layout;

static seq_layout make_layout(size_t n) {
    seq_layout L;
    L.chunks = (n + SC_WARP - 1) / SC_WARP;
    L.sequences = L.chunks < SEQUENCES ? L.chunks : SEQUENCES;
    L.per_seq = L.sequences ? L.chunks / L.sequences : 0;
    L.extra = L.sequences ? L.chunks % L.sequences : 0;
    return L;
}

/* Elements [*begin, *end) of sequence s. */
static void seq_range(const seq_layout *L, size_t n, size_t s, size_t *begin, size_t *end) {
    size_t first = s * L->per_seq + (s < L->extra ? s : L->extra);
    size_t len = L->per_seq + (s < L->extra);
    *begin = first * SC_WARP;
    *end = (first + len) * SC_WARP < n ? (first + len) * SC_WARP : n;
}

/* One line: how the chunks are dealt to the warp sequences. */
static void trace_layout(const sc_job *job, const seq_layout *L) {
    if (!sc_tracing(job) || !L->sequences) return;
    if (L->extra)
        sc_tracef(job,
                  "sequences   : %zu chunks of %d lanes, %zu warps: %zu of %zu chunks, %zu of %zu",
                  L->chunks, SC_WARP, L->sequences, L->extra, L->per_seq + 1,
                  L->sequences - L->extra, L->per_seq);
    else
        sc_tracef(job, "sequences   : %zu chunks of %d lanes, %zu warps of %zu chunks each",
                  L->chunks, SC_WARP, L->sequences, L->per_seq);
}

/* Count (part 4, device_prefix_kernel2): lane l sums the predicate over elements begin + l,
 * begin + l + 32, ...; warpReduceSum then adds the 32 partial sums with __shfl_down at offsets
 * 16, 8, 4, 2, 1 (lane l reads lane l + offset's value of the previous step), and lane 0 holds
 * the sequence's count. */
static size_t count_sequence(const uint8_t *flags, size_t begin, size_t end) {
    size_t sum[SC_WARP] = {0};
    for (size_t lane = 0; lane < SC_WARP; lane++)
        for (size_t i = begin + lane; i < end; i += SC_WARP) sum[lane] += flags[i] != 0;
    for (size_t offset = SC_WARP / 2; offset > 0; offset /= 2)
        for (size_t lane = 0; lane + offset < SC_WARP; lane++) sum[lane] += sum[lane + offset];
    return sum[0];
}

/* Move: the warp walks its sequence chunk by chunk from the sequence's global offset. */
static void move_sequence(const sc_job *job, size_t s, size_t begin, size_t end, size_t offset) {
    const size_t es = job->elem_size;
    if (sc_tracing(job))
        sc_tracef(job, "-- sequence %zu: elements [%zu, %zu), offset %zu", s, begin, end, offset);
    for (size_t c = begin; c < end; c += SC_WARP) {
        size_t lanes = end - c < SC_WARP ? end - c : SC_WARP;
        uint32_t b = sc_warp_ballot(job->flags + c, lanes);
        if (sc_tracing(job)) {
            sc_tracef(job, "chunk %-6zu: ballot 0x%08x, %u valid of %zu lanes, offset %zu",
                      c / SC_WARP, b, sc_popc32(b), lanes, offset);
            sc_trace_lanes(job, "out", b, lanes, offset);
        }
        for (size_t l = 0; l < lanes; l++)
            if ((b >> l) & 1u)
                sc_copy_elem(sc_elem(job->out, offset + sc_popc32(b & sc_lanemask_lt(l)), es),
                             sc_elem_c(job->in, c + l, es), es);
        offset += sc_popc32(b);
    }
}

sc_status sc_cpu_billeter(sc_job *job) {
    const size_t n = job->n;
    const seq_layout L = make_layout(n);
    const size_t p = sc_scan_tmp_elems(L.sequences);
    /* layout: counts[sequences] | prefix[sequences] | scan tmp[p] */
    size_t *counts = sc_scratch(job->ctx, (2 * L.sequences + p) * sizeof(size_t));
    if (!counts) return SC_ERR_OUT_OF_MEMORY;
    size_t *prefix = counts + L.sequences, *tmp = prefix + L.sequences;
    double t0 = sc_cpu_now_ms();

    sc_trace_flags(job, "flags", job->flags, n);
    trace_layout(job, &L);
    /* Count: forall warps (sequences) in parallel */
    const long long ns = (long long)L.sequences;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
    for (long long s = 0; s < ns; s++) {
        size_t begin, end;
        seq_range(&L, n, (size_t)s, &begin, &end);
        counts[s] = count_sequence(job->flags, begin, end);
    }
    sc_trace_sizes(job, "seq counts", counts, L.sequences);
    sc_cpu_phase(job, "count", &t0);

    /* Prefix: one block with one thread per sequence (part 2, "Number of sequences"). The
     * blog's rewrite scans with warp shuffles (part 5), which is recursive doubling: so
     * Hillis-Steele, whatever the tile (not a tunable of this algorithm). */
    size_t kept =
        sc_cpu_exclusive_scan(job, SC_SCAN_HILLIS_STEELE, counts, prefix, L.sequences, tmp, NULL);
    sc_trace_sizes(job, "seq prefix", prefix, L.sequences);
    sc_cpu_phase(job, "prefix", &t0);

    /* Move: forall warps (sequences) in parallel */
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536 && !job->opt.trace)
#endif
    for (long long s = 0; s < ns; s++) {
        size_t begin, end;
        seq_range(&L, n, (size_t)s, &begin, &end);
        move_sequence(job, (size_t)s, begin, end, prefix[s]);
    }
    sc_cpu_phase(job, "move", &t0);
    sc_tracef(job, "kept %zu of %zu", kept, n);
    job->kept = kept;
    return SC_OK;
}
