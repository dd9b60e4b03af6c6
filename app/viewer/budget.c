/* budget.c: the samples per displayed frame from a frame-time budget (budget.h has the rule). */
#include "budget.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RC_BUDGET_FAST    2.0  /* two frames over this many budgets shrink the count at once */
#define RC_BUDGET_CHEAPER 0.6  /* a count that went over is tried again at this time per sample */
#define RC_BUDGET_APART   1.25 /* counts this far apart measure the added cost of a sample */
#define RC_BUDGET_FIXED   0.25 /* one more sample costs at least this share of the mean */

int rc_frame_ms_parse(const char *s, double *out) {
    if (!s || !*s || isspace((unsigned char)s[0])) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < RC_FRAME_MS_MIN || v > RC_FRAME_MS_MAX)
        return -1;
    *out = v;
    return 0;
}

uint32_t rc_budget_round(double n) {
    if (!(n >= 1.0)) return 1; /* also NaN */
    if (n >= (double)RC_BUDGET_MAX_N) return RC_BUDGET_MAX_N;
    uint32_t v = (uint32_t)n;
    if (v <= 16) return v;
    uint32_t shift = 0;
    while ((v >> shift) >= 16) shift++;
    return (v >> shift) << shift; /* the top four bits: m * 2^k, m in 8..15 */
}

uint32_t rc_budget_wave(uint32_t width, uint32_t height, int cuda, uint32_t given) {
    if (given) return given;
    if (!cuda) return 1;
    uint64_t pixels = (uint64_t)width * height;
    uint64_t fit = RC_VIEW_WAVE_PATHS_CUDA / (pixels ? pixels : 1);
    if (fit > RC_BUDGET_MAX_N) fit = RC_BUDGET_MAX_N;
    return fit ? (uint32_t)fit : 1u;
}

static uint32_t clamp_n(const rc_budget *b, uint32_t n) {
    if (n > b->max) n = rc_budget_round(b->max);
    return n ? n : 1;
}

static void forget(rc_budget *b) {
    b->count = b->head = 0;
}

void rc_budget_init(rc_budget *b, double budget_ms, uint32_t max) {
    memset(b, 0, sizeof *b);
    b->budget_ms = budget_ms;
    b->max = max ? max : 1;
    b->n = 1;
    b->retry = RC_BUDGET_RETRY;
}

void rc_budget_restart(rc_budget *b, uint32_t n, uint32_t max) {
    b->max = max ? max : 1;
    b->n = clamp_n(b, rc_budget_round(n));
    b->over = b->expired = b->prev_n = b->probe = 0;
    b->retry = RC_BUDGET_RETRY;
    forget(b);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const rc_budget *b) {
    double v[RC_BUDGET_WINDOW];
    memcpy(v, b->per_sample, b->count * sizeof *v);
    qsort(v, b->count, sizeof *v, by_value);
    return b->count % 2 ? v[b->count / 2] : 0.5 * (v[b->count / 2 - 1] + v[b->count / 2]);
}

void rc_budget_set_ms(rc_budget *b, double budget_ms) {
    /* measured: what the time per sample says (at most double); not yet: only ever down */
    double est = b->count ? median(b) : 0.0, scaled = (double)b->n * budget_ms / b->budget_ms;
    double want = est > 0.0 ? budget_ms / est / RC_BUDGET_HEADROOM : scaled;
    if (want > 2.0 * b->n) want = 2.0 * b->n;
    if (est <= 0.0 && want > b->n) want = b->n;
    b->budget_ms = budget_ms;
    uint32_t n = clamp_n(b, rc_budget_round(want));
    if (n != b->n) b->changes++;
    b->n = n;
    b->over = b->expired = b->prev_n = b->probe = 0;
    b->retry = RC_BUDGET_RETRY;
    forget(b);
}

/* The time per sample to decide on, or 0 while too few frames are in: the two newest frames
 * when both took over RC_BUDGET_FAST budgets (the lesser), else the median of three or more. */
