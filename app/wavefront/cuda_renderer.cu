/* cuda_renderer.cu: the CUDA backend's state: scene upload, device stream buffers, the frame
 * loops (per-bounce read-back, or device-resident and captured into a graph), phase timing with
 * events, the film. */
#include "compact.h"
#include "cuda_backend.h"
#include "megakernel.h"
#include "timing.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

static cudaStream_t stream_of(rc_cuda *c) {
    return (cudaStream_t)c->stream;
}

extern "C" void rc_cuda_note(rc_renderer *r, int cuda_error) {
    rc_cuda *c = rc_cuda_of(r);
    c->queued++;
    if (cuda_error != cudaSuccess && c->error == cudaSuccess) c->error = cuda_error;
}

static int take_error(rc_renderer *r, const char *what, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    int e = c->error;
    if (e == cudaSuccess) e = (int)cudaGetLastError();
    c->error = cudaSuccess;
    if (e == cudaSuccess) return 0;
    return rc_fail(err, "CUDA error %s: %s", what, cudaGetErrorString((cudaError_t)e));
}

/* cudaMalloc + copy of `bytes` from host; NULL for 0 bytes. */
static cudaError_t upload(void **dst, const void *src, size_t bytes) {
    *dst = NULL;
    if (bytes == 0) return cudaSuccess;
    cudaError_t e = cudaMalloc(dst, bytes);
    if (e == cudaSuccess) e = cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice);
    return e;
}

static cudaError_t upload_scene(rc_renderer *r, const rc_scene *scene) {
    rc_cuda *c = rc_cuda_of(r);
    c->view = r->view;
    cudaError_t e = (cudaError_t)rc_cuda_upload_nodes(scene, &c->d_nodes, &c->view.bvh);
    if (e == cudaSuccess)
        e = upload(&c->d_prims, scene->bvh.prims, scene->bvh.num_prims * sizeof(rc_prim));
    if (e == cudaSuccess)
        e = upload(&c->d_materials, scene->materials, scene->num_materials * sizeof(rc_material));
    if (e == cudaSuccess)
        e = upload(&c->d_light_prims, scene->light_prims, scene->num_lights * sizeof(uint32_t));
    if (e == cudaSuccess)
        e = upload(&c->d_light_cdf, scene->light_cdf, scene->num_lights * sizeof(float));
    c->view.lights.prims = (const uint32_t *)c->d_light_prims;
    c->view.lights.cdf = (const float *)c->d_light_cdf;
    c->view.bvh.prims = (const rc_prim *)c->d_prims;
    c->view.materials = (const rc_material *)c->d_materials;
    static_assert(sizeof c->d_mesh / sizeof *c->d_mesh == RC_CUDA_SCENE_EXTRAS, "d_mesh");
    if (e == cudaSuccess) e = (cudaError_t)rc_cuda_upload_extras(scene, c->d_mesh, &c->view);
    return e;
}

/* The device buffers: the stream's (rc_stream_layout), then the backend's own: the refill's
 * claims, the sort's group sizes, the per-bounce counts, the sample index and the camera (the
 * CPU backend keeps these in rc_renderer). Returns their bytes. */
#define CUDA_BUFS (RC_STREAM_BUFS + 6)
static size_t device_bufs(rc_renderer *r, rc_buf *b) {
    rc_cuda *c = rc_cuda_of(r);
    const size_t groups = (RC_MAX_DEPTH + 1) * RC_SORT_KEYS * sizeof(uint32_t);
    rc_stream_layout(r, &c->bufs, &c->accum, b);
    const rc_buf own[CUDA_BUFS - RC_STREAM_BUFS] = {
        {(void **)&c->regen, r->regen ? 4 * sizeof(uint32_t) : 0, 0},
        {(void **)&c->groups, r->st.sort_materials ? groups : 0, 0},
        {(void **)&c->counts, (RC_MAX_DEPTH + 1) * sizeof(rc_cuda_counts), RC_ON_CUDA},
        {(void **)&c->d_sample, sizeof(uint32_t), 0},
        {(void **)&c->d_camera, sizeof(rc_camera), 0},
        {(void **)&c->probes, r->st.probes ? RC_PROBE_COPIES * sizeof(rc_probe_counts) : 0,
         RC_ON_CUDA},
    };
    memcpy(b + RC_STREAM_BUFS, own, sizeof own);
    size_t total = 0;
    for (int i = 0; i < CUDA_BUFS; i++) total += b[i].bytes;
    return total;
}

