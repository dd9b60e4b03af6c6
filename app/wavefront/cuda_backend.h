/* cuda_backend.h: the CUDA backend of the wavefront loop. The kernels (generate.cu, extend.cu,
 * shade.cu, accumulate.cu) are one-line loops over the per-path functions of path.h, the same
 * ones the CPU backend runs; compact.c calls the compaction library's CUDA backend on these
 * device buffers. Present when the build has CUDA (RC_HAVE_CUDA_BACKEND). */
#ifndef RC_CUDA_BACKEND_H
#define RC_CUDA_BACKEND_H

#include "renderer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-bounce counters the kernels keep on the device. In the device loops (graph, stream) they
 * are the stream lengths every launch reads: nothing comes back to the host until the frame
 * ends. */
typedef struct rc_cuda_counts {
    uint32_t stream;  /* stream length at this bounce: written by generate, by the compaction
                         of the bounce before (sc_options.d_kept, with sc_options.d_n pointing
                         here), or by shade for `none` */
    uint32_t alive;   /* shade: live paths among them */
    uint32_t kept;    /* shade: paths that go on */
    uint32_t removed; /* shade: entries appended to the removal list */
    /* the shadow stream of this bounce (NEE): as long as `stream`, one slot per path slot */
    uint32_t shadows;        /* shade: slots that hold a shadow ray */
    uint32_t shadow_removed; /* shade: empty slots appended to the shadow removal list */
    uint32_t shadow_stream;  /* the shadow phase's length: written by the shadow stream's
                                compaction (d_kept), or by shade for `none` (= stream) */
    /* regen (refill.cu): each refill reads its bounce's entry and writes the next one's, so no
       launch reads what it writes */
    uint32_t compacted; /* the compaction's kept count (d_kept): the refill appends after it */
    uint32_t issued;    /* the frame's paths generated before this bounce's refill */
    uint32_t top;       /* indices mode: free records on the stack before this bounce's shade */
    uint32_t freed;     /* shade: records it pushed on the stack (paths that ended) */
    uint32_t refilled;  /* the refill: new paths it put in the stream */
    uint32_t fetched;   /* ray fetch (rc_fetch_rays): extend's stream slots handed to lanes */
    uint32_t pad[2];
} rc_cuda_counts;

#define RC_RECAPTURE_FRAMES 8 /* auto: frames a new choice must hold before a recapture */
#define RC_CUDA_BLOCK       256
#define RC_CUDA_MAX_TIMED   (2 + 6 * RC_MAX_DEPTH) /* phases of one frame */

