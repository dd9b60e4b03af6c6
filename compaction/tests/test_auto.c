/* test_auto.c: SC_ALGO_AUTO on one backend. On both: a synthetic policy table (written for the
 * backend under test) drives known choices (checked through sc_last_choice); a removal list
 * gives the exact density; sc_compact_any hands back the buffer the chosen algorithm wrote; a
 * stable order is kept when asked (and a list alone is then refused); whatever is chosen, the
 * results match the serial reference over sizes x element sizes x patterns; sc_auto_preview
 * answers without touching the last choice; a table for the other backend is refused with
 * SC_ERR_POLICY and nothing written.
 * --backend cpu: the density sampled from the flags, then the previous call's; the built-in
 * table "cpu"; a list that disagrees with the flags refused (the CPU checks lists on the host).
 * --backend cuda: the built-in table of the device (sm_90 on an H100, else cuda); no read-back
 * inside a call (after a device-only count the next call takes the policy's default); hint,
 * previous-call and device-side list-length (opt.d_k) densities; a CUDA table naming cub and
 * redzone-block. Every result is checked against the host reference.
 * Usage: test_auto [--backend cpu|cuda] [--quick]   (--quick: n <= 2^17 on CUDA). Exits 77
 * (skipped) only when --backend cuda finds no CUDA device. */
#define _POSIX_C_SOURCE 200809L
#include "test_backend.h"

#include <math.h>
#include <string.h>

static int checks = 0;
static sc_backend backend;

/* Rules by position: 0 list & few removed; 1 small n; 2 large elements; 3 few removed;
 * 4 most removed; 5 half removed, stability not asked; 6 stable asked, a quarter; 7 the rest.
 * Every algorithm it names is on both backends; %s: the backend. */
static const char k_synthetic[] =
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"synthetic\",\n"
    " \"backend\": \"%s\", \"source\": \"test_auto.c\", \"unknown_removed\": 0.25,\n"
    " \"rules\": [\n"
    "  {\"when\": {\"list\": true, \"removed_max\": 0.05}, \"algo\": \"redzone\", "
    "\"gain\": 2.5},\n"
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

/* CUDA: a table with the CUDA-only algorithms. */
static const char k_gpu_synthetic[] =
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"gpu-synthetic\",\n"
    " \"backend\": \"cuda\", \"rules\": [\n"
    "  {\"when\": {\"list\": true, \"removed_max\": 0.05}, \"algo\": \"redzone-block\"},\n"
    "  {\"when\": {\"n_max\": 1000}, \"algo\": \"horn\", \"tile\": 64, \"scan\": "
    "\"hillis-steele\"},\n"
    "  {\"when\": {\"removed_max\": 0.2, \"stable\": false}, \"algo\": \"atomic\"},\n"
    "  {\"when\": {\"removed_min\": 0.8}, \"algo\": \"cub\"},\n"
    "  {\"algo\": \"rlz\", \"tile\": 1024, \"scan\": \"blelloch\"}\n"
    " ]}\n";

/* A table for the other backend: refused. %s: that backend. */
static const char k_other_table[] =
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"c\", \"backend\": \"%s\", "
    "\"rules\": [{\"algo\": \"serial\"}]}";

/* The tables' files, named per backend: the cpu and cuda runs may run at once in one folder. */
static char synth_path[64], gpu_synth_path[64], other_path[64];
#define SYNTH_PATH     synth_path
#define GPU_SYNTH_PATH gpu_synth_path
#define OTHER_PATH     other_path
#define N              100000
#define BIG            ((size_t)100003 * 64 + 64) /* the largest stream of test_results */

static int write_table(const char *path, const char *format, const char *arg) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fprintf(f, format, arg) > 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Host streams of up to `cap` 4-byte elements, and their copies on the backend (the host
 * buffers themselves on the CPU); big: up to 100003 elements of 64 bytes. */
