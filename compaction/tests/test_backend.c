/* test_backend.c: the command line, the context and backend memory of the per-API tests. */
#include "test_backend.h"

#include <string.h>

#ifdef SC_HAVE_CUDA
#include "test_cuda.h"
#endif

/* The GPU versions whose output order is not their specification's, and why (one line each). */
static const struct {
    const char *name, *why;
} k_order_free[] = {
    {"atomic", "warps append chunks in the order their atomics win, which varies from run to run"},
    {"redzone", "orphans take list slots through per-warp atomics (pairing follows the warps' "
                "timing), and batches follow the GPU's block count"},
    {"redzone-block", "orphans take list slots through per-warp atomics, so their pairing follows "
                      "the warps' timing"},
    {"auto", "each backend chooses from its own policy table, so the CPU and the GPU may run "
             "different algorithms (an unstable one where stability is not asked)"},
};

const char *test_order_free(const sc_algorithm_info *a) {
    for (size_t i = 0; i < sizeof k_order_free / sizeof k_order_free[0]; i++)
        if (!strcmp(k_order_free[i].name, a->name)) return k_order_free[i].why;
    return NULL;
}

const char *test_backend_name(sc_backend b) {
    return b == SC_BACKEND_CUDA ? "cuda" : "cpu";
}

int test_parse_args(int argc, char **argv, const char *prog, test_args *args) {
    memset(args, 0, sizeof *args);
    args->backend = SC_BACKEND_CPU;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            args->quick = 1;
        } else if (!strcmp(argv[i], "--full")) {
            args->full = 1;
        } else if (!strcmp(argv[i], "--backend") && i + 1 < argc) {
            const char *b = argv[++i];
            if (strcmp(b, "cpu") && strcmp(b, "cuda")) {
                fprintf(stderr, "%s: --backend: '%s' is not one of: cpu, cuda\n", prog, b);
                return 2;
            }
            args->backend = strcmp(b, "cuda") ? SC_BACKEND_CPU : SC_BACKEND_CUDA;
        } else if (argv[i][0] == '-') {
            fprintf(stderr,
                    "%s: unknown option '%s' (usage: %s [--backend cpu|cuda] [--quick|--full] "
                    "[ALGO...])\n",
                    prog, argv[i], prog);
            return 2;
        } else {
            const sc_algorithm_info *a = sc_algorithm_find(argv[i]);
            if (!a) {
                fprintf(stderr, "%s: unknown algorithm '%s' (see: compact list --names)\n", prog,
                        argv[i]);
                return 2;
            }
            if (args->num_algos < SC_ALGO_COUNT) args->algos[args->num_algos++] = a;
        }
    }
    if (args->quick && args->full) {
        fprintf(stderr, "%s: --quick and --full do not go together\n", prog);
        return 2;
    }
    return 0;
}

int test_algo_selected(const test_args *args, const sc_algorithm_info *a) {
    if (args->num_algos == 0) return 1;
    for (int i = 0; i < args->num_algos; i++)
        if (args->algos[i]->id == a->id) return 1;
    return 0;
}

int test_open(const test_args *args, const char *prog, sc_context **ctx) {
    return test_context(args->backend, prog, ctx);
}

int test_start(int argc, char **argv, const char *prog, sc_input excluded, const char *kind,
               test_args *args, sc_context **ctx, sc_context **spec) {
    if (test_parse_args(argc, argv, prog, args)) return 2;
    for (int i = 0; i < args->num_algos; i++) {
        const sc_algorithm_info *a = args->algos[i];
        if (a->input == excluded || !sc_algorithm_available(a->id, args->backend)) {
            fprintf(stderr, "%s: '%s' is not %s of the %s backend\n", prog, a->name, kind,
                    test_backend_name(args->backend));
            return 2;
        }
    }
    *spec = NULL;
    int rc = test_open(args, prog, ctx);
    if (rc) return rc;
    if (args->backend == SC_BACKEND_CUDA && sc_context_create(SC_BACKEND_CPU, spec) != SC_OK) {
        fprintf(stderr, "%s: no CPU context for the specification\n", prog);
        return 1;
    }
    return 0;
}

