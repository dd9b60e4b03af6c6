/* history.h: what the overlay plots: the phase times of recent frames (the scrolling graph,
 * the rates) and per-bounce times and ray counts smoothed over the last half second (the
 * bars). */
#ifndef RC_VIEW_HISTORY_H
#define RC_VIEW_HISTORY_H

#include "../wavefront/wavefront.h"

#define RC_HISTORY_FRAMES 8192 /* ring of frames: seconds of history up to ~1600 frames/s */

/* Phases of a frame as the graph stacks them: generate and accumulate together as "other";
 * shadow: the shadow rays' any-hit traces (NEE; their stream's compaction is in compact). */
enum {
    RC_PH_OTHER,
    RC_PH_EXTEND,
    RC_PH_SHADE,
    RC_PH_COMPACT,
    RC_PH_SHADOW,
    RC_PH_SORT, /* --sort-materials */
    RC_PH_TAIL, /* --tail-below: one kernel for the last bounces, at its first bounce */
    RC_PH_COUNT
};

typedef struct rc_history_frame {
    double end_ms;         /* when the frame finished (timing_now_ms) */
    double wall_ms;        /* its wall time */
    float ms[RC_PH_COUNT]; /* its phase times */
    uint64_t rays;         /* live rays it traced, over all bounces */
    uint32_t samples;      /* samples per pixel it added */
} rc_history_frame;

typedef struct rc_history_bounce {
    double ms[RC_PH_COUNT]; /* extend, shade, compact, shadow, sort, tail (other unused) */
    double alive, stream;
    double shadows;   /* shadow rays traced (kept in their stream) */
    const char *algo; /* the newest frame's compaction algorithm here (auto: its choice) */
} rc_history_bounce;

typedef struct rc_history {
    rc_history_frame frame[RC_HISTORY_FRAMES];
    size_t head, count; /* the newest is frame[(head + RC_HISTORY_FRAMES - 1) % ...] */
    rc_history_bounce bounce[RC_MAX_DEPTH];
    uint32_t bounces;  /* bounces shown: the most any frame ran since the last clear */
    double last_ms;    /* end of the last frame added, for the smoothing weight */
    double changed_ms; /* when the settings last changed (a mark on the graph) */
} rc_history;

/* Rates over the frames of the last `window_ms`. */
typedef struct rc_history_rates {
    double frames_per_s, rays_per_s;
    double spp_per_s;     /* samples per pixel per second (x pixels: samples per second) */
    double compact_share; /* compaction's share of the frames' phase times, 0..1 */
} rc_history_rates;

void rc_history_init(rc_history *h);
/* Add the stats of another renderer call of the same displayed frame to `sum`: samples, phase
 * times and per-bounce counts add up (so a bounce's `stream` and `alive` are the paths of the
 * whole displayed frame), bounces is the most any call ran. */
void rc_frame_stats_add(rc_frame_stats *sum, const rc_frame_stats *f);
void rc_history_add(rc_history *h, const rc_frame_stats *fs, double now_ms);
/* Forget the bars (new settings: the old times would mislead) and mark the graph. */
void rc_history_settings_changed(rc_history *h, double now_ms);
/* The i-th newest frame (0 = newest), or NULL. */
const rc_history_frame *rc_history_get(const rc_history *h, size_t i);
rc_history_rates rc_history_rates_over(const rc_history *h, double now_ms, double window_ms);

#endif /* RC_VIEW_HISTORY_H */
