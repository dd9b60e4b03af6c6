/* arch.cu: the context's device architecture, which picks auto's built-in policy table. */
#include "common.cuh"

extern "C" int sc_cuda_device_cc(const sc_context *ctx) {
    const sc_cuda_state *st = sc_cuda_state_of(ctx);
    int major = 0, minor = 0;
    if (!st ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, st->device) !=
            cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, st->device) !=
            cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return major * 10 + minor;
}
