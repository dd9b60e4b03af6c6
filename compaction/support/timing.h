/* timing.h: warm-up runs, timed runs and their statistics, shared by both benches: `compact
 * bench` (bench_cpu.c, bench_gpu.cu, the per-phase passes of bench_sweep.c) and `raycompact
 * bench` (its frames, and the megakernels it compares with).
 *
 *     double ms[RUNS];
 *     timing_runs t;
 *     timing_begin(&t, warmup, runs, ms);
 *     while (timing_next(&t)) {                  // warmup untimed runs, then runs timed ones
 *         input *in = &sets[timing_rotate(&next, num_sets)];  // each run on the next set
 *         double t0 = timing_now_ms();
 *         work(in);
 *         timing_record(&t, timing_now_ms() - t0);  // a warm-up run's time is dropped
 *     }
 *     timing_stats s = timing_summary(ms, runs);  // median, min, max (sorts ms)
 *
 * Where the device keeps the time (CUDA events), the call site records its event pair around
 * the timed runs only (timing_slot() >= 0 names the pair) and fills ms[slot] once the stream
 * is done. */
#ifndef RC_TIMING_H
#define RC_TIMING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct timing_runs {
    int warmup, runs; /* untimed runs first, then the timed ones */
    int index;        /* the current run, warm-up included: 0 .. warmup + runs - 1 */
    double *ms;       /* the caller's ms[0 .. runs): the timed runs' times */
} timing_runs;

typedef struct timing_stats {
    double median; /* of an even count: the mean of the middle two */
    double min, max;
} timing_stats;

/* Start: warmup (>= 0) untimed runs, then runs (>= 1) timed into ms[0 .. runs). */
void timing_begin(timing_runs *t, int warmup, int runs, double *ms);
/* Go to the next run: 1 while one is left, 0 after the last. */
int timing_next(timing_runs *t);
/* The current run's place among the timed ones, 0 .. runs - 1, or -1 during the warm-up. */
int timing_slot(const timing_runs *t);
/* The current run took ms: kept in ms[timing_slot(t)], dropped during the warm-up. */
void timing_record(timing_runs *t, double ms);

/* Median, min and max of ms[0 .. count), count >= 1 (sorts ms ascending). */
timing_stats timing_summary(double *ms, int count);
/* The p-th percentile (0..100) of sorted[0 .. count), count >= 1: linear interpolation between
 * the closest ranks, so 0 is the min, 100 the max and 50 the median. */
double timing_percentile(const double *sorted, int count, double p);

/* Timed runs that disagree: a figure is noisy when its slowest timed run took more than
 * TIMING_NOISY times its fastest. Both benches then print one "noisy: ..." line right after the
 * figure and mark it in their JSON (timing_noisy_line). */
#define TIMING_NOISY 1.5
/* max / min of a figure's timed runs; 0 (no ratio) when min is not above 0, as a time below the
 * clock's resolution can be, or either is not finite. */
double timing_spread(double min, double max);
/* 1 when timing_spread(min, max) is above TIMING_NOISY; 0 otherwise (a spread of 0 included). */
int timing_noisy(double min, double max);
/* A noisy figure's line, "noisy: WHAT: max/min 1.97 over 21 runs" (`unit`: what the runs are,
 * "runs" or "frames"), into line (cap > 0): returns 1. Otherwise line is "" and it returns 0. */
int timing_noisy_line(char *line, size_t cap, const char *what, double min, double max, int runs,
                      const char *unit);

/* Each run on the next of count input sets: returns *next, then advances it (mod count). */
int timing_rotate(int *next, int count);
/* Milliseconds on a monotonic clock: what both benches time host work by, and the renderer's
 * phases and the viewer's frames. */
double timing_now_ms(void);

#ifdef __cplusplus
}
#endif
#endif /* RC_TIMING_H */
