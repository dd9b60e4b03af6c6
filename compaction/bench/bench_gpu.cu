/* bench_gpu.cu: the CUDA backend of `compact bench` behind bench.h's C interface: device input
 * sets, runs stamped by CUDA events (or graph replays), and the CUDA baselines: thrust::remove_if
 * (stencil, or marked from a removal list), the device copy, the scatter limit. */
#include "bench.h"
#include "timing.h"

#include <cuda_runtime.h>
#include <thrust/remove.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>

#include <cstddef>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bench_backend {
    bench_sets s; /* first: bench_time reads it */
    cudaStream_t stream;
    unsigned char *d_in, *d_out, *d_flags, *d_list;
    unsigned char *d_stencil;  /* thrust-remove-list's stencil, marked from the list each run */
    sc_options opt;            /* the timed runs' options: the job's, on this stream, d_kept */
    cudaGraphExec_t graph;     /* --graph: the captured calls a timed run replays */
    uint32_t *d_kept;          /* the count, or a partition's count per key */
    uint32_t *d_len;           /* --graph: n and k on the device (sc_options.d_n, d_k) */
    cudaEvent_t *start, *stop; /* one pair per timed run */
    int num_events;
    void *d_flush; /* written between a refill and the timed run, to evict the refill from L2 */
    size_t flush_bytes;
    char *d_thrust; /* thrust's temporary storage, kept between calls */
    size_t thrust_bytes;
    int thrust_busy;
    unsigned char *d_alt; /* auto-list's output when auto takes a flag algorithm */
    size_t alt_bytes;
    void *result; /* where auto-list's last result lies: a set's out, or d_alt */
    int sm_count; /* --settle-ms launches one block per SM */
};

typedef struct gpu_set {
    unsigned char *in, *out;
    const uint8_t *flags;
    const uint32_t *list;
    uint8_t *stencil;
} gpu_set;

static sc_status status_of(cudaError_t e) {
    if (e == cudaSuccess) return SC_OK;
    (void)cudaGetLastError();
    if (e == cudaErrorMemoryAllocation) return SC_ERR_OUT_OF_MEMORY;
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) return SC_ERR_NO_DEVICE;
    return SC_ERR_CUDA;
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) return status_of(e_);                                               \
    } while (0)
#define TRY_SC(call)                                                                               \
    do {                                                                                           \
        sc_status s_ = (call);                                                                     \
        if (s_ != SC_OK) return s_;                                                                \
    } while (0)

static gpu_set set_of(const bench_backend *b, int s) {
    const bench_sets *g = &b->s;
    gpu_set set = {b->d_in + (size_t)s * g->in_stride, b->d_out + (size_t)s * g->in_stride,
                   b->d_flags + (size_t)s * g->flags_stride,
                   (const uint32_t *)(const void *)(b->d_list + (size_t)s * g->list_stride),
                   b->d_stencil + (size_t)s * g->flags_stride};
    return set;
}

/* ---- thrust::remove_if, in place, flags as stencil ---- */

/* thrust's temporary storage, kept between calls so the timed ones do not cudaMalloc. */
struct thrust_cache {
    typedef char value_type;
    bench_backend *b;

    char *allocate(std::ptrdiff_t bytes) {
        void *p = NULL;
        if (b->thrust_busy) { /* a second live block: not cached */
            if (cudaMalloc(&p, (size_t)bytes) != cudaSuccess) throw std::bad_alloc();
            return (char *)p;
        }
        if ((size_t)bytes > b->thrust_bytes) {
            cudaFree(b->d_thrust);
            b->d_thrust = NULL;
            b->thrust_bytes = 0;
            if (cudaMalloc(&p, (size_t)bytes) != cudaSuccess) throw std::bad_alloc();
            b->d_thrust = (char *)p;
            b->thrust_bytes = (size_t)bytes;
        }
        b->thrust_busy = 1;
        return b->d_thrust;
    }
    void deallocate(char *p, size_t) {
        if (p == b->d_thrust)
            b->thrust_busy = 0;
        else
            cudaFree(p);
    }
};

