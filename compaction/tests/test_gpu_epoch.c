/* test_gpu_epoch.c: single-pass and scan-scatter's scan across the wrap of the look-back epoch
 * they share (one context, one control word). Tile states are tagged
 * with the call's epoch and never cleared between calls; the epoch and the ticket counter share
 * one device word (src/cuda/lookback.cuh, lb_begin). The call whose epoch is SC_LB_EPOCH_MAX
 * keeps the epoch, and its last block clears every state and restarts the epochs at 0, so the
 * states of the first calls (epoch 0, 1, ...) cannot be read as those of the calls after the
 * wrap. Here the word is set just below the wrap (the 2^30 calls it takes otherwise are too
 * many for a test), and calls with fresh flags each run through it, with the count on the host
 * and on the device (opt.d_n, opt.d_kept) and captured in a graph that is replayed; every
 * output is compared with the serial reference byte for byte, and the word is read back after
 * each step: epoch as expected, ticket 0.
 * Exits 77 (skipped) when the build or the machine has no CUDA device. */
#include "test.h"

#include "test_cuda.h"
#include <string.h>

#define EPOCH_MAX ((1u << 30) - 1) /* SC_LB_EPOCH_MAX */
#define N         100003u /* 25 single-pass tiles, 13 scan-scatter ones: look-backs over many states */
#define ES        4

/* The look-back's control word (epoch << 32 | ticket): internal, declared as context.cu does. */
sc_status sc_cuda_lookback_control(sc_context *ctx, const uint64_t *set, uint64_t *get);

static int checks = 0;

typedef struct stream {
    test_words w;
    uint32_t *d_len; /* the run-time n */
    size_t want_kept;
} stream;

