/* test_partition.c: sc_partition, every k-way partition the backend has (the table's algorithms
 * for which sc_partition_available says yes), against an independent k-pass reference, byte for
 * byte (every partition is stable), over sizes, key counts, key patterns and element sizes; the
 * counts; nothing written past the end; flagged compaction as the case k = 2; a run-time length
 * (opt.d_n: a host pointer on the CPU, a device pointer on CUDA); every kind of bad argument.
 * --backend cuda: each output and its counts also equal the CPU specification's (the serial
 * partition on the CPU backend); unless --quick, a stream of 2^22 + 5 elements (many tiles look
 * back); counts on the device (opt.d_kept), a captured graph replayed with other device
 * lengths, and a bad key reported as SC_BAD_LIST in d_kept[0].
 * Usage: test_partition [--backend cpu|cuda] [--quick] [ALGO...]   (--quick: n <= 4103, for the
 * sanitizers). Exits 77 (skipped) only when --backend cuda finds no CUDA device. */
#include "partition_cases.h"
#include "test_backend.h"

#ifdef SC_HAVE_CUDA
#include "test_cuda.h"
#endif

static int checks;
static sc_backend backend;
static sc_context *spec_ctx; /* CUDA: the CPU backend, whose serial partition is the spec */

/* The CPU specification's output and counts for n elements. */
static void spec(const void *in, const uint8_t *keys, void *ref, size_t n, size_t es, unsigned k,
                 size_t *counts) {
    sc_status s = sc_partition(spec_ctx, SC_ALGO_SERIAL, in, keys, ref, n, es, k, NULL, counts);
    if (s != SC_OK) {
        fprintf(stderr, "CPU partition failed: %s\n", sc_status_string(s));
        exit(1);
    }
}

/* One case; the keys, input and output start off[0], off[1], off[2] bytes (< 16) past an
 * aligned address: the unaligned paths. */
static void one_at(sc_context *ctx, sc_algorithm algo, size_t n, size_t es, unsigned k,
                   part_pattern p, const unsigned off[3]) {
    const char *name = sc_algorithm_get(algo)->name, *pn = part_pattern_name(p);
    size_t bytes = n * es + 1;
    uint8_t *keys = malloc(n + 1);
    unsigned char *in = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes);
    size_t want[SC_PARTITION_MAX_KEYS], got[SC_PARTITION_MAX_KEYS];
    if (!keys || !in || !out || !ref) {
        fprintf(stderr, "test_partition: out of memory at n=%zu es=%zu\n", n, es);
        exit(1);
    }
    part_make_keys(keys, n, k, p, n * 31 + es * 7 + k);
    test_make_data(in, n, es, n + es);
    part_reference(in, keys, ref, n, es, k, want);
    unsigned char *a_in = test_alloc(backend, bytes + 16), *a_out = test_alloc(backend, bytes + 16);
    uint8_t *a_keys = test_alloc(backend, n + 1 + 16);
    unsigned char *d_in = a_in + off[1], *d_out = a_out + off[2];
    uint8_t *d_keys = a_keys + off[0];
    test_upload(backend, d_in, in, n * es);
    test_upload(backend, d_keys, keys, n);
    test_fill(backend, d_out, POISON, bytes);
    sc_status s = sc_partition(ctx, algo, d_in, d_keys, d_out, n, es, k, NULL, got);
    checks++;
    ASSERT_STATUS(s, SC_OK, "%s n=%zu es=%zu k=%u %s offsets %u/%u/%u", name, n, es, k, pn, off[0],
                  off[1], off[2]);
    if (s == SC_OK) {
        test_download(backend, out, d_out, bytes);
        checks += 3;
        ASSERT_TRUE(memcmp(out, ref, n * es) == 0,
                    "%s n=%zu es=%zu k=%u %s offsets %u/%u/%u: output differs", name, n, es, k, pn,
                    off[0], off[1], off[2]);
        ASSERT_TRUE(memcmp(got, want, k * sizeof *got) == 0, "%s n=%zu k=%u %s: counts differ",
                    name, n, k, pn);
        ASSERT_TRUE(out[n * es] == POISON, "%s n=%zu: wrote past the end", name, n);
        if (spec_ctx) {
            size_t sc[SC_PARTITION_MAX_KEYS];
            spec(in, keys, ref, n, es, k, sc);
            checks++;
            ASSERT_TRUE(memcmp(out, ref, n * es) == 0 && memcmp(got, sc, k * sizeof *sc) == 0,
                        "%s n=%zu es=%zu k=%u %s: differs from the CPU specification", name, n, es,
                        k, pn);
        }
    }
    test_free(backend, a_in);
    test_free(backend, a_out);
    test_free(backend, a_keys);
    free(keys);
    free(in);
    free(out);
    free(ref);
}

