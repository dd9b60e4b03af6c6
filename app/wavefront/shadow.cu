/* shadow.cu: the shadow phase on the GPU, one thread per shadow stream slot (see shadow.c). */
#include "kernels.cuh"

#include <cuda_runtime.h>

/* shadow: trace every shadow ray of this bounce (any hit) and add the light of the unblocked
 * ones to their paths' samples. The length is on the device in every frame loop: the shadow
 * stream's compaction wrote it (d_kept), or shade for `none`, whose empty slots are skipped. */
template <int FULL, bool WIDE>
__global__ void rc_shadow_kernel(rc_scene_view sc, const rc_cuda_counts *counts, uint32_t bounce,
                                 uint32_t bound, const rc_shadow *shadows, const uint32_t *squeue,
                                 rc_vec3 *sample_rgb) {
    /* the classic instance: no alpha test compiled into the traversal (kernels.cuh) */
    rc_bvh_view bvh = sc.bvh;
    if (!FULL) bvh.masked = 0u;
    if (FULL < 2) bvh.inst.count = 0u;
    rc_kernel_bvh<WIDE>(bvh);
    uint32_t n = min(counts[bounce].shadow_stream, bound);
    RC_FOR_BLOCKS(base, n) {
        uint32_t i = base + threadIdx.x;
        if (i >= n) break;
        rc_shadow s = squeue ? shadows[squeue[i]] : shadows[i]; /* 16-byte loads */
        /* rc_shadow_trace on the instance's view of the BVH */
        if ((s.slot & RC_PATH_ALIVE) && !rc_bvh_occluded(&bvh, s.origin, s.dir, 0.0f, s.tmax))
            rc_shadow_light(&s, sample_rgb);
    }
}

extern "C" void rc_cuda_shadow(rc_renderer *r, uint32_t bounce) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = c->device_loop ? rc_cuda_bound(r) : r->sn;
    if (bound == 0) return;
    unsigned grid = (bound + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK;
    if (c->device_loop && grid > c->grid_cap) grid = c->grid_cap;
    RC_LAUNCH_BVH(c->view, rc_shadow_kernel, grid, RC_CUDA_BLOCK, (cudaStream_t)c->stream, c->view,
                  c->counts, bounce, bound, c->bufs.shadows, c->bufs.squeue, c->bufs.sample_rgb);
    rc_cuda_note(r, cudaGetLastError());
}