typedef struct bufs {
    size_t cap, want;
    uint32_t *in, *out, *ref, *list;
    uint8_t *flags;
    uint32_t *d_in, *d_out, *d_list, *d_kept;
    uint8_t *d_flags;
    unsigned char *big_in, *big_out, *big_ref, *d_big_in, *d_big_out;
} bufs;

/* n elements (element i holds i), exactly `removed` removed at random places: the flags, the
 * list of them and the reference on the host, uploaded. Returns the kept count. */
static size_t make(bufs *b, size_t n, size_t removed, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        b->flags[i] = 1;
        b->in[i] = (uint32_t)i;
    }
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
    b->want = test_reference(b->in, b->flags, b->ref, n, 4);
    test_upload(backend, b->d_in, b->in, n * 4);
    test_upload(backend, b->d_flags, b->flags, n);
    test_upload(backend, b->d_list, b->list, removed * 4);
    test_fill(backend, b->d_out, POISON, n * 4);
    return b->want;
}

/* 1 if the `kept` elements at `where` (backend memory) are the reference's (in order when
 * `stable`). */
static int result_ok(bufs *b, const void *where, size_t kept, int stable) {
    if (kept != b->want || !where) return 0;
    test_download(backend, b->out, where, kept * 4);
    return test_same_elements(b->out, b->ref, kept, 4, stable);
}

static sc_choice choice(sc_context *ctx) {
    sc_choice c;
    memset(&c, 0, sizeof c);
    if (sc_last_choice(ctx, &c) != SC_OK) c.algo = SC_ALGO_COUNT;
    return c;
}

static const char *algo_name(sc_algorithm a) {
    const sc_algorithm_info *i = sc_algorithm_get(a);
    return i ? i->name : "-";
}

/* ---- both backends ---- */

