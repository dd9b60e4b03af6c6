/* test_remove.c: sc_remove_indices, every removal-list algorithm of one backend, against the
 * serial reference: data[0 .. n-k) must hold the survivors as a multiset (the algorithms are
 * unstable), nothing written at or past n, and the last call's timings under the table row's
 * three phase names. One matrix for both backends, each case once: sizes (0, 1, 2, 31..33,
 * 255..257, 1025, 100003, 2^20 + 7) x patterns (the 0 flags are removed) x list order (index
 * order, shuffled) x element sizes 1..64. Bad lists (a duplicate, index == n, > n, UINT32_MAX,
 * k > n, NULL, a duplicate in the red zone) must be rejected with the data untouched and the
 * next good call must succeed; flag-stencil algorithms take no list and Redzone no flags.
 * --backend cuda: the same lists also trusted (opt.trusted_list), n = 2^24 and 2^27 + 13 unless
 * --quick, and each output compared with the CPU specification's (the same algorithm on the CPU
 * backend): byte for byte, or as a multiset where test_order_free() says why not (for all three
 * removal-list algorithms today).
 * Usage: test_remove [--backend cpu|cuda] [--quick|--full] [ALGO...]   (--quick: n <= 2^17 and
 * no specification cross-product, for the sanitizers; --full: the specification cross-product
 * of 2^20 + 7 too, and five patterns in both list orders at 2^24 and 2^27 + 13, where the
 * default takes two patterns at 2^24 and one at 2^27 + 13, one order each). Exits 77
 * (skipped) only when --backend cuda finds no CUDA device. */
#include "test_backend.h"

#include <string.h>

#define GUARD 64 /* poisoned bytes past the n elements */

static int checks = 0;

typedef enum list_order { ORDER_INDEX, ORDER_SHUFFLED } list_order;

typedef struct remove_case {
    size_t n, es;
    test_pattern pattern;
    list_order order;
    int trusted; /* opt.trusted_list (CUDA) */
} remove_case;

/* One stream on the host (in, flags, list; out: the result downloaded; spec: the CPU
 * specification's) and its backend copies (the host buffers themselves on the CPU). */
typedef struct buffers {
    sc_backend backend;
    unsigned char *in, *out, *spec;
    uint8_t *flags, *seen;
    uint32_t *list;
    void *d_data, *d_list;
    size_t k;
} buffers;

/* ---- the matrix ---- */

typedef struct matrix {
    remove_case *c;
    size_t count, cap;
} matrix;

static void add(matrix *m, size_t n, size_t es, test_pattern p, list_order order, int trusted,
                size_t max_n) {
    if (n > max_n) return;
    m->c = test_grow(m->c, m->count, &m->cap, 512, sizeof *m->c);
    remove_case c = {n, es, p, order, trusted};
    m->c[m->count++] = c;
}

static int cmp_case(const void *x, const void *y) {
    const remove_case *a = x, *b = y;
    const size_t ka[] = {a->n, a->es, a->pattern, a->order, (size_t)a->trusted},
                 kb[] = {b->n, b->es, b->pattern, b->order, (size_t)b->trusted};
    return test_cmp_keys(ka, kb, sizeof ka / sizeof *ka);
}

/* The union of the matrices, each case once, in stream order. `cuda`: the trusted lists and
 * the largest streams too. */
