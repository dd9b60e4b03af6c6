/* context.cu: the CUDA context: device properties, temporary storage, events, counters. */
#include "common.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" sc_status sc_cuda_fail(cudaError_t e, const char *what, const char *func,
                                  const char *file, int line) {
    if (e == cudaSuccess) return SC_OK;
    (void)cudaGetLastError();
    const char *base = strrchr(file, '/');
    snprintf(sc_thread_error_detail(), SC_DETAIL_MAX, "%s at %s in %s (%s:%d)", cudaGetErrorName(e),
             what, func, base ? base + 1 : file, line);
    if (e == cudaErrorMemoryAllocation) return SC_ERR_OUT_OF_MEMORY;
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) return SC_ERR_NO_DEVICE;
    if (e == cudaErrorNoKernelImageForDevice) return SC_ERR_UNSUPPORTED_DEVICE;
    return SC_ERR_CUDA;
}

extern "C" sc_status sc_cuda_context_init(sc_context *ctx) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (e != cudaSuccess) {
            (void)sc_cuda_status(e); /* records the reason; any failure here means no device */
            return SC_ERR_NO_DEVICE;
        }
        snprintf(sc_thread_error_detail(), SC_DETAIL_MAX, "cudaGetDeviceCount: no CUDA device");
        return SC_ERR_NO_DEVICE;
    }
    /* A build without an image for this device fails here, once, not at the first call. */
    sc_status probe = sc_cuda_probe(sc_thread_error_detail(), SC_DETAIL_MAX);
    if (probe != SC_OK) return probe;
    sc_cuda_state *st = (sc_cuda_state *)calloc(1, sizeof *st);
    if (!st) return SC_ERR_OUT_OF_MEMORY;
    ctx->backend_state = st;
    sc_status s = SC_OK;
    int major = 0;
#define INIT_TRY(call)                                                                             \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            s = sc_cuda_status(e_);                                                                \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)
    INIT_TRY(cudaGetDevice(&st->device));
    INIT_TRY(cudaDeviceGetAttribute(&st->sm_count, cudaDevAttrMultiProcessorCount, st->device));
    INIT_TRY(cudaDeviceGetAttribute(&st->l2_bytes, cudaDevAttrL2CacheSize, st->device));
    INIT_TRY(cudaDeviceGetAttribute(&st->max_smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                    st->device));
    INIT_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, st->device));
    st->pdl = major >= 9;
    INIT_TRY(cudaMalloc(&st->d_counters, SC_CUDA_COUNTERS * sizeof(uint32_t)));
    INIT_TRY(cudaMemset(st->d_counters, 0, SC_CUDA_COUNTERS * sizeof(uint32_t)));
    INIT_TRY(cudaHostAlloc((void **)&st->h_kept, sizeof(uint32_t), cudaHostAllocMapped));
    INIT_TRY(cudaHostGetDevicePointer((void **)&st->dh_kept, st->h_kept, 0));
    for (int i = 0; i <= SC_MAX_PHASES; i++) INIT_TRY(cudaEventCreate(&st->events[i]));
    /* The counters' clearing must be done before a call on any stream, non-blocking ones too. */
    INIT_TRY(cudaDeviceSynchronize());
#undef INIT_TRY
    return SC_OK;
fail:
    sc_cuda_context_free(ctx);
    return s;
}

extern "C" void sc_cuda_context_free(sc_context *ctx) {
    sc_cuda_state *st = sc_cuda_state_of(ctx);
    if (!st) return;
    for (int i = 0; i <= SC_MAX_PHASES; i++)
        if (st->events[i]) cudaEventDestroy(st->events[i]);
    cudaFree(st->d_temp);
    cudaFree(st->d_counters);
    cudaFree(st->d_lookback);
    cudaFreeHost(st->h_kept);
    free(st);
    ctx->backend_state = NULL;
}

