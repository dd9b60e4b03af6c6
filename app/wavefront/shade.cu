/* shade.cu: the shade phase on the GPU, one thread per stream slot (see shade.c). Besides
 * shading it writes the compaction's input and counts live and kept paths per block. */
#include "compact.h"
#include "kernels.cuh"

#include <cuda_runtime.h>
#include <stddef.h>

/* Append the stream slots of this warp's ended paths to the removal list with one atomic
 * per warp; every lane of the warp must call it. */
__device__ void rc_append_removed(int ended, uint32_t slot, uint32_t *removed, uint32_t *count) {
    unsigned mask = __ballot_sync(0xffffffffu, ended);
    if (!mask) return;
    unsigned lane = threadIdx.x & 31u;
    int leader = __ffs(mask) - 1;
    uint32_t base = 0;
    if ((int)lane == leader) base = atomicAdd(count, (uint32_t)__popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (ended) removed[base + __popc(mask & ((1u << lane) - 1u))] = slot;
}

static_assert(sizeof(rc_path) == 64 && offsetof(rc_path, pdf) == 48,
              "an ended path's store covers pdf, spare and flags: the record's last 16 bytes");

/* Add each lane's v into *to with one atomic per warp; every lane of the warp must call it. */
static __device__ __forceinline__ void rc_warp_add(uint32_t v, uint32_t *to) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31u) == 0 && v) atomicAdd(to, v);
}

/* Where shade writes the shadow stream (NEE; shadows == NULL without it): the record of
 * stream slot i, its flag or removal entry, and in indices mode its slot number. */
typedef struct rc_shadow_out {
    rc_shadow *shadows;
    uint32_t *squeue;
    uint8_t *sflags;
    uint32_t *sremoved;
    int input; /* what the shadow stream's compaction reads (an rc_compact_input) */
} rc_shadow_out;

/* shade: emission or background, a light sample, scatter, roulette; then the flags or the
 * removal entries of both streams. The wave's first sample is read on the device
 * (generate.cu). INL: 0, shadow rays (if any) go to the shadow stream; 1 or 2, shade traces
 * each one itself right after drawing it (rc_shadows: inline), through the binary (1) or the
 * wide (2) BVH, and its light adds to the sample where the shadow phase's would have: after
 * this bounce's emission, before the next bounce's. */
template <int FULL, int INL>
__global__ void rc_shade_kernel(rc_scene_view sc, rc_shade_params sp, const uint32_t *d_sample,
                                uint32_t bounce, uint32_t bound, int device, rc_path *paths,
                                const uint32_t *queue, rc_vec3 *sample_rgb, int input,
                                uint8_t *flags, uint32_t *removed, rc_shadow_out so,
                                rc_cuda_counts *counts, const uint32_t *groups, uint32_t group,
                                uint32_t *free_recs) {
    rc_kernel_view<FULL>(sc);
    if (INL) rc_kernel_bvh<INL == 2>(sc.bvh);
    rc_cuda_counts *cnt = &counts[bounce];
    uint32_t n = rc_stream_len(counts, bounce, bound, device);
    sp.sample = *d_sample;
    /* --sort-materials: this launch shades one group's slots [begin, end), read on the device */
    uint32_t begin = 0, end = n;
    if (groups) {
        uint32_t off = 0;
        for (uint32_t g = 0; g < group; g++) off += groups[g];
        begin = min(off, n);
        end = min(off + groups[group], n);
    }
    const uint32_t len = end - begin;
    /* each thread counts its own slots, added up once per warp after the loop: a block-wide
       count per pass would hold every warp of the block to its slowest one */
    uint32_t my_live = 0, my_kept = 0, my_shadows = 0;
    RC_FOR_BLOCKS(base, len) {
        uint32_t i = begin + base + threadIdx.x;
        const int in = base + threadIdx.x < len;
        int live = 0, kept = 0, ray = 0;
        if (in) {
            rc_path *slot = queue ? &paths[queue[i]] : &paths[i];
            live = rc_path_alive(slot);
            rc_shadow sh; /* built in registers, stored with 16-byte stores */
            sh.slot = 0u;
            if (live) {
                rc_path p = *slot; /* 16-byte loads and stores (path.h) */
                kept = rc_path_shade(&sc, &sp, &p, sample_rgb, INL || so.shadows ? &sh : NULL);
                if (kept)
                    *slot = p;
                else /* an ended path: only its last 16 bytes (flags) change for later phases */
                    reinterpret_cast<uint4 *>(slot)[3] = reinterpret_cast<const uint4 *>(&p)[3];
            }
            /* inline: the shadow ray, any hit (rc_shadow_trace on the instance's BVH view) */
            if (INL && (sh.slot & RC_PATH_ALIVE)) {
                ray = 1;
                if (!rc_bvh_occluded(&sc.bvh, sh.origin, sh.dir, 0.0f, sh.tmax))
                    rc_shadow_light(&sh, sample_rgb);
            }
            if (RC_WANTS_FLAGS(input)) flags[i] = (uint8_t)kept;
            if (so.shadows) {
                ray = (sh.slot & RC_PATH_ALIVE) != 0;
                if (ray)
                    so.shadows[i] = sh;
                else if (so.input == RC_COMPACT_NOTHING)
                    so.shadows[i].slot = 0u; /* the shadow phase walks this slot */
                if (so.squeue) so.squeue[i] = i;
                if (RC_WANTS_FLAGS(so.input)) so.sflags[i] = (uint8_t)ray;
            }
        }
        if (RC_WANTS_REMOVALS(input)) rc_append_removed(in && !kept, i, removed, &cnt->removed);
        /* regen, indices mode: an ended path's record goes on the free stack (refill.cu) */
        if (free_recs)
            rc_append_removed(in && !kept, in ? queue[i] : 0u, free_recs + cnt->top, &cnt->freed);
        if (so.shadows && RC_WANTS_REMOVALS(so.input))
            rc_append_removed(in && !ray, i, so.sremoved, &cnt->shadow_removed);
        my_live += (uint32_t)live;
        my_kept += (uint32_t)kept;
        my_shadows += (uint32_t)ray;
    }
    rc_warp_add(my_live, &cnt->alive);
    rc_warp_add(my_kept, &cnt->kept);
    rc_warp_add(my_shadows, &cnt->shadows);
    /* `none`: the next bounce walks the same stream, the shadow phase every slot of this one */
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        if (input == RC_COMPACT_NOTHING) cnt[1].stream = n;
        if (so.input == RC_COMPACT_NOTHING) cnt->shadow_stream = n;
    }
}

