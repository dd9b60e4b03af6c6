/* budget.h: frames by time budget. Each displayed frame adds as many samples per pixel as fit
 * the renderer's share of a frame-time budget (--frame-ms, keys , and .); this controller picks
 * that count from the measured times of the frames before it. Plain C, no window: the unit
 * test drives it with synthetic cost models.
 *
 *     rc_budget b;
 *     rc_budget_init(&b, 16.0, rc_budget_wave(w, h, cuda, 0) * 4);
 *     for (;;) {
 *         double t0 = now();
 *         render(b.n);                      // b.n samples per pixel
 *         rc_budget_update(&b, b.n, now() - t0);
 *     }
 *
 * The rule: each frame's time per sample goes into a window of the newest frames at the
 * current count; once three are in, their median is the time per sample, and with the median
 * frame at the count before, the time one more sample adds (a frame has a fixed cost too). When
 * the median frame is over the budget, the count shrinks at once to the largest one predicted
 * to take at most budget / RC_BUDGET_HEADROOM; when the frame is under that and a larger count
 * is predicted to fit in it, the count grows to it (at most doubling; with no count before to
 * measure the added cost from, one step up). Counts are rounded down to 1..16 or m * 2^k (m
 * 8..15), so small changes in the prediction do not move the count (and a CUDA graph, captured
 * per wave size, is captured again only when the count moves). A count that went over the
 * budget is not tried again until the time per sample has dropped by 40 % or RC_BUDGET_RETRY
 * frames have passed (then alone, and twice as long if it goes over again soon): the count
 * settles instead of swinging around the budget. Two frames in a row over twice the budget shrink
 * the count without waiting for the third. */
#ifndef RC_VIEW_BUDGET_H
#define RC_VIEW_BUDGET_H

#include <stdint.h>

/* --frame-ms: the default and the limits (ms) */
#define RC_FRAME_MS_DEFAULT 16.0
#define RC_FRAME_MS_MIN     1.0
#define RC_FRAME_MS_MAX     1000.0

#define RC_BUDGET_WINDOW   5     /* frames the median is taken over */
#define RC_BUDGET_VOTES    3     /* frames at a count before it may change */
#define RC_BUDGET_HEADROOM 1.1   /* a count is picked to take at most budget / this */
#define RC_BUDGET_RETRY    300   /* frames before a count that went over is tried again */
#define RC_BUDGET_MAX_N    65536 /* samples per pixel in one displayed frame, at most */

/* The stream's capacity in paths (samples x pixels of one renderer call), as bench's
 * `--samples-per-wave auto`: every sample of a wave holds a 64-byte path record and a 12-byte
 * colour slot, with NEE a shadow-ray record, and queue entries, a flag and a removal-list entry
 * by algorithm and mode: about 100 to 150 bytes a path, so 2^24 paths are 1.6 to 2.4 GiB of
 * device memory (a GPU with less free takes half the wave until it fits: session.c). Fewer
 * samples a call leave the GPU waiting at each call's tail (docs/renderer.md has the rays per
 * second against bench). The CPU gains nothing from long streams (it renders one sample a
 * call): a frame of more samples makes more calls, and the memory does not grow with it. */
#define RC_VIEW_WAVE_PATHS_CUDA (1u << 24)

typedef struct rc_budget {
    double budget_ms;                    /* the renderer's time per displayed frame */
    uint32_t n;                          /* samples per pixel the next displayed frame adds */
    uint32_t max;                        /* at most this many */
    double per_sample[RC_BUDGET_WINDOW]; /* ms per sample of the newest frames at count n */
    uint32_t count;                      /* how many of them (up to RC_BUDGET_WINDOW) */
    uint32_t head;                       /* where the next one goes */
    uint32_t over;    /* the smallest count seen over the budget (not tried again); 0: none */
    double over_ms;   /* the time per sample measured then */
    uint32_t since;   /* frames since `over` was set */
    uint32_t retry;   /* frames before `over` is tried again */
    uint32_t expired; /* the last `over` whose wait ran out */
    uint32_t probe;   /* frames left in which going over doubles `retry` */
    uint32_t prev_n;  /* the count before this one (0: none since the last restart) */
    double prev_ms;   /* its median frame time */
    uint32_t changes; /* times n changed */
    double last_ms;   /* the last frame's time */
    uint32_t last_samples;
} rc_budget;

/* Parse --frame-ms: a decimal number of milliseconds in [RC_FRAME_MS_MIN, RC_FRAME_MS_MAX],
 * the whole string (no blanks, no unit); 0 or -1. */
int rc_frame_ms_parse(const char *s, double *out);
/* The count rounded down to the counts the controller uses (1..16, m * 2^k with m 8..15);
 * at least 1. */
uint32_t rc_budget_round(double n);
/* Samples per pixel of the viewer's renderer's wave: `given` (--samples-per-wave) when not 0,
 * else on CUDA as many as fit RC_VIEW_WAVE_PATHS_CUDA paths (at least 1), on the CPU 1. */
uint32_t rc_budget_wave(uint32_t width, uint32_t height, int cuda, uint32_t given);

/* Start at one sample per frame. */
void rc_budget_init(rc_budget *b, double budget_ms, uint32_t max);
/* Forget the measurements (another renderer: its times would mislead) and go on from `n`
 * (rounded, within 1..max). */
void rc_budget_restart(rc_budget *b, uint32_t n, uint32_t max);
/* A new budget: the count follows at once from the measured time per sample (at most
 * doubling; before any measurement only down, in proportion), then the measurements start
 * again. */
void rc_budget_set_ms(rc_budget *b, double budget_ms);
/* The frame just rendered added `samples` samples per pixel in `ms` (the renderer's wall time
 * for it); returns the count for the next frame (b->n), never 0. */
uint32_t rc_budget_update(rc_budget *b, uint32_t samples, double ms);

#endif /* RC_VIEW_BUDGET_H */
