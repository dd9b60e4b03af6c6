/* test_gpu_auto.c: SC_ALGO_AUTO on the CUDA backend: the built-in table of the device (sm_90 on
 * an H100, else cuda); no read-back inside a call (after a device-only count the next call
 * takes the policy's default); hint and previous-call densities; sc_compact_any's result
 * buffer; stability when asked; a synthetic table's choices; a table for the wrong backend
 * refused. Every result is checked against the host reference.
 * Usage: test_gpu_auto [--quick]   (--quick: n <= 2^17). Exits 77 without a CUDA device. */
#include "test.h"

#include <cuda_runtime_api.h>
#include <string.h>

static int checks = 0;

static const char k_synthetic[] =
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"gpu-synthetic\",\n"
    " \"backend\": \"cuda\", \"rules\": [\n"
    "  {\"when\": {\"list\": true, \"removed_max\": 0.05}, \"algo\": \"redzone-block\"},\n"
    "  {\"when\": {\"n_max\": 1000}, \"algo\": \"horn\", \"tile\": 64, \"scan\": "
    "\"hillis-steele\"},\n"
    "  {\"when\": {\"removed_max\": 0.2, \"stable\": false}, \"algo\": \"atomic\"},\n"
    "  {\"when\": {\"removed_min\": 0.8}, \"algo\": \"cub\"},\n"
    "  {\"algo\": \"rlz\", \"tile\": 1024, \"scan\": \"blelloch\"}\n"
    " ]}\n";
static const char k_cpu_table[] =
    "{\"format\": \"raycompact-policy\", \"version\": 1, \"name\": \"c\", \"backend\": \"cpu\", "
    "\"rules\": [{\"algo\": \"serial\"}]}";

#define SYNTH_PATH "test_gpu_auto_synthetic.json"
#define CPU_PATH   "test_gpu_auto_cpu.json"

/* One stream: host copies, and its device buffers. */
typedef struct stream {
    size_t n, k, want;
    uint32_t *in, *ref, *list, *out;
    uint8_t *flags;
    uint32_t *d_data, *d_out, *d_list, *d_kept;
    uint8_t *d_flags;
} stream;

static int alloc_stream(stream *s, size_t cap) {
    memset(s, 0, sizeof *s);
    s->in = malloc(cap * 4 + 4);
    s->ref = malloc(cap * 4 + 4);
    s->list = malloc(cap * 4 + 4);
    s->out = malloc(cap * 4 + 4);
    s->flags = malloc(cap + 1);
    if (!s->in || !s->ref || !s->list || !s->out || !s->flags) return 0;
    return cudaMalloc((void **)&s->d_data, cap * 4 + 4) == cudaSuccess &&
           cudaMalloc((void **)&s->d_out, cap * 4 + 4) == cudaSuccess &&
           cudaMalloc((void **)&s->d_list, cap * 4 + 4) == cudaSuccess &&
           cudaMalloc((void **)&s->d_kept, 4) == cudaSuccess &&
           cudaMalloc((void **)&s->d_flags, cap + 1) == cudaSuccess;
}

static void free_stream(stream *s) {
    free(s->in);
    free(s->ref);
    free(s->list);
    free(s->out);
    free(s->flags);
    cudaFree(s->d_data);
    cudaFree(s->d_out);
    cudaFree(s->d_list);
    cudaFree(s->d_kept);
    cudaFree(s->d_flags);
}

