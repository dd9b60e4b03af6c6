/* renderer.c: the renderer's passive helpers: settings and their names, the stream's buffers,
 * the film's values and the small public accessors. It calls no phase and no backend: the
 * phases build on it, and lifecycle.c, which creates and destroys a renderer on its backend and
 * opens and closes each frame, sits above them. */
#include "film.h"
#include "megakernel.h"
#include "renderer.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rc_settings_init(rc_settings *st, const rc_scene *scene) {
    memset(st, 0, sizeof *st);
    st->width = scene ? scene->defaults.width : RC_DEFAULT_WIDTH;
    st->height = scene ? scene->defaults.height : RC_DEFAULT_HEIGHT;
    st->max_depth = scene ? scene->defaults.max_depth : RC_DEFAULT_MAX_DEPTH;
    st->algo = "auto";
    st->mode = RC_MODE_INDICES;
    st->backend = RC_BACKEND_CPU;
    st->samples_per_wave = 1;
    st->schedule = RC_SCHEDULE_WAVES; /* docs/renderer.md compares the two schedules */
    st->light_sampling = scene ? scene->defaults.light_sampling : RC_LIGHTS_NEE;
    st->shadows = RC_SHADOWS_AUTO;
    rc_tuning_init(&st->tune);
}

void rc_tuning_init(rc_tuning *tune) {
    memset(tune, 0, sizeof *tune);
    tune->spread = 1;
    tune->auto_skip_below = RC_AUTO_SKIP_BELOW;
    tune->tail_below = RC_TAIL_BELOW;
    tune->fetch = RC_FETCH_BELOW;
    tune->phase_timing = 1;
}

/* The settings' names, in their enums' order (each enum counts from 0). */
static const char *const backend_names[] = {"cpu", "cuda"};
static const char *const mode_names[] = {"indices", "payload"};
static const char *const frame_loop_names[] = {"graph", "stream", "host"};
static const char *const schedule_names[] = {"regen", "waves"};
static const char *const shadows_names[] = {"stream", "inline", "auto"};
static const char *const megakernel_names[RC_MEGAKERNEL_COUNT] = {"flat", "objects", "bvh",
                                                                  "persistent"};