static matrix build_matrix(size_t max_n, int cuda, int quick, int full) {
    matrix m = {NULL, 0, 0};
    /* 1. every size x every pattern x both list orders, 4-byte elements */
    for (size_t si = 0; si < test_num_sizes; si++)
        for (int p = 0; p < PAT_COUNT; p++)
            for (int o = 0; o < 2; o++)
                add(&m, test_sizes[si], 4, (test_pattern)p, (list_order)o, 0, max_n);
    /* 2. every element size, on small and large streams */
    static const size_t es_n[] = {2, 33, 257, 1025, 100003};
    static const test_pattern es_pats[] = {PAT_RANDOM_2, PAT_RANDOM_50, PAT_RANDOM_98,
                                           PAT_LONG_RUNS, PAT_ONE_MIDDLE};
    for (size_t ei = 0; ei < test_num_elem_sizes; ei++)
        for (size_t si = 0; si < sizeof es_n / sizeof es_n[0]; si++)
            for (size_t pi = 0; pi < sizeof es_pats / sizeof es_pats[0]; pi++)
                add(&m, es_n[si], test_elem_sizes[ei], es_pats[pi], (list_order)((si + pi) & 1), 0,
                    max_n);
    /* 3. the largest size with odd and large elements */
    add(&m, (1u << 20) + 7, 12, PAT_RANDOM_10, ORDER_SHUFFLED, 0, max_n);
    add(&m, (1u << 20) + 7, 16, PAT_RANDOM_90, ORDER_INDEX, 0, max_n);
    /* 4. the specification matrix: sizes x patterns x element sizes, shuffled lists (not with
     * --quick, for the sanitizers: its kernels are those above) */
    static const size_t spec_es[] = {1, 4, 8, 12, 16, 64}, large_es[] = {4, 16};
    for (size_t si = 0; si < test_num_sizes && !quick; si++) {
        size_t n = test_sizes[si];
        int large = n > 100000;
        if (large && !full) continue;
        size_t nes = large ? 2 : sizeof spec_es / sizeof spec_es[0];
        for (int p = 0; p < PAT_COUNT; p++)
            for (size_t ei = 0; ei < nes; ei++)
                add(&m, n, large ? large_es[ei] : spec_es[ei], (test_pattern)p, ORDER_SHUFFLED, 0,
                    max_n);
    }
    if (cuda) {
        /* 5. sizes up to 2^27 + 13, one element size per (size, pattern); the two largest with
         * the patterns that shape Redzone's cases most and small elements */
        static const size_t sizes[] = {
            0, 1, 2, 31, 32, 33, 255, 256, 257, 100003, (1u << 20) + 7, 1u << 24, (1u << 27) + 13};
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            int big = n >= (1u << 24);
            for (int p = 0; p < PAT_COUNT; p++) {
                if (big && p != PAT_RANDOM_2 && p != PAT_RANDOM_50 && p != PAT_RANDOM_98 &&
                    p != PAT_LONG_RUNS && p != PAT_ONE_END)
                    continue;
                /* without --full: 2^24 with 2 % and 50 % removed, 2^27 + 13 with 50 %, each in
                   one list order (50 %: shuffled) */
                if (big && !full && p != PAT_RANDOM_50 && (n > (1u << 24) || p != PAT_RANDOM_2))
                    continue;
                size_t es = test_elem_sizes[(si + (size_t)p) % test_num_elem_sizes];
                if (n > (1u << 24) && es != 1)
                    es = 4;
                else if (big && es > 16)
                    es = 16;
                for (int o = 0; o < 2; o++)
                    if (full || !big || o == (p == PAT_RANDOM_50))
                        add(&m, n, es, (test_pattern)p, (list_order)o, 0, max_n);
            }
        }
        /* every list again, trusted: a list the program built itself, no device check */
        size_t count = m.count;
        for (size_t i = 0; i < count; i++) {
            remove_case c = m.c[i];
            add(&m, c.n, c.es, c.pattern, c.order, 1, max_n);
        }
    }
    m.count = test_unique(m.c, m.count, sizeof *m.c, cmp_case);
    return m;
}

/* ---- one case ---- */

/* The removal list: the positions of the 0 flags, in index order or shuffled (Fisher-Yates). */
static size_t make_list(const uint8_t *flags, size_t n, uint32_t *list, list_order order,
                        uint64_t seed) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!flags[i]) list[k++] = (uint32_t)i;
    for (size_t i = k; order == ORDER_SHUFFLED && i > 1; i--) {
        size_t j = (size_t)(test_rand(&seed) % i);
        uint32_t t = list[i - 1];
        list[i - 1] = list[j];
        list[j] = t;
    }
    return k;
}

