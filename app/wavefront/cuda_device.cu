/* cuda_device.cu: which GPU this process renders on, when several processes share a machine
 * (the MPI render and bench: one process per GPU). */
#include "wavefront.h"

#include <cuda_runtime.h>
#include <stdio.h>

extern "C" int rc_cuda_use_device(int index, char *desc, size_t cap) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        snprintf(desc, cap, "no CUDA device (%s)",
                 e != cudaSuccess ? cudaGetErrorString(e) : "none visible");
        return -1;
    }
    int dev = index % count;
    cudaDeviceProp p;
    e = cudaSetDevice(dev);
    if (e == cudaSuccess) e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(desc, cap, "CUDA device %d: %s", dev, cudaGetErrorString(e));
        return -1;
    }
    snprintf(desc, cap, "%s (device %d of %d, PCI %04x:%02x:%02x)", p.name, dev, count,
             p.pciDomainID, p.pciBusID, p.pciDeviceID);
    return dev;
}

/* regen's default pool: `fills` times the threads the current device runs at once, so the
 * stream keeps every SM busy while its slots refill (0 SMs, no device: the CPU's default). */
extern "C" uint32_t rc_cuda_default_pool(uint32_t fills) {
    int dev = 0, sms = 0, threads = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev) !=
            cudaSuccess) {
        (void)cudaGetLastError();
        return RC_POOL_CPU_PER_THREAD;
    }
    const uint64_t pool = (uint64_t)sms * (uint64_t)threads * fills;
    return pool < RC_POOL_MAX ? (uint32_t)pool : RC_POOL_MAX;
}
