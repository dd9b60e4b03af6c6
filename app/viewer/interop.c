/* interop.c: the CUDA side of the film's pixel buffer: registered once, then per frame mapped
 * on stream 0 (which orders GL's earlier use of the buffer before the copy), filled by one
 * device-to-device copy of the film, and unmapped before GL reads it. */
#include "interop.h"

#ifdef RC_HAVE_CUDA_BACKEND
#include <epoxy/gl.h> /* before cuda_gl_interop.h, which would pull in <GL/gl.h> */

#include <cuda_gl_interop.h>
#include <cuda_runtime_api.h>

int rc_interop_register(unsigned pbo, void **resource, rc_error *why) {
    unsigned int count = 0;
    int device = -1;
    /* GL on another GPU, in software or on a remote display: no CUDA device renders it. */
    cudaError_t e = cudaGLGetDevices(&count, &device, 1, cudaGLDeviceListAll);
    if (e != cudaSuccess || count == 0) {
        (void)cudaGetLastError();
        return rc_fail(why, "the GL context is not on a CUDA device (%s)",
                       e != cudaSuccess ? cudaGetErrorString(e) : "no device");
    }
    cudaGraphicsResource_t res = NULL;
    e = cudaGraphicsGLRegisterBuffer(&res, pbo, cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(why, "cudaGraphicsGLRegisterBuffer: %s", cudaGetErrorString(e));
    }
    *resource = res;
    return 0;
}

int rc_interop_copy(void *resource, rc_renderer *r, rc_error *err) {
    cudaGraphicsResource_t res = (cudaGraphicsResource_t)resource;
    cudaError_t e = cudaGraphicsMapResources(1, &res, 0);
    if (e != cudaSuccess) return rc_fail(err, "mapping the film buffer: %s", cudaGetErrorString(e));
    void *ptr = NULL;
    size_t bytes = 0;
    e = cudaGraphicsResourceGetMappedPointer(&ptr, &bytes, res);
    int rc = 0;
    if (e != cudaSuccess)
        rc = rc_fail(err, "the film buffer's device pointer: %s", cudaGetErrorString(e));
    else
        rc = rc_renderer_film_to_device(r, ptr, err);
    e = cudaGraphicsUnmapResources(1, &res, 0);
    if (rc == 0 && e != cudaSuccess)
        rc = rc_fail(err, "unmapping the film buffer: %s", cudaGetErrorString(e));
    return rc;
}

void rc_interop_unregister(void *resource) {
    if (resource) cudaGraphicsUnregisterResource((cudaGraphicsResource_t)resource);
}

#else

int rc_interop_register(unsigned pbo, void **resource, rc_error *why) {
    (void)pbo;
    *resource = NULL;
    return rc_fail(why, "this build has no CUDA backend");
}

int rc_interop_copy(void *resource, rc_renderer *r, rc_error *err) {
    (void)resource;
    (void)r;
    return rc_fail(err, "this build has no CUDA backend");
}

void rc_interop_unregister(void *resource) {
    (void)resource;
}

#endif
