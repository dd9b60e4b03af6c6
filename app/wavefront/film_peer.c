/* film_peer.c: the backend choice of film_peer.h; only the CUDA backend shares its film. */
#include "film_peer.h"
#include "renderer.h"

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
