/* generate.c: the first phase of a frame: one camera ray per pixel and sample of the wave, and
 * a full stream (regen: the pool's first paths; refill.c generates the rest in the same order).
 * Path p is sample p / num_pixels of pixel p % num_pixels, so the stream starts as one image
 * after another. */
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

void rc_generate(rc_renderer *r, rc_frame_stats *st) {
    r->n = r->pool_now; /* the frame's paths, or the first pool of them (regen) */
    r->live = r->n;
    r->issued = r->n;
    r->cpu.num_free = 0;
    RC_PHASE_ON_CUDA(r, &st->generate_ms, rc_cuda_generate(r));
    double t0 = timing_now_ms();
    rc_cpu_stream *s = &r->cpu;
    const long n = (long)r->n;
    const uint32_t np = r->num_pixels;
    RC_OMP(parallel for schedule(static))
    for (long p = 0; p < n; p++) {
        rc_path_generate(&r->view.camera, r->st.width, r->st.height, (uint32_t)p % np,
                         r->shade.sample, (uint32_t)p / np, r->st.seed, &s->bufs.paths[p]);
        s->bufs.sample_rgb[p] = rc_v3s(0.0f);
        if (s->bufs.queue) s->bufs.queue[p] = (uint32_t)p;
    }
    st->generate_ms += timing_now_ms() - t0;
}
