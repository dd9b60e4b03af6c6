/* session.c: the renderer behind the window, and the settings the hotkeys change. A change of
 * algorithm, mode or tile builds a new renderer (each sets up its own stream buffers); a
 * camera move only resets the film. */
#include "viewer.h"

#include "../wavefront/compact.h"

#include <stdio.h>
#include <string.h>

/* Every name the backend can run in this build: `none` and the library's algorithms. */
static void list_algos(rc_viewer *v) {
    const char *names[RC_VIEW_MAX_ALGOS];
    size_t n = rc_compact_names(v->st.backend, names, RC_VIEW_MAX_ALGOS);
    if (n > RC_VIEW_MAX_ALGOS) n = RC_VIEW_MAX_ALGOS;
    v->num_algos = 0;
    for (size_t i = 0; i < n; i++) {
        rc_error err;
        if (rc_compact_check(names[i], v->st.backend, &err) == 0)
            v->algos[v->num_algos++] = names[i];
    }
}

static size_t find_algo(const rc_viewer *v, const char *name) {
    for (size_t i = 0; i < v->num_algos; i++)
        if (strcmp(v->algos[i], name) == 0) return i;
    return v->num_algos;
}

int rc_view_session_init(rc_viewer *v, const rc_view_opts *o) {
    list_algos(v);
    const char *want = o->algo ? o->algo : v->st.algo;
    rc_error err;
    if (rc_compact_check(want, v->st.backend, &err) != 0)
        return cli_usage_error("view", "%s", err.msg);
    v->algo = find_algo(v, want);
    if (v->algo == v->num_algos)
        return cli_usage_error("view", "algorithm '%s' is unavailable", want);
    v->compact_algo = v->algo ? v->algo : find_algo(v, "auto");
    if (v->compact_algo == v->num_algos) v->compact_algo = v->num_algos > 1 ? 1 : 0;
    v->st.algo = v->algos[v->algo];
    v->spp_limit = o->spp;
    v->mask_bounce = 0;
    rc_fly_init(&v->cam, &v->scene.camera, (float)v->st.width / (float)v->st.height);
    v->rebuild = 1;
    return 0;
}

void rc_view_session_free(rc_viewer *v) {
    rc_renderer_destroy(v->r);
    v->r = NULL;
}

static int rebuild(rc_viewer *v) {
    rc_renderer_destroy(v->r);
    v->r = NULL;
    rc_error err;
    v->st.algo = v->algos[v->algo];
    if (rc_renderer_create(&v->scene, &v->st, &v->r, &err) != 0 ||
        rc_renderer_watch_bounce(v->r, v->show_mask ? v->mask_bounce : -1, &err) != 0) {
        fprintf(stderr, "raycompact view: %s\n", err.msg);
        return -1;
    }
    rc_camera cam = rc_fly_camera_get(&v->cam);
    rc_renderer_set_camera(v->r, &cam);
    size_t tile = v->st.tile ? v->st.tile : SC_TILE_DEFAULT;
    char title[160];
    snprintf(title, sizeof title, "raycompact view - %s, %s", v->st.algo, rc_mode_name(v->st.mode));
    if (v->win) SDL_SetWindowTitle(v->win, title);
    printf("raycompact view: algorithm %s, mode %s, tile %zu, %s backend\n", v->st.algo,
           rc_mode_name(v->st.mode), tile, rc_backend_name(v->st.backend));
    fflush(stdout);
    rc_history_settings_changed(&v->hist, rc_now_ms());
    v->mask_stale = v->show_mask;
    return 0;
}

int rc_view_session_apply(rc_viewer *v) {
    if (v->rebuild || v->reset) v->film_dirty = 1;
    if (v->rebuild) {
        v->rebuild = v->reset = 0;
        return rebuild(v);
    }
    if (v->reset) {
        v->reset = 0;
        rc_renderer_reset(v->r);
    }
    return 0;
}

void rc_view_pick_algo(rc_viewer *v, size_t index) {
    if (index >= v->num_algos || index == v->algo) return;
    v->algo = index;
    if (index != 0) v->compact_algo = index;
    v->rebuild = 1;
}

void rc_view_toggle_compaction(rc_viewer *v) {
    rc_view_pick_algo(v, v->algo == 0 ? v->compact_algo : 0);
}

void rc_view_toggle_mode(rc_viewer *v) {
    v->st.mode = v->st.mode == RC_MODE_INDICES ? RC_MODE_PAYLOAD : RC_MODE_INDICES;
    v->rebuild = 1;
}

void rc_view_next_tile(rc_viewer *v) {
    size_t tile = (v->st.tile ? v->st.tile : SC_TILE_DEFAULT) * 2;
    v->st.tile = tile > SC_TILE_MAX ? SC_TILE_MIN : tile;
    v->rebuild = 1;
}

void rc_view_toggle_tail(rc_viewer *v) {
    if (v->st.tail_below) v->tail_below = v->st.tail_below;
    v->st.tail_below = v->st.tail_below ? 0u : v->tail_below ? v->tail_below : RC_TAIL_BELOW;
    v->rebuild = 1;
}

void rc_view_toggle_phases(rc_viewer *v) {
    v->st.phase_timing = !v->st.phase_timing;
    v->rebuild = 1;
}

void rc_view_camera_changed(rc_viewer *v) {
    rc_camera cam = rc_fly_camera_get(&v->cam);
    if (v->r) rc_renderer_set_camera(v->r, &cam);
    v->reset = 1;
}

int rc_view_wants_frame(const rc_viewer *v) {
    if (v->paused || !v->r) return 0;
    if (v->show_mask && v->mask_stale) return 1;
    return v->spp_limit == 0 || rc_renderer_frames(v->r) < v->spp_limit;
}
