/* bench_partition.c: `compact bench --partition K`. For each n and element size: the stable
 * K-way partition by uniform random keys (sc_partition) with every algorithm the backend has,
 * and, in the same run, the flagged compaction of the same n (half the elements removed at
 * random) with single-pass and cub (CUDA) or scan-scatter (CPU): a partition moves every
 * element once, like a compaction that keeps all of them, so the ratio says what its K-way
 * bookkeeping costs. Every result is checked once against a serial stable partition (or
 * compaction) on the host before its times are printed. */
#include "bench_partition.h"

#include "num_parse.h"
#include "timing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PART_MAX_LIST 16

typedef struct part_opts {
    sc_backend backend;
    unsigned keys;
    size_t n[PART_MAX_LIST], elem[PART_MAX_LIST];
    int num_n, num_elem;
    int runs, warmup, quiet;
    uint64_t seed;
} part_opts;

static void part_usage(FILE *f) {
    fprintf(f,
            "usage: compact bench --partition K [--backend cpu|cuda] [--n LIST] [--elem LIST]\n"
            "                     [--runs N] [--warmup N] [--seed S] [--quiet]\n"
            "\n"
            "Times the stable K-way partition (sc_partition, K = 1..%u keys drawn uniformly at\n"
            "random) of every algorithm the backend has, and in the same run the flagged\n"
            "compaction of the same n with half the elements removed (CUDA: single-pass and\n"
            "cub; CPU: scan-scatter). 'x compact' is the partition's time over the first\n"
            "compaction's. Each result is checked once against a serial stable partition.\n"
            "  --n LIST      elements (default 2^24 on cuda, 2^20 on cpu; 2^26 = the issue's)\n"
            "  --elem LIST   element sizes in bytes, 1..256 (default 4)\n"
            "  --runs N      timed runs per case, the median is printed (default 20)\n"
            "  --warmup N    untimed runs first (default 3)\n"
            "  --seed S      the inputs' random seed (default 1)\n"
            "  --quiet       no progress lines on stderr\n",
            SC_PARTITION_MAX_KEYS);
}

static int part_bad(const char *opt, const char *v, const char *want) {
    fprintf(stderr, "compact bench: %s: '%s' is not %s\n", opt, v ? v : "", want);
    return -1;
}

static int part_list(const char *opt, const char *v, size_t lo, size_t hi, size_t *out,
                     int *count) {
    char buf[512];
    if (strlen(v) >= sizeof buf) {
        fprintf(stderr, "compact bench: %s: the list is %zu bytes long; at most %zu\n", opt,
                strlen(v), sizeof buf - 1);
        return -1;
    }
    strcpy(buf, v);
    *count = 0;
    if (!buf[0] || buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,"))
        return part_bad(opt, v, "a comma-separated list without empty items");
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        uint64_t x;
        if (*count == PART_MAX_LIST) return part_bad(opt, v, "a list of at most 16 values");
        if (num_parse_range(t, lo, hi, &x) != 0) {
            char want[96];
            snprintf(want, sizeof want, "a list of integers in %zu..%zu", lo, hi);
            return part_bad(opt, t, want);
        }
        out[(*count)++] = (size_t)x;
    }
    return *count ? 0 : part_bad(opt, v, "a non-empty list");
}

/* 1: help printed; 0: parsed; -1: usage error (printed). */
static int part_parse(part_opts *o, int argc, char **argv) {
    memset(o, 0, sizeof *o);
#ifdef SC_HAVE_CUDA
    o->backend = SC_BACKEND_CUDA;
#else
    o->backend = SC_BACKEND_CPU;
#endif
    o->runs = 20;
    o->warmup = 3;
    o->seed = 1;
    static const char *const with_value[] = {"--partition", "--backend", "--n",   "--elem",
                                             "--runs",      "--warmup",  "--seed"};
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            part_usage(stdout);
            return 1;
        }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--quiet")) {
            o->quiet = 1;
            continue;
        }
        int known = 0;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
            known |= !strcmp(a, with_value[k]);
        if (!known) {
            fprintf(stderr,
                    "compact bench: '%s' does not go with --partition (valid: --backend, --n, "
                    "--elem, --runs, --warmup, --seed, --quiet, --help)\n",
                    a);
            return -1;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr,
                    "compact bench: %s needs a value (compact bench --partition 1 --help)\n", a);
            return -1;
        }
        uint64_t x;
        i++;
        if (!strcmp(a, "--partition")) {
            if (num_parse_range(v, 1, SC_PARTITION_MAX_KEYS, &x) != 0)
                return part_bad(a, v, "a number of keys in 1..16");
            o->keys = (unsigned)x;
        } else if (!strcmp(a, "--backend")) {
            if (!strcmp(v, "cpu"))
                o->backend = SC_BACKEND_CPU;
            else if (!strcmp(v, "cuda"))
                o->backend = SC_BACKEND_CUDA;
            else
                return part_bad(a, v, "cpu or cuda");
        } else if (!strcmp(a, "--n")) {
            if (part_list(a, v, 1, UINT32_MAX, o->n, &o->num_n) != 0) return -1;
        } else if (!strcmp(a, "--elem")) {
            if (part_list(a, v, 1, 256, o->elem, &o->num_elem) != 0) return -1;
        } else if (!strcmp(a, "--runs")) {
            if (num_parse_range(v, 1, 100000, &x) != 0) return part_bad(a, v, "in 1..100000");
            o->runs = (int)x;
        } else if (!strcmp(a, "--warmup")) {
            if (num_parse_range(v, 0, 100000, &x) != 0) return part_bad(a, v, "in 0..100000");
            o->warmup = (int)x;
        } else if (!strcmp(a, "--seed")) {
            if (num_parse_u64(v, &o->seed) != 0) return part_bad(a, v, "an unsigned integer");
        } else {
            fprintf(stderr,
                    "compact bench: '%s' does not go with --partition (valid: --backend, --n, "
                    "--elem, --runs, --warmup, --seed, --quiet, --help)\n",
                    a);
            return -1;
        }
    }
