/* bench.h: `compact bench` and `compact tune`: options (bench.c), sweep (bench_sweep.c), inputs
 * (bench_pattern.c, bench_input.c), reports (bench_report.c), --report (bench_suite.c), the tune
 * (bench_tune.c) and the backends that time one operation (bench_cpu.c, bench_gpu.cu). */
#ifndef SC_BENCH_H
#define SC_BENCH_H

#include "bench_pattern.h"
#include "rc_error.h"
#include "raycompact/compaction.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- helpers `compact explain` shares ---- */
/* Print "compact: unknown algorithm 'x' (valid: a, b, ...)" to stderr. */
void cli_unknown_algorithm(const char *name);
/* "hillis-steele" (or "hs") | "blelloch" | "default"; 0 on success. */
int cli_parse_scan(const char *s, sc_scan *out);

/* ---- what one timed operation does ---- */
typedef enum bench_op {
    BENCH_OP_FLAGGED, /* sc_compact_flagged(algo): in + flags -> out */
    BENCH_OP_REMOVE,  /* sc_remove_indices(algo) in place on out, refilled from in untimed */
    BENCH_OP_THRUST,  /* thrust::remove_if in place on out (refilled untimed), flags as stencil */
    BENCH_OP_COPY,    /* copy n * elem_size bytes in -> out: the bandwidth limit */
    BENCH_OP_SCATTER, /* out[R[i]] = in[i] for the k listed indices: a removal list's limit */
    /* Redzone §5.1's competitors: "mark" (stencil[R[i]] = 0), then thrust::remove_if */
    BENCH_OP_THRUST_LIST,
    /* "auto-list": sc_compact_any(auto) offered flags and list: in place, or into a spare */
    BENCH_OP_AUTO_LIST,
    /* sc_partition(algo) into num_keys keys: in + keys (held in the flags buffer) -> out */
    BENCH_OP_PARTITION
} bench_op;

typedef struct bench_job {
    bench_op op;
    sc_algorithm algo; /* BENCH_OP_FLAGGED, BENCH_OP_REMOVE */
    sc_options opt;    /* tile and scan; the backend sets stream, d_kept and timing */
    unsigned num_keys; /* BENCH_OP_PARTITION */
} bench_job;

/* 1 if the operation works in place and its buffer is refilled before each run. */
int bench_job_in_place(const bench_job *job);

/* Exactly round(removed * n) removed elements placed by the pattern (a mask: as many as it
 * says), their list in random and in slot order, and recognisable data. Returns 0; -1 if out of
 * memory; -2 if a mask cannot be read (`why` says why). */
int bench_input_make(bench_input *in, size_t n, size_t elem_size, double removed,
                     const bench_pattern *pattern, uint64_t seed, char *why, size_t cap);
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

/* What every backend's state starts with: its context and `num_sets` copies of (in, out, flags,
 * list of k), set s at s * stride in each buffer; `next`: the set the next timed run takes. */
typedef struct bench_sets {
    sc_context *ctx;
    size_t n, es, k;
    int num_sets, next;
    size_t in_stride, flags_stride, list_stride;
} bench_sets;
void bench_sets_init(bench_sets *s, size_t n, size_t es, size_t k, int num_sets);

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
    /* The steps bench_time runs: begin (spare buffers, stamps, --graph's capture, --settle-ms);
     * refill an in-place buffer, then with `flush` flush the cache; stamp the start or end of
     * run `slot`; run once on `set` (*in_place: the result is in its buffer); end: ms[0 .. runs)
     * from the stamps, or the first failure `st`. */
    sc_status (*begin)(bench_backend *b, const bench_job *job, int runs);
    sc_status (*refill)(bench_backend *b, const bench_job *job, int set, int flush);
    sc_status (*stamp)(bench_backend *b, int slot, int stop);
    sc_status (*run)(bench_backend *b, const bench_job *job, int set, int *in_place);
    sc_status (*end)(bench_backend *b, sc_status st, int runs, double *ms);
    /* One untimed run on set 0: the result copied to `out` (NULL: not), the count (per key for a
     * partition) in kept, with `timing` the phases' times. */
    sc_status (*run_once)(bench_backend *b, const bench_job *job, int timing, void *out,
                          size_t *kept, sc_phase_timing *phases, size_t *num_phases);
} bench_ops;

