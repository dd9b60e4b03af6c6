/* probe.h: divergence probes, the active lanes per warp at stated points of the per-path code,
 * counted on the GPU by the kernels themselves (Laine, Karras & Aila 2013, "Megakernels
 * considered harmful", sec. 1 and 5: the SIMD utilisation a wavefront's compaction and its
 * split of shading by material buy back from the megakernel).
 *
 * Compiled only in a build configured with -DRAYCOMPACT_PROBES=ON (RC_PROBES); elsewhere every
 * RC_PROBE is nothing and rc_bvh_view has no probe fields. In such a build they count only
 * where the view's `probe` is set (settings.probes, wavefront.h): the CUDA kernels, both the
 * wavefront's and the megakernels'; the CPU backend has no warps and counts nothing.
 *
 * At a probe the lanes of a warp that execute it together (__activemask) are split by point
 * (lanes at one call site with different points, e.g. the material classes, run the branch
 * each point stands for one after the other) and then by the bounce of their path. For each
 * (point, bounce) bin the warp adds:
 *   lanes: the lanes of that point and bounce (an execution of the point by one path);
 *   share: the warp instructions those lanes issued, in units of 2^-24, an issue shared out over
 *          the bounces of its lanes (lanes b / lanes of the point: 1 for a warp of one bounce,
 *          as every wavefront phase's are; the persistent megakernel mixes them).
 * lanes / share is the bin's active lanes per issue (1 .. 32), the measure Nsight Compute's
 * smsp__thread_inst_executed_per_inst_executed.ratio takes over a whole kernel. The last bin
 * of each point (RC_PROBE_ALL) adds every issue whole, its bounces together. */
#ifndef RC_PROBE_H
#define RC_PROBE_H

#include "rc_hd.h"

/* The probe points. */
typedef enum rc_probe_point {
    RC_PROBE_EXTEND_RAY = 0,  /* a nearest-hit traversal starts (rc_bvh_intersect, ray fetch) */
    RC_PROBE_EXTEND_NODE = 1, /* one node visit of a nearest-hit traversal (rc_trav_step,
                                 rc_wtrav_step, the instances' top level) */
    RC_PROBE_SHADE = 2,       /* rc_path_shade starts: a live path after extend */
    RC_PROBE_SCATTER = 3,     /* a path that scatters: the sampling of its BSDF starts */
    RC_PROBE_CLASS = 4,       /* at the same place, point RC_PROBE_CLASS + the material model
                                 (material.h's RC_MAT_*): the class --sort-materials groups */
    RC_PROBE_POINTS = RC_PROBE_CLASS + 6
} rc_probe_point;
#define RC_PROBE_CLASSES (RC_PROBE_POINTS - RC_PROBE_CLASS) /* = RC_MAT_MODELS (path.h) */

#define RC_PROBE_BOUNCES 32               /* bins by bounce: 0 .. 30, then 31 and deeper */
#define RC_PROBE_ALL     RC_PROBE_BOUNCES /* the bin of all bounces */
#define RC_PROBE_SHIFT   24               /* share: fixed point, 2^24 a warp issue */
#define RC_PROBE_COPIES  8                /* the device's copies, by SM, against contention */

typedef struct rc_probe_bin {
    unsigned long long lanes, share;
} rc_probe_bin;

/* Every point's bins: what the device holds RC_PROBE_COPIES times and the host sums. */
typedef struct rc_probe_counts {
    rc_probe_bin bin[RC_PROBE_POINTS][RC_PROBE_BOUNCES + 1];
} rc_probe_counts;

/* to += from, bin by bin. */
RC_FN void rc_probe_counts_add(rc_probe_counts *to, const rc_probe_counts *from) {
    for (int p = 0; p < RC_PROBE_POINTS; p++)
        for (int b = 0; b <= RC_PROBE_BOUNCES; b++) {
            to->bin[p][b].lanes += from->bin[p][b].lanes;
            to->bin[p][b].share += from->bin[p][b].share;
        }
}

/* The class points' bins of one bounce (or RC_PROBE_ALL) together: the fill of the BSDF
 * sampling branches as the warps ran them. */
RC_FN rc_probe_bin rc_probe_classes(const rc_probe_counts *p, int b) {
    rc_probe_bin sum = {0, 0};
    for (int c = 0; c < RC_PROBE_CLASSES; c++) {
        sum.lanes += p->bin[RC_PROBE_CLASS + c][b].lanes;
        sum.share += p->bin[RC_PROBE_CLASS + c][b].share;
    }
    return sum;
}

