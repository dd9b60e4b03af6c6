/* test_gpu_context.c: the CUDA context over many calls and bad arguments.
 * 1. 1000 calls on one context, mixed algorithms, sizes, element sizes, tiles and scans, after
 *    a warm-up at the largest size: neither the context's temporary storage nor the device's
 *    free memory may change, and every count must be right.
 * 2. Contexts created and destroyed repeatedly give their memory back; destroy accepts NULL.
 * 3. Bad arguments (NULL pointers, element size 0 or 257, bad tiles, overlapping in and out,
 *    n past the CUDA limit, no count pointer) return SC_ERR_INVALID_ARGUMENT and leave the
 *    poisoned output untouched.
 * Usage: test_gpu_context [--quick]   (--quick: n <= 2^17 and 200 calls, for the sanitizers)
 * Exits 77 (skipped) when the build or the machine has no CUDA device. */
#include "test.h"

#include "test_cuda.h"
#include <string.h>

#define MAX_ES 64
#define SLACK  ((size_t)4 << 20) /* free-memory noise allowed: the driver's page granularity */

static int checks = 0;

typedef struct device_stream {
    size_t n;
    void *d_in, *d_out;
    uint8_t *d_flags;
    size_t *prefix_kept; /* prefix_kept[m] = kept flags among the first m */
} device_stream;

static const size_t k_elem_sizes[] = {1, 4, 8, 12, 16, 32, 64};
#define NUM_ES (sizeof k_elem_sizes / sizeof k_elem_sizes[0])

static int flag_algorithms(const sc_algorithm_info **out) {
    int count = 0;
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        if (a->input != SC_INPUT_REMOVAL_LIST && (a->backends & (1u << SC_BACKEND_CUDA)))
            out[count++] = a;
    }
    return count;
}

static size_t free_bytes(void) {
    size_t free_b = 0, total = 0;
    CUDA_OK(cudaMemGetInfo(&free_b, &total));
    return free_b;
}

static void one_call(sc_context *ctx, const sc_algorithm_info *a, const device_stream *d, size_t n,
                     size_t es, size_t tile, sc_scan scan) {
    sc_options opt;
    sc_options_init(&opt);
    opt.tile = tile;
    opt.scan = scan;
    size_t kept = (size_t)-1;
    sc_status s = sc_compact_flagged(ctx, a->id, d->d_in, d->d_flags, d->d_out, n, es, &opt, &kept);
    checks++;
    ASSERT_STATUS(s, SC_OK, "%s n=%zu es=%zu tile=%zu", a->name, n, es, tile);
    if (s == SC_OK)
        ASSERT_TRUE(kept == d->prefix_kept[n], "%s n=%zu es=%zu: kept %zu want %zu", a->name, n, es,
                    kept, d->prefix_kept[n]);
}

/* 1. Warm up at the largest size, then many mixed calls: no growth. */
static void test_steady_state(sc_context *ctx, const device_stream *d, int calls) {
    const sc_algorithm_info *algos[SC_ALGO_COUNT];
    int count = flag_algorithms(algos);
    for (int ai = 0; ai < count; ai++) {
        size_t max_tile = algos[ai]->tunables & SC_TUNE_TILE ? SC_TILE_MAX : SC_TILE_MIN;
        for (size_t tile = SC_TILE_MIN; tile <= max_tile; tile *= 2)
            for (size_t ei = 0; ei < NUM_ES; ei++)
                for (int sv = SC_SCAN_HILLIS_STEELE; sv <= SC_SCAN_BLELLOCH; sv++)
                    one_call(ctx, algos[ai], d, d->n, k_elem_sizes[ei], tile, (sc_scan)sv);
    }
    CUDA_OK(cudaDeviceSynchronize());
    size_t temp0 = sc_context_temp_bytes(ctx), free0 = free_bytes();
    uint64_t rng = 12345;
    for (int i = 0; i < calls; i++) {
        const sc_algorithm_info *a = algos[test_rand(&rng) % (uint64_t)count];
        size_t n = (size_t)(test_rand(&rng) % (d->n + 1));
        size_t es = k_elem_sizes[test_rand(&rng) % NUM_ES];
        size_t tile = (size_t)SC_TILE_MIN << (test_rand(&rng) % 7);
        sc_scan scan = (sc_scan)(test_rand(&rng) % 3);
        one_call(ctx, a, d, n, es, tile, scan);
    }
    CUDA_OK(cudaDeviceSynchronize());
    size_t temp1 = sc_context_temp_bytes(ctx), free1 = free_bytes();
    checks++;
    ASSERT_TRUE(temp1 == temp0, "temporary storage grew from %zu to %zu bytes", temp0, temp1);
    checks++;
    ASSERT_TRUE(free1 + SLACK >= free0, "device free memory fell from %zu to %zu bytes", free0,
                free1);
}

/* 2. Create, use, destroy: the device memory comes back. */
static void test_create_destroy(const device_stream *d) {
    sc_context_destroy(NULL);
    size_t free0 = free_bytes();
    for (int i = 0; i < 20; i++) {
        sc_context *ctx;
        sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
        checks++;
        ASSERT_STATUS(s, SC_OK, "create #%d", i);
        if (s != SC_OK) return;
        ASSERT_TRUE(sc_context_backend(ctx) == SC_BACKEND_CUDA, "backend of a CUDA context");
        one_call(ctx, sc_algorithm_get(SC_ALGO_SINGLE_PASS), d, d->n, 16, 256, SC_SCAN_DEFAULT);
        sc_context_destroy(ctx);
    }
    size_t free1 = free_bytes();
    checks++;
    ASSERT_TRUE(free1 + SLACK >= free0, "20 contexts kept %zu bytes", free0 - free1);
}

