/* wavefront.h: the wavefront path tracer. One frame (a wave) renders one sample per pixel, or
 * samples_per_wave of them, as one stream of paths:
 * generate -> [extend -> shade -> compact -> shadow] x bounces -> accumulate (render_frame.c),
 * with next-event estimation's shadow rays as a second stream, and every phase is timed into
 * one rc_frame_stats. In the CUDA device loops the last bounces, once few paths are left, run
 * in one kernel instead (rc_settings.tune.tail_below, tail.c). A wave of several samples per pixel
 * has the same number of launches as a wave of one, over a longer stream: the fixed cost of each
 * bounce (launches, the read-back of the counts) is shared by more rays. The image does not depend
 * on how the samples are split into waves, nor on how many processes rendered them: the film
 * holds exact fixed-point sums (film.h).
 *
 *     rc_renderer *r;
 *     if (rc_renderer_create(&scene, &settings, &r, &err) != 0) ...;
 *     while (rc_renderer_frames(r) < spp) rc_render_frame(r, &stats, &err);
 *     rc_renderer_image(r, rgb);    // the mean of the samples, linear RGB
 *     rc_renderer_destroy(r);
 */
#ifndef RC_WAVEFRONT_H
#define RC_WAVEFRONT_H

#include "../scene/scene.h"
#include "raycompact/compaction.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rc_backend { RC_BACKEND_CPU = 0, RC_BACKEND_CUDA = 1 } rc_backend;

/* What the compaction moves: the queue of 4-byte path indices, or the 64-byte records. */
typedef enum rc_mode { RC_MODE_INDICES = 0, RC_MODE_PAYLOAD = 1 } rc_mode;

/* How the CUDA backend drives a frame (the CPU backend has no launches to queue: it runs every
 * phase in turn and ignores this).
 *  graph:  the stream lengths stay on the device; every kernel reads its bounce's length there
 *          and threads past it return; all max_depth bounces are queued; the frame's launches
 *          are captured once into a CUDA graph and replayed every frame; the per-bounce counts
 *          and phase times come back once, at the end of the frame.
 *  stream: the same device-resident frame, launched call by call every frame (no graph).
 *  host:   after each bounce the host reads the counts back and waits, and sizes the next
 *          launches from them (one round trip per bounce; the loop stops when no path lives). */
typedef enum rc_frame_loop {
    RC_LOOP_GRAPH = 0,
    RC_LOOP_STREAM = 1,
    RC_LOOP_HOST = 2
} rc_frame_loop;

/* How a frame's samples flow through the stream.
 *  regen: a pool of path slots (rc_settings.tune.pool) holds the frame's paths; after each bounce's
 *         compaction the free slots at the end of the stream are refilled with new camera
 *         paths, in a fixed global order of (sample, pixel), until the frame's samples are
 *         issued; then the pool drains. The stream never runs dry while samples remain. With
 *         `none` new paths go into the dead slots where they lie (in place: the stream is never
 *         reordered). The refill count is read on the device: no host read per bounce.
 *  waves: the frame's samples are one wave: generated at once, traced until every path has
 *         ended (the stream drains from the first bounce on).
 * A sample's random numbers depend only on (pixel, sample, bounce, seed) and the film sums in
 * fixed point: both give the same image, byte for byte. */
typedef enum rc_schedule { RC_SCHEDULE_REGEN = 0, RC_SCHEDULE_WAVES = 1 } rc_schedule;

/* Where next-event estimation's shadow rays are traced (the image is the same either way: a
 * path's light samples add to its sample in the same order).
 *  stream: shade writes them to a second stream, which is compacted and traced by the shadow
 *          phase (a 48-byte record per ray written and read back);
 *  inline: shade traces each ray (any hit) right after it draws it, in the same thread, and the
 *          ray never reaches memory (no shadow stream, no second compaction);
 *  auto:   inline where shade's kernel is the classic one (no RC_FEAT_* feature, no alpha mask,
 *          no instances: a small kernel whose registers leave room for the traversal), stream
 *          elsewhere (evidence: docs/renderer.md, "Shadow rays"). */
typedef enum rc_shadows {
    RC_SHADOWS_STREAM = 0,
    RC_SHADOWS_INLINE = 1,
    RC_SHADOWS_AUTO = 2
} rc_shadows;

