/* megakernel_objects.cu: the object-style megakernel (megakernel.h, RC_MEGAKERNEL_OBJECTS): the
 * shape of the well-known CUDA port of Ray Tracing in One Weekend, written for this project's
 * scenes. A kernel builds the world on the device with `new`: one object per sphere behind an
 * abstract "hittable" with a virtual hit(), one per material behind a virtual scatter(), and a
 * list that tests every object. Every pixel keeps a curand XORWOW state; diffuse and fuzz
 * directions are drawn by rejection from the unit ball; paths end at max depth (no roulette).
 * The random numbers differ from the wavefront loop's, so the two images agree in the mean,
 * not bit for bit. Spheres only, as in the book. */
#include "megakernel.h"
#include "../core/path.h"

#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

namespace {

struct mk_ray {
    rc_vec3 o, d; /* d is not normalised, as in the book */
};

__device__ rc_vec3 mk_unit_ball(curandState *rs) {
    rc_vec3 p;
    do {
        p = rc_v3(2.0f * curand_uniform(rs) - 1.0f, 2.0f * curand_uniform(rs) - 1.0f,
                  2.0f * curand_uniform(rs) - 1.0f);
    } while (rc_dot(p, p) >= 1.0f);
    return p;
}

class mk_material;

struct mk_record {
    float t;
    rc_vec3 p, n;
    mk_material *mat;
};

class mk_material {
  public:
    __device__ virtual ~mk_material() {}
    /* 1 and the attenuation and next ray if the ray goes on; `emit` is added either way. */
    __device__ virtual int scatter(const mk_ray &in, const mk_record &rec, curandState *rs,
                                   rc_vec3 *atten, mk_ray *out) const = 0;
    __device__ virtual rc_vec3 emitted() const { return rc_v3s(0.0f); }
};

class mk_lambertian : public mk_material {
  public:
    rc_vec3 albedo;
    __device__ mk_lambertian(rc_vec3 a) : albedo(a) {}
    __device__ int scatter(const mk_ray &, const mk_record &rec, curandState *rs, rc_vec3 *atten,
                           mk_ray *out) const override {
        /* normal + a point of the unit ball, normalised: cosine-weighted like rc_scatter */
        rc_vec3 target = rc_add(rec.n, rc_normalize(mk_unit_ball(rs)));
        if (rc_dot(target, target) < 1e-12f) target = rec.n;
        *out = mk_ray{rec.p, target};
        *atten = albedo;
        return 1;
    }
};

class mk_metal : public mk_material {
  public:
    rc_vec3 albedo;
    float fuzz;
    __device__ mk_metal(rc_vec3 a, float f) : albedo(a), fuzz(f) {}
    __device__ int scatter(const mk_ray &in, const mk_record &rec, curandState *rs, rc_vec3 *atten,
                           mk_ray *out) const override {
        rc_vec3 r = rc_reflect(rc_normalize(in.d), rec.n);
        *out = mk_ray{rec.p, rc_add(r, rc_scale(mk_unit_ball(rs), fuzz))};
        *atten = albedo;
        return rc_dot(out->d, rec.n) > 0.0f;
    }
};

class mk_dielectric : public mk_material {
  public:
    rc_vec3 tint;
    float ior;
    __device__ mk_dielectric(rc_vec3 t, float i) : tint(t), ior(i) {}
    __device__ int scatter(const mk_ray &in, const mk_record &rec, curandState *rs, rc_vec3 *atten,
                           mk_ray *out) const override {
        rc_vec3 d = rc_normalize(in.d);
        int front = rc_dot(d, rec.n) < 0.0f;
        rc_vec3 n = front ? rec.n : rc_neg(rec.n);
        float eta = front ? 1.0f / ior : ior;
        float cos_t = fminf(-rc_dot(d, n), 1.0f);
        float sin2 = eta * eta * (1.0f - cos_t * cos_t);
        rc_vec3 dir;
        if (sin2 > 1.0f || rc_schlick(cos_t, eta) > curand_uniform(rs)) {
            dir = rc_reflect(d, n);
        } else {
            rc_vec3 perp = rc_scale(rc_add(d, rc_scale(n, cos_t)), eta);
            dir = rc_sub(perp, rc_scale(n, sqrtf(fabsf(1.0f - rc_dot(perp, perp)))));
        }
        *out = mk_ray{rec.p, dir};
        *atten = tint;
        return 1;
    }
};

class mk_light : public mk_material {
  public:
    rc_vec3 radiance;
    __device__ mk_light(rc_vec3 r) : radiance(r) {}
    __device__ int scatter(const mk_ray &, const mk_record &, curandState *, rc_vec3 *,
                           mk_ray *) const override {
        return 0;
    }
    __device__ rc_vec3 emitted() const override { return radiance; }
};

class mk_hittable {
  public:
    __device__ virtual ~mk_hittable() {}
    __device__ virtual int hit(const mk_ray &r, float tmin, float tmax, mk_record *rec) const = 0;
};

class mk_sphere : public mk_hittable {
  public:
    rc_vec3 center;
    float radius;
    mk_material *mat;
    __device__ mk_sphere(rc_vec3 c, float r, mk_material *m) : center(c), radius(r), mat(m) {}
    __device__ int hit(const mk_ray &r, float tmin, float tmax, mk_record *rec) const override {
        rc_vec3 oc = rc_sub(r.o, center);
        float a = rc_dot(r.d, r.d), b = rc_dot(oc, r.d), c = rc_dot(oc, oc) - radius * radius;
        float disc = b * b - a * c;
        if (disc <= 0.0f) return 0;
        float s = sqrtf(disc);
        float t = (-b - s) / a;
        if (!(t > tmin && t < tmax)) t = (-b + s) / a;
        if (!(t > tmin && t < tmax)) return 0;
        rec->t = t;
        rec->p = rc_add(r.o, rc_scale(r.d, t));
        rec->n = rc_scale(rc_sub(rec->p, center), 1.0f / radius);
        rec->mat = mat;
        return 1;
    }
};

class mk_list : public mk_hittable {
  public:
    mk_hittable **items;
    int count;
    __device__ mk_list(mk_hittable **l, int n) : items(l), count(n) {}
    __device__ int hit(const mk_ray &r, float tmin, float tmax, mk_record *rec) const override {
        int any = 0;
        for (int i = 0; i < count; i++) {
            if (items[i]->hit(r, tmin, tmax, rec)) {
                any = 1;
                tmax = rec->t;
            }
        }
        return any;
    }
};

/* The world, built by one thread: the materials, then one sphere object per sphere. */
__global__ void mk_build(const rc_prim *prims, uint32_t num_prims, const rc_material *mats,
                         uint32_t num_mats, mk_material **d_mats, mk_hittable **d_items,
                         mk_hittable **d_world, int *ok) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    *ok = 1;
    for (uint32_t i = 0; i < num_mats; i++) {
        const rc_material *m = &mats[i];
        if (m->type == RC_MAT_LAMBERTIAN)
            d_mats[i] = new mk_lambertian(m->color);
        else if (m->type == RC_MAT_METAL)
            d_mats[i] = new mk_metal(m->color, m->param);
        else if (m->type == RC_MAT_DIELECTRIC)
            d_mats[i] = new mk_dielectric(m->color, m->param);
        else
            d_mats[i] = new mk_light(m->color);
        if (!d_mats[i]) *ok = 0;
    }
    for (uint32_t i = 0; i < num_prims; i++) {
        d_items[i] = new mk_sphere(prims[i].p, prims[i].r, d_mats[rc_prim_material(&prims[i])]);
        if (!d_items[i]) *ok = 0;
    }
    *d_world = new mk_list(d_items, (int)num_prims);
    if (!*d_world) *ok = 0;
}

