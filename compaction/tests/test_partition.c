/* test_partition.c: the k-way partition on the CPU backend (serial and scan-scatter, the
 * specification) against an independent k-pass reference, byte for byte (both are stable), over
 * sizes, key counts, key patterns and element sizes; the counts; flagged compaction as the case
 * k = 2; a run-time length (opt.d_n); and every kind of bad argument, with nothing written. */
#include "partition_cases.h"

static int checks;

static void one(sc_context *ctx, sc_algorithm algo, size_t n, size_t es, unsigned k,
                part_pattern p) {
    uint8_t *keys = malloc(n + 1);
    unsigned char *in = malloc(n * es + 1), *out = malloc(n * es + 1), *ref = malloc(n * es + 1);
    size_t want[SC_PARTITION_MAX_KEYS], got[SC_PARTITION_MAX_KEYS];
    part_make_keys(keys, n, k, p, n * 31 + es * 7 + k);
    test_make_data(in, n, es, n + es);
    part_reference(in, keys, ref, n, es, k, want);
    memset(out, POISON, n * es + 1);
    sc_status s = sc_partition(ctx, algo, in, keys, out, n, es, k, NULL, got);
    checks++;
    ASSERT_STATUS(s, SC_OK, "%s n=%zu es=%zu k=%u %s", sc_algorithm_get(algo)->name, n, es, k,
                  part_pattern_name(p));
    if (s == SC_OK) {
        checks++;
        ASSERT_TRUE(memcmp(out, ref, n * es) == 0, "%s n=%zu es=%zu k=%u %s: output differs",
                    sc_algorithm_get(algo)->name, n, es, k, part_pattern_name(p));
        checks++;
        ASSERT_TRUE(memcmp(got, want, k * sizeof *got) == 0, "%s n=%zu k=%u %s: counts differ",
                    sc_algorithm_get(algo)->name, n, k, part_pattern_name(p));
        checks++;
        ASSERT_TRUE(out[n * es] == POISON, "%s n=%zu: wrote past the end",
                    sc_algorithm_get(algo)->name, n);
    }
    free(keys);
    free(in);
    free(out);
    free(ref);
}

/* Flagged compaction is the partition with k = 2 and key = (flag == 0): group 0 = the kept
 * elements, as the serial compaction packs them. */
static void as_compaction(sc_context *ctx, sc_algorithm algo) {
    size_t n = 5000, es = 8, kept = 0, counts[2];
    uint8_t *flags = malloc(n), *keys = malloc(n);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    test_make_flags(flags, n, PAT_RANDOM_50, 3);
    for (size_t i = 0; i < n; i++) keys[i] = flags[i] == 0;
    test_make_data(in, n, es, 5);
    ASSERT_STATUS(sc_compact_flagged(ctx, SC_ALGO_SERIAL, in, flags, ref, n, es, NULL, &kept),
                  SC_OK, "serial compaction");
    ASSERT_STATUS(sc_partition(ctx, algo, in, keys, out, n, es, 2, NULL, counts), SC_OK,
                  "partition k=2");
    checks += 3;
    ASSERT_TRUE(counts[0] == kept && counts[1] == n - kept, "k=2 counts %zu/%zu, kept %zu",
                counts[0], counts[1], kept);
    ASSERT_TRUE(memcmp(out, ref, kept * es) == 0, "k=2: group 0 differs from the compaction");
    free(flags);
    free(keys);
    free(in);
    free(out);
    free(ref);
}

/* opt.d_n on the CPU backend: a host count read when the call runs; n stays the bound. */
static void run_time_length(sc_context *ctx, sc_algorithm algo) {
    size_t n = 3000, es = 4, m = 1234, want[4], got[4];
    uint8_t *keys = malloc(n);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    part_make_keys(keys, n, 4, PP_UNIFORM, 9);
    test_make_data(in, n, es, 9);
    part_reference(in, keys, ref, m, es, 4, want);
    memset(out, POISON, n * es);
    sc_options opt;
    sc_options_init(&opt);
    uint32_t len = (uint32_t)m;
    opt.d_n = &len;
    ASSERT_STATUS(sc_partition(ctx, algo, in, keys, out, n, es, 4, &opt, got), SC_OK, "d_n");
    checks += 3;
    ASSERT_TRUE(memcmp(out, ref, m * es) == 0, "d_n=%zu: output differs", m);
    ASSERT_TRUE(memcmp(got, want, sizeof got) == 0, "d_n=%zu: counts differ", m);
    ASSERT_TRUE(test_untouched(out, m * es, n * es, POISON), "d_n=%zu: wrote past *d_n", m);
    free(keys);
    free(in);
    free(out);
    free(ref);
}

