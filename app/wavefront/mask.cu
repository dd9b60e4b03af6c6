/* mask.cu: the alive-ray mask on the GPU, one thread per stream slot (see mask.c). */
#include "kernels.cuh"

#include <cuda_runtime.h>

/* mask: mark the pixel of every live path in the stream. */
__global__ void rc_mask_kernel(const rc_cuda_counts *counts, uint32_t bounce, uint32_t bound,
                               int device, const rc_path *paths, const uint32_t *queue,
                               uint8_t *mask) {
    uint32_t n = rc_stream_len(counts, bounce, bound, device);
    RC_FOR_BLOCKS(base, n) {
        uint32_t i = base + threadIdx.x;
        if (i >= n) break;
        const rc_path *p = queue ? &paths[queue[i]] : &paths[i];
        if (rc_path_alive(p)) mask[p->pixel] = 1;
    }
}

extern "C" int rc_cuda_mask_alloc(rc_renderer *r, rc_error *err) {
    void *m = NULL;
    cudaError_t e = cudaMalloc(&m, r->num_pixels);
    /* cleared on the renderer's stream, which its kernels use (a plain cudaMemset runs on the
       legacy stream, which that non-blocking stream does not wait for) */
    if (e == cudaSuccess)
        e = cudaMemsetAsync(m, 0, r->num_pixels, (cudaStream_t)rc_cuda_of(r)->stream);
    if (e != cudaSuccess) {
        cudaFree(m);
        (void)cudaGetLastError();
        return rc_fail(err, "alive-ray mask: %s", cudaGetErrorString(e));
    }
    r->mask = (uint8_t *)m;
    return 0;
}

extern "C" void rc_cuda_mask_clear(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    rc_cuda_note(r, cudaMemsetAsync(r->mask, 0, r->num_pixels, (cudaStream_t)c->stream));
}

extern "C" void rc_cuda_mask_record(rc_renderer *r, uint32_t bounce) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t bound = rc_cuda_bound(r);
    if (bound == 0) return;
    rc_mask_kernel<<<rc_cuda_grid(r), RC_CUDA_BLOCK, 0, (cudaStream_t)c->stream>>>(
        c->counts, bounce, bound, c->device_loop, c->bufs.paths, c->bufs.queue, r->mask);
    rc_cuda_note(r, cudaGetLastError());
}

extern "C" int rc_cuda_mask_read(rc_renderer *r, uint8_t *mask, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    cudaStream_t s = (cudaStream_t)c->stream;
    cudaError_t e = cudaMemcpyAsync(mask, r->mask, r->num_pixels, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    if (e != cudaSuccess)
        return rc_fail(err, "reading the alive-ray mask: %s", cudaGetErrorString(e));
    return 0;
}

extern "C" void rc_cuda_mask_free(rc_renderer *r) {
    cudaFree(r->mask);
    r->mask = NULL;
}
