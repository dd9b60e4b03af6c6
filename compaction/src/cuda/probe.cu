/* probe.cu: can this build run a kernel on the current device? A build holds kernel images
 * (SASS) for some architectures and PTX for others; a device that matches none of them fails
 * every launch with cudaErrorNoKernelImageForDevice. A context asks at creation, so a caller
 * learns it there (SC_ERR_UNSUPPORTED_DEVICE) and can fall back to the CPU.
 * Thread-safe: the threads of a process share the module's probe word, so probes run one at a
 * time behind a lock, and a device that passed once is not probed again (the answer is a
 * property of the build and the device). Failures are not remembered: they may be transient.
 * Self-contained (the CUDA runtime and the public header only), so that a test can build it
 * alone for a foreign architecture. */
#include "raycompact/compaction.h"

#include <cuda_runtime.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#ifndef SC_CUDA_ARCHITECTURES
#define SC_CUDA_ARCHITECTURES "unknown"
#endif

#define SC_PROBE_MAGIC 0x5c0de75cu

/* The probe's word lives in the module: no allocation, so a full device still passes. One word
 * for the whole process: sc_probe_lock keeps two probes from writing it at once. */
static __device__ uint32_t sc_probe_word;

/* Devices (by ordinal) whose probe passed; ordinals past the table are probed every time. */
#define SC_PROBE_DEVICES 64
static pthread_mutex_t sc_probe_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char sc_probe_passed[SC_PROBE_DEVICES]; /* guarded by sc_probe_lock */

/* probe: write a word made of this probe's nonce, so a launch that "succeeds" but runs
 * nothing is caught too (an earlier probe's word holds another nonce). */
static __global__ void sc_probe_kernel(uint32_t nonce) {
    sc_probe_word = nonce ^ SC_PROBE_MAGIC;
}

static int sc_probe_image_error(cudaError_t e) {
    return e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction ||
           e == cudaErrorUnsupportedPtxVersion || e == cudaErrorInvalidPtx ||
           e == cudaErrorJitCompilerNotFound || e == cudaErrorInvalidKernelImage;
}

extern "C" sc_status sc_cuda_probe(char *detail, size_t cap) {
    int device = 0, major = 0, minor = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(detail, cap, "%s in sc_cuda_probe (device query)", cudaGetErrorName(e));
        return SC_ERR_NO_DEVICE;
    }
    static uint32_t probes; /* a nonce per probe (under the lock) */
    uint32_t word = 0, nonce = 0;
    const char *where = "sc_probe_kernel";
    int cached = device >= 0 && device < SC_PROBE_DEVICES;
    pthread_mutex_lock(&sc_probe_lock);
    if (cached && sc_probe_passed[device]) {
        pthread_mutex_unlock(&sc_probe_lock);
        return SC_OK;
    }
    nonce = ++probes;
    sc_probe_kernel<<<1, 1>>>(nonce);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaSuccess) {
        where = "cudaMemcpyFromSymbol";
        e = cudaMemcpyFromSymbol(&word, sc_probe_word, sizeof word);
    }
    int passed = e == cudaSuccess && word == (nonce ^ SC_PROBE_MAGIC);
    if (passed && cached) sc_probe_passed[device] = 1;
    pthread_mutex_unlock(&sc_probe_lock);
    if (passed) return SC_OK;
    (void)cudaGetLastError();
    cudaDeviceProp prop; /* only now: cudaGetDeviceProperties is slow */
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(prop.name, sizeof prop.name, "?");
    }
    snprintf(detail, cap, "%s in %s: device %d (%s) is sm_%d%d, this build holds %s",
             e == cudaSuccess ? "wrong result" : cudaGetErrorName(e), where, device, prop.name,
             major, minor, SC_CUDA_ARCHITECTURES);
    if (e == cudaSuccess || sc_probe_image_error(e)) return SC_ERR_UNSUPPORTED_DEVICE;
    return e == cudaErrorMemoryAllocation ? SC_ERR_OUT_OF_MEMORY : SC_ERR_CUDA;
}
