/* lifecycle.c: a renderer's life on its backend, above its phases: create (check the settings,
 * resolve the compaction, allocate the stream) and destroy, the film, and each frame's begin and
 * end (a CUDA graph's capture and replay; what the frame's counts teach the next one). */
#include "compact.h"
#include "lifecycle.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

uint32_t rc_default_pool(rc_backend b, const char *algo) {
#ifdef RC_HAVE_CUDA_BACKEND
    const int in_place = algo && strcmp(algo, RC_COMPACT_NONE_NAME) == 0;
    if (b == RC_BACKEND_CUDA)
        return rc_cuda_default_pool(in_place ? RC_POOL_FILLS_IN_PLACE : RC_POOL_FILLS);
#else
    (void)b;
    (void)algo;
#endif
#ifdef _OPENMP
    return RC_POOL_CPU_PER_THREAD * (uint32_t)omp_get_max_threads();
#else
    return RC_POOL_CPU_PER_THREAD;
#endif
}

static void free_cpu(rc_renderer *r) {
    rc_buf b[RC_STREAM_BUFS];
    rc_stream_layout(r, &r->cpu.bufs, &r->cpu.accum, b);
    for (int i = 0; i < RC_STREAM_BUFS; i++) free(*b[i].ptr);
    memset(&r->cpu, 0, sizeof r->cpu);
}

/* The stream's buffers in host memory, as rc_stream_layout lists them. */
static int alloc_cpu(rc_renderer *r, rc_error *err) {
    rc_buf b[RC_STREAM_BUFS];
    rc_stream_layout(r, &r->cpu.bufs, &r->cpu.accum, b);
    for (int i = 0; i < RC_STREAM_BUFS; i++) {
        if (!b[i].bytes) continue;
        *b[i].ptr = b[i].cleared & RC_ON_CPU ? calloc(1, b[i].bytes) : malloc(b[i].bytes);
        if (!*b[i].ptr) {
            free_cpu(r);
            return rc_fail(err, "out of memory for a stream of %zu paths", r->num_paths);
        }
    }
    return 0;
}

/* The CUDA backend's device buffers (cuda_renderer.cu); an error without it. */
static int alloc_cuda(rc_renderer *r, const rc_scene *scene, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    return rc_cuda_create(r, scene, err);
#else
    (void)r;
    (void)scene;
    return rc_fail(err, "this build has no CUDA backend");
#endif
}

static int check_settings(const rc_settings *st, rc_error *err) {
    if (st->width < 1 || st->height < 1 || st->width > RC_MAX_SIZE || st->height > RC_MAX_SIZE)
        return rc_fail(err, "image size %ux%u is out of range (1..%u per side)", st->width,
                       st->height, RC_MAX_SIZE);
    if ((uint64_t)st->width * st->height > (1u << 27))
        return rc_fail(err, "image of %ux%u pixels is too large (at most 2^27 = %u pixels)",
                       st->width, st->height, 1u << 27);
    uint64_t wave = st->samples_per_wave ? st->samples_per_wave : 1;
    if (wave > RC_PATH_MAX_WAVE || wave * st->width * st->height > (1u << 27))
        return rc_fail(err,
                       "%llu samples per wave of %ux%u pixels is too many paths for one stream "
                       "(at most 2^27 = %u)",
                       (unsigned long long)wave, st->width, st->height, 1u << 27);
    if ((int)st->frame_loop < RC_LOOP_GRAPH || st->frame_loop > RC_LOOP_HOST)
        return rc_fail(err, "unknown frame loop %d", (int)st->frame_loop);
    if (st->max_depth < 1 || st->max_depth > RC_MAX_DEPTH)
        return rc_fail(err, "max depth %u is out of range (1..%u)", st->max_depth, RC_MAX_DEPTH);
    if (st->backend == RC_BACKEND_CUDA && !rc_have_cuda_backend())
        return rc_fail(err, "this build has no CUDA backend");
    if (st->light_sampling != RC_LIGHTS_NEE && st->light_sampling != RC_LIGHTS_BSDF)
        return rc_fail(err, "unknown light sampling %d", st->light_sampling);
    if (st->seed > RC_MAX_SEED)
        return rc_fail(err, "seed %u is out of range (0..%u)", st->seed, RC_MAX_SEED);
    if (st->schedule != RC_SCHEDULE_REGEN && st->schedule != RC_SCHEDULE_WAVES)
        return rc_fail(err, "unknown schedule %d", (int)st->schedule);
    if (st->probes && !rc_have_probes()) return rc_fail(err, RC_PROBES_NEEDED);
    if (st->probes && st->backend != RC_BACKEND_CUDA)
        return rc_fail(err, "divergence probes count on the CUDA backend only (warps)");
    if (st->tune.pool > RC_POOL_MAX)
        return rc_fail(err, "a pool of %u path slots is too large (at most 2^27 = %u)",
                       st->tune.pool, RC_POOL_MAX);
    return 0;
}

