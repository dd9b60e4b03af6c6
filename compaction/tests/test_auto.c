/* test_auto.c: SC_ALGO_AUTO on the CPU backend. A synthetic policy table drives known choices
 * (checked through sc_last_choice), the removed fraction comes from the right source, a stable
 * order is kept when asked, results match the serial reference whatever is chosen,
 * sc_compact_any hands back the right buffer, and malformed tables are refused with
 * SC_ERR_POLICY (never a crash, never a silent fallback). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test.h"

#include <math.h>
#include <string.h>

static int checks = 0;

/* Rules by position: 0 list & few removed; 1 small n; 2 large elements; 3 few removed;
 * 4 most removed; 5 half removed, stability not asked; 6 stable asked, a quarter; 7 the rest. */
static const char k_synthetic[] =
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"synthetic\",\n"
    " \"backend\": \"cpu\", \"source\": \"test_auto.c\", \"unknown_removed\": 0.25,\n"
    " \"rules\": [\n"
    "  {\"when\": {\"list\": true, \"removed_max\": 0.05}, \"algo\": \"redzone\"},\n"
    "  {\"when\": {\"n_max\": 1000}, \"algo\": \"horn\", \"tile\": 64, \"scan\": "
    "\"hillis-steele\"},\n"
    "  {\"when\": {\"elem_min\": 32}, \"algo\": \"billeter\", \"note\": \"vector IO\"},\n"
    "  {\"when\": {\"removed_max\": 0.2}, \"algo\": \"jumping-jack\", \"tile\": 512, \"scan\": "
    "\"blelloch\"},\n"
    "  {\"when\": {\"removed_min\": 0.8}, \"algo\": \"atomic\"},\n"
    "  {\"when\": {\"removed_min\": 0.4, \"removed_max\": 0.6, \"stable\": false}, \"algo\": "
    "\"rlz\", \"tile\": 128},\n"
    "  {\"when\": {\"stable\": true, \"removed_min\": 0.2, \"removed_max\": 0.3}, \"algo\": "
    "\"binary-tree\", \"tile\": 32},\n"
    "  {\"algo\": \"spataro\", \"tile\": 1024}\n"
    " ]}\n";

#define SYNTH_PATH "test_auto_synthetic.json"
#define BAD_PATH   "test_auto_bad.json"
#define N          100000

static int write_text(const char *path, const char *text, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok ? 0 : -1;
}

typedef struct bufs {
    uint32_t *in, *out, *ref, *list;
    uint8_t *flags;
} bufs;

/* flags with exactly `removed` zeros at random places; the list of them; the reference. */
static size_t make(bufs *b, size_t n, size_t removed, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        b->flags[i] = 1;
        b->in[i] = (uint32_t)i;
    }
    for (size_t i = 0; i < removed && i < n; i++) b->list[i] = (uint32_t)i;
    for (size_t i = n; i > 1; i--) { /* shuffle 0..n-1, take the first `removed` */
        size_t j = (size_t)(test_rand(&seed) % i);
        uint32_t t = b->in[i - 1];
        b->in[i - 1] = b->in[j];
        b->in[j] = t;
    }
    for (size_t i = 0; i < removed && i < n; i++) {
        b->list[i] = b->in[i];
        b->flags[b->in[i]] = 0;
    }
    for (size_t i = 0; i < n; i++) b->in[i] = (uint32_t)i;
    return test_reference(b->in, b->flags, b->ref, n, 4);
}