#ifndef SC_HAVE_CUDA
    if (o->backend == SC_BACKEND_CUDA) {
        fprintf(stderr, "compact bench: this build has no CUDA backend\n");
        return -1;
    }
#endif
    if (!o->num_n) {
        o->n[0] = o->backend == SC_BACKEND_CUDA ? (size_t)1 << 24 : (size_t)1 << 20;
        o->num_n = 1;
    }
    if (!o->num_elem) {
        o->elem[0] = 4;
        o->num_elem = 1;
    }
    return 0;
}

int bench_partition_check_args(int argc, char **argv) {
    part_opts o;
    int p = part_parse(&o, argc, argv);
    if (p == 0 && !o.keys) {
        fprintf(stderr, "compact bench: --partition K is missing\n");
        return -1;
    }
    return p;
}

static uint64_t part_rng(uint64_t *s) { /* xorshift64* */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

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

int bench_part_time_cpu(const bench_part_case *c, int sets, bench_part_result *r, char *why,
                        size_t cap) {
    size_t bytes = c->n * c->elem_size;
    int rc = -1;
    sc_context *ctx = NULL;
    unsigned char **in = calloc((size_t)sets, sizeof *in);
    double *ms = malloc((size_t)c->runs * sizeof *ms);
    unsigned char *out = malloc(bytes ? bytes : 1);
    r->out = malloc(bytes ? bytes : 1);
    if (!in || !ms || !out || !r->out) {
        snprintf(why, cap, "out of host memory");
        goto done;
    }
    for (int s = 0; s < sets; s++) {
        if (!(in[s] = malloc(bytes ? bytes : 1))) {
            snprintf(why, cap, "out of host memory for %d input sets", sets);
            goto done;
        }
        memcpy(in[s], c->in, bytes);
    }
    sc_status st = sc_context_create(SC_BACKEND_CPU, &ctx);
    sc_options opt;
    sc_options_init(&opt);
    timing_runs tr;
    int next = 0;
    timing_begin(&tr, c->warmup, c->runs, ms);
    for (int i = 0; st == SC_OK && timing_next(&tr); i++) {
        size_t kept = 0, *counts = i == 0 ? r->counts : NULL, scratch[SC_PARTITION_MAX_KEYS];
        const unsigned char *src = in[timing_rotate(&next, sets)];
        double t0 = timing_now_ms();
        if (c->kind == BENCH_PART_PARTITION)
            st = sc_partition(ctx, c->algo, src, c->keys, out, c->n, c->elem_size, c->num_keys,
                              &opt, counts ? counts : scratch);
        else
            st = sc_compact_flagged(ctx, c->algo, src, c->flags, out, c->n, c->elem_size, &opt,
                                    &kept);
        timing_record(&tr, timing_now_ms() - t0);
        if (i == 0) {
            if (c->kind == BENCH_PART_COMPACT) r->counts[0] = kept;
            memcpy(r->out, out, bytes);
        }
    }
    if (st != SC_OK) {
        snprintf(why, cap, "%s", sc_status_string(st));
        goto done;
    }
    timing_stats ts = timing_summary(ms, c->runs);
    r->median_ms = ts.median;
    r->min_ms = ts.min;
    r->max_ms = ts.max;
    rc = 0;
done:
    sc_context_destroy(ctx);
    if (in)
        for (int s = 0; s < sets; s++) free(in[s]);
    free(in);
    free(ms);
    free(out);
    return rc;
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
}

int bench_partition_cmd(int argc, char **argv) {
    int p = bench_partition_check_args(argc, argv);
    if (p) return p > 0 ? 0 : 2;
    part_opts o;
    part_parse(&o, argc, argv);
    size_t cache = 0;
    char device[256] = "cpu";
#ifdef SC_HAVE_CUDA
    if (o.backend == SC_BACKEND_CUDA) {
        cache = bench_part_cuda_cache(device, sizeof device);
        if (!cache && !device[0]) {
            fprintf(stderr, "compact bench: no usable CUDA device\n");
            return 1;
        }
    }
#endif
    sc_algorithm part_algos[SC_ALGO_COUNT], comp_algos[2];
    int np = 0, nc = 0;
    for (int a = 0; a < SC_ALGO_COUNT; a++)
        if (sc_partition_available((sc_algorithm)a, o.backend)) part_algos[np++] = (sc_algorithm)a;
    if (o.backend == SC_BACKEND_CUDA) {
        comp_algos[nc++] = SC_ALGO_SINGLE_PASS;
        comp_algos[nc++] = SC_ALGO_CUB;
    } else {
        comp_algos[nc++] = SC_ALGO_SCAN_SCATTER;
    }
    printf("partition into %u keys, %s backend (%s), median of %d runs after %d warm-up\n", o.keys,
           o.backend == SC_BACKEND_CUDA ? "cuda" : "cpu", device, o.runs, o.warmup);
    printf("%-22s %11s %4s %4s %10s %10s %10s %8s %9s\n", "algorithm", "n", "elem", "keys",
           "median ms", "min ms", "max ms", "GB/s", "x compact");
    int failures = 0;
    for (int in_ = 0; in_ < o.num_n; in_++)
        for (int ie = 0; ie < o.num_elem; ie++) {
            size_t n = o.n[in_], es = o.elem[ie];
            if (n > SIZE_MAX / es) {
                fprintf(stderr, "compact bench: %zu x %zu bytes does not fit\n", n, es);
                return 2;
            }
            unsigned char *in = malloc(n * es);
            uint8_t *keys = malloc(n), *flags = malloc(n);
            if (!in || !keys || !flags) {
                fprintf(stderr, "compact bench: out of host memory for n = %zu\n", n);
                free(in);
                free(keys);
                free(flags);
                return 1;
            }
            uint64_t s = o.seed * 0x9E3779B97F4A7C15ull + n * 31 + es;
            if (!s) s = 1;
            for (size_t b = 0; b < n * es; b++) in[b] = (unsigned char)(part_rng(&s) >> 56);
            for (size_t i = 0; i < n; i++) {
                uint64_t x = part_rng(&s);
                keys[i] = (uint8_t)((x >> 32) % o.keys);
                flags[i] = (uint8_t)(x & 1);
            }
            /* as many copies as cover twice the cache, at least 2, at most 8 */
            size_t bytes = n * es + n;
            int sets = cache ? (int)((2 * cache + bytes - 1) / bytes) : 2;
            if (sets < 2) sets = 2;
            if (sets > 8) sets = 8;
            double compact_ms = 0.0;
            for (int k = 0; k < nc + np; k++) {
                bench_part_case c = {k < nc ? BENCH_PART_COMPACT : BENCH_PART_PARTITION,
                                     k < nc ? comp_algos[k] : part_algos[k - nc],
                                     n,
                                     es,
                                     o.keys,
                                     o.runs,
                                     o.warmup,
                                     in,
                                     keys,
                                     flags};
                bench_part_result r;
                memset(&r, 0, sizeof r);
                char why[256] = "", name[64];
                snprintf(name, sizeof name, "%s%s", c.kind == BENCH_PART_COMPACT ? "compact " : "",
                         sc_algorithm_get(c.algo)->name);
                if (!o.quiet) fprintf(stderr, "compact bench: %s n=%zu elem=%zu\n", name, n, es);
                int rc;
#ifdef SC_HAVE_CUDA
                if (o.backend == SC_BACKEND_CUDA)
                    rc = bench_part_time_cuda(&c, sets, &r, why, sizeof why);
                else
#endif
                    rc = bench_part_time_cpu(&c, sets, &r, why, sizeof why);
                if (rc == 0) rc = part_check(&c, &r, why, sizeof why);
                if (rc != 0) {
                    fprintf(stderr, "compact bench: %s n=%zu elem=%zu: %s\n", name, n, es, why);
                    failures++;
                } else {
                    if (k == 0) compact_ms = r.median_ms;
                    part_print_row(name, &c, &r, compact_ms);
                }
                free(r.out);
            }
            free(in);
            free(keys);
            free(flags);
        }
    fflush(stdout);
    return failures ? 1 : 0;
}
