/* kernels.cuh: what the wavefront kernels share: the length of a bounce's stream as a kernel
 * finds it, and the loop of a thread block over the stream. */
#ifndef RC_KERNELS_CUH
#define RC_KERNELS_CUH

#include "cuda.h"

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

/* First slot of this block's pass `base` over a stream: blocks stride by the grid, so a launch
 * of grid_cap blocks covers any length and a nearly empty stream costs one short wave. The
 * loop bound is the same for every thread of a block (warp and block votes stay legal). */
#define RC_FOR_BLOCKS(base, n)                                                                     \
    for (uint32_t base = blockIdx.x * blockDim.x; base < (n); base += gridDim.x * blockDim.x)

#endif /* RC_KERNELS_CUH */
