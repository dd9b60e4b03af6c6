/* test_remove.c: every removal-list algorithm on the CPU backend (sc_remove_indices) against the
 * serial reference, over sizes x patterns x list order x element sizes, and the bad inputs a
 * removal list can carry. The output is unstable: data[0 .. n-k) must hold the survivors as a
 * multiset; what lies beyond n-k is not specified. */
#include "test.h"

#include <string.h>

static int checks = 0;

typedef struct buffers {
    unsigned char *data, *ref;
    uint8_t *flags;
    uint32_t *list;
} buffers;

typedef enum list_order { ORDER_INDEX, ORDER_SHUFFLED } list_order;

/* The removal list: the positions of the 0 flags, in index order or shuffled (Fisher-Yates). */
static size_t make_list(const buffers *b, size_t n, list_order order, uint64_t seed) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!b->flags[i]) b->list[k++] = (uint32_t)i;
    for (size_t i = k; order == ORDER_SHUFFLED && i > 1; i--) {
        size_t j = (size_t)(test_rand(&seed) % i);
        uint32_t t = b->list[i - 1];
        b->list[i - 1] = b->list[j];
        b->list[j] = t;
    }
    return k;
}

/* 1 if the last call recorded three timings, each under one of the table row's phase names. */
static int phases_from_table(sc_context *ctx, const sc_algorithm_info *a) {
    sc_choice c; /* auto: the phases are those of the algorithm it chose */
    if (a->id == SC_ALGO_AUTO && sc_last_choice(ctx, &c) == SC_OK) a = sc_algorithm_get(c.algo);
    sc_phase_timing t[SC_MAX_PHASES];
    size_t nt = sc_last_timings(ctx, t, SC_MAX_PHASES);
    for (size_t i = 0; i < nt && i < SC_MAX_PHASES; i++)
        if (!strstr(a->phases, t[i].name)) return 0;
    return nt == 3;
}

static void run_case(sc_context *ctx, const sc_algorithm_info *a, buffers *b, size_t n, size_t es,
                     test_pattern p, list_order order) {
    sc_options opt;
    sc_options_init(&opt);
    opt.timing = 1;
    test_make_flags(b->flags, n, p, n + es);
    test_make_data(b->data, n, es, n * 31 + es);
    size_t k = make_list(b, n, order, n * 17 + (uint64_t)p);
    size_t want = test_reference(b->data, b->flags, b->ref, n, es);
    size_t kept = (size_t)-1;
    sc_status s = sc_remove_indices(ctx, a->id, b->data, n, es, b->list, k, &opt, &kept);
    checks++;
    const char *fmt = "%s n=%zu es=%zu %s %s";
    const char *on = order == ORDER_INDEX ? "index-order" : "shuffled";
    ASSERT_STATUS(s, SC_OK, fmt, a->name, n, es, test_pattern_name(p), on);
    if (s != SC_OK) return;
    ASSERT_TRUE(kept == n - k && kept == want, "kept %zu want %zu: %s n=%zu es=%zu %s %s", kept,
                want, a->name, n, es, test_pattern_name(p), on);
    if (kept != want) return;
    ASSERT_TRUE(test_same_elements(b->data, b->ref, kept, es, 0), fmt, a->name, n, es,
                test_pattern_name(p), on);
    if (k > 0 && k < n)
        ASSERT_TRUE(phases_from_table(ctx, a), "phase timings not the table's (%s): %s", a->phases,
                    a->name);
}

static void test_algorithm(sc_context *ctx, const sc_algorithm_info *a, buffers *b) {
    int before = test_failures;
    /* 1. every size x every pattern x both list orders, 4-byte elements */
    for (size_t si = 0; si < test_num_sizes; si++)
        for (int p = 0; p < PAT_COUNT; p++)
            for (int o = 0; o < 2; o++)
                run_case(ctx, a, b, test_sizes[si], 4, (test_pattern)p, (list_order)o);
    /* 2. every element size, on small and large streams */
    static const size_t es_sizes[] = {2, 33, 257, 1025, 100003};
    static const test_pattern es_pats[] = {PAT_RANDOM_2, PAT_RANDOM_50, PAT_RANDOM_98,
                                           PAT_LONG_RUNS, PAT_ONE_MIDDLE};
    for (size_t ei = 0; ei < test_num_elem_sizes; ei++)
        for (size_t si = 0; si < sizeof es_sizes / sizeof es_sizes[0]; si++)
            for (size_t pi = 0; pi < sizeof es_pats / sizeof es_pats[0]; pi++)
                run_case(ctx, a, b, es_sizes[si], test_elem_sizes[ei], es_pats[pi],
                         (list_order)((si + pi) & 1));
    /* 3. the largest size with odd and large elements */
    run_case(ctx, a, b, (1u << 20) + 7, 12, PAT_RANDOM_10, ORDER_SHUFFLED);
    run_case(ctx, a, b, (1u << 20) + 7, 16, PAT_RANDOM_90, ORDER_INDEX);
    printf("%-14s %s\n", a->name, test_failures == before ? "ok" : "FAILED");
}

