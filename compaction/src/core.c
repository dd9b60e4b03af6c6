/* core.c: contexts, argument validation and dispatch to a backend (the algorithms and their
 * implementations: registry.c). */
#include "internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *sc_status_string(sc_status status) {
    switch (status) {
    case SC_OK:
        return "ok";
    case SC_ERR_INVALID_ARGUMENT:
        return "invalid argument";
    case SC_ERR_UNSUPPORTED:
        return "not supported by this backend or build";
    case SC_ERR_OUT_OF_MEMORY:
        return "out of memory";
    case SC_ERR_NO_DEVICE:
        return "no usable CUDA device";
    case SC_ERR_CUDA:
        return "CUDA error";
    case SC_ERR_UNKNOWN_ALGORITHM:
        return "unknown algorithm";
    case SC_ERR_POLICY:
        return "bad policy table";
    case SC_ERR_UNSUPPORTED_DEVICE:
        return "no kernel image of this build runs on the CUDA device";
    }
    return "unknown status";
}

/* auto has no function of its own: it runs the algorithm its policy picks. */
static int is_auto(sc_algorithm algo) {
    return algo == SC_ALGO_AUTO;
}

void sc_options_init(sc_options *opt) {
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->tile = SC_TILE_DEFAULT;
    opt->removed_hint = SC_UNKNOWN_COUNT;
    opt->n_hint = SC_UNKNOWN_COUNT;
}

size_t sc_max_elements(sc_backend backend) {
    switch (backend) {
    case SC_BACKEND_CPU:
        return SIZE_MAX / SC_ELEM_MAX;
    case SC_BACKEND_CUDA:
        return (size_t)UINT32_MAX;
    default:
        return 0;
    }
}

sc_status sc_context_create(sc_backend backend, sc_context **out) {
    if (!out) return SC_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (backend != SC_BACKEND_CPU && backend != SC_BACKEND_CUDA) return SC_ERR_INVALID_ARGUMENT;
#ifndef SC_HAVE_CUDA
    if (backend == SC_BACKEND_CUDA) return SC_ERR_UNSUPPORTED;
#endif
    sc_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return SC_ERR_OUT_OF_MEMORY;
    ctx->backend = backend;
#ifdef SC_HAVE_CUDA
    if (backend == SC_BACKEND_CUDA) {
        sc_thread_error_detail()[0] = '\0';
        sc_status s = sc_cuda_context_init(ctx);
        if (s != SC_OK) {
            free(ctx);
            return s;
        }
    }
#endif
    *out = ctx;
    return SC_OK;
}

void sc_context_destroy(sc_context *ctx) {
    if (!ctx) return;
#ifdef SC_HAVE_CUDA
    if (ctx->backend == SC_BACKEND_CUDA) sc_cuda_context_free(ctx);
#endif
    sc_auto_free(ctx);
    free(ctx->scratch);
    free(ctx);
}

char *sc_thread_error_detail(void) {
    static _Thread_local char detail[SC_DETAIL_MAX];
    return detail;
}

const char *sc_last_error_detail(const sc_context *ctx) {
    return ctx ? ctx->error_detail : sc_thread_error_detail();
}

sc_backend sc_context_backend(const sc_context *ctx) {
    return ctx ? ctx->backend : SC_BACKEND_CPU;
}

size_t sc_context_temp_bytes(const sc_context *ctx) {
    if (!ctx) return 0;
    size_t bytes = ctx->scratch_bytes;
#ifdef SC_HAVE_CUDA
    if (ctx->backend == SC_BACKEND_CUDA) bytes += sc_cuda_temp_bytes(ctx);
#endif
    return bytes;
}

void *sc_scratch(sc_context *ctx, size_t bytes) {
    if (bytes <= ctx->scratch_bytes) return ctx->scratch;
    size_t grow = ctx->scratch_bytes + ctx->scratch_bytes / 2;
    if (grow < bytes) grow = bytes;
    void *p = malloc(grow);
    if (!p) {
        p = malloc(bytes);
        if (!p) return NULL;
        grow = bytes;
    }
    free(ctx->scratch);
    ctx->scratch = p;
    ctx->scratch_bytes = grow;
    return p;
}