static void one(sc_context *ctx, sc_algorithm algo, size_t n, size_t es, unsigned k,
                part_pattern p) {
    static const unsigned aligned[3] = {0, 0, 0};
    one_at(ctx, algo, n, es, k, p, aligned);
}

/* Flagged compaction is the partition with k = 2 and key = (flag == 0): group 0 = the kept
 * elements, as the serial compaction (CPU backend) packs them. */
static void as_compaction(sc_context *ctx, sc_context *cpu, sc_algorithm algo) {
    size_t n = 5000, es = 8, kept = 0, counts[2];
    uint8_t *flags = malloc(n), *keys = malloc(n);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    test_make_flags(flags, n, PAT_RANDOM_50, 3);
    for (size_t i = 0; i < n; i++) keys[i] = flags[i] == 0;
    test_make_data(in, n, es, 5);
    ASSERT_STATUS(sc_compact_flagged(cpu, SC_ALGO_SERIAL, in, flags, ref, n, es, NULL, &kept),
                  SC_OK, "serial compaction");
    void *d_in = test_alloc(backend, n * es), *d_out = test_alloc(backend, n * es);
    uint8_t *d_keys = test_alloc(backend, n);
    test_upload(backend, d_in, in, n * es);
    test_upload(backend, d_keys, keys, n);
    ASSERT_STATUS(sc_partition(ctx, algo, d_in, d_keys, d_out, n, es, 2, NULL, counts), SC_OK,
                  "partition k=2");
    test_download(backend, out, d_out, n * es);
    checks += 3;
    ASSERT_TRUE(counts[0] == kept && counts[1] == n - kept, "k=2 counts %zu/%zu, kept %zu",
                counts[0], counts[1], kept);
    ASSERT_TRUE(memcmp(out, ref, kept * es) == 0, "k=2: group 0 differs from the compaction");
    test_free(backend, d_in);
    test_free(backend, d_out);
    test_free(backend, d_keys);
    free(flags);
    free(keys);
    free(in);
    free(out);
    free(ref);
}

/* opt.d_n: a count read when the call runs (host memory on the CPU, device memory on CUDA);
 * n stays the bound. */