/* One auto call through sc_compact_flagged with the synthetic table; checks the choice. */
static void expect_flagged(sc_context *ctx, bufs *b, size_t n, size_t es, size_t removed,
                           size_t hint, int stable, sc_algorithm algo, int rule, size_t tile,
                           sc_scan scan) {
    static unsigned char in[N * 64], out[N * 64], ref[N * 64];
    make(b, n, removed, n + removed);
    test_make_data(in, n, es, n + es);
    size_t want = test_reference(in, b->flags, ref, n, es);
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = SYNTH_PATH;
    opt.removed_hint = hint;
    opt.require_stable = stable;
    size_t kept = 0;
    sc_status s = sc_compact_flagged(ctx, SC_ALGO_AUTO, in, b->flags, out, n, es, &opt, &kept);
    sc_choice c;
    checks++;
    ASSERT_STATUS(s, SC_OK, "n=%zu es=%zu removed=%zu stable=%d", n, es, removed, stable);
    if (s != SC_OK || sc_last_choice(ctx, &c) != SC_OK) return;
    const char *got = sc_algorithm_get(c.algo)->name;
    ASSERT_TRUE(c.algo == algo && c.rule == rule && c.automatic,
                "n=%zu es=%zu removed=%zu stable=%d: chose %s by rule %d, want %s by rule %d", n,
                es, removed, stable, got, c.rule, sc_algorithm_get(algo)->name, rule);
    if (tile) ASSERT_TRUE(c.tile == tile, "%s: tile %zu, want %zu", got, c.tile, tile);
    if (scan) ASSERT_TRUE(c.scan == scan, "%s: scan %d, want %d", got, c.scan, scan);
    ASSERT_TRUE(c.policy && !strcmp(c.policy, "synthetic"), "policy name %s",
                c.policy ? c.policy : "NULL");
    ASSERT_TRUE(kept == want && test_same_elements(out, ref, kept, es,
                                                   stable || sc_algorithm_get(c.algo)->stable),
                "%s (n=%zu es=%zu removed=%zu stable=%d): wrong result", got, n, es, removed,
                stable);
}

static void test_choices(sc_context *ctx, bufs *b) {
    const sc_scan HS = SC_SCAN_HILLIS_STEELE, BL = SC_SCAN_BLELLOCH;
    expect_flagged(ctx, b, 500, 4, 250, 250, 0, SC_ALGO_HORN, 1, 64, HS);
    expect_flagged(ctx, b, N, 64, N / 2, N / 2, 0, SC_ALGO_BILLETER, 2, 0, 0);
    expect_flagged(ctx, b, N, 4, N / 10, N / 10, 0, SC_ALGO_JUMPING_JACK, 3, 512, BL);
    /* stability asked: unstable Jumping Jack and atomic are passed over */
    expect_flagged(ctx, b, N, 4, N / 10, N / 10, 1, SC_ALGO_SPATARO, 7, 1024, 0);
    expect_flagged(ctx, b, N, 4, N * 9 / 10, N * 9 / 10, 0, SC_ALGO_ATOMIC, 4, 0, 0);
    expect_flagged(ctx, b, N, 4, N * 9 / 10, N * 9 / 10, 1, SC_ALGO_SPATARO, 7, 1024, 0);
    /* a rule's tile without a scan: the scan follows the tile (Blelloch from 128) */
    expect_flagged(ctx, b, N, 4, N / 2, N / 2, 0, SC_ALGO_RLZ, 5, 128, BL);
    expect_flagged(ctx, b, N, 4, N / 2, N / 2, 1, SC_ALGO_SPATARO, 7, 1024, 0);
    expect_flagged(ctx, b, N, 4, N / 4, N / 4, 1, SC_ALGO_BINARY_TREE, 6, 32, HS);
    expect_flagged(ctx, b, N, 4, N / 4, N / 4, 0, SC_ALGO_SPATARO, 7, 1024, 0);
    /* a hint that is off: the choice follows the hint, the result is still right */
    expect_flagged(ctx, b, N, 4, N / 2, N / 10, 0, SC_ALGO_JUMPING_JACK, 3, 512, BL);
}