void sc_timing_add(sc_context *ctx, const char *name, double ms) {
    for (size_t i = 0; i < ctx->num_timings; i++) {
        if (ctx->timings[i].name == name || strcmp(ctx->timings[i].name, name) == 0) {
            ctx->timings[i].ms += ms;
            return;
        }
    }
    if (ctx->num_timings < SC_MAX_PHASES) {
        ctx->timings[ctx->num_timings].name = name;
        ctx->timings[ctx->num_timings].ms = ms;
        ctx->num_timings++;
    }
}

size_t sc_last_timings(const sc_context *ctx, sc_phase_timing *out, size_t cap) {
    if (!ctx) return 0;
    for (size_t i = 0; out && i < cap && i < ctx->num_timings; i++) out[i] = ctx->timings[i];
    return ctx->num_timings;
}

/* ---- validation ---- */

static int is_pow2(size_t x) {
    return x && !(x & (x - 1));
}

static int ranges_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes) {
    uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a_bytes && b_bytes && a0 < b0 + b_bytes && b0 < a0 + a_bytes;
}

static sc_status prepare(sc_job *job, sc_context *ctx, sc_algorithm algo, sc_input input, size_t n,
                         size_t elem_size, const sc_options *opt, const size_t *kept,
                         sc_impl_fn *fn) {
    memset(job, 0, sizeof *job);
    if (!ctx) return SC_ERR_INVALID_ARGUMENT;
    ctx->num_timings = 0;
    job->info = sc_algorithm_get(algo);
    if (!job->info) return SC_ERR_UNKNOWN_ALGORITHM;
    if (elem_size == 0 || elem_size > SC_ELEM_MAX) return SC_ERR_INVALID_ARGUMENT;
    if (n > sc_max_elements(ctx->backend)) return SC_ERR_INVALID_ARGUMENT;
    if (opt)
        job->opt = *opt;
    else
        sc_options_init(&job->opt);
    size_t tile = job->opt.tile ? job->opt.tile : SC_TILE_DEFAULT;
    if (!is_pow2(tile) || tile < SC_TILE_MIN || tile > SC_TILE_MAX) return SC_ERR_INVALID_ARGUMENT;
    if (job->opt.scan < SC_SCAN_DEFAULT || job->opt.scan > SC_SCAN_BLELLOCH)
        return SC_ERR_INVALID_ARGUMENT;
    if (job->opt.rlz < SC_RLZ_DEFAULT || job->opt.rlz > SC_RLZ_BALANCED_TREE)
        return SC_ERR_INVALID_ARGUMENT;
    job->ctx = ctx;
    job->n = n;
    job->elem_size = elem_size;
    job->tile = tile;
    /* Both Moreira papers: Hillis-Steele wins on small tiles, Blelloch on large ones. */
    job->scan = job->opt.scan != SC_SCAN_DEFAULT
                    ? job->opt.scan
                    : (tile < 128 ? SC_SCAN_HILLIS_STEELE : SC_SCAN_BLELLOCH);
    job->rlz = job->opt.rlz != SC_RLZ_DEFAULT ? job->opt.rlz : SC_RLZ_RECURSIVE_DOUBLING;
    if (input != SC_INPUT_ANY && job->info->input != input && job->info->input != SC_INPUT_ANY)
        return SC_ERR_UNSUPPORTED;
    if (job->opt.require_stable && !job->info->stable && !is_auto(algo)) return SC_ERR_UNSUPPORTED;
    /* auto's function is the one it chooses, once the inputs are known (sc_auto_choose) */
    *fn = sc_impl_for(algo, ctx->backend);
    if (!*fn && !(is_auto(algo) && sc_algorithm_available(algo, ctx->backend)))
        return SC_ERR_UNSUPPORTED;
    /* the count goes to the host, or (CUDA) to the device only */
    if (!kept && !(ctx->backend == SC_BACKEND_CUDA && job->opt.d_kept))
        return SC_ERR_INVALID_ARGUMENT;
    job->host_kept = kept != NULL;
#ifdef SC_HAVE_CUDA
    if (ctx->backend == SC_BACKEND_CUDA) {
        /* the kept count must not overwrite a run-time count the call's kernels still read */
        if (job->opt.d_kept &&
            (ranges_overlap(job->opt.d_kept, 4, job->opt.d_n, job->opt.d_n ? 4 : 0) ||
             (input != SC_INPUT_FLAGS &&
              ranges_overlap(job->opt.d_kept, 4, job->opt.d_k, job->opt.d_k ? 4 : 0))))
            return SC_ERR_INVALID_ARGUMENT;
        /* run-time counts are read by the kernels: they must be device-readable */
        if (job->opt.d_n &&
            sc_cuda_check_device_pointer(ctx, job->opt.d_n, job->opt.stream) != SC_OK)
            return SC_ERR_INVALID_ARGUMENT;
        if (input == SC_INPUT_REMOVAL_LIST && job->opt.d_k &&
            sc_cuda_check_device_pointer(ctx, job->opt.d_k, job->opt.stream) != SC_OK)
            return SC_ERR_INVALID_ARGUMENT;
    }
#endif
    if (input == SC_INPUT_FLAGS) job->opt.d_k = NULL;
    return SC_OK;
}

