/* kernels.cuh: what the wavefront kernels share: the length of a bounce's stream as a kernel
 * finds it, the loop of a thread block over the stream, and the ray fetch of the tracing
 * phases. */
#ifndef RC_KERNELS_CUH
#define RC_KERNELS_CUH

#include "cuda_backend.h"

/* The stream length of `bounce`. Device loops (pbrt-v4's ForAllQueued): the length sits in
 * counts, written by the launch before; past a bounce whose shade kept no path and whose refill
 * (regen) added none the stream is empty (this ends `none`, whose stream never shrinks). Host loop:
 * the host sized the launch with the length it read back. */
static __device__ __forceinline__ uint32_t rc_stream_len(const rc_cuda_counts *counts,
                                                         uint32_t bounce, uint32_t bound,
                                                         int device) {
    if (!device) return bound;
    uint32_t n = min(counts[bounce].stream, bound);
    if (bounce > 0 && counts[bounce - 1].kept == 0 && counts[bounce - 1].refilled == 0) n = 0;
    return n;
}

/* Each kernel that runs per-ray code comes in three instances, its FULL level: 0 for the
 * classic scenes, in which rc_kernel_view makes scene_view.h's RC_FEAT_* bits and the alpha test
 * the constant 0 so that the code behind them compiles away (the classic scenes keep the
 * registers and instructions they had); 1 for scenes that use what came after the RTIOW models
 * (RC_FEAT_* bits, alpha-masked primitives); 2 for scenes with instances as well (inst.h), whose
 * traversal levels 0 and 1 do not compile (bvh.inst.count the constant 0), so that the scenes
 * without instances keep the registers they had too. The host picks the level with
 * rc_cuda_level; RC_LAUNCH launches it. */
template <int FULL> static __device__ __forceinline__ void rc_kernel_view(rc_scene_view &sc) {
    if (!FULL) {
        sc.features = 0u;
        sc.bvh.masked = 0u;
    }
    if (FULL < 2) sc.bvh.inst.count = 0u;
}
static inline bool rc_cuda_full(const rc_scene_view &v) {
    return v.features != 0u || v.bvh.masked != 0u;
}
static inline int rc_cuda_level(const rc_scene_view &v) {
    return v.bvh.inst.count != 0u ? 2 : rc_cuda_full(v) ? 1 : 0;
}
/* The tracing phases (extend, shadow) come in one instance per BVH layout as well: WIDE fixes
 * the view's layout, so each instance compiles one traversal (bvh.h's rc_bvh_intersect and
 * rc_bvh_occluded branch on it). RC_LAUNCH_BVH picks the instance from the view. */
template <bool WIDE> static __device__ __forceinline__ void rc_kernel_bvh(rc_bvh_view &bvh) {
    bvh.layout = WIDE ? RC_BVH_WIDE : RC_BVH_BINARY;
}
#define RC_LAUNCH_BVH(view, kernel, grid, block, stream, ...)                                      \
    do {                                                                                           \
        const bool rc_wide_ = (view).bvh.layout == RC_BVH_WIDE;                                    \
        const int rc_level_ = rc_cuda_level(view);                                                 \
        if (rc_level_ == 2 && rc_wide_)                                                            \
            kernel<2, true><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                        \
        else if (rc_level_ == 2)                                                                   \
            kernel<2, false><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                       \
        else if (rc_level_ == 1 && rc_wide_)                                                       \
            kernel<1, true><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                        \
        else if (rc_level_ == 1)                                                                   \
            kernel<1, false><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                       \
        else if (rc_wide_)                                                                         \
            kernel<0, true><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                        \
        else                                                                                       \
            kernel<0, false><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                       \
    } while (0)
#define RC_LAUNCH(view, kernel, grid, block, stream, ...)                                          \
    do {                                                                                           \
        const int rc_level_ = rc_cuda_level(view);                                                 \
        if (rc_level_ == 2)                                                                        \
            kernel<2><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                              \
        else if (rc_level_ == 1)                                                                   \
            kernel<1><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                              \
        else                                                                                       \
            kernel<0><<<(grid), (block), 0, (stream)>>>(__VA_ARGS__);                              \
    } while (0)

/* First slot of this block's pass `base` over a stream: blocks stride by the grid, so a launch
 * of grid_cap blocks covers any length and a nearly empty stream costs one short wave. The
 * loop bound is the same for every thread of a block (warp and block votes stay legal). */
#define RC_FOR_BLOCKS(base, n)                                                                     \
    for (uint32_t base = blockIdx.x * blockDim.x; base < (n); base += gridDim.x * blockDim.x)

/* Ray fetch (Aila & Laine, "Understanding the Efficiency of Ray Traversal on GPUs", HPG 2009:
 * persistent threads, and the replacement of ended rays of their 2012 addendum): each lane of a
 * resident grid takes its next stream slot from a counter as soon as its ray is done, instead of
 * idling until the warp's slowest ray ends. A lane leaves its traversal between two node visits
 * once fewer than `below` lanes of its warp still trace, so the lanes come back to the fetch
 * together; those that fetch take consecutive slots with one atomic. `Ray` is a traversal of
 * extend.cu or shadow.cu: start(i) begins slot i's (0: nothing to trace, or already done), step()
 * visits a node (0: done), finish() stores the result. */
template <class Ray>
static __device__ __forceinline__ void rc_fetch_rays(uint32_t n, uint32_t *next, uint32_t below,
                                                     Ray &ray) {
    const unsigned lane = threadIdx.x & 31u;
    int busy = 0;
    for (;;) {
        if (!busy) {
            const unsigned idle = __activemask();
            const int leader = __ffs(idle) - 1;
            uint32_t base = 0;
            if ((int)lane == leader) base = atomicAdd(next, (uint32_t)__popc(idle));
            const uint32_t i = __shfl_sync(idle, base, leader) + __popc(idle & ((1u << lane) - 1u));
            if (i >= n) return;
            busy = ray.start(i);
            if (!busy) continue;
        }
        while ((busy = ray.step()) != 0 && (uint32_t)__popc(__activemask()) >= below) {
        }
        if (!busy) ray.finish();
    }
}

#endif /* RC_KERNELS_CUH */
