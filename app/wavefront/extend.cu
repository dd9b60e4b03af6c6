/* extend.cu: the extend phase on the GPU, one thread per stream slot (see extend.c). */
#include "kernels.cuh"

#include <cuda_runtime.h>

/* extend: trace the ray of every live path in the stream to its nearest hit. With `spread`, a
 * stream shorter than the grid's threads is thinned out over all of them, one ray every
 * threads / n lanes (at most 32): a compacted tail of a few hundred rays packed into a few
 * warps diverges inside each warp and runs on a few SMs, where the same rays scattered over the
 * GPU trace side by side (evidence: docs/design.md#tuning-evidence). */
__global__ void rc_extend_kernel(rc_scene_view sc, const rc_cuda_counts *counts, uint32_t bounce,
                                 uint32_t bound, int device, int spread, rc_path *paths,
                                 const uint32_t *queue) {
    uint32_t n = rc_stream_len(counts, bounce, bound, device);
    const uint32_t threads = gridDim.x * blockDim.x;
    if (spread && n > 0 && n < threads) {
        uint32_t step = min(32u, threads / n), t = blockIdx.x * blockDim.x + threadIdx.x;
        uint32_t i = t / step;
        if (t % step || i >= n) return;
        rc_path *slot = queue ? &paths[queue[i]] : &paths[i];
        if (!rc_path_alive(slot)) return;
        rc_path p = *slot;
        rc_path_extend(&sc, &p);
        slot->t = p.t;
        slot->prim = p.prim;
        return;
    }
    RC_FOR_BLOCKS(base, n) {
        uint32_t i = base + threadIdx.x;
        if (i >= n) break;
        rc_path *slot = queue ? &paths[queue[i]] : &paths[i];
        if (!rc_path_alive(slot)) continue;
        rc_path p = *slot; /* 16-byte loads (path.h) */
        rc_path_extend(&sc, &p);
        slot->t = p.t;
        slot->prim = p.prim;
    }
}

extern "C" void rc_cuda_extend(rc_renderer *r, uint32_t bounce) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = rc_cuda_bound(r);
    if (bound == 0) return;
    rc_extend_kernel<<<rc_cuda_grid(r), RC_CUDA_BLOCK, 0, (cudaStream_t)c->stream>>>(
        c->view, c->counts, bounce, bound, c->device_loop, r->st.tune.spread, c->bufs.paths,
        c->bufs.queue);
    rc_cuda_note(r, cudaGetLastError());
}
