/* megakernel.cu: the flat, bvh and persistent megakernel baselines (megakernel.h). */
#include "film.h"
#include "kernels.cuh"
#include "megakernel.h"
#include "../core/path.h"
#include "timing.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

/* 8 x 8 threads a block, the tile the CUDA port of Ray Tracing in One Weekend uses. */
#define RC_MK_TILE 8
/* persistent: threads a block; a warp takes this many (pixel, sample) items at a time, as an
 * 8 x 4 tile of pixels of one sample. */
#define RC_MK_PT_BLOCK 128
#define RC_MK_BATCH    32
#define RC_MK_BATCH_W  8
#define RC_MK_BATCH_H  4

/* One sample of one pixel, every bounce, into *acc (cleared first); returns the rays traced.
 * BVH: the renderer's own extend and shadow functions (path.h); otherwise every primitive is
 * tested for every ray. `sp.num_pixels` is 0, so shade adds the path's light to acc[0]; with NEE
 * the shadow ray shade writes is traced at once and its light added after the bounce's own, the
 * order the wavefront's shadow phase adds it in. */
template <bool BVH>
static __device__ __forceinline__ unsigned
mk_sample(const rc_scene_view &sc, const rc_shade_params &sp, uint32_t width, uint32_t height,
          uint32_t pixel, uint32_t s, rc_vec3 *acc) {
    unsigned traced = 0;
    rc_path p;
    rc_path_generate(&sc.camera, width, height, pixel, sp.sample, s, sp.seed, &p);
    *acc = rc_v3s(0.0f);
    for (;;) {
        if (BVH) {
            rc_path_extend(&sc, &p);
        } else {
            rc_hit h =
                rc_brute_intersect(sc.bvh.prims, sc.bvh.num_prims, p.origin, p.dir, 0.0f, INFINITY);
            p.t = h.t;
            p.prim = h.prim;
        }
        traced++;
        rc_shadow sh;
        int go = rc_path_shade(&sc, &sp, &p, acc, sp.nee ? &sh : NULL);
        if (sp.nee && (sh.slot & RC_PATH_ALIVE)) {
            traced++;
            if (BVH)
                rc_shadow_trace(&sc, &sh, acc);
            else if (!rc_brute_occluded(sc.bvh.prims, sc.bvh.num_prims, sh.origin, sh.dir, 0.0f,
                                        sh.tmax))
                rc_shadow_light(&sh, acc);
        }
        if (!go) return traced;
    }
}

/* flat (BVH false) and bvh: one thread per pixel, every sample in order, summed in fixed point
 * as the wavefront's accumulate does (film.h). flat keeps each sample's light in `finished`
 * (global memory, one value per pixel), bvh in a local variable. */
template <bool BVH, int FULL, bool WIDE>
__global__ void rc_megakernel(rc_scene_view sc, uint32_t width, uint32_t height, rc_shade_params sp,
                              uint32_t spp, rc_vec3 *finished, rc_vec3 *rgb,
                              unsigned long long *rays) {
    rc_kernel_view<FULL>(sc);
    rc_kernel_bvh<WIDE>(sc.bvh);
    uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned long long traced = 0;
    if (x < width && y < height) {
        uint32_t pixel = y * width + x;
        int64_t sum[3] = {0, 0, 0};
        rc_vec3 local, *acc = BVH ? &local : &finished[pixel];
        for (uint32_t s = 0; s < spp; s++) {
            traced += mk_sample<BVH>(sc, sp, width, height, pixel, s, acc);
            rc_film_add(sum, *acc);
        }
        rgb[pixel] = rc_v3(rc_film_value(sum[0], spp), rc_film_value(sum[1], spp),
                           rc_film_value(sum[2], spp));
    }
    atomicAdd(rays, traced);
}

/* persistent: as many threads as the GPU holds at once; each warp takes the next RC_MK_BATCH
 * (pixel, sample) items from a global counter (Aila & Laine, "Understanding the Efficiency of Ray
 * Traversal on GPUs", HPG 2009, Sec. 3: persistent threads fetch work in batches), an 8 x 4 tile
 * of pixels of one sample, in the order sample-major, tiles row by row. A finished sample adds
 * its fixed-point value to its pixel's sums with 64-bit atomics: integer addition, so the film
 * is the one the other kernels sum in sample order (film.h). */