/* Allocate the stream's device buffers; when the GPU is out of memory, say how much the stream
 * needs against what is free (the GPU may be shared), so the user knows what to shrink. */
static int alloc_stream(rc_renderer *r, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    rc_buf b[CUDA_BUFS];
    size_t total = device_bufs(r, b);
    cudaError_t e = cudaSuccess;
    for (int i = 0; e == cudaSuccess && i < CUDA_BUFS; i++)
        if (b[i].bytes) e = cudaMalloc(b[i].ptr, b[i].bytes);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        size_t free_b = 0, total_b = 0;
        (void)cudaMemGetInfo(&free_b, &total_b);
        return rc_fail(err,
                       "CUDA backend: out of GPU memory: a stream of %zu paths (%s mode) needs "
                       "%zu MiB, %zu of %zu MiB are free; try a smaller image, fewer "
                       "--samples-per-wave or --mode indices",
                       r->num_paths, rc_mode_name(r->st.mode), total >> 20, free_b >> 20,
                       total_b >> 20);
    }
    for (int i = 0; e == cudaSuccess && i < CUDA_BUFS; i++)
        if (b[i].bytes && (b[i].cleared & RC_ON_CUDA)) e = cudaMemset(*b[i].ptr, 0, b[i].bytes);
    if (e == cudaSuccess)
        e = cudaMemcpy(c->d_sample, &r->st.first_sample, sizeof(uint32_t), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(c->d_camera, &r->view.camera, sizeof(rc_camera), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMallocHost(&c->h_counts, (RC_MAX_DEPTH + 1) * sizeof(rc_cuda_counts));
    /* The scene's uploads and the clears and copies above ran on the legacy default stream (a
     * copy from pageable memory may even return before its last bytes land); the renderer's
     * stream is non-blocking and would not wait for them. Once, at setup: */
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "CUDA backend: %s", cudaGetErrorString(e));
    }
    return 0;
}

extern "C" int rc_cuda_create(rc_renderer *r, const rc_scene *scene, rc_error *err) {
    rc_cuda *c = (rc_cuda *)calloc(1, sizeof *c);
    if (!c) return rc_fail(err, "out of memory");
    r->cuda = c;
    cudaStream_t s = NULL;
    cudaError_t e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    c->stream = s;
    for (int i = 0; e == cudaSuccess && i < 2 * RC_CUDA_MAX_TIMED; i++) {
        cudaEvent_t ev = NULL;
        e = cudaEventCreate(&ev);
        c->events[i] = ev;
    }
    if (e == cudaSuccess && rc_cuda_check_scene_fits(scene, "CUDA backend", err) != 0) return -1;
    double t_up = timing_now_ms();
    if (e == cudaSuccess) e = upload_scene(r, scene);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    r->upload_ms = timing_now_ms() - t_up;
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "CUDA backend: %s", cudaGetErrorString(e));
    }
    if (alloc_stream(r, err) != 0) return -1;
#ifdef RC_PROBES
    c->view.bvh.probe = c->probes; /* before any launch: a captured frame holds the view */
#endif
    r->comp.opt.stream = c->stream;
    r->scomp.opt.stream = c->stream;
    c->device_loop = r->st.frame_loop != RC_LOOP_HOST;
    int sms = 0, dev = 0;
    e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "CUDA backend: %s", cudaGetErrorString(e));
    }
    c->grid_cap = (uint32_t)sms * (2048u / RC_CUDA_BLOCK);
    c->device = dev;
    /* One call over the whole wave (with a device length of 0) before any frame: the library
     * sizes its storage for the bound now, so no later call allocates or waits, and a frame can
     * be captured into a graph. */
    if (c->device_loop && rc_compact_warm(r, err) != 0) return -1;
    if (c->device_loop && r->sorter && rc_sort_warm(r, err) != 0) return -1;
    return 0;
}

