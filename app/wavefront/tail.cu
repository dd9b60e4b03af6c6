/* tail.cu: the tail kernel on the GPU (see tail.c): each thread takes one path of the stream
 * and runs its remaining bounces, extend, shade and its shadow ray, with the phases' per-path
 * functions in the phases' order; so every sample_rgb slot gets the same sums in the same order
 * and the image is bit-identical. The per-bounce counts go to the same counters. With shadow
 * rays and a short stream a second warp traces them (rc_tail_pairs), under the same order. */
#include "compact.h"
#include "kernels.cuh"

#include <cuda_runtime.h>

/* A warp's votes of one bounce into its counters: one atomic each, from lane 0. Every lane of
 * the warp calls it. */
static __device__ __forceinline__ void rc_tail_count(rc_cuda_counts *c, int live, int kept,
                                                     int ray) {
    const uint32_t a = (uint32_t)__popc(__ballot_sync(0xffffffffu, live));
    const uint32_t k = (uint32_t)__popc(__ballot_sync(0xffffffffu, kept));
    const uint32_t s = (uint32_t)__popc(__ballot_sync(0xffffffffu, ray));
    if ((threadIdx.x & 31u) == 0) {
        if (a) atomicAdd(&c->alive, a);
        if (k) atomicAdd(&c->kept, k);
        if (s) atomicAdd(&c->shadows, s);
    }
}

/* The stream of bounce `from` is thinned out over the grid as extend does (`spread`): one path
 * every `step` lanes, so a few hundred paths trace on every SM instead of packed into a few
 * warps. A warp runs its paths' bounces in lock step: it counts each bounce's live, kept and
 * shadow rays with warp votes and one atomic per counter, and stops once none of its paths
 * lives. Warps do not wait for each other: a bounce's slowest path holds up its own warp, not
 * its block. Faster than lock step by block, and than each thread running its path to the end
 * (evidence: docs/design.md#tuning-evidence). */
static __device__ __forceinline__ void
rc_tail_warps(const rc_scene_view &sc, const rc_shade_params &sp, rc_cuda_counts *counts,
              uint32_t from, uint32_t n, int nee, rc_path *paths, const uint32_t *queue,
              rc_vec3 *sample_rgb, int regen) {
    const uint32_t threads = gridDim.x * blockDim.x;
    const uint32_t step = n > 0 && n < threads ? min(32u, threads / n) : 1u;
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
        /* regen: the stream's paths are at bounces of their own, each ends by itself within
           max_depth; only their number at `from` is counted (the next frame's tail plan) */
        if (regen) rc_tail_count(&counts[from], live, 0, 0);
        const uint32_t b0 = regen ? 0u : from;
        /* the loop bound and the votes are the same for the whole warp */
        for (uint32_t b = b0; b < sp.max_depth && __any_sync(0xffffffffu, live); b++) {
            int kept = 0, ray = 0;
            if (live) {
                rc_path_extend(&sc, &p);
                rc_shadow sh;
                sh.slot = 0u;
                kept = rc_path_shade(&sc, &sp, &p, sample_rgb, nee ? &sh : NULL);
                ray = (sh.slot & RC_PATH_ALIVE) != 0;
                if (ray) rc_shadow_trace(&sc, &sh, sample_rgb); /* the shadow phase of bounce b */
            }
            if (!regen) rc_tail_count(&counts[b], live, kept, ray);
            live = kept;
        }
        if (mine) *slot = p; /* the record as the phases would leave it */
    }
}

/* regen: the frame's paths not yet issued, one at a time from a counter (base + claims), each
 * traced to its end by one thread with the phases' per-path functions in their order, as the
 * persistent megakernel does. */
static __device__ void rc_tail_claim(const rc_scene_view &sc, const rc_shade_params &sp,
                                     const rc_camera *cam, uint32_t width, uint32_t height,
                                     uint32_t total, uint32_t base, uint32_t *claims, int nee,
                                     rc_vec3 *sample_rgb) {
    const uint32_t np = width * height;
    for (;;) {
        const uint32_t g = base + atomicAdd(claims, 1u);
        if (g >= total) return;
        rc_path p;
        rc_path_generate(cam, width, height, g % np, sp.sample, g / np, sp.seed, &p);
        sample_rgb[g] = rc_v3s(0.0f);
        for (int live = 1; live;) {
            rc_path_extend(&sc, &p);
            rc_shadow sh;
            sh.slot = 0u;
            live = rc_path_shade(&sc, &sp, &p, sample_rgb, nee ? &sh : NULL);
            if (sh.slot & RC_PATH_ALIVE) rc_shadow_trace(&sc, &sh, sample_rgb);
        }
    }
}

/* With next-event estimation a bounce traces two rays one after the other: the path's own
 * (extend) and, after shade, its shadow ray. They do not depend on each other across bounces:
 * bounce b's ray can be traced while bounce b - 1's shadow ray is. Here warps work in pairs:
 * the even warp of a pair holds the paths and runs extend and shade, the odd one tests the
 * shadow ray its partner lane handed over in shared memory, during the next bounce's extend.
 * The light a shadow ray carries is still added before the next shade adds anything, so every
 * sample_rgb slot gets the same sums in the same order (the image is bit-identical). A pair
 * meets at two named barriers a bounce; pairs do not wait for each other. */