template <int FULL, bool WIDE>
__global__ void __launch_bounds__(RC_MK_PT_BLOCK)
    rc_megakernel_persistent(rc_scene_view sc, uint32_t width, uint32_t height, rc_shade_params sp,
                             unsigned long long items, unsigned long long *next,
                             unsigned long long *film, unsigned long long *rays) {
    rc_kernel_view<FULL>(sc);
    rc_kernel_bvh<WIDE>(sc.bvh);
    uint32_t tiles_x = (width + RC_MK_BATCH_W - 1) / RC_MK_BATCH_W;
    uint32_t tiles_y = (height + RC_MK_BATCH_H - 1) / RC_MK_BATCH_H;
    unsigned long long per_sample = (unsigned long long)tiles_x * tiles_y * RC_MK_BATCH;
    unsigned lane = threadIdx.x % 32u;
    unsigned long long traced = 0;
    for (;;) {
        unsigned long long base = 0;
        if (lane == 0) base = atomicAdd(next, (unsigned long long)RC_MK_BATCH);
        base = __shfl_sync(0xffffffffu, base, 0);
        if (base >= items) break;
        unsigned long long item = base + lane;
        uint32_t s = (uint32_t)(item / per_sample), j = (uint32_t)(item % per_sample);
        uint32_t tile = j / RC_MK_BATCH, k = j % RC_MK_BATCH;
        uint32_t x = tile % tiles_x * RC_MK_BATCH_W + k % RC_MK_BATCH_W;
        uint32_t y = tile / tiles_x * RC_MK_BATCH_H + k / RC_MK_BATCH_W;
        if (item < items && x < width && y < height) {
            uint32_t pixel = y * width + x;
            rc_vec3 acc;
            traced += mk_sample<true>(sc, sp, width, height, pixel, s, &acc);
            int64_t v[3] = {0, 0, 0};
            rc_film_add(v, acc);
            for (int c = 0; c < 3; c++)
                atomicAdd(&film[3 * (size_t)pixel + c], (unsigned long long)v[c]);
        }
    }
    atomicAdd(rays, traced);
}

/* The persistent kernel's film as the mean of `spp` samples. */
__global__ void rc_megakernel_resolve(const unsigned long long *film, uint32_t pixels, uint32_t spp,
                                      rc_vec3 *rgb) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pixels)
        rgb[i] = rc_v3(rc_film_value((int64_t)film[3 * (size_t)i], spp),
                       rc_film_value((int64_t)film[3 * (size_t)i + 1], spp),
                       rc_film_value((int64_t)film[3 * (size_t)i + 2], spp));
}

typedef struct mk_buffers {
    void *nodes, *prims, *materials, *finished, *rgb, *rays, *light_prims, *light_cdf, *film, *next;
    void *probes; /* settings.probes: RC_PROBE_COPIES rc_probe_counts (probe.h) */
    void *extras[RC_CUDA_SCENE_EXTRAS]; /* vertex data, textures, environment */
    cudaEvent_t ev[2];
} mk_buffers;

/* cudaMalloc `bytes` (at least 1) at *d and copy `host` there when given. */
static cudaError_t mk_upload(void **d, const void *host, size_t bytes) {
    cudaError_t e = cudaMalloc(d, bytes ? bytes : 1);
    if (e == cudaSuccess && host && bytes) e = cudaMemcpy(*d, host, bytes, cudaMemcpyHostToDevice);
    return e;
}

