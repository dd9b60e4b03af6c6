/* extend.cu: the extend phase on the GPU, one thread per stream slot (see extend.c). */
#include "cuda.h"

#include <cuda_runtime.h>

/* extend: trace the ray of every live path in the stream to its nearest hit. */
__global__ void rc_extend_kernel(rc_scene_view sc, uint32_t n, rc_path *paths,
                                 const uint32_t *queue) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    rc_path *slot = queue ? &paths[queue[i]] : &paths[i];
    if (!rc_path_alive(slot)) return;
    rc_path p = *slot; /* 16-byte loads (path.h) */
    rc_path_extend(&sc, &p);
    slot->t = p.t;
    slot->prim = p.prim;
}

extern "C" void rc_cuda_extend(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t n = r->n;
    if (n == 0) return;
    rc_extend_kernel<<<(n + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK, RC_CUDA_BLOCK, 0,
                       (cudaStream_t)c->stream>>>(c->view, n, c->paths, c->queue);
    rc_cuda_note(r, cudaGetLastError());
}