struct flag_is_zero {
    __host__ __device__ bool operator()(uint8_t f) const { return f == 0; }
};

/* Element types thrust moves whole: the sizes the bench instantiates. */
struct elem12 {
    uint32_t w[3];
};
struct __align__(16) elem32 {
    uint4 v[2];
};
struct __align__(16) elem64 {
    uint4 v[4];
};

template <typename T>
static size_t thrust_remove(bench_backend *b, unsigned char *out, const uint8_t *stencil) {
    thrust_cache alloc = {b};
    T *first = (T *)(void *)out;
    T *end = thrust::remove_if(thrust::cuda::par(alloc).on(b->stream), first, first + b->s.n,
                               stencil, flag_is_zero());
    return (size_t)(end - first);
}

typedef size_t (*thrust_fn)(bench_backend *, unsigned char *, const uint8_t *);
static const struct {
    size_t es;
    thrust_fn fn;
} k_thrust[] = {{1, thrust_remove<uint8_t>},  {2, thrust_remove<uint16_t>},
                {4, thrust_remove<uint32_t>}, {8, thrust_remove<uint2>},
                {12, thrust_remove<elem12>},  {16, thrust_remove<uint4>},
                {32, thrust_remove<elem32>},  {64, thrust_remove<elem64>}};

/* thrust::remove_if in place on `out`, removing where stencil[i] == 0. */
static sc_status run_thrust(bench_backend *b, unsigned char *out, const uint8_t *stencil,
                            size_t *kept) {
    size_t i = 0;
    while (i < sizeof k_thrust / sizeof *k_thrust && k_thrust[i].es != b->s.es) i++;
    if (i == sizeof k_thrust / sizeof *k_thrust) return SC_ERR_UNSUPPORTED;
    try {
        *kept = k_thrust[i].fn(b, out, stencil);
    } catch (const std::bad_alloc &) {
        return SC_ERR_OUT_OF_MEMORY;
    } catch (const thrust::system_error &e) {
        (void)cudaGetLastError();
        return e.code().value() == cudaErrorMemoryAllocation ? SC_ERR_OUT_OF_MEMORY : SC_ERR_CUDA;
    }
    return SC_OK;
}

/* ---- scatter-limit: out[R[i]] = in[i], k scattered element writes ---- */

/* One thread per word of a listed element, so wide elements stay coalesced on the read side. */
template <typename V>
__global__ void scatter_limit(V *out, const V *in, const uint32_t *list, size_t words_total,
                              unsigned words) {
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= words_total) return;
    size_t i = t / words, w = t % words;
    out[(size_t)list[i] * words + w] = in[t];
}

template <typename V> static sc_status launch_scatter(bench_backend *b, const gpu_set *s) {
    unsigned words = (unsigned)(b->s.es / sizeof(V));
    size_t total = b->s.k * words;
    if (total == 0) return SC_OK;
    unsigned blocks = (unsigned)((total + 255) / 256);
    scatter_limit<V><<<blocks, 256, 0, b->stream>>>((V *)(void *)s->out, (const V *)(void *)s->in,
                                                    s->list, total, words);
    TRY(cudaGetLastError());
    return SC_OK;
}

static sc_status run_scatter(bench_backend *b, const gpu_set *s) {
    if (b->s.es % 16 == 0) return launch_scatter<uint4>(b, s);
    if (b->s.es % 8 == 0) return launch_scatter<uint2>(b, s);
    if (b->s.es % 4 == 0) return launch_scatter<uint32_t>(b, s);
    if (b->s.es % 2 == 0) return launch_scatter<uint16_t>(b, s);
    return launch_scatter<uint8_t>(b, s);
}

/* ---- --settle-ms: the GPU at speed when a measurement starts ---- */

