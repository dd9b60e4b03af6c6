/* accumulate.cu: the accumulate phase on the GPU, one thread per pixel (see accumulate.c). */
#include "cuda.h"

#include <cuda_runtime.h>

/* accumulate: film += this wave's samples of every pixel, one at a time in sample order; then
 * the next wave starts `wave` samples further (generate and shade read *d_sample). */
__global__ void rc_accumulate_kernel(uint32_t n, uint32_t wave, const rc_vec3 *sample_rgb,
                                     rc_vec3 *accum, uint32_t *d_sample) {
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    rc_vec3 a = accum[p];
    for (uint32_t k = 0; k < wave; k++) a = rc_add(a, sample_rgb[(size_t)k * n + p]);
    accum[p] = a;
    if (p == 0) *d_sample += wave;
}

extern "C" void rc_cuda_accumulate(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t n = r->num_pixels;
    rc_accumulate_kernel<<<(n + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK, RC_CUDA_BLOCK, 0,
                           (cudaStream_t)c->stream>>>(n, r->wave_now, c->sample_rgb, c->accum,
                                                      c->d_sample);
    rc_cuda_note(r, cudaGetLastError());
}