/* The device side of a renderer. */
typedef struct rc_cuda {
    rc_stream_bufs bufs;      /* the stream's buffers (rc_stream_layout), in device memory */
    uint32_t *regen;          /* regen: [0] next path `none`'s in-place refill and the tail
                                 claim, [1] the tail's claims after a compacting refill */
    uint32_t *groups;         /* --sort-materials: RC_SORT_KEYS group sizes per bounce, written by
                                 the partition on the device (sc_options.d_kept); shade's launch of
                                 group g reads its offset and length here */
    int64_t *accum;           /* the film: 3 fixed-point sums per pixel (film.h) */
    rc_cuda_counts *counts;   /* RC_MAX_DEPTH + 1 entries, cleared at the start of a frame */
    rc_probe_counts *probes;  /* settings.probes: RC_PROBE_COPIES copies (probe.h), else NULL */
    rc_cuda_counts *h_counts; /* pinned host copies: once per bounce (host loop) or per frame */
    uint32_t *d_sample;       /* sample index of the next wave's first sample: generate and
                                 shade read it, accumulate advances it, so a replayed graph
                                 renders the next samples */
    rc_camera *d_camera;      /* the camera generate reads (rc_renderer_set_camera) */
    void *graph_exec;         /* cudaGraphExec_t of the captured frame, or NULL */
    uint32_t graph_wave;      /* what the captured frame was captured for */
    int graph_mask;
    int capturing;      /* this frame's launches are being captured */
    int replay;         /* this frame replays graph_exec */
    int choice_streak;  /* frames in a row whose auto choice differs from the captured one */
    int graph_blind;    /* the captured frame's auto plan had no densities (the first frame) */
    int changed_known;  /* changed_next holds the next frame's rc_compact_choice_changed, */
    int changed_next;   /* worked out while the previous frame ran on the GPU */
    int device_loop;    /* frame_loop graph or stream: lengths read on the device */
    uint32_t grid_cap;  /* blocks of a device-loop launch: enough to fill the GPU once; the
                           threads stride over the stream */
    rc_scene_view view; /* points into the device copies of the scene arrays */
    void *stream;       /* the cudaStream_t of every launch and every library call */
    void *d_nodes, *d_prims, *d_materials, *d_light_prims, *d_light_cdf;
    void *d_mesh[21]; /* vertex data, textures, environment, instances (rc_cuda_upload_extras) */
    void *events[2 * RC_CUDA_MAX_TIMED]; /* cudaEvent_t at the frame's phase boundaries: a
                                             phase that starts where the last timed one ended
                                             (nothing queued between) shares its event */
    uint16_t event_begin[RC_CUDA_MAX_TIMED], event_end[RC_CUDA_MAX_TIMED]; /* per timed phase */
    size_t event_dst[RC_CUDA_MAX_TIMED]; /* where each phase's time goes: a byte offset into
                                             rc_frame_stats, so a replayed graph's events fill
                                             the frame that replays it */
    rc_frame_stats *frame;               /* the stats of the frame being recorded */
    int num_timed, num_events;
    int last_end;      /* the event that ended the last timed phase, or -1 */
    unsigned queued;   /* stream operations queued so far (counted by rc_cuda_note) */
    unsigned end_mark; /* `queued` just after last_end was recorded */
    int error;         /* the first cudaError_t seen since the last check, 0 if none */
    int device;        /* the device it was created on (the creating thread's) */
} rc_cuda;

/* One compaction call over the whole wave with a device length of 0 (compact.c): the library
 * sizes its storage for the bound, so the frames' calls never allocate or wait. */
int rc_compact_warm(rc_renderer *r, rc_error *err);
/* Graph loop: 1 if auto, given the densities of the frame before, would now choose another
 * algorithm at some bounce (tiles are not compared) than the captured graph runs, or the tail
 * would start at another bounce (rc_tail_plan, any algorithm); no device work, no sync
 * (sc_auto_preview). */
int rc_compact_choice_changed(rc_renderer *r);
/* 1 once a frame's densities have been learned (rc_compact_learn): auto plans from them. */
int rc_compact_has_hints(const rc_renderer *r);
/* regen's default pool on the current device (rc_default_pool). */
uint32_t rc_cuda_default_pool(uint32_t fills);
/* Upload the scene and allocate the device stream; needs r->comp set up. */
int rc_cuda_create(rc_renderer *r, const rc_scene *scene, rc_error *err);
void rc_cuda_destroy(rc_renderer *r);
static inline rc_cuda *rc_cuda_of(rc_renderer *r) {
    return (rc_cuda *)r->cuda;
}

/* The kernels, launched on the renderer's stream (asynchronous). In the device loops each is
 * launched over the wave's paths (at most grid_cap blocks) and reads its bounce's length from
 * counts; in the host loop over r->n, the length the host read back. */
void rc_cuda_generate(rc_renderer *r);
void rc_cuda_extend(rc_renderer *r, uint32_t bounce);
void rc_cuda_shade(rc_renderer *r, uint32_t bounce);
void rc_cuda_accumulate(rc_renderer *r);
/* regen: new paths into the pool after `bounce` (refill.cu), counted on the device. */
void rc_cuda_refill(rc_renderer *r, uint32_t bounce);
/* The tail kernel (tail.cu): every bounce from `from` on for the paths of that bounce's stream.
 * Returns the kernel it launched: an rc_tail_kind (wavefront.h). */