/* One auto call through sc_compact_flagged with the synthetic table; checks the choice. */
static void expect_flagged(sc_context *ctx, bufs *b, size_t n, size_t es, size_t removed,
                           size_t hint, int stable, sc_algorithm algo, int rule, size_t tile,
                           sc_scan scan) {
    make(b, n, removed, n + removed);
    test_make_data(b->big_in, n, es, n + es);
    size_t want = test_reference(b->big_in, b->flags, b->big_ref, n, es);
    test_upload(backend, b->d_big_in, b->big_in, n * es);
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = SYNTH_PATH;
    opt.removed_hint = hint;
    opt.require_stable = stable;
    size_t kept = 0;
    sc_status s = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->d_big_in, b->d_flags, b->d_big_out, n,
                                     es, &opt, &kept);
    sc_choice c;
    checks++;
    ASSERT_STATUS(s, SC_OK, "n=%zu es=%zu removed=%zu stable=%d", n, es, removed, stable);
    if (s != SC_OK || sc_last_choice(ctx, &c) != SC_OK) return;
    const char *got = algo_name(c.algo);
    ASSERT_TRUE(c.algo == algo && c.rule == rule && c.automatic,
                "n=%zu es=%zu removed=%zu stable=%d: chose %s by rule %d, want %s by rule %d", n,
                es, removed, stable, got, c.rule, algo_name(algo), rule);
    if (tile) ASSERT_TRUE(c.tile == tile, "%s: tile %zu, want %zu", got, c.tile, tile);
    if (scan) ASSERT_TRUE(c.scan == scan, "%s: scan %d, want %d", got, c.scan, scan);
    ASSERT_TRUE(c.policy && !strcmp(c.policy, "synthetic"), "policy name %s",
                c.policy ? c.policy : "NULL");
    test_download(backend, b->big_out, b->d_big_out, kept * es);
    ASSERT_TRUE(kept == want && test_same_elements(b->big_out, b->big_ref, kept, es,
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

/* Removal lists: exact density; sc_compact_any's result buffer; stability. */
static void test_lists(sc_context *ctx, bufs *b) {
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = SYNTH_PATH;
    sc_choice c;
    size_t kept = 0;
    make(b, N, N / 50, 9);
    sc_status s =
        sc_remove_indices(ctx, SC_ALGO_AUTO, b->d_in, N, 4, b->d_list, N / 50, &opt, &kept);
    c = choice(ctx);
    checks++;
    ASSERT_TRUE(s == SC_OK && c.algo == SC_ALGO_REDZONE && c.rule == 0 &&
                    c.source == SC_DENSITY_EXACT && c.removed == 0.02 && c.gain == 2.5,
                "list 2%%: %s algo %d rule %d source %d gain %g", sc_status_string(s), c.algo,
                c.rule, c.source, c.gain);
    ASSERT_TRUE(result_ok(b, b->d_in, kept, 0), "list 2%% result");
    /* 30 % with only a list: no rule names a list algorithm there, the fallback takes Redzone */
    make(b, N, N * 3 / 10, 10);
    s = sc_remove_indices(ctx, SC_ALGO_AUTO, b->d_in, N, 4, b->d_list, N * 3 / 10, &opt, &kept);
    c = choice(ctx);
    checks++;
    ASSERT_TRUE(s == SC_OK && c.algo == SC_ALGO_REDZONE && c.rule == -1 && c.gain == 0.0,
                "list 30%%: algo %d rule %d gain %g", c.algo, c.rule, c.gain);
    ASSERT_TRUE(result_ok(b, b->d_in, kept, 0), "list 30%% result");
    /* flags and list: Redzone in place at 2 %, a flag algorithm into out at 50 % */
    void *where = NULL;
    make(b, N, N / 50, 11);
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, N, 4, b->d_list, N / 50,
                       &opt, &kept, &where);
    checks++;
    ASSERT_TRUE(s == SC_OK && where == b->d_in && result_ok(b, where, kept, 0),
                "any 2%%: %s, result %s", sc_status_string(s), where == b->d_in ? "data" : "out");
    make(b, N, N / 2, 12);
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, N, 4, b->d_list, N / 2,
                       &opt, &kept, &where);
    c = choice(ctx);
    checks++;
    ASSERT_TRUE(s == SC_OK && where == b->d_out && c.algo == SC_ALGO_RLZ &&
                    result_ok(b, where, kept, 1),
                "any 50%%: %s algo %d", sc_status_string(s), c.algo);
    /* stability asked with a list and flags: a stable flag algorithm, never Redzone */
    opt.require_stable = 1;
    make(b, N, N / 50, 13);
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, N, 4, b->d_list, N / 50,
                       &opt, &kept, &where);
    c = choice(ctx);
    checks++;
    ASSERT_TRUE(s == SC_OK && where == b->d_out && c.algo < SC_ALGO_COUNT &&
                    sc_algorithm_get(c.algo)->stable && result_ok(b, where, kept, 1),
                "any stable: %s algo %d", sc_status_string(s), c.algo);
    /* ... and with a list alone there is no stable algorithm: refused, data untouched */
    make(b, N, N / 50, 14);
    memcpy(b->big_ref, b->in, N * 4); /* b->in is the data itself on the CPU */
    s = sc_remove_indices(ctx, SC_ALGO_AUTO, b->d_in, N, 4, b->d_list, N / 50, &opt, &kept);
    checks++;
    ASSERT_STATUS(s, SC_ERR_UNSUPPORTED, "stable list-only auto");
    test_download(backend, b->big_out, b->d_in, N * 4);
    ASSERT_TRUE(memcmp(b->big_out, b->big_ref, N * 4) == 0, "stable list-only auto wrote the data");
    /* a fixed unstable algorithm when stability is asked */
    s = sc_compact_flagged(ctx, SC_ALGO_JUMPING_JACK, b->d_in, b->d_flags, b->d_out, N, 4, &opt,
                           &kept);
    checks++;
    ASSERT_STATUS(s, SC_ERR_UNSUPPORTED, "jumping-jack with require_stable");
    if (backend != SC_BACKEND_CPU) return;
    /* a list that disagrees with the flags (checked on the host by the CPU backend) */
    opt.require_stable = 0;
    make(b, N, N / 50, 15);
    b->flags[b->list[0]] = 1;
    s = sc_compact_any(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, N, 4, b->d_list, N / 50,
                       &opt, &kept, &where);
    checks++;
    ASSERT_STATUS(s, SC_ERR_INVALID_ARGUMENT, "list and flags disagree");
}

