/* test_gpu_flagged.c: every flag-stencil algorithm of the CUDA backend against the host serial
 * reference, on test_flagged's matrix (sizes x patterns x element sizes x tiles x scans) plus
 * element sizes 2, 3, 33 and 256, then on n = 2^24 and 2^27 + 13 with element sizes 4..64. Outputs
 * are poisoned on the device and must stay poisoned past the kept elements. Calls rotate between
 * three ways of returning the count: host pointer on the default stream, device pointer only on a
 * stream of its own (no host synchronisation), both. Timing is on; every phase recorded must be one
 * of the algorithm's phases. An algorithm that answers SC_ERR_UNSUPPORTED fails. Usage:
 * test_gpu_flagged [--quick] [--time] [ALGO...]
 *   --quick  n <= 2^17 (for the sanitizers)
 *   --time   instead of testing, time the algorithms (GB/s and vs cub from back-to-back calls)
 * Exits 77 (skipped) when the build or the machine has no CUDA device. */
#define _POSIX_C_SOURCE 200809L
#include "test.h"

#include "test_cuda.h"
#include <string.h>
#include <time.h>

#define GUARD     64                             /* poisoned bytes past the n elements */
#define ODD_BYTES ((size_t)100003 * SC_ELEM_MAX) /* the largest case of the odd sizes */
static int checks = 0;
static size_t max_n = ((size_t)1 << 27) + 13;

/* Host and device copies of one stream, sized for the largest case. */
typedef struct buffers {
    unsigned char *in, *out, *ref;
    uint8_t *flags;
    void *d_in, *d_out;
    uint8_t *d_flags;
    uint32_t *d_kept;
    cudaStream_t stream;
} buffers;

typedef struct run_spec {
    size_t n, es, tile;
    test_pattern pattern;
    sc_scan scan;
    int mode; /* 0: host kept, default stream; 1: device kept only, own stream; 2: both */
} run_spec;

/* Every recorded phase must be one of the algorithm's phase names. */
static void check_phases(sc_context *ctx, const sc_algorithm_info *a) {
    sc_choice c; /* auto: the phases are those of the algorithm it chose */
    if (a->id == SC_ALGO_AUTO && sc_last_choice(ctx, &c) == SC_OK) a = sc_algorithm_get(c.algo);
    sc_phase_timing t[SC_MAX_PHASES];
    size_t nt = sc_last_timings(ctx, t, SC_MAX_PHASES);
    ASSERT_TRUE(nt > 0, "no phase timings recorded: %s", a->name);
    for (size_t i = 0; i < nt && i < SC_MAX_PHASES; i++) {
        const char *p = strstr(a->phases, t[i].name);
        size_t len = strlen(t[i].name);
        int whole = p && (p == a->phases || p[-1] == ',') && (p[len] == ',' || p[len] == 0);
        ASSERT_TRUE(whole, "%s: phase '%s' is not in '%s'", a->name, t[i].name, a->phases);
    }
}

/* One call with the spec's count mode; returns the status, the count in *kept. */
static sc_status call(sc_context *ctx, const sc_algorithm_info *a, buffers *b, const run_spec *r,
                      size_t *kept) {
    sc_options opt;
    sc_options_init(&opt);
    opt.tile = r->tile;
    opt.scan = r->scan;
    opt.timing = 1;
    if (r->mode != 0) {
        /* The uploads and the poison went through the legacy stream, which a non-blocking
         * stream does not wait for. */
        CUDA_OK(cudaDeviceSynchronize());
        opt.stream = b->stream;
        opt.d_kept = b->d_kept;
        CUDA_OK(cudaMemsetAsync(b->d_kept, 0xff, sizeof *b->d_kept, b->stream));
    }
    sc_status s = sc_compact_flagged(ctx, a->id, b->d_in, b->d_flags, b->d_out, r->n, r->es, &opt,
                                     r->mode == 1 ? NULL : kept);
    if (s != SC_OK || r->mode == 0) return s;
    uint32_t dk = 0;
    CUDA_OK(cudaMemcpyAsync(&dk, b->d_kept, sizeof dk, cudaMemcpyDeviceToHost, b->stream));
    CUDA_OK(cudaStreamSynchronize(b->stream));
    if (r->mode == 2)
        ASSERT_TRUE(dk == *kept, "%s: device count %u, host count %zu", a->name, dk, *kept);
    *kept = dk;
    return s;
}