/* One bad call: SC_ERR_INVALID_ARGUMENT and the poisoned output unchanged. */
static void expect_invalid(sc_context *ctx, const sc_algorithm_info *a, const device_stream *d,
                           const void *in, const uint8_t *flags, void *out, size_t n, size_t es,
                           const sc_options *opt, size_t *kept, const char *what,
                           unsigned char *host) {
    size_t bytes = d->n * MAX_ES;
    CUDA_OK(cudaMemset(d->d_out, POISON, bytes));
    sc_status s = sc_compact_flagged(ctx, a->id, in, flags, out, n, es, opt, kept);
    checks++;
    ASSERT_STATUS(s, SC_ERR_INVALID_ARGUMENT, "%s: %s", a->name, what);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(host, d->d_out, bytes, cudaMemcpyDeviceToHost));
    ASSERT_TRUE(test_untouched(host, 0, bytes, POISON), "%s: %s wrote the output", a->name, what);
}

/* 3. Bad arguments, for every CUDA flag-stencil algorithm. */
static void test_bad_arguments(sc_context *ctx, const device_stream *d) {
    const sc_algorithm_info *algos[SC_ALGO_COUNT];
    int count = flag_algorithms(algos);
    unsigned char *host = malloc(d->n * MAX_ES);
    if (!host) return;
    size_t n = d->n, kept;
    const char *in = d->d_in;
    char *out = d->d_out;
    for (int ai = 0; ai < count; ai++) {
        const sc_algorithm_info *a = algos[ai];
        sc_options opt, bad;
        sc_options_init(&opt);
        expect_invalid(ctx, a, d, NULL, d->d_flags, out, n, 4, &opt, &kept, "NULL in", host);
        expect_invalid(ctx, a, d, in, NULL, out, n, 4, &opt, &kept, "NULL flags", host);
        expect_invalid(ctx, a, d, in, d->d_flags, NULL, n, 4, &opt, &kept, "NULL out", host);
        expect_invalid(ctx, a, d, in, d->d_flags, out, n, 4, &opt, NULL, "no count", host);
        expect_invalid(ctx, a, d, in, d->d_flags, out, n, 0, &opt, &kept, "elem 0", host);
        expect_invalid(ctx, a, d, in, d->d_flags, out, n, 257, &opt, &kept, "elem 257", host);
        static const size_t bad_tiles[] = {16, 48, 4096};
        for (size_t t = 0; t < 3; t++) {
            bad = opt;
            bad.tile = bad_tiles[t];
            expect_invalid(ctx, a, d, in, d->d_flags, out, n, 4, &bad, &kept, "bad tile", host);
        }
        expect_invalid(ctx, a, d, out + 8, d->d_flags, out, n, 4, &opt, &kept, "in overlaps out",
                       host);
        expect_invalid(ctx, a, d, in, d->d_flags, out, (size_t)UINT32_MAX + 1, 1, &opt, &kept,
                       "n > 2^32 - 1", host);
        sc_status s = sc_compact_flagged(NULL, a->id, in, d->d_flags, out, n, 4, &opt, &kept);
        checks++;
        ASSERT_STATUS(s, SC_ERR_INVALID_ARGUMENT, "%s: NULL context", a->name);
    }
    free(host);
}

static int make_stream(device_stream *d, size_t n) {
    d->n = n;
    unsigned char *in = malloc(n * MAX_ES);
    uint8_t *flags = malloc(n);
    d->prefix_kept = malloc((n + 1) * sizeof(size_t));
    if (!in || !flags || !d->prefix_kept) return 0;
    test_make_data(in, n, MAX_ES, 7);
    test_make_flags(flags, n, PAT_RANDOM_50, 7);
    d->prefix_kept[0] = 0;
    for (size_t i = 0; i < n; i++) d->prefix_kept[i + 1] = d->prefix_kept[i] + (flags[i] != 0);
    CUDA_OK(cudaMalloc(&d->d_in, n * MAX_ES));
    CUDA_OK(cudaMalloc(&d->d_out, n * MAX_ES));
    CUDA_OK(cudaMalloc((void **)&d->d_flags, n));
    CUDA_OK(cudaMemcpy(d->d_in, in, n * MAX_ES, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d->d_flags, flags, n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaDeviceSynchronize()); /* pageable copies may still be landing */
    free(in);
    free(flags);
    return 1;
}

int main(int argc, char **argv) {
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    sc_context *ctx;
    int opened = test_context(SC_BACKEND_CUDA, "test_gpu_context", &ctx);
    if (opened != 0) return opened;
    device_stream d;
    if (!make_stream(&d, quick ? (size_t)1 << 17 : (size_t)1 << 20)) return 1;
    test_steady_state(ctx, &d, quick ? 200 : 1000);
    test_bad_arguments(ctx, &d);
    sc_context_destroy(ctx);
    test_create_destroy(&d);
    cudaFree(d.d_in);
    cudaFree(d.d_out);
    cudaFree(d.d_flags);
    free(d.prefix_kept);
    return test_finish("test_gpu_context", checks);
}
