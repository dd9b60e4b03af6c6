/* viewer.h: `raycompact view`, the interactive viewer: an SDL2 window with an OpenGL 3.3 core
 * context (libepoxy), the film drawn through shaders/display.*, and an overlay that shows what
 * each compaction algorithm costs, bounce by bounce, while the image accumulates.
 *
 *   view_main.c  options, window and context, start-up and shut-down
 *   loop.c       the frame loop: input, script steps, one frame, draw, screenshots
 *   budget.c     the samples each displayed frame adds, from the frame-time budget
 *   session.c    the renderer and the settings the keys change (rebuilt on a change)
 *   keys.c       hotkeys and their help text
 *   overlay.c    the overlay panel: settings, per-bounce bars, the frame-time graph, help
 *   film_display.c the film's textures (CPU upload, CUDA-GL interop, or host fallback)
 *   scene_list.c the scenes key N steps through
 *   batch.c      overlay geometry and text;  fly_camera.c, history.c, script.c, screenshot.c */
#ifndef RC_VIEWER_H
#define RC_VIEWER_H

#include "../cli.h"
#include "batch.h"
#include "budget.h"
#include "../core/tonemap.h"
#include "../image.h"
#include "fly_camera.h"
#include "film_display.h"
#include "history.h"
#include "script.h"
#include "view.h"

#include <SDL.h>

#define RC_VIEW_MAX_ALGOS 32
#define RC_VIEW_PATH_MAX  4096
#define RC_DIV_WINDOW_MS  500.0 /* the divergence view shows the frames of this long */

typedef struct rc_view_opts {
    cli_common common;
    const char *algo, *mode, *script;
    uint32_t spp;          /* accumulation stops at this many samples; 0 = never */
    uint32_t win_w, win_h; /* initial window size */
    double frame_ms;       /* --frame-ms: the renderer's time per displayed frame */
    int vsync, no_interop, no_overlap;
} rc_view_opts;

typedef struct rc_viewer {
    /* what is rendered (session.c) */
    rc_scene scene;
    rc_settings st; /* st.algo points into algos[] */
    rc_renderer *r;
    rc_settings good; /* the settings of the last renderer made, to go back to */
    size_t good_algo;
    int have_good;
    cli_common common;                    /* the options, to load another scene with */
    char scene_path[RC_VIEW_PATH_MAX];    /* the scene on screen */
    char scene_next[RC_VIEW_PATH_MAX];    /* the last one N tried: the next N steps from it */
    int scene_step, scene_pending;        /* N / Shift+N presses not applied yet */
    int lights_set;                       /* key I chose st.light_sampling: kept across scenes */
    int shadows_set;                      /* key X chose st.shadows: kept across scenes */
    uint32_t base_w, base_h;              /* the image size at the window's first size */
    uint32_t refused_w, refused_h;        /* an image size no renderer could be made for */
    const char *algos[RC_VIEW_MAX_ALGOS]; /* "none", then the library's, in table order */
    size_t num_algos, algo;               /* algo: index of the one in use */
    size_t compact_algo;                  /* the one C switches compaction back on with */
    uint32_t tail_below;                  /* the threshold L switches the tail back on with */
    uint32_t spp_limit;
    rc_fly_camera cam;
    int rebuild, reset; /* set by keys, applied before the next frame */
    /* frames by time budget (budget.h): the samples a displayed frame adds, in renderer calls
       of at most the renderer's wave */
    rc_budget budget;
    uint32_t wave_given;  /* --samples-per-wave N: the renderer's wave; 0: rc_budget_wave */
    uint32_t frame_calls; /* renderer calls in the last displayed frame */
    /* CUDA: the next frame renders while the one before is drawn (loop.c; --no-overlap) */
    int overlap;
    rc_frame_stats flight_fs, flight_last; /* the frame in flight: its calls' stats */
    double flight_t0;                      /* when its first call began */
    uint32_t flight_calls;
    int film_fresh; /* a frame ended since the film was last shown */
    /* the window */
    SDL_Window *win;
    SDL_GLContext gl;
    int win_w, win_h;   /* drawable size, pixels */
    int win0_w, win0_h; /* the window's first size (SDL_GetWindowSize): the image size scales
                           with the window's from it */
    int resized;        /* the window's size changed; the image follows before the next frame */
    int interop;        /* the film may use CUDA-GL interop (no --no-interop) */
    rc_film film;
    rc_batch batch;
    /* what is shown */
    int show_overlay, show_help, show_mask, paused, dragging;
    int mask_bounce, mask_stale; /* stale: no frame has recorded this bounce's mask yet */
    /* F3: the divergence probes (core/probe.h) per bounce, where the build counts them
       (rc_have_probes) and the backend is CUDA: st.probes is then on; div.shown holds the
       counts of the last RC_DIV_WINDOW_MS of frames (from the first frame counted on) */
    int show_divergence;
    rc_probe_window div;
    int film_dirty; /* the textures need the film again, though no frame ran */
    float exposure; /* stops */
    int tonemap;    /* RC_TONEMAP_* (core/tonemap.h): key G */
    rc_history hist;
    /* scripted input */
    rc_script script;
    const char *shot; /* screenshot this frame once drawn */
    int shot_line;    /* the script line that asked for it; 0 for F12 */
    char shot_name[64];
    int quit;
    uint64_t turns, rendered; /* loop turns and frames rendered, for the closing line */
    uint64_t samples;         /* samples per pixel rendered, over every film */
} rc_viewer;

