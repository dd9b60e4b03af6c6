/* compaction.h: stream compaction on the CPU and on CUDA GPUs, one algorithm per paper.
 *
 * Usage (flag stencil, out of place):
 *
 *     sc_context *ctx;
 *     if (sc_context_create(SC_BACKEND_CPU, &ctx) != SC_OK) ...;
 *     sc_options opt;
 *     sc_options_init(&opt);
 *     opt.tile = 256;                              // block-based algorithms only
 *     size_t kept;
 *     sc_status s = sc_compact_flagged(ctx, SC_ALGO_HORN, in, flags, out, n, sizeof(float4_t),
 *                                      &opt, &kept);
 *     if (s != SC_OK) fprintf(stderr, "%s\n", sc_status_string(s));
 *     sc_context_destroy(ctx);
 *
 * Usage (removal list, in place; Redzone):
 *
 *     uint32_t dead[] = {3, 17, 5};                // distinct, each < n
 *     sc_remove_indices(ctx, SC_ALGO_REDZONE, data, n, 4, dead, 3, NULL, &kept);
 *     // data[0 .. n-3) now holds exactly the survivors, in some order
 *
 * Usage (CUDA, count on the device, captured in a graph; see "CUDA graphs" below):
 *
 *     opt.stream = stream; opt.d_n = d_live; opt.d_kept = d_next_live;  // device words
 *     sc_context_reserve(ctx, SC_ALGO_SINGLE_PASS, SC_INPUT_FLAGS, n_max, 16, &opt);
 *     cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
 *     sc_compact_flagged(ctx, SC_ALGO_SINGLE_PASS, in, flags, out, n_max, 16, &opt, NULL);
 *     cudaStreamEndCapture(stream, &graph);   // replay: *d_live may change between replays
 *
 * Conventions: "valid" = kept (flag != 0), "invalid" = removed. Stable algorithms keep
 * input order. Pointers are host pointers for SC_BACKEND_CPU and device pointers for
 * SC_BACKEND_CUDA. The library never prints and never exits; every call returns sc_status.
 */
#ifndef SC_COMPACTION_H
#define SC_COMPACTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SC_VERSION_MAJOR 0
#define SC_VERSION_MINOR 2
#define SC_VERSION_PATCH 0

typedef enum sc_status {
    SC_OK = 0,
    SC_ERR_INVALID_ARGUMENT,  /* bad size, NULL, overlap, bad tile, bad removal list */
    SC_ERR_UNSUPPORTED,       /* algorithm not available on this backend / build */
    SC_ERR_OUT_OF_MEMORY,     /* host or device allocation failed */
    SC_ERR_NO_DEVICE,         /* CUDA backend asked for, but no usable device */
    SC_ERR_CUDA,              /* a CUDA call or kernel launch failed */
    SC_ERR_UNKNOWN_ALGORITHM, /* enum value out of range, or name not found */
    SC_ERR_POLICY,            /* auto: the policy table is unreadable or malformed (see
                                 sc_policy_error for the line that says why) */
    SC_ERR_UNSUPPORTED_DEVICE /* CUDA: this build holds no kernel image the device can run */
} sc_status;

/* A short, static, human-readable description of a status. Never NULL. */
const char *sc_status_string(sc_status status);

typedef enum sc_backend { SC_BACKEND_CPU = 0, SC_BACKEND_CUDA = 1, SC_BACKEND_COUNT } sc_backend;

/* "cpu" or "cuda"; NULL for an out-of-range value. */
const char *sc_backend_name(sc_backend backend);

