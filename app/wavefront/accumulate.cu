/* accumulate.cu: the accumulate phase on the GPU, one thread per pixel (see accumulate.c). */
#include "cuda_backend.h"
#include "film.h"

#include <cuda_runtime.h>

/* accumulate: film += this wave's samples of every pixel, in fixed point (film.h); then the
 * next wave starts `wave` samples further (generate and shade read *d_sample). */
__global__ void rc_accumulate_kernel(uint32_t n, uint32_t wave, const rc_vec3 *sample_rgb,
                                     int64_t *accum, uint32_t *d_sample) {
    uint32_t p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n) return;
    int64_t px[3] = {accum[3 * (size_t)p], accum[3 * (size_t)p + 1], accum[3 * (size_t)p + 2]};
    for (uint32_t k = 0; k < wave; k++) rc_film_add(px, sample_rgb[(size_t)k * n + p]);
    for (int c = 0; c < 3; c++) accum[3 * (size_t)p + c] = px[c];
    if (p == 0) *d_sample += wave;
}

/* The film's sums as floats (sum / 2^32, not divided by the samples), for the viewer. */
__global__ void rc_film_float_kernel(size_t n, const int64_t *accum, float *out) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = rc_film_value(accum[i], 1);
}

extern "C" void rc_cuda_film_float(rc_renderer *r, void *d_out) {
    rc_cuda *c = rc_cuda_of(r);
    size_t n = 3 * (size_t)r->num_pixels;
    rc_film_float_kernel<<<(unsigned)((n + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK), RC_CUDA_BLOCK>>>(
        n, c->accum, (float *)d_out);
    rc_cuda_note(r, cudaGetLastError());
}

extern "C" void rc_cuda_accumulate(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t n = r->num_pixels;
    rc_accumulate_kernel<<<(n + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK, RC_CUDA_BLOCK, 0,
                           (cudaStream_t)c->stream>>>(n, r->wave_now, c->bufs.sample_rgb, c->accum,
                                                      c->d_sample);
    rc_cuda_note(r, cudaGetLastError());
}
