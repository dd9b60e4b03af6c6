/* test_gpu_probe_foreign: the probe (src/cuda/probe.cu) built for one foreign architecture
 * only, SASS and no PTX (see CMakeLists.txt). Usage: test_gpu_probe_foreign ARCH (e.g. 75).
 * On a device of another architecture no image runs, and the probe must say so:
 * SC_ERR_UNSUPPORTED_DEVICE, and a reason that names the CUDA error, the probe kernel, the
 * device's architecture and the build's. On a device of ARCH itself the probe must pass. */
#include "test.h"

#include <cuda_runtime_api.h>
#include <string.h>

sc_status sc_cuda_probe(char *detail, size_t cap);

/* This program holds the probe alone, without the library, so no sc_status_string. */
static const char *name(sc_status s) {
    return s == SC_OK                       ? "SC_OK"
           : s == SC_ERR_UNSUPPORTED_DEVICE ? "SC_ERR_UNSUPPORTED_DEVICE"
                                            : "other";
}

int main(int argc, char **argv) {
    int checks = 0, count = 0, major = 0, minor = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: test_gpu_probe_foreign ARCH\n");
        return 2;
    }
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("test_gpu_probe_foreign: skipped (no CUDA device)\n");
        return 77;
    }
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
    char arch[16], device_sm[32];
    snprintf(arch, sizeof arch, "%d%d", major, minor);
    snprintf(device_sm, sizeof device_sm, "is sm_%s,", arch);
    char detail[256] = "";
    sc_status s = sc_cuda_probe(detail, sizeof detail);
    printf("device sm_%s, probe built for sm_%s: %s (%d); %s\n", arch, argv[1], name(s), (int)s,
           detail);
    checks++;
    if (strcmp(arch, argv[1]) == 0) {
        ASSERT_TRUE(s == SC_OK, "the probe's own architecture: %s", name(s));
        return test_finish("test_gpu_probe_foreign", checks);
    }
    ASSERT_TRUE(s == SC_ERR_UNSUPPORTED_DEVICE, "no image of this build runs on sm_%s: %s", arch,
                name(s));
    checks += 4;
    ASSERT_TRUE(strstr(detail, "cudaErrorNoKernelImageForDevice") != NULL, "%s", detail);
    ASSERT_TRUE(strstr(detail, "sc_probe_kernel") != NULL, "%s", detail);
    ASSERT_TRUE(strstr(detail, device_sm) != NULL, "%s", detail);
    ASSERT_TRUE(strstr(detail, argv[1]) != NULL, "%s", detail);
    /* The failed probe leaves no error behind for the next CUDA call. */
    checks++;
    ASSERT_TRUE(cudaGetLastError() == cudaSuccess, "error state cleared");
    return test_finish("test_gpu_probe_foreign", checks);
}
