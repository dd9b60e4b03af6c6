/* atomic.c: warp-aggregated atomic append, the unordered baseline. Warp w is elements
 * [32w, 32w + 32), lane l the element 32w + l; forall warps in parallel:
 *   ballot = __ballot_sync(full mask, pred);
 *   lane 0: base = atomicAdd(&counter, __popc(ballot))   (one atomic per warp, not per element);
 *   base = __shfl_sync(full mask, base, 0);
 *   if (pred) out[base + __popc(ballot & %lanemask_lt)] = in[i].
 * Within a warp the order is kept; between warps it is the order in which the atomics reach
 * the counter, so the output is a permutation of the kept elements that varies from run to run.
 * On the CPU the warps run in an OpenMP loop with an atomic capture on the counter, so the order
 * varies with the threads just as it does with the GPU's warp schedule. */
#include "cpu.h"

#include <stdio.h>
#include <stdlib.h>

#define SC_WARP    32
#define NO_RESERVE SIZE_MAX /* a warp with no valid lane skips the atomic */

/* One warp: ballot, one reservation by lane 0, then every valid lane writes. Returns the base
 * it reserved (NO_RESERVE for a warp without valid lanes). */
static size_t append_warp(const sc_job *job, size_t w, size_t *counter, uint32_t *ballot_out) {
    const size_t es = job->elem_size, first = w * SC_WARP;
    const size_t lanes = job->n - first < SC_WARP ? job->n - first : SC_WARP;
    const uint32_t b = sc_warp_ballot(job->flags + first, lanes);
    const size_t count = sc_popc32(b);
    *ballot_out = b;
    if (count == 0) return NO_RESERVE;
    size_t base; /* lane 0's atomicAdd, broadcast to the warp */
#ifdef _OPENMP
#pragma omp atomic capture
#endif
    {
        base = *counter;
        *counter += count;
    }
    for (size_t l = 0; l < lanes; l++)
        if ((b >> l) & 1u)
            sc_copy_elem(sc_elem(job->out, base + sc_popc32(b & sc_lanemask_lt(l)), es),
                         sc_elem_c(job->in, first + l, es), es);
    return base;
}

typedef struct reservation {
    size_t base, warp;
} reservation;

static int by_base(const void *a, const void *b) {
    size_t x = ((const reservation *)a)->base, y = ((const reservation *)b)->base;
    return (x > y) - (x < y);
}

/* The ballots per warp, then the reservations in the order they happened: each atomic add
 * returned the counter as the previous ones had left it, so that order is the order of the
 * bases. */
static void trace_append(const sc_job *job, const uint32_t *ballots, const size_t *bases,
                         size_t warps, reservation *r) {
    size_t k = 0;
    for (size_t w = 0; w < warps; w++) {
        size_t lanes = job->n - w * SC_WARP < SC_WARP ? job->n - w * SC_WARP : SC_WARP;
        sc_tracef(job, "warp %-7zu: ballot 0x%08x, %u valid of %zu lanes", w, ballots[w],
                  sc_popc32(ballots[w]), lanes);
        sc_trace_lanes(job, "lane offsets", ballots[w], lanes, 0);
        if (bases[w] != NO_RESERVE) r[k++] = (reservation){bases[w], w};
    }
    qsort(r, k, sizeof *r, by_base);
    sc_tracef(job, "reservations, in the order the atomic adds happened:");
    for (size_t i = 0; i < k; i++) {
        size_t w = r[i].warp, count = sc_popc32(ballots[w]);
        size_t lanes = job->n - w * SC_WARP < SC_WARP ? job->n - w * SC_WARP : SC_WARP;
        sc_tracef(job, "atomic %-5zu: warp %zu adds %zu: base %zu, writes out[%zu, %zu)", i + 1, w,
                  count, r[i].base, r[i].base, r[i].base + count);
        sc_trace_lanes(job, "out", ballots[w], lanes, r[i].base);
    }
}

sc_status sc_cpu_atomic(sc_job *job) {
    const size_t n = job->n, warps = (n + SC_WARP - 1) / SC_WARP;
    const int tracing = sc_tracing(job);
    /* the per-warp ballots and bases are kept only for the trace:
     * layout bases[warps] | reservations[warps] | ballots[warps] */
    size_t *bases = NULL;
    if (tracing) {
        bases = sc_scratch(job->ctx, warps * (2 * sizeof(size_t) + sizeof(reservation)) + 1);
        if (!bases) return SC_ERR_OUT_OF_MEMORY;
    }
    reservation *r = tracing ? (reservation *)(bases + warps) : NULL;
    uint32_t *ballots = tracing ? (uint32_t *)(r + warps) : NULL;
    size_t counter = 0;
    sc_trace_flags(job, "flags", job->flags, n);
    double t0 = sc_cpu_now_ms();

    /* forall warps in parallel; warps go round-robin to the threads so that their atomics
     * interleave on the counter */
    const long long nw = (long long)warps;
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1) if (nw > 1)
#endif
    for (long long w = 0; w < nw; w++) {
        uint32_t b;
        size_t base = append_warp(job, (size_t)w, &counter, &b);
        if (tracing) {
            bases[w] = base;
            ballots[w] = b;
        }
    }
    sc_cpu_phase(job, "append", &t0);

    if (tracing) trace_append(job, ballots, bases, warps, r);
    sc_tracef(job, "kept %zu of %zu", counter, n);
    job->kept = counter;
    return SC_OK;
}