/* out[0..kept) is the survivors as a multiset. Elements of 4 bytes and more carry their index in
 * their first 4 bytes (test_make_data): each kept index must appear once with its exact bytes.
 * 1-byte elements: equal histograms; 2 and 3 bytes: sorted copies. */
static int survivors_match(buffers *b, const unsigned char *out, size_t n, size_t es, size_t kept) {
    size_t want = 0;
    for (size_t i = 0; i < n; i++) want += b->flags[i] != 0;
    if (kept != want) return 0;
    if (es == 1) {
        size_t hist[256] = {0};
        for (size_t i = 0; i < n; i++)
            if (b->flags[i]) hist[b->in[i]]++;
        for (size_t j = 0; j < kept; j++)
            if (hist[out[j]]-- == 0) return 0;
        return 1;
    }
    if (es < 4) {
        unsigned char *ref = malloc(n * es + 1);
        if (!ref) return 0;
        test_reference(b->in, b->flags, ref, n, es);
        int same = test_same_elements(out, ref, kept, es, 0);
        free(ref);
        return same;
    }
    return test_kept_once(out, kept, b->in, b->flags, n, es, b->seen, 0);
}

/* 1 if the last call recorded exactly three timings, each under one of the table row's phase
 * names (auto: of the algorithm it chose). */
static int phases_from_table(sc_context *ctx, const sc_algorithm_info *a) {
    const char *bad;
    return test_phases(ctx, &a, &bad) == 3 && !bad;
}

/* Uploads the data with a poisoned guard and the first k entries of the list, runs, downloads
 * n elements and the guard into b->out. */
static sc_status run(sc_context *ctx, sc_algorithm algo, buffers *b, size_t n, size_t es, size_t k,
                     int timing, int trusted, size_t *kept) {
    memcpy(b->out, b->in, n * es);
    memset(b->out + n * es, POISON, GUARD);
    test_upload(b->backend, b->d_data, b->out, n * es + GUARD);
    test_upload(b->backend, b->d_list, b->list, k * sizeof *b->list);
    sc_options opt;
    sc_options_init(&opt);
    opt.timing = timing;
    opt.trusted_list = trusted;
    sc_status s = sc_remove_indices(ctx, algo, b->d_data, n, es, b->d_list, k, &opt, kept);
    test_download(b->backend, b->out, b->d_data, n * es + GUARD);
    return s;
}

#define CASE_FMT "%s n=%zu es=%zu k=%zu %s %s%s"
#define CASE_ARGS                                                                                  \
    a->name, n, es, b->k, test_pattern_name(c->pattern),                                           \
        c->order == ORDER_INDEX ? "index-order" : "shuffled", c->trusted ? " trusted" : ""

/* The CPU specification on the same data and list: the same kept count, and the same bytes or
 * (order_free) the same multiset. */
static void check_spec(sc_context *spec, const sc_algorithm_info *a, buffers *b,
                       const remove_case *c, size_t kept, const char *order_free) {
    size_t n = c->n, es = c->es, ks = (size_t)-1;
    memcpy(b->spec, b->in, n * es);
    sc_status s = sc_remove_indices(spec, a->id, b->spec, n, es, b->list, b->k, NULL, &ks);
    checks++;
    ASSERT_STATUS(s, SC_OK, "CPU specification: " CASE_FMT, CASE_ARGS);
    if (s != SC_OK) return;
    ASSERT_TRUE(ks == kept, "kept: cpu %zu, cuda %zu; " CASE_FMT, ks, kept, CASE_ARGS);
    if (ks != kept) return;
    if (order_free) {
        ASSERT_TRUE(survivors_match(b, b->spec, n, es, kept),
                    "the CPU specification's output is not the survivors; " CASE_FMT, CASE_ARGS);
        return;
    }
    size_t d = 0;
    while (d < kept && memcmp(b->out + d * es, b->spec + d * es, es) == 0) d++;
    ASSERT_TRUE(d == kept, "first difference from the CPU specification at %zu of %zu; " CASE_FMT,
                d, kept, CASE_ARGS);
}