/* Algorithms, listed roughly from the simplest to the most specialised. */
typedef enum sc_algorithm {
    SC_ALGO_SERIAL = 0,    /* one pass, one thread: the reference. Stable. */
    SC_ALGO_SCAN_SCATTER,  /* exclusive scan of flags, then scatter. Stable. */
    SC_ALGO_HORN,          /* gather-search: pSum of invalid, binary search per output. Stable. */
    SC_ALGO_JUMPING_JACK,  /* MAS[i] = s - pSum[i] jumps fill holes from the tail. Unstable. */
    SC_ALGO_RLZ,           /* run-lengths of zeros, pRLSum forward search. Stable. */
    SC_ALGO_BINARY_TREE,   /* tree of valid counts, top-down traversal. Stable. */
    SC_ALGO_SPATARO,       /* block count, scan, ballot/popc move (3 phases). Stable. */
    SC_ALGO_BILLETER,      /* warp sequences: count, prefix, move. Stable. */
    SC_ALGO_ATOMIC,        /* aggregated atomic append (per block on CUDA). Unstable. */
    SC_ALGO_REDZONE,       /* Redzone Alg. 2: removal list, many blocks, in place. Unstable. */
    SC_ALGO_REDZONE_BLOCK, /* Redzone Alg. 1: removal list, one block, in place. Unstable. */
    SC_ALGO_CUB,           /* cub::DeviceSelect::Flagged (CUDA only). Stable. */
    SC_ALGO_SINGLE_PASS,   /* one kernel, decoupled look-back (CUDA only). Stable. */
    SC_ALGO_AUTO,          /* per call, the policy table's choice of the above (see below).
                              Stable when opt.require_stable asks for it. */
    SC_ALGO_COUNT
} sc_algorithm;

typedef enum sc_input {
    SC_INPUT_FLAGS = 0,    /* one byte per element, nonzero = keep; out of place */
    SC_INPUT_REMOVAL_LIST, /* k distinct indices < n to remove; in place */
    SC_INPUT_ANY           /* auto: either, or both through sc_compact_any */
} sc_input;

/* Prefix-sum variant for algorithms built on a scan (both Moreira 2009 papers). */
typedef enum sc_scan {
    SC_SCAN_DEFAULT = 0,   /* the algorithm's own choice (Hillis-Steele below tile 128) */
    SC_SCAN_HILLIS_STEELE, /* recursive doubling: log2(s) steps, O(s log s) work */
    SC_SCAN_BLELLOCH       /* balanced tree: up-sweep + down-sweep, O(s) work */
} sc_scan;

/* Run-length computation for RLZ (Moreira 2009 §3.3). */
typedef enum sc_rlz_variant {
    SC_RLZ_DEFAULT = 0,        /* recursive doubling */
    SC_RLZ_RECURSIVE_DOUBLING, /* Alg. 2 */
    SC_RLZ_BALANCED_TREE       /* Alg. 3 (up-sweep) and Alg. 4 (down-sweep) */
} sc_rlz_variant;

/* Tunables an algorithm reads (bit mask in sc_algorithm_info.tunables). */
#define SC_TUNE_TILE 0x1u /* sc_options.tile */
#define SC_TUNE_SCAN 0x2u /* sc_options.scan */
#define SC_TUNE_RLZ  0x4u /* sc_options.rlz */

#define SC_TILE_MIN     32u
#define SC_TILE_MAX     2048u
#define SC_TILE_DEFAULT 256u
#define SC_ELEM_MAX     256u
#define SC_BAD_LIST     0xffffffffu /* *d_kept after a failed device-side removal-list check */

typedef struct sc_algorithm_info {
    sc_algorithm id;
    const char *name;    /* "jumping-jack": the name the CLI and sc_algorithm_find take */
    const char *title;   /* "Jumping Jack" */
    const char *paper;   /* "Moreira et al. 2009, JJ paper Alg. 2" */
    const char *summary; /* one line: the idea and its cost */
    int stable;          /* 1 if output keeps input order */
    int in_place;        /* 1 if it works in place (removal lists) */
    sc_input input;      /* flag stencil or removal list */
    unsigned backends;   /* bit (1u << sc_backend) per backend that implements it */
    unsigned tunables;   /* SC_TUNE_* bits */
    const char *phases;  /* the phase names its timings report, comma-separated */
} sc_algorithm_info;

/* Info for one algorithm, or NULL if out of range. */
const sc_algorithm_info *sc_algorithm_get(sc_algorithm algo);
/* Look-up by name ("rlz", "redzone-block", ...); NULL if unknown. */
const sc_algorithm_info *sc_algorithm_find(const char *name);
/* 1 if `backend` implements `algo` in this build (CUDA only when compiled in). */
int sc_algorithm_available(sc_algorithm algo, sc_backend backend);