extern "C" void rc_cuda_destroy(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    if (!c) return;
    if (c->stream) cudaStreamSynchronize(stream_of(c));
    if (c->graph_exec) cudaGraphExecDestroy((cudaGraphExec_t)c->graph_exec);
    rc_buf b[CUDA_BUFS];
    device_bufs(r, b);
    for (int i = 0; i < CUDA_BUFS; i++) cudaFree(*b[i].ptr);
    void *scene[] = {c->d_nodes, c->d_prims, c->d_materials, c->d_light_prims, c->d_light_cdf};
    for (size_t i = 0; i < sizeof scene / sizeof *scene; i++) cudaFree(scene[i]);
    for (int i = 0; i < RC_CUDA_SCENE_EXTRAS; i++) cudaFree(c->d_mesh[i]);
    cudaFreeHost(c->h_counts);
    for (int i = 0; i < 2 * RC_CUDA_MAX_TIMED; i++)
        if (c->events[i]) cudaEventDestroy((cudaEvent_t)c->events[i]);
    if (c->stream) cudaStreamDestroy(stream_of(c));
    free(c);
    r->cuda = NULL;
}

/* An event on the stream; while capturing, an event node of the graph (recorded at each
 * replay, so the replayed frame's phases are timed too). */
static void record(rc_renderer *r, int i) {
    rc_cuda *c = rc_cuda_of(r);
    unsigned flags = c->capturing ? cudaEventRecordExternal : cudaEventRecordDefault;
    rc_cuda_note(r, cudaEventRecordWithFlags((cudaEvent_t)c->events[i], stream_of(c), flags));
}

/* Phase timing: in a captured frame, a phase queued right after the last timed one (nothing
 * in between: the usual case) starts at that one's end event, so the graph holds about half
 * the event nodes of a pair per phase, and they cost (docs/bench/h100.md). Launched call by
 * call (stream and host loops) each phase keeps its own pair: there the GPU may wait for the
 * host between two phases, which neither phase should count. */
extern "C" void rc_cuda_phase_begin(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    if (!r->st.tune.phase_timing || c->num_timed >= RC_CUDA_MAX_TIMED) return;
    if (c->capturing && c->last_end >= 0 && c->queued == c->end_mark) {
        c->event_begin[c->num_timed] = (uint16_t)c->last_end;
        return;
    }
    c->event_begin[c->num_timed] = (uint16_t)c->num_events;
    record(r, c->num_events++);
}

extern "C" void rc_cuda_phase_end(rc_renderer *r, double *dst) {
    rc_cuda *c = rc_cuda_of(r);
    if (!r->st.tune.phase_timing || c->num_timed >= RC_CUDA_MAX_TIMED) return;
    c->last_end = c->num_events;
    c->event_end[c->num_timed] = (uint16_t)c->num_events;
    record(r, c->num_events++);
    c->end_mark = c->queued;
    c->event_dst[c->num_timed++] = (size_t)((char *)dst - (char *)c->frame);
}

extern "C" uint32_t rc_cuda_bound(rc_renderer *r) {
    return rc_cuda_of(r)->device_loop ? r->pool_now : r->n;
}

extern "C" unsigned rc_cuda_grid(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    uint32_t blocks = (rc_cuda_bound(r) + RC_CUDA_BLOCK - 1) / RC_CUDA_BLOCK;
    if (c->device_loop && blocks > c->grid_cap) blocks = c->grid_cap;
    return blocks ? blocks : 1;
}

static void drop_graph(rc_cuda *c) {
    if (c->graph_exec) cudaGraphExecDestroy((cudaGraphExec_t)c->graph_exec);
    c->graph_exec = NULL;
}

extern "C" void rc_cuda_frame_begin(rc_renderer *r, rc_frame_stats *st) {
    rc_cuda *c = rc_cuda_of(r);
    c->frame = st;
    c->replay = 0;
    if (r->st.frame_loop == RC_LOOP_GRAPH) {
        /* A graph holds one wave size and one watched bounce; the camera and the sample index
         * are read on the device, so moving the camera or resetting the film keeps it. auto's
         * choice per bounce is frozen in it too: when the previous frame's densities would
         * make auto choose another algorithm at some bounce, the frame is captured again. */
        int same = c->graph_exec && c->graph_wave == r->wave_now && c->graph_mask == r->mask_bounce;
        /* a density near a rule's edge flips auto's choice from frame to frame: recapture only
         * once the new choice has held for RC_RECAPTURE_FRAMES frames in a row; but a frame
         * captured before any density was known planned blind, and is replaced at once */
        int changed = same && (c->changed_known ? c->changed_next : rc_compact_choice_changed(r));
        c->changed_known = 0;
        c->choice_streak = changed ? c->choice_streak + 1 : 0;
        if (changed && c->graph_blind && rc_compact_has_hints(r))
            c->choice_streak = RC_RECAPTURE_FRAMES;
        if (same && c->choice_streak < RC_RECAPTURE_FRAMES) {
            c->replay = 1;
            return;
        }
        c->choice_streak = 0;
        drop_graph(c);
        cudaError_t e = cudaStreamBeginCapture(stream_of(c), cudaStreamCaptureModeThreadLocal);
        rc_cuda_note(r, e);
        c->capturing = e == cudaSuccess;
        st->captured = c->capturing;
        c->graph_wave = r->wave_now;
        c->graph_mask = r->mask_bounce;
        c->graph_blind = !rc_compact_has_hints(r);
    }
    c->num_timed = c->num_events = 0;
    c->last_end = -1;
    rc_cuda_note(r, cudaMemsetAsync(c->counts, 0, (RC_MAX_DEPTH + 1) * sizeof(rc_cuda_counts),
                                    stream_of(c)));
}

