/* sort.cu: --sort-materials on the GPU: the key of every stream slot, the material kind of its
 * path's hit (rc_material_key, path.h); sort.c partitions the stream by it with the library. */
#include "kernels.cuh"

#include <cuda_runtime.h>

/* In one instance per kernels.cuh level, so that only the instanced scenes' finds an
 * instanced primitive's material (rc_bvh_prim). */
template <int FULL>
__global__ void rc_classify_kernel(rc_scene_view sc, uint32_t bounce, uint32_t bound, int device,
                                   const rc_path *paths, const uint32_t *queue, uint8_t *keys,
                                   const rc_cuda_counts *counts) {
    /* the partition's length (its d_n), not the shortened one of a bounce after the last
       path ended: every slot it reads has a key */
    rc_kernel_view<FULL>(sc);
    uint32_t n = device ? min(counts[bounce].stream, bound) : bound;
    (void)bounce;
    RC_FOR_BLOCKS(base, n) {
        uint32_t i = base + threadIdx.x;
        if (i < n) keys[i] = rc_material_key(&sc, queue ? &paths[queue[i]] : &paths[i]);
    }
}

extern "C" void rc_cuda_classify(rc_renderer *r, uint32_t bounce) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = rc_cuda_bound(r);
    if (bound == 0) return;
    RC_LAUNCH(c->view, rc_classify_kernel, rc_cuda_grid(r), RC_CUDA_BLOCK, (cudaStream_t)c->stream,
              c->view, bounce, bound, c->device_loop, c->bufs.paths, c->bufs.queue, c->bufs.keys,
              c->counts);
    rc_cuda_note(r, cudaGetLastError());
}