/* Active lanes per issue of a bin (0 for a bin no lane reached). */
RC_FN double rc_probe_fill(const rc_probe_bin *b) {
    return b->share ? (double)b->lanes * (double)(1ull << RC_PROBE_SHIFT) / (double)b->share : 0.0;
}
/* Its warp issues (share in whole issues). */
RC_FN double rc_probe_issues(const rc_probe_bin *b) {
    return (double)b->share / (double)(1ull << RC_PROBE_SHIFT);
}

/* The counts of the last `window_ms` of frames, as a live view shows them (the viewer's F3):
 * `shown` holds the last closed window's frames; until the first window closes it follows the
 * frames counted so far, frame by frame, so the view has counts from the first frame on. */
typedef struct rc_probe_window {
    rc_probe_counts shown, acc; /* acc: the frames since t0, the window that is filling */
    double t0;                  /* where the filling window began; < 0: no frame yet */
    int closed;                 /* windows closed since rc_probe_window_reset */
} rc_probe_window;

RC_FN void rc_probe_counts_zero(rc_probe_counts *c) {
    for (int p = 0; p < RC_PROBE_POINTS; p++)
        for (int b = 0; b <= RC_PROBE_BOUNCES; b++) c->bin[p][b].lanes = c->bin[p][b].share = 0;
}

RC_FN void rc_probe_window_reset(rc_probe_window *w) {
    rc_probe_counts_zero(&w->shown);
    rc_probe_counts_zero(&w->acc);
    w->t0 = -1.0;
    w->closed = 0;
}

/* One frame's counts, ended at now_ms: the window it starts (the first frame) or fills, closed
 * once it spans window_ms. */
RC_FN void rc_probe_window_add(rc_probe_window *w, const rc_probe_counts *frame, double now_ms,
                               double window_ms) {
    if (w->t0 < 0.0) w->t0 = now_ms;
    rc_probe_counts_add(&w->acc, frame);
    if (now_ms - w->t0 >= window_ms) {
        w->shown = w->acc;
        rc_probe_counts_zero(&w->acc);
        w->t0 = now_ms;
        w->closed++;
    } else if (w->closed == 0) {
        w->shown = w->acc;
    }
}

#if defined(RC_PROBES) && defined(__CUDA_ARCH__)
/* Count this lane at `point` for a path at `bounce` into sink (NULL: nothing). Every lane that
 * reaches the call takes part: __activemask is the set that executes it together. */
static __device__ __forceinline__ void rc_probe_hit(rc_probe_counts *sink, uint32_t point,
                                                    uint32_t bounce) {
    if (!sink) return;
    const unsigned mask = __activemask();
    const uint32_t b = bounce < RC_PROBE_BOUNCES ? bounce : RC_PROBE_BOUNCES - 1u;
    const unsigned exec = __match_any_sync(mask, point);
    const unsigned group = __match_any_sync(mask, point * (RC_PROBE_BOUNCES + 1u) + b);
    unsigned lane, smid; /* %laneid, not threadIdx.x: the bvh megakernel's blocks are 8 x 8 */
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    rc_probe_bin *bins = sink[smid % RC_PROBE_COPIES].bin[point];
    const unsigned long long in_group = (unsigned long long)__popc(group);
    if ((int)lane == __ffs(group) - 1) {
        atomicAdd(&bins[b].lanes, in_group);
        atomicAdd(&bins[b].share, (in_group << RC_PROBE_SHIFT) / (unsigned)__popc(exec));
    }
    if ((int)lane == __ffs(exec) - 1) {
        atomicAdd(&bins[RC_PROBE_ALL].lanes, (unsigned long long)__popc(exec));
        atomicAdd(&bins[RC_PROBE_ALL].share, 1ull << RC_PROBE_SHIFT);
    }
}
#define RC_PROBE(bvh, point, bounce) rc_probe_hit((bvh)->probe, (uint32_t)(point), (bounce))
#else
#define RC_PROBE(bvh, point, bounce) ((void)0)
#endif
/* A probe in a traversal: the bounce is the one the view was given for the ray (probe_bounce). */
#define RC_PROBE_TRAV(bvh, point) RC_PROBE(bvh, point, (bvh)->probe_bounce)

#endif /* RC_PROBE_H */