extern "C" void rc_cuda_frame_abort(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    if (!c->capturing) return;
    cudaGraph_t g = NULL;
    (void)cudaStreamEndCapture(stream_of(c), &g);
    if (g) cudaGraphDestroy(g);
    (void)cudaGetLastError();
    c->capturing = 0;
}

/* Graph loop: end the capture, instantiate it once, and launch it (every frame). */
static void launch_graph(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    if (c->capturing) {
        cudaGraph_t g = NULL;
        c->capturing = 0;
        cudaError_t e = cudaStreamEndCapture(stream_of(c), &g);
        if (e == cudaSuccess && c->error == cudaSuccess) {
            cudaGraphExec_t exec = NULL;
            e = cudaGraphInstantiate(&exec, g, 0);
            c->graph_exec = e == cudaSuccess ? exec : NULL;
        }
        if (g) cudaGraphDestroy(g);
        rc_cuda_note(r, e);
    }
    if (c->graph_exec)
        rc_cuda_note(r, cudaGraphLaunch((cudaGraphExec_t)c->graph_exec, stream_of(c)));
}

extern "C" void rc_cuda_set_camera(rc_renderer *r, const rc_camera *cam) {
    rc_cuda *c = rc_cuda_of(r);
    c->view.camera = *cam;
    rc_cuda_note(r, cudaMemcpyAsync(c->d_camera, &c->view.camera, sizeof *cam,
                                    cudaMemcpyHostToDevice, stream_of(c)));
    /* c->view.camera is pageable and may change again before the copy runs */
    rc_cuda_note(r, cudaStreamSynchronize(stream_of(c)));
}

extern "C" int rc_cuda_sync(rc_renderer *r, const char *what, rc_error *err) {
    rc_cuda_note(r, cudaStreamSynchronize(stream_of(rc_cuda_of(r))));
    return take_error(r, what, err);
}

extern "C" int rc_cuda_read_counts(rc_renderer *r, uint32_t bounce, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    rc_cuda_note(r, cudaMemcpyAsync(&c->h_counts[bounce], &c->counts[bounce],
                                    sizeof(rc_cuda_counts), cudaMemcpyDeviceToHost, stream_of(c)));
    rc_cuda_note(r, cudaStreamSynchronize(stream_of(c)));
    return take_error(r, "in extend or shade", err);
}

/* The shadow stream of bounce b: its statistics, and that its compaction kept what shade
 * wrote (for `none`, that shade set its length to the path stream's). Shadow rays traced in
 * shade: their count, and no stream to check. */
static int check_shadows(rc_renderer *r, const rc_cuda_counts *h, uint32_t b, uint32_t stream,
                         rc_bounce_stats *o, rc_error *err) {
    if (!r->nee) return 0;
    o->shadow_in = stream;
    o->shadow_kept = h->shadows;
    if (!r->sstream) return 0;
    uint32_t want = rc_compact_as_none(&r->scomp, b) ? stream : h->shadows;
    if (h->shadow_stream != want)
        return rc_fail(err,
                       "compaction '%s' left %u shadow rays on the device at bounce %u, want %u",
                       r->scomp.name, h->shadow_stream, b, want);
    return 0;
}

/* Device loops: the per-bounce statistics from the counts read back once per frame. A bounce
 * queued after every path had ended walked an empty stream. From the tail's first bounce
 * (st->tail_from) on, the tail kernel counted live, kept and shadow rays; past that bounce it
 * walks only the paths it carries: the kept ones of the bounce before. */
