/* test_gpu_partition.c: the k-way partition on the CUDA backend (single-pass, cub) equals the
 * CPU specification (the serial counting sort on the CPU backend) byte for byte, over the sizes,
 * key counts, key patterns and element sizes of test_partition; counts on the host and on the
 * device (opt.d_kept); a run-time length (opt.d_n); a captured graph replayed with other device
 * lengths; a bad key reported; keys and elements off their alignment. Usage:
 * test_gpu_partition [--quick]  (--quick: n <= 4103, for the sanitizers). Exits 77 (skipped)
 * when the build or the machine has no CUDA device. */
#include "partition_cases.h"

#include "test_cuda.h"

static int checks;
static sc_context *cpu, *gpu;

/* The CPU specification's output and counts for n elements (n may be below the arrays' size). */
static void spec(const void *in, const uint8_t *keys, void *ref, size_t n, size_t es, unsigned k,
                 size_t *counts) {
    sc_status s = sc_partition(cpu, SC_ALGO_SERIAL, in, keys, ref, n, es, k, NULL, counts);
    if (s != SC_OK) {
        fprintf(stderr, "CPU partition failed: %s\n", sc_status_string(s));
        exit(1);
    }
}

/* One case; the keys, input and output start `off` bytes past an aligned address (off[0]: keys,
 * off[1]: in, off[2]: out, each < 16): the unaligned paths. */
static void one_at(sc_algorithm algo, size_t n, size_t es, unsigned k, part_pattern p,
                   const unsigned off[3]) {
    const char *name = sc_algorithm_get(algo)->name;
    size_t bytes = n * es + 1;
    uint8_t *keys = malloc(n + 1);
    unsigned char *in = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes);
    size_t want[SC_PARTITION_MAX_KEYS], got[SC_PARTITION_MAX_KEYS];
    part_make_keys(keys, n, k, p, n * 17 + es + k);
    test_make_data(in, n, es, n + 3 * es);
    spec(in, keys, ref, n, es, k, want);
    unsigned char *d_in, *d_out;
    uint8_t *d_keys;
    CUDA_OK(cudaMalloc((void **)&d_in, bytes + 16));
    CUDA_OK(cudaMalloc((void **)&d_out, bytes + 16));
    CUDA_OK(cudaMalloc((void **)&d_keys, n + 1 + 16));
    CUDA_OK(cudaMemcpy(d_in + off[1], in, bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_keys + off[0], keys, n + 1, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(d_out, POISON, bytes + 16));
    sc_status s = sc_partition(gpu, algo, d_in + off[1], d_keys + off[0], d_out + off[2], n, es, k,
                               NULL, got);
    checks++;
    ASSERT_STATUS(s, SC_OK, "%s n=%zu es=%zu k=%u %s offsets %u/%u/%u", name, n, es, k,
                  part_pattern_name(p), off[0], off[1], off[2]);
    if (s == SC_OK) {
        CUDA_OK(cudaMemcpy(out, d_out + off[2], bytes, cudaMemcpyDeviceToHost));
        checks += 3;
        ASSERT_TRUE(memcmp(out, ref, n * es) == 0,
                    "%s n=%zu es=%zu k=%u %s offsets %u/%u/%u: differs from the spec", name, n, es,
                    k, part_pattern_name(p), off[0], off[1], off[2]);
        ASSERT_TRUE(memcmp(got, want, k * sizeof *got) == 0, "%s n=%zu k=%u %s: counts differ",
                    name, n, k, part_pattern_name(p));
        ASSERT_TRUE(out[n * es] == POISON, "%s n=%zu: wrote past the end", name, n);
    }
    CUDA_OK(cudaFree(d_in));
    CUDA_OK(cudaFree(d_out));
    CUDA_OK(cudaFree(d_keys));
    free(keys);
    free(in);
    free(out);
    free(ref);
}

static void one(sc_algorithm algo, size_t n, size_t es, unsigned k, part_pattern p) {
    static const unsigned aligned[3] = {0, 0, 0};
    one_at(algo, n, es, k, p, aligned);
}

/* Counts on the device, a run-time length, and a captured graph replayed with other lengths. */
static void device_side(sc_algorithm algo) {
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

int main(int argc, char **argv) {
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    if (sc_context_create(SC_BACKEND_CUDA, &gpu) != SC_OK) {
        printf("test_gpu_partition: skipped: no usable CUDA device\n");
        return 77;
    }
    if (sc_context_create(SC_BACKEND_CPU, &cpu) != SC_OK) return 1;
    const sc_algorithm algos[] = {SC_ALGO_SINGLE_PASS, SC_ALGO_CUB};
    for (size_t a = 0; a < 2; a++) {
        for (size_t si = 0; si < PART_NUM(part_sizes); si++)
            for (size_t ei = 0; ei < PART_NUM(part_elem_sizes); ei++)
                for (size_t ki = 0; ki < PART_NUM(part_keys); ki++)
                    for (int p = 0; p < PP_COUNT; p++) {
                        size_t n = part_sizes[si], es = part_elem_sizes[ei];
                        if (n > 5000 && (es != 4 || quick)) continue;
                        one(algos[a], n, es, part_keys[ki], (part_pattern)p);
                    }
        /* large streams: many tiles look back (by one warp: more tiles than a few per SM), with
         * elements gathered (16 bytes) and staged (4 and 8), k' tiles' states a lane group */
        if (!quick) {
            one(algos[a], (1u << 22) + 5, 16, 4, PP_UNIFORM);
            one(algos[a], (1u << 22) + 5, 4, 4, PP_UNIFORM);
            one(algos[a], (1u << 21) + 7, 4, 16, PP_UNIFORM);
            one(algos[a], (1u << 21) + 7, 8, 3, PP_SKEWED);
        }
        /* keys, input and output off their alignment: keys one at a time, narrower words */
        static const unsigned offs[][3] = {{1, 0, 0}, {0, 4, 4}, {0, 1, 3}, {5, 8, 8}};
        for (size_t o = 0; o < PART_NUM(offs); o++)
            for (size_t ei = 0; ei < PART_NUM(part_elem_sizes); ei++) {
                one_at(algos[a], 4103, part_elem_sizes[ei], 3, PP_UNIFORM, offs[o]);
                if (!quick)
                    one_at(algos[a], (1u << 17) + 3, part_elem_sizes[ei], 4, PP_RUNS, offs[o]);
            }
        device_side(algos[a]);
    }
    sc_context_destroy(cpu);
    sc_context_destroy(gpu);
    return test_finish("test_gpu_partition", checks);
}