#define RC_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The index of `s` among names[0 .. count), or -1. */
static int name_index(const char *s, const char *const *names, int count) {
    for (int i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

const char *rc_backend_name(rc_backend b) {
    return b == RC_BACKEND_CUDA ? "cuda" : "cpu";
}
const char *rc_mode_name(rc_mode m) {
    return m == RC_MODE_PAYLOAD ? "payload" : "indices";
}
const char *rc_frame_loop_name(rc_frame_loop l) {
    return l == RC_LOOP_HOST ? "host" : l == RC_LOOP_STREAM ? "stream" : "graph";
}
const char *rc_schedule_name(rc_schedule s) {
    return s == RC_SCHEDULE_WAVES ? "waves" : "regen";
}
const char *rc_shadows_name(rc_shadows s) {
    return (unsigned)s <= RC_SHADOWS_AUTO ? shadows_names[s] : "?";
}
const char *rc_megakernel_name(rc_megakernel_kind kind) {
    return (unsigned)kind < RC_MEGAKERNEL_COUNT ? megakernel_names[kind] : NULL;
}

/* Each parser: 0 and *out = the value named `s`, or -1 with *out unchanged. */
#define RC_DEFINE_PARSE(fn, type, names)                                                           \
    int fn(const char *s, type *out) {                                                             \
        const int i = name_index(s, names, RC_COUNT(names));                                       \
        if (i >= 0) *out = (type)i;                                                                \
        return i < 0 ? -1 : 0;                                                                     \
    }
RC_DEFINE_PARSE(rc_backend_parse, rc_backend, backend_names)
RC_DEFINE_PARSE(rc_mode_parse, rc_mode, mode_names)
RC_DEFINE_PARSE(rc_frame_loop_parse, rc_frame_loop, frame_loop_names)
RC_DEFINE_PARSE(rc_schedule_parse, rc_schedule, schedule_names)
RC_DEFINE_PARSE(rc_shadows_parse, rc_shadows, shadows_names)
RC_DEFINE_PARSE(rc_megakernel_parse, rc_megakernel_kind, megakernel_names)

int rc_have_cuda_backend(void) {
#ifdef RC_HAVE_CUDA_BACKEND
    return 1;
#else
    return 0;
#endif
}

int rc_have_probes(void) {
#if defined(RC_PROBES) && defined(RC_HAVE_CUDA_BACKEND)
    return 1;
#else
    return 0;
#endif
}

int rc_renderer_probes(rc_renderer *r, rc_probe_counts *out, rc_error *err) {
    memset(out, 0, sizeof *out);
#if defined(RC_PROBES) && defined(RC_HAVE_CUDA_BACKEND)
    if (r->st.probes) return rc_cuda_probes_read(r, out, err);
#endif
    (void)r;
    return rc_fail(err, "this renderer counts no divergence probes (settings.probes)");
}

int rc_renderer_probes_clear(rc_renderer *r, rc_error *err) {
#if defined(RC_PROBES) && defined(RC_HAVE_CUDA_BACKEND)
    if (r->st.probes) return rc_cuda_probes_clear(r, err);
#endif
    (void)r;
    return rc_fail(err, "this renderer counts no divergence probes (settings.probes)");
}

#ifndef RC_HAVE_CUDA_BACKEND
/* megakernel.cu and cuda_device.cu are built with the CUDA backend only. */
int rc_cuda_use_device(int index, char *desc, size_t cap) {
    (void)index;
    snprintf(desc, cap, "no CUDA device (this build has no CUDA backend)");
    return -1;
}

int rc_cuda_device_count(void) {
    return 0;
}

int rc_cuda_current_device(void) {
    return -1;
}

int rc_cuda_init_device(int dev, rc_error *err) {
    return rc_fail(err, "CUDA device %d: this build has no CUDA backend", dev);
}

int rc_megakernel_render(const rc_scene *scene, const rc_settings *st, rc_megakernel_kind kind,
                         uint32_t spp, uint32_t runs, float *rgb, rc_megakernel_result *res,
                         rc_error *err) {
    (void)scene;
    (void)st;
    (void)kind;
    (void)spp;
    (void)runs;
    (void)rgb;
    (void)res;
    return rc_fail(err, "the megakernel baseline needs the CUDA backend, which this build lacks");
}
#endif

void rc_stream_layout(const rc_renderer *r, rc_stream_bufs *b, int64_t **accum,
                      rc_buf out[RC_STREAM_BUFS]) {
    const size_t n = r->num_paths;
    const int payload = r->st.mode == RC_MODE_PAYLOAD;
    const int flags = RC_WANTS_FLAGS(r->comp.input);
    const int list = RC_WANTS_REMOVALS(r->comp.input);
    const int sort = r->st.sort_materials != 0;
    const int alt = flags || sort; /* the partition writes out of place too */
    const int nee = r->sstream;    /* the shadow stream: NEE, its rays not traced in shade */
    const int free_recs = r->regen && !payload && r->comp.input != RC_COMPACT_NOTHING;
    const size_t recs = n * sizeof(rc_path), slots = n * sizeof(uint32_t);
    const size_t shadows = n * sizeof(rc_shadow);
    const rc_buf all[RC_STREAM_BUFS] = {
        {(void **)&b->paths, recs, 0},
        {(void **)&b->paths_alt, payload && alt ? recs : 0, 0},
        {(void **)&b->queue, payload ? 0 : slots, 0},
        {(void **)&b->queue_alt, !payload && alt ? slots : 0, 0},
        {(void **)&b->flags, flags ? n : 0, 0},
        {(void **)&b->removed, list ? slots : 0, 0},
        {(void **)&b->sample_rgb, r->num_slots * sizeof(rc_vec3), RC_ON_CPU},
        /* the shadow stream mirrors the path stream's buffers, with NEE only; it is not sorted */
        {(void **)&b->shadows, nee ? shadows : 0, 0},
        {(void **)&b->shadows_alt, nee && payload && flags ? shadows : 0, 0},
        {(void **)&b->squeue, nee && !payload ? slots : 0, 0},
        {(void **)&b->squeue_alt, nee && !payload && flags ? slots : 0, 0},
        {(void **)&b->sflags, nee && flags ? n : 0, 0},
        {(void **)&b->sremoved, nee && list ? slots : 0, 0},
        {(void **)&b->keys, sort ? n : 0, 0},
        {(void **)&b->free_recs, free_recs ? slots : 0, 0},
        {(void **)accum, (size_t)r->num_pixels * 3 * sizeof(int64_t), RC_ON_CPU | RC_ON_CUDA},
    };
    memcpy(out, all, sizeof all);
}

void rc_film_image(const int64_t *sums, size_t pixels, uint32_t samples, float *rgb) {
    RC_OMP(parallel for schedule(static))
    for (size_t i = 0; i < 3 * pixels; i++)
        rgb[i] = samples ? rc_film_value(sums[i], samples) : 0.0f;
}

uint32_t rc_renderer_frames(const rc_renderer *r) {
    return r->frames;
}

int rc_renderer_nee(const rc_renderer *r) {
    return r->nee;
}

int rc_view_nee(const rc_scene_view *v, const rc_settings *st) {
    return st->light_sampling == RC_LIGHTS_NEE &&
           (v->lights.count > 0 || v->lights.env_prob > 0.0f);
}

int rc_view_shadows_inline(const rc_scene_view *v, const rc_settings *st) {
    if (st->shadows != RC_SHADOWS_AUTO) return st->shadows == RC_SHADOWS_INLINE;
    /* auto: the classic shade kernel (kernels.cuh's level 0) takes the traversal in with little
       cost in registers and gains the 48-byte record's write and read, its compaction and a
       launch; the larger kernels of the later material models lose more occupancy than that
       (docs/renderer.md, "Shadow rays") */
    return v->features == 0u && !v->bvh.masked && v->bvh.inst.count == 0u;
}

int rc_shadow_rays(const rc_scene *scene, const rc_settings *st) {
    const rc_scene_view v =
        rc_scene_view_make(scene, st->width ? st->width : 1u, st->height ? st->height : 1u);
    if (!rc_view_nee(&v, st)) return -1;
    return rc_view_shadows_inline(&v, st) ? RC_SHADOWS_INLINE : RC_SHADOWS_STREAM;
}

int rc_renderer_shadows_inline(const rc_renderer *r) {
    return r->nee && !r->sstream;
}

double rc_renderer_upload_ms(const rc_renderer *r) {
    return r->upload_ms;
}

uint32_t rc_renderer_wave(const rc_renderer *r) {
    return r->wave;
}

int rc_stream_live(const rc_renderer *r) {
    /* The device loops queue every bounce: the kernels find the length on the device. */
    if (r->st.backend == RC_BACKEND_CUDA && r->st.frame_loop != RC_LOOP_HOST) return 1;
    return r->live > 0;
}

void rc_stats_add_library(rc_frame_stats *st, const sc_context *ctx) {
    sc_phase_timing t[SC_MAX_PHASES];
    size_t n = sc_last_timings(ctx, t, SC_MAX_PHASES);
    for (size_t i = 0; i < n && i < SC_MAX_PHASES; i++) {
        size_t j = 0;
        while (j < st->num_lib && strcmp(st->lib[j].name, t[i].name) != 0) j++;
        if (j == st->num_lib) {
            if (st->num_lib == SC_MAX_PHASES) continue;
            st->lib[j].name = t[i].name;
            st->lib[j].ms = 0.0;
            st->num_lib++;
        }
        st->lib[j].ms += t[i].ms;
    }
}
