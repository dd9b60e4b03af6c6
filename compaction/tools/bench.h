/* bench.h: `compact bench`: the sweep and its options (bench.c), the host inputs and the
 * result check (bench_input.c), the reports (bench_report.c), and the backends that time one
 * operation (bench_cpu.c; bench_gpu.cu, whose CUDA-only parts stay behind this C interface). */
#ifndef SC_BENCH_H
#define SC_BENCH_H

#include "compaction.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what one timed operation does ---- */
typedef enum bench_op {
    BENCH_OP_FLAGGED, /* sc_compact_flagged(algo): in + flags -> out */
    BENCH_OP_REMOVE,  /* sc_remove_indices(algo) in place on out, refilled from in untimed */
    BENCH_OP_THRUST,  /* thrust::remove_if in place on out (refilled untimed), flags as stencil */
    BENCH_OP_COPY,    /* copy n * elem_size bytes in -> out: the bandwidth limit */
    BENCH_OP_SCATTER  /* out[R[i]] = in[i] for the k listed indices: a removal list's limit */
} bench_op;

typedef struct bench_job {
    bench_op op;
    sc_algorithm algo; /* BENCH_OP_FLAGGED, BENCH_OP_REMOVE */
    sc_options opt;    /* tile and scan; the backend sets stream, d_kept and timing */
} bench_job;

/* 1 if the operation works in place and its buffer is refilled before each run. */
int bench_job_in_place(const bench_job *job);

/* ---- one input on the host; every set of a backend holds a copy ---- */
typedef struct bench_input {
    size_t n, elem_size;
    size_t k;                 /* removed elements: n - kept */
    unsigned char *data;      /* n * elem_size; element i starts with its index (elem >= 4) */
    uint8_t *flags;           /* n, 1 = keep */
    uint32_t *removed_random; /* the k removed indices in random order */
    uint32_t *removed_slot;   /* the same, ascending */
    unsigned char *out;       /* n * elem_size: where a result is copied back to be checked */
} bench_input;

/* Exactly round(removed * n) removed elements at random places (selection sampling), their
 * list in random and in slot order, and recognisable data. Returns 0, or -1 if out of memory. */
int bench_input_make(bench_input *in, size_t n, size_t elem_size, double removed, uint64_t seed);
void bench_input_free(bench_input *in);

/* Check a result in in->out against the serial reference: `count` elements, which must be
 * exactly the kept ones, in input order if `stable`, else as a multiset. Returns 1 if right;
 * otherwise 0 with the first difference described in `why`. */
int bench_input_check(const bench_input *in, size_t count, int stable, char *why, size_t cap);

/* ---- a backend: where the operations run and how they are timed ---- */
typedef struct bench_device {
    char name[256];
    char driver[64];    /* "580.159.04, CUDA 13.0"; "" where it does not apply */
    char runtime[32];   /* "" where it does not apply */
    size_t cache_bytes; /* the last-level cache the rotation of input sets must defeat */
} bench_device;

typedef struct bench_backend bench_backend;

typedef struct bench_ops {
    sc_backend backend;
    /* SC_ERR_NO_DEVICE or SC_ERR_UNSUPPORTED when the backend cannot run here. */
    sc_status (*open)(bench_backend **out, bench_device *dev);
    void (*close)(bench_backend *b);
    /* `sets` input sets (in, out, flags, list of k) for n elements; frees the previous ones. */
    sc_status (*alloc)(bench_backend *b, size_t n, size_t elem_size, size_t k, int sets);
    /* Data and flags into every set; then the removal list (one order) into every set. */
    sc_status (*load)(bench_backend *b, const bench_input *in);
    sc_status (*load_list)(bench_backend *b, const uint32_t *removed);
    /* warmup + runs runs, each on the next set; ms[0 .. runs) gets each timed run. */
    sc_status (*time)(bench_backend *b, const bench_job *job, int warmup, int runs, double *ms);
    /* One untimed run on set 0. `out` (may be NULL): the result buffer's n elements are copied
     * there; *kept: the count. With `timing`, phases[0 .. *num_phases) get the phase times. */
    sc_status (*run_once)(bench_backend *b, const bench_job *job, int timing, void *out,
                          size_t *kept, sc_phase_timing *phases, size_t *num_phases);
} bench_ops;

extern const bench_ops bench_cpu_ops;
#ifdef SC_HAVE_CUDA
extern const bench_ops bench_gpu_ops;
#endif

/* ---- the options of one run; every list is swept (cartesian product) ---- */
#define BENCH_MAX_LIST 32

typedef struct bench_opts {
    sc_backend backend;
    int algos[SC_ALGO_COUNT], num_algos;
    size_t n[BENCH_MAX_LIST], elem[BENCH_MAX_LIST], tile[BENCH_MAX_LIST];
    double removed[BENCH_MAX_LIST];
    sc_scan scan[BENCH_MAX_LIST];
    int order[BENCH_MAX_LIST]; /* 0: random, 1: slot */
    int num_n, num_elem, num_tile, num_removed, num_scan, num_order;
    int runs, warmup, quiet;
    size_t seed;
    const char *json, *csv;
} bench_opts;

#define BENCH_PHASE_PASSES  5 /* the phase breakdown is the median of these timed passes */
#define BENCH_EXIT_ERROR    1 /* no device, out of memory, a failed call, a file not written */
#define BENCH_EXIT_USAGE    2
#define BENCH_EXIT_MISMATCH 3 /* a result differed from the serial reference */

/* Run the sweep, print the table, write the files; returns the exit code. */
int bench_sweep(const bench_opts *o);

/* ---- results and reports ---- */
#define BENCH_GBPS_DEFINITION                                                                      \
    "GB/s = (n*elem_size read + n flag bytes read + kept*elem_size written) / median time, "       \
    "10^9 bytes; the same bytes for every row, baselines included, so GB/s ratios are time "       \
    "ratios"

typedef struct bench_record {
    char algorithm[32]; /* algorithm name, or a baseline: copy, thrust-remove-if, scatter-limit */
    int baseline;
    size_t n, elem_size, k, kept;
    double removed;
    size_t tile;       /* 0: the operation reads no tile */
    const char *scan;  /* NULL: reads no scan */
    const char *order; /* NULL: reads no removal list */
    int runs, sets;
    double median_ms, min_ms, max_ms, gbps;
    double x_cub;      /* CUB's median / this median (> 1: faster than CUB); < 0: no CUB */
    double pct_copy;   /* copy's median / this median, in percent; < 0: no copy */
    const char *check; /* "ok", "MISMATCH", or "-" (not checked) */
    sc_phase_timing phases[SC_MAX_PHASES];
    size_t num_phases;
} bench_record;

typedef struct bench_report {
    const char *backend;
    bench_device device;
    const char *commit;
    bench_record *records;
    size_t count, cap;
} bench_report;

/* Append a record (copied); returns it, or NULL if out of memory. */
bench_record *bench_report_add(bench_report *r, const bench_record *rec);
void bench_report_free(bench_report *r);
/* Fill x_cub and pct_copy from the cub and copy rows of the same n, elem_size and removed. */
void bench_report_ratios(bench_report *r);
void bench_report_table(const bench_report *r, FILE *f);
/* Write to path + ".tmp", then rename over path. Returns 0, or -1 with errno set. */
int bench_report_json(const bench_report *r, const char *path);
int bench_report_csv(const bench_report *r, const char *path);

/* Median, min and max of ms[0 .. count) (sorts ms). */
void bench_stats(double *ms, int count, double *median, double *min, double *max);

#ifdef __cplusplus
}
#endif
#endif /* SC_BENCH_H */
