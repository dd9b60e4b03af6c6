/* tail.cu: the tail kernel on the GPU (see tail.c): each thread takes one path of the stream
 * and runs its remaining bounces, extend, shade and its shadow ray, with the phases' per-path
 * functions in the phases' order; so every sample_rgb slot gets the same sums in the same order
 * and the image is bit-identical. The per-bounce counts go to the same counters. */
#include "kernels.cuh"

#include <cuda_runtime.h>

/* The stream of bounce `from` is thinned out over the grid as extend does (`spread`): one path
 * every `step` lanes, so a few hundred paths trace on every SM instead of packed into a few
 * warps. A block runs its paths' bounces in lock step: it counts each bounce's live, kept and
 * shadow rays with block votes and one atomic per counter, and stops once none of its paths
 * lives. (Measured on the H100: letting each thread run its path to the end and counting from
 * a bit per bounce at the end made the tail 5-8 % slower on 4 of the 5 shipped scenes.) */
__global__ void rc_tail_kernel(rc_scene_view sc, rc_shade_params sp, const uint32_t *d_sample,
                               rc_cuda_counts *counts, uint32_t from, uint32_t bound, int nee,
                               rc_path *paths, const uint32_t *queue, rc_vec3 *sample_rgb) {
    const uint32_t n = rc_stream_len(counts, from, bound, 1);
    const uint32_t threads = gridDim.x * blockDim.x;
    const uint32_t step = n > 0 && n < threads ? min(32u, threads / n) : 1u;
    sp.sample = *d_sample;
    RC_FOR_BLOCKS(base, n * step) { /* n * step <= threads when step > 1 */
        const uint32_t t = base + threadIdx.x, i = t / step;
        rc_path *slot = NULL;
        rc_path p;
        int live = 0;
        if (t % step == 0 && i < n) {
            slot = queue ? &paths[queue[i]] : &paths[i];
            live = rc_path_alive(slot); /* `none` keeps ended paths in its stream */
            if (live) p = *slot;        /* 16-byte loads (path.h) */
        }
        const int mine = live;
        /* the loop bound and the votes are the same for the whole block */
        for (uint32_t b = from; b < sp.max_depth && __syncthreads_or(live); b++) {
            int kept = 0, ray = 0;
            if (live) {
                rc_path_extend(&sc, &p);
                rc_shadow sh;
                sh.slot = 0u;
                kept = rc_path_shade(&sc, &sp, &p, sample_rgb, nee ? &sh : NULL);
                ray = (sh.slot & RC_PATH_ALIVE) != 0;
                if (ray) rc_shadow_trace(&sc, &sh, sample_rgb); /* the shadow phase of bounce b */
            }
            const uint32_t a = (uint32_t)__syncthreads_count(live);
            const uint32_t k = (uint32_t)__syncthreads_count(kept);
            const uint32_t s = (uint32_t)__syncthreads_count(ray);
            if (threadIdx.x == 0) {
                atomicAdd(&counts[b].alive, a);
                if (k) atomicAdd(&counts[b].kept, k);
                if (s) atomicAdd(&counts[b].shadows, s);
            }
            live = kept;
        }
        if (mine) *slot = p; /* the record as the phases would leave it */
    }
}

extern "C" void rc_cuda_tail(rc_renderer *r, uint32_t from) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = rc_cuda_bound(r);
    if (bound == 0) return;
    rc_tail_kernel<<<rc_cuda_grid(r), RC_CUDA_BLOCK, 0, (cudaStream_t)c->stream>>>(
        c->view, r->shade, c->d_sample, c->counts, from, bound, c->shadows != NULL, c->paths,
        c->queue, c->sample_rgb);
    rc_cuda_note(r, cudaGetLastError());
}
