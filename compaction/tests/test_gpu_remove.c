/* test_gpu_remove.c: the removal-list algorithms on the CUDA backend against the host reference:
 * data[0 .. n-k) must hold the survivors as a multiset, over sizes x patterns (the 0 flags are
 * removed) x list order x element sizes, and bad lists must be rejected on the device with the
 * data untouched. Usage: test_gpu_remove [--quick]   (--quick: n <= 2^17, for the sanitizers)
 * Exits 77 (skipped) when the build or the machine has no CUDA device. */
#include "test.h"

#include <cuda_runtime_api.h>
#include <string.h>

static int checks = 0;

typedef enum list_order { ORDER_INDEX, ORDER_SHUFFLED } list_order;

/* One stream on the host: its elements, flags, the removal list and the downloaded result. */
typedef struct stream {
    size_t n, es, k;
    unsigned char *in, *out;
    uint8_t *flags, *seen;
    uint32_t *list;
} stream;

#define GUARD 64 /* poisoned bytes past the n elements on the device */

static int make_stream(stream *s, size_t n, size_t es, test_pattern p) {
    s->n = n;
    s->es = es;
    s->in = malloc(n * es + 1);
    s->out = malloc(n * es + GUARD);
    s->flags = malloc(n + 1);
    s->seen = malloc(n + 1);
    s->list = malloc(n * sizeof(uint32_t) + 4);
    if (!s->in || !s->out || !s->flags || !s->seen || !s->list) return 0;
    test_make_flags(s->flags, n, p, n + es);
    test_make_data(s->in, n, es, n * 31 + es);
    return 1;
}

static void free_stream(stream *s) {
    free(s->in);
    free(s->out);
    free(s->flags);
    free(s->seen);
    free(s->list);
}

/* The removal list: the positions of the 0 flags, in index order or shuffled (Fisher-Yates). */
static void make_list(stream *s, list_order order, uint64_t seed) {
    s->k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!s->flags[i]) s->list[s->k++] = (uint32_t)i;
    for (size_t i = s->k; order == ORDER_SHUFFLED && i > 1; i--) {
        size_t j = (size_t)(test_rand(&seed) % i);
        uint32_t t = s->list[i - 1];
        s->list[i - 1] = s->list[j];
        s->list[j] = t;
    }
}

/* out[0..kept) is the survivors as a multiset. Elements of 4 bytes and more carry their index in
 * their first 4 bytes: each kept index must appear once with its exact bytes. 1-byte elements:
 * equal histograms. */
static int survivors_match(stream *s, size_t kept) {
    const size_t es = s->es;
    if (es < 4) {
        size_t hist[256] = {0};
        for (size_t i = 0; i < s->n; i++)
            if (s->flags[i]) hist[s->in[i * es]]++;
        for (size_t j = 0; j < kept; j++)
            if (hist[s->out[j * es]]-- == 0) return 0;
        return 1;
    }
    memset(s->seen, 0, s->n);
    for (size_t j = 0; j < kept; j++) {
        const unsigned char *e = s->out + j * es;
        uint32_t idx;
        memcpy(&idx, e, 4);
        if (idx >= s->n || !s->flags[idx] || s->seen[idx]) return 0;
        if (memcmp(e, s->in + (size_t)idx * es, es) != 0) return 0;
        s->seen[idx] = 1;
    }
    return 1;
}

