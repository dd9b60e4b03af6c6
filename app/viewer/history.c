/* history.c: the ring of recent frames and the smoothed per-bounce numbers. */
#include "history.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define RC_SMOOTH_MS 500.0 /* time constant of the bars' exponential smoothing */

void rc_history_init(rc_history *h) {
    memset(h, 0, sizeof *h);
}

static uint32_t add_u32(uint32_t a, uint32_t b) {
    return b > UINT32_MAX - a ? UINT32_MAX : a + b;
}

void rc_frame_stats_add(rc_frame_stats *sum, const rc_frame_stats *f) {
    sum->samples = add_u32(sum->samples, f->samples);
    if (f->bounces > sum->bounces) sum->bounces = f->bounces;
    sum->generate_ms += f->generate_ms;
    sum->accumulate_ms += f->accumulate_ms;
    sum->total_ms += f->total_ms;
    for (uint32_t b = 0; b < f->bounces; b++) {
        rc_bounce_stats *s = &sum->bounce[b];
        const rc_bounce_stats *g = &f->bounce[b];
        s->stream = add_u32(s->stream, g->stream);
        s->alive = add_u32(s->alive, g->alive);
        s->kept = add_u32(s->kept, g->kept);
        s->shadow_in = add_u32(s->shadow_in, g->shadow_in);
        s->shadow_kept = add_u32(s->shadow_kept, g->shadow_kept);
        s->extend_ms += g->extend_ms;
        s->shade_ms += g->shade_ms;
        s->compact_ms += g->compact_ms;
        s->shadow_ms += g->shadow_ms;
        s->sort_ms += g->sort_ms;
        s->tail_ms += g->tail_ms;
        if (g->algo) s->algo = g->algo;
    }
    for (size_t i = 0; i < f->num_lib && i < sum->num_lib; i++) sum->lib[i].ms += f->lib[i].ms;
}

void rc_history_settings_changed(rc_history *h, double now_ms) {
    memset(h->bounce, 0, sizeof h->bounce);
    h->bounces = 0;
    h->last_ms = 0.0;
    h->changed_ms = now_ms;
}

/* Bounces a frame did not run count as zero, so their bars fade out. */
static void smooth_bounces(rc_history *h, const rc_frame_stats *fs, double w) {
    if (fs->bounces > h->bounces) h->bounces = fs->bounces;
    for (uint32_t b = 0; b < h->bounces; b++) {
        rc_history_bounce *s = &h->bounce[b];
        const rc_bounce_stats *f = &fs->bounce[b];
        int ran = b < fs->bounces;
        const double now[RC_PH_COUNT] = {0.0,
                                         ran ? f->extend_ms : 0.0,
                                         ran ? f->shade_ms : 0.0,
                                         ran ? f->compact_ms : 0.0,
                                         ran ? f->shadow_ms : 0.0,
                                         ran ? f->sort_ms : 0.0,
                                         ran ? f->tail_ms : 0.0};
        for (int p = 0; p < RC_PH_COUNT; p++) s->ms[p] += w * (now[p] - s->ms[p]);
        s->alive += w * ((ran ? f->alive : 0.0) - s->alive);
        s->stream += w * ((ran ? f->stream : 0.0) - s->stream);
        s->shadows += w * ((ran ? f->shadow_kept : 0.0) - s->shadows);
        if (ran && f->algo) s->algo = f->algo;
    }
}

void rc_history_add(rc_history *h, const rc_frame_stats *fs, double now_ms) {
    rc_history_frame *f = &h->frame[h->head];
    h->head = (h->head + 1) % RC_HISTORY_FRAMES;
    if (h->count < RC_HISTORY_FRAMES) h->count++;
    memset(f, 0, sizeof *f);
    f->end_ms = now_ms;
    f->wall_ms = fs->total_ms;
    f->samples = fs->samples;
    /* phases not timed (key B): the frame graph shows the wall time as one span */
    f->ms[RC_PH_OTHER] =
        (float)(fs->phases_timed ? fs->generate_ms + fs->accumulate_ms : fs->total_ms);
    for (uint32_t b = 0; b < fs->bounces; b++) {
        f->ms[RC_PH_EXTEND] += (float)fs->bounce[b].extend_ms;
        f->ms[RC_PH_SHADE] += (float)fs->bounce[b].shade_ms;
        f->ms[RC_PH_COMPACT] += (float)fs->bounce[b].compact_ms;
        f->ms[RC_PH_SHADOW] += (float)fs->bounce[b].shadow_ms;
        f->ms[RC_PH_SORT] += (float)fs->bounce[b].sort_ms;
        f->ms[RC_PH_TAIL] += (float)fs->bounce[b].tail_ms;
        f->rays += fs->bounce[b].alive;
    }
    /* The first frame after a clear is taken as it is. */
    double w = h->last_ms > 0.0 ? 1.0 - exp(-(now_ms - h->last_ms) / RC_SMOOTH_MS) : 1.0;
    h->last_ms = now_ms;
    smooth_bounces(h, fs, w);
}

const rc_history_frame *rc_history_get(const rc_history *h, size_t i) {
    if (i >= h->count) return NULL;
    return &h->frame[(h->head + RC_HISTORY_FRAMES - 1 - i) % RC_HISTORY_FRAMES];
}

rc_history_rates rc_history_rates_over(const rc_history *h, double now_ms, double window_ms) {
    rc_history_rates r = {0.0, 0.0, 0.0, 0.0};
    double rays = 0.0, spp = 0.0, compact = 0.0, phases = 0.0, oldest = now_ms;
    size_t n = 0;
    const rc_history_frame *f;
    /* The newest frame always counts: frames slower than the window still show a rate. */
    for (size_t i = 0; (f = rc_history_get(h, i)) && (i == 0 || f->end_ms >= now_ms - window_ms);
         i++, n++) {
        rays += (double)f->rays;
        spp += f->samples;
        compact += f->ms[RC_PH_COMPACT];
        for (int p = 0; p < RC_PH_COUNT; p++) phases += f->ms[p];
        oldest = f->end_ms - f->wall_ms;
    }
    /* Over the time those frames span, so that a slow frame rate reads right at once. */
    double span = now_ms - oldest;
    if (n == 0 || span <= 0.0) return r;
    r.frames_per_s = 1e3 * (double)n / span;
    r.rays_per_s = 1e3 * rays / span;
    r.spp_per_s = 1e3 * spp / span;
    r.compact_share = phases > 0.0 ? compact / phases : 0.0;
    return r;
}
