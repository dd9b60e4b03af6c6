/* accumulate.c: the last phase of a frame: add its samples of every pixel to the film. The
 * film holds exact fixed-point sums (film.h), so it does not depend on the order the paths
 * ended in (every compaction algorithm gives the same bits), on how the samples were split
 * into waves, nor on how many processes rendered them. */
#include "film.h"
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

void rc_accumulate(rc_renderer *r, rc_frame_stats *st) {
    RC_PHASE_ON_CUDA(r, &st->accumulate_ms, rc_cuda_accumulate(r));
    double t0 = timing_now_ms();
    rc_cpu_stream *s = &r->cpu;
    const long n = (long)r->num_pixels;
    const uint32_t wave = r->wave_now;
    RC_OMP(parallel for schedule(static))
    for (long p = 0; p < n; p++) {
        int64_t *px = &s->accum[3 * p];
        for (uint32_t k = 0; k < wave; k++) rc_film_add(px, s->bufs.sample_rgb[(size_t)k * n + p]);
    }
    st->accumulate_ms += timing_now_ms() - t0;
}
