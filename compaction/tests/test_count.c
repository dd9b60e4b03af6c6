/* test_count.c: run-time counts on the CPU backend. A call with opt.d_n (and opt.d_k) pointing at
 * a host count and n (k) as the bound must give what the same call gives with the count as n (k):
 * the same kept count, the same output (as a multiset for unstable algorithms), nothing written
 * past the kept elements (flagged) or past the run-time n (removal lists); counts above the bound
 * are clamped to it. Also sc_context_reserve on the CPU backend. */
#include "test.h"

#include <string.h>

#define BOUND 5003u

static int checks = 0;

/* Run-time n values: empty, one, tile edges, the bound, and one above it (clamped). */
static const uint32_t k_ns[] = {0, 1, 31, 32, 33, 257, 2048, 4999, BOUND, BOUND + 100};
#define NUM_NS (sizeof k_ns / sizeof k_ns[0])

static void test_flagged(sc_context *ctx, const sc_algorithm_info *a, size_t es, uint64_t *seed) {
    unsigned char *in = malloc(BOUND * es), *out = malloc(BOUND * es), *ref = malloc(BOUND * es);
    uint8_t *flags = malloc(BOUND);
    if (!in || !out || !ref || !flags) exit(1);
    for (size_t c = 0; c < NUM_NS; c++) {
        const uint32_t dn = k_ns[c], n = dn < BOUND ? dn : BOUND;
        test_make_data(in, BOUND, es, test_rand(seed));
        test_make_flags(flags, BOUND, (test_pattern)(c % PAT_COUNT), test_rand(seed));
        size_t want = 0, kept = 0;
        memset(ref, POISON, BOUND * es);
        ASSERT_STATUS(sc_compact_flagged(ctx, a->id, in, flags, ref, n, es, NULL, &want), SC_OK,
                      "%s n %u", a->name, n);
        sc_options opt;
        sc_options_init(&opt);
        opt.d_n = &dn;
        memset(out, POISON, BOUND * es);
        ASSERT_STATUS(sc_compact_flagged(ctx, a->id, in, flags, out, BOUND, es, &opt, &kept), SC_OK,
                      "%s d_n %u", a->name, dn);
        ASSERT_TRUE(kept == want, "%s d_n %u es %zu: kept %zu, want %zu", a->name, dn, es, kept,
                    want);
        ASSERT_TRUE(kept == want && test_same_elements(out, ref, want, es, a->stable),
                    "%s d_n %u es %zu: other elements", a->name, dn, es);
        ASSERT_TRUE(test_untouched(out, kept * es, BOUND * es, POISON),
                    "%s d_n %u es %zu: written past the kept elements", a->name, dn, es);
        checks++;
    }
    free(in);
    free(out);
    free(ref);
    free(flags);
}

static void test_remove(sc_context *ctx, const sc_algorithm_info *a, size_t es, uint64_t *seed) {
    unsigned char *in = malloc(BOUND * es), *data = malloc(BOUND * es), *ref = malloc(BOUND * es);
    uint32_t *list = malloc(BOUND * sizeof *list), *perm = malloc(BOUND * sizeof *perm);
    if (!in || !data || !ref || !list || !perm) exit(1);
    for (size_t c = 0; c < NUM_NS; c++) {
        const uint32_t dn = k_ns[c], n = dn < BOUND ? dn : BOUND;
        /* k: 0, n, 1 and random in turn; d_k one above k when k = n (clamped to the run-time n) */
        uint32_t k = c % 4 == 0   ? 0
                     : c % 4 == 1 ? n
                     : c % 4 == 2 ? (n ? 1 : 0)
                                  : (uint32_t)(test_rand(seed) % (n + 1));
        const uint32_t dk = k == n ? k + 1 : k;
        test_make_data(in, BOUND, es, test_rand(seed));
        for (uint32_t j = 0; j < n; j++) perm[j] = j;
        for (uint32_t j = 0; j < k; j++) {
            uint32_t t = j + (uint32_t)(test_rand(seed) % (n - j)), v = perm[t];
            perm[t] = perm[j];
            perm[j] = v;
            list[j] = v;
        }
        size_t want = 0, kept = 0;
        memcpy(ref, in, BOUND * es);
        ASSERT_STATUS(sc_remove_indices(ctx, a->id, ref, n, es, list, k, NULL, &want), SC_OK,
                      "%s n %u k %u", a->name, n, k);
        sc_options opt;
        sc_options_init(&opt);
        opt.d_n = &dn;
        opt.d_k = &dk;
        memcpy(data, in, BOUND * es);
        ASSERT_STATUS(sc_remove_indices(ctx, a->id, data, BOUND, es, list, BOUND, &opt, &kept),
                      SC_OK, "%s d_n %u d_k %u", a->name, dn, dk);
        ASSERT_TRUE(kept == want && want == n - k, "%s d_n %u d_k %u: kept %zu, want %zu", a->name,
                    dn, dk, kept, want);
        ASSERT_TRUE(kept == want && test_same_elements(data, ref, want, es, 0),
                    "%s d_n %u d_k %u es %zu: other survivors", a->name, dn, dk, es);
        ASSERT_TRUE(memcmp(data + (size_t)n * es, in + (size_t)n * es, (BOUND - n) * es) == 0,
                    "%s d_n %u d_k %u es %zu: written past n", a->name, dn, dk, es);
        checks++;
    }
    free(in);
    free(data);
    free(ref);
    free(list);
    free(perm);
}

int main(void) {
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return 1;
    uint64_t seed = 11;
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        if (!sc_algorithm_available(a->id, SC_BACKEND_CPU)) continue;
        ASSERT_STATUS(sc_context_reserve(ctx, a->id, a->input, BOUND, 4, NULL), SC_OK,
                      "%s: reserve", a->name);
        if (a->input != SC_INPUT_ANY) /* auto takes either input */
            ASSERT_STATUS(sc_context_reserve(ctx, a->id, (sc_input)(1 - a->input), BOUND, 4, NULL),
                          SC_ERR_UNSUPPORTED, "%s: reserve for the other input", a->name);
        checks += 2;
        for (size_t es = 4; es <= 12; es += 8) {
            if (a->input == SC_INPUT_FLAGS)
                test_flagged(ctx, a, es, &seed);
            else
                test_remove(ctx, a, es, &seed);
        }
    }
    sc_context_destroy(ctx);
    return test_finish("test_count", checks);
}
