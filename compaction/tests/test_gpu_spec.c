/* test_gpu_spec.c: the CUDA backend computes what the CPU backend, the specification, computes:
 * for one algorithm that both backends have, on the same inputs and options, the CUDA output
 * equals the CPU output byte for byte (kept count and every kept byte), the unstable algorithms
 * included (Jumping Jack's hole filling, for instance, must be the paper's Alg. 2 on both).
 * Where a GPU version cannot reproduce its specification's order, k_order_free says why in one
 * line, and the outputs are compared as multisets. Matrix: sizes x patterns x element sizes x
 * tiles x scan and RLZ variants (those the algorithm reads). Removal-list algorithms remove the
 * flags' zeros, listed in a shuffled order. Usage: test_gpu_spec ALGO [--quick]
 *   --quick  n <= 2^17 (for the sanitizers)
 * Exits 77 (skipped) when the machine has no CUDA device. */
#include "test.h"

#include "test_cuda.h"
#include <string.h>

/* The GPU versions whose output order is not their specification's, and why. */
static const struct {
    const char *name, *why;
} k_order_free[] = {
    {"atomic", "warps append chunks in the order their atomics win, which varies from run to run"},
    {"redzone", "orphans take list slots through per-warp atomics (pairing follows the warps' "
                "timing), and batches follow the GPU's block count"},
    {"redzone-block", "orphans take list slots through per-warp atomics, so their pairing follows "
                      "the warps' timing"},
    {"auto", "each backend chooses from its own policy table, so the CPU and the GPU may run "
             "different algorithms (here on a removal list: Redzone's unstable order)"},
};

static int checks = 0;

#define CASE_FMT "%s: n=%zu es=%zu %s tile=%zu scan=%d rlz=%d"

typedef struct buffers {
    unsigned char *in, *cpu, *gpu;
    uint8_t *flags;
    uint32_t *list;
    void *d_in, *d_out;
    uint8_t *d_flags;
    uint32_t *d_list;
} buffers;

typedef struct spec_case {
    size_t n, es, tile;
    test_pattern pattern;
    sc_scan scan;
    sc_rlz_variant rlz;
} spec_case;

/* Index of the first element where a and b differ, or `count` if none. */
static size_t first_difference(const unsigned char *a, const unsigned char *b, size_t count,
                               size_t es) {
    for (size_t i = 0; i < count; i++)
        if (memcmp(a + i * es, b + i * es, es) != 0) return i;
    return count;
}

/* The removal list of the flags' zeros, shuffled (Fisher-Yates, seeded by the case). */
static size_t make_list(const uint8_t *flags, size_t n, uint32_t *list, uint64_t seed) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!flags[i]) list[k++] = (uint32_t)i;
    for (size_t i = k; i > 1; i--) {
        size_t j = (size_t)(test_rand(&seed) % i);
        uint32_t t = list[i - 1];
        list[i - 1] = list[j];
        list[j] = t;
    }
    return k;
}