/* One bad call: expect `want` and the data untouched. */
static void expect_rejected(sc_context *ctx, sc_algorithm algo, const uint32_t *list, size_t k,
                            sc_status want, const char *what) {
    enum { N = 10 };
    uint32_t data[N], orig[N];
    for (uint32_t i = 0; i < N; i++) data[i] = orig[i] = 100 + i;
    size_t kept = 12345;
    sc_status s = sc_remove_indices(ctx, algo, data, N, sizeof *data, list, k, NULL, &kept);
    checks++;
    ASSERT_STATUS(s, want, "%s: %s", sc_algorithm_get(algo)->name, what);
    ASSERT_TRUE(memcmp(data, orig, sizeof data) == 0, "%s: %s wrote to data",
                sc_algorithm_get(algo)->name, what);
}

static void test_bad_inputs(sc_context *ctx, const sc_algorithm_info *a) {
    const uint32_t dup[] = {1, 5, 1}, at_n[] = {2, 10}, past_n[] = {3, 17};
    const uint32_t huge[] = {UINT32_MAX}, eleven[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    expect_rejected(ctx, a->id, dup, 3, SC_ERR_INVALID_ARGUMENT, "duplicated index");
    expect_rejected(ctx, a->id, at_n, 2, SC_ERR_INVALID_ARGUMENT, "index == n");
    expect_rejected(ctx, a->id, past_n, 2, SC_ERR_INVALID_ARGUMENT, "index > n");
    expect_rejected(ctx, a->id, huge, 1, SC_ERR_INVALID_ARGUMENT, "index UINT32_MAX");
    expect_rejected(ctx, a->id, eleven, 11, SC_ERR_INVALID_ARGUMENT, "k > n");
    expect_rejected(ctx, a->id, NULL, 2, SC_ERR_INVALID_ARGUMENT, "NULL list with k > 0");
}

/* Flag-stencil algorithms take no removal list, and removal-list ones no flag stencil. */
static void test_wrong_input(sc_context *ctx) {
    const uint32_t list[] = {1, 4};
    expect_rejected(ctx, SC_ALGO_HORN, list, 2, SC_ERR_UNSUPPORTED, "flag-stencil algorithm");
    expect_rejected(ctx, SC_ALGO_CUB, list, 2, SC_ERR_UNSUPPORTED, "CUB on the CPU");
    uint32_t in[4] = {1, 2, 3, 4}, out[4];
    uint8_t flags[4] = {1, 0, 1, 0};
    size_t kept;
    checks++;
    ASSERT_STATUS(sc_compact_flagged(ctx, SC_ALGO_REDZONE, in, flags, out, 4, 4, NULL, &kept),
                  SC_ERR_UNSUPPORTED, "redzone through sc_compact_flagged");
}

int main(void) {
    size_t maxn = (1u << 20) + 7, maxes = 64, maxbytes = maxn * 16 + 64;
    if (100003 * maxes > maxbytes) maxbytes = 100003 * maxes;
    buffers b;
    b.data = malloc(maxbytes);
    b.ref = malloc(maxbytes);
    b.flags = malloc(maxn);
    b.list = malloc(maxn * sizeof *b.list);
    if (!b.data || !b.ref || !b.flags || !b.list) return 1;
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return 1;
    int ran = 0;
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        if (a->input == SC_INPUT_FLAGS || !sc_algorithm_available(a->id, SC_BACKEND_CPU)) continue;
        test_algorithm(ctx, a, &b);
        test_bad_inputs(ctx, a);
        ran++;
    }
    checks++;
    ASSERT_TRUE(ran > 0, "no removal-list algorithm on the CPU");
    test_wrong_input(ctx);
    sc_context_destroy(ctx);
    free(b.data);
    free(b.ref);
    free(b.flags);
    free(b.list);
    return test_finish("test_remove", checks);
}
