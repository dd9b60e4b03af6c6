/* spataro.c: Spataro's 3-phase compaction (Spataro 2015, "Stream Compaction on GPU - Efficient
 * implementation - CUDA"), written as its three kernels. A block is job->tile elements, one per
 * thread; warp w of a block is its elements [32w, 32w + 32), lane l the element 32w + l.
 *   count: computeBlockCounts: BC = __syncthreads_count(pred), one count per block;
 *   scan:  exclusive scan of the block counts (the post calls thrust::exclusive_scan; here the
 *          library's scan, Hillis-Steele below tile 128, Blelloch above);
 *   move:  per warp t_u = __popc(__ballot(pred) & t_m); the warp totals are scanned bit slice
 *          by bit slice with __ballot/__popc; each valid thread writes
 *          d_output[t_u + warpTotals[w_i] + d_BlocksOffset[blockIdx.x]]. Stable. */
#include "cpu.h"

#include <stdio.h>

/* Warp totals run from 0 to 32, so they have six bit slices. The post loops j < log2(warpSize)
 * = 5 times, which drops bit 5: the total of a warp whose 32 lanes are all valid. */
#define TOTAL_BITS 6
#define MAX_WARPS  (SC_TILE_MAX / SC_WARP)

/* Phase 1 (computeBlockCounts): each thread of block b passes its predicate to
 * __syncthreads_count, which returns the block's number of valid elements; threads past n
 * pass 0. Thread 0 stores it in d_BlockCounts[b]. */
static void count_blocks(const sc_job *job, size_t blocks, size_t *counts) {
    const size_t n = job->n, s = job->tile;
    const long long nb = (long long)blocks;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
    for (long long b = 0; b < nb; b++) {
        size_t base = (size_t)b * s, end = n - base < s ? n : base + s, bc = 0;
        for (size_t i = base; i < end; i++) bc += job->flags[i] != 0;
        counts[b] = bc;
    }
}

/* One bit slice of the warp-total scan: b_j and what each warp's lane adds. */
static void trace_slice(const sc_job *job, unsigned j, uint32_t b_j, size_t k) {
    char line[512];
    size_t pos = (size_t)snprintf(line, sizeof line, "bit %u       : b_j 0x%08x adds", j, b_j);
    for (size_t l = 0; l < k && pos < sizeof line - 16; l++)
        pos += (size_t)snprintf(line + pos, sizeof line - pos, " %3u",
                                sc_popc32(b_j & sc_lanemask_lt(l)) << j);
    sc_tracef(job, "%s", line);
}

/* Phase 3, step 2: lane w_l of one warp holds warpTotals[w_l] (k <= 32 lanes). For each bit j,
 * b_j = __ballot(warpTotals[w_l] & pow2i(j)) is bit column j of the totals, and lane w_l adds
 * __popc(b_j & t_m) << j: bit j of every lower warp's total. After the last slice lane w_l holds
 * the exclusive scan of the totals, written back in place. Returns the sum of the k totals. */
static uint32_t bit_sliced_scan(const sc_job *job, uint32_t *totals, size_t k) {
    uint32_t w_i_u[SC_WARP] = {0};
    for (unsigned j = 0; j < TOTAL_BITS; j++) {
        uint32_t b_j = 0;
        for (size_t l = 0; l < k; l++) b_j |= ((totals[l] >> j) & 1u) << l;
        for (size_t l = 0; l < k; l++) w_i_u[l] += sc_popc32(b_j & sc_lanemask_lt(l)) << j;
        if (sc_tracing(job) && k > 1) trace_slice(job, j, b_j, k);
    }
    uint32_t sum = 0;
    for (size_t l = 0; l < k; l++) {
        sum += totals[l];
        totals[l] = w_i_u[l];
    }
    return sum;
}

/* Phase 3 (the move kernel) for block b, whose output starts at `offset`. `totals` is the
 * block's warpTotals (shared memory on the GPU). */