/* regen: every step's length is what its refill left (kept + refilled; `none`: the pool), and
 * the compaction must have kept what shade kept. From the tail's step on, the tail kernel
 * carried the paths and the samples left; it counts nothing per step. */
static int regen_stats(rc_renderer *r, rc_frame_stats *st, rc_error *err) {
    const rc_cuda_counts *h = rc_cuda_of(r)->h_counts;
    const uint32_t from = st->tail_from;
    const int none = r->comp.input == RC_COMPACT_NOTHING;
    for (uint32_t b = 0; b < st->bounces; b++) {
        rc_bounce_stats *o = &st->bounce[b];
        if (b > from) continue;
        o->stream = b > 0 && h[b - 1].kept == 0 && h[b - 1].refilled == 0 ? 0 : h[b].stream;
        o->alive = h[b].alive; /* at the tail's step: the paths it started with */
        if (b == from) continue;
        o->kept = h[b].kept;
        o->refilled = h[b].refilled;
        uint32_t want = none ? o->stream : h[b].kept + h[b].refilled;
        if (o->stream && ((!none && h[b].compacted != h[b].kept) || h[b + 1].stream != want))
            return rc_fail(err,
                           "compaction '%s' and refill left %u paths on the device at step %u, "
                           "want %u",
                           r->comp.name, h[b + 1].stream, b, want);
        if (check_shadows(r, &h[b], b, o->stream, o, err) != 0) return -1;
    }
    return 0;
}

static int device_loop_stats(rc_renderer *r, rc_frame_stats *st, rc_error *err) {
    const rc_cuda_counts *h = rc_cuda_of(r)->h_counts;
    const uint32_t from = st->tail_from;
    if (r->regen) {
        st->bounces = r->steps;
        return regen_stats(r, st, err);
    }
    st->bounces = r->st.max_depth;
    for (uint32_t b = 0; b < st->bounces; b++) {
        rc_bounce_stats *o = &st->bounce[b];
        o->stream = b > 0 && h[b - 1].kept == 0 ? 0 : b > from ? h[b - 1].kept : h[b].stream;
        o->alive = h[b].alive;
        o->kept = h[b].kept;
        if (b >= from) { /* nothing compacted: the shadow rays were traced where shade drew them */
            o->shadow_in = r->nee ? o->stream : 0;
            o->shadow_kept = h[b].shadows;
            continue;
        }
        uint32_t want = rc_compact_as_none(&r->comp, b) ? o->stream : h[b].kept;
        if (h[b + 1].stream != want)
            return rc_fail(err, "compaction '%s' left %u paths on the device at bounce %u, want %u",
                           r->comp.name, h[b + 1].stream, b, want);
        if (check_shadows(r, &h[b], b, o->stream, o, err) != 0) return -1;
    }
    return 0;
}

extern "C" void rc_cuda_frame_submit(rc_renderer *r, rc_frame_stats *st) {
    rc_cuda *c = rc_cuda_of(r);
    if (r->st.frame_loop == RC_LOOP_GRAPH) launch_graph(r);
    uint32_t rows = r->regen ? r->steps : c->device_loop ? r->st.max_depth : st->bounces;
    size_t bytes = (rows + 1) * sizeof(rc_cuda_counts);
    rc_cuda_note(
        r, cudaMemcpyAsync(c->h_counts, c->counts, bytes, cudaMemcpyDeviceToHost, stream_of(c)));
    /* While the GPU runs the frame: would auto's choice (with the densities known so far)
     * differ from the captured plan? The next frame's rc_cuda_frame_begin takes the answer
     * instead of asking before its launch, with the GPU idle (a preview per bounce and
     * stream). A choice seen a frame later changes nothing: a recapture waits for
     * RC_RECAPTURE_FRAMES frames of it anyway. */
    c->changed_known = 0;
    if (r->st.frame_loop == RC_LOOP_GRAPH && c->graph_exec && rc_compact_has_hints(r)) {
        c->changed_next = rc_compact_choice_changed(r);
        c->changed_known = 1;
    }
}