static void bad_arguments(sc_context *ctx) {
    size_t n = 100, counts[SC_PARTITION_MAX_KEYS];
    uint8_t keys[100];
    uint32_t in[100], out[100];
    part_make_keys(keys, n, 4, PP_UNIFORM, 1);
    test_make_data(in, n, 4, 1);
    struct {
        const char *what;
        sc_status s, want;
    } c[16];
    int nc = 0;
#define BAD(w, call, st) c[nc++] = (typeof(c[0])){w, call, st}
    BAD("0 keys", sc_partition(ctx, SC_ALGO_SERIAL, in, keys, out, n, 4, 0, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("17 keys", sc_partition(ctx, SC_ALGO_SERIAL, in, keys, out, n, 4, 17, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("key 3 of 3", sc_partition(ctx, SC_ALGO_SERIAL, in, keys, out, n, 4, 3, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("key 3 of 3 (scan)",
        sc_partition(ctx, SC_ALGO_SCAN_SCATTER, in, keys, out, n, 4, 3, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("element size 0", sc_partition(ctx, SC_ALGO_SERIAL, in, keys, out, n, 0, 4, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("element size 257",
        sc_partition(ctx, SC_ALGO_SERIAL, in, keys, out, 1, 257, 4, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("NULL keys", sc_partition(ctx, SC_ALGO_SERIAL, in, NULL, out, n, 4, 4, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("NULL in", sc_partition(ctx, SC_ALGO_SERIAL, NULL, keys, out, n, 4, 4, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("NULL counts", sc_partition(ctx, SC_ALGO_SERIAL, in, keys, out, n, 4, 4, NULL, NULL),
        SC_ERR_INVALID_ARGUMENT);
    BAD("overlap", sc_partition(ctx, SC_ALGO_SERIAL, in, keys, in + 1, n - 1, 4, 4, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("NULL context", sc_partition(NULL, SC_ALGO_SERIAL, in, keys, out, n, 4, 4, NULL, counts),
        SC_ERR_INVALID_ARGUMENT);
    BAD("horn", sc_partition(ctx, SC_ALGO_HORN, in, keys, out, n, 4, 4, NULL, counts),
        SC_ERR_UNSUPPORTED);
    BAD("single-pass on the CPU",
        sc_partition(ctx, SC_ALGO_SINGLE_PASS, in, keys, out, n, 4, 4, NULL, counts),
        SC_ERR_UNSUPPORTED);
    BAD("algorithm 99", sc_partition(ctx, (sc_algorithm)99, in, keys, out, n, 4, 4, NULL, counts),
        SC_ERR_UNKNOWN_ALGORITHM);
#undef BAD
    for (int i = 0; i < nc; i++) {
        checks++;
        ASSERT_STATUS(c[i].s, c[i].want, "%s", c[i].what);
    }
    /* a bad key anywhere: nothing written */
    memset(out, POISON, sizeof out);
    keys[77] = 9;
    checks++;
    ASSERT_STATUS(sc_partition(ctx, SC_ALGO_SERIAL, in, keys, out, n, 4, 4, NULL, counts),
                  SC_ERR_INVALID_ARGUMENT, "key 9 of 4");
    checks++;
    ASSERT_TRUE(test_untouched(out, 0, sizeof out, POISON), "a failed call wrote its output");
    checks++;
    ASSERT_TRUE(sc_partition_available(SC_ALGO_SERIAL, SC_BACKEND_CPU) &&
                    sc_partition_available(SC_ALGO_SCAN_SCATTER, SC_BACKEND_CPU) &&
                    !sc_partition_available(SC_ALGO_RLZ, SC_BACKEND_CPU),
                "sc_partition_available");
}

int main(void) {
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return 1;
    const sc_algorithm algos[] = {SC_ALGO_SERIAL, SC_ALGO_SCAN_SCATTER};
    for (size_t a = 0; a < 2; a++) {
        for (size_t si = 0; si < PART_NUM(part_sizes); si++)
            for (size_t ei = 0; ei < PART_NUM(part_elem_sizes); ei++)
                for (size_t ki = 0; ki < PART_NUM(part_keys); ki++)
                    for (int p = 0; p < PP_COUNT; p++) {
                        size_t n = part_sizes[si], es = part_elem_sizes[ei];
                        /* the largest streams: 4-byte elements and every k only */
                        if (n > 5000 && es != 4) continue;
                        one(ctx, algos[a], n, es, part_keys[ki], (part_pattern)p);
                    }
        as_compaction(ctx, algos[a]);
        run_time_length(ctx, algos[a]);
    }
    bad_arguments(ctx);
    sc_context_destroy(ctx);
    return test_finish("test_partition", checks);
}