#define RC_TAIL_SLOTS (RC_CUDA_BLOCK / 2) /* paths a block holds at once: 32 per warp pair */
static_assert(RC_CUDA_BLOCK % 64 == 0 && RC_CUDA_BLOCK / 64 <= 15,
              "whole pairs of warps, each with a named barrier of its own (1 .. 15)");

static __device__ __forceinline__ int rc_pair_any(int pred, unsigned id) {
    int r;
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\t"
                 "bar.red.or.pred q, %2, 64, p;\n\tselp.s32 %0, 1, 0, q;\n\t}"
                 : "=r"(r)
                 : "r"(pred), "r"(id)
                 : "memory");
    return r;
}
static __device__ __forceinline__ void rc_pair_sync(unsigned id) {
    asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory");
}

static __device__ __forceinline__ void rc_tail_pairs(const rc_scene_view &sc,
                                                     const rc_shade_params &sp,
                                                     rc_cuda_counts *counts, uint32_t from,
                                                     uint32_t n, rc_path *paths,
                                                     const uint32_t *queue, rc_vec3 *sample_rgb) {
    __shared__ rc_shadow s_ray[RC_TAIL_SLOTS]; /* a path's shadow ray, handed to its tracer */
    __shared__ int s_pending[RC_TAIL_SLOTS];   /* s_ray holds one to test */
    __shared__ int s_blocked[RC_TAIL_SLOTS];   /* the tracer's answer */
    const uint32_t slots = gridDim.x * RC_TAIL_SLOTS;
    const uint32_t step = n > 0 && n < slots ? min(32u, slots / n) : 1u;
    const uint32_t warp = threadIdx.x >> 5;
    const int tracer = warp & 1;                                /* odd warps test shadow rays */
    const uint32_t k = (warp >> 1) * 32u + (threadIdx.x & 31u); /* the pair's slot */
    const unsigned id = 1u + (warp >> 1);                       /* the pair's named barrier */
    for (uint32_t base = blockIdx.x * RC_TAIL_SLOTS; base < n * step; base += slots) {
        const uint32_t t = base + k, i = t / step;
        rc_path *slot = NULL;
        rc_path p;
        int live = 0, pending = 0;
        rc_shadow held; /* the path's copy of its pending shadow ray */
        held.slot = 0u;
        if (!tracer) {
            if (t % step == 0 && i < n) {
                slot = queue ? &paths[queue[i]] : &paths[i];
                live = rc_path_alive(slot);
                if (live) p = *slot;
            }
            s_pending[k] = 0;
        }
        const int mine = live;
        /* the pair goes on while a path lives or a shadow ray waits (the last bounce's) */
        for (uint32_t b = from; rc_pair_any(live || pending, id); b++) {
            if (tracer) {
                if (s_pending[k]) {
                    const rc_shadow sh = s_ray[k];
                    s_blocked[k] = rc_bvh_occluded(&sc.bvh, sh.origin, sh.dir, 0.0f, sh.tmax);
                }
            } else if (live) {
                rc_path_extend(&sc, &p);
            }
            rc_pair_sync(id);
            if (tracer) continue;
            /* the shadow phase of bounce b - 1, then shade of bounce b */
            if (pending && !s_blocked[k]) rc_shadow_light(&held, sample_rgb);
            int kept = 0, ray = 0;
            if (live) {
                rc_shadow sh;
                sh.slot = 0u;
                kept = rc_path_shade(&sc, &sp, &p, sample_rgb, &sh);
                ray = (sh.slot & RC_PATH_ALIVE) != 0;
                if (ray) {
                    s_ray[k] = sh;
                    held = sh;
                }
            }
            s_pending[k] = ray;
            pending = ray;
            if (b < sp.max_depth) rc_tail_count(&counts[b], live, kept, ray);
            live = kept;
        }
        if (mine) *slot = p;
    }
}

/* The two kernels: each thread of a warp on a path (rc_tail_warps), or warps in pairs with
 * next-event estimation (rc_tail_pairs). Two kernels, so that each runs at its own register
 * count; the host picks one (evidence: docs/design.md#tuning-evidence). */
/* The frame's paths the tail claims (regen; total 0: none): after a compacting refill from
 * counts[from].issued on (claims[1] counts them), after `none`'s in-place refill from the
 * counter those refills claimed from (claims[0]). */
typedef struct rc_tail_regen {
    const rc_camera *cam;
    uint32_t width, height, total;
    int in_place;
    uint32_t *claims;
} rc_tail_regen;

/* REGEN: a kernel of its own, since the claim loop's registers would lower the waves' tail's
 * occupancy even when it never runs. */