/* One case of the matrix: upload, poison, run, download, compare with the serial reference. */
static void run_case(sc_context *ctx, const sc_algorithm_info *a, buffers *b, const run_spec *r) {
    size_t n = r->n, es = r->es;
    if (n > max_n) return;
    test_make_flags(b->flags, n, r->pattern, n + es);
    test_make_data(b->in, n, es, n * 31 + es);
    CUDA_OK(cudaMemcpy(b->d_in, b->in, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b->d_flags, b->flags, n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(b->d_out, POISON, n * es + GUARD));
    size_t want = test_reference(b->in, b->flags, b->ref, n, es);
    size_t kept = (size_t)-1;
    sc_status s = call(ctx, a, b, r, &kept);
    checks++;
    const char *fmt = "%s n=%zu es=%zu %s tile=%zu scan=%d mode=%d";
    const char *pn = test_pattern_name(r->pattern);
    ASSERT_STATUS(s, SC_OK, fmt, a->name, n, es, pn, r->tile, r->scan, r->mode);
    if (s != SC_OK) return;
    ASSERT_TRUE(kept == want, "kept %zu want %zu: %s n=%zu es=%zu %s", kept, want, a->name, n, es,
                pn);
    if (kept != want) return;
    CUDA_OK(cudaMemcpy(b->out, b->d_out, n * es + GUARD, cudaMemcpyDeviceToHost));
    ASSERT_TRUE(test_same_elements(b->out, b->ref, kept, es, a->stable), fmt, a->name, n, es, pn,
                r->tile, r->scan, r->mode);
    ASSERT_TRUE(test_untouched(b->out, kept * es, n * es + GUARD, POISON),
                "wrote past the kept elements: %s n=%zu es=%zu %s", a->name, n, es, pn);
    check_phases(ctx, a);
}

/* test_flagged's matrix, the count mode rotating from case to case. */
static void test_matrix(sc_context *ctx, const sc_algorithm_info *a, buffers *b) {
    int mode = 0;
    run_spec r = {0, 4, 256, PAT_ALL_KEPT, SC_SCAN_DEFAULT, 0};
    for (size_t si = 0; si < test_num_sizes; si++)
        for (int p = 0; p < PAT_COUNT; p++) {
            r.n = test_sizes[si];
            r.pattern = (test_pattern)p;
            r.mode = mode++ % 3;
            run_case(ctx, a, b, &r);
        }
    static const size_t es_sizes[] = {33, 257, 100003};
    for (size_t ei = 0; ei < test_num_elem_sizes; ei++)
        for (size_t si = 0; si < 3; si++)
            for (int p = 0; p < 2; p++) {
                run_spec e = {
                    es_sizes[si],    test_elem_sizes[ei], 256, p ? PAT_LONG_RUNS : PAT_RANDOM_50,
                    SC_SCAN_DEFAULT, mode++ % 3};
                run_case(ctx, a, b, &e);
            }
    /* Sizes off the fast paths: odd, not a multiple of 4, the largest. */
    static const size_t odd_es[] = {2, 3, 33, 256};
    for (size_t ei = 0; ei < sizeof odd_es / sizeof odd_es[0]; ei++)
        for (size_t si = 0; si < 3; si++) {
            run_spec e = {es_sizes[si],  odd_es[ei],      256,
                          PAT_RANDOM_50, SC_SCAN_DEFAULT, mode++ % 3};
            run_case(ctx, a, b, &e);
        }
    static const test_pattern tp[] = {PAT_RANDOM_10, PAT_RANDOM_90, PAT_ALTERNATING, PAT_ONE_END,
                                      PAT_LONG_RUNS};
    size_t ntiles = (a->tunables & SC_TUNE_TILE) ? test_num_tiles : 1;
    int nscans = (a->tunables & SC_TUNE_SCAN) ? 2 : 1;
    for (size_t ti = 0; ti < ntiles; ti++) {
        size_t tile = (a->tunables & SC_TUNE_TILE) ? test_tiles[ti] : 256;
        const size_t sizes[] = {tile - 1, tile, tile + 1, 3 * tile + 5, 100003};
        for (int sv = 0; sv < nscans; sv++)
            for (size_t si = 0; si < 5; si++)
                for (size_t pi = 0; pi < sizeof tp / sizeof tp[0]; pi++) {
                    run_spec t = {sizes[si],
                                  pi == 0 ? 12 : 4,
                                  tile,
                                  tp[pi],
                                  sv ? SC_SCAN_BLELLOCH : SC_SCAN_HILLIS_STEELE,
                                  mode++ % 3};
                    run_case(ctx, a, b, &t);
                }
    }
}

/* Large streams: element i carries i in its first 4 bytes, so the output is checked in one
 * pass without a sorted copy: every element is a kept input element, whole, none twice, in
 * increasing order when the algorithm is stable. */
static void fill_indexed(unsigned char *in, size_t n, size_t es) {
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = in + i * es;
        uint64_t h = i * 0x9E3779B97F4A7C15ull + es;
        uint32_t i32 = (uint32_t)i;
        memcpy(e, &i32, 4);
        for (size_t o = 4; o < es; o += 8) {
            uint64_t v = test_rand(&h);
            memcpy(e + o, &v, es - o < 8 ? es - o : 8);
        }
    }
}

