/* session.c: the renderer behind the window, and the settings the hotkeys change. A change of
 * algorithm, mode, tile, light sampling, scene or image size builds a new renderer (each sets
 * up its own stream buffers; the film is made anew when the size changes); a camera move only
 * resets the film. A renderer that cannot be made leaves the viewer on the settings (and the
 * scene) of the last one made. Each renderer's wave holds the samples per pixel of
 * rc_budget_wave (a displayed frame that adds more calls it several times). */
#include "viewer.h"

#include "../wavefront/compact.h"
#include "timing.h"

#include <math.h>
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
    v->common = o->common;
    snprintf(v->scene_path, sizeof v->scene_path, "%s", o->common.scene);
    snprintf(v->scene_next, sizeof v->scene_next, "%s", o->common.scene);
    v->base_w = v->st.width;
    v->base_h = v->st.height;
    v->interop = !o->no_interop;
    v->overlap = !o->no_overlap;
    v->spp_limit = o->spp;
    v->mask_bounce = 0;
    v->wave_given = o->common.wave; /* `--samples-per-wave auto` is 0: rc_budget_wave */
    rc_budget_init(&v->budget, o->frame_ms > 0.0 ? o->frame_ms : RC_FRAME_MS_DEFAULT,
                   RC_BUDGET_MAX_N);
    rc_fly_init(&v->cam, &v->scene.camera, (float)v->st.width / (float)v->st.height);
    v->rebuild = 1;
    return 0;
}

