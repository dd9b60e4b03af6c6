/* film_peer.h: films added where they lie. The ranks of one machine GPU to GPU (film_peer.cu),
 * for the MPI render (app/mpi_run.c; CUDA backend only): every rank exports its film, rank 0
 * adds each peer's into its own while the peers wait, so only one film crosses to the host. And
 * the workers of one process (app/workers.c): worker 0 adds the others' films into its own. */
#ifndef RC_FILM_PEER_H
#define RC_FILM_PEER_H

#include "wavefront.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RC_FILM_HANDLE_BYTES 64  /* a cudaIpcMemHandle_t */
#define RC_FILM_MAX_PEERS    255 /* ranks on one machine beyond rank 0 */

/* This renderer's film as an IPC handle (RC_FILM_HANDLE_BYTES into `handle`); -1 when it
 * cannot be shared (the CPU backend, a build without CUDA, a device or process that does not
 * allow it). The film must stay alive until the peer is done with it. */
int rc_film_export(rc_renderer *r, void *handle);
/* film += the films behind `handles` (other processes' rc_film_export of films of the same
 * size), waiting for the sums. 1: done; 0: a peer's film cannot be mapped here (no peer
 * access between the devices), nothing added; -1: a CUDA error (err says which). */
int rc_film_add_peers(rc_renderer *r, const void *handles, int count, rc_error *err);

/* dst's film += src's, two renderers of this process with films of the same size (the workers
 * of --gpus, workers.h), waiting for the sum. The CPU backend adds in host memory; CUDA adds on
 * dst's device, reading src's film where it lies: on the same device, or on one that dst's
 * device reaches by peer access (cudaDeviceCanAccessPeer; enabled here once). 1: done; 0: not
 * possible here (no peer access between the devices), nothing added: add the host copies; -1:
 * a CUDA error (err). The calling thread's device is dst's afterwards. */
int rc_film_add_local(rc_renderer *dst, rc_renderer *src, rc_error *err);

/* The CUDA side of the three (film_peer.cu). */
int rc_cuda_film_export(rc_renderer *r, void *handle);
int rc_cuda_film_add_peers(rc_renderer *r, const void *handles, int count, rc_error *err);
int rc_cuda_film_add_local(rc_renderer *dst, rc_renderer *src, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RC_FILM_PEER_H */