static int check_indexed(const sc_algorithm_info *a, const buffers *b, size_t n, size_t es,
                         size_t kept) {
    memset(b->ref, 0, n); /* b->ref: one "seen" byte per input element */
    uint32_t prev = 0;
    for (size_t j = 0; j < kept; j++) {
        const unsigned char *e = b->out + j * es;
        uint32_t i;
        memcpy(&i, e, 4);
        if (i >= n || !b->flags[i] || b->ref[i] || memcmp(e, b->in + (size_t)i * es, es)) return 0;
        if (a->stable && j > 0 && i <= prev) return 0;
        b->ref[i] = 1;
        prev = i;
    }
    return 1;
}

/* One large case: poison, run, download, check in one pass. */
static void large_case(sc_context *ctx, const sc_algorithm_info *a, buffers *b, const run_spec *r,
                       size_t want) {
    size_t n = r->n, es = r->es;
    const char *pn = test_pattern_name(r->pattern);
    CUDA_OK(cudaMemset(b->d_out, POISON, n * es + GUARD));
    size_t kept = (size_t)-1;
    sc_status s = call(ctx, a, b, r, &kept);
    checks++;
    ASSERT_STATUS(s, SC_OK, "%s n=%zu es=%zu %s", a->name, n, es, pn);
    if (s != SC_OK) return;
    ASSERT_TRUE(kept == want, "kept %zu want %zu: %s n=%zu es=%zu %s", kept, want, a->name, n, es,
                pn);
    if (kept != want) return;
    CUDA_OK(cudaMemcpy(b->out, b->d_out, n * es + GUARD, cudaMemcpyDeviceToHost));
    ASSERT_TRUE(check_indexed(a, b, n, es, kept), "%s n=%zu es=%zu %s", a->name, n, es, pn);
    ASSERT_TRUE(test_untouched(b->out, kept * es, n * es + GUARD, POISON),
                "wrote past the kept elements: %s n=%zu es=%zu %s", a->name, n, es, pn);
}

/* The large cases, data filled once per element size for all the algorithms; failures[i]
 * counts algorithm i's. */
static void test_large(sc_context *ctx, const sc_algorithm_info **algos, int count, buffers *b,
                       int *failures) {
    static const size_t sizes[] = {(size_t)1 << 24, ((size_t)1 << 27) + 13};
    static const size_t es_list[] = {4, 8, 12, 16, 32, 64};
    static const test_pattern pats[] = {PAT_RANDOM_50, PAT_RANDOM_98, PAT_ALL_KEPT};
    int mode = 0;
    for (size_t si = 0; si < 2; si++)
        for (size_t ei = 0; ei < sizeof es_list / sizeof es_list[0]; ei++) {
            size_t n = sizes[si], es = es_list[ei];
            fill_indexed(b->in, n, es);
            CUDA_OK(cudaMemcpy(b->d_in, b->in, n * es, cudaMemcpyHostToDevice));
            for (size_t pi = 0; pi < (si == 0 ? 3u : 1u); pi++) {
                test_make_flags(b->flags, n, pats[pi], n + es);
                size_t want = 0;
                for (size_t i = 0; i < n; i++) want += b->flags[i] != 0;
                CUDA_OK(cudaMemcpy(b->d_flags, b->flags, n, cudaMemcpyHostToDevice));
                for (int ai = 0; ai < count; ai++) {
                    int before = test_failures;
                    run_spec r = {n, es, 256, pats[pi], SC_SCAN_DEFAULT, mode++ % 3};
                    large_case(ctx, algos[ai], b, &r, want);
                    failures[ai] += test_failures - before;
                }
            }
        }
}