/* CPU backend: a run-time count (opt.d_n or opt.d_k, a host pointer) read at call start, clamped to
 * the bound; the call then runs as one on that many elements. */
static size_t host_count(const uint32_t *p, size_t bound) {
    if (!p) return bound;
    return (size_t)*p < bound ? (size_t)*p : bound;
}

/* Run a prepared job; timings, the choice and *kept only on success. */
static sc_status run(sc_job *job, sc_impl_fn fn, size_t *kept, int automatic) {
    char *detail = sc_thread_error_detail();
    detail[0] = '\0';
    sc_status s = fn(job);
    if (s != SC_OK) {
        job->ctx->num_timings = 0;
        if (detail[0]) memcpy(job->ctx->error_detail, detail, SC_DETAIL_MAX);
        return s;
    }
    sc_auto_record(job, automatic);
    if (kept) *kept = job->kept;
    return SC_OK;
}

sc_status sc_compact_flagged(sc_context *ctx, sc_algorithm algo, const void *in,
                             const uint8_t *flags, void *out, size_t n, size_t elem_size,
                             const sc_options *opt, size_t *kept) {
    sc_job job;
    sc_impl_fn fn;
    sc_status s = prepare(&job, ctx, algo, SC_INPUT_FLAGS, n, elem_size, opt, kept, &fn);
    if (s != SC_OK) return s;
    if (n > 0 && (!in || !flags || !out)) return SC_ERR_INVALID_ARGUMENT;
    if (ranges_overlap(in, n * elem_size, out, n * elem_size)) return SC_ERR_INVALID_ARGUMENT;
    job.in = in;
    job.flags = flags;
    job.out = out;
    if (ctx->backend == SC_BACKEND_CPU) job.n = host_count(job.opt.d_n, n);
    if (is_auto(algo) && (s = sc_auto_choose(&job, SC_OFFER_FLAGS, &fn)) != SC_OK) return s;
    return run(&job, fn, kept, is_auto(algo));
}

/* Every index < n and none twice: one pass with an n-bit map in the context's scratch (CPU
 * backend; the algorithm reuses the scratch afterwards). The CUDA backend
 * checks on the device before it writes anything. */
static sc_status check_removal_list(sc_context *ctx, const uint32_t *removed, size_t k, size_t n) {
    size_t words = (n + 63) / 64;
    uint64_t *seen = sc_scratch(ctx, (words ? words : 1) * sizeof *seen);
    if (!seen) return SC_ERR_OUT_OF_MEMORY;
    memset(seen, 0, (words ? words : 1) * sizeof *seen);
    sc_status s = SC_OK;
    for (size_t i = 0; i < k; i++) {
        uint32_t r = removed[i];
        if (r >= n || (seen[r / 64] >> (r % 64)) & 1u) {
            s = SC_ERR_INVALID_ARGUMENT;
            break;
        }
        seen[r / 64] |= (uint64_t)1 << (r % 64);
    }
    return s;
}

