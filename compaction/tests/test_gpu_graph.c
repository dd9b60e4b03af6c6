/* test_gpu_graph.c: run-time counts (opt.d_n, opt.d_k) and CUDA graphs on every CUDA algorithm.
 * One configuration (algorithm, element size, tile, trusted list) holds CALLS calls on separate
 * buffers, each with its own device-side n (and k), all with the same bound BOUND. The context is
 * grown with sc_context_reserve only, then the calls are captured once into a graph (stream
 * capture, global mode) and the graph is replayed REPLAYS times; before each replay the n values
 * move to other calls (0, 1, the tile edges, the bound), k changes (0, 1, n, random) and data,
 * flags and lists are drawn afresh. Every result is checked against the serial reference on the
 * host: flagged, out[0..kept) equal to it (as a multiset for unstable algorithms) and out past
 * kept untouched; removal lists, data[0..n-k) the survivors as a multiset and data[n..BOUND)
 * untouched. The same calls also run uncaptured with the counts on the device, once with the
 * count read back on the host; a list with an index >= *d_n must be rejected. The storage must
 * not grow after the reserve. Usage: test_gpu_graph [--quick] [ALGO...]
 *   --quick  (for the sanitizers) 4-byte elements, the default tile, 2 replays
 * Exits 77 (skipped) when the build or the machine has no CUDA device. */
#include "test.h"

#include "test_cuda.h"
#include <string.h>

/* auto (either input) runs here on flags; the list algorithms cover removal lists */
static int is_list(const sc_algorithm_info *a) {
    return a->input == SC_INPUT_REMOVAL_LIST;
}

#define BOUND   100003u /* 3 chunks of the block framework and a part, 98 small single-pass tiles */
#define REPLAYS 4

static int replays = REPLAYS, quick = 0;

/* The run-time n values, spread over the calls: empty, one, the tile edges of the algorithms
 * (32, 256, 2048 scan tiles, 1024 and 4096 single-pass tiles, 32768 chunks), the bound. */
static const uint32_t k_ns[] = {0,    1,     31,    32,    33,    255,       256,
                                257,  1023,  1024,  1025,  2048,  4095,      4096,
                                4097, 32767, 32768, 32769, 65537, BOUND - 1, BOUND};
#define CALLS (sizeof k_ns / sizeof k_ns[0])

static int checks = 0;

/* Host and device copies of the CALLS streams of one configuration. */
typedef struct bufs {
    size_t es;
    unsigned char *in, *out; /* CALLS * BOUND elements */
    uint8_t *flags;          /* CALLS * BOUND */
    uint32_t *list, *perm;   /* CALLS * BOUND; BOUND */
    uint32_t n[CALLS], k[CALLS], kept[CALLS];
    unsigned char *d_in, *d_out;
    uint8_t *d_flags;
    uint32_t *d_list, *d_n, *d_k, *d_kept; /* d_n, d_k, d_kept: CALLS each, one allocation */
    cudaStream_t stream;
} bufs;

static void alloc_bufs(bufs *b, size_t es) {
    size_t bytes = (size_t)CALLS * BOUND * es;
    b->es = es;
    b->in = malloc(bytes);
    b->out = malloc(bytes);
    b->flags = malloc((size_t)CALLS * BOUND);
    b->list = malloc((size_t)CALLS * BOUND * sizeof(uint32_t));
    b->perm = malloc((size_t)BOUND * sizeof(uint32_t));
    if (!b->in || !b->out || !b->flags || !b->list || !b->perm) {
        fprintf(stderr, "test_gpu_graph: out of host memory\n");
        exit(1);
    }
    CUDA_OK(cudaMalloc((void **)&b->d_in, bytes));
    CUDA_OK(cudaMalloc((void **)&b->d_out, bytes));
    CUDA_OK(cudaMalloc((void **)&b->d_flags, (size_t)CALLS * BOUND));
    CUDA_OK(cudaMalloc((void **)&b->d_list, (size_t)CALLS * BOUND * sizeof(uint32_t)));
    CUDA_OK(cudaMalloc((void **)&b->d_n, 3 * CALLS * sizeof(uint32_t)));
    b->d_k = b->d_n + CALLS;
    b->d_kept = b->d_k + CALLS;
    CUDA_OK(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking));
}

