/* test_gpu_threads: CUDA contexts created, used and destroyed from several threads at once.
 * THREADS threads each run ROUNDS rounds; the threads meet at a barrier before each round, so
 * their sc_context_create calls (and the probe kernel each runs) overlap. In a round a thread
 * creates a context, compacts its own stream with one flag algorithm of the table (a different
 * one per thread and round) and checks the result against the serial reference, then destroys
 * the context. Every create must succeed: a probe that read another probe's word once reported
 * SC_ERR_UNSUPPORTED_DEVICE here.
 * Usage: test_gpu_threads [--quick]   (--quick: 10 rounds, for the sanitizers)
 * Exits 77 (skipped) when the build or the machine has no CUDA device. */
#include "test.h"

#include "test_cuda.h"
#include <pthread.h>
#include <string.h>

#define THREADS 8
#define ROUNDS  100
#define N       20011 /* not a multiple of any tile */
#define ES      8

typedef struct worker {
    int id, rounds, failures, checks;
    const sc_algorithm_info *algos[SC_ALGO_COUNT];
    int num_algos;
    pthread_barrier_t *start;
} worker;

static void fail(worker *w, int round, const char *what, const char *detail) {
    fprintf(stderr, "test_gpu_threads: thread %d round %d: %s%s%s\n", w->id, round, what,
            detail[0] ? ": " : "", detail);
    w->failures++;
}

/* One round: create, compact, check against the reference, destroy. */
static void round_of(worker *w, int round, const uint8_t *ref, size_t want, void *d_in,
                     uint8_t *d_flags, void *d_out, uint8_t *out) {
    sc_context *ctx = NULL;
    sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
    w->checks++;
    if (s != SC_OK) {
        fail(w, round, sc_status_string(s), sc_last_error_detail(NULL));
        return;
    }
    const sc_algorithm_info *a = w->algos[(w->id + round) % w->num_algos];
    sc_options opt;
    sc_options_init(&opt);
    size_t kept = 0;
    CUDA_OK(cudaMemset(d_out, POISON, (size_t)N * ES));
    s = sc_compact_flagged(ctx, a->id, d_in, d_flags, d_out, N, ES, &opt, &kept);
    w->checks++;
    if (s != SC_OK) {
        fail(w, round, a->name, sc_last_error_detail(ctx));
    } else {
        CUDA_OK(cudaMemcpy(out, d_out, (size_t)N * ES, cudaMemcpyDeviceToHost));
        w->checks++;
        if (kept != want || !test_same_elements(out, ref, kept, ES, a->stable))
            fail(w, round, a->name, "output differs from the serial reference");
    }
    sc_context_destroy(ctx);
}

static void *work(void *arg) {
    worker *w = arg;
    uint8_t *in = malloc((size_t)N * ES), *ref = malloc((size_t)N * ES),
            *out = malloc((size_t)N * ES), *flags = malloc(N);
    void *d_in = NULL, *d_out = NULL;
    uint8_t *d_flags = NULL;
    if (!in || !ref || !out || !flags) {
        fprintf(stderr, "test_gpu_threads: out of host memory\n");
        exit(1);
    }
    /* Each thread its own stream: a result from another thread's data would be caught. */
    test_make_data(in, N, ES, 1000u + (uint64_t)w->id);
    test_make_flags(flags, N, PAT_RANDOM_50, 77u + (uint64_t)w->id);
    size_t want = test_reference(in, flags, ref, N, ES);
    CUDA_OK(cudaMalloc(&d_in, (size_t)N * ES));
    CUDA_OK(cudaMalloc(&d_out, (size_t)N * ES));
    CUDA_OK(cudaMalloc((void **)&d_flags, N));
    CUDA_OK(cudaMemcpy(d_in, in, (size_t)N * ES, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(d_flags, flags, N, cudaMemcpyHostToDevice));
    for (int r = 0; r < w->rounds; r++) {
        pthread_barrier_wait(w->start);
        round_of(w, r, ref, want, d_in, d_flags, d_out, out);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_flags);
    free(in);
    free(ref);
    free(out);
    free(flags);
    return NULL;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 && strcmp(argv[1], "--quick") == 0 ? 10 : ROUNDS;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("test_gpu_threads: skipped (no CUDA device)\n");
        return 77;
    }
    worker w[THREADS];
    pthread_t th[THREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, THREADS);
    memset(w, 0, sizeof w);
    for (int t = 0; t < THREADS; t++) {
        w[t].id = t;
        w[t].rounds = rounds;
        w[t].start = &start;
        for (int i = 0; i < SC_ALGO_COUNT; i++) {
            const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
            if (a->input != SC_INPUT_REMOVAL_LIST && (a->backends & (1u << SC_BACKEND_CUDA)))
                w[t].algos[w[t].num_algos++] = a;
        }
        if (pthread_create(&th[t], NULL, work, &w[t]) != 0) {
            fprintf(stderr, "test_gpu_threads: cannot start thread %d\n", t);
            return 1;
        }
    }
    int checks = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        checks += w[t].checks;
        test_failures += w[t].failures;
    }
    pthread_barrier_destroy(&start);
    printf("test_gpu_threads: %d threads x %d rounds\n", THREADS, rounds);
    return test_finish("test_gpu_threads", checks);
}
