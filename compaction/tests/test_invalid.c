/* test_invalid.c: bad arguments get the right status and leave every buffer untouched. */
#include "test.h"

#include <string.h>

static int checks = 0;

#define N 300

static unsigned char in[N * 16], out[N * 16 + 64];
static uint8_t flags[N];

static void expect_flagged(sc_context *ctx, sc_algorithm algo, const void *src, const uint8_t *fl,
                           void *dst, size_t n, size_t es, const sc_options *opt, sc_status want,
                           const char *what) {
    memset(out, POISON, sizeof out);
    size_t kept = 12345;
    sc_status s = sc_compact_flagged(ctx, algo, src, fl, dst, n, es, opt, &kept);
    checks++;
    ASSERT_STATUS(s, want, "%s (%s)", what,
                  sc_algorithm_get(algo) ? sc_algorithm_get(algo)->name : "?");
    ASSERT_TRUE(test_untouched(out, 0, sizeof out, POISON), "output written: %s", what);
    ASSERT_TRUE(kept == 12345, "kept written on error: %s", what);
}

int main(void) {
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return 1;
    test_make_data(in, N, 16, 1);
    test_make_flags(flags, N, PAT_RANDOM_50, 1);
    sc_options opt;

    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        sc_algorithm a = (sc_algorithm)i;
        const sc_algorithm_info *info = sc_algorithm_get(a);
        if (info->input == SC_INPUT_REMOVAL_LIST) {
            expect_flagged(ctx, a, in, flags, out, N, 4, NULL, SC_ERR_UNSUPPORTED,
                           "removal-list algorithm given flags");
            continue;
        }
        if (!sc_algorithm_available(a, SC_BACKEND_CPU)) {
            expect_flagged(ctx, a, in, flags, out, N, 4, NULL, SC_ERR_UNSUPPORTED,
                           "CUDA-only algorithm on the CPU");
            continue;
        }
        expect_flagged(ctx, a, NULL, flags, out, N, 4, NULL, SC_ERR_INVALID_ARGUMENT, "NULL in");
        expect_flagged(ctx, a, in, NULL, out, N, 4, NULL, SC_ERR_INVALID_ARGUMENT, "NULL flags");
        expect_flagged(ctx, a, in, flags, NULL, N, 4, NULL, SC_ERR_INVALID_ARGUMENT, "NULL out");
        expect_flagged(ctx, a, in, flags, out, N, 0, NULL, SC_ERR_INVALID_ARGUMENT, "elem 0");
        expect_flagged(ctx, a, in, flags, out, N, 257, NULL, SC_ERR_INVALID_ARGUMENT, "elem 257");
        expect_flagged(ctx, a, in, flags, out, sc_max_elements(SC_BACKEND_CPU) + 1, 4, NULL,
                       SC_ERR_INVALID_ARGUMENT, "n too large");
        static const size_t bad_tiles[] = {16, 48, 100, 4096, 1u << 20};
        for (size_t t = 0; t < sizeof bad_tiles / sizeof bad_tiles[0]; t++) {
            sc_options_init(&opt);
            opt.tile = bad_tiles[t];
            expect_flagged(ctx, a, in, flags, out, N, 4, &opt, SC_ERR_INVALID_ARGUMENT, "bad tile");
        }
        sc_options_init(&opt);
        opt.scan = (sc_scan)7;
        expect_flagged(ctx, a, in, flags, out, N, 4, &opt, SC_ERR_INVALID_ARGUMENT, "bad scan");
        /* in and out overlap: same buffer, and shifted by one element */
        memcpy(out, in, N * 4);
        size_t kept = 99;
        unsigned char before[N * 4 + 4];
        memcpy(before, out, sizeof before);
        checks++;
        ASSERT_STATUS(sc_compact_flagged(ctx, a, out, flags, out + 4, N, 4, NULL, &kept),
                      SC_ERR_INVALID_ARGUMENT, "overlap (%s)", info->name);
        ASSERT_TRUE(memcmp(before, out, sizeof before) == 0 && kept == 99,
                    "overlapping buffer changed (%s)", info->name);
        /* n = 0 with NULL pointers is fine */
        kept = 99;
        checks++;
        ASSERT_STATUS(sc_compact_flagged(ctx, a, NULL, NULL, NULL, 0, 4, NULL, &kept), SC_OK,
                      "n=0 (%s)", info->name);
        ASSERT_TRUE(kept == 0, "n=0 kept %zu (%s)", kept, info->name);
        /* no kept pointer on the CPU backend */
        memset(out, POISON, sizeof out);
        checks++;
        ASSERT_STATUS(sc_compact_flagged(ctx, a, in, flags, out, N, 4, NULL, NULL),
                      SC_ERR_INVALID_ARGUMENT, "NULL kept (%s)", info->name);
    }
    /* unknown algorithm, NULL context, context and status plumbing */
    expect_flagged(ctx, (sc_algorithm)SC_ALGO_COUNT, in, flags, out, N, 4, NULL,
                   SC_ERR_UNKNOWN_ALGORITHM, "enum out of range");
    expect_flagged(NULL, SC_ALGO_SERIAL, in, flags, out, N, 4, NULL, SC_ERR_INVALID_ARGUMENT,
                   "NULL context");
    checks++;
    ASSERT_TRUE(sc_algorithm_find("no-such") == NULL, "find of unknown name");
    ASSERT_TRUE(sc_algorithm_find("redzone-block")->id == SC_ALGO_REDZONE_BLOCK, "find");
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        ASSERT_TRUE(a && a->id == (sc_algorithm)i && sc_algorithm_find(a->name) == a,
                    "table row %d out of order", i);
    }
    ASSERT_TRUE(sc_algorithm_get(SC_ALGO_COUNT) == NULL, "get past the end");
    for (int s = SC_OK; s <= SC_ERR_POLICY; s++)
        ASSERT_TRUE(sc_status_string((sc_status)s)[0] != 0, "status string %d", s);
    sc_context_destroy(NULL);
    sc_context *bad = (sc_context *)1;
    ASSERT_STATUS(sc_context_create((sc_backend)5, &bad), SC_ERR_INVALID_ARGUMENT, "backend");
    ASSERT_TRUE(bad == NULL, "context set on error");
    /* the CUDA backend either works, is absent from this build, or finds no device */
    sc_context *gpu = NULL;
    sc_status gs = sc_context_create(SC_BACKEND_CUDA, &gpu);
    checks++;
    ASSERT_TRUE(gs == SC_OK || gs == SC_ERR_NO_DEVICE || gs == SC_ERR_UNSUPPORTED,
                "CUDA context: %s", sc_status_string(gs));
    ASSERT_TRUE((gs == SC_OK) == (gpu != NULL), "CUDA context pointer");
    sc_context_destroy(gpu);
    sc_context_destroy(ctx);
    return test_finish("test_invalid", checks);
}
