/* common.cuh: what every CUDA algorithm file shares: error checking, the context's device
 * state (temporary storage that grows on demand, a counter slot, timing events), the stream,
 * and returning the kept count to the host or to a device pointer. */
#ifndef SC_CUDA_COMMON_CUH
#define SC_CUDA_COMMON_CUH

#include "../internal.h"

#include <cuda_runtime.h>

/* Map a CUDA error to a status, clearing the (non-sticky) error state. */
static inline sc_status sc_cuda_status(cudaError_t e)
{
    if (e == cudaSuccess) return SC_OK;
    (void)cudaGetLastError();
    if (e == cudaErrorMemoryAllocation) return SC_ERR_OUT_OF_MEMORY;
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) return SC_ERR_NO_DEVICE;
    return SC_ERR_CUDA;
}

/* Every CUDA call and every launch goes through one of these. */
#define SC_CUDA_TRY(call)                                                                    \
    do {                                                                                     \
        cudaError_t sc_e_ = (call);                                                          \
        if (sc_e_ != cudaSuccess) return sc_cuda_status(sc_e_);                              \
    } while (0)
#define SC_CUDA_LAUNCHED() SC_CUDA_TRY(cudaGetLastError())

#define SC_CUDA_COUNTERS 64 /* uint32 slots of device scratch for counters and flags */

typedef struct sc_cuda_state {
    int device;
    int sm_count;
    int l2_bytes;
    int max_smem_optin; /* shared memory per block after cudaFuncSetAttribute */
    void *d_temp;       /* temporary storage, grows on demand, never shrinks */
    size_t temp_bytes;
    uint32_t *d_counters; /* SC_CUDA_COUNTERS slots */
    uint32_t *h_kept;     /* pinned host slot for the kept count */
    cudaEvent_t events[SC_MAX_PHASES + 1];
    const char *phase_names[SC_MAX_PHASES];
    int num_events;
} sc_cuda_state;

static inline sc_cuda_state *sc_cuda_state_of(const sc_context *ctx)
{
    return (sc_cuda_state *)ctx->backend_state;
}

static inline cudaStream_t sc_cuda_stream(const sc_job *job)
{
    return (cudaStream_t)job->opt.stream;
}

/* Device temporary storage of at least `bytes` (aligned to 256). Grows by 1.5x; when it
 * grows it synchronises the device (cudaFree), so steady-state calls never allocate. */
sc_status sc_cuda_temp(sc_job *job, size_t bytes, void **out);

/* Per-phase timing with events (no-ops when opt.timing is 0). Call begin once, then
 * phase(name) after each phase's launches, then end() which synchronises and records. */
void sc_cuda_timing_begin(sc_job *job);
void sc_cuda_timing_phase(sc_job *job, const char *name);
sc_status sc_cuda_timing_end(sc_job *job);

/* The kept count sits in device memory at d_count. Copies it to opt.d_kept (no host sync)
 * and/or reads it back into job->kept (synchronises the stream) when job->host_kept.
 * Also ends the phase timing. */
sc_status sc_cuda_finish_count(sc_job *job, const uint32_t *d_count);

/* Launch helper: blocks for n items at `per_block` items each, at least 1. */
static inline unsigned sc_cuda_blocks(size_t n, size_t per_block)
{
    size_t b = (n + per_block - 1) / per_block;
    return (unsigned)(b ? b : 1);
}

#endif /* SC_CUDA_COMMON_CUH */