int rc_cuda_tail(rc_renderer *r, uint32_t from);
/* --sort-materials: keys[i] = the material kind of stream slot i's hit (sort.cu). */
void rc_cuda_classify(rc_renderer *r, uint32_t bounce);
/* The film's sums as 3 floats per pixel into device memory d_out, on the default stream. */
void rc_cuda_film_float(rc_renderer *r, void *d_out);
/* The shadow phase: its length is on the device (counts[bounce].shadow_stream) in every loop;
 * the launch covers the slots shade wrote. */
void rc_cuda_shadow(rc_renderer *r, uint32_t bounce);
/* Blocks of RC_CUDA_BLOCK threads for a launch over this bounce's stream. */
unsigned rc_cuda_grid(rc_renderer *r);
/* The upper bound of this bounce's stream: the host's length (host loop) or the wave. */
uint32_t rc_cuda_bound(rc_renderer *r);

/* Start a frame: clear its counters and timings and, in the graph loop, start capturing it or
 * find it captured (c->replay). */
void rc_cuda_frame_begin(rc_renderer *r, rc_frame_stats *st);
/* End a capture that a failed phase left open. */
void rc_cuda_frame_abort(rc_renderer *r);
/* Set the camera generate reads (device copy; waits for the stream: not per frame). */
void rc_cuda_set_camera(rc_renderer *r, const rc_camera *cam);
/* Wait for shade of `bounce` and copy its counters to h_counts[bounce]: the next launches'
 * size and the removal lists' lengths. One 32-byte read-back per bounce. */
int rc_cuda_read_counts(rc_renderer *r, uint32_t bounce, rc_error *err);
/* Wait for the stream; the first error noted since the last check, as "CUDA error WHAT: ...". */
int rc_cuda_sync(rc_renderer *r, const char *what, rc_error *err);
/* Launch what is left of the frame (the graph loop: its captured graph) and the copy of its
 * counters; returns without waiting for the device. */
void rc_cuda_frame_submit(rc_renderer *r, rc_frame_stats *st);
/* After rc_cuda_frame_submit: wait for the frame, fill the timings, and check that each
 * compaction's device count (d_kept) matches what shade kept. */
int rc_cuda_frame_end(rc_renderer *r, rc_frame_stats *st, rc_error *err);
/* The film's fixed-point sums to host memory (3 per pixel). */
int rc_cuda_film(rc_renderer *r, int64_t *sums, rc_error *err);
void rc_cuda_reset(rc_renderer *r);
/* Make the renderer's device the calling thread's (rc_renderer_use). */
int rc_cuda_use(rc_renderer *r, rc_error *err);
/* The film's sums to device memory, after the renderer's stream (rc_renderer_film_to_device). */
int rc_cuda_film_copy(rc_renderer *r, void *d_rgb, rc_error *err);

/* settings.probes (RC_PROBES builds): the device's copies of the counts summed into *out after
 * the stream's work; cleared on the stream. */
int rc_cuda_probes_read(rc_renderer *r, rc_probe_counts *out, rc_error *err);
int rc_cuda_probes_clear(rc_renderer *r, rc_error *err);
/* RC_PROBE_COPIES copies summed into *out. */
void rc_probe_sum(const rc_probe_counts *copies, rc_probe_counts *out);

/* The alive-ray mask (mask.cu): r->mask in device memory, cleared and written on the stream. */
int rc_cuda_mask_alloc(rc_renderer *r, rc_error *err);
void rc_cuda_mask_clear(rc_renderer *r);
void rc_cuda_mask_record(rc_renderer *r, uint32_t bounce);
int rc_cuda_mask_read(rc_renderer *r, uint8_t *mask, rc_error *err);
void rc_cuda_mask_free(rc_renderer *r);

/* Events around a phase; its GPU time is added to *dst (a field of the frame's stats) at
 * rc_cuda_frame_end. */
void rc_cuda_phase_begin(rc_renderer *r);
void rc_cuda_phase_end(rc_renderer *r, double *dst);
/* Record a CUDA error (cudaError_t as int) of a call or launch; the first one is kept. */
void rc_cuda_note(rc_renderer *r, int cuda_error);

#ifdef __cplusplus
}
#endif
#endif /* RC_CUDA_BACKEND_H */
