/* renderer.h: the renderer's state and the phases render_frame() calls, shared by the phase
 * files (one per phase) and the backends. Not part of the public API (wavefront.h). Layers:
 * renderer.c (this state's passive helpers) <- the phases <- lifecycle.c (create, destroy, a
 * frame's begin and end) <- render_frame.c; each calls only into the layers below it. */
#ifndef RC_RENDERER_H
#define RC_RENDERER_H

#include "compactor.h"
#include "../core/path.h"
#include "wavefront.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OpenMP on the CPU backend: every loop is over independent paths or pixels, so the result
 * does not depend on the thread count. Without OpenMP the loops run serially. */
#define RC_PRAGMA(x) _Pragma(#x)
#ifdef _OPENMP
#define RC_OMP(...) RC_PRAGMA(omp __VA_ARGS__)
#else
#define RC_OMP(...)
#endif

/* The stream's buffers: host memory on the CPU backend (rc_cpu_stream), device memory on the
 * CUDA backend (rc_cuda). In indices mode path records stay at index = pixel and `queue` lists
 * the live ones; in payload mode the records themselves form the stream. The *_alt buffers
 * receive out-of-place (flag stencil) compactions and partitions and are swapped in after.
 * Which of them a renderer has, and their sizes: rc_stream_layout. */
typedef struct rc_stream_bufs {
    rc_path *paths, *paths_alt;  /* num_paths records each (alt: payload mode only) */
    uint32_t *queue, *queue_alt; /* indices mode only */
    uint8_t *flags;              /* RC_COMPACT_FLAGS: one byte per stream slot */
    uint32_t *removed;           /* RC_COMPACT_REMOVALS: dead stream slots, in any order */
    rc_vec3 *sample_rgb;         /* this wave's value of each pixel, one image per sample */
    /* the shadow stream (NEE only): shade writes shadows[i] for stream slot i; indices mode
       compacts squeue (slot numbers), payload mode the records */
    rc_shadow *shadows, *shadows_alt;
    uint32_t *squeue, *squeue_alt;
    uint8_t *sflags;
    uint32_t *sremoved;
    uint8_t *keys;       /* --sort-materials: the material kind of each stream slot's hit */
    uint32_t *free_recs; /* regen, indices mode, compacting: records whose paths ended, a stack
                            shade pushes and the refill pops */
} rc_stream_bufs;

/* One allocation of the stream: where its pointer lives, its size for the renderer's settings
 * (0: the renderer has none), and the backends that clear it when they allocate it. */
typedef struct rc_buf {
    void **ptr;
    size_t bytes;
    unsigned cleared; /* RC_ON_CPU, RC_ON_CUDA, both or 0 */
} rc_buf;
#define RC_ON_CPU  (1u << RC_BACKEND_CPU)
#define RC_ON_CUDA (1u << RC_BACKEND_CUDA)

/* The stream's allocations, the same on both backends: each buffer of `b`, then the film. */
#define RC_STREAM_BUFS 16
void rc_stream_layout(const rc_renderer *r, rc_stream_bufs *b, int64_t **accum,
                      rc_buf out[RC_STREAM_BUFS]);

/* The CPU backend's stream: its buffers, the lengths of its lists, and the film. */
typedef struct rc_cpu_stream {
    rc_stream_bufs bufs;
    uint32_t num_removed;  /* entries in bufs.removed */
    uint32_t num_sremoved; /* entries in bufs.sremoved */
    uint32_t num_free;     /* records on the bufs.free_recs stack */
    int64_t *accum;        /* the film: 3 fixed-point sums per pixel (film.h) */
} rc_cpu_stream;