/* Receives one line of an algorithm's trace (CPU backend only), without the newline. */
typedef void (*sc_trace_fn)(void *user, const char *line);

typedef struct sc_options {
    size_t tile;        /* tile ("block") size for block-based algorithms: power of two in
                           [SC_TILE_MIN, SC_TILE_MAX]; 0 = SC_TILE_DEFAULT */
    sc_scan scan;       /* scan variant, where the algorithm offers both */
    sc_rlz_variant rlz; /* RLZ run-length variant */
    int timing;         /* 1: record per-phase timings (CUDA: events; costs a sync per call) */
    void *stream;       /* CUDA: a cudaStream_t; NULL = the legacy default stream */
    uint32_t *d_kept;   /* CUDA: if set, the kept count is written here on the device and the
                           call does not synchronise with the host; `kept` may then be NULL.
                           Not the word of d_n or d_k (SC_ERR_INVALID_ARGUMENT): the call's
                           kernels read those while it runs */
    int trusted_list;   /* CUDA removal lists: 1 = distinct and < n by construction, skip the
                           device check (saves an n-bit map and its atomics) */
    sc_trace_fn trace;  /* CPU: receives the algorithm's intermediate arrays, pass by pass */
    void *trace_user;
    const uint32_t *d_n; /* if set: the element count, read at run time (CUDA: device pointer; CPU:
                            host pointer read when the call runs). `n` is then the upper bound: it
                            sizes grids and temporary storage; *d_n must be <= n (larger values are
                            clamped to n). Kernels run over the bound and blocks past *d_n return
                            at once, so a call on a nearly empty stream costs its launches (CUB
                            has no device-side length: it runs over the bound). CUDA: memory the
                            device can read (else SC_ERR_INVALID_ARGUMENT), read by the kernels
                            when they run, so it may be written by earlier work on the stream. */
    const uint32_t *d_k; /* removal lists: the same for the number of listed indices; `k` is the
                            bound (*d_k is also clamped to the run-time n). The listed indices
                            must be < *d_n. */
    /* auto (SC_ALGO_AUTO) */
    size_t removed_hint; /* how many elements this call removes, when the caller knows it
                            (exact or close); SC_UNKNOWN_COUNT (sc_options_init) = not known */
    int require_stable;  /* 1: keep input order: auto chooses among stable algorithms only, and
                            a fixed unstable algorithm is refused (SC_ERR_UNSUPPORTED) */
    const char *policy;  /* path of a policy table (JSON); NULL: $SC_POLICY, else built-in */
    size_t n_hint;       /* CUDA with opt.d_n: the element count the call is expected to see at
                            run time (say the same call's in the previous frame); auto chooses
                            for it (at most n) instead of the bound n, and removed_hint then
                            counts against it; below the bound auto skips CUB, which runs over
                            the bound. SC_UNKNOWN_COUNT (sc_options_init): the bound.
                            sc_auto_preview takes it too. Ignored otherwise (without d_n the
                            count is n) and on the CPU (the count is known there). */
} sc_options;

#define SC_UNKNOWN_COUNT SIZE_MAX

/* Fill `opt` with defaults (tile 256, default scan/RLZ, no timing, default stream, no hint). */
void sc_options_init(sc_options *opt);

typedef struct sc_context sc_context;

/* Create a context. CUDA: SC_ERR_UNSUPPORTED if built without CUDA, SC_ERR_NO_DEVICE if no
 * device is usable, SC_ERR_UNSUPPORTED_DEVICE if a probe kernel cannot run on the device (the
 * build holds no image for its architecture; sc_last_error_detail(NULL) says which). The context
 * owns temporary storage that grows on demand and is reused.
 * Threads: create, use and destroy contexts from any number of threads at once, one context per
 * thread (and per CUDA stream you overlap). A context must not be used by two threads at the same
 * time (its storage, counters and error detail are its own); hand one over between threads only
 * with the caller's own synchronisation. The algorithm table and sc_status_string are read-only
 * and safe everywhere; sc_last_error_detail(NULL) is per thread. */
