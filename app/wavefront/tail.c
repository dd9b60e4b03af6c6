/* tail.c: the tail of a frame. Once few paths are left, a bounce costs its launches (extend,
 * shade, the compactions, the shadow phase: each a kernel of its own, most of whose threads
 * find nothing to do), not its work. From the first bounce whose live paths were fewer than
 * rc_settings.tune.tail_below in the previous frame, one kernel finishes them: each of its threads
 * runs one path's remaining bounces (tail.cu). The per-path functions and their order are those
 * of the phases, so the image and the per-bounce counts are the same. CUDA device loops only:
 * the CPU backend and the host loop pay no launch per phase worth saving. With regen the tail
 * also takes the frame's samples not yet issued, a path at a time from a counter (the work
 * distribution of a persistent megakernel), and the loop's last step always runs it: whatever
 * the plan, the frame ends complete. */
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

uint32_t rc_tail_plan(const rc_renderer *r) {
    /* regen: the loop's last step runs the tail anyway, for whatever is left */
    const uint32_t none = r->regen ? RC_REGEN_STEPS : r->st.max_depth;
    if (r->st.backend != RC_BACKEND_CUDA || r->st.frame_loop == RC_LOOP_HOST ||
        r->st.tune.tail_below == 0 || !r->tail_known)
        return none;
    for (uint32_t b = 0; b < none && b < RC_MAX_DEPTH; b++) {
        /* the viewer's alive-ray mask is recorded by the phases of its bounce */
        if (r->mask_bounce >= 0 && b <= (uint32_t)r->mask_bounce) continue;
        if (r->tail_live[b] < r->st.tune.tail_below) return b;
    }
    return none;
}

void rc_tail(rc_renderer *r, uint32_t bounce, rc_frame_stats *st) {
    RC_PHASE_ON_CUDA(r, &st->bounce[bounce].tail_ms, r->tail_kind = rc_cuda_tail(r, bounce));
    double t0 = timing_now_ms();
    rc_cpu_tail(r, bounce, st); /* regen's last step; nothing in the waves schedule */
    st->bounce[bounce].tail_ms += timing_now_ms() - t0;
}

void rc_tail_learn(rc_renderer *r, const rc_frame_stats *st) {
    for (uint32_t b = 0; b < RC_MAX_DEPTH; b++)
        r->tail_live[b] = b < st->bounces ? st->bounce[b].alive : 0u;
    r->tail_known = 1;
}
