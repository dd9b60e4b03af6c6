/* test_timing.c: the timing harness both benches share (timing.h): the warm-up runs are made
 * but not kept, each timed run lands in its slot, the median of odd and even counts (the mean
 * of the middle two), min, max, percentiles, the rotation over input sets and the noise rule
 * (max/min above 1.5); against values worked out by hand. */
#include "check.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

TEST_COUNTERS;

/* Run i "takes" times[i]: warmup + runs of them through the harness, as a bench does. */
static int harness(int warmup, int runs, const double *times, double *ms, int *slots) {
    timing_runs t;
    timing_begin(&t, warmup, runs, ms);
    int made = 0;
    while (timing_next(&t)) {
        CHECK(t.index == made, "run %d has index %d", made, t.index);
        slots[made] = timing_slot(&t);
        timing_record(&t, times[made]);
        made++;
    }
    CHECK(!timing_next(&t), "a run after the last");
    return made;
}

static void warmup_excluded(void) {
    /* the warm-up runs are slow (a cold cache): none of them may reach ms */
    const double times[] = {100.0, 90.0, 80.0, 3.0, 1.0, 2.0, 5.0, 4.0};
    double ms[5] = {-1, -1, -1, -1, -1};
    int slots[8];
    int made = harness(3, 5, times, ms, slots);
    CHECK(made == 8, "made %d runs, want 3 + 5", made);
    const int want_slots[] = {-1, -1, -1, 0, 1, 2, 3, 4};
    for (int i = 0; i < 8; i++)
        CHECK(slots[i] == want_slots[i], "run %d: slot %d, want %d", i, slots[i], want_slots[i]);
    for (int i = 0; i < 5; i++)
        CHECK(ms[i] == times[3 + i], "ms[%d] = %g, want %g", i, ms[i], times[3 + i]);
    timing_stats s = timing_summary(ms, 5);
    CHECK(s.median == 3.0 && s.min == 1.0 && s.max == 5.0, "median %g min %g max %g", s.median,
          s.min, s.max);
}

static void no_warmup(void) {
    const double times[] = {7.0};
    double ms[1] = {0};
    int slots[1];
    CHECK(harness(0, 1, times, ms, slots) == 1 && slots[0] == 0 && ms[0] == 7.0,
          "one timed run, no warm-up");
}

static void medians(void) {
    double odd[] = {9.0, 1.0, 5.0, 3.0, 7.0};
    timing_stats s = timing_summary(odd, 5);
    CHECK(s.median == 5.0, "median of 5: %g, want 5", s.median);
    CHECK(odd[0] == 1.0 && odd[4] == 9.0, "sorted ascending");
    double even[] = {4.0, 1.0, 3.0, 10.0};
    s = timing_summary(even, 4);
    CHECK(s.median == 3.5, "median of 4: %g, want the mean of 3 and 4", s.median);
    CHECK(s.min == 1.0 && s.max == 10.0, "min %g max %g", s.min, s.max);
    double two[] = {2.0, 1.0};
    s = timing_summary(two, 2);
    CHECK(s.median == 1.5, "median of 2: %g", s.median);
    double one[] = {0.25};
    s = timing_summary(one, 1);
    CHECK(s.median == 0.25 && s.min == 0.25 && s.max == 0.25, "one sample");
    double ties[] = {2.0, 2.0, 1.0, 2.0};
    s = timing_summary(ties, 4);
    CHECK(s.median == 2.0, "median with ties: %g", s.median);
}

static void percentiles(void) {
    const double x[] = {10.0, 20.0, 30.0, 40.0, 50.0};
    CHECK(timing_percentile(x, 5, 0) == 10.0, "p0 is the min");
    CHECK(timing_percentile(x, 5, 100) == 50.0, "p100 is the max");
    CHECK(timing_percentile(x, 5, 50) == 30.0, "p50 of 5 is the median");
    double p90 = timing_percentile(x, 5, 90); /* rank 3.6: 40 + 0.6 * 10 */
    CHECK(p90 > 46.0 - 1e-12 && p90 < 46.0 + 1e-12, "p90: %.17g, want 46", p90);
    CHECK(timing_percentile(x, 5, 12.5) == 15.0, "p12.5: %g", timing_percentile(x, 5, 12.5));
    const double y[] = {1.0, 2.0, 3.0, 10.0};
    CHECK(timing_percentile(y, 4, 50) == 2.5, "p50 of 4 is the median: %g",
          timing_percentile(y, 4, 50));
    const double z[] = {4.0};
    CHECK(timing_percentile(z, 1, 75) == 4.0, "one sample");
}

static void rotation(void) {
    int next = 0, got[7];
    for (int i = 0; i < 7; i++) got[i] = timing_rotate(&next, 3);
    const int want[] = {0, 1, 2, 0, 1, 2, 0};
    for (int i = 0; i < 7; i++) CHECK(got[i] == want[i], "run %d on set %d", i, got[i]);
    CHECK(next == 1, "next %d", next);
    next = 0;
    CHECK(timing_rotate(&next, 1) == 0 && next == 0, "one set");
}

/* The noise rule on made-up times: above 1.5 max/min is noisy, 1.5 itself and a min of 0 (no
 * ratio) are not; the line names the case and the ratio. */
static void noise(void) {
    CHECK(timing_spread(2.0, 3.0) == 1.5 && !timing_noisy(2.0, 3.0), "max/min 1.5 is not noisy");
    CHECK(timing_noisy(2.0, 3.02), "max/min 1.51 is noisy");
    CHECK(timing_spread(0.0, 1.0) == 0.0 && !timing_noisy(0.0, 1.0), "min 0: no ratio");
    CHECK(timing_spread(1.0, INFINITY) == 0.0, "an infinite max: no ratio");
    char line[128] = "x";
    CHECK(!timing_noisy_line(line, sizeof line, "serial", 1.0, 1.2, 5, "runs") && !line[0],
          "a quiet figure has no line: '%s'", line);
    double ms[] = {0.0477, 0.0528, 0.0940}; /* a slow outlier among three runs */
    timing_stats s = timing_summary(ms, 3);
    CHECK(timing_noisy_line(line, sizeof line, "redzone random", s.min, s.max, 3, "runs") &&
              !strcmp(line, "noisy: redzone random: max/min 1.97 over 3 runs"),
          "noisy line '%s'", line);
    CHECK(timing_noisy_line(line, 16, "auto indices graph", 1.0, 2.0, 4, "frames") &&
              strlen(line) == 15,
          "a line cut to its buffer: '%s'", line);
}

static void clock_runs_forward(void) {
    double a = timing_now_ms(), b = timing_now_ms();
    CHECK(a > 0.0 && b >= a, "monotonic clock: %g then %g", a, b);
}

int main(void) {
    warmup_excluded();
    no_warmup();
    medians();
    percentiles();
    rotation();
    noise();
    clock_runs_forward();
    return test_finish_line("test_timing", test_checks, TEST_LINE_OK);
}