sc_status sc_context_create(sc_backend backend, sc_context **out);
/* Free a context and its storage. Accepts NULL. */
void sc_context_destroy(sc_context *ctx);
sc_backend sc_context_backend(const sc_context *ctx);
/* The last CUDA error, one line: the error's name and where it came from (the launch site
 * of the kernel: function, file and line; or the call; for the probe, the device's
 * architecture against the build's). With `ctx`: of the last call on ctx that failed on one;
 * with NULL: of the calling thread's last sc_context_create or compaction call ("" if that met
 * none), e.g. after sc_context_create failed. Never NULL. */
const char *sc_last_error_detail(const sc_context *ctx);
/* Bytes of temporary storage the context holds now (grows, never shrinks). */
size_t sc_context_temp_bytes(const sc_context *ctx);
/* Grow the context's storage up front for calls of `algo` (whose input must be `input`) on up
 * to `n` elements of `elem_size` bytes (removal lists: up to n listed indices) with these
 * options, without running anything, so that later calls within that bound allocate nothing
 * (CUB: assumes 16-byte aligned element pointers, as cudaMalloc gives). auto reserves for every
 * algorithm of the backend it could choose for `input` (SC_INPUT_ANY: both). CPU: validates only.
 */
sc_status sc_context_reserve(sc_context *ctx, sc_algorithm algo, sc_input input, size_t n,
                             size_t elem_size, const sc_options *opt);

/* CUDA graphs. A CUDA call can be captured (cudaStreamBeginCapture on opt.stream) when
 *   - the count stays on the device: opt.d_kept set, `kept` NULL (a host count synchronises);
 *   - opt.timing is 0 (timing records events and synchronises);
 *   - the context's storage covers the call: an earlier call (or sc_context_reserve) with the
 *     same algorithm, element size and options (tile) and an n (and k) at least as large;
 *     storage only grows, so reserving for each configuration a program uses covers them all.
 * Such a call makes no host synchronisation and no allocation, and its kernels' arguments do
 * not change from call to call, so a graph replays it correctly any number of times; with
 * opt.d_n / opt.d_k the sizes may change between replays. Every algorithm qualifies. The graph
 * holds the addresses of the context's storage: a later call that grows the storage (a larger
 * bound) frees it, and graphs captured before must not be replayed after that. One context per
 * stream still applies: graphs of one context must not run concurrently. */

/* Largest n a backend accepts. CPU: SIZE_MAX / SC_ELEM_MAX. CUDA: 2^32 - 1 (32-bit element
 * indices on the device). Removal lists (uint32_t indices): 2^32 - 1 on both. */
size_t sc_max_elements(sc_backend backend);

/* Flagged compaction, out of place: copy every element i of `in` with flags[i] != 0 to `out`,
 * packed; *kept = their number. `elem_size` 1..256 bytes (4, 8 and 16 are fast paths).
 * `out` must hold n elements and must not overlap `in`. On any error nothing is written.
 * `opt` may be NULL (defaults). Algorithms whose input is a removal list: SC_ERR_UNSUPPORTED. */
sc_status sc_compact_flagged(sc_context *ctx, sc_algorithm algo, const void *in,
                             const uint8_t *flags, void *out, size_t n, size_t elem_size,
                             const sc_options *opt, size_t *kept);

/* Removal by index list, in place: remove the k elements whose indices are listed in
 * `removed` (distinct, each < n) from `data`; afterwards data[0 .. n-k) holds exactly the
 * survivors (order depends on the algorithm). *kept = n - k.
 * Duplicated or out-of-range indices: SC_ERR_INVALID_ARGUMENT and `data` untouched (CUDA: the
 * list is checked on the device before anything is written; with only opt.d_kept and no host
 * `kept`, the error cannot be returned, and *d_kept reads SC_BAD_LIST instead).
 * CUDA: opt.trusted_list = 1 skips the device check, for lists the program builds itself,
 * distinct and in range by construction; a bad trusted list then gives undefined results.
 * The CPU backend always checks.
 * Redzone on generic elements has no spare bit to mark deleted slots: the red zone
 * [n-k, n) is marked in a bit map of k bits held by the context (k/8 bytes, cleared per call,
 * one extra pass over the list), see compaction/src/cpu/redzone.c.
 * Algorithms whose input is a flag stencil: SC_ERR_UNSUPPORTED. */