const sc_algorithm_info *test_next_algo(const test_args *args, sc_input excluded, int *i) {
    while (*i < SC_ALGO_COUNT) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)(*i)++);
        if (a->input != excluded && sc_algorithm_available(a->id, args->backend) &&
            test_algo_selected(args, a))
            return a;
    }
    return NULL;
}

#ifndef SC_HAVE_CUDA
static void no_cuda(const char *what) {
    fprintf(stderr, "%s: this build has no CUDA backend\n", what);
    exit(1);
}
#endif

void *test_alloc(sc_backend b, size_t bytes) {
    void *p = NULL;
    if (b == SC_BACKEND_CUDA) {
#ifdef SC_HAVE_CUDA
        CUDA_OK(cudaMalloc(&p, bytes ? bytes : 1));
#else
        no_cuda("test_alloc");
#endif
        return p;
    }
    p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "test_alloc: out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

void test_free(sc_backend b, void *p) {
    if (b != SC_BACKEND_CUDA) {
        free(p);
        return;
    }
#ifdef SC_HAVE_CUDA
    CUDA_OK(cudaFree(p));
#endif
}

void test_upload(sc_backend b, void *dst, const void *src, size_t bytes) {
    if (!bytes || dst == src) return; /* CPU: the backend may read the host copy itself */
    if (b != SC_BACKEND_CUDA) {
        memcpy(dst, src, bytes);
        return;
    }
#ifdef SC_HAVE_CUDA
    /* a copy from pageable memory may return before its last bytes land, and the calls under
       test may run on a non-blocking stream, which does not wait for the legacy stream */
    CUDA_OK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaDeviceSynchronize());
#else
    no_cuda("test_upload");
#endif
}

void test_download(sc_backend b, void *dst, const void *src, size_t bytes) {
    if (!bytes || dst == src) return;
    if (b != SC_BACKEND_CUDA) {
        memcpy(dst, src, bytes);
        return;
    }
#ifdef SC_HAVE_CUDA
    CUDA_OK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
#else
    no_cuda("test_download");
#endif
}

void test_fill(sc_backend b, void *dst, int byte, size_t bytes) {
    if (!bytes) return;
    if (b != SC_BACKEND_CUDA) {
        memset(dst, byte, bytes);
        return;
    }
#ifdef SC_HAVE_CUDA
    CUDA_OK(cudaMemset(dst, byte, bytes)); /* asynchronous: done before the next call runs */
    CUDA_OK(cudaDeviceSynchronize());
#else
    no_cuda("test_fill");
#endif
}

void test_sync(sc_backend b) {
#ifdef SC_HAVE_CUDA
    if (b == SC_BACKEND_CUDA) CUDA_OK(cudaDeviceSynchronize());
#else
    (void)b;
#endif
}

size_t test_phases(sc_context *ctx, const sc_algorithm_info **a, const char **bad) {
    sc_choice c;
    if ((*a)->id == SC_ALGO_AUTO && sc_last_choice(ctx, &c) == SC_OK) *a = sc_algorithm_get(c.algo);
    const char *names = (*a)->phases;
    sc_phase_timing t[SC_MAX_PHASES];
    size_t nt = sc_last_timings(ctx, t, SC_MAX_PHASES);
    *bad = NULL;
    for (size_t i = 0; i < nt && i < SC_MAX_PHASES && !*bad; i++) {
        const char *p = strstr(names, t[i].name);
        size_t len = strlen(t[i].name);
        int whole = p && (p == names || p[-1] == ',') && (p[len] == ',' || p[len] == 0);
        if (!whole) *bad = t[i].name;
    }
    return nt;
}