/* session.c */
int rc_view_session_init(rc_viewer *v, const rc_view_opts *o);
/* Apply pending changes (another scene, the window's size, a new renderer, a reset film). A
 * renderer that cannot be made prints one line and the settings (and scene) go back to those
 * of the last one made; -1 only when that fails too, or the film cannot be made (one line). */
int rc_view_session_apply(rc_viewer *v);
void rc_view_session_free(rc_viewer *v);
void rc_view_pick_algo(rc_viewer *v, size_t index);
void rc_view_toggle_compaction(rc_viewer *v);
void rc_view_toggle_mode(rc_viewer *v);
void rc_view_next_tile(rc_viewer *v);
/* L: the tail kernel off (tail_below 0) or back on at the threshold it had (--tail-below). */
void rc_view_toggle_tail(rc_viewer *v);
/* B: time every phase with events (the bars) or only the frame (rc_settings.tune.phase_timing). */
void rc_view_toggle_phases(rc_viewer *v);
/* I: light sampling nee / bsdf (rc_settings.light_sampling), kept when the scene changes. */
void rc_view_toggle_lights(rc_viewer *v);
/* X: the shadow rays traced where the renderer does not trace them now (in shade, or in a
 * stream of their own: rc_settings.shadows), kept when the scene changes. */
void rc_view_toggle_shadows(rc_viewer *v);
/* F3: the divergence view on / off; on, and where this build and backend count the probes
 * (rc_view_divergence_why is NULL), the renderer is made anew with settings.probes. */
void rc_view_toggle_divergence(rc_viewer *v);
/* Why the divergence view cannot count here (a line for the overlay and stdout), or NULL. */
const char *rc_view_divergence_why(const rc_viewer *v);
/* After a displayed frame: its probe counts added to the view's (the frame has ended). */
int rc_view_divergence_frame(rc_viewer *v, rc_error *err);
/* N, Shift+N: `step` scenes on (scene_list.c); applied with the next change, once. A scene that
 * does not load, or a renderer that cannot be made for it, prints one line and the viewer
 * stays on the scene it had. */
void rc_view_next_scene(rc_viewer *v, int step);
/* The window's size changed (SDL_WINDOWEVENT_SIZE_CHANGED, or the script's `resize`): the image
 * size follows the window, the scene's size scaled as the window is from its first size
 * (aspect kept); the renderer and the film are made anew at it. */
void rc_view_window_resized(rc_viewer *v);
void rc_view_camera_changed(rc_viewer *v);
/* 1 while accumulation should go on (not paused, below the spp limit, or a mask to record). */
int rc_view_wants_frame(const rc_viewer *v);
/* , and .: the frame-time budget halved or doubled (factor), within RC_FRAME_MS_MIN..MAX. */
void rc_view_scale_budget(rc_viewer *v, double factor);

/* keys.c */
void rc_view_key(rc_viewer *v, int32_t key, int32_t mod);
void rc_view_drag(rc_viewer *v, float dx, float dy);
typedef struct rc_help_line {
    const char *keys, *what;
} rc_help_line;
extern const rc_help_line rc_view_help[]; /* ends with {NULL, NULL} */

/* overlay.c */
void rc_overlay_draw(rc_viewer *v, double now_ms);
/* The panel's width with its margins, pixels: the image goes right of it when it fits. */
float rc_overlay_width(const rc_viewer *v);
void rc_help_draw(rc_viewer *v);

/* screenshot.c: the back buffer (w x h) as a PNG, rows flipped to top first; written to a
 * temporary file and renamed. */
int rc_screenshot(const char *path, int w, int h, rc_error *err);

/* loop.c */
int rc_view_run(rc_viewer *v);

/* scene_list.c: the scene `step` places from `current` among the .json files of its directory,
 * in name order, wrapping (a path in the same directory, into out[cap]). 0, or -1 with err. */
int rc_scene_list_step(const char *current, int step, char *out, size_t cap, rc_error *err);

#endif /* RC_VIEWER_H */