/* Whatever the synthetic table picks, the result is the reference's. */
static void test_results(sc_context *ctx, bufs *b) {
    static const size_t sizes[] = {0, 1, 33, 257, 1000, 1001, 100003};
    static const size_t es[] = {4, 12, 64};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t ei = 0; ei < sizeof es / sizeof *es; ei++)
            for (int p = 0; p < PAT_COUNT; p++)
                for (int stable = 0; stable < 2; stable++) {
                    size_t n = sizes[si], bytes = n * es[ei];
                    test_make_flags(b->flags, n, (test_pattern)p, n + (size_t)p);
                    test_make_data(b->big_in, n, es[ei], n * 3 + es[ei]);
                    test_upload(backend, b->d_flags, b->flags, n);
                    test_upload(backend, b->d_big_in, b->big_in, bytes);
                    test_fill(backend, b->d_big_out, POISON, bytes + 64);
                    size_t want = test_reference(b->big_in, b->flags, b->big_ref, n, es[ei]);
                    size_t kept = 0;
                    sc_options opt;
                    sc_options_init(&opt);
                    opt.policy = SYNTH_PATH;
                    opt.require_stable = stable;
                    sc_status s = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->d_big_in, b->d_flags,
                                                     b->d_big_out, n, es[ei], &opt, &kept);
                    sc_choice c;
                    checks++;
                    ASSERT_STATUS(s, SC_OK, "n=%zu es=%zu %s", n, es[ei],
                                  test_pattern_name((test_pattern)p));
                    if (s != SC_OK || sc_last_choice(ctx, &c) != SC_OK) continue;
                    const sc_algorithm_info *a = sc_algorithm_get(c.algo);
                    test_download(backend, b->big_out, b->d_big_out, bytes + 64);
                    ASSERT_TRUE(!stable || a->stable, "%s chosen with stability asked", a->name);
                    ASSERT_TRUE(kept == want && test_same_elements(b->big_out, b->big_ref, kept,
                                                                   es[ei], stable || a->stable),
                                "%s n=%zu es=%zu %s stable=%d", a->name, n, es[ei],
                                test_pattern_name((test_pattern)p), stable);
                    ASSERT_TRUE(test_untouched(b->big_out, kept * es[ei], bytes + 64, POISON),
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
    ASSERT_STATUS(
        sc_compact_flagged(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, N, 4, &opt, &kept),
        SC_OK, "preview: a call first");
    sc_choice before = choice(ctx), c, after;
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
                    sc_status_string(st), st == SC_OK ? algo_name(c.algo) : "-", c.rule,
                    algo_name(cases[i].want), cases[i].rule);
    }
    after = choice(ctx);
    checks++;
    ASSERT_TRUE(after.algo == before.algo && after.rule == before.rule,
                "preview changed the last choice");
    ASSERT_STATUS(sc_auto_preview(ctx, N, 4, (sc_input)7, &opt, &c), SC_ERR_INVALID_ARGUMENT,
                  "preview: bad input kind");
    ASSERT_STATUS(sc_auto_preview(ctx, N, 4, SC_INPUT_ANY, &opt, NULL), SC_ERR_INVALID_ARGUMENT,
                  "preview: no output");
}

/* A table for the other backend is refused, nothing written, and the reason names the file. */
static void test_other_table(sc_context *ctx, bufs *b) {
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = OTHER_PATH;
    make(b, N, N / 2, 9);
    size_t kept = 77;
    sc_status st =
        sc_compact_flagged(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, N, 4, &opt, &kept);
    uint32_t first = 0;
    test_download(backend, &first, b->d_out, 4);
    checks++;
    ASSERT_STATUS(st, SC_ERR_POLICY, "a table for the other backend");
    ASSERT_TRUE(kept == 77 && first == 0xA5A5A5A5u && strstr(sc_policy_error(ctx), OTHER_PATH),
                "other backend's table: kept %zu, reason '%s'", kept, sc_policy_error(ctx));
}

