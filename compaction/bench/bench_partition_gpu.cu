/* bench_partition_gpu.cu: the CUDA timing of `compact bench --partition K` (bench_partition.c):
 * `sets` device copies of the input (and one of the keys or flags), CUDA events around each
 * call, the counts left on the device (sc_options.d_kept), so no host synchronisation is timed. */
#include "bench_partition.h"
#include "timing.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" size_t bench_part_cuda_cache(char *name, size_t cap) {
    int dev = 0;
    cudaDeviceProp prop;
    name[0] = '\0';
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess)
        return 0;
    snprintf(name, cap, "%s", prop.name);
    return (size_t)prop.l2CacheSize;
}

#define PTRY(call)                                                                                 \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            snprintf(why, cap, "%s: %s", #call, cudaGetErrorString(e_));                           \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

extern "C" int bench_part_time_cuda(const bench_part_case *c, int sets, bench_part_result *r,
                                    char *why, size_t cap) {
    size_t bytes = c->n * c->elem_size, stride = (bytes + 255) & ~(size_t)255;
    int rc = -1;
    sc_context *ctx = NULL;
    cudaStream_t stream = NULL;
    unsigned char *d_in = NULL, *d_out = NULL;
    uint8_t *d_sel = NULL; /* keys or flags */
    uint32_t *d_counts = NULL, h_counts[SC_PARTITION_MAX_KEYS] = {0};
    cudaEvent_t *ev = (cudaEvent_t *)calloc(2 * (size_t)c->runs, sizeof *ev);
    double *ms = (double *)malloc((size_t)c->runs * sizeof *ms);
    timing_runs tr;
    int next = 0;
    sc_status st = SC_OK;
    sc_options opt;
    r->out = (unsigned char *)malloc(bytes ? bytes : 1);
    if (!ev || !ms || !r->out) {
        snprintf(why, cap, "out of host memory");
        goto done;
    }
    PTRY(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    PTRY(cudaMalloc(&d_in, stride * (size_t)sets));
    PTRY(cudaMalloc(&d_out, bytes ? bytes : 1));
    PTRY(cudaMalloc(&d_sel, c->n ? c->n : 1));
    PTRY(cudaMalloc(&d_counts, sizeof h_counts));
    for (int s = 0; s < sets; s++)
        PTRY(cudaMemcpy(d_in + (size_t)s * stride, c->in, bytes, cudaMemcpyHostToDevice));
    PTRY(cudaMemcpy(d_sel, c->kind == BENCH_PART_PARTITION ? c->keys : c->flags, c->n,
                    cudaMemcpyHostToDevice));
    /* those copies may still be landing (pageable memory) and `stream` does not wait for them */
    PTRY(cudaDeviceSynchronize());
    for (int i = 0; i < 2 * c->runs; i++) PTRY(cudaEventCreate(&ev[i]));
    if ((st = sc_context_create(SC_BACKEND_CUDA, &ctx)) != SC_OK) {
        snprintf(why, cap, "sc_context_create: %s", sc_status_string(st));
        goto done;
    }
    sc_options_init(&opt);
    opt.stream = stream;
    opt.d_kept = d_counts;
    /* the first call sizes the context's storage; the warm-up absorbs it */
    timing_begin(&tr, c->warmup, c->runs, ms);
    for (int i = 0; st == SC_OK && timing_next(&tr); i++) {
        const unsigned char *in = d_in + (size_t)timing_rotate(&next, sets) * stride;
        int slot = timing_slot(&tr);
        if (slot >= 0) PTRY(cudaEventRecord(ev[2 * slot], stream));
        if (c->kind == BENCH_PART_PARTITION)
            st = sc_partition(ctx, c->algo, in, d_sel, d_out, c->n, c->elem_size, c->num_keys, &opt,
                              NULL);
        else
            st = sc_compact_flagged(ctx, c->algo, in, d_sel, d_out, c->n, c->elem_size, &opt, NULL);
        if (slot >= 0) PTRY(cudaEventRecord(ev[2 * slot + 1], stream));
        if (i == 0 && st == SC_OK) {
            PTRY(cudaMemcpyAsync(r->out, d_out, bytes, cudaMemcpyDeviceToHost, stream));
            PTRY(cudaMemcpyAsync(h_counts, d_counts, sizeof h_counts, cudaMemcpyDeviceToHost,
                                 stream));
            PTRY(cudaStreamSynchronize(stream));
        }
    }
    if (st != SC_OK) {
        snprintf(why, cap, "%s%s%s", sc_status_string(st), sc_last_error_detail(ctx)[0] ? ": " : "",
                 sc_last_error_detail(ctx));
        goto done;
    }
    PTRY(cudaStreamSynchronize(stream));
    for (int i = 0; i < c->runs; i++) {
        float t;
        PTRY(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
        ms[i] = t;
    }
    {
        timing_stats ts = timing_summary(ms, c->runs);
        r->median_ms = ts.median;
        r->min_ms = ts.min;
        r->max_ms = ts.max;
    }
    for (unsigned k = 0; k < SC_PARTITION_MAX_KEYS; k++) r->counts[k] = h_counts[k];
    /* (one key over 2^32 - 1 elements counts SC_BAD_LIST itself: not a bad key) */
    if (c->kind == BENCH_PART_PARTITION && h_counts[0] == SC_BAD_LIST &&
        !(c->num_keys == 1 && c->n == SC_BAD_LIST)) {
        snprintf(why, cap, "the device reports a bad key");
        goto done;
    }
    rc = 0;
done:
    sc_context_destroy(ctx);
    if (ev)
        for (int i = 0; i < 2 * c->runs; i++)
            if (ev[i]) cudaEventDestroy(ev[i]);
    free(ev);
    free(ms);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_sel);
    cudaFree(d_counts);
    if (stream) cudaStreamDestroy(stream);
    return rc;
}
