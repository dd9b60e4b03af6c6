/* rlz.c: Run-Lengths of Zeros (Moreira et al. 2009 §3.3), one tile at a time inside the
 * block-based framework. Per tile, the paper's three stages of §3.3.1 and the search of Alg. 1:
 *   run lengths: discriminate (removed = 1), the run of removed elements starting at every
 *                position by recursive doubling (Alg. 2) or by the balanced tree (Alg. 3 and 4),
 *                then keep only the lengths that start a run (second stage);
 *   prefix sum:  pRLSum = all-prefix-sum of those run lengths (third stage);
 *   search:      output i searches forward for its displacement (Alg. 1).
 * Stable: output i takes the i-th kept element of the tile. */
#include "cpu.h"

#include <stdio.h>

/* Per-tile scratch, in size_t, for a tile padded to p = next power of two <= job->tile:
 * disc[p] | rl[p] | frl[p] | prl[p] | tmp[p] | us[2p] | ds[2p]. */
#define RLZ_SCRATCH_ELEMS(p) (9 * (p))

typedef struct rlz_arrays {
    size_t *disc; /* discriminated tile: 1 = removed (the paper's "zeros" run), 0 = kept */
    size_t *rl;   /* run length of removed elements starting at each position */
    size_t *frl;  /* rl filtered to run starts */
    size_t *prl;  /* pRLSum */
    size_t *tmp;  /* scan scratch */
    size_t *us;   /* Alg. 3 up-sweep levels, level q at us + level_offset(p, q) */
    size_t *ds;   /* Alg. 4 down-sweep levels, same layout */
} rlz_arrays;