extern "C" size_t sc_cuda_temp_bytes(const sc_context *ctx) {
    const sc_cuda_state *st = sc_cuda_state_of(ctx);
    return st ? st->temp_bytes : 0;
}

sc_status sc_cuda_temp(sc_job *job, size_t bytes, void **out) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    bytes = (bytes + 255) & ~(size_t)255;
    if (bytes > st->temp_bytes) {
        size_t grow = st->temp_bytes + st->temp_bytes / 2;
        if (grow < bytes) grow = bytes;
        SC_CUDA_TRY(cudaFree(st->d_temp)); /* synchronises: in-flight work is done with it */
        st->d_temp = NULL;
        st->temp_bytes = 0;
        cudaError_t e = cudaMalloc(&st->d_temp, grow);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            grow = bytes;
            SC_CUDA_TRY(cudaMalloc(&st->d_temp, grow));
        }
        st->temp_bytes = grow;
    }
    *out = st->d_temp;
    return job->reserve ? sc_cuda_reserved(job) : SC_OK;
}

sc_status sc_cuda_check_device_pointer(sc_context *ctx, const void *p, void *stream) {
    sc_cuda_state *st = sc_cuda_state_of(ctx);
    if (p == st->good_ptr[0] || p == st->good_ptr[1]) return SC_OK;
    /* Under capture the query is left out: the capture must not be disturbed by it. */
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing((cudaStream_t)stream, &capture) != cudaSuccess) {
        (void)cudaGetLastError();
        return SC_OK;
    }
    if (capture != cudaStreamCaptureStatusNone) return SC_OK;
    cudaPointerAttributes attr;
    cudaError_t e = cudaPointerGetAttributes(&attr, p);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return SC_ERR_INVALID_ARGUMENT;
    }
    /* device and managed memory, or pinned host memory the device can address */
    if (attr.type == cudaMemoryTypeUnregistered || !attr.devicePointer)
        return SC_ERR_INVALID_ARGUMENT;
    st->good_ptr[1] = st->good_ptr[0];
    st->good_ptr[0] = p;
    return SC_OK;
}

uint32_t *sc_cuda_count_slot(sc_job *job) {
    if (job->opt.d_kept) return job->opt.d_kept;
    return sc_cuda_state_of(job->ctx)->d_counters + SC_CUDA_SLOT_KEPT;
}

uint32_t *sc_cuda_host_count(sc_job *job) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    if (!job->host_kept && job->opt.d_kept) return NULL;
    st->kept_mapped = 1;
    return st->dh_kept;
}

/* Bytes of the look-back buffer for `words` tile states and the control words. */
static size_t lookback_bytes(size_t words) {
    return words * sizeof(uint64_t) + SC_LB_CTL_WORDS * sizeof(uint32_t);
}

/* Grow the look-back buffer to `words` tile states plus the control words, cleared. */
static sc_status lookback_grow(sc_cuda_state *st, size_t words, cudaStream_t stream) {
    size_t grow = st->lookback_words + st->lookback_words / 2;
    if (grow < words) grow = words;
    SC_CUDA_TRY(cudaFree(st->d_lookback)); /* synchronises: no call still uses it */
    st->d_lookback = NULL;
    st->lookback_words = 0;
    SC_CUDA_TRY(cudaMalloc(&st->d_lookback, lookback_bytes(grow)));
    SC_CUDA_TRY(cudaMemsetAsync(st->d_lookback, 0, lookback_bytes(grow), stream));
    st->lookback_words = grow;
    st->lb_dirty = 0;
    return SC_OK;
}