__global__ void mk_free_world(uint32_t num_prims, uint32_t num_mats, mk_material **d_mats,
                              mk_hittable **d_items, mk_hittable **d_world) {
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    for (uint32_t i = 0; i < num_prims; i++) delete d_items[i];
    for (uint32_t i = 0; i < num_mats; i++) delete d_mats[i];
    delete *d_world;
}

__global__ void mk_init_rng(uint32_t width, uint32_t height, uint32_t seed, curandState *states) {
    uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    uint32_t pixel = y * width + x;
    curand_init(1984ull + seed + pixel, 0, 0, &states[pixel]);
}

__device__ rc_vec3 mk_color(mk_ray r, const mk_hittable *world, rc_background bg,
                            uint32_t max_depth, curandState *rs, unsigned long long *traced) {
    rc_vec3 weight = rc_v3s(1.0f), sum = rc_v3s(0.0f);
    for (uint32_t depth = 0; depth < max_depth; depth++) {
        mk_record rec;
        (*traced)++;
        if (!world->hit(r, 0.001f, FLT_MAX, &rec))
            return rc_add(sum, rc_mul(weight, rc_background_radiance(&bg, rc_normalize(r.d))));
        sum = rc_add(sum, rc_mul(weight, rec.mat->emitted()));
        rc_vec3 atten;
        mk_ray next;
        if (!rec.mat->scatter(r, rec, rs, &atten, &next)) return sum;
        weight = rc_mul(weight, atten);
        r = next;
    }
    return sum;
}

