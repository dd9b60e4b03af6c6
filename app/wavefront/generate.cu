/* generate.cu: the generate phase on the GPU, one thread per pixel (see generate.c). */
#include "cuda_backend.h"

#include <cuda_runtime.h>

/* generate: the camera ray of every pixel and sample; the stream is every path, in order. The
 * camera and the wave's first sample are read on the device, so a replayed frame graph renders
 * the next samples from the current camera. */
__global__ void rc_generate_kernel(const rc_camera *cam, uint32_t width, uint32_t height,
                                   const uint32_t *d_sample, uint32_t seed, uint32_t n,
                                   rc_path *paths, uint32_t *queue, rc_vec3 *sample_rgb,
                                   rc_cuda_counts *counts, uint32_t *regen) {
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    uint32_t np = width * height;
    rc_path q; /* built in registers, stored with 16-byte stores (path.h) */
    rc_path_generate(cam, width, height, p % np, *d_sample, p / np, seed, &q);
    paths[p] = q;
    sample_rgb[p] = rc_v3s(0.0f);
    if (queue) queue[p] = p;
    if (p == 0) {
        counts[0].stream = n;
        counts[0].issued = n; /* regen: the refills and the tail go on from here */
        if (regen) {
            regen[0] = n;
            regen[1] = 0;
        }
    }
}

extern "C" void rc_cuda_generate(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t n = r->n;
    unsigned blocks = (n + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK;
    rc_generate_kernel<<<blocks, RC_CUDA_BLOCK, 0, (cudaStream_t)c->stream>>>(
        c->d_camera, r->st.width, r->st.height, c->d_sample, r->st.seed, n, c->bufs.paths,
        c->bufs.queue, c->bufs.sample_rgb, c->counts, c->regen);
    rc_cuda_note(r, cudaGetLastError());
}
