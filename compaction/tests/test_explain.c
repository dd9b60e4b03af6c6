/* test_explain.c: the traces `compact explain` prints reproduce the papers' worked examples.
 * JJ paper Fig. 7: mask 0110011000100100, holes 0, 3, 4 filled from 6, 10, 13 after 2, 7, 1
 * jumps. Moreira 2009 Fig. 6: with exactly one of data[0..4] removed, output 4 comes from
 * data index 5 (Horn, RLZ and Binary-Tree all find the same source). */
#include "test.h"

#include <string.h>

static int checks = 0;

typedef struct lines {
    char text[64 * 1024];
    size_t len;
} lines;

static void collect(void *user, const char *line) {
    lines *l = user;
    size_t n = strlen(line);
    if (l->len + n + 2 < sizeof l->text) {
        memcpy(l->text + l->len, line, n);
        l->len += n;
        l->text[l->len++] = '\n';
        l->text[l->len] = 0;
    }
}

static lines g_trace;

static size_t trace_run(sc_algorithm algo, const char *mask, uint32_t *out) {
    size_t n = strlen(mask), kept = 0;
    uint8_t fl[64];
    uint32_t in[64];
    for (size_t i = 0; i < n; i++) {
        fl[i] = mask[i] == '1';
        in[i] = (uint32_t)i;
    }
    sc_context *ctx;
    sc_context_create(SC_BACKEND_CPU, &ctx);
    sc_options opt;
    sc_options_init(&opt);
    opt.tile = 32;
    opt.trace = collect;
    opt.trace_user = &g_trace;
    g_trace.len = 0;
    g_trace.text[0] = 0;
    sc_status s = sc_compact_flagged(ctx, algo, in, fl, out, n, 4, &opt, &kept);
    checks++;
    ASSERT_STATUS(s, SC_OK, "%s", sc_algorithm_get(algo)->name);
    sc_context_destroy(ctx);
    return kept;
}

static void expect_line(const char *algo, const char *needle) {
    checks++;
    ASSERT_TRUE(strstr(g_trace.text, needle) != NULL, "%s trace lacks '%s'; trace:\n%s", algo,
                needle, g_trace.text);
}

int main(void) {
    uint32_t out[64];
    /* JJ paper Fig. 7 */
    size_t kept = trace_run(SC_ALGO_JUMPING_JACK, "0110011000100100", out);
    ASSERT_TRUE(kept == 6, "JJ kept %zu", kept);
    expect_line("jumping-jack", "hole 0 <- 6 after 2 jumps");
    expect_line("jumping-jack", "hole 3 <- 10 after 7 jumps");
    expect_line("jumping-jack", "hole 4 <- 13 after 1 jumps");
    ASSERT_TRUE(
        out[0] == 6 && out[1] == 1 && out[2] == 2 && out[3] == 10 && out[4] == 13 && out[5] == 5,
        "JJ output order: %u %u %u %u %u %u", out[0], out[1], out[2], out[3], out[4], out[5]);

    /* Moreira 2009 Fig. 6: one of data[0..4] removed -> output 4 <- data 5 */
    static const sc_algorithm searchers[] = {SC_ALGO_HORN, SC_ALGO_RLZ, SC_ALGO_BINARY_TREE};
    for (size_t a = 0; a < 3; a++) {
        kept = trace_run(searchers[a], "1110111111111111", out);
        ASSERT_TRUE(kept == 15 && out[4] == 5, "%s: output 4 = %u",
                    sc_algorithm_get(searchers[a])->name, out[4]);
        expect_line(sc_algorithm_get(searchers[a])->name, "output 4 <- data 5");
    }

    /* every CPU flag algorithm traces something beyond its result line */
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        if (a->input != SC_INPUT_FLAGS || !sc_algorithm_available(a->id, SC_BACKEND_CPU)) continue;
        trace_run(a->id, "0110011000100100", out);
        checks++;
        ASSERT_TRUE(strstr(g_trace.text, "kept 6 of 16") != NULL, "%s trace:\n%s", a->name,
                    g_trace.text);
    }
    return test_finish("test_explain", checks);
}