/* The scene and the image's buffers; the persistent kernel's film and counter when `film`. */
#define RC_MK_PROBE_BYTES (RC_PROBE_COPIES * sizeof(rc_probe_counts))
static cudaError_t mk_alloc(mk_buffers *b, const rc_scene *scene, size_t np, int film, int probes) {
    size_t lb = scene->num_lights * sizeof(uint32_t);
    cudaError_t e = mk_upload(&b->prims, scene->bvh.prims, scene->bvh.num_prims * sizeof(rc_prim));
    if (e == cudaSuccess)
        e = mk_upload(&b->materials, scene->materials, scene->num_materials * sizeof(rc_material));
    if (e == cudaSuccess) e = mk_upload(&b->light_prims, scene->light_prims, lb);
    if (e == cudaSuccess) e = mk_upload(&b->light_cdf, scene->light_cdf, lb);
    if (e == cudaSuccess) e = cudaMalloc(&b->finished, np * sizeof(rc_vec3));
    if (e == cudaSuccess) e = cudaMalloc(&b->rgb, np * sizeof(rc_vec3));
    if (e == cudaSuccess) e = cudaMalloc(&b->rays, sizeof(unsigned long long));
    if (e == cudaSuccess && film) e = cudaMalloc(&b->film, np * 3 * sizeof(unsigned long long));
    if (e == cudaSuccess && film) e = cudaMalloc(&b->next, sizeof(unsigned long long));
    if (e == cudaSuccess && probes) e = cudaMalloc(&b->probes, RC_MK_PROBE_BYTES);
    if (e == cudaSuccess) e = cudaEventCreate(&b->ev[0]);
    if (e == cudaSuccess) e = cudaEventCreate(&b->ev[1]);
    return e;
}

static void mk_free(mk_buffers *b) {
    void *bufs[] = {b->nodes,       b->prims,     b->materials, b->finished, b->rgb,   b->rays,
                    b->light_prims, b->light_cdf, b->film,      b->next,     b->probes};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) cudaFree(bufs[i]);
    for (int i = 0; i < RC_CUDA_SCENE_EXTRAS; i++) cudaFree(b->extras[i]);
    for (int i = 0; i < 2; i++)
        if (b->ev[i]) cudaEventDestroy(b->ev[i]);
}

/* The persistent kernel's grid: as many blocks as the device holds at once. */
template <bool WIDE> static cudaError_t mk_persistent_grid(int level, unsigned *blocks) {
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = level == 2 ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                             &per_sm, rc_megakernel_persistent<2, WIDE>, RC_MK_PT_BLOCK, 0)
            : level == 1 ? cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &per_sm, rc_megakernel_persistent<1, WIDE>, RC_MK_PT_BLOCK, 0)
                         : cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &per_sm, rc_megakernel_persistent<0, WIDE>, RC_MK_PT_BLOCK, 0);
    *blocks = (unsigned)(sms * (per_sm > 0 ? per_sm : 1));
    return e;
}

/* One render of `spp` samples by `kind` (flat, bvh or persistent), timed with events around
 * its kernels; *rays = rays it traced. */
