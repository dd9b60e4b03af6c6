/* workers.c: the workers of one process (workers.h): a thread per worker for each phase (its
 * device made current first: CUDA's device is per thread), the phases joined by the caller. */
#define _POSIX_C_SOURCE 200809L
#include "workers.h"
#include "timing.h"
#include "wavefront/film_peer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rc_share(uint32_t total, uint32_t index, uint32_t parts, uint32_t *first, uint32_t *count) {
    uint32_t base = total / parts, extra = total % parts;
    *count = base + (index < extra);
    *first = index * base + (index < extra ? index : extra);
}

typedef struct worker {
    rc_workers *w;
    int index;
    rc_renderer *r;
    rc_settings st; /* its share's settings */
    uint32_t count; /* samples of its share */
    rc_stats_total tot;
    rc_worker_times t;
    rc_error err;
    int rc;
    int added, left;         /* its film added into worker 0's on a device; or to add on the host */
    void (*fn)(void *, int); /* rc_workers_each */
    void *arg;
} worker;

struct rc_workers {
    int n;
    rc_backend backend;
    double t0;
    double context_wait_ms;
    pthread_t context[RC_WORKERS_MAX];
    int contexts; /* context threads started, not yet joined */
    const rc_scene *scene;
    size_t pixels; /* of the image (rc_workers_create) */
    /* rc_workers_render: samples done over every worker, a failed worker, the finished ones */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    uint32_t done, total;
    int stop, finished;
    int ways[3]; /* films added on one device, by peer access, through the host */
    worker k[RC_WORKERS_MAX];
};

/* Run body(worker) on a thread per worker and wait for all of them; a thread that cannot start
 * runs on the caller's. */
static void run_all(rc_workers *w, void *(*body)(void *)) {
    pthread_t th[RC_WORKERS_MAX];
    int started[RC_WORKERS_MAX];
    for (int i = 0; i < w->n; i++) {
        started[i] = pthread_create(&th[i], NULL, body, &w->k[i]) == 0;
        if (!started[i]) body(&w->k[i]);
    }
    for (int i = 0; i < w->n; i++)
        if (started[i]) pthread_join(th[i], NULL);
}

/* The worker's device, current on this thread; 0, or -1 with its error. */
static int use_device(worker *k) {
    if (k->w->backend != RC_BACKEND_CUDA || k->t.device < 0) return 0;
    return rc_cuda_init_device(k->t.device, &k->err);
}

static void *make_context(void *arg) {
    worker *k = arg;
    double t0 = timing_now_ms();
    k->rc = use_device(k);
    k->t.context_ms = timing_now_ms() - t0;
    return NULL;
}

int rc_workers_start(rc_backend backend, const int *devices, int n, rc_workers **out,
                     rc_error *err) {
    *out = NULL;
    if (n < 1 || n > RC_WORKERS_MAX)
        return rc_fail(err, "%d workers: between 1 and %d", n, RC_WORKERS_MAX);
    rc_workers *w = calloc(1, sizeof *w);
    if (!w) return rc_fail(err, "out of memory");
    w->n = n;
    w->backend = backend;
    w->t0 = timing_now_ms();
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    const int here = backend == RC_BACKEND_CUDA ? rc_cuda_current_device() : -1;
    for (int i = 0; i < n; i++) {
        worker *k = &w->k[i];
        k->w = w;
        k->index = i;
        k->t.device = backend != RC_BACKEND_CUDA   ? -1
                      : devices && devices[i] >= 0 ? devices[i]
                                                   : here;
    }
    /* Each context on a thread of its own, so that they are created together (across
     * processes the driver creates them one after the other: docs/renderer.md). */
    for (int i = 0; backend == RC_BACKEND_CUDA && i < n; i++) {
        if (pthread_create(&w->context[i], NULL, make_context, &w->k[i]) != 0) {
            make_context(&w->k[i]);
            w->context[i] = pthread_self();
        }
        w->contexts = i + 1;
    }
    *out = w;
    return 0;
}

int rc_workers_count(const rc_workers *w) {
    return w->n;
}

double rc_workers_context_wait_ms(const rc_workers *w) {
    return w->context_wait_ms;
}

static void join_contexts(rc_workers *w) {
    double t0 = timing_now_ms();
    for (int i = 0; i < w->contexts; i++)
        if (!pthread_equal(w->context[i], pthread_self())) pthread_join(w->context[i], NULL);
    w->contexts = 0;
    w->context_wait_ms += timing_now_ms() - t0;
}