sc_status sc_remove_indices(sc_context *ctx, sc_algorithm algo, void *data, size_t n,
                            size_t elem_size, const uint32_t *removed, size_t k,
                            const sc_options *opt, size_t *kept) {
    sc_job job;
    sc_impl_fn fn;
    sc_status s = prepare(&job, ctx, algo, SC_INPUT_REMOVAL_LIST, n, elem_size, opt, kept, &fn);
    if (s != SC_OK) return s;
    if (n > (size_t)UINT32_MAX || k > n) return SC_ERR_INVALID_ARGUMENT;
    if ((n > 0 && !data) || (k > 0 && !removed)) return SC_ERR_INVALID_ARGUMENT;
    if (ctx->backend == SC_BACKEND_CPU) {
        if (ranges_overlap(data, n * elem_size, removed, k * sizeof *removed))
            return SC_ERR_INVALID_ARGUMENT;
        /* run-time counts (host pointers): from here on the call is one on n and k elements */
        n = host_count(job.opt.d_n, n);
        k = host_count(job.opt.d_k, k);
        if (k > n) k = n;
        job.n = n;
        s = check_removal_list(ctx, removed, k, n);
        if (s != SC_OK) return s;
    }
    job.data = data;
    job.removed = removed;
    job.k = k;
    if (is_auto(algo) && (s = sc_auto_choose(&job, SC_OFFER_LIST, &fn)) != SC_OK) return s;
    return run(&job, fn, kept, is_auto(algo));
}

/* CPU: the list and the flags describe the same removals (each listed index has flag 0). */
static sc_status check_list_flags(const uint8_t *flags, const uint32_t *removed, size_t k) {
    for (size_t i = 0; i < k; i++)
        if (flags[removed[i]]) return SC_ERR_INVALID_ARGUMENT;
    return SC_OK;
}

sc_status sc_compact_any(sc_context *ctx, sc_algorithm algo, void *data, const uint8_t *flags,
                         void *out, size_t n, size_t elem_size, const uint32_t *removed, size_t k,
                         const sc_options *opt, size_t *kept, void **result) {
    sc_job job;
    sc_impl_fn fn;
    if (result) *result = NULL;
    sc_status s = prepare(&job, ctx, algo, SC_INPUT_ANY, n, elem_size, opt, kept, &fn);
    if (s != SC_OK) return s;
    if (ctx->backend == SC_BACKEND_CPU) {
        /* run-time counts (host pointers), as in the other entry points */
        n = host_count(job.opt.d_n, n);
        k = host_count(job.opt.d_k, k);
        if (k > n) k = n;
        job.n = n;
    }
    unsigned offer = (flags ? SC_OFFER_FLAGS : 0u) | (removed || !flags ? SC_OFFER_LIST : 0u);
    if (n > (size_t)UINT32_MAX) offer &= ~SC_OFFER_LIST;
    if (!result || !offer || k > n || (n > 0 && !data)) return SC_ERR_INVALID_ARGUMENT;
    if ((offer & SC_OFFER_FLAGS) && n > 0 && !out) return SC_ERR_INVALID_ARGUMENT;
    if ((offer & SC_OFFER_LIST) && k > 0 && !removed) return SC_ERR_INVALID_ARGUMENT;
    job.in = data;
    job.flags = flags;
    job.out = out;
    job.data = data;
    job.removed = removed;
    job.k = offer & SC_OFFER_LIST ? k : 0;
    if (is_auto(algo)) {
        if ((s = sc_auto_choose(&job, offer, &fn)) != SC_OK) return s;
    } else if (!(offer & (job.info->input == SC_INPUT_FLAGS ? SC_OFFER_FLAGS : SC_OFFER_LIST))) {
        return SC_ERR_INVALID_ARGUMENT; /* the algorithm's input was not given */
    }
    void *where;
    if (job.info->input == SC_INPUT_FLAGS) {
        if (ranges_overlap(data, n * elem_size, out, n * elem_size)) return SC_ERR_INVALID_ARGUMENT;
        job.data = NULL;
        job.removed = NULL;
        job.k = 0;
        where = out;
    } else {
        if (ctx->backend == SC_BACKEND_CPU) {
            if (ranges_overlap(data, n * elem_size, removed, k * sizeof *removed))
                return SC_ERR_INVALID_ARGUMENT;
            if ((s = check_removal_list(ctx, removed, k, n)) != SC_OK) return s;
            if (flags && (s = check_list_flags(flags, removed, k)) != SC_OK) return s;
        }
        job.in = NULL;
        job.flags = NULL;
        job.out = NULL;
        where = data;
    }
    s = run(&job, fn, kept, is_auto(algo));
    if (s == SC_OK) *result = where;
    return s;
}

