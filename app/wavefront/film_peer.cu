/* film_peer.cu: the film reduction of ranks that share one machine, GPU to GPU (film_peer.h).
 * Each rank exports its film with a CUDA IPC handle; rank 0 maps the others' films and adds
 * them into its own with one kernel per peer, reading over NVLink or PCIe peer access. */
#include "cuda_backend.h"
#include "film_peer.h"

#include <cuda_runtime.h>
#include <string.h>

static_assert(sizeof(cudaIpcMemHandle_t) == RC_FILM_HANDLE_BYTES, "IPC handle size");

/* film += peer, as unsigned 64-bit wrap-around (film.h): the order of the ranks does not matter. */
__global__ void rc_film_add_kernel(uint64_t *film, const uint64_t *peer, size_t n) {
    const size_t step = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
        film[i] += peer[i];
}

extern "C" int rc_cuda_film_export(rc_renderer *r, void *handle) {
    cudaIpcMemHandle_t h;
    if (cudaIpcGetMemHandle(&h, rc_cuda_of(r)->accum) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    memcpy(handle, &h, sizeof h);
    return 0;
}

/* Every peer's film mapped first, so that a peer this device cannot reach leaves the film as
 * it was (0); then one kernel per peer on the renderer's stream. */
extern "C" int rc_cuda_film_add_peers(rc_renderer *r, const void *handles, int count,
                                      rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    void *peers[RC_FILM_MAX_PEERS];
    if (count > RC_FILM_MAX_PEERS) return 0;
    int opened = 0;
    for (; opened < count; opened++) {
        cudaIpcMemHandle_t h;
        memcpy(&h, (const char *)handles + (size_t)opened * RC_FILM_HANDLE_BYTES, sizeof h);
        if (cudaIpcOpenMemHandle(&peers[opened], h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
            break;
    }
    const int mapped = opened == count;
    (void)cudaGetLastError();
    const unsigned grid = c->grid_cap ? c->grid_cap : 256u; /* the GPU full once, strided */
    const size_t n = (size_t)r->num_pixels * 3;
    for (int i = 0; mapped && i < count; i++) {
        rc_film_add_kernel<<<grid, RC_CUDA_BLOCK, 0, (cudaStream_t)c->stream>>>(
            (uint64_t *)c->accum, (const uint64_t *)peers[i], n);
        rc_cuda_note(r, cudaGetLastError());
    }
    int rc = mapped ? rc_cuda_sync(r, "adding the ranks' films", err) : 0;
    for (int i = 0; i < opened; i++) {
        cudaError_t e = cudaIpcCloseMemHandle(peers[i]);
        if (e != cudaSuccess && rc == 0)
            rc = rc_fail(err, "CUDA error closing a peer's film: %s", cudaGetErrorString(e));
    }
    (void)cudaGetLastError();
    return rc != 0 ? -1 : mapped;
}

/* Worker 0's device reads the other worker's film in place: the same device, or a peer. */
extern "C" int rc_cuda_film_add_local(rc_renderer *dst, rc_renderer *src, rc_error *err) {
    rc_cuda *c = rc_cuda_of(dst);
    const int from = rc_cuda_of(src)->device;
    if (rc_cuda_use(dst, err) != 0) return -1;
    if (from != c->device) {
        int can = 0;
        cudaError_t e = cudaDeviceCanAccessPeer(&can, c->device, from);
        if (e != cudaSuccess || !can) {
            (void)cudaGetLastError();
            return 0;
        }
        e = cudaDeviceEnablePeerAccess(from, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled) e = cudaSuccess;
        (void)cudaGetLastError();
        if (e != cudaSuccess)
            return rc_fail(err, "CUDA peer access from device %d to %d: %s", c->device, from,
                           cudaGetErrorString(e));
    }
    const unsigned grid = c->grid_cap ? c->grid_cap : 256u;
    rc_film_add_kernel<<<grid, RC_CUDA_BLOCK, 0, (cudaStream_t)c->stream>>>(
        (uint64_t *)c->accum, (const uint64_t *)rc_cuda_of(src)->accum,
        (size_t)dst->num_pixels * 3);
    rc_cuda_note(dst, cudaGetLastError());
    return rc_cuda_sync(dst, "adding the workers' films", err) != 0 ? -1 : 1;
}
