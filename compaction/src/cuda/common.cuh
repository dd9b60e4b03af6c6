/* common.cuh: what every CUDA algorithm file shares: error checking, the context's device
 * state (temporary storage that grows on demand, a counter slot, timing events), the stream,
 * and returning the kept count to the host or to a device pointer. */
#ifndef SC_CUDA_COMMON_CUH
#define SC_CUDA_COMMON_CUH

#include "../internal.h"

#include <cuda_runtime.h>

/* Map a CUDA error to a status, clearing the (non-sticky) error state, and record the
 * error's name and where it was met for sc_last_error_detail (context.cu). `what` says what
 * failed there ("a call", "a launch"). */
extern "C" sc_status sc_cuda_fail(cudaError_t e, const char *what, const char *func,
                                  const char *file, int line);
#define sc_cuda_status(e) sc_cuda_fail((e), "a call", __func__, __FILE__, __LINE__)

/* Every CUDA call and every launch goes through one of these. SC_CUDA_LAUNCHED() follows a
 * launch, so its site (function, file, line) names the kernel. */
#define SC_CUDA_TRY(call)                                                                          \
    do {                                                                                           \
        cudaError_t sc_e_ = (call);                                                                \
        if (sc_e_ != cudaSuccess) return sc_cuda_status(sc_e_);                                    \
    } while (0)
#define SC_CUDA_LAUNCHED()                                                                         \
    do {                                                                                           \
        cudaError_t sc_e_ = cudaGetLastError();                                                    \
        if (sc_e_ != cudaSuccess)                                                                  \
            return sc_cuda_fail(sc_e_, "the launch", __func__, __FILE__, __LINE__);                \
    } while (0)

#define SC_CUDA_COUNTERS  64 /* uint32 slots of device scratch for counters and flags */
#define SC_CUDA_SLOT_KEPT 0  /* d_counters slot that holds a call's kept count by default */

/* Tile states of a decoupled look-back (Merrill & Garland 2016), one 64-bit word per tile:
 * bits 63..34 epoch of the call, 33..32 status, 31..0 value. A word whose epoch is not the
 * current call's reads as "not ready", so the buffer is never cleared between calls. The epoch
 * and the ticket counter live on the device (SC_LB_CTL_*), so a call's kernel arguments are the
 * same every call and a captured graph replays correctly. */
#define SC_LB_AGGREGATE 1u /* value = the tile's own count */
#define SC_LB_PREFIX    2u /* value = count of this tile and every tile before it */
#define SC_LB_EPOCH_MAX ((1u << 30) - 1)
/* control words after the tile states; the ticket and the epoch form one 64-bit word, drawn by
 * one atomic (lookback.cuh, lb_begin) */
#define SC_LB_CTL_TICKET 0 /* tickets handed out this call (the word's low half) */
#define SC_LB_CTL_EPOCH  1 /* the epoch of the next call (its high half) */
#define SC_LB_CTL_DONE   2 /* blocks finished, counted only in the call that wraps the epoch */
#define SC_LB_CTL_WORDS  4

typedef struct sc_cuda_state {
    int device;
    int sm_count;
    int l2_bytes;
    int max_smem_optin; /* shared memory per block after cudaFuncSetAttribute */
    int pdl;            /* programmatic dependent launch: compute capability 9.0 or later */
    void *d_temp;       /* temporary storage, grows on demand, never shrinks */
    size_t temp_bytes;
    uint32_t *d_counters; /* SC_CUDA_COUNTERS slots */
    uint32_t *h_kept;     /* pinned, mapped host slot for the kept count */
    uint32_t *dh_kept;    /* the same slot as kernels address it */
    int kept_mapped;      /* 1 when this call's kernel writes the count into h_kept itself */
    uint64_t *d_lookback; /* look-back tile states, then SC_LB_CTL_WORDS control words */
    size_t lookback_words;
    int lb_dirty; /* a launch failed: clear states and control words before the next use */
    const void *good_ptr[2]; /* the last run-time count pointers found device-readable */
    cudaEvent_t events[SC_MAX_PHASES + 1];
    const char *phase_names[SC_MAX_PHASES];
    int num_events;
} sc_cuda_state;

static inline sc_cuda_state *sc_cuda_state_of(const sc_context *ctx) {
    return (sc_cuda_state *)ctx->backend_state;
}

static inline cudaStream_t sc_cuda_stream(const sc_job *job) {
    return (cudaStream_t)job->opt.stream;
}

/* Device temporary storage of at least `bytes` (aligned to 256). Grows by 1.5x; when it
 * grows it synchronises the device (cudaFree), so steady-state calls never allocate.
 * For sc_context_reserve (job->reserve) it grows, then stops the call (see sc_cuda_reserved). */
sc_status sc_cuda_temp(sc_job *job, size_t bytes, void **out);

/* sc_context_reserve: the call's storage is in place; mark it done and return the status that
 * stops the algorithm before its first launch (the front end reports SC_OK). */
static inline sc_status sc_cuda_reserved(sc_job *job) {
    job->reserve_done = 1;
    return SC_ERR_UNSUPPORTED;
}

/* The run-time element count: *d_n clamped to the bound, or the bound without d_n. Kernels
 * launched over the bound read it and let the blocks past it return at once. */
static __device__ __forceinline__ uint32_t sc_dev_count(const uint32_t *d_n, uint32_t bound) {
    if (!d_n) return bound;
    uint32_t v = *d_n;
    return v < bound ? v : bound;
}

