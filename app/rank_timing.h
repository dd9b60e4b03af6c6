/* rank_timing.h: where the wall time of a render or a bench goes, rank by rank: a lap clock
 * started in main, each lap charged to one phase, so the phases of a row add up to no more than
 * its wall time. Every rank's row goes to rank 0 in one small gather (mpi_run.h); without MPI
 * the process is rank 0 of 1.
 *
 *     cli_timing_main();                 // main, first thing
 *     ... parse, MPI_Init ...  cli_timing_lap(CLI_PHASE_SETUP);
 *     ... load the scene ...   cli_timing_lap(CLI_PHASE_SCENE);
 *     cli_timing_gather(all, &err);      // every rank; `all` on rank 0: one row per rank
 *     cli_timing_print(stdout, all, n);  // rank 0 */
#ifndef RC_RANK_TIMING_H
#define RC_RANK_TIMING_H

#include "rc_error.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

typedef enum cli_phase {
    CLI_PHASE_SETUP,  /* options, MPI_Init, the backend's choice, the ranks' agreement */
    CLI_PHASE_SCENE,  /* the scene file read and its BVH built */
    CLI_PHASE_CREATE, /* renderers created: device context, buffers */
    CLI_PHASE_FIRST,  /* the first frame (CUDA: the graph is captured there) */
    CLI_PHASE_FRAMES, /* every other frame (bench: the baselines too) */
    CLI_PHASE_REDUCE, /* film read back and summed on rank 0 (bench: the runs gathered);
                         includes the wait for the slowest rank */
    CLI_PHASE_WRITE,  /* rank 0: the image written (bench: the tables printed) */
    CLI_PHASE_COUNT
} cli_phase;

/* One rank's row: a fixed struct, gathered as bytes (every rank runs the same build). */
typedef struct cli_rank_timing {
    double start_ms; /* process start to main (Linux: /proc, 10 ms steps); -1 when not known */
    double phase_ms[CLI_PHASE_COUNT];
    double wall_ms;   /* process start (or main, when start is not known) to the row's end */
    uint32_t samples; /* render: this rank's samples per pixel; bench: the runs it timed */
    uint32_t rank;
} cli_rank_timing;

/* main: the clock starts; the time since the process started is read once. */
void cli_timing_main(void);
/* The time since the last lap (or main) goes to phase p. */
void cli_timing_lap(cli_phase p);
/* Move ms of phase `from` to phase `to` (render: the first wave out of the workers' frames). */
void cli_timing_split(cli_phase from, cli_phase to, double ms);
/* This rank's share: samples per pixel (render) or runs (bench). */
void cli_timing_samples(uint32_t n);
/* This rank's row, its wall time up to now. */
cli_rank_timing cli_timing_mine(void);
/* Every rank calls it: rank 0 receives every rank's row (cli_timing_mine) in all[rank]; the
 * others may pass NULL. */
int cli_timing_gather(cli_rank_timing *all, rc_error *err);
/* The table: a row per rank, a column per phase, in ms. */
void cli_timing_print(FILE *f, const cli_rank_timing *all, int n);
/* The same as a JSON array of objects, one per rank. */
cJSON *cli_timing_json(const cli_rank_timing *all, int n);

#endif /* RC_RANK_TIMING_H */