/* ---- CPU ---- */

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
    /* the CPU knows a run-time count (opt.d_n, a host pointer): opt.n_hint does not override it,
     * and the choice reports the count it was made for */
    uint32_t live = 700;
    want = make(b, live, live / 2, 9);
    opt.policy = SYNTH_PATH;
    opt.d_n = &live;
    opt.n_hint = 100;
    s = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->in, b->flags, b->out, N, 4, &opt, &kept);
    checks++;
    ASSERT_TRUE(s == SC_OK && sc_last_choice(ctx, &c) == SC_OK && c.n == live && kept == want &&
                    test_same_elements(b->out, b->ref, kept, 4, 0),
                "CPU d_n with n_hint: %s, chose for n %zu, kept %zu want %zu", sc_status_string(s),
                c.n, kept, want);
    sc_context_destroy(ctx);
}

/* ---- CUDA ---- */

#ifdef SC_HAVE_CUDA
#include "test_cuda.h"

/* One auto call on the loaded stream of n flags (its status in *st); what auto chose. */
static sc_choice call_auto(sc_context *ctx, bufs *b, size_t n, const sc_options *opt, size_t *kept,
                           sc_status *st) {
    *st = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, n, 4, opt, kept);
    return choice(ctx);
}

/* The built-in table, the density sources, and no read-back of a device-only count. */
static void test_builtin(sc_context *ctx, bufs *b, size_t n) {
    int major = 0, minor = 0, dev = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_OK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    const char *want_policy = major == 9 && minor == 0 ? "sm_90" : "cuda";
    sc_options opt;
    sc_options_init(&opt);
    size_t kept = 0;
    make(b, n, n / 2, 1);
    sc_status st;
    sc_choice c = call_auto(ctx, b, n, &opt, &kept, &st);
    checks++;
    ASSERT_STATUS(st, SC_OK, "first call");
    ASSERT_TRUE(c.policy && !strcmp(c.policy, want_policy) && c.source == SC_DENSITY_DEFAULT &&
                    c.removed == 0.5,
                "first call: policy %s source %d removed %g", c.policy ? c.policy : "NULL",
                c.source, c.removed);
    ASSERT_TRUE(c.algo < SC_ALGO_COUNT &&
                    result_ok(b, b->d_out, kept, sc_algorithm_get(c.algo)->stable),
                "first result");
    /* the count reached the host: the next call uses it */
    make(b, n, n / 10, 2);
    c = call_auto(ctx, b, n, &opt, &kept, &st);
    checks++;
    ASSERT_TRUE(st == SC_OK && c.source == SC_DENSITY_PREVIOUS && c.removed == 0.5,
                "previous: %s source %d removed %g", sc_status_string(st), c.source, c.removed);
    ASSERT_TRUE(c.algo < SC_ALGO_COUNT &&
                    result_ok(b, b->d_out, kept, sc_algorithm_get(c.algo)->stable),
                "second result");
    /* a device-only count: the call does not wait, and the next one cannot know it */
    opt.d_kept = b->d_kept;
    st = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, n, 4, &opt, NULL);
    uint32_t dk = 0;
    CUDA_OK(cudaMemcpy(&dk, b->d_kept, 4, cudaMemcpyDeviceToHost));
    checks++;
    ASSERT_TRUE(st == SC_OK && dk == b->want && choice(ctx).source == SC_DENSITY_PREVIOUS,
                "device count: %s, %u want %zu", sc_status_string(st), dk, b->want);
    /* ... and it leaves the last density that reached the host (the second call's, 10 %) */
    c = call_auto(ctx, b, n, &opt, NULL, &st);
    checks++;
    ASSERT_TRUE(st == SC_OK && c.source == SC_DENSITY_PREVIOUS && fabs(c.removed - 0.1) < 0.001,
                "after a device-only count: source %d removed %g", c.source, c.removed);
    opt.d_kept = NULL;
    opt.removed_hint = n / 10;
    c = call_auto(ctx, b, n, &opt, &kept, &st);
    checks++;
    ASSERT_TRUE(st == SC_OK && c.source == SC_DENSITY_HINT && fabs(c.removed - 0.1) < 0.001,
                "hint: source %d removed %g", c.source, c.removed);
    /* flags and list: the result lies where the chosen algorithm writes */
    opt.removed_hint = SC_UNKNOWN_COUNT;
    for (int stable = 0; stable < 2; stable++)
        for (size_t k = n / 100; k <= n / 2; k += n / 2 - n / 100) {
            opt.require_stable = stable;
            make(b, n, k, 3 + k);
            void *where = NULL;
            st = sc_compact_any(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, n, 4, b->d_list,
                                k, &opt, &kept, &where);
            c = choice(ctx);
            const sc_algorithm_info *a = sc_algorithm_get(c.algo);
            checks++;
            ASSERT_STATUS(st, SC_OK, "any k=%zu stable=%d", k, stable);
            if (st != SC_OK || !a) continue;
            ASSERT_TRUE(c.source == SC_DENSITY_EXACT && (!stable || a->stable),
                        "any k=%zu stable=%d: %s from source %d", k, stable, a->name, c.source);
            ASSERT_TRUE(where == (a->input == SC_INPUT_FLAGS ? (void *)b->d_out : b->d_in),
                        "any: %s left its result elsewhere", a->name);
            ASSERT_TRUE(result_ok(b, where, kept, stable || a->stable), "any k=%zu: %s result", k,
                        a->name);
            /* the choice was made for the list's exact density */
            ASSERT_TRUE(c.removed == (double)k / (double)n, "any k=%zu: chose for %g, want %g", k,
                        c.removed, (double)k / (double)n);
        }
    /* a device-side list length (opt.d_k): k is only the bound, so the hint decides */
    size_t k = n / 100;
    uint32_t hk = (uint32_t)k, *d_k = test_alloc(backend, 4);
    test_upload(backend, d_k, &hk, 4);
    opt.require_stable = 0;
    opt.d_k = d_k;
    opt.removed_hint = k;
    make(b, n, k, 7);
    void *where = NULL;
    st = sc_compact_any(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, n, 4, b->d_list, n, &opt,
                        &kept, &where);
    c = choice(ctx);
    checks++;
    ASSERT_TRUE(st == SC_OK && c.source == SC_DENSITY_HINT && c.removed > 0.0099 &&
                    c.removed < 0.0101,
                "d_k: %s source %d removed %g", sc_status_string(st), c.source, c.removed);
    if (st == SC_OK && c.algo < SC_ALGO_COUNT)
        ASSERT_TRUE(result_ok(b, where, kept, sc_algorithm_get(c.algo)->stable), "d_k: %s result",
                    algo_name(c.algo));
    test_free(backend, d_k);
}