static size_t next_pow2(size_t n) {
    size_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

/* Level q of a tree over p leaves has p >> q nodes; the levels are stored leaves first. */
static size_t level_offset(size_t p, size_t q) {
    return 2 * p - ((2 * p) >> q);
}

static size_t log2_size(size_t p) {
    size_t l = 0;
    while (((size_t)1 << l) < p) l++;
    return l;
}

static void trace_level(const sc_job *job, const char *what, size_t q, const size_t *a, size_t n) {
    if (!sc_tracing(job)) return;
    char name[32];
    snprintf(name, sizeof name, "%s %zu", what, q);
    sc_trace_sizes(job, name, a, n);
}

/* Alg. 2 (recursive doubling, run lengths): RL starts as the discriminated data; round p with
 * offset = 2^(p-1): forall i < s - offset: if RL[i] = offset then RL[i] += RL[i + offset].
 * Visiting i upwards, RL[i + offset] is not yet written in this round, so every read sees the
 * previous round, exactly as the lock-step pass does. */
static void run_lengths_doubling(const sc_job *job, rlz_arrays *a, size_t m) {
    size_t *rl = a->rl;
    for (size_t i = 0; i < m; i++) rl[i] = a->disc[i];
    for (size_t offset = 1; offset < m; offset <<= 1) {
        for (size_t i = 0; i + offset < m; i++)
            if (rl[i] == offset) rl[i] += rl[i + offset];
        trace_level(job, "RL offset", offset, rl, m);
    }
}

/* Alg. 3 (up-sweep): US[q][i] = US[q-1][2i] + US[q-1][2i+1] if the left child is full
 * (= offset = 2^(q-1)), else US[q-1][2i]: each node holds the run starting at its leftmost leaf. */
static void up_sweep(const sc_job *job, size_t *us, size_t p, size_t levels) {
    for (size_t q = 1; q <= levels; q++) {
        const size_t offset = (size_t)1 << (q - 1);
        const size_t *prev = us + level_offset(p, q - 1);
        size_t *cur = us + level_offset(p, q);
        for (size_t i = 0; i < (p >> q); i++)
            cur[i] = prev[2 * i] == offset ? prev[2 * i] + prev[2 * i + 1] : prev[2 * i];
        trace_level(job, "US level", q, cur, p >> q);
    }
}

/* Alg. 4 (down-sweep): DS[L][0] = 0; a left (even) child takes its right sibling's up-sweep
 * value, plus the parent's DS if the sibling is full (= offset = 2^q); a right (odd) child takes
 * the parent's DS. DS[q][i] is the run starting right after node (q, i). */
static void down_sweep(const sc_job *job, const size_t *us, size_t *ds, size_t p, size_t levels) {
    ds[level_offset(p, levels)] = 0;
    for (size_t q = levels; q-- > 0;) {
        const size_t offset = (size_t)1 << q;
        const size_t *usq = us + level_offset(p, q), *parent = ds + level_offset(p, q + 1);
        size_t *cur = ds + level_offset(p, q);
        for (size_t i = 0; i < (p >> q); i++) {
            if (i % 2 == 0)
                cur[i] = usq[i + 1] == offset ? usq[i + 1] + parent[i / 2] : usq[i + 1];
            else
                cur[i] = parent[i / 2];
        }
        trace_level(job, "DS level", q, cur, p >> q);
    }
}

/* Alg. 3 and 4 over the tile padded with kept elements (0s end every run at the tile end).
 * Final adjustment (§3.3.1): DS[0] shifted one position to the right gives the run starting
 * at i >= 1; position 0 takes the run starting at the first element, which the root of the
 * up-sweep holds (the paper's "add the leftmost discriminated element" to the run after it,
 * disc[0] ? 1 + DS[0][0] : 0, is the same value). */
static void run_lengths_tree(const sc_job *job, rlz_arrays *a, size_t m) {
    const size_t p = next_pow2(m), levels = log2_size(p);
    for (size_t i = 0; i < p; i++) a->us[i] = i < m ? a->disc[i] : 0;
    up_sweep(job, a->us, p, levels);
    down_sweep(job, a->us, a->ds, p, levels);
    a->rl[0] = a->us[level_offset(p, levels)];
    for (size_t i = 1; i < m; i++) a->rl[i] = a->ds[i - 1];
}

/* §3.3.1 second stage: the wanted run lengths are the non-null ones with a null on their left. */
static void filter_run_starts(rlz_arrays *a, size_t m) {
    for (size_t i = 0; i < m; i++)
        a->frl[i] = a->rl[i] != 0 && (i == 0 || a->rl[i - 1] == 0) ? a->rl[i] : 0;
}

/* §3.3.1 third stage. The paper's all-prefix-sum is inclusive (§2), so pRLSum[i] counts the
 * run starting at i: it equals pSum at kept elements and exceeds it inside runs, which makes
 * the kept source the only fixed point of Alg. 1. Returns the removed count of the tile. */
static size_t prefix_sum(const sc_job *job, rlz_arrays *a, size_t m) {
    size_t total = sc_cpu_exclusive_scan(job, job->scan, a->frl, a->prl, m, a->tmp, "scan");
    for (size_t i = 0; i < m; i++) a->prl[i] += a->frl[i];
    return total;
}

/* Alg. 1: the first displacement with displacement = prlSum[i + displacement], tested in the
 * paper's faster form prlSum[i + d] = prlSum[i + prlSum[i + d]]. */
static size_t search(const size_t *prl, size_t i, size_t *steps) {
    size_t curr = prl[i];
    size_t next = prl[i + curr];
    *steps = 0;
    while (curr != next) {
        curr = prl[i + next];
        next = prl[i + curr];
        ++*steps;
    }
    return curr;
}

static double lap(const sc_job *job, const char *phase, double t0) {
    double t1 = sc_cpu_now_ms();
    sc_cpu_phase_add(job, phase, t1 - t0);
    return t1;
}

static size_t rlz_tile(const sc_job *job, size_t t, const uint8_t *flags, size_t m, uint32_t *src,
                       void *scratch) {
    (void)t;
    const size_t p = next_pow2(job->tile);
    size_t *s = scratch;
    rlz_arrays a = {s, s + p, s + 2 * p, s + 3 * p, s + 4 * p, s + 5 * p, s + 7 * p};
    double t0 = sc_cpu_now_ms();

    for (size_t i = 0; i < m; i++) a.disc[i] = flags[i] == 0;
    sc_trace_flags(job, "flags", flags, m);
    sc_trace_sizes(job, "removed", a.disc, m);
    if (job->rlz == SC_RLZ_BALANCED_TREE)
        run_lengths_tree(job, &a, m);
    else
        run_lengths_doubling(job, &a, m);
    sc_trace_sizes(job, "run lengths", a.rl, m);
    filter_run_starts(&a, m);
    sc_trace_sizes(job, "run starts", a.frl, m);
    t0 = lap(job, "run lengths", t0);

    const size_t v = m - prefix_sum(job, &a, m);
    sc_trace_sizes(job, "pRLSum", a.prl, m);
    t0 = lap(job, "prefix sum", t0);

    /* Alg. 1: forall positions i in [0, v[ in parallel. */
    for (size_t i = 0; i < v; i++) {
        size_t steps, d = search(a.prl, i, &steps);
        src[i] = (uint32_t)(i + d);
        if (sc_tracing(job))
            sc_tracef(job, "output %zu <- data %zu (displacement %zu, %zu loop rounds)", i, i + d,
                      d, steps);
    }
    lap(job, "search", t0);
    return v;
}

sc_status sc_cpu_rlz(sc_job *job) {
    const size_t p = next_pow2(job->tile);
    return sc_cpu_blocks_run(job, rlz_tile, RLZ_SCRATCH_ELEMS(p) * sizeof(size_t));
}
