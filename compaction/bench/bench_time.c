/* bench_time.c: the one timing loop of every backend: warm-up, then timed runs on the input
 * sets in turn, in-place buffers refilled and flushed outside the timed region. */
#include "bench.h"
#include "timing.h"

#include <stdlib.h>

/* Every set's buffers are one allocation each, set s at s * stride bytes (256-byte aligned). */
void bench_sets_init(bench_sets *s, size_t n, size_t es, size_t k, int num_sets) {
    s->n = n;
    s->es = es;
    s->k = k;
    s->num_sets = num_sets;
    s->next = 0;
    s->in_stride = (n * es + 255) & ~(size_t)255;
    s->flags_stride = (n + 255) & ~(size_t)255;
    s->list_stride = (k * sizeof(uint32_t) + 255) & ~(size_t)255;
}

sc_status bench_last_choice(const bench_backend *b, sc_choice *out) {
    return sc_last_choice(((const bench_sets *)(const void *)b)->ctx, out);
}

const char *bench_policy_error(const bench_backend *b) {
    return sc_policy_error(((const bench_sets *)(const void *)b)->ctx);
}

void bench_phases(const bench_backend *b, const bench_job *job, sc_phase_timing *phases,
                  size_t *num_phases) {
    const int library =
        job->op == BENCH_OP_FLAGGED || job->op == BENCH_OP_REMOVE || job->op == BENCH_OP_AUTO_LIST;
    const sc_context *ctx = ((const bench_sets *)(const void *)b)->ctx;
    const size_t got = library ? sc_last_timings(ctx, phases, SC_MAX_PHASES) : 0;
    *num_phases = got < SC_MAX_PHASES ? got : SC_MAX_PHASES;
}

sc_status bench_time(const bench_ops *ops, bench_backend *b, const bench_job *job, int warmup,
                     int runs, double *ms) {
    bench_sets *sets = (bench_sets *)(void *)b; /* every backend's state starts with its sets */
    /* auto-list works in place only when auto takes a list algorithm, so a set is refilled only
     * after a run on it did: a flag choice is timed as its fixed algorithm, without a flush. */
    unsigned char *stale = NULL;
    sc_status st = SC_OK;
    if (job->op == BENCH_OP_AUTO_LIST) {
        stale = calloc((size_t)sets->num_sets, 1);
        if (!stale) return SC_ERR_OUT_OF_MEMORY;
        for (int i = 0; st == SC_OK && i < sets->num_sets; i++)
            st = ops->refill(b, job, i, i == sets->num_sets - 1);
    }
    if (st == SC_OK) st = ops->begin(b, job, runs);
    timing_runs t;
    timing_begin(&t, warmup, runs, ms);
    while (st == SC_OK && timing_next(&t)) {
        const int slot = timing_slot(&t), set = timing_rotate(&sets->next, sets->num_sets);
        int in_place = 0;
        if (bench_job_in_place(job) && (!stale || stale[set])) st = ops->refill(b, job, set, 1);
        if (st == SC_OK && slot >= 0) st = ops->stamp(b, slot, 0);
        if (st == SC_OK) st = ops->run(b, job, set, &in_place);
        if (st == SC_OK && slot >= 0) st = ops->stamp(b, slot, 1);
        if (stale) stale[set] = (unsigned char)in_place;
    }
    free(stale);
    return ops->end(b, st, runs, ms);
}
