/* shadow.c: the shadow phase: trace the shadow rays of next-event estimation (any hit, the
 * first blocker ends the search) and add the light of the unblocked ones to their paths'
 * samples. Each path has at most one ray in the stream, so no two rays add to one sample and
 * the order of the stream does not matter. */
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

void rc_trace_shadows(rc_renderer *r, uint32_t bounce, rc_frame_stats *st) {
    if (!r->sstream) return; /* none, or traced in shade */
    RC_PHASE_ON_CUDA(r, &st->bounce[bounce].shadow_ms, rc_cuda_shadow(r, bounce));
    double t0 = timing_now_ms();
    /* compacted: every slot holds a ray; `none`: the slots shade wrote, the empty ones skipped */
    const long n = (long)(r->scomp.input == RC_COMPACT_NOTHING ? r->sn : r->shadows);
    rc_vec3 *rgb = r->cpu.bufs.sample_rgb;
    RC_OMP(parallel for schedule(dynamic, 256))
    for (long i = 0; i < n; i++) {
        const rc_shadow *s = rc_stream_shadow(r, (size_t)i);
        if (s->slot & RC_PATH_ALIVE) rc_shadow_trace(&r->view, s, rgb);
    }
    st->bounce[bounce].shadow_ms += timing_now_ms() - t0;
}