/* A CUDA table naming the CUDA-only algorithms drives known choices; each result is checked. */
static void expect_gpu(sc_context *ctx, bufs *b, size_t n, size_t k, int list, int stable,
                       sc_algorithm want, int rule) {
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = GPU_SYNTH_PATH;
    opt.require_stable = stable;
    opt.removed_hint = k;
    opt.trusted_list = 1;
    make(b, n, k, n + k);
    size_t kept = 0;
    void *where = NULL;
    sc_status st = sc_compact_any(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, n, 4,
                                  list ? b->d_list : NULL, k, &opt, &kept, &where);
    sc_choice c = choice(ctx);
    checks++;
    ASSERT_STATUS(st, SC_OK, "gpu-synthetic n=%zu k=%zu", n, k);
    if (st != SC_OK || c.algo >= SC_ALGO_COUNT) return;
    ASSERT_TRUE(c.algo == want && c.rule == rule,
                "gpu-synthetic n=%zu k=%zu list=%d stable=%d: %s by rule %d, want %s by rule %d", n,
                k, list, stable, algo_name(c.algo), c.rule, algo_name(want), rule);
    ASSERT_TRUE(result_ok(b, where, kept, stable || sc_algorithm_get(c.algo)->stable),
                "gpu-synthetic %s: result", algo_name(c.algo));
}