/* What the backend's last library call ran (sc_last_choice): auto's choice. */
sc_status bench_last_choice(const bench_backend *b, sc_choice *out);
/* After SC_ERR_POLICY: the line that names auto's table and what is wrong (sc_policy_error). */
const char *bench_policy_error(const bench_backend *b);
/* After a run_once with timing: the library call's phases (none for a baseline). */
void bench_phases(const bench_backend *b, const bench_job *job, sc_phase_timing *phases,
                  size_t *num_phases);

/* The timing loop (bench_time.c): warmup + runs runs of `job` on the sets in turn. */
sc_status bench_time(const bench_ops *ops, bench_backend *b, const bench_job *job, int warmup,
                     int runs, double *ms);

extern const bench_ops bench_cpu_ops;
#ifdef SC_HAVE_CUDA
extern const bench_ops bench_gpu_ops;
#endif
/* The backend's operations; NULL when this build has none for it. */
const bench_ops *bench_ops_for(sc_backend backend);
/* The backend's operations with its state opened, or NULL after one line on stderr: this build
 * has no CUDA backend, no usable CUDA device, or the status that refused it (each of them exit
 * status BENCH_EXIT_ERROR). Says so, on success, when the CPU runs in the CUDA backend's place
 * (bench_cpu_fallback). */
const bench_ops *bench_backend_open(sc_backend backend, bench_backend **b, bench_device *dev);

/* ---- the options of one run; every list is swept (cartesian product) ---- */
#define BENCH_MAX_LIST     64
#define BENCH_MAX_PATTERNS 16

typedef struct bench_opts {
    sc_backend backend;
    int algos[SC_ALGO_COUNT], num_algos;
    size_t n[BENCH_MAX_LIST], elem[BENCH_MAX_LIST], tile[BENCH_MAX_LIST];
    double removed[BENCH_MAX_LIST];
    sc_scan scan[BENCH_MAX_LIST];
    int order[BENCH_MAX_LIST]; /* 0: random, 1: slot */
    bench_pattern pattern[BENCH_MAX_PATTERNS];
    int num_n, num_elem, num_tile, num_removed, num_scan, num_order, num_pattern;
    int runs, warmup, quiet, quick;
    double budget_ms; /* > 0: fewer runs (at least 3) where runs would take longer than this */
    size_t seed;
    const char *json, *csv;
    const char *report;    /* --report DIR: the fixed set of sweeps (bench_suite.c) */
    double max_seconds;    /* > 0: start no measurement after this long; write what was measured */
    int tune;              /* --tune: measure the grid and write auto's policy table */
    const char *tune_out;  /* --out FILE for the table (NULL: stdout) */
    const char *tune_from; /* --from FILE: the measurements of an earlier --tune --json */
    unsigned partition;    /* --partition K: the K-way partition bench (bench_partition.c) */
} bench_opts;

#define BENCH_PHASE_PASSES  5 /* the phase breakdown is the median of these timed passes */
#define BENCH_EXIT_ERROR    1 /* no device, out of memory, a failed call, a file not written */
#define BENCH_EXIT_USAGE    2
#define BENCH_EXIT_MISMATCH 3 /* a result differed from the serial reference */

/* Parse `compact bench` (argv[0] "bench") or `compact tune` ("tune": o->tune) arguments and check
 * the output files; 0 to run, 1 after --help, -1 on a usage error (printed). */
int bench_parse_args(bench_opts *o, int argc, char **argv);
/* The same for the arguments after "bench" (argv[0] the first option). */
int bench_partition_check_args(int argc, char **argv);

/* Run the sweep, print the table, write the files; returns the exit code. */
int bench_sweep(const bench_opts *o);

/* --report DIR: the fixed sweeps, their files and plots in DIR; the exit code. */
int bench_suite(const bench_opts *o);

/* compact tune: measure the grid and write the table (bench_tune.c); the exit code. */
int bench_tune(bench_opts *o);
/* tune --from: the measurements in `json` (file `name`) as a malloc'ed table (NULL: none can be
 * made), o's grid and backend set from them; -1 (after one line) if not a tune --json file. */
int bench_tune_derive(bench_opts *o, const char *name, const char *json, size_t json_len,
                      char **table, size_t *table_len);
/* ---- results and reports ---- */
#define BENCH_GBPS_DEFINITION                                                                      \
    "GB/s = (n*elem_size read + n flag bytes read + kept*elem_size written) / median time, "       \
    "10^9 bytes; the same bytes for every row, baselines included, so GB/s ratios are time "       \
    "ratios"