/* Spins until the device's global timer has advanced by `ns`. */
__global__ void settle_kernel(unsigned long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

/* An idle GPU (the host checking results, building inputs) lowers its clock, and launch-bound
 * runs are too short to raise it: every SM busy for a few ms first. */
static sc_status settle(bench_backend *b) {
    if (!(bench_settle_ms > 0.0)) return SC_OK;
    settle_kernel<<<b->sm_count, 32, 0, b->stream>>>((unsigned long long)(bench_settle_ms * 1e6));
    TRY(cudaGetLastError());
    return SC_OK;
}

/* ---- thrust-remove-list: Redzone §5.1's phase 1 for its competitors, then thrust ---- */

/* "mark": stencil[R[i]] = 0, k scattered byte writes (the stencil was refilled with ones). */
__global__ void mark_removed(uint8_t *stencil, const uint32_t *list, size_t k) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < k) stencil[list[i]] = 0;
}

static sc_status launch_mark(bench_backend *b, const gpu_set *s) {
    if (b->s.k == 0) return SC_OK;
    unsigned blocks = (unsigned)((b->s.k + 255) / 256);
    mark_removed<<<blocks, 256, 0, b->stream>>>(s->stencil, s->list, b->s.k);
    TRY(cudaGetLastError());
    return SC_OK;
}

/* Both phases; with `ev` (three events) each phase is bracketed for the phase breakdown. */
static sc_status run_thrust_list(bench_backend *b, const gpu_set *s, size_t *kept,
                                 cudaEvent_t *ev) {
    if (ev) TRY(cudaEventRecord(ev[0], b->stream));
    TRY_SC(launch_mark(b, s));
    if (ev) TRY(cudaEventRecord(ev[1], b->stream));
    TRY_SC(run_thrust(b, s->out, s->stencil, kept));
    if (ev) TRY(cudaEventRecord(ev[2], b->stream));
    return SC_OK;
}

/* One timed pass of thrust-remove-list: "mark" and "remove" from three events. */
static sc_status thrust_list_phases(bench_backend *b, const gpu_set *s, size_t *kept,
                                    sc_phase_timing *phases, size_t *num_phases) {
    cudaEvent_t ev[3] = {NULL, NULL, NULL};
    sc_status st = SC_OK;
    for (int i = 0; i < 3 && st == SC_OK; i++) st = status_of(cudaEventCreate(&ev[i]));
    if (st == SC_OK) st = run_thrust_list(b, s, kept, ev);
    if (st == SC_OK) st = status_of(cudaEventSynchronize(ev[2]));
    float mark = 0.f, remove = 0.f;
    if (st == SC_OK) st = status_of(cudaEventElapsedTime(&mark, ev[0], ev[1]));
    if (st == SC_OK) st = status_of(cudaEventElapsedTime(&remove, ev[1], ev[2]));
    for (int i = 0; i < 3; i++)
        if (ev[i]) cudaEventDestroy(ev[i]);
    if (st != SC_OK) return st;
    phases[0].name = "mark";
    phases[0].ms = (double)mark;
    phases[1].name = "remove";
    phases[1].ms = (double)remove;
    *num_phases = 2;
    return SC_OK;
}

/* ---- one operation on one set ---- */

/* auto-list's spare output buffer, allocated before the runs that need it (only then: it
 * costs one more stream of memory). */
static sc_status ensure_alt(bench_backend *b, const bench_job *job) {
    size_t bytes = b->s.in_stride;
    if (job->op != BENCH_OP_AUTO_LIST || bytes <= b->alt_bytes) return SC_OK;
    cudaFree(b->d_alt);
    b->d_alt = NULL;
    b->alt_bytes = 0;
    TRY(cudaMalloc(&b->d_alt, bytes));
    b->alt_bytes = bytes;
    return SC_OK;
}

