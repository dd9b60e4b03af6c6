/* sort.c: --sort-materials. After extend, each stream slot gets a key, the material kind of
 * its path's hit (a miss and an ended path have keys of their own), and the library's stable
 * k-way partition (sc_partition) reorders the stream by it: the queue of path indices, or the
 * records themselves in payload mode. Shade then walks one kind after another, over
 * contiguous slots (shade.c). The image does not change: the random numbers are keyed by
 * pixel, sample and bounce, each path adds light only to its own sample slot, and shade
 * writes the shadow ray of stream slot i to shadow slot i after the reordering. */
#include "renderer.h"
#include "timing.h"
#ifdef RC_HAVE_CUDA_BACKEND
#include "cuda_backend.h"
#endif

/* The partition: the CPU specification's fast form, CUDA's single pass. */
static sc_algorithm sort_algo(const rc_renderer *r) {
    return r->st.backend == RC_BACKEND_CUDA ? SC_ALGO_SINGLE_PASS : SC_ALGO_SCAN_SCATTER;
}

int rc_sort_init(rc_renderer *r, rc_error *err) {
    sc_backend b = r->st.backend == RC_BACKEND_CUDA ? SC_BACKEND_CUDA : SC_BACKEND_CPU;
    if (!sc_partition_available(sort_algo(r), b))
        return rc_fail(err, "--sort-materials: the %s backend has no partition in this build",
                       sc_backend_name(b));
    sc_status s = sc_context_create(b, &r->sorter);
    if (s != SC_OK) return rc_fail(err, "--sort-materials: %s", sc_status_string(s));
    return 0;
}

static void swap_ptr(void **a, void **b) {
    void *t = *a;
    *a = *b;
    *b = t;
}

#ifdef RC_HAVE_CUDA_BACKEND
/* The device partition of `bounce`: over the bound with the length on the device in the
 * device loops (d_n), the group sizes to groups[bounce] on the device (d_kept), no sync. */
static sc_status partition_cuda(rc_renderer *r, uint32_t bound, uint32_t bounce,
                                const uint32_t *d_n) {
    rc_cuda *c = rc_cuda_of(r);
    const int payload = r->st.mode == RC_MODE_PAYLOAD;
    void **data = payload ? (void **)&c->bufs.paths : (void **)&c->bufs.queue;
    void **alt = payload ? (void **)&c->bufs.paths_alt : (void **)&c->bufs.queue_alt;
    sc_options opt;
    sc_options_init(&opt);
    opt.stream = c->stream;
    opt.d_n = d_n;
    opt.d_kept = c->groups + (size_t)bounce * RC_SORT_KEYS;
    sc_status s =
        sc_partition(r->sorter, SC_ALGO_SINGLE_PASS, *data, c->bufs.keys, *alt, bound,
                     payload ? sizeof(rc_path) : sizeof(uint32_t), RC_SORT_KEYS, &opt, NULL);
    if (s == SC_OK) swap_ptr(data, alt);
    return s;
}
#endif

int rc_sort_warm(rc_renderer *r, rc_error *err) {
#ifdef RC_HAVE_CUDA_BACKEND
    rc_cuda *c = rc_cuda_of(r);
    /* the bound of every later call: the whole wave (sorting keeps the waves schedule, so
       num_paths is the wave's); counts[0].stream is 0 until the first frame: the call sizes
       its storage, moves nothing */
    sc_status s = partition_cuda(r, (uint32_t)r->num_paths, RC_MAX_DEPTH, &c->counts[0].stream);
    if (s != SC_OK) return rc_fail(err, "--sort-materials: %s", sc_status_string(s));
    return rc_cuda_sync(r, "in the partition's first call", err);
#else
    (void)r;
    return rc_fail(err, "this build has no CUDA backend");
#endif
}

int rc_sort(rc_renderer *r, uint32_t bounce, rc_frame_stats *st, rc_error *err) {
    if (!r->sorter) return 0;
#ifdef RC_HAVE_CUDA_BACKEND
    if (r->st.backend == RC_BACKEND_CUDA) {
        rc_cuda *c = rc_cuda_of(r);
        rc_cuda_phase_begin(r);
        rc_cuda_classify(r, bounce);
        sc_status s = partition_cuda(r, rc_cuda_bound(r), bounce,
                                     c->device_loop ? &c->counts[bounce].stream : NULL);
        rc_cuda_phase_end(r, &st->bounce[bounce].sort_ms);
        if (s != SC_OK)
            return rc_fail(err, "--sort-materials at bounce %u: %s", bounce, sc_status_string(s));
        return 0;
    }
#endif
    double t0 = timing_now_ms();
    rc_cpu_stream *s = &r->cpu;
    const long n = (long)r->n;
    RC_OMP(parallel for schedule(static))
    for (long i = 0; i < n; i++)
        s->bufs.keys[i] = rc_material_key(&r->view, rc_stream_path(r, (size_t)i));
    const int payload = r->st.mode == RC_MODE_PAYLOAD;
    void **data = payload ? (void **)&s->bufs.paths : (void **)&s->bufs.queue;
    void **alt = payload ? (void **)&s->bufs.paths_alt : (void **)&s->bufs.queue_alt;
    size_t counts[RC_SORT_KEYS];
    sc_options opt;
    sc_options_init(&opt);
    sc_status rs =
        sc_partition(r->sorter, SC_ALGO_SCAN_SCATTER, *data, s->bufs.keys, *alt, r->n,
                     payload ? sizeof(rc_path) : sizeof(uint32_t), RC_SORT_KEYS, &opt, counts);
    st->bounce[bounce].sort_ms += timing_now_ms() - t0;
    if (rs != SC_OK)
        return rc_fail(err, "--sort-materials at bounce %u: %s", bounce, sc_status_string(rs));
    swap_ptr(data, alt);
    for (unsigned k = 0; k < RC_SORT_KEYS; k++) r->groups[k] = (uint32_t)counts[k];
    return 0;
}
