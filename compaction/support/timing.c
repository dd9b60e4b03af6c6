/* timing.c: the harness of timing.h: warm-up, timed runs, median / min / max / percentiles,
 * input-set rotation and the monotonic clock. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void timing_begin(timing_runs *t, int warmup, int runs, double *ms) {
    t->warmup = warmup;
    t->runs = runs;
    t->index = -1;
    t->ms = ms;
}

int timing_next(timing_runs *t) {
    if (t->index < t->warmup + t->runs) t->index++;
    return t->index < t->warmup + t->runs;
}

int timing_slot(const timing_runs *t) {
    return t->index >= t->warmup && t->index < t->warmup + t->runs ? t->index - t->warmup : -1;
}

void timing_record(timing_runs *t, double ms) {
    int slot = timing_slot(t);
    if (slot >= 0) t->ms[slot] = ms;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

timing_stats timing_summary(double *ms, int count) {
    qsort(ms, (size_t)count, sizeof *ms, cmp_double);
    timing_stats s;
    s.min = ms[0];
    s.max = ms[count - 1];
    s.median = count % 2 ? ms[count / 2] : 0.5 * (ms[count / 2 - 1] + ms[count / 2]);
    return s;
}

double timing_percentile(const double *sorted, int count, double p) {
    if (count == 1 || p <= 0.0) return sorted[0];
    if (p >= 100.0) return sorted[count - 1];
    double rank = p / 100.0 * (count - 1);
    int lo = (int)rank;
    double frac = rank - lo;
    return frac > 0.0 ? sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}

double timing_spread(double min, double max) {
    return min > 0.0 && isfinite(min) && isfinite(max) ? max / min : 0.0;
}

int timing_noisy(double min, double max) {
    return timing_spread(min, max) > TIMING_NOISY;
}

int timing_noisy_line(char *line, size_t cap, const char *what, double min, double max, int runs,
                      const char *unit) {
    line[0] = 0;
    if (!timing_noisy(min, max)) return 0;
    snprintf(line, cap, "noisy: %s: max/min %.2f over %d %s", what, timing_spread(min, max), runs,
             unit);
    return 1;
}

int timing_rotate(int *next, int count) {
    int current = *next;
    *next = (*next + 1) % count;
    return current;
}

double timing_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
