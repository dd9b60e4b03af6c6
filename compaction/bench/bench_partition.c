/* bench_partition.c: `compact bench --partition K`: per n and element size, the stable K-way
 * partition by random keys with every algorithm the backend has beside the flagged compaction
 * of the same n (a partition moves every element once, so the ratio is its K-way bookkeeping);
 * each checked against a serial one on the host, then timed by bench_time. */
#include "bench_partition.h"

#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The serial stable partition (or compaction: keys = !flag, one key kept) of the case. */
static int part_check(const bench_part_case *c, const bench_part_result *r, char *why, size_t cap) {
    size_t es = c->elem_size, counts[SC_PARTITION_MAX_KEYS] = {0};
    unsigned groups = c->kind == BENCH_PART_PARTITION ? c->num_keys : 1;
    for (size_t i = 0; i < c->n; i++) {
        if (c->kind == BENCH_PART_PARTITION)
            counts[c->keys[i]]++;
        else if (c->flags[i])
            counts[0]++;
    }
    for (unsigned k = 0; k < groups; k++)
        if (counts[k] != r->counts[k]) {
            snprintf(why, cap, "key %u: count %zu, the serial reference says %zu", k, r->counts[k],
                     counts[k]);
            return -1;
        }
    size_t start[SC_PARTITION_MAX_KEYS], at = 0;
    for (unsigned k = 0; k < groups; k++) {
        start[k] = at;
        at += counts[k];
    }
    /* unstable algorithms are not offered here: the order is checked exactly */
    for (size_t i = 0; i < c->n; i++) {
        unsigned k;
        if (c->kind == BENCH_PART_PARTITION)
            k = c->keys[i];
        else if (c->flags[i])
            k = 0;
        else
            continue;
        size_t j = start[k]++;
        if (memcmp(r->out + j * es, c->in + i * es, es) != 0) {
            snprintf(why, cap, "output slot %zu is not input element %zu (serial reference)", j, i);
            return -1;
        }
    }
    return 0;
}

/* One case on input sets already loaded: one checked run, then the timed ones. */
static int part_time(const bench_ops *ops, bench_backend *b, const bench_part_case *c,
                     bench_part_result *r, double *ms, char *why, size_t cap) {
    bench_job job;
    memset(&job, 0, sizeof job);
    job.op = c->kind == BENCH_PART_PARTITION ? BENCH_OP_PARTITION : BENCH_OP_FLAGGED;
    job.algo = c->algo;
    job.num_keys = c->num_keys;
    sc_options_init(&job.opt);
    sc_status st = ops->run_once(b, &job, 0, r->out, r->counts, NULL, NULL);
    if (st == SC_OK && part_check(c, r, why, cap) != 0) return -1;
    if (st == SC_OK) st = bench_time(ops, b, &job, c->warmup, c->runs, ms);
    if (st != SC_OK) {
        const char *detail = sc_last_error_detail(((const bench_sets *)(const void *)b)->ctx);
        snprintf(why, cap, "%s%s%s", sc_status_string(st), detail[0] ? ": " : "", detail);
        return -1;
    }
    timing_stats ts = timing_summary(ms, c->runs);
    r->median_ms = ts.median;
    r->min_ms = ts.min;
    r->max_ms = ts.max;
    return 0;
}

static void part_print_row(const char *name, const bench_part_case *c, const bench_part_result *r,
                           double compact_ms) {
    /* bytes moved at the least: the keys or flags read once, every element in and out for a
     * partition, every element in and the kept ones out for a compaction */
    double out = c->kind == BENCH_PART_PARTITION ? (double)c->n : (double)r->counts[0];
    double gbs = ((double)c->n * ((double)c->elem_size + 1.0) + out * (double)c->elem_size) /
                 (r->median_ms * 1e6);
    char ratio[16] = "-";
    if (compact_ms > 0.0) snprintf(ratio, sizeof ratio, "%.2f", r->median_ms / compact_ms);
    printf("%-22s %11zu %4zu %4u %10.4f %10.4f %10.4f %8.1f %9s\n", name, c->n, c->elem_size,
           c->kind == BENCH_PART_PARTITION ? c->num_keys : 0u, r->median_ms, r->min_ms, r->max_ms,
           gbs, ratio);
    char line[160];
    if (timing_noisy_line(line, sizeof line, name, r->min_ms, r->max_ms, c->runs, "runs"))
        printf("  %s\n", line);
}

/* Every case of one n and element size, on `sets` input sets; the number that failed, or -1
 * when the input sets cannot be made. */