static sc_status run_op(bench_backend *b, const bench_job *job, const sc_options *opt,
                        const gpu_set *s, size_t *kept) {
    size_t es = b->s.es;
    switch (job->op) {
    case BENCH_OP_FLAGGED:
        return sc_compact_flagged(b->s.ctx, job->algo, s->in, s->flags, s->out, b->s.n, es, opt,
                                  kept);
    case BENCH_OP_REMOVE:
        return sc_remove_indices(b->s.ctx, job->algo, s->out, b->s.n, es, s->list, b->s.k, opt,
                                 kept);
    case BENCH_OP_THRUST: {
        size_t got = 0;
        TRY_SC(run_thrust(b, s->out, s->flags, &got));
        if (kept) *kept = got;
        return SC_OK;
    }
    case BENCH_OP_THRUST_LIST: {
        size_t got = 0;
        TRY_SC(run_thrust_list(b, s, &got, NULL));
        if (kept) *kept = got;
        return SC_OK;
    }
    case BENCH_OP_COPY:
        TRY(cudaMemcpyAsync(s->out, s->in, b->s.n * es, cudaMemcpyDeviceToDevice, b->stream));
        if (kept) *kept = b->s.n;
        return SC_OK;
    case BENCH_OP_SCATTER:
        if (kept) *kept = b->s.n - b->s.k;
        return run_scatter(b, s);
    case BENCH_OP_AUTO_LIST:
        return sc_compact_any(b->s.ctx, job->algo, s->out, s->flags, b->d_alt, b->s.n, es, s->list,
                              b->s.k, opt, kept, &b->result);
    case BENCH_OP_PARTITION:
        return sc_partition(b->s.ctx, job->algo, s->in, s->flags, s->out, b->s.n, es, job->num_keys,
                            opt, kept);
    }
    return SC_ERR_UNSUPPORTED;
}

/* ---- the bench_ops interface ---- */

/* The driver's version ("580.159.04"): the first token of /proc/driver/nvidia/version that
 * starts with a digit and has a dot; "" without that file. */
static void module_version(char *out, size_t cap) {
    char line[256];
    out[0] = 0;
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f) return;
    if (fgets(line, sizeof line, f)) {
        for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
            if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.')) {
                snprintf(out, cap, "%s", tok);
                break;
            }
        }
    }
    fclose(f);
}

/* "580.159.04, CUDA 13.0": the driver and the CUDA version it supports. */
static void driver_version(char *buf, size_t cap, int cuda) {
    char module[64];
    module_version(module, sizeof module);
    snprintf(buf, cap, "%s%sCUDA %d.%d", module, module[0] ? ", " : "", cuda / 1000,
             (cuda % 1000) / 10);
}

static sc_status describe(bench_device *dev) {
    int device = 0, driver = 0, runtime = 0;
    cudaDeviceProp prop;
    TRY(cudaGetDevice(&device));
    TRY(cudaGetDeviceProperties(&prop, device));
    TRY(cudaDriverGetVersion(&driver));
    TRY(cudaRuntimeGetVersion(&runtime));
    memset(dev, 0, sizeof *dev);
    snprintf(dev->name, sizeof dev->name, "%s", prop.name);
    driver_version(dev->driver, sizeof dev->driver, driver);
    snprintf(dev->runtime, sizeof dev->runtime, "%d.%d", runtime / 1000, (runtime % 1000) / 10);
    dev->cache_bytes = (size_t)prop.l2CacheSize;
    return SC_OK;
}

static void free_sets(bench_backend *b) {
    cudaFree(b->d_in);
    cudaFree(b->d_out);
    cudaFree(b->d_flags);
    cudaFree(b->d_list);
    cudaFree(b->d_stencil);
    cudaFree(b->d_alt);
    b->d_in = b->d_out = b->d_flags = b->d_list = b->d_stencil = b->d_alt = NULL;
    b->alt_bytes = 0;
    b->s.num_sets = 0;
}