/* ---- --time: median time per call, the count left on the device (no host sync) ---- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count) {
    qsort(v, (size_t)count, sizeof *v, cmp_double);
    return v[count / 2];
}

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

#define TIME_REPS 31

/* Median of TIME_REPS event-timed calls, each alone on the device (us); *b2b_us = mean time of
 * a call among 100 issued back to back (launch gaps included, none idle); *sync_us = median
 * host wall time of a call that returns the count to the host. */
static double time_calls(sc_context *ctx, const sc_algorithm_info *a, buffers *b, size_t n,
                         size_t es, double *b2b_us, double *sync_us) {
    sc_options opt;
    sc_options_init(&opt);
    opt.stream = b->stream;
    opt.d_kept = b->d_kept;
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    double t[TIME_REPS], w[TIME_REPS];
    size_t kept;
    for (int i = 0; i < 3; i++)
        if (sc_compact_flagged(ctx, a->id, b->d_in, b->d_flags, b->d_out, n, es, &opt, &kept))
            return -1;
    for (int i = 0; i < TIME_REPS; i++) {
        float ms;
        CUDA_OK(cudaEventRecord(e0, b->stream));
        sc_compact_flagged(ctx, a->id, b->d_in, b->d_flags, b->d_out, n, es, &opt, NULL);
        CUDA_OK(cudaEventRecord(e1, b->stream));
        CUDA_OK(cudaEventSynchronize(e1));
        CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
        t[i] = ms * 1e3;
        double w0 = now_us();
        sc_compact_flagged(ctx, a->id, b->d_in, b->d_flags, b->d_out, n, es, &opt, &kept);
        w[i] = now_us() - w0;
    }
    float ms;
    CUDA_OK(cudaEventRecord(e0, b->stream));
    for (int i = 0; i < 100; i++)
        sc_compact_flagged(ctx, a->id, b->d_in, b->d_flags, b->d_out, n, es, &opt, NULL);
    CUDA_OK(cudaEventRecord(e1, b->stream));
    CUDA_OK(cudaEventSynchronize(e1));
    CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
    *b2b_us = ms * 10.0;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    *sync_us = median(w, TIME_REPS);
    return median(t, TIME_REPS);
}

/* Device-to-device copy of n * es bytes: the bandwidth ceiling (bytes read + written). */
static double copy_gbs(buffers *b, size_t bytes) {
    cudaEvent_t e0, e1;
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    double t[TIME_REPS];
    for (int i = 0; i < TIME_REPS; i++) {
        float ms;
        CUDA_OK(cudaEventRecord(e0, b->stream));
        CUDA_OK(cudaMemcpyAsync(b->d_out, b->d_in, bytes, cudaMemcpyDeviceToDevice, b->stream));
        CUDA_OK(cudaEventRecord(e1, b->stream));
        CUDA_OK(cudaEventSynchronize(e1));
        CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
        t[i] = ms * 1e3;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return 2.0 * (double)bytes / median(t, TIME_REPS) * 1e-3;
}

static int gpu_time(sc_context *ctx, const sc_algorithm_info **algos, int count, buffers *b) {
    static const struct {
        size_t n, es;
    } cases[] = {{1u << 20, 4}, {1u << 21, 4},  {1u << 22, 4},  {1u << 24, 4},
                 {1u << 28, 4}, {1u << 21, 32}, {1u << 22, 32}, {1u << 25, 32}};
    static const test_pattern pats[] = {PAT_RANDOM_50, PAT_RANDOM_90, PAT_RANDOM_10};
    printf("%-12s %10s %3s %-11s %9s %9s %9s %6s %6s %6s\n", "algorithm", "n", "es", "pattern",
           "us/call", "b2b us", "sync us", "GB/s", "copy%", "vs cub");
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        size_t n = cases[ci].n, es = cases[ci].es;
        fill_indexed(b->in, n, es);
        CUDA_OK(cudaMemcpy(b->d_in, b->in, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaDeviceSynchronize());
        double copy = copy_gbs(b, n * es);
        for (size_t pi = 0; pi < sizeof pats / sizeof pats[0]; pi++) {
            test_make_flags(b->flags, n, pats[pi], n);
            size_t kept = 0;
            for (size_t i = 0; i < n; i++) kept += b->flags[i] != 0;
            CUDA_OK(cudaMemcpy(b->d_flags, b->flags, n, cudaMemcpyHostToDevice));
            CUDA_OK(cudaDeviceSynchronize()); /* the calls run on a non-blocking stream */
            double cub_us = 0;
            for (int ai = 0; ai < count; ai++) {
                double b2b, sync_us, us = time_calls(ctx, algos[ai], b, n, es, &b2b, &sync_us);
                if (us < 0) continue;
                if (algos[ai]->id == SC_ALGO_CUB) cub_us = b2b;
                double gbs = (double)(n + n * es + kept * es) / b2b * 1e-3;
                printf("%-12s %10zu %3zu %-11s %9.1f %9.1f %9.1f %6.0f %5.0f%% %6.2f\n",
                       algos[ai]->name, n, es, test_pattern_name(pats[pi]), us, b2b, sync_us, gbs,
                       100.0 * gbs / copy, cub_us > 0 ? cub_us / b2b : 0.0);
                fflush(stdout);
            }
        }
    }
    return 0;
}

static int alloc_buffers(buffers *b, size_t n, size_t es) {
    size_t bytes = n * es > ODD_BYTES ? n * es + GUARD : ODD_BYTES + GUARD;
    b->in = malloc(bytes);
    b->out = malloc(bytes);
    b->ref = malloc(bytes);
    b->flags = malloc(n + 1);
    if (!b->in || !b->out || !b->ref || !b->flags) return 0;
    CUDA_OK(cudaMalloc(&b->d_in, bytes));
    CUDA_OK(cudaMalloc(&b->d_out, bytes));
    CUDA_OK(cudaMalloc((void **)&b->d_flags, n + 1));
    CUDA_OK(cudaMalloc((void **)&b->d_kept, sizeof(uint32_t)));
    CUDA_OK(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking));
    return 1;
}