static cudaError_t mk_launch(mk_buffers *b, rc_megakernel_kind kind, const rc_scene_view *v,
                             const rc_settings *st, rc_shade_params sp, uint32_t spp, float *ms,
                             uint64_t *rays) {
    uint32_t w = st->width, h = st->height, np = w * h;
    unsigned long long h_rays = 0, *d_rays = (unsigned long long *)b->rays;
    cudaError_t e = cudaMemset(b->rays, 0, sizeof h_rays);
    unsigned blocks = 0;
    if (e == cudaSuccess && kind == RC_MEGAKERNEL_PERSISTENT) {
        e = cudaMemset(b->next, 0, sizeof(unsigned long long));
        if (e == cudaSuccess) e = cudaMemset(b->film, 0, (size_t)np * 3 * sizeof h_rays);
        if (e == cudaSuccess)
            e = v->bvh.layout == RC_BVH_WIDE
                    ? mk_persistent_grid<true>(rc_cuda_level(*v), &blocks)
                    : mk_persistent_grid<false>(rc_cuda_level(*v), &blocks);
    }
    if (e == cudaSuccess) e = cudaEventRecord(b->ev[0]);
    if (e != cudaSuccess) return e;
    dim3 block(RC_MK_TILE, RC_MK_TILE);
    dim3 grid((w + RC_MK_TILE - 1) / RC_MK_TILE, (h + RC_MK_TILE - 1) / RC_MK_TILE);
    rc_vec3 *rgb = (rc_vec3 *)b->rgb;
    const int level = rc_cuda_level(*v);
    const bool wide = v->bvh.layout == RC_BVH_WIDE;
    if (kind == RC_MEGAKERNEL_FLAT) { /* the teaching baseline: classic scenes only */
        rc_megakernel<false, 0, false>
            <<<grid, block>>>(*v, w, h, sp, spp, (rc_vec3 *)b->finished, rgb, d_rays);
    } else if (kind == RC_MEGAKERNEL_BVH && level == 2 && wide) {
        rc_megakernel<true, 2, true><<<grid, block>>>(*v, w, h, sp, spp, NULL, rgb, d_rays);
    } else if (kind == RC_MEGAKERNEL_BVH && level == 2) {
        rc_megakernel<true, 2, false><<<grid, block>>>(*v, w, h, sp, spp, NULL, rgb, d_rays);
    } else if (kind == RC_MEGAKERNEL_BVH && level == 1 && wide) {
        rc_megakernel<true, 1, true><<<grid, block>>>(*v, w, h, sp, spp, NULL, rgb, d_rays);
    } else if (kind == RC_MEGAKERNEL_BVH && level == 1) {
        rc_megakernel<true, 1, false><<<grid, block>>>(*v, w, h, sp, spp, NULL, rgb, d_rays);
    } else if (kind == RC_MEGAKERNEL_BVH && wide) {
        rc_megakernel<true, 0, true><<<grid, block>>>(*v, w, h, sp, spp, NULL, rgb, d_rays);
    } else if (kind == RC_MEGAKERNEL_BVH) {
        rc_megakernel<true, 0, false><<<grid, block>>>(*v, w, h, sp, spp, NULL, rgb, d_rays);
    } else {
        uint32_t tiles =
            ((w + RC_MK_BATCH_W - 1) / RC_MK_BATCH_W) * ((h + RC_MK_BATCH_H - 1) / RC_MK_BATCH_H);
        unsigned long long items = (unsigned long long)tiles * RC_MK_BATCH * spp;
        unsigned long long *film = (unsigned long long *)b->film;
        RC_LAUNCH_BVH(*v, rc_megakernel_persistent, blocks, RC_MK_PT_BLOCK, 0, *v, w, h, sp, items,
                      (unsigned long long *)b->next, film, d_rays);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
        rc_megakernel_resolve<<<(np + 255) / 256, 256>>>(film, np, spp, rgb);
    }
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
    timing_stats ts = timing_summary(times, (int)runs);
    res->ms = ts.median;
    res->min_ms = ts.min;
    res->max_ms = ts.max;
    res->rays = rays;
    return 0;
}

/* The flat megakernel's largest scene: the knot's 102,400 triangles take it seconds a frame;
 * ten times as many would look like a hang. */
#define RC_MK_FLAT_MAX_PRIMS 262144u

/* The teaching baselines draw what they were written for: `objects` the four RTIOW materials
 * on spheres (its own check of the primitives follows), `flat` any primitive but tests every
 * one for every ray, so neither reads textures, vertex data, an environment map or instances,
 * and flat does not skip alpha-masked surfaces. 0, or -1 with one line in err. */
static int teaching_refusal(const rc_scene *scene, rc_megakernel_kind kind, rc_error *err) {
    if (kind != RC_MEGAKERNEL_FLAT && kind != RC_MEGAKERNEL_OBJECTS) return 0;
    const char *name = rc_megakernel_name(kind), *what = NULL;
    for (size_t i = 0; i < scene->num_materials && !what; i++) {
        const rc_material *m = &scene->materials[i];
        if (m->type > RC_MAT_EMISSIVE)
            what = "materials other than the four of Ray Tracing in One Weekend";
        else if (m->type != RC_MAT_EMISSIVE && rc_material_emits(m))
            what = "emitting surfaces that also scatter";
        else if (m->alpha_cutoff > 0.0f)
            what = "alpha-masked surfaces";
    }
    if (!what && scene->textures.count > 0) what = "textures";
    if (!what && scene->has_env) what = "an environment map";
    if (!what && scene->num_instances > 0) what = "instances";
    if (!what && kind == RC_MEGAKERNEL_OBJECTS && scene->num_tris > 0) what = "triangle meshes";
    if (!what && kind == RC_MEGAKERNEL_FLAT && scene->bvh.num_prims > RC_MK_FLAT_MAX_PRIMS)
        return rc_fail(err,
                       "the flat megakernel tests every primitive for every ray; this scene has "
                       "%u (it takes at most %u); use --megakernel bvh or persistent",
                       scene->bvh.num_prims, RC_MK_FLAT_MAX_PRIMS);
    if (!what) return 0;
    return rc_fail(err,
                   "the %s megakernel is a teaching baseline without %s; use --megakernel bvh or "
                   "persistent for this scene",
                   name, what);
}

