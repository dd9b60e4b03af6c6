/* test_flagged.c: every flag-stencil algorithm on the CPU backend against the serial
 * reference, over sizes x patterns x element sizes x tiles x scan and RLZ variants.
 * Usage: test_flagged [ALGO]   (default: every algorithm in the table) */
#include "test.h"

#include <string.h>

static int checks = 0;
static int g_require_stable = 0; /* auto's second pass: opt.require_stable, exact order */

typedef struct buffers {
    unsigned char *in, *out, *ref;
    uint8_t *flags;
} buffers;

static void run_case(sc_context *ctx, const sc_algorithm_info *a, buffers *b, size_t n, size_t es,
                     test_pattern p, size_t tile, sc_scan scan, sc_rlz_variant rlz) {
    sc_options opt;
    sc_options_init(&opt);
    opt.tile = tile;
    opt.scan = scan;
    opt.rlz = rlz;
    opt.timing = 1;
    opt.require_stable = g_require_stable;
    test_make_flags(b->flags, n, p, n + es);
    test_make_data(b->in, n, es, n * 31 + es);
    memset(b->out, POISON, n * es + 64);
    size_t want = test_reference(b->in, b->flags, b->ref, n, es);
    size_t kept = (size_t)-1;
    sc_status s = sc_compact_flagged(ctx, a->id, b->in, b->flags, b->out, n, es, &opt, &kept);
    checks++;
    const char *fmt = "%s n=%zu es=%zu %s tile=%zu scan=%d rlz=%d";
    ASSERT_STATUS(s, SC_OK, fmt, a->name, n, es, test_pattern_name(p), tile, scan, rlz);
    if (s != SC_OK) return;
    ASSERT_TRUE(kept == want, "kept %zu want %zu: %s n=%zu es=%zu %s tile=%zu scan=%d", kept, want,
                a->name, n, es, test_pattern_name(p), tile, scan);
    if (kept != want) return;
    ASSERT_TRUE(test_same_elements(b->out, b->ref, kept, es, a->stable || g_require_stable), fmt,
                a->name, n, es, test_pattern_name(p), tile, scan, rlz);
    ASSERT_TRUE(test_untouched(b->out, kept * es, n * es + 64, POISON),
                "wrote past the kept elements: "
                "%s n=%zu es=%zu %s",
                a->name, n, es, test_pattern_name(p));
    sc_phase_timing t[SC_MAX_PHASES];
    size_t nt = sc_last_timings(ctx, t, SC_MAX_PHASES);
    ASSERT_TRUE(nt > 0, "no phase timings recorded: %s", a->name);
}

static void test_algorithm(sc_context *ctx, const sc_algorithm_info *a, buffers *b) {
    int before = test_failures;
    /* 1. every size x every pattern, 4-byte elements, default options */
    for (size_t si = 0; si < test_num_sizes; si++)
        for (int p = 0; p < PAT_COUNT; p++)
            run_case(ctx, a, b, test_sizes[si], 4, (test_pattern)p, 256, SC_SCAN_DEFAULT,
                     SC_RLZ_DEFAULT);
    /* 2. every element size */
    static const size_t es_sizes[] = {33, 257, 100003};
    for (size_t ei = 0; ei < test_num_elem_sizes; ei++)
        for (size_t si = 0; si < 3; si++) {
            run_case(ctx, a, b, es_sizes[si], test_elem_sizes[ei], PAT_RANDOM_50, 256,
                     SC_SCAN_DEFAULT, SC_RLZ_DEFAULT);
            run_case(ctx, a, b, es_sizes[si], test_elem_sizes[ei], PAT_LONG_RUNS, 256,
                     SC_SCAN_DEFAULT, SC_RLZ_DEFAULT);
        }
    /* 3. tiles x scan variants x tile-relative sizes */
    static const test_pattern tp[] = {PAT_RANDOM_10, PAT_RANDOM_90, PAT_ALTERNATING, PAT_ONE_END,
                                      PAT_LONG_RUNS};
    size_t ntiles = (a->tunables & SC_TUNE_TILE) ? test_num_tiles : 1;
    int nscans = (a->tunables & SC_TUNE_SCAN) ? 2 : 1;
    for (size_t ti = 0; ti < ntiles; ti++) {
        size_t tile = (a->tunables & SC_TUNE_TILE) ? test_tiles[ti] : 256;
        const size_t sizes[] = {tile - 1, tile, tile + 1, 3 * tile + 5, 100003};
        for (int sv = 0; sv < nscans; sv++)
            for (size_t si = 0; si < 5; si++)
                for (size_t pi = 0; pi < sizeof tp / sizeof tp[0]; pi++)
                    run_case(ctx, a, b, sizes[si], pi == 0 ? 12 : 4, tp[pi], tile,
                             sv ? SC_SCAN_BLELLOCH : SC_SCAN_HILLIS_STEELE, SC_RLZ_DEFAULT);
    }
    /* 4. RLZ run-length variants */
    if (a->tunables & SC_TUNE_RLZ)
        for (int v = SC_RLZ_RECURSIVE_DOUBLING; v <= SC_RLZ_BALANCED_TREE; v++)
            for (size_t ti = 0; ti < test_num_tiles; ti++)
                for (int p = 0; p < PAT_COUNT; p++)
                    run_case(ctx, a, b, 100003, 8, (test_pattern)p, test_tiles[ti], SC_SCAN_DEFAULT,
                             (sc_rlz_variant)v);
    printf("%-14s %s\n", a->name, test_failures == before ? "ok" : "FAILED");
}

int main(int argc, char **argv) {
    size_t maxn = (1u << 20) + 7, maxes = 64;
    buffers b;
    b.in = malloc(maxn * maxes + 64);
    b.out = malloc(maxn * maxes + 64);
    b.ref = malloc(maxn * maxes + 64);
    b.flags = malloc(maxn);
    if (!b.in || !b.out || !b.ref || !b.flags) return 1;
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return 1;
    int ran = 0;
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        if (argc > 1 && strcmp(argv[1], a->name)) continue;
        if (a->input == SC_INPUT_REMOVAL_LIST || !sc_algorithm_available(a->id, SC_BACKEND_CPU)) {
            if (argc > 1) {
                fprintf(stderr, "test_flagged: '%s' is not a CPU flag-stencil algorithm\n",
                        argv[1]);
                return 1;
            }
            continue;
        }
        test_algorithm(ctx, a, &b);
        if (a->id == SC_ALGO_AUTO) {
            g_require_stable = 1;
            test_algorithm(ctx, a, &b);
            g_require_stable = 0;
        }
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "test_flagged: unknown algorithm '%s'\n", argc > 1 ? argv[1] : "");
        return 1;
    }
    sc_context_destroy(ctx);
    free(b.in);
    free(b.out);
    free(b.ref);
    free(b.flags);
    return test_finish("test_flagged", checks);
}
