/* megakernel.cu: the no-BVH, one-thread-per-pixel baseline (megakernel.h). */
#include "film.h"
#include "megakernel.h"
#include "path.h"
#include "timing.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

/* 8 x 8 threads a block, the tile the CUDA port of Ray Tracing in One Weekend uses. */
#define RC_MK_TILE 8

/* One pixel: every sample, every bounce, every primitive. `finished` holds one value per pixel:
 * shade adds the path's light there (num_pixels = 0 in `sp` makes every sample of the pixel
 * use the same slot, cleared before each sample), and the thread adds it to its fixed-point
 * sums in sample order, as the wavefront's accumulate does (film.h). With NEE the shadow ray
 * shade writes is traced at once and its light added after the bounce's own, the order the
 * wavefront's shadow phase adds it in. */
__global__ void rc_megakernel(rc_scene_view sc, uint32_t width, uint32_t height, rc_shade_params sp,
                              uint32_t spp, rc_vec3 *finished, rc_vec3 *rgb,
                              unsigned long long *rays) {
    uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned long long traced = 0;
    if (x < width && y < height) {
        uint32_t pixel = y * width + x;
        int64_t sum[3] = {0, 0, 0};
        for (uint32_t s = 0; s < spp; s++) {
            rc_path p;
            rc_path_generate(&sc.camera, width, height, pixel, sp.sample, s, sp.seed, &p);
            finished[pixel] = rc_v3s(0.0f);
            for (;;) {
                rc_hit h = rc_brute_intersect(sc.bvh.prims, sc.bvh.num_prims, p.origin, p.dir, 0.0f,
                                              INFINITY);
                p.t = h.t;
                p.prim = h.prim;
                traced++;
                rc_shadow sh;
                int go = rc_path_shade(&sc, &sp, &p, finished, sp.nee ? &sh : NULL);
                if (sp.nee && (sh.slot & RC_PATH_ALIVE)) {
                    traced++;
                    if (!rc_brute_occluded(sc.bvh.prims, sc.bvh.num_prims, sh.origin, sh.dir, 0.0f,
                                           sh.tmax))
                        finished[pixel] = rc_add(finished[pixel], sh.contrib);
                }
                if (!go) break;
            }
            rc_film_add(sum, finished[pixel]);
        }
        rgb[pixel] = rc_v3(rc_film_value(sum[0], spp), rc_film_value(sum[1], spp),
                           rc_film_value(sum[2], spp));
    }
    atomicAdd(rays, traced);
}

typedef struct mk_buffers {
    void *prims, *materials, *finished, *rgb, *rays, *light_prims, *light_cdf;
    cudaEvent_t ev[2];
} mk_buffers;

