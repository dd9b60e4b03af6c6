/* test_cuda.h: what the GPU tests share beside test.h: a CUDA call that must succeed. */
#ifndef SC_TEST_CUDA_H
#define SC_TEST_CUDA_H

#include <cuda_runtime_api.h>
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

#endif /* SC_TEST_CUDA_H */