struct rc_renderer {
    rc_settings st;
    uint32_t num_pixels;
    uint32_t wave;         /* samples per pixel a wave can hold (settings.samples_per_wave) */
    uint32_t wave_now;     /* samples per pixel in this frame's wave, 1 .. wave */
    size_t num_paths;      /* the stream's capacity: wave x num_pixels, or the pool (regen) */
    size_t num_slots;      /* wave x num_pixels: sample_rgb's slots, one per sample of a frame */
    int regen;             /* settings.schedule == RC_SCHEDULE_REGEN */
    uint32_t pool_now;     /* this frame's stream at its start: min(num_paths, its samples) */
    uint32_t issued;       /* regen, host-side loops: the frame's paths generated so far */
    uint32_t steps;        /* regen: steps the last run (or captured) frame queued, the tail's
                              included */
    uint32_t frames;       /* samples per pixel accumulated */
    rc_shade_params shade; /* first sample, max depth, roulette depth of this frame */
    rc_scene_view view;    /* host arrays */
    rc_compactor comp;
    rc_compactor scomp; /* the same algorithm, its own context, for the shadow stream */
    int nee;            /* shadow rays are traced: NEE on and lights in the scene */
    int sstream;        /* ... in a stream of their own, by the shadow phase (else shade traces
                           them: rc_shadows) */
    sc_context *sorter; /* --sort-materials: the partition's context (NULL: no sorting) */
    uint32_t groups[RC_SORT_KEYS]; /* CPU: the stream slots of each key after the sort */
    /* the stream, host side (CPU backend) */
    rc_cpu_stream cpu;
    uint32_t n;       /* stream length */
    uint32_t live;    /* live paths in the stream (n, except for `none`) */
    uint32_t sn;      /* shadow stream slots shade wrote this bounce (its stream length) */
    uint32_t shadows; /* shadow rays among them (CPU; the CUDA host loop reads it back) */
    void *cuda;       /* the CUDA backend's state (cuda_backend.h) */
    double upload_ms; /* CUDA: the scene's copy to the device at create */
    /* the tail (tail.c): the previous frame's live paths per bounce, whether a frame has
       given them, and the first bounce this frame's tail kernel runs (max_depth: none; a
       replayed graph runs the tail its capture planned) */
    uint32_t tail_live[RC_MAX_DEPTH];
    int tail_known;
    uint32_t tail_from;
    int tail_kind;   /* this frame's tail kernel (or its capture's): rc_tail_kind */
    int mask_bounce; /* the bounce whose alive-ray mask each frame records; -1 = none */
    uint8_t *mask;   /* num_pixels bytes (device memory on the CUDA backend), or NULL */
    /* a frame submitted and not waited for yet (rc_render_submit .. rc_render_wait) */
    rc_frame_stats *flight;      /* its stats; NULL: no frame in flight */
    rc_frame_stats flight_local; /* where they go when the caller passed none */
    uint32_t flight_samples;
    double flight_t0;
};

/* Settings `st` on the scene of view `v`: 1 if they trace shadow rays (NEE on and a light), and
 * 1 if shade traces them (rc_shadows, auto resolved for the view). */
int rc_view_nee(const rc_scene_view *v, const rc_settings *st);
int rc_view_shadows_inline(const rc_scene_view *v, const rc_settings *st);

/* The shadow ray in shadow stream slot i (CPU backend). */
static inline rc_shadow *rc_stream_shadow(rc_renderer *r, size_t i) {
    const rc_stream_bufs *b = &r->cpu.bufs;
    return r->st.mode == RC_MODE_PAYLOAD ? &b->shadows[i] : &b->shadows[b->squeue[i]];
}

/* The path in stream slot i (CPU backend). */
static inline rc_path *rc_stream_path(rc_renderer *r, size_t i) {
    const rc_stream_bufs *b = &r->cpu.bufs;
    return r->st.mode == RC_MODE_PAYLOAD ? &b->paths[i] : &b->paths[b->queue[i]];
}

/* ---- the phases, one file each; each times itself into the frame's stats ---- */
/* A phase's backend choice, as pbrt-v4's ForAllQueued: on the CUDA backend run `launch`, the
 * phase's kernels (each bounded by the stream's length, which the device loops keep on the
 * device: rc_cuda_bound), timed by the stream's events into *dst, and return from the phase.
 * Elsewhere nothing: the phase goes on to its CPU loop, timed with timing_now_ms into *dst.
 * The phase's file includes cuda_backend.h with the CUDA backend. */