/* The tuning knobs: each changes how fast a frame renders, never its image. The command line
 * sets the first six with --set KEY=VALUE (the table in cli_common.c, --help-tuning); the
 * measurements behind the defaults are in docs/renderer.md ("Tuning knobs") and docs/design.md. */
typedef struct rc_tuning {
    size_t tile;    /* tile size of the block-based algorithms; 0: the library's default */
    uint32_t pool;  /* regen: path slots of the stream; 0: rc_default_pool */
    int spread;     /* CUDA: extend thins a stream shorter than its grid out over every SM
                       (default 1; extend.cu) */
    uint32_t fetch; /* CUDA: extend's ray fetch, a warp refetching when fewer than this many
                       lanes trace; 0: one thread per slot (default RC_FETCH_BELOW; extend.cu) */
    uint32_t auto_skip_below; /* CUDA device loops, `auto`: a bounce whose stream held fewer
                                 paths than this in the previous frame is left uncompacted (as
                                 `none`); 0: always compact (default RC_AUTO_SKIP_BELOW) */
    uint32_t tail_below;      /* CUDA device loops: from the first bounce with fewer live paths
                                 than this in the previous frame, one kernel finishes the paths
                                 (tail.c); 0: off (default RC_TAIL_BELOW) */
    int library_timing;       /* also record the library's own phases (CUDA: one sync per call,
                                 so a graph frame loop runs as `stream`) (default 0) */
    int phase_timing;         /* time every phase (rc_frame_stats' per-phase and per-bounce ms;
                                 CUDA: events at the phases' boundaries, their cost in
                                 docs/renderer.md) (default 1); 0: only the frame's wall time */
} rc_tuning;

/* What a user chooses: the image (size, depth, samples, light sampling, seed) and the method
 * under study (algorithm, mode, backend, schedule, frame loop, material sorting, shadow rays).
 * The last four leave the image as it is too, but they are what the renderer is there to show,
 * not knobs: each is an option of its own (render, bench and view; not a --set key) and each
 * frame's stats say which ran (rc_frame_stats.schedule, .loop, .sorted, .shadows_inline). The
 * knobs are apart, in `tune`. */
typedef struct rc_settings {
    uint32_t width, height;
    uint32_t max_depth; /* 1 .. RC_MAX_DEPTH */
    const char *algo;   /* a compaction library algorithm name, or "none" (compact.h) */
    rc_mode mode;
    rc_backend backend;
    uint32_t first_sample;     /* the n-th sample of a pixel has sample index first_sample + n */
    uint32_t samples_per_wave; /* samples per pixel a frame renders (its sample budget); 0 = 1 */
    rc_schedule schedule;      /* how they flow through the stream (default waves) */
    rc_frame_loop frame_loop;  /* CUDA: how a frame is driven (default graph) */
    int light_sampling;        /* rc_light_sampling (scene.h): nee (default) or bsdf */
    rc_shadows shadows;        /* NEE: where shadow rays are traced (default auto) */
    uint32_t seed;             /* 0 .. RC_MAX_SEED: each seed draws an independent set of
                                  samples (the RNG key, rng.h) */
    int sort_materials;        /* before shade, partition the live stream by the material kind of
                                  each hit (sort.c); shade runs once per kind over contiguous slots */
    int probes;                /* count the divergence probes (probe.h) of every frame: a CUDA
                                  build configured with RAYCOMPACT_PROBES only (rc_have_probes);
                                  rc_renderer_probes reads them */
    rc_tuning tune;            /* speed only (rc_tuning_init's defaults) */
} rc_settings;

#define RC_AUTO_SKIP_BELOW 16384u
#define RC_POOL_MAX        (1u << 27) /* path slots a stream can hold */
#define RC_TAIL_BELOW      16384u
#define RC_FETCH_BELOW     8
#define RC_TAIL_NAME       "tail" /* rc_bounce_stats.algo of the bounces the tail kernel ran */
/* The tail's kernels (tail.cu): a path a thread, or paths in pairs of warps, the second
 * tracing the shadow rays (scenes with shadow rays, short streams). */
typedef enum { RC_TAIL_THREADS = 0, RC_TAIL_PAIRS = 1 } rc_tail_kind;

/* Defaults: the scene's size, depth and light sampling, algorithm "auto", indices,
 * CPU, one sample per wave, the graph frame loop, seed 0, and rc_tuning_init's knobs. */
