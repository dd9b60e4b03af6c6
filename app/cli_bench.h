/* cli_bench.h: what the parts of `raycompact bench` share: its options, a run's results, the
 * megakernel baselines, an MPI job's gathered runs (cli_bench.c: options, runs, the MPI
 * gather), and the report (cli_bench_report.c: the tables and the JSON). Not an API. */
#ifndef RC_CLI_BENCH_H
#define RC_CLI_BENCH_H

#include "cli.h"
#include "rank_timing.h"
#include "stats.h"
#include "wavefront/megakernel.h"
#include "workers.h"

#include <stdint.h>

typedef struct bench_opts {
    cli_common common;
    const char *algos, *modes, *json;
    uint32_t frames, warmup;
    const char *megakernel;
    int library_phases;
    int bounces;      /* --bounces: the per-bounce tables after the summary */
    int phase_timing; /* --phase-timing: 1 on, 0 off, -1 not given */
    int per_rank;     /* MPI: every rank times every run (else the runs are shared out) */
    int divergence;   /* --divergence: the probes' counts over the timed frames (probe.h) */
} bench_opts;

/* A megakernel baseline's image and time, and how the first run's image compares with it. */
typedef struct bench_baseline {
    rc_megakernel_kind kind;
    uint32_t samples;
    rc_megakernel_result res;
    float *rgb;
    int compared;
    size_t differ; /* pixels whose value differs from the first run's */
    double rmse;   /* block RMSE against the first run's image (8x8 blocks, clamped) */
} bench_baseline;

/* Timed runs of each megakernel baseline (after one untimed warm-up of one sample). */
#define BENCH_MEGAKERNEL_RUNS 3

typedef struct bench_baselines {
    int n;
    bench_baseline b[RC_MEGAKERNEL_COUNT];
} bench_baselines;

/* The scene's GPU upload time of the first run's renderer (ms; 0 on the CPU backend), noted
 * by each run and written to the JSON's scene_load. */
void bench_note_upload_ms(double ms);
double bench_upload_ms(void);

typedef struct bench_run {
    const char *algo;
    rc_mode mode;
    rc_frame_loop loop;
    const char *skipped; /* why it did not run, or NULL */
    char reason[sizeof(((rc_error *)0)->msg)];
    rc_stats_total tot;
    double median_ms;      /* median wall time of one frame */
    double min_ms, max_ms; /* the fastest and the slowest timed frame (the noise rule) */
    uint64_t image_hash;
    int probed;             /* --divergence: probes holds the timed frames' counts */
    rc_probe_counts probes; /* core/probe.h */
} bench_run;

/* A run as bytes another process can read: the library's phase names copied, not pointed to. */
typedef struct bench_packed_run {
    bench_run r;
    char lib[SC_MAX_PHASES][48];
} bench_packed_run;

typedef struct bench_rank_info {
    char host[128], device[256];
} bench_rank_info;

/* Rank 0's view of the job after the gather; size 1 without MPI. */
typedef struct bench_gathered {
    int size;
    bench_packed_run *all;  /* size x n runs, rank by rank (rank 0 only) */
    bench_rank_info *info;  /* size (rank 0 only) */
    bench_run *rank_runs;   /* --per-rank: size x n runs made readable here (rank 0 only) */
    cli_rank_timing *times; /* size rows: where each rank's time went (rank 0 only) */
    int workers;            /* rank 0's workers (--gpus; 0: not reported) */
    rc_worker_times worker_times[RC_WORKERS_MAX]; /* theirs: samples = the runs each timed */
} bench_gathered;

/* --phase-timing off: the tables show "-" and the JSON null for phase times. */
void bench_report_phases(int timed);
/* Every table fits in 100 columns. The first lines: the scene, the image, the frames and the
 * settings they were rendered with. */
void print_heading(FILE *f, const bench_opts *o, const rc_scene *scene, const rc_settings *st);
/* The summary table of the runs ("-" for a ratio whose baseline did not run; a "noisy: ..."
 * line under a run whose timed frames disagree, timing.h), then with megakernels each run's
 * speed-up over each and the table of the baselines. */
void print_summary(FILE *f, const bench_run *runs, int n, const bench_baselines *mk,
                   uint32_t pixels);
/* --bounces: one run's per-bounce tables (stats.h), a frame's mean at each bounce. */
void print_bounces(FILE *f, const bench_run *rn);
/* After the summary: where the runs ran, and with --per-rank every other rank's summary. */
void print_ranks(const bench_opts *o, int n, const bench_gathered *g, uint32_t pixels);
/* --json FILE: the settings, every run, the baselines and the ranks; an exit code. */
int write_json(const bench_opts *o, const rc_scene *scene, const rc_settings *st,
               const bench_run *runs, int n, const bench_baselines *mk, const bench_gathered *g);

/* --divergence (cli_bench_divergence.c): each probed run's and megakernel's active lanes per
 * warp instruction per bounce at the probe points; a point's name; the counts as JSON. */
void print_divergence(FILE *f, const bench_run *runs, int n, const bench_baselines *mk);
const char *bench_probe_name(int point);
struct cJSON *bench_divergence_json(const rc_probe_counts *p);

#endif /* RC_CLI_BENCH_H */