static void run_time_length(sc_context *ctx, sc_algorithm algo) {
    size_t n = 3000, es = 4, m = 1234, want[4], got[4];
    uint8_t *keys = malloc(n);
    unsigned char *in = malloc(n * es), *out = malloc(n * es), *ref = malloc(n * es);
    part_make_keys(keys, n, 4, PP_UNIFORM, 9);
    test_make_data(in, n, es, 9);
    part_reference(in, keys, ref, m, es, 4, want);
    void *d_in = test_alloc(backend, n * es), *d_out = test_alloc(backend, n * es);
    uint8_t *d_keys = test_alloc(backend, n);
    uint32_t len = (uint32_t)m, *d_len = test_alloc(backend, sizeof len);
    test_upload(backend, d_in, in, n * es);
    test_upload(backend, d_keys, keys, n);
    test_upload(backend, d_len, &len, sizeof len);
    test_fill(backend, d_out, POISON, n * es);
    sc_options opt;
    sc_options_init(&opt);
    opt.d_n = d_len;
    ASSERT_STATUS(sc_partition(ctx, algo, d_in, d_keys, d_out, n, es, 4, &opt, got), SC_OK, "d_n");
    test_download(backend, out, d_out, n * es);
    checks += 3;
    ASSERT_TRUE(memcmp(out, ref, m * es) == 0, "d_n=%zu: output differs", m);
    ASSERT_TRUE(memcmp(got, want, sizeof got) == 0, "d_n=%zu: counts differ", m);
    ASSERT_TRUE(test_untouched(out, m * es, n * es, POISON), "d_n=%zu: wrote past *d_n", m);
    test_free(backend, d_in);
    test_free(backend, d_out);
    test_free(backend, d_keys);
    test_free(backend, d_len);
    free(keys);
    free(in);
    free(out);
    free(ref);
}

/* Bad arguments: each refused before anything runs. `algo`: a partition of this backend. */
static void bad_arguments(sc_context *ctx, sc_algorithm algo) {
    size_t n = 100, counts[SC_PARTITION_MAX_KEYS];
    uint8_t keys[100];
    uint32_t in[100], out[100];
    part_make_keys(keys, n, 4, PP_UNIFORM, 1);
    test_make_data(in, n, 4, 1);
    uint32_t *d_in = test_alloc(backend, sizeof in), *d_out = test_alloc(backend, sizeof out);
    uint8_t *d_keys = test_alloc(backend, sizeof keys);
    test_upload(backend, d_in, in, sizeof in);
    test_upload(backend, d_keys, keys, sizeof keys);
    /* an algorithm the other backend partitions with and this one does not */
    sc_algorithm other = SC_ALGO_COUNT;
    sc_backend ob = backend == SC_BACKEND_CPU ? SC_BACKEND_CUDA : SC_BACKEND_CPU;
    for (int i = 0; i < SC_ALGO_COUNT && other == SC_ALGO_COUNT; i++)
        if (!sc_partition_available((sc_algorithm)i, backend) &&
            (sc_partition_available((sc_algorithm)i, ob) || i == SC_ALGO_SINGLE_PASS))
            other = (sc_algorithm)i;
    /* each row one bad argument: the call's context, algorithm, in, keys, out, n, element size,
     * key count and counts, and the status it must return */
    const struct {
        const char *what;
        sc_context *ctx;
        sc_algorithm algo;
        const void *in;
        const uint8_t *keys;
        void *out;
        size_t n, es;
        unsigned k;
        size_t *counts;
        sc_status want;
    } c[] = {
        {"0 keys", ctx, algo, d_in, d_keys, d_out, n, 4, 0, counts, SC_ERR_INVALID_ARGUMENT},
        {"17 keys", ctx, algo, d_in, d_keys, d_out, n, 4, 17, counts, SC_ERR_INVALID_ARGUMENT},
        {"key 3 of 3", ctx, algo, d_in, d_keys, d_out, n, 4, 3, counts, SC_ERR_INVALID_ARGUMENT},
        {"element size 0", ctx, algo, d_in, d_keys, d_out, n, 0, 4, counts,
         SC_ERR_INVALID_ARGUMENT},
        {"element size 257", ctx, algo, d_in, d_keys, d_out, 1, 257, 4, counts,
         SC_ERR_INVALID_ARGUMENT},
        {"NULL keys", ctx, algo, d_in, NULL, d_out, n, 4, 4, counts, SC_ERR_INVALID_ARGUMENT},
        {"NULL in", ctx, algo, NULL, d_keys, d_out, n, 4, 4, counts, SC_ERR_INVALID_ARGUMENT},
        {"NULL counts", ctx, algo, d_in, d_keys, d_out, n, 4, 4, NULL, SC_ERR_INVALID_ARGUMENT},
        {"overlap", ctx, algo, d_in, d_keys, d_in + 1, n - 1, 4, 4, counts,
         SC_ERR_INVALID_ARGUMENT},
        {"NULL context", NULL, algo, d_in, d_keys, d_out, n, 4, 4, counts, SC_ERR_INVALID_ARGUMENT},
        {"horn", ctx, SC_ALGO_HORN, d_in, d_keys, d_out, n, 4, 4, counts, SC_ERR_UNSUPPORTED},
        {"the other backend's partition", ctx, other, d_in, d_keys, d_out, n, 4, 4, counts,
         SC_ERR_UNSUPPORTED},
        {"algorithm 99", ctx, (sc_algorithm)99, d_in, d_keys, d_out, n, 4, 4, counts,
         SC_ERR_UNKNOWN_ALGORITHM},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        checks++;
        ASSERT_STATUS(sc_partition(c[i].ctx, c[i].algo, c[i].in, c[i].keys, c[i].out, c[i].n,
                                   c[i].es, c[i].k, NULL, c[i].counts),
                      c[i].want, "%s: %s", sc_algorithm_get(algo)->name, c[i].what);
    }
    /* a bad key anywhere: refused; the CPU writes nothing (CUDA: out is then unspecified) */
    test_fill(backend, d_out, POISON, sizeof out);
    keys[77] = 9;
    test_upload(backend, d_keys, keys, sizeof keys);
    checks++;
    ASSERT_STATUS(sc_partition(ctx, algo, d_in, d_keys, d_out, n, 4, 4, NULL, counts),
                  SC_ERR_INVALID_ARGUMENT, "%s: key 9 of 4", sc_algorithm_get(algo)->name);
    if (backend == SC_BACKEND_CPU) {
        checks++;
        ASSERT_TRUE(test_untouched(d_out, 0, sizeof out, POISON), "a failed call wrote its output");
    }
    test_free(backend, d_in);
    test_free(backend, d_out);
    test_free(backend, d_keys);
}