/* opt.n_hint with a run-time count (opt.d_n): auto chooses for the expected count, not the
 * bound, and its result is that of the run-time count; without d_n the hint is ignored. */
static void test_n_hint(sc_context *ctx, bufs *b, size_t bound) {
    const size_t live = 500;
    uint32_t h_live = (uint32_t)live, *d_live = test_alloc(backend, 4),
             *d_kept = test_alloc(backend, 4);
    test_upload(backend, d_live, &h_live, 4);
    for (int hinted = 0; hinted < 3; hinted++) {
        sc_options opt;
        sc_options_init(&opt);
        opt.policy = GPU_SYNTH_PATH;
        opt.d_kept = d_kept;
        opt.d_n = hinted < 2 ? d_live : NULL;
        if (hinted) opt.n_hint = live; /* 2: a hint without d_n */
        opt.removed_hint = live / 2;
        make(b, hinted < 2 ? live : bound, live / 2, 40 + (uint64_t)hinted);
        sc_status st = sc_compact_flagged(ctx, SC_ALGO_AUTO, b->d_in, b->d_flags, b->d_out, bound,
                                          4, &opt, hinted < 2 ? NULL : &(size_t){0});
        sc_choice c = choice(ctx);
        uint32_t got = 0;
        test_download(backend, &got, d_kept, 4);
        checks++;
        ASSERT_STATUS(st, SC_OK, "n_hint case %d", hinted);
        if (st != SC_OK) continue;
        const int want_small = hinted == 1;
        ASSERT_TRUE((c.algo == SC_ALGO_HORN) == want_small && c.n == (want_small ? live : bound),
                    "n_hint case %d: %s for n %zu", hinted, algo_name(c.algo), c.n);
        if (hinted < 2)
            ASSERT_TRUE(result_ok(b, b->d_out, got, sc_algorithm_get(c.algo)->stable),
                        "n_hint case %d: %s result (%u kept, want %zu)", hinted, algo_name(c.algo),
                        got, b->want);
    }
    test_free(backend, d_live);
    test_free(backend, d_kept);
}

static void test_gpu_synthetic(sc_context *ctx, bufs *b, size_t n) {
    expect_gpu(ctx, b, 500, 250, 0, 0, SC_ALGO_HORN, 1);
    expect_gpu(ctx, b, n, n / 10, 0, 0, SC_ALGO_ATOMIC, 2);
    expect_gpu(ctx, b, n, n / 10, 0, 1, SC_ALGO_RLZ, 4);
    expect_gpu(ctx, b, n, n * 9 / 10, 0, 0, SC_ALGO_CUB, 3);
    expect_gpu(ctx, b, n, n / 2, 0, 1, SC_ALGO_RLZ, 4);
    expect_gpu(ctx, b, n, n / 50, 1, 0, SC_ALGO_REDZONE_BLOCK, 0);
    expect_gpu(ctx, b, n, n / 50, 1, 1, SC_ALGO_RLZ, 4);
}
#endif

/* ---- main ---- */

