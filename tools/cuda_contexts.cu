/* cuda_contexts: are the CUDA contexts that threads of one process create on 1..N GPUs created
 * in parallel? For each count k, every device's primary context is destroyed
 * (cudaDeviceReset), then created again on devices 0..k-1: first one after the other on one
 * thread, then by k threads at once (each cudaSetDevice, then cudaFree(0), which creates the
 * context), released together by a barrier. A table per k: the serial total, the parallel
 * wall time and each thread's time (the slowest and the fastest), the median of --repeat
 * trials. "parallel" when the parallel wall time is under 0.75 of the serial total, "serial"
 * when it is not (the driver created them one after the other). The first line is the
 * driver's own start (cudaGetDeviceCount's first call), which every process pays once.
 * What raycompact's --gpus is built on: docs/renderer.md ("Several GPUs of one machine").
 * Usage: cuda_contexts [--max N] [--repeat R]; exit 77 without a CUDA device. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_GPUS   64
#define MAX_REPEAT 99

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* A CUDA call's error as one line; returns 1 so that callers can count failures. */
static int failed(cudaError_t e, const char *what, int dev) {
    if (e == cudaSuccess) return 0;
    fprintf(stderr, "cuda_contexts: %s on device %d: %s\n", what, dev, cudaGetErrorString(e));
    return 1;
}

/* Device `dev`'s context created on the calling thread; its time, or -1 on an error. */
static double create_context(int dev) {
    double t0 = now_ms();
    if (failed(cudaSetDevice(dev), "cudaSetDevice", dev) || failed(cudaFree(0), "cudaFree(0)", dev))
        return -1;
    return now_ms() - t0;
}

/* Every device's primary context destroyed, so that the next creation is a fresh one. */
static int reset_all(int count) {
    int bad = 0;
    for (int d = 0; d < count; d++)
        bad += failed(cudaSetDevice(d), "cudaSetDevice", d) ||
               failed(cudaDeviceReset(), "cudaDeviceReset", d);
    return bad;
}

typedef struct thread_arg {
    int dev;
    double ms;
    pthread_barrier_t *start;
} thread_arg;

static void *thread_main(void *p) {
    thread_arg *a = (thread_arg *)p;
    pthread_barrier_wait(a->start);
    a->ms = create_context(a->dev);
    return NULL;
}

/* k contexts by k threads at once: the wall time, each thread's in each[]; -1 on an error. */
static double parallel(int k, double *each) {
    pthread_t th[MAX_GPUS];
    thread_arg args[MAX_GPUS];
    pthread_barrier_t start;
    if (pthread_barrier_init(&start, NULL, (unsigned)k + 1) != 0) return -1;
    int made = 0;
    for (; made < k; made++) {
        args[made].dev = made;
        args[made].ms = -1;
        args[made].start = &start;
        if (pthread_create(&th[made], NULL, thread_main, &args[made]) != 0) break;
    }
    if (made < k) { /* the barrier would never open: give up on this trial */
        fprintf(stderr, "cuda_contexts: could not start %d threads\n", k);
        exit(1);
    }
    pthread_barrier_wait(&start);
    double t0 = now_ms();
    for (int i = 0; i < k; i++) pthread_join(th[i], NULL);
    double wall = now_ms() - t0;
    pthread_barrier_destroy(&start);
    for (int i = 0; i < k; i++) {
        each[i] = args[i].ms;
        if (each[i] < 0) return -1;
    }
    return wall;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[(n - 1) / 2];
}

static int parse_int(const char *s, int lo, int hi, int *out) {
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv) {
    int max = MAX_GPUS, repeat = 3;
    for (int i = 1; i < argc; i++) {
        int *dst = strcmp(argv[i], "--max") == 0      ? &max
                   : strcmp(argv[i], "--repeat") == 0 ? &repeat
                                                      : NULL;
        int hi = dst == &max ? MAX_GPUS : MAX_REPEAT;
        if (!dst || i + 1 >= argc || parse_int(argv[++i], 1, hi, dst) != 0) {
            fprintf(stderr, "usage: cuda_contexts [--max N (1..%d)] [--repeat R (1..%d)]\n",
                    MAX_GPUS, MAX_REPEAT);
            return 2;
        }
    }
    double t0 = now_ms();
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    double driver_ms = now_ms() - t0;
    if (e != cudaSuccess || count == 0) {
        printf("cuda_contexts: skipped: no CUDA device (%s)\n",
               e != cudaSuccess ? cudaGetErrorString(e) : "none visible");
        return 77;
    }
    if (max > count) max = count;
    printf("driver start (first cudaGetDeviceCount): %.1f ms; %d device%s, up to %d measured, "
           "median of %d trial%s\n",
           driver_ms, count, count == 1 ? "" : "s", max, repeat, repeat == 1 ? "" : "s");
    printf("%-5s %10s %10s %12s %10s %10s %8s  %s\n", "GPUs", "serial_ms", "each_max",
           "parallel_ms", "each_max", "each_min", "ratio", "created");
    for (int k = 1; k <= max; k++) {
        double serial[MAX_REPEAT], smax[MAX_REPEAT], wall[MAX_REPEAT], pmax[MAX_REPEAT],
            pmin[MAX_REPEAT];
        for (int r = 0; r < repeat; r++) {
            double each[MAX_GPUS];
            if (reset_all(count)) return 1;
            double s0 = now_ms();
            smax[r] = 0;
            for (int d = 0; d < k; d++) {
                double ms = create_context(d);
                if (ms < 0) return 1;
                if (ms > smax[r]) smax[r] = ms;
            }
            serial[r] = now_ms() - s0;
            if (reset_all(count)) return 1;
            if ((wall[r] = parallel(k, each)) < 0) return 1;
            pmax[r] = pmin[r] = each[0];
            for (int i = 1; i < k; i++) {
                if (each[i] > pmax[r]) pmax[r] = each[i];
                if (each[i] < pmin[r]) pmin[r] = each[i];
            }
        }
        double s = median(serial, repeat), w = median(wall, repeat);
        printf("%-5d %10.1f %10.1f %12.1f %10.1f %10.1f %7.2fx  %s\n", k, s, median(smax, repeat),
               w, median(pmax, repeat), median(pmin, repeat), w > 0 ? s / w : 0.0,
               k == 1         ? "-"
               : w < 0.75 * s ? "parallel"
                              : "serial");
    }
    printf("ratio: serial / parallel (k for contexts created all at once, 1 for one after the "
           "other)\n");
    return 0;
}