__global__ void mk_render(uint32_t width, uint32_t height, uint32_t spp, uint32_t max_depth,
                          rc_camera cam, rc_background bg, mk_hittable **world, curandState *states,
                          rc_vec3 *rgb, unsigned long long *rays) {
    uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned long long traced = 0;
    if (x < width && y < height) {
        uint32_t pixel = y * width + x;
        curandState rs = states[pixel];
        rc_vec3 col = rc_v3s(0.0f);
        for (uint32_t s = 0; s < spp; s++) {
            float u = ((float)x + curand_uniform(&rs)) / (float)width;
            float v = 1.0f - ((float)y + curand_uniform(&rs)) / (float)height;
            rc_vec3 lens;
            do {
                lens = rc_v3(2.0f * curand_uniform(&rs) - 1.0f, 2.0f * curand_uniform(&rs) - 1.0f,
                             0.0f);
            } while (rc_dot(lens, lens) >= 1.0f);
            rc_vec3 off = rc_add(rc_scale(cam.u, lens.x * cam.lens_radius),
                                 rc_scale(cam.v, lens.y * cam.lens_radius));
            rc_vec3 o = rc_add(cam.origin, off);
            rc_vec3 target = rc_add(cam.lower_left,
                                    rc_add(rc_scale(cam.horizontal, u), rc_scale(cam.vertical, v)));
            mk_ray r = {o, rc_sub(target, o)};
            col = rc_add(col, mk_color(r, *world, bg, max_depth, &rs, &traced));
        }
        states[pixel] = rs;
        rgb[pixel] = rc_scale(col, 1.0f / (float)spp);
    }
    atomicAdd(rays, traced);
}

} // namespace

