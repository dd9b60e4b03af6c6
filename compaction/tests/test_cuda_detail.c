/* test_cuda_detail: what sc_last_error_detail reports for a CUDA error, without a device: the
 * backend's error path (sc_cuda_fail, src/cuda/context.cu) names the error, what failed, the
 * function and the file's base name and line, and maps the error to its status. Built with
 * the CUDA backend; runs anywhere (no CUDA call here needs a device). */
#include "test.h"

#include <cuda_runtime_api.h>
#include <string.h>

/* The backend's error path: internal, declared here as src/cuda/common.cuh does. */
sc_status sc_cuda_fail(cudaError_t e, const char *what, const char *func, const char *file,
                       int line);

static int checks = 0;

static void expect(cudaError_t e, sc_status want, const char *want_detail) {
    sc_status got = sc_cuda_fail(e, "the launch", "sc_cuda_horn", "/src/cuda/horn.cu", 42);
    checks += 2;
    ASSERT_STATUS(got, want, "%s", cudaGetErrorName(e));
    ASSERT_TRUE(strcmp(sc_last_error_detail(NULL), want_detail) == 0, "'%s', want '%s'",
                sc_last_error_detail(NULL), want_detail);
}

int main(void) {
    expect(cudaErrorNoKernelImageForDevice, SC_ERR_UNSUPPORTED_DEVICE,
           "cudaErrorNoKernelImageForDevice at the launch in sc_cuda_horn (horn.cu:42)");
    expect(cudaErrorMemoryAllocation, SC_ERR_OUT_OF_MEMORY,
           "cudaErrorMemoryAllocation at the launch in sc_cuda_horn (horn.cu:42)");
    expect(cudaErrorNoDevice, SC_ERR_NO_DEVICE,
           "cudaErrorNoDevice at the launch in sc_cuda_horn (horn.cu:42)");
    expect(cudaErrorIllegalAddress, SC_ERR_CUDA,
           "cudaErrorIllegalAddress at the launch in sc_cuda_horn (horn.cu:42)");
    /* Success records nothing: the last error stays. */
    checks += 2;
    ASSERT_STATUS(sc_cuda_fail(cudaSuccess, "a call", "f", "f.cu", 1), SC_OK, "success");
    ASSERT_TRUE(strstr(sc_last_error_detail(NULL), "cudaErrorIllegalAddress") != NULL, "kept");
    /* A CPU context reports none. */
    sc_context *ctx = NULL;
    checks += 2;
    ASSERT_STATUS(sc_context_create(SC_BACKEND_CPU, &ctx), SC_OK, "cpu context");
    ASSERT_TRUE(ctx && strcmp(sc_last_error_detail(ctx), "") == 0, "cpu context detail");
    sc_context_destroy(ctx);
    return test_finish("test_cuda_detail", checks);
}