extern "C" void rc_cuda_shade(rc_renderer *r, uint32_t bounce) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = rc_cuda_bound(r);
    if (bound == 0) return;
    rc_shadow_out so = {c->bufs.shadows, c->bufs.squeue, c->bufs.sflags, c->bufs.sremoved, 0};
    /* --sort-materials: one launch per material group, each over the bound; the group's
       offset and length stay on the device (sort.c), threads past it return */
    const uint32_t *groups = r->sorter ? c->groups + (size_t)bounce * RC_SORT_KEYS : NULL;
    const uint32_t launches = groups ? RC_SORT_KEYS : 1u;
    /* auto: each stream's removal list only where its call uses it */
    rc_compact_input sinput;
    const int input = (int)rc_compact_plan(r, bounce, &sinput);
    so.input = (int)sinput;
    /* the instance: the scene's level (kernels.cuh) and where the shadow rays go */
    const int level = rc_cuda_level(c->view);
    const int inl = !r->nee || r->sstream ? 0 : c->view.bvh.layout == RC_BVH_WIDE ? 2 : 1;
    for (uint32_t g = 0; g < launches; g++) {
#define RC_SHADE_LAUNCH(FULL, INL)                                                                 \
    rc_shade_kernel<FULL, INL><<<rc_cuda_grid(r), RC_CUDA_BLOCK, 0, (cudaStream_t)c->stream>>>(    \
        c->view, r->shade, c->d_sample, bounce, bound, c->device_loop, c->bufs.paths,              \
        c->bufs.queue, c->bufs.sample_rgb, input, c->bufs.flags, c->bufs.removed, so, c->counts,   \
        groups, g, c->bufs.free_recs)
#define RC_SHADE_LEVEL(INL)                                                                        \
    do {                                                                                           \
        if (level == 2)                                                                            \
            RC_SHADE_LAUNCH(2, INL);                                                               \
        else if (level == 1)                                                                       \
            RC_SHADE_LAUNCH(1, INL);                                                               \
        else                                                                                       \
            RC_SHADE_LAUNCH(0, INL);                                                               \
    } while (0)
        if (inl == 2)
            RC_SHADE_LEVEL(2);
        else if (inl == 1)
            RC_SHADE_LEVEL(1);
        else
            RC_SHADE_LEVEL(0);
#undef RC_SHADE_LEVEL
#undef RC_SHADE_LAUNCH
        rc_cuda_note(r, cudaGetLastError());
    }
}