/* Generates the case's stream unless the buffers hold it (same n, es, pattern). */
static void load(buffers *b, const remove_case *c, const remove_case *prev) {
    if (prev && prev->n == c->n && prev->es == c->es && prev->pattern == c->pattern) return;
    test_make_flags(b->flags, c->n, c->pattern, c->n + c->es);
    test_make_data(b->in, c->n, c->es, c->n * 31 + c->es);
}

static void run_case(sc_context *ctx, sc_context *spec, const sc_algorithm_info *a, buffers *b,
                     const remove_case *c, const char *order_free) {
    size_t n = c->n, es = c->es, kept = (size_t)-1;
    b->k = make_list(b->flags, n, b->list, c->order, n * 17 + (uint64_t)c->pattern);
    sc_status s = run(ctx, a->id, b, n, es, b->k, 1, c->trusted, &kept);
    checks++;
    ASSERT_STATUS(s, SC_OK, CASE_FMT " (%s)", CASE_ARGS, sc_last_error_detail(ctx));
    if (s != SC_OK) return;
    ASSERT_TRUE(kept == n - b->k, "kept %zu want %zu: " CASE_FMT, kept, n - b->k, CASE_ARGS);
    if (kept != n - b->k) return;
    ASSERT_TRUE(survivors_match(b, b->out, n, es, kept), "survivors differ: " CASE_FMT, CASE_ARGS);
    ASSERT_TRUE(test_untouched(b->out, n * es, n * es + GUARD, POISON), "wrote past n: " CASE_FMT,
                CASE_ARGS);
    if (b->k > 0 && b->k < n)
        ASSERT_TRUE(phases_from_table(ctx, a), "phase timings not the table's (%s): " CASE_FMT,
                    a->phases, CASE_ARGS);
    if (spec) check_spec(spec, a, b, c, kept, order_free);
}

/* ---- bad lists ---- */

/* One bad call on n = 10 four-byte elements: expect `want` and the data untouched. */
static void expect_rejected(sc_context *ctx, buffers *b, sc_algorithm algo, const uint32_t *list,
                            size_t k, sc_status want, const char *what) {
    enum { N = 10 };
    uint32_t data[N];
    for (uint32_t i = 0; i < N; i++) data[i] = 100 + i;
    memcpy(b->in, data, sizeof data);
    if (list) memcpy(b->list, list, k * sizeof *list);
    size_t kept = 12345;
    sc_options opt;
    sc_options_init(&opt);
    test_upload(b->backend, b->d_data, data, sizeof data);
    test_upload(b->backend, b->d_list, b->list, list ? k * sizeof *list : 0);
    sc_status s = sc_remove_indices(ctx, algo, b->d_data, N, sizeof *data, list ? b->d_list : NULL,
                                    k, &opt, &kept);
    test_download(b->backend, b->out, b->d_data, sizeof data);
    checks++;
    ASSERT_STATUS(s, want, "%s: %s", sc_algorithm_get(algo)->name, what);
    ASSERT_TRUE(memcmp(b->out, data, sizeof data) == 0, "%s: %s wrote to data",
                sc_algorithm_get(algo)->name, what);
}

