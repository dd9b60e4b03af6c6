/* jumping_jack.c: Jumping Jack (Moreira, Reis & de Sousa 2009, JJ paper §4, Alg. 2), tile by
 * tile inside the block-based framework (JJ paper §3.4). Per tile of s elements:
 *   pass 1: pSum = all-prefix-sum of the discriminated stream (1 = invalid; Alg. 1), and the
 *           max-allowable-size stream MAS[i] = s - pSum[i] (Eq. 1);
 *   pass 2: forall i < v in parallel: a valid element in [0, v) stays; a hole jumps through MAS
 *           until it lands on a valid element, which fills it (Alg. 2).
 * Each valid element at or beyond v is found by exactly one hole, so the output is a
 * permutation of the kept elements: unstable, with total work bounded by s - v jumps. */
#include "cpu.h"

#include <stdio.h>

/* Per-tile scratch: the discriminated stream, pSum, MAS, and the scan's temporary. */
static size_t jj_scratch_elems(size_t tile) {
    return 3 * tile + sc_scan_tmp_elems(tile);
}

/* Pass 1: pSum[i] = number of invalid elements in [0, i] (Alg. 1 computes the inclusive
 * all-prefix-sum; the shared scan is exclusive, so each element adds its own flag), then
 * Eq. 1: MAS[i] = s - pSum[i], the first index that surely lies beyond the compacted tile. */
static void jj_mas(const sc_job *job, const uint8_t *flags, size_t s, size_t *invalid, size_t *psum,
                   size_t *mas, size_t *tmp) {
    for (size_t i = 0; i < s; i++) invalid[i] = flags[i] == 0;
    sc_trace_sizes(job, "invalid", invalid, s);
    sc_cpu_exclusive_scan(job, job->scan, invalid, psum, s, tmp, "pSum");
    for (size_t i = 0; i < s; i++) psum[i] += invalid[i];
    sc_trace_sizes(job, "pSum", psum, s);
    for (size_t i = 0; i < s; i++) mas[i] = s - psum[i];
    sc_trace_sizes(job, "MAS", mas, s);
}

/* Alg. 2 loop body for position i: idx <- i; while data[idx] is not valid: idx <- MAS[idx].
 * A jump is one step idx <- MAS[idx]; a valid element in place takes none. */
static size_t jj_jump(const uint8_t *flags, const size_t *mas, size_t i, size_t *jumps) {
    size_t idx = i;
    *jumps = 0;
    while (!flags[idx]) {
        idx = mas[idx];
        ++*jumps;
    }
    return idx;
}

/* The trace line of hole i, with the positions it jumped through (shortened when long). */
static void jj_trace_hole(const sc_job *job, const uint8_t *flags, const size_t *mas, size_t i,
                          size_t found, size_t jumps) {
    char path[768];
    size_t pos = 0;
    for (size_t idx = i; pos < sizeof path - 32;) {
        pos +=
            (size_t)snprintf(path + pos, sizeof path - pos, "%s%zu", idx == i ? "" : " -> ", idx);
        if (flags[idx]) break;
        idx = mas[idx];
    }
    if (pos >= sizeof path - 32) snprintf(path + pos, sizeof path - pos, " -> ...");
    sc_tracef(job, "hole %zu <- %zu after %zu jumps: %s", i, found, jumps, path);
}

static size_t jj_tile(const sc_job *job, size_t t, const uint8_t *flags, size_t s, uint32_t *src,
                      void *scratch) {
    (void)t;
    size_t *invalid = scratch, *psum = invalid + s, *mas = psum + s, *tmp = mas + s;
    double t0 = sc_cpu_now_ms();
    sc_trace_flags(job, "flags", flags, s);
    jj_mas(job, flags, s, invalid, psum, mas, tmp);
    double t1 = sc_cpu_now_ms();
    sc_cpu_phase_add(job, "prefix sum", t1 - t0);

    /* Alg. 2: v <- MAS[s - 1]; forall i < v in parallel */
    size_t v = mas[s - 1];
    for (size_t i = 0; i < v; i++) {
        size_t jumps;
        src[i] = (uint32_t)jj_jump(flags, mas, i, &jumps);
        if (jumps && sc_tracing(job)) jj_trace_hole(job, flags, mas, i, src[i], jumps);
    }
    sc_cpu_phase_add(job, "jumps", sc_cpu_now_ms() - t1);
    return v;
}

sc_status sc_cpu_jumping_jack(sc_job *job) {
    return sc_cpu_blocks_run(job, jj_tile, jj_scratch_elems(job->tile) * sizeof(size_t));
}