int rc_settings_check(const rc_settings *st, rc_error *err) {
    if (check_settings(st, err) != 0) return -1;
    return rc_compact_check(st->algo, st->backend, err);
}

int rc_renderer_create(const rc_scene *scene, const rc_settings *st, rc_renderer **out,
                       rc_error *err) {
    *out = NULL;
    if (check_settings(st, err) != 0) return -1;
    rc_renderer *r = calloc(1, sizeof *r);
    if (!r) return rc_fail(err, "out of memory");
    r->st = *st;
    /* The library's own phase timings wait for each call: a graph cannot hold that. */
    if (st->tune.library_timing && r->st.frame_loop == RC_LOOP_GRAPH)
        r->st.frame_loop = RC_LOOP_STREAM;
    r->mask_bounce = -1;
    r->tail_from = st->max_depth;
    r->num_pixels = st->width * st->height;
    r->wave = st->samples_per_wave ? st->samples_per_wave : 1;
    r->st.samples_per_wave = r->wave;
    r->wave_now = r->wave;
    r->num_slots = (size_t)r->wave * r->num_pixels;
    /* --sort-materials partitions whole bounces of one wave: it keeps the waves schedule */
    if (st->sort_materials) r->st.schedule = RC_SCHEDULE_WAVES;
    r->regen = r->st.schedule == RC_SCHEDULE_REGEN;
    if (r->regen && !r->st.tune.pool) r->st.tune.pool = rc_default_pool(st->backend, st->algo);
    r->num_paths = r->regen && r->st.tune.pool < r->num_slots ? r->st.tune.pool : r->num_slots;
    r->pool_now = (uint32_t)r->num_paths;
    r->shade.num_pixels = r->num_pixels;
    r->shade.max_depth = st->max_depth;
    r->shade.rr_depth = RC_RR_DEPTH;
    r->shade.seed = st->seed;
    r->view = rc_scene_view_make(scene, st->width, st->height);
    r->nee = rc_view_nee(&r->view, st);
    r->sstream = r->nee && !rc_view_shadows_inline(&r->view, st);
    r->shade.nee = (uint32_t)r->nee;
    int cuda = st->backend == RC_BACKEND_CUDA;
    if (rc_compactor_init(&r->comp, st->algo, st->backend, st->tune.tile, st->tune.library_timing,
                          err) != 0 ||
        (r->sstream && rc_compactor_init(&r->scomp, st->algo, st->backend, st->tune.tile,
                                         st->tune.library_timing, err) != 0) ||
        (st->sort_materials && rc_sort_init(r, err) != 0) || /* before alloc_cuda warms it */
        (cuda ? alloc_cuda(r, scene, err) : alloc_cpu(r, err)) != 0) {
        rc_renderer_destroy(r);
        return -1;
    }
    r->st.algo = r->comp.name;
    *out = r;
    return 0;
}