static void gpu_close(bench_backend *b) {
    if (!b) return;
    free_sets(b);
    for (int i = 0; i < b->num_events; i++) {
        cudaEventDestroy(b->start[i]);
        cudaEventDestroy(b->stop[i]);
    }
    free(b->start);
    free(b->stop);
    cudaFree(b->d_thrust);
    cudaFree(b->d_flush);
    cudaFree(b->d_kept);
    cudaFree(b->d_len);
    if (b->stream) cudaStreamDestroy(b->stream);
    sc_context_destroy(b->s.ctx);
    free(b);
}

static sc_status open_state(bench_backend *b, bench_device *dev) {
    TRY_SC(sc_context_create(SC_BACKEND_CUDA, &b->s.ctx));
    TRY(cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking));
    TRY(cudaMalloc(&b->d_kept, SC_PARTITION_MAX_KEYS * sizeof(uint32_t)));
    TRY(cudaMalloc(&b->d_len, 2 * sizeof(uint32_t)));
    TRY_SC(describe(dev));
    int device = 0;
    TRY(cudaGetDevice(&device));
    TRY(cudaDeviceGetAttribute(&b->sm_count, cudaDevAttrMultiProcessorCount, device));
    b->flush_bytes = bench_warm ? 0 : 2 * dev->cache_bytes;
    if (b->flush_bytes) TRY(cudaMalloc(&b->d_flush, b->flush_bytes));
    return SC_OK;
}

static sc_status gpu_open(bench_backend **out, bench_device *dev) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        return SC_ERR_NO_DEVICE;
    }
    bench_backend *b = (bench_backend *)calloc(1, sizeof *b);
    if (!b) return SC_ERR_OUT_OF_MEMORY;
    sc_status s = open_state(b, dev);
    if (s != SC_OK) {
        gpu_close(b);
        return s;
    }
    *out = b;
    return SC_OK;
}

static sc_status gpu_alloc(bench_backend *b, size_t n, size_t es, size_t k, int num_sets) {
    free_sets(b);
    bench_sets_init(&b->s, n, es, k, num_sets);
    const size_t sets = (size_t)num_sets, in = b->s.in_stride, flags = b->s.flags_stride;
    cudaError_t e = cudaMalloc(&b->d_in, sets * in);
    if (e == cudaSuccess) e = cudaMalloc(&b->d_out, sets * in);
    if (e == cudaSuccess) e = cudaMalloc(&b->d_flags, sets * flags);
    if (e == cudaSuccess) e = cudaMalloc(&b->d_list, sets * b->s.list_stride + 256);
    if (e == cudaSuccess) e = cudaMalloc(&b->d_stencil, sets * flags);
    if (e != cudaSuccess) {
        free_sets(b);
        return status_of(e);
    }
    return SC_OK;
}

/* Set 0 from the host, the others from set 0, all on the bench's (non-blocking) stream: a
 * pageable cudaMemcpy may return early, and the copies of set 0 would read a stale tail. */
static sc_status gpu_load(bench_backend *b, const bench_input *in) {
    gpu_set s0 = set_of(b, 0);
    TRY(cudaMemcpyAsync(s0.in, in->data, b->s.n * b->s.es, cudaMemcpyHostToDevice, b->stream));
    TRY(cudaMemcpyAsync((void *)s0.flags, in->flags, b->s.n, cudaMemcpyHostToDevice, b->stream));
    for (int i = 1; i < b->s.num_sets; i++) {
        gpu_set s = set_of(b, i);
        TRY(cudaMemcpyAsync(s.in, s0.in, b->s.n * b->s.es, cudaMemcpyDeviceToDevice, b->stream));
        TRY(cudaMemcpyAsync((void *)s.flags, s0.flags, b->s.n, cudaMemcpyDeviceToDevice,
                            b->stream));
    }
    TRY(cudaStreamSynchronize(b->stream));
    return SC_OK;
}