void rc_settings_init(rc_settings *st, const rc_scene *scene);
/* The knobs' defaults: the library's tile, pool auto, spread on, RC_AUTO_SKIP_BELOW,
 * RC_TAIL_BELOW, phases timed, the library's phases not. */
void rc_tuning_init(rc_tuning *tune);

/* The phases of a bounce whose stream traffic rc_bounce_stats.bytes models. */
enum { RC_PHASE_EXTEND = 0, RC_PHASE_SHADE, RC_PHASE_SHADOW, RC_PHASE_COMPACT, RC_PHASES_MODELLED };

/* One bounce of one frame. With next-event estimation shade also writes a second stream, of
 * shadow rays: one slot per path slot it walked, of which `shadow_kept` hold a ray; the
 * compaction packs them (or, for `none`, the shadow phase skips the empty slots) and the
 * shadow phase traces them. */
typedef struct rc_bounce_stats {
    uint32_t stream;      /* rays in: the stream length extend and shade walked (0 for a bounce the
                             device loop queued after every path had ended) */
    uint32_t alive;       /* live rays among them (smaller than stream only for `none`) */
    uint32_t kept;        /* rays still alive after shade: the rest were removed */
    uint32_t shadow_in;   /* shadow stream slots shade wrote (= stream; 0 without NEE) */
    uint32_t shadow_kept; /* shadow rays among them: what the shadow phase traces */
    double extend_ms, shade_ms;
    double compact_ms; /* both streams' compaction: the paths', then the shadow rays' */
    double shadow_ms;  /* the shadow phase: any-hit traces of the shadow rays */
    double sort_ms;    /* --sort-materials: classify the hits and partition the stream */
    uint32_t refilled; /* regen: new camera paths put in the stream after this bounce */
    double tail_ms;    /* at the tail's first bounce (rc_frame_stats.tail_from): the kernel that
                          ran it and every later bounce; the other phases are 0 from there */
    const char *algo;  /* the algorithm that compacted the paths (static name): `auto`'s
                          choice (sc_last_choice), else the fixed algorithm or "none"; a
                          replayed graph reports what its capture chose; RC_TAIL_NAME from
                          the tail's first bounce on */
    const char *shadow_algo; /* the same for the shadow stream's compaction; NULL without one */
    /* bytes each phase moved through the stream's buffers (rc_settings.mode's records and
       queues, the compaction's inputs, the compaction at its input's floor), as the record
       layouts and this bounce's counts give them (traffic.c: a model, not a measurement; not
       the scene, the sample updates or the tail kernel's bounces, which keep paths in
       registers) */
    uint64_t bytes[RC_PHASES_MODELLED];
} rc_bounce_stats;

/* Everything one frame measured; feeds --stats, the bench table and its JSON. The frame's
 * phases: generate -> [extend -> shade -> compact -> shadow] x bounces -> accumulate. */
typedef struct rc_frame_stats {
    uint32_t samples;     /* samples per pixel this frame rendered (its wave) */
    rc_schedule schedule; /* regen: each "bounce" below is a step of the pool, whose paths are
                             at any bounce of their own; waves: bounce b of every path */
    uint32_t pool;        /* path slots the frame's stream started with */
    uint32_t bounces;     /* bounces run: the host loop stops when every path has ended; the
                             device loops (graph, stream) run max_depth, empty ones cost launches */
    rc_frame_loop loop;   /* the loop that ran the frame (settings.frame_loop, or stream when a
                             graph cannot hold it) */
    int sorted;           /* the stream was sorted by material before shade (--sort-materials) */
    int shadows_inline;   /* shade traced the shadow rays itself (rc_shadows): no shadow stream,
                             and the bounces' shadow_ms are 0 */
    uint32_t tail_from;   /* the first bounce the tail kernel ran (settings.tune.tail_below), or
                             max_depth when it did not run */
    int tail_kind;        /* the tail kernel that ran (rc_tail_kind; tail.cu) */
    int phases_timed;     /* settings.tune.phase_timing: the phases' ms below are reported (CUDA:
                             measured only then) */
    int captured;         /* CUDA graph loop: this frame captured a new graph instead of replaying
                             one (its wall time includes the capture) */
    double generate_ms, accumulate_ms;
    double total_ms; /* wall time of the whole frame */
    rc_bounce_stats bounce[RC_MAX_DEPTH];
    sc_phase_timing lib[SC_MAX_PHASES]; /* library phases summed over the frame, when asked */
    size_t num_lib;
} rc_frame_stats;