void rc_view_session_free(rc_viewer *v) {
    rc_renderer_destroy(v->r);
    v->r = NULL;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* A renderer for the scene and settings now; one line on stderr and -1 if none can be made. */
static int build(rc_viewer *v) {
    rc_renderer_destroy(v->r);
    v->r = NULL;
    rc_error err;
    v->st.algo = v->algos[v->algo];
    v->st.samples_per_wave =
        rc_budget_wave(v->st.width, v->st.height, v->st.backend == RC_BACKEND_CUDA, v->wave_given);
    int rc;
    /* the default wave on a GPU with less free memory: half the samples until the stream fits */
    while ((rc = rc_renderer_create(&v->scene, &v->st, &v->r, &err)) != 0 && !v->wave_given &&
           v->st.samples_per_wave > 1 &&
           (strstr(err.msg, "out of GPU memory") || strstr(err.msg, "out of memory")))
        v->st.samples_per_wave /= 2;
    if (rc != 0 || rc_renderer_watch_bounce(v->r, v->show_mask ? v->mask_bounce : -1, &err) != 0) {
        fprintf(stderr, "raycompact view: %s\n", err.msg);
        return -1;
    }
    v->cam.aspect = (float)v->st.width / (float)v->st.height;
    rc_camera cam = rc_fly_camera_get(&v->cam);
    rc_renderer_set_camera(v->r, &cam);
    size_t tile = v->st.tune.tile ? v->st.tune.tile : SC_TILE_DEFAULT;
    char title[160];
    snprintf(title, sizeof title, "raycompact view - %.48s - %s, %s", base_name(v->scene_path),
             v->st.algo, rc_mode_name(v->st.mode));
    if (v->win) SDL_SetWindowTitle(v->win, title);
    printf("raycompact view: algorithm %s, mode %s, tile %zu, %s backend, wave %u spp\n",
           v->st.algo, rc_mode_name(v->st.mode), tile, rc_backend_name(v->st.backend),
           rc_renderer_wave(v->r));
    fflush(stdout);
    rc_history_settings_changed(&v->hist, timing_now_ms());
    /* Another renderer costs another time per sample (and its first frame sets up more): go
       on from a quarter of the count, so that the first frames stay within the budget. */
    rc_budget_restart(&v->budget, v->budget.n / 4, RC_BUDGET_MAX_N);
    v->mask_stale = v->show_mask;
    return 0;
}

/* The film's textures (and interop buffer) at the image size, made anew when it changed. */
static int fit_film(rc_viewer *v) {
    if (!v->gl || (v->film.w == v->st.width && v->film.h == v->st.height)) return 0;
    rc_film_free(&v->film);
    rc_error err;
    if (rc_film_init(&v->film, v->st.width, v->st.height, v->st.backend, v->interop, &err) != 0) {
        fprintf(stderr, "raycompact view: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* The renderer just made is the one to go back to; the film follows its size. */
static int made(rc_viewer *v) {
    if (v->st.width != v->good.width || v->st.height != v->good.height)
        v->refused_w = v->refused_h = 0;
    v->good = v->st;
    v->good_algo = v->algo;
    v->have_good = 1;
    return fit_film(v);
}

/* build(), or when that fails, the settings of the last renderer made and build() again. */
static int rebuild(rc_viewer *v) {
    if (build(v) != 0) {
        if (!v->have_good) return -1;
        if (v->st.width != v->good.width || v->st.height != v->good.height) {
            v->refused_w = v->st.width; /* not tried again until another size was made */
            v->refused_h = v->st.height;
        }
        v->st = v->good;
        v->algo = v->good_algo;
        if (build(v) != 0) return -1;
    }
    return made(v);
}

/* The image size for the window's size now: the scene's scaled as the window is from its
 * first size (the smaller of the two ratios, so the aspect stays), within RC_MAX_SIZE. */
static void fitted_size(const rc_viewer *v, uint32_t *iw, uint32_t *ih) {
    int w = v->win0_w, h = v->win0_h;
    if (v->win) SDL_GetWindowSize(v->win, &w, &h);
    double s =
        v->win0_w > 0 && v->win0_h > 0 ? fmin((double)w / v->win0_w, (double)h / v->win0_h) : 1.0;
    s = fmin(s, fmin((double)RC_MAX_SIZE / v->base_w, (double)RC_MAX_SIZE / v->base_h));
    *iw = (uint32_t)fmax(1.0, (double)lround(s * v->base_w));
    *ih = (uint32_t)fmax(1.0, (double)lround(s * v->base_h));
}

static void fit_window(rc_viewer *v) {
    uint32_t iw, ih;
    fitted_size(v, &iw, &ih);
    if ((iw == v->st.width && ih == v->st.height) || (iw == v->refused_w && ih == v->refused_h))
        return;
    v->st.width = iw;
    v->st.height = ih;
    v->rebuild = 1;
    int w = 0, h = 0;
    if (v->win) SDL_GetWindowSize(v->win, &w, &h);
    printf("raycompact view: window %dx%d, image %ux%u\n", w, h, iw, ih);
    fflush(stdout);
}

/* The settings of a scene loaded to switch to: its own (and the command line's) for what the
 * keys do not change; what they change, as it is now (with changes not applied yet). */
static void keep_key_settings(const rc_viewer *v, rc_settings *st) {
    st->backend = v->st.backend;
    st->mode = v->st.mode;
    st->tune = v->st.tune; /* the command line's knobs as the keys left them (tile, L, B) */
    if (v->lights_set) st->light_sampling = v->st.light_sampling;
    if (v->shadows_set) st->shadows = v->st.shadows;
}

/* N: load the scene `scene_step` places on and make its renderer, with every change pending;
 * on either failure, one line, and the scene, camera and settings stay as they were (their
 * renderer is made again). */
static int switch_scene(rc_viewer *v) {
    int step = v->scene_step;
    v->scene_step = v->scene_pending = 0;
    char path[RC_VIEW_PATH_MAX];
    rc_error err;
    if (rc_scene_list_step(v->scene_next, step, path, sizeof path, &err) != 0) {
        fprintf(stderr, "raycompact view: %s\n", err.msg);
        return 0;
    }
    snprintf(v->scene_next, sizeof v->scene_next, "%s", path); /* N goes on past a failure */
    cli_common c = v->common;
    c.scene = path;
    rc_scene scene;
    rc_settings st;
    if (cli_load("view", &c, &scene, &st) != 0) return 0; /* it printed the line */
    keep_key_settings(v, &st);
    rc_scene old = v->scene;
    rc_settings old_st = v->st;
    rc_fly_camera old_cam = v->cam;
    uint32_t old_w = v->base_w, old_h = v->base_h;
    int old_bounce = v->mask_bounce;
    rc_renderer_destroy(v->r); /* it reads the old scene's arrays */
    v->r = NULL;
    v->scene = scene;
    v->st = st;
    v->base_w = st.width;
    v->base_h = st.height;
    fitted_size(v, &v->st.width, &v->st.height);
    rc_fly_init(&v->cam, &v->scene.camera, (float)v->st.width / (float)v->st.height);
    if ((int)v->st.max_depth <= v->mask_bounce) v->mask_bounce = (int)v->st.max_depth - 1;
    if (build(v) != 0) {
        rc_scene_free(&v->scene);
        v->scene = old;
        v->st = old_st;
        v->cam = old_cam;
        v->base_w = old_w;
        v->base_h = old_h;
        v->mask_bounce = old_bounce;
        v->rebuild = 1;
        return 0;
    }
    rc_scene_free(&old);
    snprintf(v->scene_path, sizeof v->scene_path, "%s", path);
    printf("raycompact view: scene %s, image %ux%u\n", path, v->st.width, v->st.height);
    fflush(stdout);
    v->rebuild = v->reset = 0;
    v->film_dirty = 1;
    return made(v);
}

int rc_view_session_apply(rc_viewer *v) {
    if (v->scene_pending && v->have_good && switch_scene(v) != 0) return -1;
    if (v->resized) {
        v->resized = 0;
        fit_window(v);
    }
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
    size_t tile = (v->st.tune.tile ? v->st.tune.tile : SC_TILE_DEFAULT) * 2;
    v->st.tune.tile = tile > SC_TILE_MAX ? SC_TILE_MIN : tile;
    v->rebuild = 1;
}

void rc_view_toggle_tail(rc_viewer *v) {
    rc_tuning *t = &v->st.tune;
    if (t->tail_below) v->tail_below = t->tail_below;
    t->tail_below = t->tail_below ? 0u : v->tail_below ? v->tail_below : RC_TAIL_BELOW;
    v->rebuild = 1;
}

void rc_view_toggle_phases(rc_viewer *v) {
    v->st.tune.phase_timing = !v->st.tune.phase_timing;
    v->rebuild = 1;
}

void rc_view_toggle_lights(rc_viewer *v) {
    v->st.light_sampling = v->st.light_sampling == RC_LIGHTS_NEE ? RC_LIGHTS_BSDF : RC_LIGHTS_NEE;
    v->lights_set = 1;
    v->rebuild = 1;
}

void rc_view_toggle_shadows(rc_viewer *v) {
    const int inl = v->r ? rc_renderer_shadows_inline(v->r)
                         : rc_shadow_rays(&v->scene, &v->st) == RC_SHADOWS_INLINE;
    v->st.shadows = inl ? RC_SHADOWS_STREAM : RC_SHADOWS_INLINE;
    v->shadows_set = 1;
    v->rebuild = 1;
}

const char *rc_view_divergence_why(const rc_viewer *v) {
    if (!rc_have_probes()) return "divergence probes need a CUDA build with -DRAYCOMPACT_PROBES=ON";
    if (v->st.backend != RC_BACKEND_CUDA) return "divergence probes count on the CUDA backend";
    return NULL;
}

void rc_view_toggle_divergence(rc_viewer *v) {
    v->show_divergence = !v->show_divergence;
    const char *why = rc_view_divergence_why(v);
    if (v->show_divergence && why) printf("raycompact view: %s\n", why);
    rc_probe_window_reset(&v->div); /* it starts at the first frame counted: the renderer is
                                       made anew first */
    int want = v->show_divergence && !why;
    if (want != v->st.probes) {
        v->st.probes = want; /* the counts' buffers come with the renderer */
        v->rebuild = 1;
    }
    fflush(stdout);
}

int rc_view_divergence_frame(rc_viewer *v, rc_error *err) {
    if (!v->r || !v->st.probes) return 0;
    rc_probe_counts frame;
    if (rc_renderer_probes(v->r, &frame, err) != 0 || rc_renderer_probes_clear(v->r, err) != 0)
        return -1;
    rc_probe_window_add(&v->div, &frame, timing_now_ms(), RC_DIV_WINDOW_MS);
    return 0;
}

void rc_view_next_scene(rc_viewer *v, int step) {
    v->scene_step += step; /* net 0 (there and back) reloads the scene */
    v->scene_pending = 1;
}

void rc_view_window_resized(rc_viewer *v) {
    v->resized = 1;
}

void rc_view_camera_changed(rc_viewer *v) {
    rc_camera cam = rc_fly_camera_get(&v->cam);
    if (v->r) rc_renderer_set_camera(v->r, &cam);
    v->reset = 1;
}

void rc_view_scale_budget(rc_viewer *v, double factor) {
    double ms = v->budget.budget_ms * factor;
    ms = ms < RC_FRAME_MS_MIN ? RC_FRAME_MS_MIN : ms > RC_FRAME_MS_MAX ? RC_FRAME_MS_MAX : ms;
    if (ms == v->budget.budget_ms) return;
    rc_budget_set_ms(&v->budget, ms);
    printf("raycompact view: frame budget %g ms, %u spp a frame\n", ms, v->budget.n);
    fflush(stdout);
}

int rc_view_wants_frame(const rc_viewer *v) {
    if (v->paused || !v->r) return 0;
    if (v->show_mask && v->mask_stale) return 1;
    return v->spp_limit == 0 || rc_renderer_frames(v->r) < v->spp_limit;
}
