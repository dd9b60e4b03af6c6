/* film_peer.c: the backend choice of film_peer.h; only the CUDA backend shares its film with
 * other processes; the CPU backend adds the films of one process in host memory. */
#include "film_peer.h"
#include "renderer.h"

#include <stdint.h>

int rc_film_export(rc_renderer *r, void *handle) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_film_export(r, handle);
#endif
    (void)r;
    (void)handle;
    return -1;
}

int rc_film_add_peers(rc_renderer *r, const void *handles, int count, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_film_add_peers(r, handles, count, err);
#endif
    (void)r;
    (void)handles;
    (void)count;
    (void)err;
    return 0;
}

int rc_film_add_local(rc_renderer *dst, rc_renderer *src, rc_error *err) {
    if (dst->st.backend != src->st.backend || dst->num_pixels != src->num_pixels)
        return rc_fail(err, "films of different backends or sizes cannot be added");
#ifdef RC_HAVE_CUDA_BACKEND
    if (dst->st.backend == RC_BACKEND_CUDA) return rc_cuda_film_add_local(dst, src, err);
#endif
    /* unsigned, so that the sum wraps around as the film's additions do (film.h) */
    uint64_t *d = (uint64_t *)dst->cpu.accum;
    const uint64_t *s = (const uint64_t *)src->cpu.accum;
    const size_t n = (size_t)dst->num_pixels * 3;
    for (size_t i = 0; i < n; i++) d[i] += s[i];
    return 1;
}