/* Where the removed fraction comes from: the flags' sample, then the previous call. */
static void test_density_sources(bufs *b) {
    sc_context *ctx;
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return;
    sc_choice c;
    checks++;
    ASSERT_STATUS(sc_last_choice(ctx, &c), SC_ERR_INVALID_ARGUMENT, "choice before any call");
    size_t want = make(b, N, N / 10, 7), kept = 0;
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = SYNTH_PATH;
    sc_status s = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, &opt, &kept);
    checks++;
    ASSERT_STATUS(s, SC_OK, "sampled call");
    ASSERT_TRUE(sc_last_choice(ctx, &c) == SC_OK && c.source == SC_DENSITY_SAMPLED &&
                    fabs(c.removed - 0.1) < 0.06 && c.algo == SC_ALGO_JUMPING_JACK,
                "sampled: source %d removed %g algo %d", c.source, c.removed, c.algo);
    ASSERT_TRUE(kept == want && test_same_elements(b->out, b->ref, kept, 4, 0), "sampled result");
    make(b, N, N / 2, 8);
    s = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, &opt, &kept);
    checks++;
    ASSERT_TRUE(s == SC_OK && sc_last_choice(ctx, &c) == SC_OK && c.source == SC_DENSITY_PREVIOUS &&
                    fabs(c.removed - 0.1) < 1e-12,
                "previous: source %d removed %g", c.source, c.removed);
    /* a fixed algorithm reports itself */
    s = sc_compact_flagged(ctx, SC_ALGO_HORN, b->in, b->flags, b->out, N, 4, &opt, &kept);
    checks++;
    ASSERT_TRUE(s == SC_OK && sc_last_choice(ctx, &c) == SC_OK && c.algo == SC_ALGO_HORN &&
                    !c.automatic && c.rule == -2,
                "fixed: algo %d automatic %d rule %d", c.algo, c.automatic, c.rule);
    /* the built-in CPU table when no table is named */
    opt.policy = NULL;
    s = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, &opt, &kept);
    checks++;
    ASSERT_TRUE(s == SC_OK && sc_last_choice(ctx, &c) == SC_OK && c.policy &&
                    !strcmp(c.policy, "cpu"),
                "built-in table: %s", c.policy ? c.policy : "NULL");
    sc_context_destroy(ctx);
}

