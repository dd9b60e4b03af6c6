/* scan.c: exclusive prefix sums as the papers draw them (JJ paper Alg. 1, Fig. 2 and 3;
 * Moreira 2009 §3.5): Hillis-Steele recursive doubling and Blelloch's balanced tree. */
#include "cpu.h"

#include <stdio.h>

static size_t next_pow2(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

size_t sc_scan_tmp_elems(size_t n) {
    return next_pow2(n ? n : 1);
}

/* JJ paper Alg. 1 (recursive doubling): for d = 0 .. log2(s)-1: forall i in parallel:
 * x[i] = (i >= 2^d) ? x[i - 2^d] + x[i] : x[i]. Inclusive, then shifted to exclusive. */
static size_t hillis_steele(const sc_job *job, const size_t *in, size_t *out, size_t n, size_t *tmp,
                            const char *label) {
    size_t *cur = out, *nxt = tmp;
    for (size_t i = 0; i < n; i++) cur[i] = in[i];
    for (size_t d = 1; d < n; d <<= 1) {
        /* double-buffered so every read sees the previous round, as lock-step threads do */
        for (size_t i = 0; i < n; i++) nxt[i] = i >= d ? cur[i - d] + cur[i] : cur[i];
        size_t *t = cur;
        cur = nxt;
        nxt = t;
        if (label && sc_tracing(job)) {
            char name[48];
            snprintf(name, sizeof name, "%s d=%zu", label, d);
            sc_trace_sizes(job, name, cur, n);
        }
    }
    size_t total = n ? cur[n - 1] : 0;
    /* inclusive -> exclusive */
    for (size_t i = n; i-- > 1;) out[i] = cur[i - 1];
    if (n) out[0] = 0;
    return total;
}

/* Blelloch 1990: up-sweep (reduce) then down-sweep over the next power of two. */
static size_t blelloch(const sc_job *job, const size_t *in, size_t *out, size_t n, size_t *tmp,
                       const char *label) {
    size_t p = next_pow2(n);
    size_t *x = tmp;
    for (size_t i = 0; i < p; i++) x[i] = i < n ? in[i] : 0;
    for (size_t d = 1; d < p; d <<= 1) /* up-sweep: forall k step 2d: x[k+2d-1] += x[k+d-1] */
        for (size_t k = 0; k < p; k += 2 * d) x[k + 2 * d - 1] += x[k + d - 1];
    if (label && sc_tracing(job)) {
        char name[48];
        snprintf(name, sizeof name, "%s up", label);
        sc_trace_sizes(job, name, x, n);
    }
    size_t total = x[p - 1];
    x[p - 1] = 0;
    for (size_t d = p >> 1; d >= 1; d >>= 1) { /* down-sweep: swap and add */
        for (size_t k = 0; k < p; k += 2 * d) {
            size_t t = x[k + d - 1];
            x[k + d - 1] = x[k + 2 * d - 1];
            x[k + 2 * d - 1] += t;
        }
    }
    for (size_t i = 0; i < n; i++) out[i] = x[i];
    return total;
}

size_t sc_cpu_exclusive_scan(const sc_job *job, sc_scan variant, const size_t *in, size_t *out,
                             size_t n, size_t *tmp, const char *trace_label) {
    if (variant == SC_SCAN_BLELLOCH) return blelloch(job, in, out, n, tmp, trace_label);
    return hillis_steele(job, in, out, n, tmp, trace_label);
}
