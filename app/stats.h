/* stats.h: sums of rc_frame_stats over frames, and the --stats table printed from them. */
#ifndef RC_STATS_H
#define RC_STATS_H

#include "wavefront/wavefront.h"

#include <stdio.h>

typedef struct rc_bounce_total {
    uint32_t launches; /* frames that ran this bounce */
    uint64_t stream, alive, kept;
    uint64_t shadow_in, shadow_kept; /* the shadow stream (NEE): slots, rays traced */
    double extend_ms, shade_ms, compact_ms, shadow_ms;
    double sort_ms;  /* --sort-materials: classify and partition before shade */
    double tail_ms;  /* the tail kernel, at the bounce it started (rc_bounce_stats.tail_ms) */
    uint32_t tails;  /* frames whose tail kernel started at this bounce */
    uint32_t tailed; /* frames whose tail kernel ran this bounce (no phase launched) */
    uint64_t bytes[RC_PHASES_MODELLED]; /* the stream traffic the layouts give (traffic.c) */
    uint64_t modelled_alive;            /* the live paths of the bounces that traffic covers */
    /* the algorithm of the last frame's path compaction here (auto: its choice), kept as a
       number so a run packed for MPI stays readable: 1 + its sc_algorithm, -1 `none`, -2 the
       tail kernel ran this bounce, 0 not known; rc_stats_algo names it */
    int algo;
} rc_bounce_total;

typedef struct rc_stats_total {
    uint32_t frames;
    uint32_t bounces;                  /* most bounces any frame ran */
    rc_frame_loop loop;                /* the loop of the last frame added */
    int sorted;                        /* some frame ran the sort phase (--sort-materials) */
    int shadows_inline;                /* some frame traced its shadow rays in shade */
    uint32_t tail_frames, tail_paired; /* frames that ran the tail kernel; of those, paired */
    double generate_ms, accumulate_ms, total_ms;
    rc_bounce_total bounce[RC_MAX_DEPTH];
    sc_phase_timing lib[SC_MAX_PHASES];
    size_t num_lib;
} rc_stats_total;

void rc_stats_total_add(rc_stats_total *t, const rc_frame_stats *f);
/* Sums over bounces. */
double rc_stats_extend_ms(const rc_stats_total *t);
double rc_stats_shade_ms(const rc_stats_total *t);
double rc_stats_compact_ms(const rc_stats_total *t);
double rc_stats_shadow_ms(const rc_stats_total *t);
double rc_stats_sort_ms(const rc_stats_total *t);
double rc_stats_tail_ms(const rc_stats_total *t);
/* Which tail kernel the frames ran (rc_tail_kind): "threads", "pairs", "both", or NULL when
 * none ran the tail. */
const char *rc_stats_tail_kernel(const rc_stats_total *t);
/* 1 if any frame sorted the stream by material (--sort-materials). */
int rc_stats_sorted(const rc_stats_total *t);
/* Live path rays traced (extend), over all frames and bounces. */
uint64_t rc_stats_rays(const rc_stats_total *t);
/* Shadow rays traced (the shadow phase), over all frames and bounces; 0 without NEE. */
uint64_t rc_stats_shadow_rays(const rc_stats_total *t);

/* The name of a bounce's algorithm: a library name, "none", RC_TAIL_NAME, or "-" when not
 * known. */
const char *rc_stats_algo(const rc_bounce_total *o);

/* The stream traffic of phase `phase` (RC_PHASE_*, or RC_PHASES_MODELLED: their sum) per live
 * path and bounce, over every bounce the model covers (rc_bounce_stats.bytes); 0 when none. */
double rc_stats_bytes_per_path(const rc_stats_total *t, int phase);

/* The per-phase table (launches, total ms, share) and the per-bounce tables; with shadow rays
 * they show the shadow phase and its stream. Within 100 columns. */
void rc_stats_print(FILE *f, const rc_stats_total *t);
/* The per-bounce tables, one of the rays (the stream, the live paths, the kept ones, the share
 * removed; with NEE the shadow stream; the algorithm), one of the phases' times (with
 * --sort-materials the sort's, where the tail kernel ran the tail's), each time with `decimals`
 * decimals, and one of the phases' stream traffic per live path (rc_bounce_stats.bytes). Every
 * count and time is divided by `per` (1: totals; the frames: a frame's mean); timed 0: the phases
 * were not timed and their times read "-". Within 100 columns; a blank line between the two tables,
 * none before the first. */
void rc_stats_print_bounces(FILE *f, const rc_stats_total *t, double per, int timed, int decimals);

#endif /* RC_STATS_H */