extern "C" int rc_megakernel_objects_render(const rc_scene *scene, const rc_settings *st,
                                            uint32_t spp, float *rgb, double *ms, uint64_t *rays,
                                            rc_error *err) {
    const rc_prim *prims = scene->bvh.prims;
    uint32_t np_ = (uint32_t)scene->bvh.num_prims, nm = (uint32_t)scene->num_materials;
    for (uint32_t i = 0; i < np_; i++)
        if (rc_prim_type(&prims[i]) != RC_PRIM_SPHERE)
            return rc_fail(err, "the object-style megakernel draws spheres only, as the book "
                                "does; this scene has quads or triangles");
    size_t pixels = (size_t)st->width * st->height;
    void *d_prims = NULL, *d_mats = NULL, *d_matp = NULL, *d_items = NULL, *d_world = NULL;
    void *d_states = NULL, *d_rgb = NULL, *d_rays = NULL, *d_ok = NULL;
    cudaEvent_t ev[2] = {NULL, NULL};
    /* The objects come from the device heap: a few dozen bytes each, 8 MB is the default. */
    size_t heap = 0;
    cudaError_t e = cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    size_t want = (size_t)(np_ + nm + 1) * 64 + (1u << 20);
    if (e == cudaSuccess && heap < want) e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, want);
    if (e == cudaSuccess) e = cudaMalloc(&d_prims, np_ * sizeof(rc_prim) + 1);
    if (e == cudaSuccess && np_)
        e = cudaMemcpy(d_prims, prims, np_ * sizeof(rc_prim), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMalloc(&d_mats, nm * sizeof(rc_material) + 1);
    if (e == cudaSuccess && nm)
        e = cudaMemcpy(d_mats, scene->materials, nm * sizeof(rc_material), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMalloc(&d_matp, (nm + 1) * sizeof(void *));
    if (e == cudaSuccess) e = cudaMalloc(&d_items, (np_ + 1) * sizeof(void *));
    if (e == cudaSuccess) e = cudaMalloc(&d_world, sizeof(void *));
    if (e == cudaSuccess) e = cudaMalloc(&d_ok, sizeof(int));
    if (e == cudaSuccess) e = cudaMalloc(&d_states, pixels * sizeof(curandState));
    if (e == cudaSuccess) e = cudaMalloc(&d_rgb, pixels * sizeof(rc_vec3));
    if (e == cudaSuccess) e = cudaMalloc(&d_rays, sizeof(unsigned long long));
    if (e == cudaSuccess) e = cudaMemset(d_rays, 0, sizeof(unsigned long long));
    if (e == cudaSuccess) e = cudaEventCreate(&ev[0]);
    if (e == cudaSuccess) e = cudaEventCreate(&ev[1]);
    int ok = 0, built = 0;
    if (e == cudaSuccess) {
        mk_build<<<1, 1>>>((const rc_prim *)d_prims, np_, (const rc_material *)d_mats, nm,
                           (mk_material **)d_matp, (mk_hittable **)d_items, (mk_hittable **)d_world,
                           (int *)d_ok);
        e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaMemcpy(&ok, d_ok, sizeof ok, cudaMemcpyDeviceToHost);
        built = e == cudaSuccess;
        if (e == cudaSuccess && !ok) e = cudaErrorMemoryAllocation;
    }
    rc_camera cam = rc_camera_make(&scene->camera, (float)st->width / (float)st->height);
    dim3 block(8, 8), grid((st->width + 7) / 8, (st->height + 7) / 8);
    float t = 0.0f;
    if (e == cudaSuccess) {
        /* The whole render is timed, the per-pixel curand set-up included, as a user waits
         * for it. */
        cudaEventRecord(ev[0]);
        mk_init_rng<<<grid, block>>>(st->width, st->height, st->first_sample,
                                     (curandState *)d_states);
        mk_render<<<grid, block>>>(st->width, st->height, spp, st->max_depth, cam,
                                   scene->background, (mk_hittable **)d_world,
                                   (curandState *)d_states, (rc_vec3 *)d_rgb,
                                   (unsigned long long *)d_rays);
        e = cudaGetLastError();
        if (e == cudaSuccess) e = cudaEventRecord(ev[1]);
        if (e == cudaSuccess) e = cudaEventSynchronize(ev[1]);
        if (e == cudaSuccess) e = cudaEventElapsedTime(&t, ev[0], ev[1]);
    }
    unsigned long long h_rays = 0;
    if (e == cudaSuccess) e = cudaMemcpy(&h_rays, d_rays, sizeof h_rays, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess)
        e = cudaMemcpy(rgb, d_rgb, pixels * sizeof(rc_vec3), cudaMemcpyDeviceToHost);
    if (built) {
        mk_free_world<<<1, 1>>>(np_, nm, (mk_material **)d_matp, (mk_hittable **)d_items,
                                (mk_hittable **)d_world);
        cudaDeviceSynchronize();
    }
    void *bufs[] = {d_prims, d_mats, d_matp, d_items, d_world, d_states, d_rgb, d_rays, d_ok};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) cudaFree(bufs[i]);
    for (int i = 0; i < 2; i++)
        if (ev[i]) cudaEventDestroy(ev[i]);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "object-style megakernel: CUDA error: %s", cudaGetErrorString(e));
    }
    *ms = t;
    *rays = h_rays;
    return 0;
}