/* Removal lists: exact density; sc_compact_any's result buffer; stability. */
static void test_lists(sc_context *ctx, bufs *b) {
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = SYNTH_PATH;
    sc_choice c;
    size_t kept = 0, want = make(b, N, N / 50, 9);
    sc_status s = sc_remove_indices(ctx, SC_ALGO_AUTO, b->in, N, 4, b->list, N / 50, &opt, &kept);
    checks++;
    ASSERT_TRUE(s == SC_OK && sc_last_choice(ctx, &c) == SC_OK && c.algo == SC_ALGO_REDZONE &&
                    c.rule == 0 && c.source == SC_DENSITY_EXACT && c.removed == 0.02,
                "list 2%%: %s algo %d rule %d source %d", sc_status_string(s), c.algo, c.rule,
                c.source);
    ASSERT_TRUE(kept == want && test_same_elements(b->in, b->ref, kept, 4, 0), "list 2%% result");
    /* 30 % with only a list: no rule names a list algorithm there, the fallback takes Redzone */
    want = make(b, N, N * 3 / 10, 10);
    s = sc_remove_indices(ctx, SC_ALGO_AUTO, b->in, N, 4, b->list, N * 3 / 10, &opt, &kept);
    checks++;
    ASSERT_TRUE(s == SC_OK && sc_last_choice(ctx, &c) == SC_OK && c.algo == SC_ALGO_REDZONE &&
                    c.rule == -1,
                "list 30%%: algo %d rule %d", c.algo, c.rule);
    ASSERT_TRUE(kept == want && test_same_elements(b->in, b->ref, kept, 4, 0), "list 30%% result");
    /* flags and list: Redzone in place at 2 %, a flag algorithm into out at 50 % */
    void *where = NULL;
    want = make(b, N, N / 50, 11);
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, b->list, N / 50, &opt,
                       &kept, &where);
    checks++;
    ASSERT_TRUE(s == SC_OK && where == b->in && kept == want &&
                    test_same_elements(b->in, b->ref, kept, 4, 0),
                "any 2%%: %s, result %s", sc_status_string(s), where == b->in ? "data" : "out");
    want = make(b, N, N / 2, 12);
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, b->list, N / 2, &opt,
                       &kept, &where);
    checks++;
    ASSERT_TRUE(s == SC_OK && where == b->out && sc_last_choice(ctx, &c) == SC_OK &&
                    c.algo == SC_ALGO_RLZ && test_same_elements(b->out, b->ref, kept, 4, 1),
                "any 50%%: %s algo %d", sc_status_string(s), c.algo);
    /* stability asked with a list and flags: a stable flag algorithm, never Redzone */
    opt.require_stable = 1;
    want = make(b, N, N / 50, 13);
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, b->list, N / 50, &opt,
                       &kept, &where);
    checks++;
    ASSERT_TRUE(s == SC_OK && where == b->out && sc_last_choice(ctx, &c) == SC_OK &&
                    sc_algorithm_get(c.algo)->stable && kept == want &&
                    test_same_elements(b->out, b->ref, kept, 4, 1),
                "any stable: %s algo %d", sc_status_string(s), c.algo);
    /* ... and with a list alone there is no stable algorithm: refused, data untouched */
    make(b, N, N / 50, 14);
    memcpy(b->ref, b->in, N * 4);
    s = sc_remove_indices(ctx, SC_ALGO_AUTO, b->in, N, 4, b->list, N / 50, &opt, &kept);
    checks++;
    ASSERT_STATUS(s, SC_ERR_UNSUPPORTED, "stable list-only auto");
    ASSERT_TRUE(memcmp(b->ref, b->in, N * 4) == 0, "stable list-only auto wrote the data");
    /* a fixed unstable algorithm when stability is asked */
    s = sc_compact_flagged(ctx, SC_ALGO_JUMPING_JACK, b->in, b->flags, b->out, N, 4, &opt, &kept);
    checks++;
    ASSERT_STATUS(s, SC_ERR_UNSUPPORTED, "jumping-jack with require_stable");
    /* a list that disagrees with the flags */
    opt.require_stable = 0;
    make(b, N, N / 50, 15);
    b->flags[b->list[0]] = 1;
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, b->list, N / 50, &opt,
                       &kept, &where);
    checks++;
    ASSERT_STATUS(s, SC_ERR_INVALID_ARGUMENT, "list and flags disagree");
}

/* Whatever the synthetic table picks, the result is the reference's. */
static void test_results(sc_context *ctx, bufs *b) {
    static const size_t sizes[] = {0, 1, 33, 257, 1000, 1001, 100003};
    static const size_t es[] = {4, 12, 64};
    static unsigned char in[100003 * 64], out[100003 * 64 + 64], ref[100003 * 64];
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t ei = 0; ei < sizeof es / sizeof *es; ei++)
            for (int p = 0; p < PAT_COUNT; p++)
                for (int stable = 0; stable < 2; stable++) {
                    size_t n = sizes[si];
                    test_make_flags(b->flags, n, (test_pattern)p, n + (size_t)p);
                    test_make_data(in, n, es[ei], n * 3 + es[ei]);
                    memset(out, POISON, n * es[ei] + 64);
                    size_t want = test_reference(in, b->flags, ref, n, es[ei]), kept = 0;
                    sc_options opt;
                    sc_options_init(&opt);
                    opt.policy = SYNTH_PATH;
                    opt.require_stable = stable;
                    sc_status s = sc_compact_flagged(ctx, SC_ALGO_AUTO, in, b->flags, out, n,
                                                     es[ei], &opt, &kept);
                    sc_choice c;
                    checks++;
                    ASSERT_STATUS(s, SC_OK, "n=%zu es=%zu %s", n, es[ei],
                                  test_pattern_name((test_pattern)p));
                    if (s != SC_OK || sc_last_choice(ctx, &c) != SC_OK) continue;
                    const sc_algorithm_info *a = sc_algorithm_get(c.algo);
                    ASSERT_TRUE(!stable || a->stable, "%s chosen with stability asked", a->name);
                    ASSERT_TRUE(kept == want &&
                                    test_same_elements(out, ref, kept, es[ei], stable || a->stable),
                                "%s n=%zu es=%zu %s stable=%d", a->name, n, es[ei],
                                test_pattern_name((test_pattern)p), stable);
                    ASSERT_TRUE(test_untouched(out, kept * es[ei], n * es[ei] + 64, POISON),
                                "%s wrote past the kept elements", a->name);
                }
}