sc_status sc_cuda_lookback_begin(sc_job *job, size_t tiles, sc_cuda_lookback *lb) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    if (tiles > st->lookback_words) {
        sc_status s = lookback_grow(st, tiles, sc_cuda_stream(job));
        if (s != SC_OK) return s;
    }
    if (job->reserve) return sc_cuda_reserved(job);
    if (st->lb_dirty) {
        /* Clearing on the stream orders it after every earlier call on the stream. */
        SC_CUDA_TRY(cudaMemsetAsync(st->d_lookback, 0, lookback_bytes(st->lookback_words),
                                    sc_cuda_stream(job)));
        st->lb_dirty = 0;
    }
    lb->d_status = st->d_lookback;
    lb->d_ctl = (uint32_t *)(st->d_lookback + st->lookback_words);
    lb->words = (uint32_t)st->lookback_words;
    return SC_OK;
}

/* Tests only (test_gpu_epoch): the look-back's control word (epoch << 32 | ticket), read into
 * *get and then, if `set`, overwritten with *set; synchronous. SC_ERR_INVALID_ARGUMENT before
 * any look-back call has allocated it. */
extern "C" sc_status sc_cuda_lookback_control(sc_context *ctx, const uint64_t *set, uint64_t *get) {
    sc_cuda_state *st = ctx && ctx->backend == SC_BACKEND_CUDA ? sc_cuda_state_of(ctx) : NULL;
    if (!st || !st->d_lookback || !get) return SC_ERR_INVALID_ARGUMENT;
    uint64_t *word = st->d_lookback + st->lookback_words; /* SC_LB_CTL_TICKET, SC_LB_CTL_EPOCH */
    SC_CUDA_TRY(cudaDeviceSynchronize());
    SC_CUDA_TRY(cudaMemcpy(get, word, sizeof *get, cudaMemcpyDeviceToHost));
    if (set) SC_CUDA_TRY(cudaMemcpy(word, set, sizeof *set, cudaMemcpyHostToDevice));
    return SC_OK;
}

void sc_cuda_lookback_failed(sc_job *job) {
    sc_cuda_state_of(job->ctx)->lb_dirty = 1;
}

void sc_cuda_timing_begin(sc_job *job) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    st->num_events = 0;
    st->kept_mapped = 0;
    if (!job->opt.timing) return;
    cudaEventRecord(st->events[0], sc_cuda_stream(job));
    st->num_events = 1;
}

void sc_cuda_timing_phase(sc_job *job, const char *name) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    if (!job->opt.timing || st->num_events == 0 || st->num_events > SC_MAX_PHASES) return;
    st->phase_names[st->num_events - 1] = name;
    cudaEventRecord(st->events[st->num_events], sc_cuda_stream(job));
    st->num_events++;
}

sc_status sc_cuda_timing_end(sc_job *job) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    if (!job->opt.timing || st->num_events < 2) return SC_OK;
    SC_CUDA_TRY(cudaEventSynchronize(st->events[st->num_events - 1]));
    for (int i = 1; i < st->num_events; i++) {
        float ms = 0.f;
        SC_CUDA_TRY(cudaEventElapsedTime(&ms, st->events[i - 1], st->events[i]));
        sc_timing_add(job->ctx, st->phase_names[i - 1], (double)ms);
    }
    return SC_OK;
}

sc_status sc_cuda_finish_count(sc_job *job, const uint32_t *d_count) {
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    cudaStream_t stream = sc_cuda_stream(job);
    if (job->opt.d_kept && job->opt.d_kept != d_count)
        SC_CUDA_TRY(cudaMemcpyAsync(job->opt.d_kept, d_count, sizeof(uint32_t),
                                    cudaMemcpyDeviceToDevice, stream));
    if (job->host_kept || !job->opt.d_kept) {
        if (!st->kept_mapped)
            SC_CUDA_TRY(cudaMemcpyAsync(st->h_kept, d_count, sizeof(uint32_t),
                                        cudaMemcpyDeviceToHost, stream));
        SC_CUDA_TRY(cudaStreamSynchronize(stream));
        job->kept = *(volatile uint32_t *)st->h_kept;
    }
    st->kept_mapped = 0;
    return sc_cuda_timing_end(job);
}