static void free_bufs(bufs *b) {
    void *host[] = {b->in, b->out, b->flags, b->list, b->perm};
    void *device[] = {b->d_in, b->d_out, b->d_flags, b->d_list, b->d_n}; /* d_k, d_kept in d_n's */
    for (size_t i = 0; i < 5; i++) {
        free(host[i]);
        cudaFree(device[i]);
    }
    cudaStreamDestroy(b->stream);
}

static unsigned char *elem(unsigned char *base, const bufs *b, size_t call) {
    return base + call * BOUND * b->es;
}

/* Replay r: call i takes n = k_ns[(i + 7r) mod CALLS]; k cycles through 0, n, 1 and a random
 * count; data, flags (the patterns in turn) and lists (k distinct random indices < n) are new. */
static void draw(bufs *b, int r, uint64_t *seed) {
    for (size_t i = 0; i < CALLS; i++) {
        uint32_t n = k_ns[(i + 7 * (size_t)r) % CALLS], k;
        switch ((i + (size_t)r) % 4) {
        case 0:
            k = 0;
            break;
        case 1:
            k = n;
            break;
        case 2:
            k = n ? 1 : 0;
            break;
        default:
            k = (uint32_t)(test_rand(seed) % ((uint64_t)n + 1));
        }
        b->n[i] = n;
        b->k[i] = k;
        test_make_data(elem(b->in, b, i), BOUND, b->es, test_rand(seed));
        test_make_flags(b->flags + i * BOUND, BOUND, (test_pattern)((i + (size_t)r) % PAT_COUNT),
                        test_rand(seed));
        for (uint32_t j = 0; j < n; j++) b->perm[j] = j;
        uint32_t *list = b->list + i * BOUND;
        for (uint32_t j = 0; j < k; j++) { /* partial Fisher-Yates: k distinct indices < n */
            uint32_t t = j + (uint32_t)(test_rand(seed) % (n - j));
            uint32_t v = b->perm[t];
            b->perm[t] = b->perm[j];
            b->perm[j] = v;
            list[j] = v;
        }
    }
}