static sc_status gpu_load_list(bench_backend *b, const uint32_t *removed) {
    size_t bytes = b->s.k * sizeof(uint32_t);
    if (bytes == 0) return SC_OK;
    gpu_set s0 = set_of(b, 0);
    TRY(cudaMemcpyAsync((void *)s0.list, removed, bytes, cudaMemcpyHostToDevice, b->stream));
    for (int i = 1; i < b->s.num_sets; i++)
        TRY(cudaMemcpyAsync((void *)set_of(b, i).list, s0.list, bytes, cudaMemcpyDeviceToDevice,
                            b->stream));
    TRY(cudaStreamSynchronize(b->stream));
    return SC_OK;
}

static sc_status ensure_events(bench_backend *b, int runs) {
    if (runs <= b->num_events) return SC_OK;
    cudaEvent_t *start = (cudaEvent_t *)realloc(b->start, (size_t)runs * sizeof *start);
    if (start) b->start = start;
    cudaEvent_t *stop = (cudaEvent_t *)realloc(b->stop, (size_t)runs * sizeof *stop);
    if (stop) b->stop = stop;
    if (!start || !stop) return SC_ERR_OUT_OF_MEMORY;
    for (; b->num_events < runs; b->num_events++) {
        TRY(cudaEventCreate(&b->start[b->num_events]));
        if (cudaEventCreate(&b->stop[b->num_events]) != cudaSuccess) {
            cudaEventDestroy(b->start[b->num_events]);
            return status_of(cudaGetLastError());
        }
    }
    return SC_OK;
}

/* An in-place operation's buffer (and thrust-remove-list's stencil, to ones) is refilled. */
static sc_status refill_buffers(bench_backend *b, const bench_job *job, const gpu_set *s) {
    TRY(cudaMemcpyAsync(s->out, s->in, b->s.n * b->s.es, cudaMemcpyDeviceToDevice, b->stream));
    if (job->op == BENCH_OP_THRUST_LIST) TRY(cudaMemsetAsync(s->stencil, 1, b->s.n, b->stream));
    return SC_OK;
}

/* --graph times every operation but thrust's, which reads its count back on the host and
 * cannot be captured: it is timed as usual. */
static int graphed(const bench_job *job) {
    return bench_graph_calls > 0 && job->op != BENCH_OP_THRUST && job->op != BENCH_OP_THRUST_LIST;
}

/* --graph: bench_graph_calls calls on the sets in turn (n and k read on the device) captured
 * into one graph a timed run replays; one uncaptured call first, so the capture allocates
 * nothing. */
static sc_status capture(bench_backend *b, const bench_job *job) {
    b->opt.d_n = b->d_len;
    b->opt.d_k = b->d_len + 1;
    const uint32_t len[2] = {(uint32_t)b->s.n, (uint32_t)b->s.k};
    TRY(cudaMemcpyAsync(b->d_len, len, sizeof len, cudaMemcpyHostToDevice, b->stream));
    gpu_set s0 = set_of(b, 0);
    TRY_SC(run_op(b, job, &b->opt, &s0, NULL));
    TRY(cudaStreamSynchronize(b->stream));
    cudaGraph_t graph;
    TRY(cudaStreamBeginCapture(b->stream, cudaStreamCaptureModeGlobal));
    sc_status st = SC_OK;
    for (int c = 0; c < bench_graph_calls && st == SC_OK; c++) {
        gpu_set s = set_of(b, c % b->s.num_sets);
        st = run_op(b, job, &b->opt, &s, NULL);
    }
    cudaError_t e = cudaStreamEndCapture(b->stream, &graph);
    if (st != SC_OK) {
        if (e == cudaSuccess) cudaGraphDestroy(graph);
        (void)cudaGetLastError();
        return st;
    }
    TRY(e);
    e = cudaGraphInstantiate(&b->graph, graph, 0);
    cudaGraphDestroy(graph);
    if (e != cudaSuccess) b->graph = NULL;
    return status_of(e);
}

/* ---- the steps of bench_time: runs queued back to back between event pairs, the count left
 * on the device, so nothing timed waits for the host ---- */