static double estimate(const rc_budget *b) {
    if (b->count >= 2) {
        double x = b->per_sample[(b->head + RC_BUDGET_WINDOW - 1) % RC_BUDGET_WINDOW];
        double y = b->per_sample[(b->head + RC_BUDGET_WINDOW - 2) % RC_BUDGET_WINDOW];
        double least = x < y ? x : y;
        if (least * b->n > RC_BUDGET_FAST * b->budget_ms) return least;
    }
    return b->count >= RC_BUDGET_VOTES ? median(b) : 0.0;
}

/* The time one more sample adds, from the frames at this count and the last one: between a
 * quarter of the time per sample (most of a frame may be its fixed cost) and all of it (a
 * cost that grows faster than the count is taken as proportional; `over` keeps that stable). */
static double marginal(const rc_budget *b, double est, double frame) {
    if (!b->prev_n) return est;
    double ratio = (double)b->n / b->prev_n;
    if (ratio < RC_BUDGET_APART && ratio > 1.0 / RC_BUDGET_APART) return est;
    double s = (frame - b->prev_ms) / ((double)b->n - (double)b->prev_n);
    return s < RC_BUDGET_FIXED * est ? RC_BUDGET_FIXED * est : s > est ? est : s;
}

/* A count that goes over: remembered, not tried again for `retry` frames (twice as long each
 * time a count goes over again soon after a wait ran out). */
static void went_over(rc_budget *b, double est) {
    if (b->over && b->n >= b->over) return;
    if (b->probe && b->retry < 16 * RC_BUDGET_RETRY) b->retry *= 2; /* went over again */
    b->probe = 0;
    b->over = b->n;
    b->over_ms = est;
    b->since = 0;
}

/* The count for a time per sample of `est` ms. */
static uint32_t decide(rc_budget *b, double est) {
    uint32_t n = b->n;
    double frame = est * n, aim = b->budget_ms / RC_BUDGET_HEADROOM;
    double s = marginal(b, est, frame);
    if (frame > b->budget_ms) { /* over: the smaller of the two predictions */
        went_over(b, est);
        double by_share = aim / est, by_step = n - (frame - aim) / s;
        return rc_budget_round(by_share < by_step ? by_share : by_step);
    }
    if (frame >= aim) return n;
    if (b->expired == n) { /* the count that went over fits now: from the next frame on, grow */
        b->expired = 0;
        return n;
    }
    uint32_t next = rc_budget_round(n + (aim - frame) / s);
    if (next <= n && !b->prev_n) next = rc_budget_round(n + 1 + n / 8); /* probe: the slope */
    if (next > 2 * n) next = rc_budget_round(2.0 * n);
    if (b->over && (est < RC_BUDGET_CHEAPER * b->over_ms || b->since >= b->retry)) {
        if (b->since >= b->retry) {
            b->expired = b->over;
            b->probe = RC_BUDGET_RETRY; /* going over within this many frames backs off */
        }
        b->over = 0; /* cheaper now, or long ago: may be tried again */
    }
    if (b->over && next >= b->over) next = rc_budget_round(b->over - 1.0);
    if (b->expired > n && next > b->expired) next = b->expired; /* try that one alone, again */
    return next > n ? next : n;
}

uint32_t rc_budget_update(rc_budget *b, uint32_t samples, double ms) {
    b->last_ms = ms;
    b->last_samples = samples;
    if (samples == 0 || !isfinite(ms) || ms < 0.0) return b->n;
    double per = ms / samples;
    b->per_sample[b->head] = per > 1e-9 ? per : 1e-9;
    b->head = (b->head + 1) % RC_BUDGET_WINDOW;
    if (b->count < RC_BUDGET_WINDOW) b->count++;
    if (b->over) b->since++;
    if (b->probe) b->probe--;
    double est = estimate(b);
    if (est <= 0.0) return b->n;
    uint32_t next = clamp_n(b, decide(b, est));
    if (next != b->n) {
        b->prev_n = b->n;
        b->prev_ms = est * b->n;
        b->n = next;
        b->changes++;
        forget(b);
    }
    return b->n;
}