static void move_block(const sc_job *job, size_t b, size_t offset, uint32_t *totals) {
    const size_t es = job->elem_size, base = b * job->tile;
    const size_t m = job->n - base < job->tile ? job->n - base : job->tile;
    const size_t warps = (m + SC_WARP - 1) / SC_WARP;
    /* each thread keeps its t_u in a register from step 1 to step 3; the warp's ballot holds
     * what its 32 lanes need for that */
    uint32_t ballots[MAX_WARPS];
    if (sc_tracing(job))
        sc_tracef(job, "-- block %zu: elements [%zu, %zu), block offset %zu", b, base, base + m,
                  offset);

    /* step 1: b = __ballot(pred) & t_m, t_u = __popc(b); lane 31 stores t_u + pred, which is
     * the warp's valid count: warpTotals[w_i] = __popc(ballot). */
    for (size_t w = 0; w < warps; w++) {
        size_t lanes = m - w * SC_WARP < SC_WARP ? m - w * SC_WARP : SC_WARP;
        ballots[w] = sc_warp_ballot(job->flags + base + w * SC_WARP, lanes);
        totals[w] = sc_popc32(ballots[w]);
        if (sc_tracing(job)) {
            sc_tracef(job, "warp %-7zu: ballot 0x%08x, %u valid of %zu lanes", w, ballots[w],
                      totals[w], lanes);
            sc_trace_lanes(job, "lane offsets", ballots[w], lanes, 0);
        }
    }

    /* step 2 (after __syncthreads): one warp scans the warp totals bit by bit. The post assumes
     * blockDim / warpSize <= warpSize; a 2048-element block has 64 warps, so warp g scans the
     * totals of warps [32g, 32g + 32) and group g + 1 adds group g's sum. */
    if (sc_tracing(job)) sc_trace_u32(job, "warp totals", totals, warps);
    uint32_t carry = 0;
    for (size_t g = 0; g < warps; g += SC_WARP) {
        size_t k = warps - g < SC_WARP ? warps - g : SC_WARP;
        if (sc_tracing(job) && warps > SC_WARP)
            sc_tracef(job, "scan warp %zu: totals of warps [%zu, %zu), plus %u before them",
                      g / SC_WARP, g, g + k, carry);
        uint32_t sum = bit_sliced_scan(job, totals + g, k);
        for (size_t l = 0; l < k; l++) totals[g + l] += carry;
        carry += sum;
    }
    if (sc_tracing(job)) sc_trace_u32(job, "warp offsets", totals, warps);

    /* step 3: if (pred) d_output[t_u + warpTotals[w_i] + d_BlocksOffset[blockIdx.x]] = input */
    for (size_t w = 0; w < warps; w++) {
        size_t lanes = m - w * SC_WARP < SC_WARP ? m - w * SC_WARP : SC_WARP,
               first = base + w * SC_WARP;
        if (sc_tracing(job)) {
            char label[40]; /* "warp " and any size_t: no truncation */
            snprintf(label, sizeof label, "warp %zu out", w);
            sc_trace_lanes(job, label, ballots[w], lanes, offset + totals[w]);
        }
        for (size_t l = 0; l < lanes; l++)
            if ((ballots[w] >> l) & 1u)
                sc_copy_elem(sc_elem(job->out,
                                     offset + totals[w] + sc_popc32(ballots[w] & sc_lanemask_lt(l)),
                                     es),
                             sc_elem_c(job->in, first + l, es), es);
    }
}

sc_status sc_cpu_spataro(sc_job *job) {
    const size_t n = job->n, s = job->tile;
    const size_t blocks = (n + s - 1) / s, warps = (n + SC_WARP - 1) / SC_WARP;
    const size_t p = sc_scan_tmp_elems(blocks);
    /* layout: d_BlocksCount[blocks] | d_BlocksOffset[blocks] | scan tmp[p] | warpTotals[warps] */
    size_t *counts = sc_scratch(job->ctx, (2 * blocks + p) * sizeof(size_t) + warps * 4);
    if (!counts) return SC_ERR_OUT_OF_MEMORY;
    size_t *offsets = counts + blocks, *tmp = offsets + blocks;
    uint32_t *totals = (uint32_t *)(tmp + p);
    double t0 = sc_cpu_now_ms();

    sc_trace_flags(job, "flags", job->flags, n);
    count_blocks(job, blocks, counts);
    sc_trace_sizes(job, "block counts", counts, blocks);
    sc_cpu_phase(job, "count", &t0);

    size_t kept = sc_cpu_exclusive_scan(job, job->scan, counts, offsets, blocks, tmp, NULL);
    sc_trace_sizes(job, "block offset", offsets, blocks);
    sc_cpu_phase(job, "scan", &t0);

    /* forall blocks in parallel; block b's warps use warpTotals[b * tile / 32 ..] */
    const long long nb = (long long)blocks;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536 && !job->opt.trace)
#endif
    for (long long b = 0; b < nb; b++)
        move_block(job, (size_t)b, offsets[b], totals + (size_t)b * (s / SC_WARP));
    sc_cpu_phase(job, "move", &t0);
    sc_tracef(job, "kept %zu of %zu", kept, n);
    job->kept = kept;
    return SC_OK;
}
