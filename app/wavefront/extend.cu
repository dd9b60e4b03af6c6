/* extend.cu: the extend phase on the GPU, with ray fetch or one thread per stream slot (see
 * extend.c). */
#include "kernels.cuh"

#include <cuda_runtime.h>

/* Trace slot i's ray to its nearest hit and store it there. */
static __device__ __forceinline__ void rc_extend_slot(const rc_bvh_view &bvh, rc_path *paths,
                                                      const uint32_t *queue, uint32_t i) {
    rc_path *slot = queue ? &paths[queue[i]] : &paths[i];
    if (!rc_path_alive(slot)) return;
    const rc_path p = *slot; /* 16-byte loads (path.h) */
#ifdef RC_PROBES
    rc_bvh_view probed = bvh; /* the traversal's probes count at the path's bounce */
    probed.probe_bounce = rc_path_bounce(&p);
    const rc_hit h = rc_bvh_intersect(&probed, p.origin, p.dir, 0.0f, INFINITY);
#else
    const rc_hit h = rc_bvh_intersect(&bvh, p.origin, p.dir, 0.0f, INFINITY); /* rc_path_extend */
#endif
    slot->t = h.t;
    slot->prim = h.prim;
}

/* The resumable traversal of each layout (bvh.h, bvh_wide.h): its state, its stack, its start
 * and its step. */
template <bool WIDE> struct rc_layout_trav {
    typedef rc_trav state;
    typedef rc_trav_stack stack;
    static __device__ int begin(const rc_bvh_view *b, state *s, rc_vec3 o, rc_vec3 d) {
        return rc_trav_begin(b, s, o, d, 0.0f, INFINITY);
    }
    static __device__ int step(const rc_bvh_view *b, state *s, stack *k) {
        return rc_trav_step(b, s, k);
    }
};
template <> struct rc_layout_trav<true> {
    typedef rc_wtrav state;
    typedef rc_wtrav_stack stack;
    static __device__ int begin(const rc_bvh_view *b, state *s, rc_vec3 o, rc_vec3 d) {
        return rc_wtrav_begin(b, s, o, d, 0.0f, INFINITY);
    }
    static __device__ int step(const rc_bvh_view *b, state *s, stack *k) {
        return rc_wtrav_step(b, s, k);
    }
};

/* One nearest-hit ray of the stream for rc_fetch_rays: the same traversal as
 * rc_bvh_intersect's, split at node visits, so the hits are the same. */
template <bool WIDE> struct rc_extend_ray {
    typedef rc_layout_trav<WIDE> trav;
    rc_bvh_view *bvh; /* the thread's own copy: a probes build sets each ray's bounce in it */
    rc_path *paths;
    const uint32_t *queue;
    rc_path *slot;
    typename trav::state s;
    typename trav::stack *k; /* apart: an array inside would keep the record out of registers */
    __device__ int start(uint32_t i) {
        slot = queue ? &paths[queue[i]] : &paths[i];
        if (!rc_path_alive(slot)) return 0;
        const rc_path p = *slot;
#ifdef RC_PROBES
        bvh->probe_bounce = rc_path_bounce(&p);
        RC_PROBE_TRAV(bvh, RC_PROBE_EXTEND_RAY);
#endif
        if (trav::begin(bvh, &s, p.origin, p.dir)) return 1;
        finish();
        return 0;
    }
    __device__ int step() {
        return trav::step(bvh, &s, k);
    }
    __device__ void finish() {
        slot->t = s.hit.t;
        slot->prim = s.hit.prim;
    }
};

/* Blocks of RC_CUDA_BLOCK threads an SM that extend's register bound leaves room for: 5 (48
 * registers), 4 on sm_75, whose SMs run 1024 threads. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define RC_EXTEND_BLOCKS_PER_SM 4
#else
#define RC_EXTEND_BLOCKS_PER_SM 5
#endif
/* The wide traversal's instance: 3 blocks (up to 80 registers), which hold its eight box tests
 * without spilling (at 4 blocks, 64 registers, it spills); to be tuned on the GPU. */
#define RC_EXTEND_WIDE_BLOCKS_PER_SM 3

/* extend: trace the ray of every live path in the stream to its nearest hit. With `spread`, a
 * stream shorter than the grid's threads is thinned out over all of them, one ray every
 * threads / n lanes (at most 32): a compacted tail of a few hundred rays packed into a few
 * warps diverges inside each warp and runs on a few SMs, where the same rays scattered over the
 * GPU trace side by side (evidence: docs/design.md#tuning-evidence). A longer stream is walked
 * with ray fetch when `fetch` > 0 (rc_fetch_rays), else one thread per slot. Registers are
 * bounded for RC_EXTEND_BLOCKS_PER_SM blocks an SM: the traversal waits on memory and more
 * warps hide it (evidence: docs/renderer.md, --set fetch). */
template <int FULL, bool WIDE>
__global__ void __launch_bounds__(RC_CUDA_BLOCK,
                                  WIDE ? RC_EXTEND_WIDE_BLOCKS_PER_SM : RC_EXTEND_BLOCKS_PER_SM)
    rc_extend_kernel(rc_scene_view sc, rc_cuda_counts *counts, uint32_t bounce, uint32_t bound,
                     int device, int spread, uint32_t fetch, rc_path *paths,
                     const uint32_t *queue) {
    /* the classic instance: no alpha test compiled into the traversal (kernels.cuh) */
    rc_bvh_view bvh = sc.bvh;
    if (!FULL) bvh.masked = 0u;
    if (FULL < 2) bvh.inst.count = 0u;
    rc_kernel_bvh<WIDE>(bvh);
    /* ray fetch's resumable traversal is the one-level BVH's: instances trace a ray a thread */
    if (FULL == 2) fetch = 0u;
    uint32_t n = rc_stream_len(counts, bounce, bound, device);
    const uint32_t threads = gridDim.x * blockDim.x;
    if (spread && n > 0 && n < threads) {
        uint32_t step = min(32u, threads / n), t = blockIdx.x * blockDim.x + threadIdx.x;
        uint32_t i = t / step;
        if (t % step || i >= n) return;
        rc_extend_slot(bvh, paths, queue, i);
        return;
    }
    if (fetch > 0) {
        typename rc_layout_trav<WIDE>::stack k;
        rc_extend_ray<WIDE> ray;
        ray.k = &k;
        ray.bvh = &bvh;
        ray.paths = paths;
        ray.queue = queue;
        rc_fetch_rays(n, &counts[bounce].fetched, fetch, ray);
        return;
    }
    RC_FOR_BLOCKS(base, n) {
        uint32_t i = base + threadIdx.x;
        if (i >= n) break;
        rc_extend_slot(bvh, paths, queue, i);
    }
}

extern "C" void rc_cuda_extend(rc_renderer *r, uint32_t bounce) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = rc_cuda_bound(r);
    if (bound == 0) return;
    RC_LAUNCH_BVH(c->view, rc_extend_kernel, rc_cuda_grid(r), RC_CUDA_BLOCK,
                  (cudaStream_t)c->stream, c->view, c->counts, bounce, bound, c->device_loop,
                  r->st.tune.spread, r->st.tune.fetch, c->bufs.paths, c->bufs.queue);
    rc_cuda_note(r, cudaGetLastError());
}
