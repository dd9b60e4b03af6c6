/* refill.cu: regen's refill on the GPU (see refill.c). Each launch reads its bounce's counters
 * and writes the next bounce's, so no thread reads what another thread of it writes; the
 * lengths never leave the device. */
#include "kernels.cuh"

#include <cuda_runtime.h>

/* Compacting: the kept paths fill slots [0, kept) (the compaction's d_kept); slots [kept, kept +
 * fresh) take paths issued .. issued + fresh - 1, in indices mode into records popped off the
 * free stack shade pushed. */
__global__ void rc_refill_kernel(const rc_camera *cam, uint32_t width, uint32_t height,
                                 const uint32_t *d_sample, uint32_t seed, uint32_t total,
                                 uint32_t pool, uint32_t bounce, rc_path *paths, uint32_t *queue,
                                 const uint32_t *free_recs, rc_vec3 *sample_rgb,
                                 rc_cuda_counts *counts) {
    const rc_cuda_counts *c = &counts[bounce];
    /* an empty bounce (past the last path) compacted nothing: its kept count is 0 */
    const uint32_t kept = min(c->compacted, pool), issued = min(c->issued, total);
    const uint32_t top = c->top + c->freed;
    const uint32_t fresh = min(pool - kept, total - issued);
    const uint32_t np = width * height, sample = *d_sample;
    for (uint32_t j = blockIdx.x * blockDim.x + threadIdx.x; j < fresh;
         j += gridDim.x * blockDim.x) {
        const uint32_t g = issued + j;
        const uint32_t rec = queue ? free_recs[top - 1 - j] : kept + j;
        rc_path q; /* built in registers, stored with 16-byte stores (path.h) */
        rc_path_generate(cam, width, height, g % np, sample, g / np, seed, &q);
        paths[rec] = q;
        sample_rgb[g] = rc_v3s(0.0f);
        if (queue) queue[kept + j] = rec;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        counts[bounce + 1].stream = kept + fresh;
        counts[bounce + 1].issued = issued + fresh;
        counts[bounce + 1].top = queue ? top - fresh : 0u;
        counts[bounce].refilled = fresh;
    }
}

/* `none`, in place: every dead slot of the stream shade walked claims the next path from a
 * counter (one atomic per warp) and takes it where it lies, while paths are left. */
__global__ void rc_refill_in_place_kernel(const rc_camera *cam, uint32_t width, uint32_t height,
                                          const uint32_t *d_sample, uint32_t seed, uint32_t total,
                                          uint32_t bounce, uint32_t bound, int device,
                                          rc_path *paths, const uint32_t *queue,
                                          rc_vec3 *sample_rgb, rc_cuda_counts *counts,
                                          uint32_t *next) {
    const uint32_t n = rc_stream_len(counts, bounce, bound, device);
    const uint32_t np = width * height, sample = *d_sample;
    const unsigned lane = threadIdx.x & 31u;
    RC_FOR_BLOCKS(base, n) {
        if (*(volatile uint32_t *)next >= total) return; /* the frame's paths are all out */
        const uint32_t i = base + threadIdx.x;
        rc_path *slot = i < n ? (queue ? &paths[queue[i]] : &paths[i]) : NULL;
        const int dead = slot && !rc_path_alive(slot);
        const unsigned mask = __ballot_sync(0xffffffffu, dead);
        const int leader = mask ? __ffs(mask) - 1 : 0;
        uint32_t first = 0;
        if (mask && (int)lane == leader) first = atomicAdd(next, (uint32_t)__popc(mask));
        first = __shfl_sync(0xffffffffu, first, leader);
        const uint32_t g = first + (uint32_t)__popc(mask & ((1u << lane) - 1u));
        const int take = dead && g < total;
        if (take) {
            rc_path q;
            rc_path_generate(cam, width, height, g % np, sample, g / np, seed, &q);
            *slot = q;
            sample_rgb[g] = rc_v3s(0.0f);
        }
        const unsigned took = __ballot_sync(0xffffffffu, take);
        if (took && lane == 0) atomicAdd(&counts[bounce].refilled, (uint32_t)__popc(took));
    }
}

extern "C" void rc_cuda_refill(rc_renderer *r, uint32_t bounce) {
    rc_cuda *c = rc_cuda_of(r);
    const uint32_t total = rc_frame_paths(r);
    cudaStream_t s = (cudaStream_t)c->stream;
    if (r->comp.input == RC_COMPACT_NOTHING) {
        const uint32_t bound = rc_cuda_bound(r);
        if (bound == 0) return;
        rc_refill_in_place_kernel<<<rc_cuda_grid(r), RC_CUDA_BLOCK, 0, s>>>(
            c->d_camera, r->st.width, r->st.height, c->d_sample, r->st.seed, total, bounce, bound,
            c->device_loop, c->bufs.paths, c->bufs.queue, c->bufs.sample_rgb, c->counts, c->regen);
    } else {
        /* the refill's room is at most the pool: a grid over it (strided past grid_cap) */
        uint32_t blocks = (r->pool_now + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK;
        if (blocks > c->grid_cap) blocks = c->grid_cap;
        rc_refill_kernel<<<blocks ? blocks : 1, RC_CUDA_BLOCK, 0, s>>>(
            c->d_camera, r->st.width, r->st.height, c->d_sample, r->st.seed, total, r->pool_now,
            bounce, c->bufs.paths, r->st.mode == RC_MODE_PAYLOAD ? NULL : c->bufs.queue,
            c->bufs.free_recs, c->bufs.sample_rgb, c->counts);
    }
    rc_cuda_note(r, cudaGetLastError());
}