/* One case: the CPU and the CUDA backend on the same input; compare. */
static void run_case(sc_context *cpu, sc_context *gpu, const sc_algorithm_info *a, buffers *b,
                     const spec_case *c, const char *order_free) {
    size_t n = c->n, es = c->es, kc = 0, kg = 0;
    sc_options opt;
    sc_options_init(&opt);
    opt.tile = c->tile;
    opt.scan = c->scan;
    opt.rlz = c->rlz;
    sc_status sc, sg;
    if (a->input == SC_INPUT_FLAGS) {
        sc = sc_compact_flagged(cpu, a->id, b->in, b->flags, b->cpu, n, es, &opt, &kc);
        sg = sc_compact_flagged(gpu, a->id, b->d_in, b->d_flags, b->d_out, n, es, &opt, &kg);
        if (sg == SC_OK && kg) CUDA_OK(cudaMemcpy(b->gpu, b->d_out, kg * es, cudaMemcpyDefault));
    } else {
        size_t k = make_list(b->flags, n, b->list, n * 31 + c->pattern);
        memcpy(b->cpu, b->in, n * es);
        CUDA_OK(cudaMemcpy(b->d_out, b->in, n * es, cudaMemcpyDefault));
        CUDA_OK(cudaMemcpy(b->d_list, b->list, k * sizeof *b->list, cudaMemcpyDefault));
        sc = sc_remove_indices(cpu, a->id, b->cpu, n, es, b->list, k, &opt, &kc);
        sg = sc_remove_indices(gpu, a->id, b->d_out, n, es, b->d_list, k, &opt, &kg);
        if (sg == SC_OK && kg) CUDA_OK(cudaMemcpy(b->gpu, b->d_out, kg * es, cudaMemcpyDefault));
    }
    const char *pn = test_pattern_name(c->pattern);
    checks += 3;
    ASSERT_STATUS(sc, SC_OK, CASE_FMT, a->name, n, es, pn, c->tile, c->scan, c->rlz);
    ASSERT_STATUS(sg, SC_OK, "%s (%s)", a->name, sc_last_error_detail(gpu));
    if (sc != SC_OK || sg != SC_OK) return;
    ASSERT_TRUE(kc == kg, "kept: cpu %zu, cuda %zu; %s n=%zu es=%zu %s tile=%zu", kc, kg, a->name,
                n, es, pn, c->tile);
    if (kc != kg) return;
    if (order_free) {
        ASSERT_TRUE(test_same_elements(b->gpu, b->cpu, kc, es, 0),
                    "not the same multiset; " CASE_FMT, a->name, n, es, pn, c->tile, c->scan,
                    c->rlz);
        return;
    }
    size_t d = first_difference(b->cpu, b->gpu, kc, es);
    ASSERT_TRUE(d == kc, "first difference at output %zu of %zu; " CASE_FMT, d, kc, a->name, n, es,
                pn, c->tile, c->scan, c->rlz);
}

/* How many values of a tunable to try: all of them if the algorithm reads it, else one. */
static size_t values(size_t count, unsigned tunable, unsigned tunables) {
    return (tunables & tunable) ? count : 1;
}