typedef struct bench_record {
    char algorithm[32]; /* algorithm name, or a baseline: copy, thrust-remove-if, scatter-limit */
    char pattern[48];   /* bench_pattern.name */
    const char *sweep;  /* --report: the sweep's tag ("density"); NULL otherwise */
    int baseline;
    size_t n, elem_size, k, kept;
    double removed, red_share;
    size_t tile;       /* 0: the operation reads no tile */
    const char *scan;  /* NULL: reads no scan */
    const char *order; /* NULL: reads no removal list */
    int runs, sets;
    double median_ms, min_ms, max_ms, gbps;
    double x_cub;      /* CUB's median / this median (> 1: faster than CUB); < 0: no CUB */
    double pct_copy;   /* copy's median / this median, in percent; < 0: no copy */
    double pct_floor;  /* the traffic model's floor at the copy's bandwidth / this median, in
                          percent (100: at the floor); < 0: no model or no copy */
    const char *check; /* "ok", "MISMATCH", or "-" (not checked) */
    char choice[48];   /* auto: what it chose in the checked run ("horn t256 blelloch"); "" */
    sc_phase_timing phases[SC_MAX_PHASES];
    size_t num_phases;
} bench_record;

typedef struct bench_report_sweep {
    const char *tag, *purpose;
    char command[1536]; /* the `compact bench` line that runs it alone */
} bench_report_sweep;

typedef struct bench_report {
    const char *backend;
    bench_device device;
    const char *commit;
    char date[32]; /* UTC, ISO 8601, when the run started */
    double elapsed_s;
    int quick, complete; /* complete: 0 if it stopped early (an error, --max-seconds) */
    int graph, warm;     /* --graph, --warm: how the times were taken */
    const bench_report_sweep *sweeps; /* --report only */
    size_t num_sweeps;
    bench_record *records;
    size_t count, cap;
} bench_report;

/* The traffic model (bench_model.c): the least bytes the passes move; -1 without a model. */
double bench_model_bytes(const char *algorithm, size_t n, size_t es, size_t kept);
/* Its passes in one line; NULL without a model. */
const char *bench_model_passes(const char *algorithm);

/* Append a record (copied); returns it, or NULL if out of memory. */
bench_record *bench_report_add(bench_report *r, const bench_record *rec);
void bench_report_free(bench_report *r);
/* Fill x_cub and pct_copy from the cub and copy rows of the same n, elem_size and removed. */
void bench_report_ratios(bench_report *r);
void bench_report_table(const bench_report *r, FILE *f);
/* The report as JSON, CSV or the table into `path` through rc_write_file (out_path.h: a
 * temporary file renamed over it, through a symbolic link to its target). 0, or -1 with err. */
/* v as printf prints it with fmt, read back: the number the JSON holds ("%.6f": times). */
double bench_printed(const char *fmt, double v);
typedef enum bench_format { BENCH_JSON, BENCH_CSV, BENCH_TABLE } bench_format;
int bench_report_write(const bench_report *r, bench_format format, const char *path, rc_error *err);

/* ---- a session: one open backend, one report, any number of sweeps ---- */
typedef struct bench_session bench_session;

/* Open the backend (NULL after a message if it cannot); max_seconds > 0: no measurement starts
 * later than that. */
bench_session *bench_session_open(sc_backend backend, int quiet, double max_seconds);
/* o's sweep into the report, records tagged `tag`, progress lines prefixed by `label`; 0, or
 * -1 if it stopped on a fatal error. */
int bench_session_sweep(bench_session *s, const bench_opts *o, const char *tag, const char *label);
bench_report *bench_session_report(bench_session *s);
/* Close; returns the exit code its errors and mismatches give (0 if none). */
int bench_session_close(bench_session *s);

/* --graph: calls per captured CUDA graph a timed run replays (0: off). */
#define BENCH_GRAPH_CALLS 100
extern int bench_graph_calls;
/* --warm: every run on one input set, left in the cache by the run before, and no flush. */
extern int bench_warm;
/* 1 when --backend was not given and no CUDA device is usable: the CPU backend runs instead. */
extern int bench_cpu_fallback;
/* "compact bench" or "compact tune" (bench_parse_args): what the command's messages start with. */
extern const char *bench_prog;
/* --settle-ms: CUDA keeps every SM busy this long before each measurement (0: off). */
#define BENCH_SETTLE_MS 5.0
extern double bench_settle_ms;

#ifdef __cplusplus
}
#endif
#endif /* SC_BENCH_H */