static void alloc_bufs(bufs *b, size_t cap) {
    memset(b, 0, sizeof *b);
    b->cap = cap;
    b->in = test_alloc(SC_BACKEND_CPU, cap * 4 + 64);
    b->out = test_alloc(SC_BACKEND_CPU, cap * 4 + 64);
    b->ref = test_alloc(SC_BACKEND_CPU, cap * 4 + 64);
    b->list = test_alloc(SC_BACKEND_CPU, cap * 4 + 64);
    b->flags = test_alloc(SC_BACKEND_CPU, cap + 64);
    b->big_in = test_alloc(SC_BACKEND_CPU, BIG);
    b->big_out = test_alloc(SC_BACKEND_CPU, BIG);
    b->big_ref = test_alloc(SC_BACKEND_CPU, BIG);
    if (backend == SC_BACKEND_CPU) { /* the backend reads the host buffers */
        b->d_in = b->in;
        b->d_out = b->out;
        b->d_list = b->list;
        b->d_flags = b->flags;
        b->d_big_in = b->big_in;
        b->d_big_out = b->big_out;
        return;
    }
    b->d_in = test_alloc(backend, cap * 4 + 64);
    b->d_out = test_alloc(backend, cap * 4 + 64);
    b->d_list = test_alloc(backend, cap * 4 + 64);
    b->d_kept = test_alloc(backend, 4);
    b->d_flags = test_alloc(backend, cap + 64);
    b->d_big_in = test_alloc(backend, BIG);
    b->d_big_out = test_alloc(backend, BIG);
}

static void free_bufs(bufs *b) {
    void *device[] = {b->d_in,    b->d_out,    b->d_list,   b->d_kept,
                      b->d_flags, b->d_big_in, b->d_big_out};
    void *host[] = {b->in, b->out, b->ref, b->list, b->flags, b->big_in, b->big_out, b->big_ref};
    for (size_t i = 0; i < sizeof device / sizeof *device && backend == SC_BACKEND_CUDA; i++)
        test_free(backend, device[i]);
    for (size_t i = 0; i < sizeof host / sizeof *host; i++) free(host[i]);
}

int main(int argc, char **argv) {
    test_args args;
    if (test_parse_args(argc, argv, "test_auto", &args)) return 2;
    if (args.num_algos) {
        fprintf(stderr, "test_auto: takes no algorithm names (it tests auto)\n");
        return 2;
    }
    backend = args.backend;
    snprintf(synth_path, sizeof synth_path, "test_auto_synthetic_%s.json",
             test_backend_name(backend));
    snprintf(gpu_synth_path, sizeof gpu_synth_path, "test_auto_gpu_synthetic_%s.json",
             test_backend_name(backend));
    snprintf(other_path, sizeof other_path, "test_auto_other_%s.json", test_backend_name(backend));
    sc_context *ctx;
    int rc = test_open(&args, "test_auto", &ctx);
    if (rc) return rc;
    const int cuda = backend == SC_BACKEND_CUDA;
    /* CUDA: a stream large enough for the sm_90 table's Redzone rule */
    const size_t n = cuda ? (args.quick ? (size_t)1 << 17 : (size_t)1 << 23) : N;
    if (write_table(SYNTH_PATH, k_synthetic, test_backend_name(backend)) ||
        write_table(OTHER_PATH, k_other_table, cuda ? "cpu" : "cuda") ||
        (cuda && write_table(GPU_SYNTH_PATH, k_gpu_synthetic, ""))) {
        fprintf(stderr, "test_auto: cannot write the policy tables in the working directory\n");
        return 1;
    }
    bufs b;
    alloc_bufs(&b, n > 100003 ? n : 100003);
    if (cuda) {
#ifdef SC_HAVE_CUDA
        test_builtin(ctx, &b, n); /* first: it checks a fresh context's first call */
        test_gpu_synthetic(ctx, &b, n);
        test_n_hint(ctx, &b, n);
#endif
    } else {
        test_density_sources(&b);
    }
    test_choices(ctx, &b);
    test_lists(ctx, &b);
    test_results(ctx, &b);
    test_preview(ctx, &b);
    test_other_table(ctx, &b);
    free_bufs(&b);
    sc_context_destroy(ctx);
    remove(SYNTH_PATH);
    remove(OTHER_PATH);
    if (cuda) remove(GPU_SYNTH_PATH);
    char name[64];
    snprintf(name, sizeof name, "test_auto --backend %s", test_backend_name(backend));
    return test_finish(name, checks);
}