static void test_algorithm(sc_context *cpu, sc_context *gpu, const sc_algorithm_info *a, buffers *b,
                           size_t max_n, const char *order_free) {
    static const size_t elem_sizes[] = {1, 4, 8, 12, 16, 64};
    static const size_t large_elem_sizes[] = {4, 16};
    static const sc_scan scans[] = {SC_SCAN_HILLIS_STEELE, SC_SCAN_BLELLOCH};
    static const sc_rlz_variant rlzs[] = {SC_RLZ_RECURSIVE_DOUBLING, SC_RLZ_BALANCED_TREE};
    size_t nt = values(test_num_tiles, SC_TUNE_TILE, a->tunables);
    size_t ns = values(2, SC_TUNE_SCAN, a->tunables);
    size_t nr = values(2, SC_TUNE_RLZ, a->tunables);
    for (size_t si = 0; si < test_num_sizes; si++) {
        size_t n = test_sizes[si];
        if (n > max_n) continue;
        int large = n > 100000;
        const size_t *ess = large ? large_elem_sizes : elem_sizes;
        size_t nes = large ? 2 : sizeof elem_sizes / sizeof elem_sizes[0];
        for (int p = 0; p < PAT_COUNT; p++) {
            test_make_flags(b->flags, n, (test_pattern)p, n);
            CUDA_OK(cudaMemcpy(b->d_flags, b->flags, n ? n : 1, cudaMemcpyDefault));
            for (size_t ei = 0; ei < nes; ei++) {
                test_make_data(b->in, n, ess[ei], n + 17 * (size_t)p);
                if (a->input == SC_INPUT_FLAGS)
                    CUDA_OK(cudaMemcpy(b->d_in, b->in, n * ess[ei] + 1, cudaMemcpyDefault));
                for (size_t ti = 0; ti < nt; ti++)
                    for (size_t s = 0; s < ns; s++)
                        for (size_t r = 0; r < nr; r++) {
                            spec_case c = {n,
                                           ess[ei],
                                           (a->tunables & SC_TUNE_TILE) ? test_tiles[ti] : 0,
                                           (test_pattern)p,
                                           (a->tunables & SC_TUNE_SCAN) ? scans[s]
                                                                        : SC_SCAN_DEFAULT,
                                           (a->tunables & SC_TUNE_RLZ) ? rlzs[r] : SC_RLZ_DEFAULT};
                            run_case(cpu, gpu, a, b, &c, order_free);
                        }
            }
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: test_gpu_spec ALGO [--quick]\n");
        return 2;
    }
    const sc_algorithm_info *a = sc_algorithm_find(argv[1]);
    if (!a) {
        fprintf(stderr, "test_gpu_spec: unknown algorithm '%s'\n", argv[1]);
        return 2;
    }
    int quick = argc > 2 && strcmp(argv[2], "--quick") == 0;
    sc_context *cpu = NULL, *gpu = NULL;
    sc_status s = sc_context_create(SC_BACKEND_CUDA, &gpu);
    if (s == SC_ERR_NO_DEVICE || s == SC_ERR_UNSUPPORTED) {
        printf("test_gpu_spec: skipped (%s)\n", sc_status_string(s));
        return 77;
    }
    if (s != SC_OK) {
        fprintf(stderr, "test_gpu_spec: CUDA context: %s (%s)\n", sc_status_string(s),
                sc_last_error_detail(NULL));
        return 1;
    }
    if (sc_context_create(SC_BACKEND_CPU, &cpu) != SC_OK) return 1;
    if (!sc_algorithm_available(a->id, SC_BACKEND_CPU) ||
        !sc_algorithm_available(a->id, SC_BACKEND_CUDA)) {
        fprintf(stderr, "test_gpu_spec: %s is not on both backends in this build\n", a->name);
        return 1;
    }
    const char *order_free = NULL;
    for (size_t i = 0; i < sizeof k_order_free / sizeof k_order_free[0]; i++)
        if (!strcmp(k_order_free[i].name, a->name)) order_free = k_order_free[i].why;
    if (order_free)
        printf("%s: compared as a multiset: %s\n", a->name, order_free);
    else
        printf("%s: compared byte for byte\n", a->name);

    size_t max_n = quick ? (size_t)1 << 17 : test_sizes[test_num_sizes - 1];
    size_t bytes = max_n * 64 + 1;
    buffers b;
    memset(&b, 0, sizeof b);
    b.in = malloc(bytes);
    b.cpu = malloc(bytes);
    b.gpu = malloc(bytes);
    b.flags = malloc(max_n + 1);
    b.list = malloc((max_n + 1) * sizeof *b.list);
    if (!b.in || !b.cpu || !b.gpu || !b.flags || !b.list) return 1;
    CUDA_OK(cudaMalloc(&b.d_in, bytes));
    CUDA_OK(cudaMalloc(&b.d_out, bytes));
    CUDA_OK(cudaMalloc((void **)&b.d_flags, max_n + 1));
    CUDA_OK(cudaMalloc((void **)&b.d_list, (max_n + 1) * sizeof *b.d_list));
    test_algorithm(cpu, gpu, a, &b, max_n, order_free);
    cudaFree(b.d_in);
    cudaFree(b.d_out);
    cudaFree(b.d_flags);
    cudaFree(b.d_list);
    free(b.in);
    free(b.cpu);
    free(b.gpu);
    free(b.flags);
    free(b.list);
    sc_context_destroy(cpu);
    sc_context_destroy(gpu);
    char name[64];
    snprintf(name, sizeof name, "test_gpu_spec %s", a->name);
    return test_finish(name, checks);
}
