/* accumulate.c: the last phase of a frame: add its value of every pixel to the film. Each
 * pixel sums its samples in frame order, so the film does not depend on the order the paths
 * ended in, and every compaction algorithm gives the same bits. */
#include "renderer.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda.h"
#endif

void rc_accumulate(rc_renderer *r, rc_frame_stats *st) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        rc_cuda_phase_begin(r);
        rc_cuda_accumulate(r);
        rc_cuda_phase_end(r, &st->accumulate_ms);
        r->frames++;
        return;
    }
#endif
    double t0 = rc_now_ms();
    rc_cpu_stream *s = &r->cpu;
    const long n = (long)r->num_pixels;
    RC_OMP(parallel for schedule(static))
    for (long p = 0; p < n; p++) s->accum[p] = rc_add(s->accum[p], s->sample_rgb[p]);
    r->frames++;
    st->accumulate_ms += rc_now_ms() - t0;
}