static cudaError_t mk_alloc(mk_buffers *b, const rc_scene *scene, size_t np) {
    size_t pb = scene->bvh.num_prims * sizeof(rc_prim);
    size_t mb = scene->num_materials * sizeof(rc_material);
    cudaError_t e = cudaMalloc(&b->prims, pb ? pb : 1);
    if (e == cudaSuccess && pb)
        e = cudaMemcpy(b->prims, scene->bvh.prims, pb, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMalloc(&b->materials, mb ? mb : 1);
    if (e == cudaSuccess && mb)
        e = cudaMemcpy(b->materials, scene->materials, mb, cudaMemcpyHostToDevice);
    size_t lb = scene->num_lights * sizeof(uint32_t);
    if (e == cudaSuccess) e = cudaMalloc(&b->light_prims, lb ? lb : 1);
    if (e == cudaSuccess && lb)
        e = cudaMemcpy(b->light_prims, scene->light_prims, lb, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMalloc(&b->light_cdf, lb ? lb : 1);
    if (e == cudaSuccess && lb)
        e = cudaMemcpy(b->light_cdf, scene->light_cdf, lb, cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaMalloc(&b->finished, np * sizeof(rc_vec3));
    if (e == cudaSuccess) e = cudaMalloc(&b->rgb, np * sizeof(rc_vec3));
    if (e == cudaSuccess) e = cudaMalloc(&b->rays, sizeof(unsigned long long));
    if (e == cudaSuccess) e = cudaEventCreate(&b->ev[0]);
    if (e == cudaSuccess) e = cudaEventCreate(&b->ev[1]);
    return e;
}

static void mk_free(mk_buffers *b) {
    void *bufs[] = {b->prims, b->materials,   b->finished, b->rgb,
                    b->rays,  b->light_prims, b->light_cdf};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) cudaFree(bufs[i]);
    for (int i = 0; i < 2; i++)
        if (b->ev[i]) cudaEventDestroy(b->ev[i]);
}

/* One launch of `spp` samples, timed with events; *rays = rays it traced. */
static cudaError_t mk_launch(mk_buffers *b, const rc_scene_view *v, const rc_settings *st,
                             rc_shade_params sp, uint32_t spp, float *ms, uint64_t *rays) {
    dim3 block(RC_MK_TILE, RC_MK_TILE);
    dim3 grid((st->width + RC_MK_TILE - 1) / RC_MK_TILE,
              (st->height + RC_MK_TILE - 1) / RC_MK_TILE);
    unsigned long long h_rays = 0;
    cudaError_t e = cudaMemset(b->rays, 0, sizeof h_rays);
    if (e == cudaSuccess) e = cudaEventRecord(b->ev[0]);
    if (e != cudaSuccess) return e;
    rc_megakernel<<<grid, block>>>(*v, st->width, st->height, sp, spp, (rc_vec3 *)b->finished,
                                   (rc_vec3 *)b->rgb, (unsigned long long *)b->rays);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaEventRecord(b->ev[1]);
    if (e == cudaSuccess) e = cudaEventSynchronize(b->ev[1]);
    if (e == cudaSuccess) e = cudaEventElapsedTime(ms, b->ev[0], b->ev[1]);
    if (e == cudaSuccess) e = cudaMemcpy(&h_rays, b->rays, sizeof h_rays, cudaMemcpyDeviceToHost);
    *rays = h_rays;
    return e;
}

/* The object-style kernel: a warm-up of one sample, then the timed runs. */
static int objects_render(const rc_scene *scene, const rc_settings *st, uint32_t spp, uint32_t runs,
                          float *rgb, rc_megakernel_result *res, rc_error *err) {
    double times[64];
    double ms;
    uint64_t rays;
    timing_runs t;
    timing_begin(&t, 1, (int)runs, times);
    while (timing_next(&t)) {
        uint32_t samples = timing_slot(&t) < 0 ? 1 : spp;
        if (rc_megakernel_objects_render(scene, st, samples, rgb, &ms, &rays, err) != 0) return -1;
        timing_record(&t, (float)ms); /* in float, as the event-timed kernel reports */
    }
    res->ms = timing_summary(times, (int)runs).median;
    res->rays = rays;
    return 0;
}

extern "C" int rc_megakernel_render(const rc_scene *scene, const rc_settings *st,
                                    rc_megakernel_kind kind, uint32_t spp, uint32_t runs,
                                    float *rgb, rc_megakernel_result *res, rc_error *err) {
    memset(res, 0, sizeof *res);
    if (spp < 1 || runs < 1 || runs > 64)
        return rc_fail(err, "megakernel: spp must be >= 1 and runs 1..64");
    if (kind == RC_MEGAKERNEL_OBJECTS) return objects_render(scene, st, spp, runs, rgb, res, err);
    size_t np = (size_t)st->width * st->height;
    mk_buffers b;
    memset(&b, 0, sizeof b);
    cudaError_t e = mk_alloc(&b, scene, np);
    rc_scene_view v = rc_scene_view_make(scene, st->width, st->height);
    v.bvh.prims = (const rc_prim *)b.prims;
    v.bvh.nodes = NULL; /* no acceleration structure: every ray tests every primitive */
    v.materials = (const rc_material *)b.materials;
    v.lights.prims = (const uint32_t *)b.light_prims;
    v.lights.cdf = (const float *)b.light_cdf;
    uint32_t nee = st->light_sampling == RC_LIGHTS_NEE && scene->num_lights > 0;
    rc_shade_params sp = {st->first_sample, st->max_depth, RC_RR_DEPTH, 0u, nee, st->seed};
    double times[64];
    uint64_t rays = 0;
    timing_runs t; /* a warm-up of one sample, then the timed runs */
    timing_begin(&t, 1, (int)runs, times);
    while (e == cudaSuccess && timing_next(&t)) {
        float ms = 0.f;
        e = mk_launch(&b, &v, st, sp, timing_slot(&t) < 0 ? 1 : spp, &ms, &rays);
        timing_record(&t, ms);
    }
    if (e == cudaSuccess) e = cudaMemcpy(rgb, b.rgb, np * sizeof(rc_vec3), cudaMemcpyDeviceToHost);
    mk_free(&b);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "megakernel: CUDA error: %s", cudaGetErrorString(e));
    }
    res->ms = timing_summary(times, (int)runs).median;
    res->rays = rays;
    return 0;
}