/* n elements (element i holds i), exactly k removed at random places, uploaded. */
static int load(stream *s, size_t n, size_t k, uint64_t seed) {
    s->n = n;
    s->k = k;
    for (size_t i = 0; i < n; i++) s->in[i] = (uint32_t)i;
    for (size_t i = n; i > 1; i--) { /* shuffle: the first k are removed */
        size_t j = (size_t)(test_rand(&seed) % i);
        uint32_t t = s->in[i - 1];
        s->in[i - 1] = s->in[j];
        s->in[j] = t;
    }
    memset(s->flags, 1, n);
    for (size_t i = 0; i < k; i++) {
        s->list[i] = s->in[i];
        s->flags[s->in[i]] = 0;
    }
    for (size_t i = 0; i < n; i++) s->in[i] = (uint32_t)i;
    s->want = test_reference(s->in, s->flags, s->ref, n, 4);
    return cudaMemcpy(s->d_data, s->in, n * 4, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemcpy(s->d_flags, s->flags, n, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemcpy(s->d_list, s->list, k * 4 + 4, cudaMemcpyHostToDevice) == cudaSuccess &&
           cudaMemset(s->d_out, 0xA5, n * 4) == cudaSuccess;
}

/* The result at d_result is the reference's (in order when `stable`). */
static int result_ok(stream *s, const void *d_result, size_t kept, int stable) {
    if (kept != s->want) return 0;
    if (cudaMemcpy(s->out, d_result, kept * 4, cudaMemcpyDeviceToHost) != cudaSuccess) return 0;
    return test_same_elements(s->out, s->ref, kept, 4, stable);
}

static sc_choice choice(sc_context *ctx) {
    sc_choice c;
    memset(&c, 0, sizeof c);
    if (sc_last_choice(ctx, &c) != SC_OK) c.algo = SC_ALGO_COUNT;
    return c;
}

/* The built-in table, the density sources, and no read-back of a device-only count. */
static void test_builtin(sc_context *ctx, stream *s, size_t n) {
    int major = 0, minor = 0, dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    const char *want_policy = major == 9 && minor == 0 ? "sm_90" : "cuda";
    sc_options opt;
    sc_options_init(&opt);
    size_t kept = 0;
    load(s, n, n / 2, 1);
    sc_status st =
        sc_compact_flagged(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, &opt, &kept);
    sc_choice c = choice(ctx);
    checks++;
    ASSERT_STATUS(st, SC_OK, "first call");
    ASSERT_TRUE(c.policy && !strcmp(c.policy, want_policy) && c.source == SC_DENSITY_DEFAULT &&
                    c.removed == 0.5,
                "first call: policy %s source %d removed %g", c.policy ? c.policy : "NULL",
                c.source, c.removed);
    ASSERT_TRUE(result_ok(s, s->d_out, kept, sc_algorithm_get(c.algo)->stable), "first result");
    /* the count reached the host: the next call uses it */
    load(s, n, n / 10, 2);
    st = sc_compact_flagged(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, &opt, &kept);
    c = choice(ctx);
    checks++;
    ASSERT_TRUE(st == SC_OK && c.source == SC_DENSITY_PREVIOUS && c.removed == 0.5,
                "previous: %s source %d removed %g", sc_status_string(st), c.source, c.removed);
    ASSERT_TRUE(result_ok(s, s->d_out, kept, sc_algorithm_get(c.algo)->stable), "second result");
    /* a device-only count: the call does not wait, and the next one cannot know it */
    opt.d_kept = s->d_kept;
    st = sc_compact_flagged(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, &opt, NULL);
    uint32_t dk = 0;
    cudaMemcpy(&dk, s->d_kept, 4, cudaMemcpyDeviceToHost);
    checks++;
    ASSERT_TRUE(st == SC_OK && dk == s->want && choice(ctx).source == SC_DENSITY_PREVIOUS,
                "device count: %s, %u want %zu", sc_status_string(st), dk, s->want);
    st = sc_compact_flagged(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, &opt, NULL);
    checks++;
    ASSERT_TRUE(st == SC_OK && choice(ctx).source == SC_DENSITY_DEFAULT,
                "after a device-only count: source %d", choice(ctx).source);
    opt.d_kept = NULL;
    opt.removed_hint = n / 10;
    st = sc_compact_flagged(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, &opt, &kept);
    c = choice(ctx);
    checks++;
    ASSERT_TRUE(st == SC_OK && c.source == SC_DENSITY_HINT && c.removed > 0.099 &&
                    c.removed < 0.101,
                "hint: source %d removed %g", c.source, c.removed);
    /* flags and list: the result lies where the chosen algorithm writes */
    opt.removed_hint = SC_UNKNOWN_COUNT;
    for (int stable = 0; stable < 2; stable++)
        for (size_t k = n / 100; k <= n / 2; k += n / 2 - n / 100) {
            opt.require_stable = stable;
            load(s, n, k, 3 + k);
            void *where = NULL;
            st = sc_compact_any(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, s->d_list,
                                k, &opt, &kept, &where);
            c = choice(ctx);
            const sc_algorithm_info *a = c.algo < SC_ALGO_COUNT ? sc_algorithm_get(c.algo) : NULL;
            checks++;
            ASSERT_STATUS(st, SC_OK, "any k=%zu stable=%d", k, stable);
            if (st != SC_OK || !a) continue;
            ASSERT_TRUE(c.source == SC_DENSITY_EXACT && (!stable || a->stable),
                        "any k=%zu stable=%d: %s from source %d", k, stable, a->name, c.source);
            ASSERT_TRUE(where == (a->input == SC_INPUT_FLAGS ? (void *)s->d_out : s->d_data),
                        "any: %s left its result elsewhere", a->name);
            ASSERT_TRUE(result_ok(s, where, kept, stable || a->stable), "any k=%zu: %s result", k,
                        a->name);
            /* the H100 table takes Redzone for 1 % of a large stream offered a list */
            if (!strcmp(want_policy, "sm_90") && n >= (1u << 22) && k == n / 100 && !stable)
                ASSERT_TRUE(c.algo == SC_ALGO_REDZONE, "sm_90, 1 %% of %zu: %s", n, a->name);
        }
    /* a device-side list length (opt.d_k): k is only the bound, so the hint decides */
    uint32_t *d_k = NULL;
    size_t k = n / 100;
    uint32_t hk = (uint32_t)k;
    if (cudaMalloc((void **)&d_k, 4) == cudaSuccess &&
        cudaMemcpy(d_k, &hk, 4, cudaMemcpyHostToDevice) == cudaSuccess) {
        opt.require_stable = 0;
        opt.d_k = d_k;
        opt.removed_hint = k;
        load(s, n, k, 7);
        void *where = NULL;
        st = sc_compact_any(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, s->d_list, n,
                            &opt, &kept, &where);
        c = choice(ctx);
        checks++;
        ASSERT_TRUE(st == SC_OK && c.source == SC_DENSITY_HINT && c.removed > 0.0099 &&
                        c.removed < 0.0101,
                    "d_k: %s source %d removed %g", sc_status_string(st), c.source, c.removed);
        if (st == SC_OK)
            ASSERT_TRUE(result_ok(s, where, kept, sc_algorithm_get(c.algo)->stable),
                        "d_k: %s result", sc_algorithm_get(c.algo)->name);
        opt.d_k = NULL;
        opt.removed_hint = SC_UNKNOWN_COUNT;
    }
    cudaFree(d_k);
}

/* A synthetic table drives known choices; each result is checked. */
static void expect(sc_context *ctx, stream *s, size_t n, size_t k, int list, int stable,
                   sc_algorithm want, int rule) {
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = SYNTH_PATH;
    opt.require_stable = stable;
    opt.removed_hint = k;
    opt.trusted_list = 1;
    load(s, n, k, n + k);
    size_t kept = 0;
    void *where = NULL;
    sc_status st = sc_compact_any(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4,
                                  list ? s->d_list : NULL, k, &opt, &kept, &where);
    sc_choice c = choice(ctx);
    checks++;
    ASSERT_STATUS(st, SC_OK, "synthetic n=%zu k=%zu", n, k);
    if (st != SC_OK) return;
    ASSERT_TRUE(c.algo == want && c.rule == rule,
                "synthetic n=%zu k=%zu list=%d stable=%d: %s by "
                "rule %d, want %s by rule %d",
                n, k, list, stable, sc_algorithm_get(c.algo)->name, c.rule,
                sc_algorithm_get(want)->name, rule);
    ASSERT_TRUE(result_ok(s, where, kept, stable || sc_algorithm_get(c.algo)->stable),
                "synthetic %s: result", sc_algorithm_get(c.algo)->name);
}

static void test_synthetic(sc_context *ctx, stream *s, size_t n) {
    expect(ctx, s, 500, 250, 0, 0, SC_ALGO_HORN, 1);
    expect(ctx, s, n, n / 10, 0, 0, SC_ALGO_ATOMIC, 2);
    expect(ctx, s, n, n / 10, 0, 1, SC_ALGO_RLZ, 4);
    expect(ctx, s, n, n * 9 / 10, 0, 0, SC_ALGO_CUB, 3);
    expect(ctx, s, n, n / 2, 0, 1, SC_ALGO_RLZ, 4);
    expect(ctx, s, n, n / 50, 1, 0, SC_ALGO_REDZONE_BLOCK, 0);
    expect(ctx, s, n, n / 50, 1, 1, SC_ALGO_RLZ, 4);
    /* a CPU table on the CUDA backend is refused, nothing written */
    sc_options opt;
    sc_options_init(&opt);
    opt.policy = CPU_PATH;
    load(s, n, n / 2, 9);
    size_t kept = 77;
    sc_status st =
        sc_compact_flagged(ctx, SC_ALGO_AUTO, s->d_data, s->d_flags, s->d_out, n, 4, &opt, &kept);
    uint32_t first = 0;
    cudaMemcpy(&first, s->d_out, 4, cudaMemcpyDeviceToHost);
    checks++;
    ASSERT_STATUS(st, SC_ERR_POLICY, "cpu table on cuda");
    ASSERT_TRUE(kept == 77 && first == 0xA5A5A5A5u && strstr(sc_policy_error(ctx), CPU_PATH),
                "cpu table on cuda: kept %zu, reason '%s'", kept, sc_policy_error(ctx));
}

static int write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv) {
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    sc_context *ctx;
    sc_status st = sc_context_create(SC_BACKEND_CUDA, &ctx);
    if (st == SC_ERR_NO_DEVICE || st == SC_ERR_UNSUPPORTED) {
        printf("test_gpu_auto: skipped (%s)\n", sc_status_string(st));
        return 77;
    }
    if (st != SC_OK) {
        fprintf(stderr, "test_gpu_auto: sc_context_create: %s\n", sc_status_string(st));
        return 1;
    }
    const size_t n = quick ? (size_t)1 << 17 : (size_t)1 << 23;
    stream s;
    if (!alloc_stream(&s, n) || write_text(SYNTH_PATH, k_synthetic) ||
        write_text(CPU_PATH, k_cpu_table)) {
        fprintf(stderr, "test_gpu_auto: out of memory, or cannot write the tables\n");
        return 1;
    }
    test_builtin(ctx, &s, n);
    test_synthetic(ctx, &s, n);
    free_stream(&s);
    sc_context_destroy(ctx);
    remove(SYNTH_PATH);
    remove(CPU_PATH);
    return test_finish("test_gpu_auto", checks);
}