static void test_bad_inputs(sc_context *ctx, buffers *b, const sc_algorithm_info *a) {
    const uint32_t dup[] = {1, 5, 1}, at_n[] = {2, 10}, past_n[] = {3, 17};
    const uint32_t huge[] = {UINT32_MAX}, eleven[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const sc_status bad = SC_ERR_INVALID_ARGUMENT;
    expect_rejected(ctx, b, a->id, dup, 3, bad, "duplicated index");
    expect_rejected(ctx, b, a->id, at_n, 2, bad, "index == n");
    expect_rejected(ctx, b, a->id, past_n, 2, bad, "index > n");
    expect_rejected(ctx, b, a->id, huge, 1, bad, "index UINT32_MAX");
    expect_rejected(ctx, b, a->id, eleven, 11, bad, "k > n");
    expect_rejected(ctx, b, a->id, NULL, 2, bad, "NULL list with k > 0");
}

/* A bad list on a larger stream (kind 0: any entry twice; 1: index == n; 2: the red zone's first
 * slot twice) is rejected with the data untouched, and the next good call succeeds (an error
 * flag on the device does not stick). */
static void run_bad(sc_context *ctx, buffers *b, const sc_algorithm_info *a, size_t n,
                    test_pattern p, int kind) {
    const char *what = kind == 0 ? "duplicate" : kind == 1 ? "index == n" : "duplicate in zone";
    const size_t es = 8;
    test_make_flags(b->flags, n, p, n + es);
    test_make_data(b->in, n, es, n * 31 + es);
    size_t k0 = make_list(b->flags, n, b->list, ORDER_SHUFFLED, n), k = k0, kept = 12345;
    if (kind != 1 && k < 2) k = 2; /* n = 1: k > n, rejected on the host, still invalid */
    if (kind == 1 && k < 1) k = 1;
    uint32_t any = k0 ? b->list[k0 / 2] : 0;
    if (kind == 0) b->list[0] = b->list[k - 1] = any;               /* any entry, twice */
    if (kind == 1) b->list[k - 1] = (uint32_t)n;                    /* one past the end */
    if (kind == 2) b->list[0] = b->list[k - 1] = (uint32_t)(n - k); /* the red zone's first */
    sc_status s = run(ctx, a->id, b, n, es, k, 0, 0, &kept);
    checks++;
    ASSERT_STATUS(s, SC_ERR_INVALID_ARGUMENT, "%s n=%zu k=%zu: %s", a->name, n, k, what);
    ASSERT_TRUE(memcmp(b->out, b->in, n * es) == 0, "%s n=%zu: %s wrote to data", a->name, n, what);
    b->k = make_list(b->flags, n, b->list, ORDER_SHUFFLED, n + 1);
    s = run(ctx, a->id, b, n, es, b->k, 0, 0, &kept);
    checks++;
    ASSERT_TRUE(s == SC_OK && kept == n - b->k && survivors_match(b, b->out, n, es, kept),
                "%s n=%zu: a good list after a bad one failed (%s)", a->name, n,
                sc_status_string(s));
}

/* Flag-stencil algorithms take no removal list, and removal-list ones no flag stencil. */
static void test_wrong_input(sc_context *ctx, buffers *b, sc_backend backend) {
    const uint32_t list[] = {1, 4};
    expect_rejected(ctx, b, SC_ALGO_HORN, list, 2, SC_ERR_UNSUPPORTED, "flag-stencil algorithm");
    expect_rejected(ctx, b, SC_ALGO_CUB, list, 2, SC_ERR_UNSUPPORTED,
                    backend == SC_BACKEND_CUDA ? "CUB (flags only)" : "CUB on the CPU");
    uint32_t in[4] = {1, 2, 3, 4};
    uint8_t flags[4] = {1, 0, 1, 0};
    test_upload(backend, b->d_data, in, sizeof in);
    test_upload(backend, b->d_list, flags, sizeof flags); /* the flags, in the list's buffer */
    void *d_out = test_alloc(backend, sizeof in);
    size_t kept;
    checks++;
    ASSERT_STATUS(
        sc_compact_flagged(ctx, SC_ALGO_REDZONE, b->d_data, b->d_list, d_out, 4, 4, NULL, &kept),
        SC_ERR_UNSUPPORTED, "redzone through sc_compact_flagged");
    test_free(backend, d_out);
}

/* ---- main ---- */

static void alloc_buffers(buffers *b, sc_backend backend, size_t max_n, size_t bytes) {
    memset(b, 0, sizeof *b);
    b->backend = backend;
    bytes += GUARD;
    b->in = test_alloc(SC_BACKEND_CPU, bytes);
    b->out = test_alloc(SC_BACKEND_CPU, bytes);
    b->flags = test_alloc(SC_BACKEND_CPU, max_n + 1);
    b->seen = test_alloc(SC_BACKEND_CPU, max_n + 1);
    b->list = test_alloc(SC_BACKEND_CPU, (max_n + 16) * sizeof *b->list);
    if (backend == SC_BACKEND_CPU) { /* the backend works on the host copies */
        b->d_data = b->out;
        b->d_list = b->list;
        return;
    }
    b->d_data = test_alloc(backend, bytes);
    b->d_list = test_alloc(backend, (max_n + 16) * sizeof *b->list);
}

static void free_buffers(buffers *b) {
    if (b->backend == SC_BACKEND_CUDA) {
        test_free(b->backend, b->d_data);
        test_free(b->backend, b->d_list);
    }
    free(b->in);
    free(b->out);
    free(b->spec);
    free(b->flags);
    free(b->seen);
    free(b->list);
}

int main(int argc, char **argv) {
    test_args args;
    sc_context *ctx = NULL, *spec = NULL;
    int rc = test_start(argc, argv, "test_remove", SC_INPUT_FLAGS, "a removal-list algorithm",
                        &args, &ctx, &spec);
    if (rc) return rc;
    int cuda = args.backend == SC_BACKEND_CUDA;
    matrix m = build_matrix(args.quick ? (size_t)1 << 17 : SIZE_MAX, cuda, args.quick, args.full);
    size_t top_n = 16, bytes = 64;
    for (size_t i = 0; i < m.count; i++) {
        if (m.c[i].n > top_n) top_n = m.c[i].n;
        if (m.c[i].n * m.c[i].es > bytes) bytes = m.c[i].n * m.c[i].es;
    }
    if (bytes < top_n * 8) bytes = top_n * 8; /* run_bad's 8-byte elements */
    buffers b;
    alloc_buffers(&b, args.backend, top_n, bytes);
    if (spec) b.spec = test_alloc(SC_BACKEND_CPU, bytes + GUARD);
    static const size_t bad_sizes[] = {1, 2, 33, 257, 100003, (1u << 20) + 7};
    int ran = 0;
    const sc_algorithm_info *a;
    for (int i = 0; (a = test_next_algo(&args, SC_INPUT_FLAGS, &i)) != NULL;) {
        int before = test_failures;
        const char *order_free = spec ? test_order_free(a) : NULL;
        if (spec)
            printf("%s: compared with the CPU specification %s%s\n", a->name,
                   order_free ? "as a multiset: " : "byte for byte", order_free ? order_free : "");
        for (size_t ci = 0; ci < m.count; ci++) {
            const remove_case *c = &m.c[ci];
            load(&b, c, ci ? &m.c[ci - 1] : NULL);
            run_case(ctx, spec, a, &b, c, order_free);
        }
        test_bad_inputs(ctx, &b, a);
        for (size_t bi = 0; bi < sizeof bad_sizes / sizeof bad_sizes[0]; bi++) {
            if (args.quick && bad_sizes[bi] > ((size_t)1 << 17)) continue;
            for (int kind = 0; kind < 3; kind++) {
                run_bad(ctx, &b, a, bad_sizes[bi], PAT_RANDOM_50, kind);
                run_bad(ctx, &b, a, bad_sizes[bi], PAT_RANDOM_10, kind);
                run_bad(ctx, &b, a, bad_sizes[bi], PAT_NONE_KEPT, kind);
            }
        }
        printf("%-14s %zu cases %s\n", a->name, m.count, test_failures == before ? "ok" : "FAILED");
        fflush(stdout);
        ran++;
    }
    checks++;
    ASSERT_TRUE(ran > 0, "no removal-list algorithm on the %s backend",
                test_backend_name(args.backend));
    if (args.num_algos == 0) test_wrong_input(ctx, &b, args.backend);
    free_buffers(&b);
    free(m.c);
    sc_context_destroy(spec);
    sc_context_destroy(ctx);
    char name[64];
    snprintf(name, sizeof name, "test_remove --backend %s", test_backend_name(args.backend));
    return test_finish(name, checks);
}