sc_status sc_auto_preview(sc_context *ctx, size_t n, size_t elem_size, sc_input input,
                          const sc_options *opt, sc_choice *out) {
    if (!ctx || !out || input < SC_INPUT_FLAGS || input > SC_INPUT_ANY)
        return SC_ERR_INVALID_ARGUMENT;
    sc_options o;
    if (opt)
        o = *opt;
    else
        sc_options_init(&o);
    o.d_n = NULL; /* nothing is read: the run-time counts play no part */
    o.d_k = NULL;
    o.d_kept = NULL;
    const size_t timings = ctx->num_timings; /* prepare clears them: the last call's stay */
    sc_job job;
    sc_impl_fn fn;
    size_t dummy;
    sc_status s = prepare(&job, ctx, SC_ALGO_AUTO, input, n, elem_size, &o, &dummy, &fn);
    ctx->num_timings = timings;
    if (s != SC_OK) return s;
    unsigned offer = input == SC_INPUT_FLAGS          ? SC_OFFER_FLAGS
                     : input == SC_INPUT_REMOVAL_LIST ? SC_OFFER_LIST
                                                      : SC_OFFER_FLAGS | SC_OFFER_LIST;
    if (n > (size_t)UINT32_MAX) offer &= ~SC_OFFER_LIST;
    if (!offer) return SC_ERR_INVALID_ARGUMENT;
    job.k_unknown = 1;
    return sc_auto_peek(&job, offer, out);
}

sc_status sc_context_reserve(sc_context *ctx, sc_algorithm algo, sc_input input, size_t n,
                             size_t elem_size, const sc_options *opt) {
    if (ctx && is_auto(algo)) {
        /* auto may take any algorithm the backend has for this input: reserve for each */
        for (int a = 0; a < SC_ALGO_COUNT; a++) {
            const sc_algorithm_info *info = sc_algorithm_get((sc_algorithm)a);
            if (is_auto(info->id) || !sc_algorithm_available(info->id, ctx->backend)) continue;
            if (input != SC_INPUT_ANY && info->input != input) continue;
            sc_status s = sc_context_reserve(ctx, info->id, info->input, n, elem_size, opt);
            if (s != SC_OK) return s;
        }
        return SC_OK;
    }
    sc_job job;
    sc_impl_fn fn;
    size_t dummy;
    sc_status s = prepare(&job, ctx, algo, input, n, elem_size, opt, &dummy, &fn);
    if (s != SC_OK) return s;
    if (input == SC_INPUT_REMOVAL_LIST && n > (size_t)UINT32_MAX) return SC_ERR_INVALID_ARGUMENT;
    if (ctx->backend == SC_BACKEND_CPU || n == 0) return SC_OK; /* the CPU grows as it goes */
    job.host_kept = 0;
    job.opt.timing = 0;
    job.opt.d_kept = NULL;
    job.k = input == SC_INPUT_REMOVAL_LIST ? n : 0; /* the largest list n allows */
    job.reserve = 1;
    s = fn(&job);
    return job.reserve_done || s == SC_OK ? SC_OK : s;
}