static void free_buffers(buffers *b) {
    free(b->in);
    free(b->out);
    free(b->ref);
    free(b->flags);
    cudaFree(b->d_in);
    cudaFree(b->d_out);
    cudaFree(b->d_flags);
    cudaFree(b->d_kept);
    cudaStreamDestroy(b->stream);
}

/* The algorithms named on the command line, or every flag-stencil algorithm the table gives a
 * CUDA backend. Returns how many, or -1 for a bad name. */
static int pick_algorithms(int argc, char **argv, const sc_algorithm_info **out) {
    int count = 0, named = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;
        named = 1;
        const sc_algorithm_info *a = sc_algorithm_find(argv[i]);
        if (!a || a->input == SC_INPUT_REMOVAL_LIST || !(a->backends & (1u << SC_BACKEND_CUDA))) {
            fprintf(stderr, "test_gpu_flagged: '%s' is not a CUDA flag-stencil algorithm\n",
                    argv[i]);
            return -1;
        }
        out[count++] = a;
    }
    for (int i = 0; !named && i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        if (a->input != SC_INPUT_REMOVAL_LIST && (a->backends & (1u << SC_BACKEND_CUDA)))
            out[count++] = a;
    }
    return count;
}

static int has_flag(int argc, char **argv, const char *flag) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], flag) == 0) return 1;
    return 0;
}

int main(int argc, char **argv) {
    int quick = has_flag(argc, argv, "--quick"), timing = has_flag(argc, argv, "--time");
    const sc_algorithm_info *algos[SC_ALGO_COUNT];
    int count = pick_algorithms(argc, argv, algos);
    if (count < 0) return 1;
    sc_context *ctx;
    sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
    if (s == SC_ERR_NO_DEVICE || s == SC_ERR_UNSUPPORTED) {
        printf("test_gpu_flagged: skipped (%s)\n", sc_status_string(s));
        return 77;
    }
    if (s != SC_OK) return 1;
    if (quick) max_n = (size_t)1 << 17;
    buffers b;
    size_t buf_n = timing ? (size_t)1 << 28 : max_n;
    if (!alloc_buffers(&b, buf_n, timing ? 4 : 64)) return 1;
    int rc = 0;
    if (timing) {
        rc = gpu_time(ctx, algos, count, &b);
    } else {
        int failures[SC_ALGO_COUNT] = {0};
        for (int i = 0; i < count; i++) {
            int before = test_failures;
            test_matrix(ctx, algos[i], &b);
            failures[i] = test_failures - before;
        }
        if (!quick) test_large(ctx, algos, count, &b, failures);
        for (int i = 0; i < count; i++)
            printf("%-14s %s\n", algos[i]->name, failures[i] ? "FAILED" : "ok");
        rc = test_finish("test_gpu_flagged", checks);
    }
    free_buffers(&b);
    sc_context_destroy(ctx);
    return rc;
}