static int part_size(const bench_opts *o, const bench_ops *ops, bench_backend *b, size_t n,
                     size_t es, int sets, const sc_algorithm *algos, int nc, int np, double *ms) {
    unsigned char *in = malloc(n * es), *out = malloc(n * es);
    uint8_t *keys = malloc(n), *flags = malloc(n);
    int failures = -1;
    if (!in || !out || !keys || !flags || ops->alloc(b, n, es, 0, sets) != SC_OK) {
        fprintf(stderr, "compact bench: out of memory for n = %zu\n", n);
        goto done;
    }
    uint64_t s = (uint64_t)o->seed * 0x9E3779B97F4A7C15ull + n * 31 + es;
    for (size_t i = 0; i < n * es; i++) in[i] = (unsigned char)(cli_rand(&s) >> 56);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = cli_rand(&s);
        keys[i] = (uint8_t)((x >> 32) % o->partition);
        flags[i] = (uint8_t)(x & 1);
    }
    double compact_ms = 0.0;
    failures = 0;
    for (int k = 0; k < nc + np; k++) {
        bench_part_case c = {.kind = k < nc ? BENCH_PART_COMPACT : BENCH_PART_PARTITION,
                             .algo = algos[k],
                             .n = n,
                             .elem_size = es,
                             .num_keys = o->partition,
                             .runs = o->runs,
                             .warmup = o->warmup,
                             .in = in,
                             .keys = keys,
                             .flags = flags};
        bench_part_result r = {.out = out};
        char why[256] = "", name[64];
        snprintf(name, sizeof name, "%s%s", k < nc ? "compact " : "",
                 sc_algorithm_get(c.algo)->name);
        if (!o->quiet) fprintf(stderr, "compact bench: %s n=%zu elem=%zu\n", name, n, es);
        /* the compactions read the flags, the partitions the keys, from the same buffer */
        bench_input input = {.n = n, .elem_size = es, .data = in, .flags = k < nc ? flags : keys};
        int rc = ops->load(b, &input) == SC_OK ? 0 : -1;
        if (rc != 0) snprintf(why, sizeof why, "loading the input failed");
        if (rc == 0) rc = part_time(ops, b, &c, &r, ms, why, sizeof why);
        if (rc != 0) {
            fprintf(stderr, "compact bench: %s n=%zu elem=%zu: %s\n", name, n, es, why);
            failures++;
        } else {
            if (k == 0) compact_ms = r.median_ms;
            part_print_row(name, &c, &r, compact_ms);
        }
    }
done:
    free(in);
    free(out);
    free(keys);
    free(flags);
    return failures;
}

int bench_partition(const bench_opts *o) {
    bench_backend *b = NULL;
    bench_device dev;
    const bench_ops *ops = bench_backend_open(o->backend, &b, &dev);
    if (!ops) return BENCH_EXIT_ERROR;
    /* the compactions first (the first one is what 'x compact' divides by), then every
     * partition algorithm */
    sc_algorithm algos[SC_ALGO_COUNT + 2];
    int nc = 0, np = 0;
    if (o->backend == SC_BACKEND_CUDA) {
        algos[nc++] = SC_ALGO_SINGLE_PASS;
        algos[nc++] = SC_ALGO_CUB;
    } else {
        algos[nc++] = SC_ALGO_SCAN_SCATTER;
    }
    for (int a = 0; a < SC_ALGO_COUNT; a++)
        if (sc_partition_available((sc_algorithm)a, o->backend)) algos[nc + np++] = (sc_algorithm)a;
    printf("partition into %u keys, %s backend (%s), median of %d runs after %d warm-up\n",
           o->partition, sc_backend_name(o->backend), dev.name, o->runs, o->warmup);
    printf("%-22s %11s %4s %4s %10s %10s %10s %8s %9s\n", "algorithm", "n", "elem", "keys",
           "median ms", "min ms", "max ms", "GB/s", "x compact");
    double *ms = malloc((size_t)o->runs * sizeof *ms);
    int failures = ms ? 0 : 1;
    for (int i = 0; ms && i < o->num_n; i++)
        for (int e = 0; e < o->num_elem; e++) {
            /* as many input sets as cover twice the cache, at least 2, at most 8 */
            size_t bytes = o->n[i] * o->elem[e] + o->n[i];
            int sets = (int)((2 * dev.cache_bytes + bytes - 1) / bytes);
            sets = sets < 2 ? 2 : sets > 8 ? 8 : sets;
            int f = part_size(o, ops, b, o->n[i], o->elem[e], sets, algos, nc, np, ms);
            failures += f < 0 ? 1 : f;
        }
    fflush(stdout);
    free(ms);
    ops->close(b);
    return failures ? BENCH_EXIT_ERROR : 0;
}
