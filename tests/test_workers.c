/* test_workers.c: a render shared out over the workers of one process (app/workers.h) gives the
 * film of one renderer that rendered every sample, byte for byte: 1, 2, 3 and 5 workers, more
 * workers than samples (empty shares), a share nested in another (an MPI rank's part split over
 * its workers, added to the other part as the ranks' films are), and waves longer than a share.
 * The reference is one renderer's film, made without the worker layer; another seed must give
 * another film, so the comparison can fail. On CUDA the workers take the devices of each LIST
 * (repeats allowed: 0,0 is two workers on device 0); 77 (skipped) without a device.
 * Usage: test_workers cpu|cuda SCENE W H SPP [LIST...] */
#include "rc_test.h"
#include "workers.h"

#include <string.h>

/* The film of `count` samples from `first`, rendered by workers on `devices` (n of them). */
static int64_t *workers_film(const rc_scene *s, const rc_settings *st, const int *devices, int n,
                             uint32_t first, uint32_t count) {
    rc_error err;
    rc_workers *w;
    int64_t *sums = malloc((size_t)st->width * st->height * 3 * sizeof *sums);
    int rc = sums ? rc_workers_start(st->backend, devices, n, &w, &err) : -1;
    if (rc == 0) {
        rc = rc_workers_create(w, s, st, first, count, &err);
        if (rc == 0) rc = rc_workers_render(w, NULL, &err);
        if (rc == 0) rc = rc_workers_film(w, sums, &err);
        rc_workers_free(w);
    }
    if (rc != 0) {
        fprintf(stderr, "test_workers: %d workers: %s\n", n, sums ? err.msg : "out of memory");
        free(sums);
        return NULL;
    }
    return sums;
}

/* rc_workers_each: fn once per worker, on a thread of its own, with its device current. */
static void note_worker(void *arg, int i) {
    int *seen = arg;
    seen[i]++;
    seen[RC_WORKERS_MAX + i] = rc_cuda_current_device();
}

/* A LIST of device ids, "0,0,1", into ids; the count. */
static int parse_list(const char *s, int *ids) {
    int n = 0;
    for (const char *p = s; *p && n < RC_WORKERS_MAX; p += *p == ',') {
        char *end;
        ids[n++] = (int)strtol(p, &end, 10);
        p = end;
    }
    return n;
}

int main(int argc, char **argv) {
    rc_backend b;
    if (argc < 6 || rc_backend_parse(argv[1], &b) != 0) {
        fprintf(stderr, "usage: test_workers cpu|cuda SCENE W H SPP [LIST...]\n");
        return 2;
    }
    if (b == RC_BACKEND_CUDA) {
        int ready = test_cuda_ready("test_workers", "auto");
        if (ready != 0) return ready;
    }
    rc_scene s;
    if (test_load(argv[2], &s) != 0) return 2;
    rc_settings st = test_settings(&s, (uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]), "auto",
                                   RC_MODE_INDICES);
    const uint32_t spp = (uint32_t)atoi(argv[5]);
    st.backend = b;
    st.samples_per_wave = 2;
    const size_t n = (size_t)st.width * st.height * 3, bytes = n * sizeof(int64_t);
    int64_t *ref = test_film(&s, &st, spp);
    CHECK(ref != NULL, "one renderer's film");
    st.seed = 1;
    int64_t *other = test_film(&s, &st, spp);
    CHECK(other && ref && memcmp(other, ref, bytes) != 0, "another seed gives another film");
    free(other);
    st.seed = 0;

    int devices[RC_WORKERS_MAX];
    for (int i = 0; i < RC_WORKERS_MAX; i++) devices[i] = b == RC_BACKEND_CUDA ? 0 : -1;
    if (b == RC_BACKEND_CPU) {
        const int counts[] = {1, 2, 3, 5, (int)spp + 2};
        for (size_t c = 0; c < sizeof counts / sizeof *counts && ref; c++) {
            int64_t *f = workers_film(&s, &st, devices, counts[c], 0, spp);
            CHECK(f && memcmp(f, ref, bytes) == 0, "%d CPU workers: film differs", counts[c]);
            free(f);
        }
    }
    for (int a = 6; a < argc && ref; a++) {
        int k = parse_list(argv[a], devices);
        int64_t *f = workers_film(&s, &st, devices, k, 0, spp);
        CHECK(f && memcmp(f, ref, bytes) == 0, "workers on devices %s: film differs", argv[a]);
        free(f);
    }
    /* Nested: the samples [0, 2) on one worker, [2, spp) over three (an MPI rank's share split
     * over its workers), the two films added as the ranks' are. */
    if (ref && spp > 3) {
        int64_t *head = workers_film(&s, &st, devices, 1, 0, 2);
        int64_t *tail = workers_film(&s, &st, devices, 3, 2, spp - 2);
        for (size_t i = 0; head && tail && i < n; i++)
            head[i] = (int64_t)((uint64_t)head[i] + (uint64_t)tail[i]);
        CHECK(head && tail && memcmp(head, ref, bytes) == 0, "a share split over 3 workers and "
                                                             "added to the rest: film differs");
        free(head);
        free(tail);
    }
    /* Bench's runs: fn once per worker, each on its device (the CPU backend: none). */
    {
        int seen[2 * RC_WORKERS_MAX] = {0};
        rc_workers *w;
        rc_error err;
        const int k = 3;
        int rc = rc_workers_start(b, devices, k, &w, &err);
        if (rc == 0) rc = rc_workers_each(w, b, note_worker, seen, &err);
        int ok = rc == 0;
        for (int i = 0; ok && i < k; i++) {
            ok &= seen[i] == 1;
            if (b == RC_BACKEND_CUDA) ok &= seen[RC_WORKERS_MAX + i] == devices[i];
        }
        CHECK(ok, "rc_workers_each: once per worker on its device (%s)", rc ? err.msg : "");
        if (rc == 0) {
            rc_workers_note(w, 1, 2, 5.0, 1);
            rc_worker_times t = rc_workers_times(w, 1);
            CHECK(t.frames_ms == 5.0 && t.samples == 1, "rc_workers_note: worker 1's row");
        }
        rc_workers_free(w);
    }
    /* Waves longer than any share: each worker's wave is cut to its share. */
    st.samples_per_wave = spp;
    int64_t *f = ref ? workers_film(&s, &st, devices, 3, 0, spp) : NULL;
    CHECK(f && memcmp(f, ref, bytes) == 0, "3 workers, a wave of %u samples: film differs", spp);
    free(f);
    free(ref);
    rc_scene_free(&s);
    return test_finish("test_workers");
}