extern "C" int rc_megakernel_render(const rc_scene *scene, const rc_settings *st,
                                    rc_megakernel_kind kind, uint32_t spp, uint32_t runs,
                                    float *rgb, rc_megakernel_result *res, rc_error *err) {
    memset(res, 0, sizeof *res);
    if (spp < 1 || spp >= RC_PATH_MAX_WAVE || runs < 1 || runs > 64)
        return rc_fail(err, "megakernel: spp must be 1..%u and runs 1..64", RC_PATH_MAX_WAVE - 1);
    if (teaching_refusal(scene, kind, err) != 0) return -1;
    if (st->probes && !rc_have_probes()) return rc_fail(err, "megakernel: " RC_PROBES_NEEDED);
    if (kind == RC_MEGAKERNEL_OBJECTS) return objects_render(scene, st, spp, runs, rgb, res, err);
    size_t np = (size_t)st->width * st->height;
    if (rc_cuda_check_scene_fits(scene, "megakernel", err) != 0) return -1;
    mk_buffers b;
    memset(&b, 0, sizeof b);
    cudaError_t e = mk_alloc(&b, scene, np, kind == RC_MEGAKERNEL_PERSISTENT, st->probes);
    rc_scene_view v = rc_scene_view_make(scene, st->width, st->height);
    if (e == cudaSuccess) e = (cudaError_t)rc_cuda_upload_nodes(scene, &b.nodes, &v.bvh);
    v.bvh.prims = (const rc_prim *)b.prims;
    if (kind == RC_MEGAKERNEL_FLAT) v.bvh.nodes = NULL; /* every ray tests every primitive */
    v.materials = (const rc_material *)b.materials;
    v.lights.prims = (const uint32_t *)b.light_prims;
    v.lights.cdf = (const float *)b.light_cdf;
    if (e == cudaSuccess) e = (cudaError_t)rc_cuda_upload_extras(scene, b.extras, &v);
#ifdef RC_PROBES
    v.bvh.probe = (rc_probe_counts *)b.probes;
#endif
    uint32_t nee =
        st->light_sampling == RC_LIGHTS_NEE && (scene->num_lights > 0 || scene->env_prob > 0.0f);
    /* num_pixels 0: a thread's own accumulator takes each sample's light (path.h) */
    rc_shade_params sp = {st->first_sample, st->max_depth, RC_RR_DEPTH, 0u, nee, st->seed};
    double times[64];
    uint64_t rays = 0;
    timing_runs t; /* a warm-up of one sample, then the timed runs */
    timing_begin(&t, 1, (int)runs, times);
    while (e == cudaSuccess && timing_next(&t)) {
        float ms = 0.f;
        /* the probes count the last run alone: the samples a bench's timed frames render */
        if (b.probes) e = cudaMemset(b.probes, 0, RC_MK_PROBE_BYTES);
        if (e == cudaSuccess)
            e = mk_launch(&b, kind, &v, st, sp, timing_slot(&t) < 0 ? 1 : spp, &ms, &rays);
        timing_record(&t, ms);
    }
    if (e == cudaSuccess) e = cudaMemcpy(rgb, b.rgb, np * sizeof(rc_vec3), cudaMemcpyDeviceToHost);
    rc_probe_counts *copies = b.probes ? (rc_probe_counts *)malloc(RC_MK_PROBE_BYTES) : NULL;
    if (e == cudaSuccess && b.probes && !copies) e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess && copies) {
        e = cudaMemcpy(copies, b.probes, RC_MK_PROBE_BYTES, cudaMemcpyDeviceToHost);
        if (e == cudaSuccess) rc_probe_sum(copies, &res->probes);
        res->probed = e == cudaSuccess;
    }
    free(copies);
    mk_free(&b);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "megakernel: CUDA error: %s", cudaGetErrorString(e));
    }
    timing_stats ts = timing_summary(times, (int)runs);
    res->ms = ts.median;
    res->min_ms = ts.min;
    res->max_ms = ts.max;
    res->rays = rays;
    return 0;
}
