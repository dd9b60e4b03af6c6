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
    SC_ALGO_ATOMIC,        /* warp-aggregated atomic append. Unstable. */
    SC_ALGO_REDZONE,       /* Redzone Alg. 2: removal list, many blocks, in place. Unstable. */
    SC_ALGO_REDZONE_BLOCK, /* Redzone Alg. 1: removal list, one block, in place. Unstable. */
    SC_ALGO_CUB,           /* cub::DeviceSelect::Flagged (CUDA only). Stable. */
    SC_ALGO_SINGLE_PASS,   /* one kernel, decoupled look-back (CUDA only). Stable. */
    SC_ALGO_COUNT
} sc_algorithm;

typedef enum sc_input {
    SC_INPUT_FLAGS = 0,   /* one byte per element, nonzero = keep; out of place */
    SC_INPUT_REMOVAL_LIST /* k distinct indices < n to remove; in place */
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
                           call does not synchronise with the host; `kept` may then be NULL */
    int trusted_list;   /* CUDA removal lists: 1 = distinct and < n by construction, skip the
                           device check (saves an n-bit map and its atomics) */
    sc_trace_fn trace;  /* CPU: receives the algorithm's intermediate arrays, pass by pass */
    void *trace_user;
} sc_options;

/* Fill `opt` with defaults (tile 256, default scan/RLZ, no timing, default stream). */
void sc_options_init(sc_options *opt);

typedef struct sc_context sc_context;

/* Create a context. CUDA: SC_ERR_UNSUPPORTED if built without CUDA, SC_ERR_NO_DEVICE if no
 * device is usable, SC_ERR_UNSUPPORTED_DEVICE if a probe kernel cannot run on the device (the
 * build holds no image for its architecture; sc_last_error_detail(NULL) says which). The context
 * owns temporary storage that grows on demand and is reused; it is not thread-safe: use one context
 * per thread (and per CUDA stream you overlap). */
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