/* Fresh flags (a density drawn per call) and the serial reference of them. */
static void draw(stream *s, uint64_t *rng) {
    unsigned keep = 1 + (unsigned)(test_rand(rng) % 99); /* percent kept */
    s->want_kept = 0;
    for (size_t i = 0; i < N; i++) {
        s->w.flags[i] = test_rand(rng) % 100 < keep;
        if (s->w.flags[i]) s->w.want[s->want_kept++] = s->w.in[i];
    }
    CUDA_OK(cudaMemcpy(s->w.d_flags, s->w.flags, N, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(s->w.d_out, 0xAB, (size_t)N * ES));
    CUDA_OK(cudaDeviceSynchronize()); /* the library's stream does not wait for these */
}

static void check(const stream *s, size_t kept, const char *what, uint64_t word) {
    CUDA_OK(cudaMemcpy(s->w.out, s->w.d_out, (size_t)N * ES, cudaMemcpyDeviceToHost));
    checks += 2;
    ASSERT_TRUE(kept == s->want_kept, "%s (epoch %u): kept %zu, want %zu", what,
                (unsigned)(word >> 32), kept, s->want_kept);
    ASSERT_TRUE(memcmp(s->w.out, s->w.want, s->want_kept * ES) == 0,
                "%s (epoch %u): output differs from the serial reference", what,
                (unsigned)(word >> 32));
}

/* The control word must read (epoch << 32), ticket 0. */
static void expect_word(sc_context *ctx, uint32_t epoch, const char *after) {
    uint64_t w = 0;
    checks += 2;
    ASSERT_STATUS(sc_cuda_lookback_control(ctx, NULL, &w), SC_OK, "read the word");
    ASSERT_TRUE(w == (uint64_t)epoch << 32, "after %s: word epoch %u ticket %u, want epoch %u",
                after, (unsigned)(w >> 32), (unsigned)w, epoch);
}

static uint32_t next_epoch(uint32_t e) {
    return e == EPOCH_MAX ? 0 : e + 1;
}

static const sc_algorithm k_algos[] = {SC_ALGO_SINGLE_PASS, SC_ALGO_SCAN_SCATTER};

/* One call on the host count. */
static void call_host(sc_context *ctx, sc_algorithm algo, stream *s, uint64_t *rng,
                      uint32_t *epoch) {
    draw(s, rng);
    sc_options opt;
    sc_options_init(&opt);
    size_t kept = 0;
    checks++;
    ASSERT_STATUS(
        sc_compact_flagged(ctx, algo, s->w.d_in, s->w.d_flags, s->w.d_out, N, ES, &opt, &kept),
        SC_OK, "host call");
    check(s, kept, sc_algorithm_get(algo)->name, (uint64_t)*epoch << 32);
    *epoch = next_epoch(*epoch);
    expect_word(ctx, *epoch, "a host call");
}

/* Calls captured once into a graph; each replay runs them with fresh flags and n = N. */
static void call_graph(sc_context *ctx, sc_algorithm algo, stream *s, uint64_t *rng,
                       uint32_t *epoch, int replays) {
    cudaStream_t cs;
    CUDA_OK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    const uint32_t n = N;
    CUDA_OK(cudaMemcpy(s->d_len, &n, sizeof n, cudaMemcpyHostToDevice));
    sc_options opt;
    sc_options_init(&opt);
    opt.stream = cs;
    opt.d_n = s->d_len;
    opt.d_kept = s->w.d_kept;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
    sc_status st =
        sc_compact_flagged(ctx, algo, s->w.d_in, s->w.d_flags, s->w.d_out, N, ES, &opt, NULL);
    CUDA_OK(cudaStreamEndCapture(cs, &graph));
    checks++;
    ASSERT_STATUS(st, SC_OK, "captured call");
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < replays; r++) {
        draw(s, rng);
        CUDA_OK(cudaGraphLaunch(exec, cs));
        CUDA_OK(cudaStreamSynchronize(cs));
        uint32_t kept = 0;
        CUDA_OK(cudaMemcpy(&kept, s->w.d_kept, sizeof kept, cudaMemcpyDeviceToHost));
        check(s, kept, sc_algorithm_get(algo)->name, (uint64_t)*epoch << 32);
        *epoch = next_epoch(*epoch);
        expect_word(ctx, *epoch, "a replay");
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(cs);
}

int main(void) {
    sc_context *ctx;
    int opened = test_context(SC_BACKEND_CUDA, "test_gpu_epoch", &ctx);
    if (opened != 0) return opened;
    stream st;
    test_words_alloc(&st.w, N, 0u);
    CUDA_OK(cudaMalloc((void **)&st.d_len, sizeof(uint32_t)));
    uint64_t rng = 20261123;

    /* the first calls: epochs 0, 1, 2 leave states behind (the storage starts cleared) */
    uint32_t epoch = 0;
    for (int i = 0; i < 3; i++) call_host(ctx, k_algos[i % 2], &st, &rng, &epoch);

    /* set the word just below the wrap, then run through it: on the host count ... */
    uint64_t w = 0, set = (uint64_t)(EPOCH_MAX - 2) << 32;
    checks++;
    ASSERT_STATUS(sc_cuda_lookback_control(ctx, &set, &w), SC_OK, "set the word");
    epoch = EPOCH_MAX - 2;
    for (int i = 0; i < 6; i++)
        call_host(ctx, k_algos[i % 2], &st, &rng, &epoch); /* ..MAX, 0, 1, 2 */
    /* the wrap in a call of either algorithm (above: single-pass's; here: scan-scatter's) */
    set = (uint64_t)(EPOCH_MAX - 1) << 32;
    checks++;
    ASSERT_STATUS(sc_cuda_lookback_control(ctx, &set, &w), SC_OK, "set the word");
    epoch = EPOCH_MAX - 1;
    for (int i = 0; i < 4; i++) call_host(ctx, k_algos[i % 2], &st, &rng, &epoch);
    /* ... and in a replayed graph of each */
    for (size_t a = 0; a < sizeof k_algos / sizeof *k_algos; a++) {
        set = (uint64_t)(EPOCH_MAX - 3) << 32;
        checks++;
        ASSERT_STATUS(sc_cuda_lookback_control(ctx, &set, &w), SC_OK, "set the word");
        epoch = EPOCH_MAX - 3;
        call_graph(ctx, k_algos[a], &st, &rng, &epoch, 8);
    }

    /* a CPU context has no word */
    sc_context *cpu = NULL;
    checks += 2;
    ASSERT_STATUS(sc_context_create(SC_BACKEND_CPU, &cpu), SC_OK, "cpu context");
    ASSERT_STATUS(sc_cuda_lookback_control(cpu, NULL, &w), SC_ERR_INVALID_ARGUMENT, "cpu context");
    sc_context_destroy(cpu);

    test_words_free(&st.w);
    cudaFree(st.d_len);
    sc_context_destroy(ctx);
    return test_finish("test_gpu_epoch", checks);
}