template <bool REGEN, int FULL, bool WIDE>
__global__ void rc_tail_warps_kernel(rc_scene_view sc, rc_shade_params sp, const uint32_t *d_sample,
                                     rc_cuda_counts *counts, uint32_t from, uint32_t bound, int nee,
                                     rc_path *paths, const uint32_t *queue, rc_vec3 *sample_rgb,
                                     rc_tail_regen rg) {
    rc_kernel_view<FULL>(sc);
    rc_kernel_bvh<WIDE>(sc.bvh);
    sp.sample = *d_sample;
    rc_tail_warps(sc, sp, counts, from, rc_stream_len(counts, from, bound, 1), nee, paths, queue,
                  sample_rgb, REGEN);
    if (REGEN)
        rc_tail_claim(sc, sp, rg.cam, rg.width, rg.height, rg.total,
                      rg.in_place ? 0u : counts[from].issued, rg.claims + (rg.in_place ? 0 : 1),
                      nee, sample_rgb);
}
template <int FULL, bool WIDE>
__global__ void rc_tail_pairs_kernel(rc_scene_view sc, rc_shade_params sp, const uint32_t *d_sample,
                                     rc_cuda_counts *counts, uint32_t from, uint32_t bound,
                                     rc_path *paths, const uint32_t *queue, rc_vec3 *sample_rgb) {
    rc_kernel_view<FULL>(sc);
    rc_kernel_bvh<WIDE>(sc.bvh);
    sp.sample = *d_sample;
    rc_tail_pairs(sc, sp, counts, from, rc_stream_len(counts, from, bound, 1), paths, queue,
                  sample_rgb);
}

/* The stream the tail will start on, from the frame before: the live paths at the bounce after
 * the last compaction before `from` (the compaction leaves only those), or the whole wave when
 * none runs before it (`none`, auto's skipped bounces). Either kernel is right at any length. */
static uint32_t expected_stream(rc_renderer *r, uint32_t from, uint32_t bound) {
    uint32_t b = from < RC_MAX_DEPTH ? from : RC_MAX_DEPTH - 1;
    while (b > 0 && rc_compact_as_none(&r->comp, b - 1)) b--;
    return b == 0 || !r->tail_known ? bound : r->tail_live[b];
}

/* Pairs where a scene with shadow rays starts its tail with at most one path per pair of
 * warps of a full grid: there the tail is a chain of latency, and a
 * second warp shortens it. Longer streams (a default tail's start, `none`'s whole wave) keep
 * every thread on a path, as pairs hold half as many at once (evidence:
 * docs/design.md#tuning-evidence). */
extern "C" int rc_cuda_tail(rc_renderer *r, uint32_t from) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = rc_cuda_bound(r);
    if (bound == 0) return RC_TAIL_THREADS;
    const unsigned grid = rc_cuda_grid(r);
    cudaStream_t s = (cudaStream_t)c->stream;
    const int nee = r->nee;
    const int kind =
        !r->regen && nee && expected_stream(r, from, bound) <= grid * (RC_TAIL_SLOTS / 32u)
            ? RC_TAIL_PAIRS
            : RC_TAIL_THREADS;
    rc_tail_regen rg = {c->d_camera,
                        r->st.width,
                        r->st.height,
                        r->regen ? rc_frame_paths(r) : 0u,
                        r->comp.input == RC_COMPACT_NOTHING,
                        c->regen};
    const bool wide = c->view.bvh.layout == RC_BVH_WIDE;
    const int level = rc_cuda_level(c->view);
/* the warps kernel's instance for (REGEN, FULL) and the view's layout */
#define RC_TAIL_WARPS(REGEN, FULL)                                                                 \
    do {                                                                                           \
        if (wide)                                                                                  \
            rc_tail_warps_kernel<REGEN, FULL, true><<<grid, RC_CUDA_BLOCK, 0, s>>>(                \
                c->view, r->shade, c->d_sample, c->counts, from, bound, nee, c->bufs.paths,        \
                c->bufs.queue, c->bufs.sample_rgb, rg);                                            \
        else                                                                                       \
            rc_tail_warps_kernel<REGEN, FULL, false><<<grid, RC_CUDA_BLOCK, 0, s>>>(               \
                c->view, r->shade, c->d_sample, c->counts, from, bound, nee, c->bufs.paths,        \
                c->bufs.queue, c->bufs.sample_rgb, rg);                                            \
    } while (0)
    if (kind == RC_TAIL_PAIRS)
        RC_LAUNCH_BVH(c->view, rc_tail_pairs_kernel, grid, RC_CUDA_BLOCK, s, c->view, r->shade,
                      c->d_sample, c->counts, from, bound, c->bufs.paths, c->bufs.queue,
                      c->bufs.sample_rgb);
    else if (rg.total && level == 2)
        RC_TAIL_WARPS(true, 2);
    else if (rg.total && level == 1)
        RC_TAIL_WARPS(true, 1);
    else if (rg.total)
        RC_TAIL_WARPS(true, 0);
    else if (level == 2)
        RC_TAIL_WARPS(false, 2);
    else if (level == 1)
        RC_TAIL_WARPS(false, 1);
    else
        RC_TAIL_WARPS(false, 0);
#undef RC_TAIL_WARPS
    rc_cuda_note(r, cudaGetLastError());
    return kind;
}