void rc_renderer_destroy(rc_renderer *r) {
    if (!r) return;
    if (r->flight) { /* a submitted frame: the device finishes it before its buffers go */
        rc_error ignored;
        (void)rc_frame_finish(r, r->flight, &ignored);
        r->flight = NULL;
    }
    rc_mask_free(r);
#ifdef RC_HAVE_CUDA_BACKEND
    rc_cuda_destroy(r);
#endif
    rc_compactor_free(&r->comp);
    rc_compactor_free(&r->scomp);
    sc_context_destroy(r->sorter);
    free_cpu(r);
    free(r);
}

int rc_renderer_film(rc_renderer *r, int64_t *sums, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_film(r, sums, err);
#endif
    (void)err;
    memcpy(sums, r->cpu.accum, (size_t)r->num_pixels * 3 * sizeof *sums);
    return 0;
}

int rc_renderer_use(rc_renderer *r, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_use(r, err);
#endif
    (void)r;
    (void)err;
    return 0;
}

int rc_renderer_image(rc_renderer *r, float *rgb, rc_error *err) {
    size_t n = r->num_pixels;
    int64_t *sums = r->st.backend == RC_BACKEND_CUDA ? malloc(n * 3 * sizeof *sums) : r->cpu.accum;
    if (!sums) return rc_fail(err, "out of memory for the film");
    int rc = sums == r->cpu.accum ? 0 : rc_renderer_film(r, sums, err);
    if (rc == 0) rc_film_image(sums, n, r->frames, rgb);
    if (sums != r->cpu.accum) free(sums);
    return rc;
}

void rc_renderer_reset(rc_renderer *r) {
    r->frames = 0;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        rc_cuda_reset(r);
        return;
    }
#endif
    memset(r->cpu.accum, 0, (size_t)r->num_pixels * 3 * sizeof *r->cpu.accum);
}

void rc_renderer_set_camera(rc_renderer *r, const rc_camera *cam) {
    r->view.camera = *cam;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) rc_cuda_set_camera(r, cam);
#endif
}

int rc_renderer_film_to_device(rc_renderer *r, void *d_rgb, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_film_copy(r, d_rgb, err);
#endif
    (void)d_rgb;
    return rc_fail(err, "%s: the film is not in device memory", rc_backend_name(r->st.backend));
}

void rc_frame_begin(rc_renderer *r, rc_frame_stats *st) {
    st->loop = r->st.backend == RC_BACKEND_CUDA ? r->st.frame_loop : RC_LOOP_HOST;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) rc_cuda_frame_begin(r, st);
#else
    (void)r;
#endif
}

int rc_frame_replay(rc_renderer *r) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) return rc_cuda_of(r)->replay;
#endif
    (void)r;
    return 0;
}

void rc_frame_abort(rc_renderer *r) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) rc_cuda_frame_abort(r);
#else
    (void)r;
#endif
}

/* Each bounce's algorithm: what its last call ran (a replayed graph runs what was captured). */
static void note_choices(const rc_renderer *r, rc_frame_stats *st) {
    for (uint32_t b = 0; b < st->bounces && b < RC_MAX_DEPTH; b++) {
        st->bounce[b].algo = b >= st->tail_from  ? RC_TAIL_NAME
                             : r->comp.chosen[b] ? r->comp.chosen[b]
                                                 : r->comp.name;
        st->bounce[b].shadow_algo = !r->sstream || b >= st->tail_from ? NULL
                                    : r->scomp.chosen[b]              ? r->scomp.chosen[b]
                                                                      : r->scomp.name;
    }
}

void rc_frame_submit(rc_renderer *r, rc_frame_stats *st) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) rc_cuda_frame_submit(r, st);
#else
    (void)r;
    (void)st;
#endif
}

int rc_frame_finish(rc_renderer *r, rc_frame_stats *st, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        if (rc_cuda_frame_end(r, st, err) != 0) return -1;
        note_choices(r, st);
        rc_frame_traffic(r, st); /* from the counts and choices just noted */
        rc_compact_learn(r, st);
        rc_tail_learn(r, st);
        return 0;
    }
#endif
    (void)err;
    note_choices(r, st);
    rc_frame_traffic(r, st);
    return 0;
}