/* sc_auto_preview: the synthetic table's choice for a hint, with no data and no call; the
 * last call's choice stays what it was. */
static void test_preview(sc_context *ctx, bufs *b) {
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = SYNTH_PATH;
    size_t kept;
    make(b, N, N / 2, 11);
    ASSERT_STATUS(sc_compact_flagged(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, &opt, &kept),
                  SC_OK, "preview: a call first");
    sc_choice before, c, after;
    sc_last_choice(ctx, &before);
    static const struct {
        sc_input input;
        size_t hint;
        int stable;
        sc_algorithm want;
        int rule;
    } cases[] = {
        {SC_INPUT_ANY, N / 50, 0, SC_ALGO_REDZONE, 0},        /* a list, 2 % */
        {SC_INPUT_FLAGS, N / 50, 0, SC_ALGO_JUMPING_JACK, 3}, /* no list: few removed */
        {SC_INPUT_ANY, N / 10, 0, SC_ALGO_JUMPING_JACK, 3},   /* a list, but 10 % */
        {SC_INPUT_ANY, N * 9 / 10, 0, SC_ALGO_ATOMIC, 4},     /* most removed */
        {SC_INPUT_FLAGS, N / 4, 1, SC_ALGO_BINARY_TREE, 6},   /* stable, a quarter */
        {SC_INPUT_ANY, SC_UNKNOWN_COUNT, 0, SC_ALGO_RLZ, 5},  /* previous call: half */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        opt.removed_hint = cases[i].hint;
        opt.require_stable = cases[i].stable;
        sc_status st = sc_auto_preview(ctx, N, 4, cases[i].input, &opt, &c);
        checks++;
        ASSERT_TRUE(st == SC_OK && c.algo == cases[i].want && c.rule == cases[i].rule,
                    "preview case %zu: %s, %s (rule %d), want %s (rule %d)", i,
                    sc_status_string(st), st == SC_OK ? sc_algorithm_get(c.algo)->name : "-",
                    c.rule, sc_algorithm_get(cases[i].want)->name, cases[i].rule);
    }
    sc_last_choice(ctx, &after);
    checks++;
    ASSERT_TRUE(after.algo == before.algo && after.rule == before.rule,
                "preview changed the last choice");
    ASSERT_STATUS(sc_auto_preview(ctx, N, 4, (sc_input)7, &opt, &c), SC_ERR_INVALID_ARGUMENT,
                  "preview: bad input kind");
    ASSERT_STATUS(sc_auto_preview(ctx, N, 4, SC_INPUT_ANY, &opt, NULL), SC_ERR_INVALID_ARGUMENT,
                  "preview: no output");
}

int main(void) {
    bufs b;
    b.in = malloc(N * 4 + 64);
    b.out = malloc(N * 4 + 64);
    b.ref = malloc(N * 4 + 64);
    b.list = malloc(N * 4);
    b.flags = malloc(100003 + 64);
    sc_context *ctx;
    if (!b.in || !b.out || !b.ref || !b.list || !b.flags) return 1;
    if (write_text(SYNTH_PATH, k_synthetic, strlen(k_synthetic))) {
        fprintf(stderr, "test_auto: cannot write %s\n", SYNTH_PATH);
        return 1;
    }
    if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) return 1;
    test_choices(ctx, &b);
    test_density_sources(&b);
    test_lists(ctx, &b);
    test_results(ctx, &b);
    test_preview(ctx, &b);
    sc_context_destroy(ctx);
    remove(SYNTH_PATH);
    free(b.in);
    free(b.out);
    free(b.ref);
    free(b.list);
    free(b.flags);
    return test_finish("test_auto", checks);
}