void rc_workers_ready(rc_workers *w) {
    join_contexts(w);
    /* a failure is worker 0's, which rc_workers_create reports (unless the CPU renders) */
    if (w->k[0].rc == 0) w->k[0].rc = use_device(&w->k[0]);
}

/* CUDA was tried and the CPU renders (no usable device): the contexts do not matter. */
static void to_backend(rc_workers *w, rc_backend b) {
    if (b == w->backend) return;
    w->backend = b;
    for (int i = 0; i < w->n; i++) {
        w->k[i].rc = 0;
        w->k[i].t.device = -1;
    }
}

/* The first failed worker's error into err, named when there are several. */
static int first_error(rc_workers *w, rc_error *err) {
    for (int i = 0; i < w->n; i++) {
        worker *k = &w->k[i];
        if (k->rc == 0) continue;
        if (w->n == 1) return rc_fail(err, "%s", k->err.msg);
        if (k->t.device >= 0)
            return rc_fail(err, "worker %d (GPU %d): %s", i, k->t.device, k->err.msg);
        return rc_fail(err, "worker %d: %s", i, k->err.msg);
    }
    return 0;
}

static void *create_one(void *arg) {
    worker *k = arg;
    double t0 = timing_now_ms();
    if (k->count > 0 && use_device(k) == 0)
        k->rc = rc_renderer_create(k->w->scene, &k->st, &k->r, &k->err);
    else if (k->count > 0)
        k->rc = -1;
    k->t.create_ms = timing_now_ms() - t0;
    return NULL;
}

int rc_workers_create(rc_workers *w, const rc_scene *scene, const rc_settings *st, uint32_t first,
                      uint32_t count, rc_error *err) {
    join_contexts(w);
    to_backend(w, st->backend);
    if (first_error(w, err) != 0) return -1; /* a context that could not be created */
    w->scene = scene;
    w->pixels = (size_t)st->width * st->height;
    w->total = count;
    for (int i = 0; i < w->n; i++) {
        worker *k = &w->k[i];
        uint32_t at;
        rc_share(count, (uint32_t)i, (uint32_t)w->n, &at, &k->count);
        k->st = *st;
        k->st.first_sample = st->first_sample + first + at;
        if (k->count && k->st.samples_per_wave > k->count) k->st.samples_per_wave = k->count;
        k->t.first = first + at;
        k->t.samples = k->count;
    }
    run_all(w, create_one);
    return first_error(w, err);
}