/* Per-phase timing with events (no-ops when opt.timing is 0). Call begin once, first in
 * every call (it also resets the call's count state), then
 * phase(name) after each phase's launches, then end() which synchronises and records. */
void sc_cuda_timing_begin(sc_job *job);
void sc_cuda_timing_phase(sc_job *job, const char *name);
sc_status sc_cuda_timing_end(sc_job *job);

/* The kept count sits in device memory at d_count. Copies it to opt.d_kept (no host sync)
 * and/or reads it back into job->kept (synchronises the stream) when job->host_kept.
 * Also ends the phase timing. */
sc_status sc_cuda_finish_count(sc_job *job, const uint32_t *d_count);

/* Device slot the last kernel of a call writes the kept count to: opt.d_kept when set (then
 * sc_cuda_finish_count copies nothing), else the context's SC_CUDA_SLOT_KEPT. */
uint32_t *sc_cuda_count_slot(sc_job *job);

/* When the caller wants the count on the host: a device-visible pointer to pinned host memory
 * that the call's last kernel writes the count into (saves a copy; sc_cuda_finish_count then
 * only synchronises). NULL otherwise. */
uint32_t *sc_cuda_host_count(sc_job *job);

/* Look-back state for one call over `tiles` tiles (see SC_LB_*). Each block takes its tile by
 * ticket (atomicAdd on the control word), so tiles start in launch order whatever order the blocks
 * are scheduled in; the block with the last ticket resets the counter and advances the epoch on
 * the device (lookback.cuh). Nothing here changes from call to call. Call
 * sc_cuda_lookback_failed if the launch fails. */
typedef struct sc_cuda_lookback {
    uint64_t *d_status;
    uint32_t *d_ctl; /* SC_LB_CTL_WORDS control words */
    uint32_t words;  /* tile states held (cleared on the device when the epoch wraps) */
} sc_cuda_lookback;
sc_status sc_cuda_lookback_begin(sc_job *job, size_t tiles, sc_cuda_lookback *lb);
void sc_cuda_lookback_failed(sc_job *job);

/* Device-wide exclusive scan of d_data[0..n) in place: tiles scanned with the block scan
 * `variant` (Hillis-Steele or Blelloch), the tile totals scanned the same way, recursively.
 * Writes the total to d_total when not NULL. d_temp holds sc_cuda_scan_temp_bytes(n).
 * Records no timing. Defined in scan_scatter.cu. */
size_t sc_cuda_scan_temp_bytes(size_t n);
sc_status sc_cuda_scan_u32(sc_job *job, sc_scan variant, uint32_t *d_data, size_t n,
                           uint32_t *d_total, void *d_temp);

/* Programmatic dependent launch (compute capability 9.0+; CUDA programming guide, "Programmatic
 * Dependent Launch and Synchronization"). sc_cuda_launch_pdl launches a kernel on the call's
 * stream allowed to start while the kernel before it in the stream still runs; the kernel calls
 * sc_pdl_wait() before it reads anything (it returns once every earlier grid has finished and
 * its writes are visible, as an ordinary launch would), then sc_pdl_release() to let a kernel
 * launched the same way after it start early in turn. What overlaps is the launch and the
 * blocks' start, not work: back to back in a graph, the next call's blocks are resident when
 * this call ends. Other devices, the legacy default stream and a runtime that refuses the
 * attribute launch as usual (both device functions are no-ops then). */
static __device__ __forceinline__ void sc_pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
static __device__ __forceinline__ void sc_pdl_release() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
template <typename... P, typename... A>
static cudaError_t sc_cuda_launch_pdl(const sc_job *job, void (*kernel)(P...), unsigned grid,
                                      unsigned block, A &&...args) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    cfg.stream = sc_cuda_stream(job);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    sc_cuda_state *st = sc_cuda_state_of(job->ctx);
    if (st->pdl && cfg.stream) {
        cfg.attrs = attr;
        cfg.numAttrs = 1;
    }
    cudaError_t e = cudaLaunchKernelEx(&cfg, kernel, args...);
    if (e != cudaSuccess && cfg.numAttrs) { /* a runtime that refuses it: plain launches */
        (void)cudaGetLastError();
        st->pdl = 0;
        cfg.numAttrs = 0;
        e = cudaLaunchKernelEx(&cfg, kernel, args...);
    }
    return e;
}

/* Launch helper: blocks for n items at `per_block` items each, at least 1. */
static inline unsigned sc_cuda_blocks(size_t n, size_t per_block) {
    size_t b = (n + per_block - 1) / per_block;
    return (unsigned)(b ? b : 1);
}

/* The widest copy word (16, 8, 4, 2 or 1 bytes) that divides the element size and both the
 * input and the output pointer: the kernels that move whole elements as words use it. */
static inline unsigned sc_cuda_word_bytes(const sc_job *job) {
    uintptr_t a = (uintptr_t)job->in | (uintptr_t)job->out | job->elem_size;
    for (unsigned w = 16; w > 1; w >>= 1)
        if (!(a & (w - 1))) return w;
    return 1;
}

/* The multiplier that divides by `wpe` words per element on the device without a division:
 * q / wpe == __umulhi(q, magic) for every q < 2^24 (0 for wpe 1, where q is the element). */
static inline uint32_t sc_cuda_word_magic(unsigned wpe) {
    return wpe > 1 ? (uint32_t)(0x100000000ull / wpe + 1) : 0;
}

#endif /* SC_CUDA_COMMON_CUH */
