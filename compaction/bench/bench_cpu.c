/* bench_cpu.c: the CPU backend of `compact bench`: host buffers, runs stamped by the monotonic
 * clock (timing.h) for the timing loop of bench_time.c, and the copy and scatter limits as plain
 * loops. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct bench_backend {
    bench_sets s; /* first: bench_time reads it */
    unsigned char *in, *out, *flags, *list;
    double *t0, *t1; /* each timed run's stamps */
    int num_stamps;
    unsigned char *flush; /* written between a refill and the timed run, to evict the refill */
    size_t flush_bytes;
    unsigned char *alt; /* auto-list's output when auto takes a flag algorithm */
    size_t alt_bytes;
    void *result; /* where auto-list's last result lies: a set's out, or alt */
};

typedef struct cpu_set {
    unsigned char *in, *out;
    uint8_t *flags;
    uint32_t *list;
} cpu_set;

static cpu_set set_of(const bench_backend *b, int s) {
    const bench_sets *g = &b->s;
    cpu_set set = {b->in + (size_t)s * g->in_stride, b->out + (size_t)s * g->in_stride,
                   b->flags + (size_t)s * g->flags_stride,
                   (uint32_t *)(void *)(b->list + (size_t)s * g->list_stride)};
    return set;
}

/* "model name : Intel(R) ..." from /proc/cpuinfo, where there is one. */
static void cpu_name(char *name, size_t cap) {
    snprintf(name, cap, "cpu");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) || !colon) continue;
        colon += 1 + (colon[1] == ' ');
        colon[strcspn(colon, "\n")] = 0;
        snprintf(name, cap, "%s", colon);
        break;
    }
    fclose(f);
}

/* The last-level cache one core sees: sysfs gives the slice ("32768K"), where sysconf may
 * give the whole package's. */
static size_t cpu_cache_bytes(void) {
    size_t best = 0;
    for (int i = 0; i < 8; i++) {
        char path[80];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        unsigned long v = 0;
        char unit = 0;
        if (fscanf(f, "%lu%c", &v, &unit) >= 1) {
            size_t bytes = unit == 'K' ? (size_t)v << 10 : unit == 'M' ? (size_t)v << 20 : v;
            if (bytes > best) best = bytes;
        }
        fclose(f);
    }
    long conf = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (!best) conf = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
    if (!best) best = conf > 0 ? (size_t)conf : (size_t)32 << 20;
    return best;
}

static void cpu_close(bench_backend *b);

static sc_status cpu_open(bench_backend **out, bench_device *dev) {
    bench_backend *b = calloc(1, sizeof *b);
    if (!b) return SC_ERR_OUT_OF_MEMORY;
    sc_status s = sc_context_create(SC_BACKEND_CPU, &b->s.ctx);
    if (s != SC_OK) {
        free(b);
        return s;
    }
    memset(dev, 0, sizeof *dev);
    char model[96];
    cpu_name(model, sizeof model);
    snprintf(dev->name, sizeof dev->name, "%s (%ld cores)", model, sysconf(_SC_NPROCESSORS_ONLN));
    dev->cache_bytes = cpu_cache_bytes();
    b->flush_bytes = bench_warm ? 0 : 2 * dev->cache_bytes;
    b->flush = b->flush_bytes ? malloc(b->flush_bytes) : NULL;
    if (b->flush_bytes && !b->flush) {
        cpu_close(b);
        return SC_ERR_OUT_OF_MEMORY;
    }
    *out = b;
    return SC_OK;
}

static void free_sets(bench_backend *b) {
    free(b->in);
    free(b->out);
    free(b->flags);
    free(b->list);
    b->in = b->out = b->flags = b->list = NULL;
    b->s.num_sets = 0;
}

static void cpu_close(bench_backend *b) {
    if (!b) return;
    free_sets(b);
    free(b->flush);
    free(b->alt);
    free(b->t0);
    free(b->t1);
    sc_context_destroy(b->s.ctx);
    free(b);
}

static sc_status cpu_alloc(bench_backend *b, size_t n, size_t es, size_t k, int num_sets) {
    free_sets(b);
    bench_sets_init(&b->s, n, es, k, num_sets);
    size_t sets = (size_t)num_sets;
    b->in = malloc(sets * b->s.in_stride);
    b->out = malloc(sets * b->s.in_stride);
    b->flags = malloc(sets * b->s.flags_stride);
    b->list = malloc(sets * b->s.list_stride + 256);
    if (!b->in || !b->out || !b->flags || !b->list) {
        free_sets(b);
        return SC_ERR_OUT_OF_MEMORY;
    }
    return SC_OK;
}

static sc_status cpu_load(bench_backend *b, const bench_input *in) {
    for (int i = 0; i < b->s.num_sets; i++) {
        cpu_set s = set_of(b, i);
        memcpy(s.in, in->data, b->s.n * b->s.es);
        memcpy(s.flags, in->flags, b->s.n);
        memset(s.out, 0, b->s.n * b->s.es); /* first touch here, not in a timed run */
    }
    return SC_OK;
}

static sc_status cpu_load_list(bench_backend *b, const uint32_t *removed) {
    for (int i = 0; i < b->s.num_sets; i++)
        memcpy(set_of(b, i).list, removed, b->s.k * sizeof(uint32_t));
    return SC_OK;
}