typedef struct rc_renderer rc_renderer;

/* What rc_renderer_create checks before it allocates anything: the settings' ranges (image
 * size, paths per stream, depth, seed, pool) and that the algorithm runs on the backend. 0, or
 * -1 with the error rc_renderer_create would give, so that a command refuses bad input before
 * it says or starts anything. */
int rc_settings_check(const rc_settings *st, rc_error *err);
/* Allocate the stream for width x height x samples_per_wave paths and set up the compaction.
 * Errors: an unknown algorithm or mode for the backend, no CUDA device, out of memory. */
int rc_renderer_create(const rc_scene *scene, const rc_settings *st, rc_renderer **out,
                       rc_error *err);
void rc_renderer_destroy(rc_renderer *r);
/* Render the next samples_per_wave samples of every pixel as one wave and add them to the
 * film. `stats` may be NULL. */
int rc_render_frame(rc_renderer *r, rc_frame_stats *stats, rc_error *err);
/* The same for `samples` samples per pixel, 1 .. samples_per_wave (the last wave of a render
 * whose sample count is not a multiple of the wave). */
int rc_render_samples(rc_renderer *r, uint32_t samples, rc_frame_stats *stats, rc_error *err);
/* rc_render_samples in two halves, so that a caller works while the GPU renders (the viewer
 * draws the previous frame): submit launches the frame and returns (CUDA: without waiting for
 * the device; CPU: the frame is rendered), wait waits for it and fills the stats given to
 * submit (which must stay valid until then) and the frame count. Between them only
 * rc_render_wait and rc_renderer_destroy may be called; wait with no frame in flight does
 * nothing. */
int rc_render_submit(rc_renderer *r, uint32_t samples, rc_frame_stats *stats, rc_error *err);
int rc_render_wait(rc_renderer *r, rc_error *err);
/* 1 while a submitted frame has not been waited for. */
int rc_render_in_flight(const rc_renderer *r);
/* The mean of the samples so far, linear RGB, 3 floats per pixel, top row first. */
int rc_renderer_image(rc_renderer *r, float *rgb, rc_error *err);
/* The film: per pixel and channel the exact sum of its samples in fixed point, in units of
 * 2^-32 (film.h), 3 int64 per pixel, top row first. Sums of films of the same scene and
 * settings (disjoint samples: different first_sample) are the film of all their samples. */
int rc_renderer_film(rc_renderer *r, int64_t *sums, rc_error *err);
/* The image of a film of `samples` samples per pixel: what rc_renderer_image returns. */
void rc_film_image(const int64_t *sums, size_t pixels, uint32_t samples, float *rgb);
/* Samples per pixel accumulated so far. */
uint32_t rc_renderer_frames(const rc_renderer *r);
/* Samples per pixel of one wave (settings.samples_per_wave, at least 1). */
uint32_t rc_renderer_wave(const rc_renderer *r);
/* The CUDA backend's copy of the scene to the device at create, in ms (0 on the CPU). */
double rc_renderer_upload_ms(const rc_renderer *r);
/* Forget the accumulated samples (the next frame starts at sample first_sample again). */
void rc_renderer_reset(rc_renderer *r);

/* ---- what the interactive viewer needs beyond rendering ---- */
/* Render with `cam` from the next frame on; the caller resets the film. */
void rc_renderer_set_camera(rc_renderer *r, const rc_camera *cam);
/* Alive-ray mask: while bounce >= 0, every frame records which pixels' paths are alive in the
 * stream of that bounce (the one extend walks; a pixel counts if any of its wave's samples is);
 * -1 stops recording. Error: out of memory. */
int rc_renderer_watch_bounce(rc_renderer *r, int bounce, rc_error *err);
/* The last frame's mask: mask[pixel] = 1 if the pixel's path was alive at the watched bounce,
 * else 0; num_pixels bytes, top row first (all 0 before the first recorded frame). */
int rc_renderer_mask(rc_renderer *r, uint8_t *mask, rc_error *err);
/* CUDA backend: copy the film's sums (3 floats per pixel, top row first; divide them by
 * rc_renderer_frames) to device memory d_rgb, on the default stream after every frame so
 * far; returns when the copy is done. Error on the CPU backend. */
int rc_renderer_film_to_device(rc_renderer *r, void *d_rgb, rc_error *err);

