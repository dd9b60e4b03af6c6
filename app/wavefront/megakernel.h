/* megakernel.h: the baselines the wavefront loop is measured against: the whole path of every
 * sample in one CUDA kernel, no ray stream. Four forms:
 *   bvh:        one thread per pixel loops over the pixel's samples and bounces with the
 *               renderer's own per-path functions (path.h: generate, extend, shade, shadow) and
 *               the same BVH: what a graphics engineer writes first, and the same image as the
 *               wavefront loop;
 *   persistent: as bvh, but as many threads as the GPU holds at once, each warp taking the next
 *               32 (pixel, sample) items from a global counter (Aila & Laine, HPG 2009), so a
 *               long path holds up only its own warp's next batch, not a whole grid of pixels;
 *   flat:       one thread per pixel, every primitive tested for every ray (no acceleration
 *               structure), with the same per-path code: the teaching baseline, same image up
 *               to rays that meet two primitives at one distance or round differently;
 *   objects:    the form of the well-known CUDA port of Ray Tracing in One Weekend: objects
 *               built on the device behind virtual hit() and scatter(), a curand state per pixel,
 *               rejection sampling, no roulette, no light sampling (megakernel_objects.cu;
 *               spheres only). Its image agrees with the wavefront loop's in the mean. */
#ifndef RC_MEGAKERNEL_H
#define RC_MEGAKERNEL_H

#include "wavefront.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rc_megakernel_kind {
    RC_MEGAKERNEL_FLAT = 0,
    RC_MEGAKERNEL_OBJECTS = 1,
    RC_MEGAKERNEL_BVH = 2,
    RC_MEGAKERNEL_PERSISTENT = 3,
    RC_MEGAKERNEL_COUNT
} rc_megakernel_kind;

typedef struct rc_megakernel_result {
    double ms;              /* GPU time of the render (CUDA events), median of the timed runs */
    double min_ms, max_ms;  /* the fastest and the slowest timed run */
    uint64_t rays;          /* rays traced, shadow rays included */
    int probed;             /* settings.probes: the last timed run's divergence probes are in */
    rc_probe_counts probes; /* probe.h (not for `objects`, whose code has none) */
} rc_megakernel_result;

/* "flat", "objects", "bvh" or "persistent"; NULL for an unknown kind. */
const char *rc_megakernel_name(rc_megakernel_kind kind);
int rc_megakernel_parse(const char *s, rc_megakernel_kind *out);

/* Render samples first_sample .. first_sample + spp - 1 of every pixel (st: size, max depth,
 * first sample, seed, light sampling) into rgb (linear, 3 floats per pixel, the mean of the
 * samples), after one untimed warm-up run of one sample; `runs` (1..64) timed runs. Errors: no CUDA
 * backend or device, out of device memory, a scene the kind cannot draw. With settings.probes
 * (rc_have_probes), res->probes holds what the probes counted in the last timed run. */
int rc_megakernel_render(const rc_scene *scene, const rc_settings *st, rc_megakernel_kind kind,
                         uint32_t spp, uint32_t runs, float *rgb, rc_megakernel_result *res,
                         rc_error *err);
/* cuda_device.cu: the scene's vertex data, textures, environment map and instances uploaded into
 * RC_CUDA_SCENE_EXTRAS device buffers d[] (NULL where there is none; cudaFree each), their
 * views in *v (v->mesh, v->textures, v->env, v->bvh.alpha with v->materials, which must be
 * the device's already). 0, or a cudaError_t. Shared by the wavefront loop's upload and the
 * megakernels'. */
#define RC_CUDA_SCENE_EXTRAS 21
int rc_cuda_upload_extras(const rc_scene *s, void *d[RC_CUDA_SCENE_EXTRAS], rc_scene_view *v);
/* The nodes of the layout the scene's BVH traces (s->bvh.layout) on the device, into *d (at
 * least one byte), and v's view of them: v->nodes, or v->wide with v->layout RC_BVH_WIDE.
 * 0, or the cudaError_t. */
int rc_cuda_upload_nodes(const rc_scene *s, void **d, rc_bvh_view *v);
/* 0 when the scene's arrays fit in the device's free memory; otherwise -1 with one line in err
 * ("WHO: the scene needs N MiB on the GPU ..."), before anything is uploaded. */
int rc_cuda_check_scene_fits(const rc_scene *s, const char *who, rc_error *err);
/* megakernel_objects.cu: one run of the object-style kernel, its GPU time in *ms. */
int rc_megakernel_objects_render(const rc_scene *scene, const rc_settings *st, uint32_t spp,
                                 float *rgb, double *ms, uint64_t *rays, rc_error *err);

#ifdef __cplusplus
}
#endif
#endif /* RC_MEGAKERNEL_H */