sc_status sc_remove_indices(sc_context *ctx, sc_algorithm algo, void *data, size_t n,
                            size_t elem_size, const uint32_t *removed, size_t k,
                            const sc_options *opt, size_t *kept);

/* ---- k-way partition (a stable split by a small key: flagged compaction generalised) ----
 * out[0 ..) receives every element whose key is 0, then every element whose key is 1, ...,
 * each group in input order; counts[j] = the size of group j (num_keys entries). Flagged
 * compaction is the case num_keys = 2, key = (flag == 0). keys[i] < num_keys <= 16; `out` must
 * hold n elements and must not overlap `in`. opt.d_n (a run-time length) is honoured on CUDA.
 * CPU: keys out of range are SC_ERR_INVALID_ARGUMENT with nothing written.
 * CUDA: keys are checked on the device while they are counted; a bad key gives
 * SC_ERR_INVALID_ARGUMENT when `counts` is given (out is then unspecified); with `counts` NULL
 * and opt.d_kept set, d_kept[0 .. num_keys) receive the counts on the device (no host sync;
 * d_kept[0] reads SC_BAD_LIST after a bad key).
 * Algorithms: serial and scan-scatter (CPU: the specification: a histogram, then one exclusive
 * scan per key), single-pass (CUDA: a key histogram, then one pass of tiles whose per-key
 * offsets come from a decoupled look-back) and cub (CUDA: cub::DeviceRadixSort on the keys,
 * the vendor baseline). Others: SC_ERR_UNSUPPORTED. */
#define SC_PARTITION_MAX_KEYS 16u
sc_status sc_partition(sc_context *ctx, sc_algorithm algo, const void *in, const uint8_t *keys,
                       void *out, size_t n, size_t elem_size, unsigned num_keys,
                       const sc_options *opt, size_t *counts);
/* 1 if `backend` implements sc_partition with `algo` in this build. */
int sc_partition_available(sc_algorithm algo, sc_backend backend);
/* Flag stencil and/or removal list: `flags` (n bytes, may be NULL) and `removed` (k indices,
 * may be NULL) must describe the same removals. A flag algorithm compacts `data` into `out`
 * (out of place; `data` is read only); a removal-list algorithm compacts `data` in place
 * (`out` is untouched). *result = the buffer that holds the survivors (`out` or `data`).
 * Meant for SC_ALGO_AUTO, which can then choose Redzone's O(k) moves where few elements go
 * and a flag algorithm elsewhere; any algorithm whose input is given works. CPU: every listed
 * index must have a zero flag, else SC_ERR_INVALID_ARGUMENT. */
sc_status sc_compact_any(sc_context *ctx, sc_algorithm algo, void *data, const uint8_t *flags,
                         void *out, size_t n, size_t elem_size, const uint32_t *removed, size_t k,
                         const sc_options *opt, size_t *kept, void **result);

/* ---- auto: one policy table per GPU ----
 * Per call auto takes the removed fraction: exact from a removal list (CUDA: not with opt.d_k,
 * where k is only a bound; give opt.removed_hint against the bound n), else opt.removed_hint,
 * else that of the latest call on this context whose count reached the host (a call that
 * leaves its count on the device, opt.d_kept, does not change it), else on the CPU
 * backend an estimate from a sample of the flags, else the table's "unknown_removed" (CUDA
 * never reads device data back inside a call). The first rule of the table whose conditions
 * (n, elem_size, removed fraction, list available, stability required) hold and whose
 * algorithm can run the call decides algorithm, tile and scan. Tables are JSON (format in
 * compaction/src/policy.c and `compact bench --tune`); built in: "cpu", "sm_90" (H100) and
 * "cuda" (other GPUs). */