/* Several processes on one machine, one GPU each (the MPI render and bench): make device
 * `index` modulo the visible devices this process's CUDA device, before any other CUDA call
 * (the caller passes its node-local rank). Writes the device's name, number and PCI address
 * to desc; returns the device, or -1 when there is none (desc says why; the CPU backend still
 * works). */
int rc_cuda_use_device(int index, char *desc, size_t cap);

/* The CUDA devices this process sees (cudaGetDeviceCount); 0 without the CUDA backend or a
 * device. */
int rc_cuda_device_count(void);
/* The calling thread's CUDA device (cudaGetDevice), or -1 without one. */
int rc_cuda_current_device(void);
/* Make device `dev` the calling thread's and create its context now (cudaSetDevice, then
 * cudaFree(0)), so that the first real call does not pay for it; 0, or -1 with err. */
int rc_cuda_init_device(int dev, rc_error *err);
/* Make the device r renders on the calling thread's (CUDA; nothing on the CPU): before a call
 * on r from another thread than the one that created it (the workers of --gpus, workers.h). */
int rc_renderer_use(rc_renderer *r, rc_error *err);

/* 1 if this build has the CUDA backend of the wavefront loop. */
int rc_have_cuda_backend(void);
/* 1 if it also counts the divergence probes (probe.h): configured with -DRAYCOMPACT_PROBES=ON.
 * The line a command gives where settings.probes is asked for and this is 0. */
int rc_have_probes(void);
#define RC_PROBES_NEEDED                                                                           \
    "divergence probes need a CUDA build configured with -DRAYCOMPACT_PROBES=ON (this build "      \
    "has none)"
/* settings.probes: the probes' counts since the renderer was created or last cleared, summed
 * over the device's copies, into *out (waits for the frames queued); clear zeroes them on the
 * renderer's stream. Error: a renderer made without probes. */
int rc_renderer_probes(rc_renderer *r, rc_probe_counts *out, rc_error *err);
int rc_renderer_probes_clear(rc_renderer *r, rc_error *err);
const char *rc_backend_name(rc_backend b);
const char *rc_mode_name(rc_mode m);
const char *rc_frame_loop_name(rc_frame_loop l);
const char *rc_schedule_name(rc_schedule s);
/* Parse "regen"/"waves"; 0 or -1. */
int rc_schedule_parse(const char *s, rc_schedule *out);
/* The pool `auto` gives (regen) for algorithm `algo`: on a CUDA device many times the threads it
 * runs at once (its SMs x resident threads x RC_POOL_FILLS when the stream is compacted, x
 * RC_POOL_FILLS_IN_PLACE for `none`: each the fastest pool measured for it; evidence:
 * docs/renderer.md, the regen table), on the CPU RC_POOL_CPU_PER_THREAD paths per OpenMP thread
 * (a few MB of records each: they stay in the caches). */
uint32_t rc_default_pool(rc_backend b, const char *algo);
#define RC_POOL_FILLS          64u
#define RC_POOL_FILLS_IN_PLACE 32u
#define RC_POOL_CPU_PER_THREAD 16384u
/* Parse "indices"/"payload", "cpu"/"cuda", "graph"/"stream"/"host"; 0 or -1. */
int rc_mode_parse(const char *s, rc_mode *out);
int rc_backend_parse(const char *s, rc_backend *out);
int rc_frame_loop_parse(const char *s, rc_frame_loop *out);
/* 1 if this renderer traces shadow rays (NEE on and the scene has lights in its table). */
int rc_renderer_nee(const rc_renderer *r);
/* Where settings `st` trace the shadow rays of `scene`: RC_SHADOWS_STREAM or RC_SHADOWS_INLINE
 * (auto resolved), or -1 where no shadow ray is traced (bsdf light sampling, no light). */
int rc_shadow_rays(const rc_scene *scene, const rc_settings *st);
/* 1 if this renderer traces its shadow rays in shade (rc_shadow_rays gave RC_SHADOWS_INLINE). */
int rc_renderer_shadows_inline(const rc_renderer *r);
/* "stream", "inline", "auto"; parse one of them: 0 or -1. */
const char *rc_shadows_name(rc_shadows s);
int rc_shadows_parse(const char *s, rc_shadows *out);

#ifdef __cplusplus
}
#endif
#endif /* RC_WAVEFRONT_H */
