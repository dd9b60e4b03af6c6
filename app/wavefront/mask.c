/* mask.c: the alive-ray mask the viewer shows: which pixels' paths are still in the stream at
 * one bounce, i.e. what the compaction of the bounce before kept. Recorded only while the
 * viewer watches a bounce; it is not one of the timed phases. */
#include "renderer.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

#include <stdlib.h>
#include <string.h>

static int alloc_mask(rc_renderer *r, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_mask_alloc(r, err);
#endif
    r->mask = calloc(r->num_pixels, 1);
    return r->mask ? 0 : rc_fail(err, "out of memory for the alive-ray mask");
}

int rc_renderer_watch_bounce(rc_renderer *r, int bounce, rc_error *err) {
    if (bounce >= 0 && !r->mask && alloc_mask(r, err) != 0) return -1;
    r->mask_bounce = bounce < 0 ? -1 : bounce;
    return 0;
}

int rc_renderer_mask(rc_renderer *r, uint8_t *mask, rc_error *err) {
    if (!r->mask) {
        memset(mask, 0, r->num_pixels);
        return 0;
    }
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_mask_read(r, mask, err);
#endif
    (void)err;
    memcpy(mask, r->mask, r->num_pixels);
    return 0;
}

void rc_mask_begin(rc_renderer *r) {
    if (r->mask_bounce < 0) return;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        rc_cuda_mask_clear(r);
        return;
    }
#endif
    memset(r->mask, 0, r->num_pixels);
}

void rc_mask_record(rc_renderer *r, uint32_t bounce) {
    if (r->mask_bounce != (int)bounce) return;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        rc_cuda_mask_record(r, bounce);
        return;
    }
#endif
    const long n = (long)r->n;
    RC_OMP(parallel for schedule(static))
    for (long i = 0; i < n; i++) {
        const rc_path *p = rc_stream_path(r, (size_t)i);
        if (rc_path_alive(p)) r->mask[p->pixel] = 1;
    }
}

void rc_mask_free(rc_renderer *r) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        rc_cuda_mask_free(r);
        return;
    }
#endif
    free(r->mask);
    r->mask = NULL;
}