#ifdef SC_HAVE_CUDA
/* Counts on the device, a run-time length, and a captured graph replayed with other lengths. */
static void device_side(sc_context *gpu, sc_algorithm algo) {
    const char *name = sc_algorithm_get(algo)->name;
    const size_t bound = 70001, es = 8;
    const unsigned k = 5;
    const uint32_t lens[] = {0, 1, 2047, 2048, 2049, 40000, 70000, 70001};
    uint8_t *keys = malloc(bound);
    unsigned char *in = malloc(bound * es), *out = malloc(bound * es), *ref = malloc(bound * es);
    unsigned char *d_in, *d_out;
    uint8_t *d_keys;
    uint32_t *d_n, *d_counts, counts[SC_PARTITION_MAX_KEYS];
    size_t want[SC_PARTITION_MAX_KEYS];
    CUDA_OK(cudaMalloc((void **)&d_in, bound * es));
    CUDA_OK(cudaMalloc((void **)&d_out, bound * es));
    CUDA_OK(cudaMalloc((void **)&d_keys, bound));
    CUDA_OK(cudaMalloc((void **)&d_n, sizeof *d_n));
    CUDA_OK(cudaMalloc((void **)&d_counts, sizeof counts));
    cudaStream_t st;
    CUDA_OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    sc_options opt;
    sc_options_init(&opt);
    opt.stream = st;
    opt.d_n = d_n;
    opt.d_kept = d_counts;
    /* one call outside capture grows the context's storage for the bound */
    CUDA_OK(cudaMemset(d_n, 0, sizeof *d_n));
    ASSERT_STATUS(sc_partition(gpu, algo, d_in, d_keys, d_out, bound, es, k, &opt, NULL), SC_OK,
                  "%s: warm-up", name);
    CUDA_OK(cudaStreamSynchronize(st));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    sc_status cs = sc_partition(gpu, algo, d_in, d_keys, d_out, bound, es, k, &opt, NULL);
    CUDA_OK(cudaStreamEndCapture(st, &graph));
    checks++;
    ASSERT_STATUS(cs, SC_OK, "%s: call under capture", name);
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (size_t r = 0; r < sizeof lens / sizeof *lens; r++) {
        uint32_t m = lens[r];
        part_make_keys(keys, bound, k, (part_pattern)(r % PP_COUNT), 100 + r);
        test_make_data(in, bound, es, 200 + r);
        spec(in, keys, ref, m, es, k, want);
        CUDA_OK(cudaMemcpy(d_in, in, bound * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(d_keys, keys, bound, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(d_n, &m, sizeof m, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(d_out, POISON, bound * es));
        CUDA_OK(cudaGraphLaunch(exec, st));
        CUDA_OK(cudaStreamSynchronize(st));
        CUDA_OK(cudaMemcpy(out, d_out, bound * es, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(counts, d_counts, k * sizeof *counts, cudaMemcpyDeviceToHost));
        int same_counts = 1;
        for (unsigned j = 0; j < k; j++) same_counts &= counts[j] == want[j];
        checks += 3;
        ASSERT_TRUE(memcmp(out, ref, m * es) == 0, "%s graph replay, *d_n=%u: differs", name, m);
        ASSERT_TRUE(same_counts, "%s graph replay, *d_n=%u: device counts differ", name, m);
        ASSERT_TRUE(test_untouched(out, m * es, bound * es, POISON),
                    "%s graph replay, *d_n=%u: wrote past *d_n", name, m);
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    /* a bad key: an error with host counts, SC_BAD_LIST in d_kept[0] without */
    keys[123] = (uint8_t)k;
    CUDA_OK(cudaMemcpy(d_keys, keys, bound, cudaMemcpyHostToDevice));
    uint32_t m = (uint32_t)bound;
    CUDA_OK(cudaMemcpy(d_n, &m, sizeof m, cudaMemcpyHostToDevice));
    ASSERT_STATUS(sc_partition(gpu, algo, d_in, d_keys, d_out, bound, es, k, &opt, NULL), SC_OK,
                  "%s: bad key, device counts", name);
    CUDA_OK(cudaStreamSynchronize(st));
    CUDA_OK(cudaMemcpy(counts, d_counts, sizeof *counts, cudaMemcpyDeviceToHost));
    checks += 2;
    ASSERT_TRUE(counts[0] == SC_BAD_LIST, "%s: bad key: d_kept[0] = %u", name, counts[0]);
    size_t host_counts[SC_PARTITION_MAX_KEYS];
    opt.d_kept = NULL;
    opt.d_n = NULL;
    ASSERT_STATUS(sc_partition(gpu, algo, d_in, d_keys, d_out, bound, es, k, &opt, host_counts),
                  SC_ERR_INVALID_ARGUMENT, "%s: bad key, host counts", name);
    CUDA_OK(cudaStreamDestroy(st));
    CUDA_OK(cudaFree(d_in));
    CUDA_OK(cudaFree(d_out));
    CUDA_OK(cudaFree(d_keys));
    CUDA_OK(cudaFree(d_n));
    CUDA_OK(cudaFree(d_counts));
    free(keys);
    free(in);
    free(out);
    free(ref);
}
#endif

int main(int argc, char **argv) {
    test_args args;
    if (test_parse_args(argc, argv, "test_partition", &args)) return 2;
    backend = args.backend;
    for (int i = 0; i < args.num_algos; i++)
        if (!sc_partition_available(args.algos[i]->id, backend)) {
            fprintf(stderr, "test_partition: '%s' is not a partition of the %s backend\n",
                    args.algos[i]->name, test_backend_name(backend));
            return 2;
        }
    sc_context *ctx = NULL, *cpu = NULL;
    int rc = test_open(&args, "test_partition", &ctx);
    if (rc) return rc;
    if (backend == SC_BACKEND_CUDA) {
        if (sc_context_create(SC_BACKEND_CPU, &spec_ctx) != SC_OK) return 1;
        cpu = spec_ctx;
    } else {
        cpu = ctx;
    }
    int ran = 0;
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        sc_algorithm algo = (sc_algorithm)i;
        const sc_algorithm_info *a = sc_algorithm_get(algo);
        if (!sc_partition_available(algo, backend) || !test_algo_selected(&args, a)) continue;
        int before = test_failures;
        for (size_t si = 0; si < PART_NUM(part_sizes); si++)
            for (size_t ei = 0; ei < PART_NUM(part_elem_sizes); ei++)
                for (size_t ki = 0; ki < PART_NUM(part_keys); ki++)
                    for (int p = 0; p < PP_COUNT; p++) {
                        size_t n = part_sizes[si], es = part_elem_sizes[ei];
                        /* the largest streams: 4-byte elements and every k only */
                        if (n > 5000 && (es != 4 || args.quick)) continue;
                        one(ctx, algo, n, es, part_keys[ki], (part_pattern)p);
                    }
        /* large streams: many tiles look back (CUDA: by one warp, over more tiles than a few
         * per SM), with elements gathered (16 bytes) and staged in shared memory (4 and 8) */
        if (backend == SC_BACKEND_CUDA && !args.quick) {
            one(ctx, algo, (1u << 22) + 5, 16, 4, PP_UNIFORM);
            one(ctx, algo, (1u << 22) + 5, 4, 4, PP_UNIFORM);
            one(ctx, algo, (1u << 21) + 7, 4, 16, PP_UNIFORM);
            one(ctx, algo, (1u << 21) + 7, 8, 3, PP_SKEWED);
        }
        /* keys, input and output off their alignment: keys one at a time, narrower words */
        static const unsigned offs[][3] = {{1, 0, 0}, {0, 4, 4}, {0, 1, 3}, {5, 8, 8}};
        for (size_t o = 0; o < PART_NUM(offs); o++)
            for (size_t ei = 0; ei < PART_NUM(part_elem_sizes); ei++) {
                one_at(ctx, algo, 4103, part_elem_sizes[ei], 3, PP_UNIFORM, offs[o]);
                if (!args.quick && backend == SC_BACKEND_CUDA)
                    one_at(ctx, algo, (1u << 17) + 3, part_elem_sizes[ei], 4, PP_RUNS, offs[o]);
            }
        as_compaction(ctx, cpu, algo);
        run_time_length(ctx, algo);
        bad_arguments(ctx, algo);
#ifdef SC_HAVE_CUDA
        if (backend == SC_BACKEND_CUDA) device_side(ctx, algo);
#endif
        printf("%-14s %s\n", a->name, test_failures == before ? "ok" : "FAILED");
        ran++;
    }
    checks += 2;
    ASSERT_TRUE(ran > 0, "no partition on the %s backend", test_backend_name(backend));
    ASSERT_TRUE(backend == SC_BACKEND_CPU
                    ? sc_partition_available(SC_ALGO_SERIAL, SC_BACKEND_CPU) &&
                          sc_partition_available(SC_ALGO_SCAN_SCATTER, SC_BACKEND_CPU) &&
                          !sc_partition_available(SC_ALGO_RLZ, SC_BACKEND_CPU)
                    : sc_partition_available(SC_ALGO_SINGLE_PASS, SC_BACKEND_CUDA) &&
                          sc_partition_available(SC_ALGO_CUB, SC_BACKEND_CUDA) &&
                          !sc_partition_available(SC_ALGO_RLZ, SC_BACKEND_CUDA),
                "sc_partition_available");
    if (spec_ctx) sc_context_destroy(spec_ctx);
    sc_context_destroy(ctx);
    char name[64];
    snprintf(name, sizeof name, "test_partition --backend %s", test_backend_name(backend));
    return test_finish(name, checks);
}
