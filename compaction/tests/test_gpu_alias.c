/* test_gpu_alias.c: a call whose opt.d_kept is the word of its own opt.d_n (or, with a removal
 * list, opt.d_k) is refused with SC_ERR_INVALID_ARGUMENT before anything runs: the kernels of
 * several algorithms read the run-time count after the count has been written (without the
 * refusal such a call would compact the wrong elements or count 0). Every CUDA algorithm and auto,
 * at each entry point: the refused call leaves the output and the word as they were, and the same
 * call with the count in a word of its own succeeds with the serial reference's count. Exits 77
 * (skipped) when the build or the machine has no CUDA device. */
#include "test.h"

#include "test_cuda.h"
#include <string.h>

#define BOUND 300007u
#define ES    4

static const uint32_t k_counts[] = {1, 255, 8193, 100003, BOUND};

static int checks = 0;

typedef struct bufs {
    test_words w;
    uint32_t *list, *d_out2, *d_count, *d_list, *d_k;
} bufs;

/* Flags (about 40 % removed), the removal list of the first n elements, and the reference. */
static size_t fill(bufs *b, uint32_t n, uint64_t *rng, size_t *k) {
    size_t kept = 0;
    *k = 0;
    for (uint32_t i = 0; i < BOUND; i++) {
        b->w.flags[i] = test_rand(rng) % 100 >= 40;
        if (i >= n) continue;
        if (b->w.flags[i])
            b->w.want[kept++] = b->w.in[i];
        else
            b->list[(*k)++] = i;
    }
    CUDA_OK(cudaMemcpy(b->w.d_flags, b->w.flags, BOUND, cudaMemcpyHostToDevice));
    CUDA_OK(
        cudaMemcpy(b->d_list, b->list, (*k ? *k : 1) * sizeof(uint32_t), cudaMemcpyHostToDevice));
    uint32_t k32 = (uint32_t)*k;
    CUDA_OK(cudaMemcpy(b->d_k, &k32, sizeof k32, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b->d_count, &n, sizeof n, cudaMemcpyHostToDevice));
    return kept;
}

/* The output and the count word, compared with what they held before a refused call. */
static void expect_untouched(const bufs *b, uint32_t n, const char *what) {
    uint32_t word = 0;
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(&word, b->d_count, sizeof word, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(b->w.out, b->w.d_out, (size_t)BOUND * ES, cudaMemcpyDeviceToHost));
    int same = 1;
    for (uint32_t i = 0; i < BOUND; i++) same &= b->w.out[i] == 0xA5A5A5A5u;
    checks += 2;
    ASSERT_TRUE(word == n, "%s: the word changed to %u (was %u)", what, word, n);
    ASSERT_TRUE(same, "%s: the output was written", what);
}

static sc_status call(sc_context *ctx, const sc_algorithm_info *info, int any, bufs *b,
                      const sc_options *opt) {
    void *result = NULL;
    if (any)
        return sc_compact_any(ctx, info->id, b->w.d_out, b->w.d_flags, b->d_out2, BOUND, ES,
                              b->d_list, BOUND, opt, NULL, &result);
    if (info->input == SC_INPUT_REMOVAL_LIST)
        return sc_remove_indices(ctx, info->id, b->w.d_out, BOUND, ES, b->d_list, BOUND, opt, NULL);
    return sc_compact_flagged(ctx, info->id, b->w.d_in, b->w.d_flags, b->w.d_out, BOUND, ES, opt,
                              NULL);
}

static void run_algo(sc_context *ctx, const sc_algorithm_info *info, bufs *b, uint64_t *rng) {
    const uint32_t n = k_counts[test_rand(rng) % (sizeof k_counts / sizeof *k_counts)];
    size_t k;
    const size_t want = fill(b, n, rng, &k);
    for (int any = 0; any < 2; any++) {
        if (any && info->id != SC_ALGO_AUTO) continue; /* auto takes both inputs */
        const int list = any || info->input == SC_INPUT_REMOVAL_LIST;
        sc_options opt;
        sc_options_init(&opt);
        opt.d_n = b->d_count;
        opt.d_k = b->d_k;
        for (int which = 0; which < 1 + list; which++) { /* d_kept on d_n, then on d_k */
            uint32_t *word = which ? b->d_k : b->d_count;
            CUDA_OK(cudaMemset(b->w.d_out, 0xA5, (size_t)BOUND * ES));
            opt.d_kept = word;
            char what[96];
            snprintf(what, sizeof what, "%s%s, d_kept = d_%s", info->name, any ? " (any)" : "",
                     which ? "k" : "n");
            checks++;
            ASSERT_STATUS(call(ctx, info, any, b, &opt), SC_ERR_INVALID_ARGUMENT, "%s", what);
            expect_untouched(b, n, what);
            uint32_t k32 = 0;
            CUDA_OK(cudaMemcpy(&k32, b->d_k, sizeof k32, cudaMemcpyDeviceToHost));
            checks++;
            ASSERT_TRUE(k32 == (uint32_t)k, "%s: d_k changed to %u (was %zu)", what, k32, k);
        }
        /* the same call with a word of its own */
        CUDA_OK(cudaMemcpy(b->w.d_out, b->w.d_in, (size_t)BOUND * ES, cudaMemcpyDeviceToDevice));
        opt.d_kept = b->w.d_kept;
        checks++;
        ASSERT_STATUS(call(ctx, info, any, b, &opt), SC_OK, "%s: separate words", info->name);
        uint32_t got = 0;
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(&got, b->w.d_kept, sizeof got, cudaMemcpyDeviceToHost));
        checks++;
        ASSERT_TRUE(got == want, "%s, n %u: kept %u, want %zu", info->name, n, got, want);
    }
}

int main(int argc, char **argv) {
    sc_context *ctx;
    int opened = test_context(SC_BACKEND_CUDA, "test_gpu_alias", &ctx);
    if (opened != 0) return opened;
    bufs b;
    test_words_alloc(&b.w, BOUND, 7u);
    b.list = malloc((size_t)BOUND * sizeof(uint32_t));
    if (!b.list) return 1;
    CUDA_OK(cudaMalloc((void **)&b.d_list, (size_t)BOUND * sizeof(uint32_t)));
    CUDA_OK(cudaMalloc((void **)&b.d_out2, (size_t)BOUND * ES));
    CUDA_OK(cudaMalloc((void **)&b.d_count, sizeof(uint32_t)));
    CUDA_OK(cudaMalloc((void **)&b.d_k, sizeof(uint32_t)));
    uint64_t rng = 20261124;
    for (int a = 0; a < SC_ALGO_COUNT; a++) {
        const sc_algorithm_info *info = sc_algorithm_get((sc_algorithm)a);
        if (!info || !sc_algorithm_available(info->id, SC_BACKEND_CUDA)) continue;
        if (argc > 1 && strcmp(argv[1], info->name) != 0) continue;
        run_algo(ctx, info, &b, &rng);
        printf("%-14s %d checks so far\n", info->name, checks);
    }
    test_words_free(&b.w);
    cudaFree(b.d_list);
    cudaFree(b.d_out2);
    cudaFree(b.d_count);
    cudaFree(b.d_k);
    free(b.list);
    sc_context_destroy(ctx);
    return test_finish("test_gpu_alias", checks);
}