/* The drawn streams to the device; outputs poisoned (flagged) or set to the data (in place). */
static void upload(bufs *b, int in_place) {
    size_t bytes = (size_t)CALLS * BOUND * b->es;
    CUDA_OK(cudaMemcpy(b->d_in, b->in, bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b->d_flags, b->flags, (size_t)CALLS * BOUND, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b->d_list, b->list, (size_t)CALLS * BOUND * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b->d_n, b->n, sizeof b->n, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b->d_k, b->k, sizeof b->k, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(b->d_kept, 0xff, CALLS * sizeof(uint32_t)));
    if (in_place)
        CUDA_OK(cudaMemcpy(b->d_out, b->d_in, bytes, cudaMemcpyDeviceToDevice));
    else
        CUDA_OK(cudaMemset(b->d_out, POISON, bytes));
    CUDA_OK(cudaDeviceSynchronize()); /* the calls run on a non-blocking stream */
}

/* Call i of the configuration; kept != NULL reads the count back on the host. */
static sc_status call(sc_context *ctx, const sc_algorithm_info *a, bufs *b, const sc_options *base,
                      size_t i, size_t *kept) {
    sc_options opt = *base;
    opt.d_n = b->d_n + i;
    opt.d_k = b->d_k + i;
    opt.d_kept = b->d_kept + i;
    if (!is_list(a))
        return sc_compact_flagged(ctx, a->id, elem(b->d_in, b, i), b->d_flags + i * BOUND,
                                  elem(b->d_out, b, i), BOUND, b->es, &opt, kept);
    return sc_remove_indices(ctx, a->id, elem(b->d_out, b, i), BOUND, b->es, b->d_list + i * BOUND,
                             BOUND, &opt, kept);
}

/* Check every call's result on the host against the serial reference. */
static void check(const sc_algorithm_info *a, bufs *b, const char *what) {
    const size_t es = b->es;
    CUDA_OK(cudaMemcpy(b->out, b->d_out, (size_t)CALLS * BOUND * es, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(b->kept, b->d_kept, sizeof b->kept, cudaMemcpyDeviceToHost));
    unsigned char *ref = malloc((size_t)BOUND * es);
    uint8_t *keep = malloc(BOUND);
    if (!ref || !keep) exit(1);
    for (size_t i = 0; i < CALLS; i++) {
        const uint32_t n = b->n[i], k = b->k[i];
        unsigned char *in = elem(b->in, b, i), *out = elem(b->out, b, i);
        size_t want;
        checks++;
        if (!is_list(a)) {
            want = test_reference(in, b->flags + i * BOUND, ref, n, es);
            ASSERT_TRUE(b->kept[i] == want, "%s %s es %zu n %u: kept %u, want %zu", a->name, what,
                        es, n, b->kept[i], want);
            if (b->kept[i] != want) continue;
            ASSERT_TRUE(test_same_elements(out, ref, want, es, a->stable),
                        "%s %s es %zu n %u: wrong elements", a->name, what, es, n);
            ASSERT_TRUE(test_untouched(out, want * es, (size_t)BOUND * es, POISON),
                        "%s %s es %zu n %u: written past the kept elements", a->name, what, es, n);
        } else {
            memset(keep, 1, n);
            for (uint32_t j = 0; j < k; j++) keep[b->list[i * BOUND + j]] = 0;
            want = test_reference(in, keep, ref, n, es);
            ASSERT_TRUE(b->kept[i] == n - k, "%s %s es %zu n %u k %u: kept %u", a->name, what, es,
                        n, k, b->kept[i]);
            if (b->kept[i] != n - k) continue;
            ASSERT_TRUE(test_same_elements(out, ref, want, es, 0),
                        "%s %s es %zu n %u k %u: wrong survivors", a->name, what, es, n, k);
            ASSERT_TRUE(
                memcmp(out + (size_t)n * es, in + (size_t)n * es, (size_t)(BOUND - n) * es) == 0,
                "%s %s es %zu n %u k %u: written past n", a->name, what, es, n, k);
        }
    }
    free(ref);
    free(keep);
}

/* Uncaptured: every call with the counts on the device, then the first replay's calls again with
 * the count read back on the host. */
static void run_direct(sc_context *ctx, const sc_algorithm_info *a, bufs *b, const sc_options *opt,
                       uint64_t *seed) {
    draw(b, 1, seed);
    upload(b, a->input == SC_INPUT_REMOVAL_LIST);
    for (size_t i = 0; i < CALLS; i++)
        ASSERT_STATUS(call(ctx, a, b, opt, i, NULL), SC_OK, "%s direct call %zu", a->name, i);
    CUDA_OK(cudaStreamSynchronize(b->stream));
    check(a, b, "direct");

    upload(b, a->input == SC_INPUT_REMOVAL_LIST);
    for (size_t i = 0; i < CALLS; i++) {
        size_t kept = 0;
        ASSERT_STATUS(call(ctx, a, b, opt, i, &kept), SC_OK, "%s host-count call %zu", a->name, i);
        uint32_t want = !is_list(a) ? 0 : b->n[i] - b->k[i];
        if (!is_list(a))
            for (uint32_t j = 0; j < b->n[i]; j++) want += b->flags[i * BOUND + j] != 0;
        ASSERT_TRUE(kept == want, "%s host count, n %u: %zu, want %u", a->name, b->n[i], kept,
                    want);
        checks++;
    }
    check(a, b, "host-count");
}

/* A checked list with an index >= *d_n (inside the bound) is rejected, the data untouched. */
static void run_bad_list(sc_context *ctx, const sc_algorithm_info *a, bufs *b,
                         const sc_options *opt) {
    if (a->input != SC_INPUT_REMOVAL_LIST || opt->trusted_list) return;
    b->n[0] = 1000;
    b->k[0] = 2;
    b->list[0] = 3;
    b->list[1] = 1000; /* = *d_n: out of range */
    upload(b, 1);
    size_t kept = 0;
    ASSERT_STATUS(call(ctx, a, b, opt, 0, &kept), SC_ERR_INVALID_ARGUMENT, "%s: index >= *d_n",
                  a->name);
    CUDA_OK(cudaMemcpy(b->out, b->d_out, (size_t)BOUND * b->es, cudaMemcpyDeviceToHost));
    ASSERT_TRUE(memcmp(b->out, b->in, (size_t)BOUND * b->es) == 0, "%s: bad list wrote data",
                a->name);
    checks++;
}

/* Capture all calls once, replay with new counts and data. */
static void run_graph(sc_context *ctx, const sc_algorithm_info *a, bufs *b, const sc_options *opt,
                      uint64_t *seed) {
    size_t temp = sc_context_temp_bytes(ctx);
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(b->stream, cudaStreamCaptureModeGlobal));
    int ok = 1;
    for (size_t i = 0; i < CALLS; i++) {
        sc_status s = call(ctx, a, b, opt, i, NULL);
        ASSERT_STATUS(s, SC_OK, "%s: call %zu under capture", a->name, i);
        ok &= s == SC_OK;
    }
    cudaError_t e = cudaStreamEndCapture(b->stream, &graph);
    ASSERT_TRUE(e == cudaSuccess && ok, "%s: capture failed: %s", a->name, cudaGetErrorString(e));
    checks++;
    if (e != cudaSuccess || !ok) {
        (void)cudaGetLastError();
        return;
    }
    ASSERT_TRUE(sc_context_temp_bytes(ctx) == temp, "%s: storage grew under capture", a->name);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < replays; r++) {
        draw(b, r, seed);
        upload(b, a->input == SC_INPUT_REMOVAL_LIST);
        CUDA_OK(cudaGraphLaunch(exec, b->stream));
        CUDA_OK(cudaStreamSynchronize(b->stream));
        check(a, b, "graph");
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
}

static void test_config(sc_context *ctx, const sc_algorithm_info *a, bufs *b, size_t tile,
                        int trusted, uint64_t *seed) {
    sc_options opt;
    sc_options_init(&opt);
    opt.tile = tile;
    opt.trusted_list = trusted;
    opt.stream = b->stream;
    opt.d_n = b->d_n;
    opt.d_k = b->d_k;
    opt.d_kept = b->d_kept;
    ASSERT_STATUS(sc_context_reserve(ctx, a->id, a->input, BOUND, b->es, &opt), SC_OK,
                  "%s: reserve", a->name);
    run_graph(ctx, a, b, &opt, seed);
    run_direct(ctx, a, b, &opt, seed);
    run_bad_list(ctx, a, b, &opt);
    printf("%-14s es %2zu tile %4zu%s: ok so far (%d failures)\n", a->name, b->es, tile,
           trusted ? " trusted" : "", test_failures);
}

int main(int argc, char **argv) {
    sc_context *ctx;
    int opened = test_context(SC_BACKEND_CUDA, "test_gpu_graph", &ctx);
    if (opened != 0) return opened;
    const sc_algorithm_info *algos[SC_ALGO_COUNT];
    int count = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            quick = 1;
            replays = 2;
            continue;
        }
        const sc_algorithm_info *a = sc_algorithm_find(argv[i]);
        if (!a) {
            fprintf(stderr, "test_gpu_graph: unknown algorithm '%s'\n", argv[i]);
            return 1;
        }
        algos[count++] = a;
    }
    const int named = count;
    for (int i = 0; !named && i < SC_ALGO_COUNT; i++)
        if (sc_algorithm_available((sc_algorithm)i, SC_BACKEND_CUDA))
            algos[count++] = sc_algorithm_get((sc_algorithm)i);
    { /* a run-time count in plain host memory cannot be read by the kernels */
        bufs b;
        alloc_bufs(&b, 4);
        uint32_t host_n = 5;
        sc_options opt;
        sc_options_init(&opt);
        opt.d_n = &host_n;
        size_t kept;
        ASSERT_STATUS(sc_compact_flagged(ctx, SC_ALGO_SINGLE_PASS, b.d_in, b.d_flags, b.d_out,
                                         BOUND, 4, &opt, &kept),
                      SC_ERR_INVALID_ARGUMENT, "d_n in host memory");
        checks++;
        free_bufs(&b);
    }
    static const size_t es_list[] = {4, 12};
    uint64_t seed = 20261123;
    for (size_t e = 0; e < (quick ? 1 : sizeof es_list / sizeof es_list[0]); e++) {
        bufs b;
        alloc_bufs(&b, es_list[e]);
        for (int i = 0; i < count; i++) {
            const sc_algorithm_info *a = algos[i];
            ASSERT_TRUE(sc_algorithm_available(a->id, SC_BACKEND_CUDA), "%s: not on CUDA", a->name);
            if (!sc_algorithm_available(a->id, SC_BACKEND_CUDA)) continue;
            test_config(ctx, a, &b, SC_TILE_DEFAULT, 0, &seed);
            if ((a->tunables & SC_TUNE_TILE) && !quick) {
                test_config(ctx, a, &b, SC_TILE_MIN, 0, &seed);
                test_config(ctx, a, &b, SC_TILE_MAX, 0, &seed);
            }
            if (a->input == SC_INPUT_REMOVAL_LIST)
                test_config(ctx, a, &b, SC_TILE_DEFAULT, 1, &seed);
        }
        free_bufs(&b);
    }
    sc_context_destroy(ctx);
    return test_finish("test_gpu_graph", checks);
}
