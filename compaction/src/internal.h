/* internal.h: what the backends share with the front end (core.c). Not installed. */
#ifndef SC_INTERNAL_H
#define SC_INTERNAL_H

#include "raycompact/compaction.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One call, validated and with its options resolved (tile, scan, rlz never DEFAULT). */
typedef struct sc_job {
    sc_context *ctx;
    const sc_algorithm_info *info;
    size_t n;
    size_t elem_size;
    /* flagged compaction */
    const void *in;
    const uint8_t *flags;
    void *out;
    /* removal list */
    void *data;
    const uint32_t *removed;
    size_t k;
    /* resolved options */
    size_t tile;
    sc_scan scan;
    sc_rlz_variant rlz;
    sc_options opt;
    int host_kept; /* 1 if the caller passed a `kept` pointer (CUDA: read the count back) */
    /* sc_context_reserve: the backend grows its storage for n (and k) and launches nothing.
     * CUDA: sc_cuda_temp (or the algorithm) sets reserve_done and returns a non-OK status to
     * stop the algorithm there; the front end turns that into SC_OK. */
    int reserve;
    int k_unknown; /* sc_auto_preview: a list is offered, its length is not known */
    int reserve_done;
    /* k-way partition (partition.c): keys[i] < num_keys; the groups' sizes come back in
     * part_counts */
    const uint8_t *keys;
    unsigned num_keys;
    size_t part_counts[SC_PARTITION_MAX_KEYS];
    /* result */
    size_t kept;
} sc_job;

typedef sc_status (*sc_impl_fn)(sc_job *job);

/* The calling thread's last CUDA error, one line (sc_last_error_detail(NULL)); the CUDA
 * backend writes it, a failed call copies it into its context. */
#define SC_DETAIL_MAX 256
char *sc_thread_error_detail(void);

/* The context. The backend-specific part hangs off `backend_state`. */
struct sc_context {
    sc_backend backend;
    void *backend_state;
    /* host scratch (CPU backend): grows on demand, reused across calls */
    void *scratch;
    size_t scratch_bytes;
    /* timings of the last call */
    sc_phase_timing timings[SC_MAX_PHASES];
    size_t num_timings;
    /* auto (auto.c): its policy and last choice; the previous call's count, if on the host */
    struct sc_auto *autos;
    size_t prev_n, prev_kept;
    int prev_known;
    sc_choice choice; /* what the last successful call ran */
    int has_choice;
    /* the last CUDA error a call on this context met (sc_last_error_detail) */
    char error_detail[SC_DETAIL_MAX];
};

/* ---- auto (auto.c, policy.c) ---- */
/* Which inputs a call offers auto. */
#define SC_OFFER_FLAGS 0x1u
#define SC_OFFER_LIST  0x2u
/* Replace job->info, tile and scan by the policy's choice for this call, and return the
 * chosen backend function in *fn. job->flags / job->k must be set for what `offer` says. */
sc_status sc_auto_choose(sc_job *job, unsigned offer, sc_impl_fn *fn);
/* sc_auto_preview: the choice sc_auto_choose makes for `job`, into *out (nothing runs). */
sc_status sc_auto_peek(sc_job *job, unsigned offer, sc_choice *out);
/* Record what ran (auto's choice or a fixed algorithm) after a successful call. */
void sc_auto_record(sc_job *job, int automatic);
void sc_auto_free(sc_context *ctx);
/* The backend's function for an algorithm (registry.c); NULL if not implemented there. */
sc_impl_fn sc_impl_for(sc_algorithm algo, sc_backend backend);

/* Host scratch of at least `bytes`, kept by the context (CPU backend). NULL on OOM. */
void *sc_scratch(sc_context *ctx, size_t bytes);

/* Record a phase time (adds to an existing phase of the same name). */
void sc_timing_add(sc_context *ctx, const char *name, double ms);

/* ---- CPU backend: one function per algorithm file (compaction/src/cpu/<name>.c) ---- */
sc_status sc_cpu_serial(sc_job *job);
sc_status sc_cpu_scan_scatter(sc_job *job);
sc_status sc_cpu_horn(sc_job *job);
sc_status sc_cpu_jumping_jack(sc_job *job);
sc_status sc_cpu_rlz(sc_job *job);
sc_status sc_cpu_binary_tree(sc_job *job);
sc_status sc_cpu_spataro(sc_job *job);
sc_status sc_cpu_billeter(sc_job *job);
sc_status sc_cpu_atomic(sc_job *job);
sc_status sc_cpu_redzone(sc_job *job);
sc_status sc_cpu_redzone_block(sc_job *job);
sc_status sc_cpu_partition_serial(sc_job *job);
sc_status sc_cpu_partition_scan(sc_job *job);

/* ---- CUDA backend (compaction/src/cuda/), present when SC_HAVE_CUDA ---- */
#ifdef SC_HAVE_CUDA
sc_status sc_cuda_context_init(sc_context *ctx);
/* Launch a trivial kernel: SC_ERR_UNSUPPORTED_DEVICE when no image of this build runs on the
 * current device; `detail` gets the reason (probe.cu). */
sc_status sc_cuda_probe(char *detail, size_t cap);
void sc_cuda_context_free(sc_context *ctx);
size_t sc_cuda_temp_bytes(const sc_context *ctx);
/* SC_OK if `p` can be read by the device (opt.d_n, opt.d_k): a host-side query, skipped for
 * the pointers last found good and while `stream` is being captured. */
sc_status sc_cuda_check_device_pointer(sc_context *ctx, const void *p, void *stream);
sc_status sc_cuda_scan_scatter(sc_job *job);
sc_status sc_cuda_horn(sc_job *job);
sc_status sc_cuda_jumping_jack(sc_job *job);
sc_status sc_cuda_rlz(sc_job *job);
sc_status sc_cuda_binary_tree(sc_job *job);
sc_status sc_cuda_spataro(sc_job *job);
sc_status sc_cuda_billeter(sc_job *job);
sc_status sc_cuda_atomic(sc_job *job);
sc_status sc_cuda_redzone(sc_job *job);
sc_status sc_cuda_redzone_block(sc_job *job);
sc_status sc_cuda_cub(sc_job *job);
sc_status sc_cuda_single_pass(sc_job *job);
sc_status sc_cuda_partition_single_pass(sc_job *job);
sc_status sc_cuda_partition_cub(sc_job *job);
/* Compute capability of the context's device as major * 10 + minor (arch.cu). */
int sc_cuda_device_cc(const sc_context *ctx);
#endif

#ifdef __cplusplus
}
#endif
#endif /* SC_INTERNAL_H */