typedef enum sc_density_source {
    SC_DENSITY_EXACT = 0, /* removal list: k / n */
    SC_DENSITY_HINT,      /* opt.removed_hint */
    SC_DENSITY_PREVIOUS,  /* the latest call on this context whose count reached the host */
    SC_DENSITY_SAMPLED,   /* a sample of the flags (CPU backend) */
    SC_DENSITY_DEFAULT    /* the policy's "unknown_removed" */
} sc_density_source;

typedef struct sc_choice {
    sc_algorithm algo; /* what ran (a fixed algorithm reports itself) */
    size_t tile;       /* resolved tile and scan it ran with */
    sc_scan scan;
    int automatic;  /* 1 if auto chose it */
    int rule;       /* the policy rule that decided (0-based); -1: none matched, the
                       built-in fallback order decided; -2: not auto */
    double removed; /* the removed fraction the choice assumed */
    size_t n;       /* the element count it assumed (opt.n_hint, else n) */
    double gain;    /* a removal-list choice: how many times faster the table measured it than
                       the flag algorithm it takes there when no list is offered ("gain"; 0: not
                       given). A caller that pays to write the list can offer flags only where
                       the gain does not cover that cost */
    sc_density_source source; /* where that fraction came from */
    const char *policy;       /* the table's "name" (owned by the context), NULL if not auto */
} sc_choice;

/* The choice of the last successful call on this context. SC_ERR_INVALID_ARGUMENT if there
 * was none (or `ctx`/`out` is NULL). */
sc_status sc_last_choice(const sc_context *ctx, sc_choice *out);
/* What auto would choose for a call on n elements of elem_size bytes offered `input` (flags, a
 * list, or SC_INPUT_ANY: both) with these options, without running anything or reading any
 * data: the density is opt->removed_hint, else the previous call's, else the table's default
 * (never a list's length or a sample). For callers that must know a choice ahead, e.g. to
 * capture a CUDA graph again when it would change. Does not change sc_last_choice. */
sc_status sc_auto_preview(sc_context *ctx, size_t n, size_t elem_size, sc_input input,
                          const sc_options *opt, sc_choice *out);
/* After SC_ERR_POLICY: one line that names the table and what is wrong; "" otherwise. */
const char *sc_policy_error(const sc_context *ctx);
/* Validate a policy table held in memory (`len` bytes, need not end in NUL) for `backend`:
 * SC_OK, or SC_ERR_POLICY with the reason in msg (cap bytes). For tools, tests and fuzzing. */
sc_status sc_policy_check(const char *json, size_t len, sc_backend backend, char *msg, size_t cap);
/* auto's decision for calls described by `q` under a policy table (as sc_policy_check reads
 * it), without a context, a device or any data: per query, the first rule whose conditions hold
 * and whose algorithm runs on `backend` with the inputs offered (stable if asked), else the
 * fallback order. A list is not offered above 2^32 - 1 elements. For tools that draw or check a
 * table (`compact policy choose`). SC_OK, or SC_ERR_POLICY with the reason in msg. */
typedef struct sc_policy_query {
    size_t n, elem_size;
    double removed; /* the removed fraction auto works from */
    sc_input input; /* offered: SC_INPUT_FLAGS, SC_INPUT_REMOVAL_LIST or SC_INPUT_ANY */
    int require_stable;
    sc_algorithm algo; /* out: the choice; SC_ALGO_COUNT: none (a call: SC_ERR_UNSUPPORTED) */
    int rule;          /* out: the rule that decided (0-based); -1: the fallback order */
} sc_policy_query;
sc_status sc_policy_decide(const char *json, size_t len, sc_backend backend, sc_policy_query *q,
                           size_t count, char *msg, size_t cap);
/* The JSON text of a built-in table ("cpu", "sm_90", "cuda"); NULL if there is none. */
const char *sc_policy_builtin(const char *name);

/* Per-phase timings of the last successful call on this context. */
#define SC_MAX_PHASES 8
typedef struct sc_phase_timing {
    const char *name; /* static string, e.g. "prefix sum" */
    double ms;
} sc_phase_timing;

/* Copies up to `cap` timings of the last call into `out`; returns how many the last call
 * recorded (0 if timing was off or the last call failed). */
size_t sc_last_timings(const sc_context *ctx, sc_phase_timing *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* SC_COMPACTION_H */
