/* cuda_device.cu: which GPU this process renders on, when several processes share a machine
 * (the MPI render and bench: one process per GPU). */
#include "megakernel.h"
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

/* The scene's vertex data (surface.h) on the device: the leaf-order index, the triangles'
 * vertex indices, the normals and the uvs, into d[0..3] (NULL where the scene has none), and
 * the view of them in *v. */
extern "C" int rc_cuda_upload_mesh(const rc_scene *s, void *d[4], rc_mesh_view *v) {
    const rc_scene_view host = rc_scene_view_make(s, 1, 1);
    const void *src[4] = {host.mesh.prim_tri, host.mesh.tri_vtx, host.mesh.normals, host.mesh.uvs};
    const size_t bytes[4] = {host.mesh.prim_tri ? s->bvh.num_prims * sizeof(uint32_t) : 0,
                             host.mesh.prim_tri ? s->num_tris * 3 * sizeof(uint32_t) : 0,
                             host.mesh.normals ? s->num_vertices * 3 * sizeof(float) : 0,
                             host.mesh.uvs ? s->num_vertices * 2 * sizeof(float) : 0};
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < 4; i++) {
        d[i] = NULL;
        if (e == cudaSuccess && bytes[i]) e = cudaMalloc(&d[i], bytes[i]);
        if (e == cudaSuccess && bytes[i])
            e = cudaMemcpy(d[i], src[i], bytes[i], cudaMemcpyHostToDevice);
    }
    v->prim_tri = (const uint32_t *)d[0];
    v->tri_vtx = (const uint32_t *)d[1];
    v->normals = (const float *)d[2];
    v->uvs = (const float *)d[3];
    return e == cudaSuccess ? 0 : (int)e;
}
