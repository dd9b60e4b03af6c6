/* sort.c: --sort-materials. After extend, each stream slot gets a key, the material kind of
 * its path's hit (a miss and an ended path have keys of their own), and the library's stable
 * k-way partition (sc_partition) reorders the stream by it: the queue of path indices, or the
 * records themselves in payload mode. Shade then walks one kind after another, over
 * contiguous slots (shade.c). The image does not change: the random numbers are keyed by
 * pixel, sample and bounce, each path adds light only to its own sample slot, and shade
 * writes the shadow ray of stream slot i to shadow slot i after the reordering. */
#include "renderer.h"

#include <string.h>

int rc_sort_init(rc_renderer *r, rc_error *err) {
    if (r->st.backend == RC_BACKEND_CUDA)
        return rc_fail(err, "--sort-materials is not implemented on the CUDA backend yet");
    sc_status s = sc_context_create(SC_BACKEND_CPU, &r->sorter);
    if (s != SC_OK) return rc_fail(err, "--sort-materials: %s", sc_status_string(s));
    return 0;
}

/* The key of a path after extend. */
static uint8_t material_key(const rc_scene_view *sc, const rc_path *p) {
    if (!rc_path_alive(p)) return RC_SORT_DEAD;
    if (p->prim == RC_NO_PRIM) return RC_SORT_MISS;
    return (uint8_t)sc->materials[rc_prim_material(&sc->bvh.prims[p->prim])].type;
}

void rc_sort(rc_renderer *r, uint32_t bounce, rc_frame_stats *st) {
    if (!r->sorter) return;
    st->sorted = 1;
    double t0 = rc_now_ms();
    rc_cpu_stream *s = &r->cpu;
    const long n = (long)r->n;
    RC_OMP(parallel for schedule(static))
    for (long i = 0; i < n; i++) s->keys[i] = material_key(&r->view, rc_stream_path(r, (size_t)i));
    const int payload = r->st.mode == RC_MODE_PAYLOAD;
    void **data = payload ? (void **)&s->paths : (void **)&s->queue;
    void **alt = payload ? (void **)&s->paths_alt : (void **)&s->queue_alt;
    size_t counts[RC_SORT_KEYS];
    sc_options opt;
    sc_options_init(&opt);
    sc_status rs =
        sc_partition(r->sorter, SC_ALGO_SCAN_SCATTER, *data, s->keys, *alt, r->n,
                     payload ? sizeof(rc_path) : sizeof(uint32_t), RC_SORT_KEYS, &opt, counts);
    if (rs == SC_OK) {
        void *t = *data;
        *data = *alt;
        *alt = t;
        for (int k = 0; k < RC_SORT_KEYS; k++) r->groups[k] = (uint32_t)counts[k];
    } else { /* cannot happen: the keys are in range by construction; shade walks one group */
        memset(r->groups, 0, sizeof r->groups);
        r->groups[0] = r->n;
    }
    st->bounce[bounce].sort_ms += rc_now_ms() - t0;
}