extern "C" int rc_cuda_frame_end(rc_renderer *r, rc_frame_stats *st, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    rc_cuda_note(r, cudaStreamSynchronize(stream_of(c)));
    for (int i = 0; i < c->num_timed; i++) {
        float ms = 0.0f;
        rc_cuda_note(r, cudaEventElapsedTime(&ms, (cudaEvent_t)c->events[c->event_begin[i]],
                                             (cudaEvent_t)c->events[c->event_end[i]]));
        *(double *)((char *)st + c->event_dst[i]) += (double)ms;
    }
    if (take_error(r, "in the frame", err) != 0) {
        drop_graph(c);
        return -1;
    }
    if (c->device_loop || r->regen) return device_loop_stats(r, st, err);
    for (uint32_t b = 0; b < st->bounces; b++) {
        const rc_cuda_counts *h = c->h_counts;
        uint32_t want = r->comp.input == RC_COMPACT_NOTHING ? h[b].stream : h[b].kept;
        if (h[b + 1].stream != want)
            return rc_fail(err,
                           "compaction '%s' left %u paths on the device at bounce %u, "
                           "want %u",
                           r->comp.name, h[b + 1].stream, b, want);
        if (check_shadows(r, &h[b], b, h[b].stream, &st->bounce[b], err) != 0) return -1;
    }
    return 0;
}

extern "C" int rc_cuda_film(rc_renderer *r, int64_t *sums, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    rc_cuda_note(r, cudaMemcpyAsync(sums, c->accum, r->num_pixels * 3 * sizeof(int64_t),
                                    cudaMemcpyDeviceToHost, stream_of(c)));
    rc_cuda_note(r, cudaStreamSynchronize(stream_of(c)));
    return take_error(r, "reading the film", err);
}

extern "C" int rc_cuda_film_copy(rc_renderer *r, void *d_rgb, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    /* The legacy default stream does not wait for a non-blocking stream: wait here, then copy
     * there, where a caller's graphics mapping (cudaGraphicsMapResources on stream 0) orders it. */
    rc_cuda_note(r, cudaStreamSynchronize(stream_of(c)));
    rc_cuda_film_float(r, d_rgb);
    rc_cuda_note(r, cudaDeviceSynchronize());
    return take_error(r, "copying the film", err);
}

extern "C" int rc_cuda_use(rc_renderer *r, rc_error *err) {
    cudaError_t e = cudaSetDevice(rc_cuda_of(r)->device);
    if (e == cudaSuccess) return 0;
    (void)cudaGetLastError();
    return rc_fail(err, "CUDA device %d: %s", rc_cuda_of(r)->device, cudaGetErrorString(e));
}

extern "C" void rc_cuda_reset(rc_renderer *r) {
    rc_cuda *c = rc_cuda_of(r);
    rc_cuda_note(r,
                 cudaMemsetAsync(c->accum, 0, r->num_pixels * 3 * sizeof(int64_t), stream_of(c)));
    /* the next wave starts at the first sample again; the source never changes */
    rc_cuda_note(r, cudaMemcpyAsync(c->d_sample, &r->st.first_sample, sizeof(uint32_t),
                                    cudaMemcpyHostToDevice, stream_of(c)));
}

extern "C" void rc_probe_sum(const rc_probe_counts *copies, rc_probe_counts *out) {
    memset(out, 0, sizeof *out);
    for (int k = 0; k < RC_PROBE_COPIES; k++) rc_probe_counts_add(out, &copies[k]);
}

extern "C" int rc_cuda_probes_read(rc_renderer *r, rc_probe_counts *out, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    rc_probe_counts *h = (rc_probe_counts *)malloc(RC_PROBE_COPIES * sizeof *h);
    if (!h) return rc_fail(err, "out of memory");
    cudaError_t e = cudaMemcpyAsync(h, c->probes, RC_PROBE_COPIES * sizeof *h,
                                    cudaMemcpyDeviceToHost, stream_of(c));
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_of(c));
    if (e == cudaSuccess) rc_probe_sum(h, out);
    free(h);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "reading the divergence probes: %s", cudaGetErrorString(e));
    }
    return 0;
}

extern "C" int rc_cuda_probes_clear(rc_renderer *r, rc_error *err) {
    rc_cuda *c = rc_cuda_of(r);
    cudaError_t e =
        cudaMemsetAsync(c->probes, 0, RC_PROBE_COPIES * sizeof(rc_probe_counts), stream_of(c));
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return rc_fail(err, "clearing the divergence probes: %s", cudaGetErrorString(e));
    }
    return 0;
}
