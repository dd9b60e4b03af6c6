/* accumulate.cu: the accumulate phase on the GPU, one thread per pixel (see accumulate.c). */
#include "cuda.h"

#include <cuda_runtime.h>

/* accumulate: film += this frame's value of every pixel (fixed order: frame by frame). */
__global__ void rc_accumulate_kernel(uint32_t n, const rc_vec3 *sample_rgb, rc_vec3 *accum) {
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n) accum[p] = rc_add(accum[p], sample_rgb[p]);
}

extern "C" void rc_cuda_accumulate(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t n = r->num_pixels;
    rc_accumulate_kernel<<<(n + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK, RC_CUDA_BLOCK, 0,
                           (cudaStream_t)c->stream>>>(n, c->sample_rgb, c->accum);
    rc_cuda_note(r, cudaGetLastError());
}
