/* partition.c: the k-way partition entry point: validation and dispatch (sc_partition in
 * compaction.h). The algorithms live beside their flagged-compaction namesakes:
 * src/cpu/partition.c and src/cuda/partition.cu. */
#include "internal.h"

#include <string.h>

/* Partition implementations, indexed by algorithm (NULL = not implemented there). */
static sc_impl_fn partition_impl(sc_algorithm algo, sc_backend backend) {
    if (backend == SC_BACKEND_CPU) {
        if (algo == SC_ALGO_SERIAL) return sc_cpu_partition_serial;
        if (algo == SC_ALGO_SCAN_SCATTER) return sc_cpu_partition_scan;
    }
#ifdef SC_HAVE_CUDA
    if (backend == SC_BACKEND_CUDA) {
        if (algo == SC_ALGO_SINGLE_PASS) return sc_cuda_partition_single_pass;
        if (algo == SC_ALGO_CUB) return sc_cuda_partition_cub;
    }
#endif
    return NULL;
}

int sc_partition_available(sc_algorithm algo, sc_backend backend) {
    return partition_impl(algo, backend) != NULL;
}

static int overlap(const void *a, const void *b, size_t bytes) {
    uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return bytes && a0 < b0 + bytes && b0 < a0 + bytes;
}

sc_status sc_partition(sc_context *ctx, sc_algorithm algo, const void *in, const uint8_t *keys,
                       void *out, size_t n, size_t elem_size, unsigned num_keys,
                       const sc_options *opt, size_t *counts) {
    if (!ctx) return SC_ERR_INVALID_ARGUMENT;
    ctx->num_timings = 0;
    const sc_algorithm_info *info = sc_algorithm_get(algo);
    if (!info) return SC_ERR_UNKNOWN_ALGORITHM;
    if (elem_size == 0 || elem_size > SC_ELEM_MAX || n > sc_max_elements(ctx->backend))
        return SC_ERR_INVALID_ARGUMENT;
    if (num_keys < 1 || num_keys > SC_PARTITION_MAX_KEYS) return SC_ERR_INVALID_ARGUMENT;
    sc_job job;
    memset(&job, 0, sizeof job);
    if (opt)
        job.opt = *opt;
    else
        sc_options_init(&job.opt);
    const int cuda = ctx->backend == SC_BACKEND_CUDA;
    if (!counts && !(cuda && job.opt.d_kept)) return SC_ERR_INVALID_ARGUMENT;
    sc_impl_fn fn = partition_impl(algo, ctx->backend);
    if (!fn) return SC_ERR_UNSUPPORTED;
    if (n > 0 && (!in || !keys || !out)) return SC_ERR_INVALID_ARGUMENT;
    if (overlap(in, out, n * elem_size)) return SC_ERR_INVALID_ARGUMENT;
    if (job.opt.d_n && !cuda) {
        /* CPU: a host count read now (the same call shape as the CUDA backend's) */
        if (*job.opt.d_n < n) n = *job.opt.d_n;
        job.opt.d_n = NULL;
    }
#ifdef SC_HAVE_CUDA
    if (job.opt.d_n && cuda) {
        sc_status s = sc_cuda_check_device_pointer(ctx, job.opt.d_n, job.opt.stream);
        if (s != SC_OK) return s;
    }
#endif
    if (!cuda) {
        /* every key in range, before anything is written */
        for (size_t i = 0; i < n; i++)
            if (keys[i] >= num_keys) return SC_ERR_INVALID_ARGUMENT;
    }
    job.ctx = ctx;
    job.info = info;
    job.n = n;
    job.elem_size = elem_size;
    job.tile = job.opt.tile ? job.opt.tile : SC_TILE_DEFAULT;
    job.scan = job.opt.scan != SC_SCAN_DEFAULT ? job.opt.scan : SC_SCAN_BLELLOCH;
    if (job.opt.scan < SC_SCAN_DEFAULT || job.opt.scan > SC_SCAN_BLELLOCH)
        return SC_ERR_INVALID_ARGUMENT;
    job.in = in;
    job.out = out;
    job.keys = keys;
    job.num_keys = num_keys;
    job.host_kept = counts != NULL;
    sc_status s = fn(&job);
    if (s != SC_OK) {
        ctx->num_timings = 0;
        return s;
    }
    if (counts)
        for (unsigned j = 0; j < num_keys; j++) counts[j] = job.part_counts[j];
    return SC_OK;
}
