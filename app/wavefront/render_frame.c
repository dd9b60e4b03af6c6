/* render_frame.c: one frame of the wavefront path tracer: a wave of one or more samples per
 * pixel. This function is the table of contents of the renderer; each phase lives in its own
 * file. */
#include "compact.h"
#include "lifecycle.h"
#include "renderer.h"
#include "timing.h"

#include <string.h>

int rc_render_submit(rc_renderer *r, uint32_t samples, rc_frame_stats *stats, rc_error *err) {
    if (r->flight) return rc_fail(err, "a frame is in flight: rc_render_wait first");
    rc_frame_stats *st = stats ? stats : &r->flight_local;
    memset(st, 0, sizeof *st);
    if (samples < 1 || samples > r->wave)
        return rc_fail(err, "%u samples in one wave: the stream holds 1 .. %u", samples, r->wave);
    double t0 = timing_now_ms();
    r->shade.sample = r->st.first_sample + r->frames;
    r->wave_now = samples;
    r->pool_now = r->num_paths < rc_frame_paths(r) ? (uint32_t)r->num_paths : rc_frame_paths(r);
    st->samples = samples;
    st->schedule = r->st.schedule;
    st->pool = r->pool_now;
    st->sorted = r->sorter != NULL; /* also a replayed graph's frame, which runs no phase here */
    st->shadows_inline = rc_renderer_shadows_inline(r);
    st->phases_timed = r->st.tune.phase_timing != 0;

    rc_frame_begin(r, st);     /* CUDA graph loop: capture this frame, or replay the captured one */
    if (!rc_frame_replay(r)) { /* a replay runs its capture's tail */
        r->tail_from = rc_tail_plan(r);
        r->tail_kind = RC_TAIL_THREADS;
    }
    st->tail_from = r->tail_from;
    if (!rc_frame_replay(r)) {
        rc_mask_begin(r);
        rc_generate(r, st); /* one camera ray per pixel and sample (regen: the pool's worth) */
        /* regen: steps of the pool, each path at a bounce of its own, until its last step */
        const uint32_t steps = r->regen ? RC_REGEN_STEPS + 1 : r->st.max_depth;
        for (uint32_t bounce = 0; bounce < steps && rc_stream_live(r); bounce++) {
            if (bounce == r->tail_from || (r->regen && bounce == RC_REGEN_STEPS)) {
                r->tail_from = st->tail_from = bounce; /* few paths left: one kernel ends them */
                rc_tail(r, bounce, st);
                st->bounces = bounce + 1;
                break;
            }
            rc_mask_record(r, bounce); /* the viewer's alive-ray mask, when it shows one */
            rc_extend(r, bounce, st);  /* nearest hit of every live ray */
            if (rc_sort(r, bounce, st, err) != 0) { /* --sort-materials: group by material */
                rc_frame_abort(r);
                return -1;
            }
            rc_shade(r, bounce, st); /* emission or background, light samples, scatter */
            if (rc_compact(r, bounce, st, err) != 0 ||         /* drop the ended paths */
                rc_compact_shadows(r, bounce, st, err) != 0) { /* and the empty shadow slots */
                rc_frame_abort(r);
                return -1;
            }
            rc_trace_shadows(r, bounce,
                             st);     /* any-hit shadow rays: unblocked light to its sample */
            rc_refill(r, bounce, st); /* regen: new camera paths into the freed slots */
            st->bounces = bounce + 1;
        }
        r->steps = st->bounces;
        rc_accumulate(r, st); /* film += this frame's samples, in sample order */
    }
    st->tail_kind = r->tail_kind;
    rc_frame_submit(r, st); /* CUDA: the graph's launch; the device runs on from here */
    r->flight = st;
    r->flight_samples = samples;
    r->flight_t0 = t0;
    return 0;
}

int rc_render_wait(rc_renderer *r, rc_error *err) {
    rc_frame_stats *st = r->flight;
    if (!st) return 0;
    r->flight = NULL;
    if (rc_frame_finish(r, st, err) != 0) return -1; /* counts and times come back once */
    r->frames += r->flight_samples;
    st->total_ms = timing_now_ms() - r->flight_t0;
    return 0;
}

int rc_render_samples(rc_renderer *r, uint32_t samples, rc_frame_stats *stats, rc_error *err) {
    if (rc_render_submit(r, samples, stats, err) != 0) return -1;
    return rc_render_wait(r, err);
}

int rc_render_frame(rc_renderer *r, rc_frame_stats *stats, rc_error *err) {
    return rc_render_samples(r, r->wave, stats, err);
}

int rc_render_in_flight(const rc_renderer *r) {
    return r->flight != NULL;
}
