/* horn.c: Horn's gather-search (Horn 2005; Moreira et al. 2009 §3.1), tile by tile inside the
 * block-based framework (JJ paper §3.4). Per tile of s elements:
 *   pass 1: pSum = all-prefix-sum of the discriminated stream (1 = invalid), so pSum[j] counts
 *           the invalid elements up to j and z = pSum[s - 1];
 *   pass 2: forall outputs c in [0, v) in parallel: binary-search the displacement d in [0, z]
 *           with pSum[c + d] = d and data[c + d] valid; output c gathers data[c + d].
 * Scatter becomes gather, and the order of the kept elements is preserved. */
#include "cpu.h"

/* Per-tile scratch: the discriminated stream, pSum, and the scan's temporary. */
static size_t horn_scratch_elems(size_t tile) {
    return 2 * tile + sc_scan_tmp_elems(tile);
}

/* Pass 1: pSum[j] = number of invalid elements in [0, j] (the papers' inclusive all-prefix-sum).
 * The shared scan is exclusive, so each element adds its own flag. Returns z. */
static size_t horn_prefix_sum(const sc_job *job, const uint8_t *flags, size_t s, size_t *invalid,
                              size_t *psum, size_t *tmp) {
    for (size_t j = 0; j < s; j++) invalid[j] = flags[j] == 0;
    sc_trace_sizes(job, "invalid", invalid, s);
    size_t z = sc_cpu_exclusive_scan(job, job->scan, invalid, psum, s, tmp, "pSum");
    for (size_t j = 0; j < s; j++) psum[j] += invalid[j];
    sc_trace_sizes(job, "pSum", psum, s);
    return z;
}

/* §3.1: binary search over d in [0, z] for pSum[c + d] = d with data[c + d] valid.
 * pSum[c + d] - d never grows with d: above 0 the source lies further right; below 0, or at 0
 * on an invalid element (the run of invalids after the source), it lies further left. */
static size_t horn_search(const uint8_t *flags, const size_t *psum, size_t c, size_t z,
                          size_t *steps) {
    size_t lo = 0, hi = z;
    *steps = 0;
    for (;;) {
        size_t d = lo + (hi - lo) / 2, j = c + d;
        ++*steps;
        if (psum[j] > d) {
            lo = d + 1;
        } else if (psum[j] < d || !flags[j]) {
            hi = d - 1;
        } else {
            return j;
        }
    }
}

static size_t horn_tile(const sc_job *job, size_t t, const uint8_t *flags, size_t s, uint32_t *src,
                        void *scratch) {
    (void)t;
    size_t *invalid = scratch, *psum = invalid + s, *tmp = psum + s;
    double t0 = sc_cpu_now_ms();
    sc_trace_flags(job, "flags", flags, s);
    size_t z = horn_prefix_sum(job, flags, s, invalid, psum, tmp), v = s - z;
    double t1 = sc_cpu_now_ms();
    sc_cpu_phase_add(job, "prefix sum", t1 - t0);

    /* pass 2: forall outputs c < v in parallel */
    for (size_t c = 0; c < v; c++) {
        size_t steps;
        src[c] = (uint32_t)horn_search(flags, psum, c, z, &steps);
        if (sc_tracing(job))
            sc_tracef(job, "output %zu <- data %zu (%zu search steps)", c, (size_t)src[c], steps);
    }
    sc_cpu_phase_add(job, "search", sc_cpu_now_ms() - t1);
    return v;
}

sc_status sc_cpu_horn(sc_job *job) {
    return sc_cpu_blocks_run(job, horn_tile, horn_scratch_elems(job->tile) * sizeof(size_t));
}
