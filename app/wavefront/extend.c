/* extend.c: trace every live path of the stream to its nearest hit (BVH traversal). */
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

void rc_extend(rc_renderer *r, uint32_t bounce, rc_frame_stats *st) {
    RC_PHASE_ON_CUDA(r, &st->bounce[bounce].extend_ms, rc_cuda_extend(r, bounce));
    double t0 = timing_now_ms();
    const long n = (long)r->n;
    /* Dynamic chunks: traversal cost varies a lot from ray to ray. */
    RC_OMP(parallel for schedule(dynamic, 256))
    for (long i = 0; i < n; i++) {
        rc_path *p = rc_stream_path(r, (size_t)i);
        if (rc_path_alive(p)) rc_path_extend(&r->view, p);
    }
    st->bounce[bounce].extend_ms += timing_now_ms() - t0;
}
