/* test_cuda.h: what the GPU tests share beside test.h: a CUDA call that must succeed, a stream of
 * words on the host and the device. */
#ifndef SC_TEST_CUDA_H
#define SC_TEST_CUDA_H

#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A CUDA call in a test's set-up or check: a failure ends the test with the call and why. */
#define CUDA_OK(call)                                                                              \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* A stream of n 4-byte words on the host (in: word i is i * 2654435761 + salt; out; want: the
 * reference; flags) and on the device (d_in: a copy of in; d_out; d_flags; d_kept: one word). */
typedef struct test_words {
    uint32_t *in, *out, *want, *d_in, *d_out, *d_kept;
    uint8_t *flags, *d_flags;
} test_words;

/* Allocates and fills *w; a failure ends the test. */
static inline void test_words_alloc(test_words *w, size_t n, uint32_t salt) {
    size_t bytes = n * sizeof(uint32_t);
    w->in = malloc(bytes);
    w->out = malloc(bytes);
    w->want = malloc(bytes);
    w->flags = malloc(n);
    if (!w->in || !w->out || !w->want || !w->flags) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    for (uint32_t i = 0; i < n; i++) w->in[i] = i * 2654435761u + salt;
    CUDA_OK(cudaMalloc((void **)&w->d_in, bytes));
    CUDA_OK(cudaMalloc((void **)&w->d_out, bytes));
    CUDA_OK(cudaMalloc((void **)&w->d_flags, n));
    CUDA_OK(cudaMalloc((void **)&w->d_kept, sizeof(uint32_t)));
    CUDA_OK(cudaMemcpy(w->d_in, w->in, bytes, cudaMemcpyHostToDevice));
}

static inline void test_words_free(test_words *w) {
    void *host[] = {w->in, w->out, w->want, w->flags};
    void *device[] = {w->d_in, w->d_out, w->d_flags, w->d_kept};
    for (size_t i = 0; i < 4; i++) {
        free(host[i]);
        cudaFree(device[i]);
    }
}

#endif /* SC_TEST_CUDA_H */
