/* lifecycle.h: what render_frame() calls around the phases: a frame's begin and end. They live
 * in lifecycle.c with rc_renderer_create, rc_renderer_destroy and the film (wavefront.h), above
 * the phases: lifecycle.c calls into them (compact, sort, tail, mask), no phase calls it. */
#ifndef RC_LIFECYCLE_H
#define RC_LIFECYCLE_H

#include "renderer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Start a frame: clear the device's per-frame counters and timings (CUDA; CPU: nothing); the
 * graph loop starts capturing the frame's launches, or finds them captured already. */
void rc_frame_begin(rc_renderer *r, rc_frame_stats *st);
/* 1 when this frame replays a captured graph: the phases launch nothing, rc_frame_finish runs
 * the graph. */
int rc_frame_replay(rc_renderer *r);
/* A phase failed: end a capture in progress, so the stream stays usable. */
void rc_frame_abort(rc_renderer *r);
/* After the phases: launch what the device still has to run of the frame (CUDA: the graph
 * loop's graph, the counts' copy back); does not wait. CPU: nothing. */
void rc_frame_submit(rc_renderer *r, rc_frame_stats *st);
/* End a submitted frame: wait for the device, collect its phase times, check its counts
 * (CUDA). */
int rc_frame_finish(rc_renderer *r, rc_frame_stats *st, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RC_LIFECYCLE_H */