#ifdef RC_HAVE_CUDA_BACKEND
#define RC_PHASE_ON_CUDA(r, dst, launch)                                                           \
    do {                                                                                           \
        if ((r)->st.backend == RC_BACKEND_CUDA) {                                                  \
            rc_cuda_phase_begin(r);                                                                \
            launch;                                                                                \
            rc_cuda_phase_end(r, dst);                                                             \
            return;                                                                                \
        }                                                                                          \
    } while (0)
#else
#define RC_PHASE_ON_CUDA(r, dst, launch) ((void)0)
#endif
/* generate: one camera ray per pixel and sample of the wave; the stream holds every path. */
void rc_generate(rc_renderer *r, rc_frame_stats *st);
/* extend: trace each live path's ray to its nearest hit. */
void rc_extend(rc_renderer *r, uint32_t bounce, rc_frame_stats *st);
/* shade: emission or background, scatter, roulette; write the compaction's input. */
void rc_shade(rc_renderer *r, uint32_t bounce, rc_frame_stats *st);
/* shadow: trace the compacted shadow rays (any hit) and add the light of the unblocked ones
 * to their paths' samples (shadow.c; nothing without NEE). */
void rc_trace_shadows(rc_renderer *r, uint32_t bounce, rc_frame_stats *st);
/* sort (--sort-materials only): classify each live path's hit by material kind and partition
 * the stream by it, so shade walks one kind after another (sort.c). */
int rc_sort(rc_renderer *r, uint32_t bounce, rc_frame_stats *st, rc_error *err);
/* CUDA device loops: one partition over the whole wave with a device length of 0, so the
 * library's storage is sized before any frame (as rc_compact_warm does). */
int rc_sort_warm(rc_renderer *r, rc_error *err);
/* The partition's context for the backend; an error where the backend cannot sort. */
int rc_sort_init(rc_renderer *r, rc_error *err);
/* tail: the first bounce from which one kernel finishes the frame's paths, from the previous
 * frame's live counts and rc_settings.tune.tail_below; max_depth when no bounce qualifies, before
 * the first frame, and outside the CUDA device loops (tail.c). */
uint32_t rc_tail_plan(const rc_renderer *r);
/* Run every bounce from `bounce` on in one kernel; its time goes to bounce[bounce].tail_ms. */
void rc_tail(rc_renderer *r, uint32_t bounce, rc_frame_stats *st);
/* CPU, regen: finish the stream's paths and trace the samples not yet issued, each path to its
 * end (refill.c); nothing in the waves schedule. */
void rc_cpu_tail(rc_renderer *r, uint32_t bounce, rc_frame_stats *st);
/* After a frame's counts came back: its live paths per bounce plan the next frame's tail. */
void rc_tail_learn(rc_renderer *r, const rc_frame_stats *st);
/* refill (regen): after bounce `bounce`'s compaction, new camera paths into the free slots of
 * the pool (refill.c); nothing in the waves schedule. Its time goes to generate_ms. */
void rc_refill(rc_renderer *r, uint32_t bounce, rc_frame_stats *st);
/* The frame's paths: wave_now x num_pixels; path g is sample g / num_pixels of pixel
 * g % num_pixels. */
static inline uint32_t rc_frame_paths(const rc_renderer *r) {
    return r->wave_now * r->num_pixels;
}
/* The loop's last step (regen): there the tail finishes every path and sample left. */
#define RC_REGEN_STEPS (RC_MAX_DEPTH - 1)
/* accumulate: film += this frame's value of every pixel. */
void rc_accumulate(rc_renderer *r, rc_frame_stats *st);
/* mask: clear the alive-ray mask at the start of a frame, and record it at the watched bounce
 * (mask.c; nothing unless the viewer asked for it). */
void rc_mask_begin(rc_renderer *r);
void rc_mask_record(rc_renderer *r, uint32_t bounce);
void rc_mask_free(rc_renderer *r);
/* 1 while some path may still be alive. */
int rc_stream_live(const rc_renderer *r);

/* After a frame: each bounce's stream traffic from the layouts and its counts (traffic.c). */
void rc_frame_traffic(const rc_renderer *r, rc_frame_stats *st);

/* Add the library's timings of its last call to the frame's. */
void rc_stats_add_library(rc_frame_stats *st, const sc_context *ctx);

#ifdef __cplusplus
}
#endif
#endif /* RC_RENDERER_H */