static sc_status gpu_begin(bench_backend *b, const bench_job *job, int runs) {
    TRY_SC(ensure_events(b, runs));
    TRY_SC(ensure_alt(b, job));
    b->opt = job->opt;
    b->opt.stream = b->stream;
    b->opt.d_kept = b->d_kept;
    b->opt.timing = 0;
    if (graphed(job)) TRY_SC(capture(b, job));
    return settle(b);
}

/* The refill, then a write of twice L2 that evicts it (none with --warm); graph replays run on
 * the previous call's output. */
static sc_status gpu_refill(bench_backend *b, const bench_job *job, int set, int flush) {
    if (graphed(job)) return SC_OK;
    gpu_set s = set_of(b, set);
    TRY_SC(refill_buffers(b, job, &s));
    if (flush && b->flush_bytes) TRY(cudaMemsetAsync(b->d_flush, 0, b->flush_bytes, b->stream));
    return SC_OK;
}

static sc_status gpu_stamp(bench_backend *b, int slot, int stop) {
    return status_of(cudaEventRecord((stop ? b->stop : b->start)[slot], b->stream));
}

static sc_status gpu_run(bench_backend *b, const bench_job *job, int set, int *in_place) {
    if (b->graph) return status_of(cudaGraphLaunch(b->graph, b->stream));
    gpu_set s = set_of(b, set);
    sc_status st = run_op(b, job, &b->opt, &s, NULL);
    *in_place = b->result == s.out;
    return st;
}

static sc_status gpu_end(bench_backend *b, sc_status st, int runs, double *ms) {
    sc_status sync = status_of(cudaStreamSynchronize(b->stream)); /* nothing queued outlives it */
    const double calls = b->graph ? (double)bench_graph_calls : 1.0;
    if (b->graph) cudaGraphExecDestroy(b->graph);
    b->graph = NULL;
    if (st != SC_OK) return st;
    TRY_SC(sync);
    for (int r = 0; r < runs; r++) {
        float t = 0.f;
        TRY(cudaEventElapsedTime(&t, b->start[r], b->stop[r]));
        ms[r] = (double)t / calls;
    }
    return SC_OK;
}

static sc_status gpu_run_once(bench_backend *b, const bench_job *job, int timing, void *out,
                              size_t *kept, sc_phase_timing *phases, size_t *num_phases) {
    gpu_set s = set_of(b, 0);
    size_t bytes = b->s.n * b->s.es;
    sc_options opt = job->opt;
    opt.stream = b->stream;
    opt.timing = timing;
    opt.d_kept = NULL;
    TRY_SC(ensure_alt(b, job));
    if (job->op == BENCH_OP_AUTO_LIST) TRY(cudaMemsetAsync(b->d_alt, 0xA5, bytes, b->stream));
    if (bench_job_in_place(job))
        TRY_SC(refill_buffers(b, job, &s));
    else if (out) /* poison, so that a result left by an earlier operation cannot pass */
        TRY(cudaMemsetAsync(s.out, 0xA5, bytes, b->stream));
    if (job->op == BENCH_OP_THRUST_LIST && timing && num_phases)
        return thrust_list_phases(b, &s, kept, phases, num_phases);
    TRY_SC(run_op(b, job, &opt, &s, kept));
    const void *result = job->op == BENCH_OP_AUTO_LIST ? b->result : s.out;
    if (out) TRY(cudaMemcpyAsync(out, result, bytes, cudaMemcpyDeviceToHost, b->stream));
    TRY(cudaStreamSynchronize(b->stream));
    if (num_phases) bench_phases(b, job, phases, num_phases);
    return SC_OK;
}

extern "C" const bench_ops bench_gpu_ops = {
    SC_BACKEND_CUDA, gpu_open,   gpu_close, gpu_alloc, gpu_load, gpu_load_list,
    gpu_begin,       gpu_refill, gpu_stamp, gpu_run,   gpu_end,  gpu_run_once,
};
