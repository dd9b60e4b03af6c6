/* workers.h: one render shared out over the workers of one process: a thread and a renderer per
 * worker, each on its own device (the CUDA backend: `--gpus`, one worker per GPU, or several on
 * one GPU), or on the CPU. The samples are shared out as the MPI ranks share them (rc_share:
 * the same code, nested under a rank's share), and the films are added on worker 0 (in place on
 * one device, by peer access between two, else through the host), so the image is the same
 * bytes for any number of workers and ranks. Nothing here knows about processes or options.
 *
 *     rc_workers *w;
 *     rc_workers_start(backend, devices, n, &w, &err); // a thread per context, now
 *     ... load the scene meanwhile ...
 *     rc_workers_ready(w);                            // worker 0's device is this thread's
 *     rc_workers_create(w, scene, st, first, count, &err); // a renderer each, for its share
 *     rc_workers_render(w, progress, &err);           // every share, all workers at once
 *     rc_workers_film(w, sums, &err);                 // worker 0's film += the others'
 *     rc_workers_free(w); */
#ifndef RC_WORKERS_H
#define RC_WORKERS_H

#include "stats.h"
#include "wavefront/wavefront.h"

#include <stdint.h>

#define RC_WORKERS_MAX 64 /* workers of one process */

/* Part `index` of `parts` of the samples [0, total): [*first, *first + *count), the parts as
 * equal as they go (the first total % parts one more), in order. The MPI ranks' share
 * (mpi_run.h) and the workers' share of it. */
void rc_share(uint32_t total, uint32_t index, uint32_t parts, uint32_t *first, uint32_t *count);

/* Where one worker's time went, in ms from rc_workers_start. */
typedef struct rc_worker_times {
    int device;        /* its CUDA device; -1 on the CPU */
    uint32_t first;    /* its share: samples first .. first + samples - 1 of the render */
    uint32_t samples;  /* (bench: the runs it timed) */
    double context_ms; /* its CUDA context created (cudaSetDevice, cudaFree(0)); 0 on the CPU */
    double create_ms;  /* its renderer created: buffers, the scene's upload */
    double first_ms;   /* its first wave (CUDA: the graph captured there) */
    double frames_ms;  /* its other waves (bench: its runs after the first frame) */
    double done_ms;    /* from rc_workers_start to its last wave's end */
} rc_worker_times;

typedef struct rc_workers rc_workers;

/* `n` workers (1 .. RC_WORKERS_MAX) on `devices` (CUDA device ids, repeats allowed; -1: the
 * calling thread's device; NULL: -1 for each); on the CPU backend the devices are not used.
 * With CUDA each worker's thread creates its device's context now, all threads at once, while
 * the caller goes on (rc_workers_ready and rc_workers_create wait for them). 0, or -1 with err. */
int rc_workers_start(rc_backend backend, const int *devices, int n, rc_workers **out,
                     rc_error *err);
int rc_workers_count(const rc_workers *w);
/* Wait for the contexts and make worker 0's device the calling thread's, so that what the
 * caller does on CUDA before rc_workers_create (the backend's probe, bench's baselines) runs on
 * a device of the list and creates no other context. Nothing on the CPU backend. */
void rc_workers_ready(rc_workers *w);
/* The time the caller waited in rc_workers_create for the contexts (what the scene's load did
 * not hide), ms. */
double rc_workers_context_wait_ms(const rc_workers *w);
/* Every worker's renderer for its part of the samples [first, first + count), created in
 * parallel (st->backend must be the backend given to rc_workers_start; the share's sample
 * index is added to st->first_sample; its wave is at most its share). A worker whose share is
 * empty renders nothing. 0, or -1 with err (the first worker that failed, named when there are
 * several). */
int rc_workers_create(rc_workers *w, const rc_scene *scene, const rc_settings *st, uint32_t first,
                      uint32_t count, rc_error *err);
/* Render every share, all workers at once. `progress` (may be NULL) is called on the calling
 * thread after each wave of any worker, with the samples done over all workers, the total and
 * the ms since the start. A failed wave stops every worker at its next wave: -1 with err. */
int rc_workers_render(rc_workers *w, void (*progress)(uint32_t done, uint32_t total, double ms),
                      rc_error *err);
/* The sum of every worker's film: worker 0's film += every other worker's that its device
 * reaches (rc_film_add_local; each once, however often this is called). sums NULL: 1 when
 * worker 0's film now holds the sum, 0 when some films are out of its reach. Else the sum in
 * sums (3 int64 per pixel): worker 0's film read back, the others added on the host; 0. -1
 * with err on a failure. */
int rc_workers_film(rc_workers *w, int64_t *sums, rc_error *err);
/* How the films were added: ways[0] on one device, ways[1] by peer access, ways[2] through the
 * host. */
void rc_workers_film_ways(const rc_workers *w, int ways[3]);
/* Worker i's renderer (NULL when its share was empty) and stats, its device the caller's. */
rc_renderer *rc_workers_renderer(rc_workers *w, int i);
const rc_stats_total *rc_workers_stats(const rc_workers *w, int i);
rc_worker_times rc_workers_times(const rc_workers *w, int i);
/* Run fn(arg, i) for every worker i in its own thread, its device current (bench's runs), and
 * wait for them all; `backend` is the one chosen (as st->backend of rc_workers_create); fn's
 * times go to rc_workers_note. 0, or -1 with err when a device could not be made current. */
int rc_workers_each(rc_workers *w, rc_backend backend, void (*fn)(void *arg, int i), void *arg,
                    rc_error *err);
/* Add to worker i's row: ms to create_ms (0), first_ms (1) or frames_ms (2), and one to its
 * samples when `count` (bench: a run timed). For fn of rc_workers_each, on its own row only. */
void rc_workers_note(rc_workers *w, int i, int column, double ms, int count);
/* Wait for the contexts, destroy the renderers (in parallel, each on its device), free w
 * (NULL: nothing). */
void rc_workers_free(rc_workers *w);

#endif /* RC_WORKERS_H */