static void *render_one(void *arg) {
    worker *k = arg;
    rc_workers *w = k->w;
    if (k->r && (k->rc = rc_renderer_use(k->r, &k->err)) == 0) {
        double lap = timing_now_ms();
        for (uint32_t done = 0; done < k->count;) {
            pthread_mutex_lock(&w->lock);
            int stop = w->stop;
            pthread_mutex_unlock(&w->lock);
            if (stop) break;
            rc_frame_stats fs;
            uint32_t wave = rc_renderer_wave(k->r), left = k->count - done;
            if ((k->rc = rc_render_samples(k->r, left < wave ? left : wave, &fs, &k->err)) != 0)
                break;
            double now = timing_now_ms();
            *(done == 0 ? &k->t.first_ms : &k->t.frames_ms) += now - lap;
            lap = now;
            done += fs.samples;
            rc_stats_total_add(&k->tot, &fs);
            pthread_mutex_lock(&w->lock);
            w->done += fs.samples;
            pthread_cond_signal(&w->wake);
            pthread_mutex_unlock(&w->lock);
        }
    }
    k->t.done_ms = timing_now_ms() - w->t0;
    pthread_mutex_lock(&w->lock);
    w->stop |= k->rc != 0;
    w->finished++;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

int rc_workers_render(rc_workers *w, void (*progress)(uint32_t done, uint32_t total, double ms),
                      rc_error *err) {
    pthread_t th[RC_WORKERS_MAX];
    int started[RC_WORKERS_MAX];
    w->done = 0;
    w->stop = w->finished = 0;
    double t0 = timing_now_ms();
    for (int i = 0; i < w->n; i++) {
        started[i] = pthread_create(&th[i], NULL, render_one, &w->k[i]) == 0;
        if (!started[i]) render_one(&w->k[i]);
    }
    /* The progress on this thread, woken by each wave: no polling, no delay at the end. */
    uint32_t shown = UINT32_MAX;
    pthread_mutex_lock(&w->lock);
    while (w->finished < w->n) {
        if (progress && w->done != shown) {
            shown = w->done;
            pthread_mutex_unlock(&w->lock);
            progress(shown, w->total, timing_now_ms() - t0);
            pthread_mutex_lock(&w->lock);
            continue;
        }
        pthread_cond_wait(&w->wake, &w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->n; i++)
        if (started[i]) pthread_join(th[i], NULL);
    if (first_error(w, err) != 0) return -1;
    if (progress && w->done != shown) progress(w->done, w->total, timing_now_ms() - t0);
    return 0;
}

/* The films worker 0's device reaches, added into its own once each. */
static int add_on_device(rc_workers *w, rc_error *err) {
    rc_renderer *r0 = w->k[0].r;
    for (int i = 1; i < w->n; i++) {
        worker *k = &w->k[i];
        if (!k->r || k->added || k->left) continue;
        int rc = rc_film_add_local(r0, k->r, err);
        if (rc < 0) return -1;
        k->added = rc;
        k->left = !rc;
        w->ways[rc == 0 ? 2 : k->t.device == w->k[0].t.device ? 0 : 1]++;
    }
    return 0;
}

int rc_workers_film(rc_workers *w, int64_t *sums, rc_error *err) {
    rc_renderer *r0 = w->k[0].r;
    if (!r0) { /* no samples at all (worker 0's share is never smaller than another's) */
        if (sums) memset(sums, 0, w->pixels * 3 * sizeof *sums);
        return 0;
    }
    if (add_on_device(w, err) != 0) return -1;
    int left = 0;
    for (int i = 1; i < w->n; i++) left += w->k[i].left;
    if (!sums) return left == 0;
    if (rc_renderer_use(r0, err) != 0 || rc_renderer_film(r0, sums, err) != 0) return -1;
    if (!left) return 0;
    /* Devices without peer access: their films through the host, added there (wrapping, as
     * the film's own additions do). */
    const size_t n = w->pixels * 3;
    int64_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return rc_fail(err, "out of memory for a worker's film");
    int rc = 0;
    for (int j = 1; rc == 0 && j < w->n; j++) {
        rc_renderer *r = w->k[j].r;
        if (!w->k[j].left) continue;
        rc = rc_renderer_use(r, err) != 0 || rc_renderer_film(r, tmp, err) != 0 ? -1 : 0;
        for (size_t i = 0; rc == 0 && i < n; i++)
            sums[i] = (int64_t)((uint64_t)sums[i] + (uint64_t)tmp[i]);
    }
    free(tmp);
    return rc;
}

void rc_workers_film_ways(const rc_workers *w, int ways[3]) {
    memcpy(ways, w->ways, sizeof w->ways);
}

rc_renderer *rc_workers_renderer(rc_workers *w, int i) {
    rc_renderer *r = w->k[i].r;
    rc_error err;
    if (r) (void)rc_renderer_use(r, &err);
    return r;
}

const rc_stats_total *rc_workers_stats(const rc_workers *w, int i) {
    return &w->k[i].tot;
}

rc_worker_times rc_workers_times(const rc_workers *w, int i) {
    return w->k[i].t;
}

static void *each_one(void *arg) {
    worker *k = arg;
    if ((k->rc = use_device(k)) == 0) k->fn(k->arg, k->index);
    return NULL;
}

int rc_workers_each(rc_workers *w, rc_backend backend, void (*fn)(void *arg, int i), void *arg,
                    rc_error *err) {
    join_contexts(w);
    to_backend(w, backend);
    for (int i = 0; i < w->n; i++) {
        w->k[i].fn = fn;
        w->k[i].arg = arg;
        w->k[i].rc = 0;
    }
    run_all(w, each_one);
    return first_error(w, err);
}

void rc_workers_note(rc_workers *w, int i, int column, double ms, int count) {
    rc_worker_times *t = &w->k[i].t;
    *(column == 0 ? &t->create_ms : column == 1 ? &t->first_ms : &t->frames_ms) += ms;
    t->samples += count != 0;
    t->done_ms = timing_now_ms() - w->t0;
}

static void *destroy_one(void *arg) {
    worker *k = arg;
    rc_error err;
    if (k->r) {
        (void)rc_renderer_use(k->r, &err); /* on a failure the free goes to the current device */
        rc_renderer_destroy(k->r);
    }
    k->r = NULL;
    return NULL;
}

void rc_workers_free(rc_workers *w) {
    if (!w) return;
    join_contexts(w);
    int any = 0;
    for (int i = 0; i < w->n; i++) any |= w->k[i].r != NULL;
    if (any) run_all(w, destroy_one);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
}
