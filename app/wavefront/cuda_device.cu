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

extern "C" int rc_cuda_device_count(void) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count;
}

extern "C" int rc_cuda_current_device(void) {
    int dev = -1;
    if (rc_cuda_device_count() == 0 || cudaGetDevice(&dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return dev;
}

extern "C" int rc_cuda_init_device(int dev, rc_error *err) {
    cudaError_t e = cudaSetDevice(dev);
    if (e == cudaSuccess) e = cudaFree(0); /* the context is created here */
    if (e == cudaSuccess) return 0;
    (void)cudaGetLastError();
    return rc_fail(err, "CUDA device %d: %s", dev, cudaGetErrorString(e));
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

/* What the scene's arrays take on the device: geometry, materials, lights, vertex data,
 * textures and the environment. */

extern "C" int rc_cuda_check_scene_fits(const rc_scene *s, const char *who, rc_error *err) {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0; /* the upload itself reports the error */
    }
    const size_t need = rc_scene_device_bytes(s);
    if (need <= free_b) return 0;
    return rc_fail(err,
                   "%s: the scene needs %zu MiB on the GPU (%zu MiB of it textures and the "
                   "environment), %zu of %zu MiB are free; nothing was uploaded",
                   who, need >> 20, rc_scene_image_bytes(s) >> 20, free_b >> 20, total_b >> 20);
}

extern "C" int rc_cuda_upload_nodes(const rc_scene *s, void **d, rc_bvh_view *v) {
    const rc_bvh_view host = rc_bvh_view_of(&s->bvh);
    const int wide = host.layout == RC_BVH_WIDE;
    const void *src = wide ? (const void *)host.wide : (const void *)host.nodes;
    const size_t bytes =
        wide ? host.num_wide * sizeof(rc_wide_node) : host.num_nodes * sizeof(rc_bvh_node);
    cudaError_t e = cudaMalloc(d, bytes ? bytes : 1);
    if (e != cudaSuccess) *d = NULL;
    if (e == cudaSuccess && bytes) e = cudaMemcpy(*d, src, bytes, cudaMemcpyHostToDevice);
    v->layout = host.layout;
    v->nodes = wide ? NULL : (const rc_bvh_node *)*d;
    v->num_nodes = host.num_nodes;
    v->wide = wide ? (const rc_wide_node *)*d : NULL;
    v->num_wide = host.num_wide;
    return (int)e;
}

/* The scene's vertex data (mesh.h), textures (texture.h), environment map (envmap.h) and
 * instances (inst.h) on the device, into d[0 .. RC_CUDA_SCENE_EXTRAS) (NULL where the scene has
 * none), and *v's views of them: v->mesh, v->textures, v->env (its placement from the host view),
 * and v->bvh.alpha, whose materials are v->materials (upload those first). */
extern "C" int rc_cuda_upload_extras(const rc_scene *s, void *d[RC_CUDA_SCENE_EXTRAS],
                                     rc_scene_view *v) {
    const rc_scene_view host = rc_scene_view_make(s, 1, 1);
    const size_t nv = s->num_vertices;
    const rc_texture_view *tv = &host.textures;
    size_t texels = 0;
    for (uint32_t i = 0; i < tv->count; i++) {
        const rc_texture *t = &tv->textures[i];
        const size_t last = t->levels - 1;
        const size_t end = t->base + t->offset[last] + (size_t)t->width[last] * t->height[last];
        if (end > texels) texels = end;
    }
    const rc_env_view *ev = &host.env;
    const size_t ew = ev->width, eh = ev->height;
    const int env = s->has_env;
    /* the instances (inst.h): the top-level tree, the instances, the meshes' trees in the
       view's layout, their primitives and the per-primitive indices */
    const rc_inst_view *iv = &host.bvh.inst;
    const size_t ip = iv->count ? s->inst.num_prims : 0;
    const void *src[RC_CUDA_SCENE_EXTRAS] = {
        host.mesh.prim_tri, host.mesh.tri_vtx, host.mesh.normals,  host.mesh.uvs, host.mesh.uv1s,
        host.mesh.colors,   tv->textures,      tv->texels,         ev->rgb,       ev->pdf,
        ev->cond_cdf,       ev->marg_cdf,      host.mesh.tangents, iv->top,       iv->instances,
        iv->meshes,         iv->nodes,         iv->wide,           iv->prims,     iv->prim_tri,
        iv->light_rank};
    const size_t bytes[RC_CUDA_SCENE_EXTRAS] = {
        host.mesh.prim_tri ? s->bvh.num_prims * sizeof(uint32_t) : 0,
        host.mesh.prim_tri ? s->num_tris * 3 * sizeof(uint32_t) : 0,
        host.mesh.normals ? nv * 3 * sizeof(float) : 0,
        host.mesh.uvs ? nv * 2 * sizeof(float) : 0,
        host.mesh.uv1s ? nv * 2 * sizeof(float) : 0,
        host.mesh.colors ? nv * 4 * sizeof(float) : 0,
        tv->count * sizeof(rc_texture),
        texels * sizeof(uint32_t),
        env ? ew * eh * 3 * sizeof(float) : 0,
        env ? ew * eh * sizeof(float) : 0,
        env ? eh * (ew + 1) * sizeof(float) : 0,
        env ? (eh + 1) * sizeof(float) : 0,
        host.mesh.tangents ? nv * 4 * sizeof(float) : 0,
        iv->count ? iv->num_top * sizeof(rc_bvh_node) : 0,
        iv->count * sizeof(rc_instance),
        iv->count ? s->num_meshes * sizeof(rc_inst_mesh) : 0,
        iv->count && iv->nodes ? s->inst.num_nodes * sizeof(rc_bvh_node) : 0,
        iv->count && iv->wide ? s->inst.num_wide * sizeof(rc_wide_node) : 0,
        ip * sizeof(rc_prim),
        iv->prim_tri ? ip * sizeof(uint32_t) : 0,
        iv->light_rank ? ip * sizeof(uint32_t) : 0};
    cudaError_t e = cudaSuccess;
    for (int i = 0; i < RC_CUDA_SCENE_EXTRAS; i++) {
        d[i] = NULL;
        if (e == cudaSuccess && bytes[i]) e = cudaMalloc(&d[i], bytes[i]);
        if (e == cudaSuccess && bytes[i])
            e = cudaMemcpy(d[i], src[i], bytes[i], cudaMemcpyHostToDevice);
    }
    v->mesh.prim_tri = (const uint32_t *)d[0];
    v->mesh.tri_vtx = (const uint32_t *)d[1];
    v->mesh.normals = (const float *)d[2];
    v->mesh.uvs = (const float *)d[3];
    v->mesh.uv1s = (const float *)d[4];
    v->mesh.colors = (const float *)d[5];
    v->textures.textures = (const rc_texture *)d[6];
    v->textures.texels = (const uint32_t *)d[7];
    v->textures.count = tv->count;
    v->env = host.env;
    v->env.rgb = (const float *)d[8];
    v->env.pdf = (const float *)d[9];
    v->env.cond_cdf = (const float *)d[10];
    v->env.marg_cdf = (const float *)d[11];
    v->mesh.tangents = (const float *)d[12];
    v->bvh.inst = *iv;
    v->bvh.inst.top = (const rc_bvh_node *)d[13];
    v->bvh.inst.instances = (const rc_instance *)d[14];
    v->bvh.inst.meshes = (const rc_inst_mesh *)d[15];
    v->bvh.inst.nodes = (const rc_bvh_node *)d[16];
    v->bvh.inst.wide = (const rc_wide_node *)d[17];
    v->bvh.inst.prims = (const rc_prim *)d[18];
    v->bvh.inst.prim_tri = (const uint32_t *)d[19];
    v->bvh.inst.light_rank = (const uint32_t *)d[20];
    v->bvh.alpha.materials = v->materials;
    v->bvh.alpha.mesh = v->mesh;
    v->bvh.alpha.textures = v->textures;
    return e == cudaSuccess ? 0 : (int)e;
}