/* auto-list's spare output buffer, grown before the runs that need it. */
static sc_status ensure_alt(bench_backend *b, const bench_job *job) {
    size_t bytes = b->s.n * b->s.es + 64;
    if (job->op != BENCH_OP_AUTO_LIST || bytes <= b->alt_bytes) return SC_OK;
    free(b->alt);
    b->alt_bytes = 0;
    b->alt = malloc(bytes);
    if (!b->alt) return SC_ERR_OUT_OF_MEMORY;
    b->alt_bytes = bytes;
    return SC_OK;
}

static sc_status run_op(bench_backend *b, const bench_job *job, const sc_options *opt,
                        const cpu_set *s, size_t *kept) {
    const size_t n = b->s.n, es = b->s.es, k = b->s.k;
    switch (job->op) {
    case BENCH_OP_FLAGGED:
        return sc_compact_flagged(b->s.ctx, job->algo, s->in, s->flags, s->out, n, es, opt, kept);
    case BENCH_OP_REMOVE:
        return sc_remove_indices(b->s.ctx, job->algo, s->out, n, es, s->list, k, opt, kept);
    case BENCH_OP_COPY:
        memcpy(s->out, s->in, n * es);
        *kept = n;
        return SC_OK;
    case BENCH_OP_SCATTER:
        for (size_t i = 0; i < k; i++) memcpy(s->out + (size_t)s->list[i] * es, s->in + i * es, es);
        *kept = n - k;
        return SC_OK;
    case BENCH_OP_AUTO_LIST:
        return sc_compact_any(b->s.ctx, job->algo, s->out, s->flags, b->alt, n, es, s->list, k, opt,
                              kept, &b->result);
    case BENCH_OP_PARTITION:
        return sc_partition(b->s.ctx, job->algo, s->in, s->flags, s->out, n, es, job->num_keys, opt,
                            kept);
    case BENCH_OP_THRUST:
    case BENCH_OP_THRUST_LIST:
        break;
    }
    return SC_ERR_UNSUPPORTED;
}

/* ---- the steps of bench_time ---- */

static sc_status cpu_begin(bench_backend *b, const bench_job *job, int runs) {
    if (job->op == BENCH_OP_THRUST || job->op == BENCH_OP_THRUST_LIST) return SC_ERR_UNSUPPORTED;
    if (runs > b->num_stamps) {
        free(b->t0);
        free(b->t1);
        b->t0 = malloc((size_t)runs * sizeof *b->t0);
        b->t1 = malloc((size_t)runs * sizeof *b->t1);
        b->num_stamps = b->t0 && b->t1 ? runs : 0;
        if (!b->num_stamps) return SC_ERR_OUT_OF_MEMORY;
    }
    return ensure_alt(b, job);
}

/* The refill, then a write of twice the cache that pushes it out (none with --warm). */
static sc_status cpu_refill(bench_backend *b, const bench_job *job, int set, int flush) {
    (void)job;
    cpu_set s = set_of(b, set);
    memcpy(s.out, s.in, b->s.n * b->s.es);
    if (flush && b->flush) memset(b->flush, set & 0xff, b->flush_bytes);
    return SC_OK;
}

static sc_status cpu_stamp(bench_backend *b, int slot, int stop) {
    (stop ? b->t1 : b->t0)[slot] = timing_now_ms();
    return SC_OK;
}

static sc_status cpu_run(bench_backend *b, const bench_job *job, int set, int *in_place) {
    cpu_set s = set_of(b, set);
    size_t kept[SC_PARTITION_MAX_KEYS];
    sc_status st = run_op(b, job, &job->opt, &s, kept);
    *in_place = b->result == s.out;
    return st;
}

static sc_status cpu_end(bench_backend *b, sc_status st, int runs, double *ms) {
    for (int r = 0; st == SC_OK && r < runs; r++) ms[r] = b->t1[r] - b->t0[r];
    return st;
}

static sc_status cpu_run_once(bench_backend *b, const bench_job *job, int timing, void *out,
                              size_t *kept, sc_phase_timing *phases, size_t *num_phases) {
    cpu_set set = set_of(b, 0), *s = &set;
    sc_options opt = job->opt;
    opt.timing = timing;
    sc_status e = ensure_alt(b, job);
    if (e != SC_OK) return e;
    if (job->op == BENCH_OP_AUTO_LIST) memset(b->alt, 0xA5, b->alt_bytes);
    if (bench_job_in_place(job))
        memcpy(s->out, s->in, b->s.n * b->s.es);
    else if (out) /* poison, so that a result left by an earlier operation cannot pass */
        memset(s->out, 0xA5, b->s.n * b->s.es);
    sc_status st = run_op(b, job, &opt, s, kept);
    if (st != SC_OK) return st;
    const void *result = job->op == BENCH_OP_AUTO_LIST ? b->result : s->out;
    if (out) memcpy(out, result, b->s.n * b->s.es);
    if (num_phases) bench_phases(b, job, phases, num_phases);
    return SC_OK;
}

const bench_ops bench_cpu_ops = {
    SC_BACKEND_CPU, cpu_open,   cpu_close, cpu_alloc, cpu_load, cpu_load_list,
    cpu_begin,      cpu_refill, cpu_stamp, cpu_run,   cpu_end,  cpu_run_once,
};