/* Upload the stream and the first k entries of its list, run one algorithm, download. */
static sc_status run_device(sc_context *ctx, sc_algorithm algo, stream *s, size_t k, size_t *kept,
                            int timing, int trusted) {
    void *d_data = NULL, *d_list = NULL;
    size_t bytes = s->n * s->es;
    sc_status st = SC_ERR_CUDA;
    if (cudaMalloc(&d_data, bytes + GUARD) != cudaSuccess ||
        cudaMalloc(&d_list, k * sizeof(uint32_t) + 4) != cudaSuccess)
        goto done;
    if (cudaMemcpy(d_data, s->in, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemset((char *)d_data + bytes, POISON, GUARD) != cudaSuccess ||
        cudaMemcpy(d_list, s->list, k * sizeof(uint32_t), cudaMemcpyHostToDevice) != cudaSuccess)
        goto done;
    sc_options opt;
    sc_options_init(&opt);
    opt.timing = timing;
    opt.trusted_list = trusted;
    st = sc_remove_indices(ctx, algo, d_data, s->n, s->es, d_list, k, &opt, kept);
    if (cudaMemcpy(s->out, d_data, bytes + GUARD, cudaMemcpyDeviceToHost) != cudaSuccess)
        st = SC_ERR_CUDA;
done:
    cudaFree(d_data);
    cudaFree(d_list);
    return st;
}

/* 1 if the last call recorded exactly the table row's three phases. */
static int phases_from_table(sc_context *ctx, const sc_algorithm_info *a) {
    sc_choice c; /* auto: the phases are those of the algorithm it chose */
    if (a->id == SC_ALGO_AUTO && sc_last_choice(ctx, &c) == SC_OK) a = sc_algorithm_get(c.algo);
    sc_phase_timing t[SC_MAX_PHASES];
    size_t nt = sc_last_timings(ctx, t, SC_MAX_PHASES);
    for (size_t i = 0; i < nt && i < SC_MAX_PHASES; i++)
        if (!strstr(a->phases, t[i].name)) return 0;
    return nt == 3;
}

static void run_case(sc_context *ctx, const sc_algorithm_info *a, stream *s, list_order order,
                     int trusted) {
    const char *on =
        order == ORDER_INDEX ? (trusted ? "index-order trusted" : "index-order") : "shuffled";
    size_t kept = (size_t)-1;
    sc_status st = run_device(ctx, a->id, s, s->k, &kept, 1, trusted);
    checks++;
    const char *fmt = "%s n=%zu es=%zu k=%zu %s";
    ASSERT_STATUS(st, SC_OK, fmt, a->name, s->n, s->es, s->k, on);
    if (st != SC_OK) return;
    ASSERT_TRUE(kept == s->n - s->k, "kept %zu want %zu: %s n=%zu", kept, s->n - s->k, a->name,
                s->n);
    ASSERT_TRUE(survivors_match(s, s->n - s->k), "survivors differ: %s n=%zu es=%zu k=%zu %s",
                a->name, s->n, s->es, s->k, on);
    ASSERT_TRUE(test_untouched(s->out, s->n * s->es, s->n * s->es + GUARD, POISON),
                "wrote past n: %s n=%zu es=%zu", a->name, s->n, s->es);
    if (s->k > 0 && s->k < s->n)
        ASSERT_TRUE(phases_from_table(ctx, a), "phase timings not the table's (%s): %s", a->phases,
                    a->name);
}

/* Both algorithms, both list orders, on one stream. */
static void run_stream(sc_context *ctx, size_t n, size_t es, test_pattern p) {
    stream s;
    if (!make_stream(&s, n, es, p)) {
        ASSERT_TRUE(0, "out of host memory at n=%zu es=%zu", n, es);
        free_stream(&s);
        return;
    }
    for (int o = 0; o < 2; o++) {
        make_list(&s, (list_order)o, n * 17 + (uint64_t)p);
        run_case(ctx, sc_algorithm_get(SC_ALGO_REDZONE), &s, (list_order)o, 0);
        run_case(ctx, sc_algorithm_get(SC_ALGO_REDZONE_BLOCK), &s, (list_order)o, 0);
        /* a list the program built itself (opt.trusted_list): same survivors, no check */
        run_case(ctx, sc_algorithm_get(SC_ALGO_REDZONE), &s, (list_order)o, 1);
        run_case(ctx, sc_algorithm_get(SC_ALGO_REDZONE_BLOCK), &s, (list_order)o, 1);
        run_case(ctx, sc_algorithm_get(SC_ALGO_AUTO), &s, (list_order)o, 1);
    }
    free_stream(&s);
}

/* A bad list (a duplicate, or index == n) must be rejected with the device data untouched, and
 * the next good call must succeed (the error flag does not stick). */
static void run_bad(sc_context *ctx, sc_algorithm algo, size_t n, test_pattern p, int kind) {
    stream s;
    const char *what = kind == 0 ? "duplicate" : kind == 1 ? "index == n" : "duplicate in zone";
    if (!make_stream(&s, n, 8, p)) {
        free_stream(&s);
        return;
    }
    make_list(&s, ORDER_SHUFFLED, n);
    size_t k = s.k, kept = 12345;
    if (kind != 1 && k < 2) k = 2; /* n = 1: k > n, rejected on the host, still invalid */
    if (kind == 1 && k < 1) k = 1;
    uint32_t any = s.k ? s.list[s.k / 2] : 0;
    if (kind == 0) s.list[0] = s.list[k - 1] = any;               /* any entry, twice */
    if (kind == 1) s.list[k - 1] = (uint32_t)n;                   /* one past the end */
    if (kind == 2) s.list[0] = s.list[k - 1] = (uint32_t)(n - k); /* the red zone's first slot */
    sc_status st = run_device(ctx, algo, &s, k, &kept, 0, 0);
    checks++;
    ASSERT_STATUS(st, SC_ERR_INVALID_ARGUMENT, "%s n=%zu k=%zu: %s", sc_algorithm_get(algo)->name,
                  n, k, what);
    ASSERT_TRUE(memcmp(s.out, s.in, n * 8) == 0, "%s n=%zu: %s wrote to data",
                sc_algorithm_get(algo)->name, n, what);
    make_list(&s, ORDER_SHUFFLED, n + 1);
    st = run_device(ctx, algo, &s, s.k, &kept, 0, 0);
    checks++;
    ASSERT_TRUE(st == SC_OK && kept == n - s.k && survivors_match(&s, kept),
                "%s n=%zu: a good list after a bad one failed", sc_algorithm_get(algo)->name, n);
    free_stream(&s);
}

int main(int argc, char **argv) {
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    sc_context *ctx;
    sc_status st = sc_context_create(SC_BACKEND_CUDA, &ctx);
    if (st == SC_ERR_NO_DEVICE || st == SC_ERR_UNSUPPORTED) {
        printf("test_gpu_remove: skipped (%s)\n", sc_status_string(st));
        return 77;
    }
    if (st != SC_OK) {
        fprintf(stderr, "test_gpu_remove: sc_context_create: %s\n", sc_status_string(st));
        return 1;
    }
    static const size_t sizes[] = {
        0, 1, 2, 31, 32, 33, 255, 256, 257, 100003, (1u << 20) + 7, 1u << 24, (1u << 27) + 13};
    const size_t max_n = quick ? (size_t)1 << 17 : SIZE_MAX;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        if (n > max_n) continue;
        /* the two largest sizes: the patterns that shape Redzone's cases most, small elements */
        int big = n >= (1u << 24);
        for (int p = 0; p < PAT_COUNT; p++) {
            if (big && p != PAT_RANDOM_2 && p != PAT_RANDOM_50 && p != PAT_RANDOM_98 &&
                p != PAT_LONG_RUNS && p != PAT_ONE_END)
                continue;
            size_t ei = (si + (size_t)p) % test_num_elem_sizes;
            size_t es = test_elem_sizes[ei];
            if (n > (1u << 24) && es != 1)
                es = 4;
            else if (big && es > 16)
                es = 16;
            run_stream(ctx, n, es, (test_pattern)p);
        }
        printf("n=%-10zu %s\n", n, test_failures ? "FAILED so far" : "ok");
        fflush(stdout);
    }
    static const size_t bad_sizes[] = {1, 2, 33, 257, 100003, (1u << 20) + 7};
    for (size_t bi = 0; bi < sizeof bad_sizes / sizeof bad_sizes[0]; bi++) {
        if (bad_sizes[bi] > max_n) continue;
        for (int kind = 0; kind < 3; kind++) {
            run_bad(ctx, SC_ALGO_REDZONE, bad_sizes[bi], PAT_RANDOM_50, kind);
            run_bad(ctx, SC_ALGO_REDZONE_BLOCK, bad_sizes[bi], PAT_RANDOM_10, kind);
            run_bad(ctx, SC_ALGO_REDZONE, bad_sizes[bi], PAT_NONE_KEPT, kind);
        }
    }
    printf("bad lists  %s\n", test_failures ? "FAILED so far" : "ok");
    sc_context_destroy(ctx);
    return test_finish("test_gpu_remove", checks);
}
