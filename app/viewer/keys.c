/* keys.c: the viewer's hotkeys. Scripted `key` lines come through the same function. */
#include "viewer.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define RC_EXPOSURE_STEP 0.5f  /* stops per + or - */
#define RC_ARROW_TURN    40.0f /* an arrow key turns like a drag of this many pixels */
#define RC_BUDGET_STEP   2.0   /* , and . halve and double the frame-time budget */

const rc_help_line rc_view_help[] = {
    {"Tab, Shift+Tab", "next / previous compaction algorithm"},
    {"0 .. 9", "pick one: 0 none, 1-9 the library's first nine"},
    {"U", "auto: the library picks the algorithm per bounce"},
    {"C", "compaction off / on (none, or back to the last algorithm)"},
    {"M", "mode: compact path indices / whole path records"},
    {"T", "next tile size (block-based algorithms)"},
    {"L", "tail kernel off / on (the last bounces in one kernel)"},
    {"B", "phase timing on / off (the bars; its events slow a frame down)"},
    {"I", "light sampling: nee (light samples, shadow rays) / bsdf"},
    {"X", "shadow rays traced in shade / in a stream of their own (the same image)"},
    {"N, Shift+N", "next / previous scene: the .json, .gltf, .glb, .obj files in its folder"},
    {"V", "alive-ray mask of bounce k"},
    {"[  ]", "previous / next bounce k of the mask"},
    {"W A S D", "move forward, left, back, right (Shift: 4 steps)"},
    {"Q E", "move down, up"},
    {"mouse drag, arrows", "turn the camera"},
    {"+  -", "exposure up / down half a stop"},
    {"G", "tone map: clip / reinhard / aces (filmic)"},
    {"R", "reset camera, exposure and film"},
    {"P", "pause / resume accumulation"},
    {",  .", "frame-time budget halved / doubled (the samples a frame adds)"},
    {"O or F2", "overlay on / off"},
    {"F3", "divergence: active lanes per warp in extend and shade, per bounce"},
    {"H or F1", "this help"},
    {"F12", "screenshot (PNG, with the overlay) in the working directory"},
    {"Esc", "quit"},
    {NULL, NULL},
};

static void watch_mask(rc_viewer *v) {
    rc_error err;
    if (v->r && rc_renderer_watch_bounce(v->r, v->show_mask ? v->mask_bounce : -1, &err) != 0) {
        fprintf(stderr, "raycompact view: %s\n", err.msg);
        v->show_mask = 0;
        return;
    }
    v->mask_stale = v->show_mask;
    v->film_dirty = 1;
}

static void shift_mask(rc_viewer *v, int by) {
    int k = v->mask_bounce + by, max = (int)v->st.max_depth - 1;
    v->mask_bounce = k < 0 ? 0 : k > max ? max : k;
    watch_mask(v);
}

/* U: auto, where the backend lists it (A moves the camera). */
static void pick_auto(rc_viewer *v) {
    for (size_t i = 0; i < v->num_algos; i++)
        if (strcmp(v->algos[i], sc_algorithm_get(SC_ALGO_AUTO)->name) == 0) rc_view_pick_algo(v, i);
}

/* The compaction settings; 1 if the key was one of them. */
static int settings_key(rc_viewer *v, int32_t key, int shift) {
    size_t n = v->num_algos;
    if (key == SDLK_TAB)
        rc_view_pick_algo(v, (v->algo + (shift ? n - 1 : 1)) % n);
    else if (key >= '1' && key <= '9')
        rc_view_pick_algo(v, (size_t)(key - '0'));
    else if (key == '0')
        rc_view_pick_algo(v, 0);
    else if (key == 'u')
        pick_auto(v);
    else if (key == 'c')
        rc_view_toggle_compaction(v);
    else if (key == 'm')
        rc_view_toggle_mode(v);
    else if (key == 't')
        rc_view_next_tile(v);
    else if (key == 'l')
        rc_view_toggle_tail(v);
    else if (key == 'b')
        rc_view_toggle_phases(v);
    else if (key == 'i')
        rc_view_toggle_lights(v);
    else if (key == 'x')
        rc_view_toggle_shadows(v);
    else if (key == 'n')
        rc_view_next_scene(v, shift ? -1 : 1);
    else
        return 0;
    return 1;
}

/* Camera keys: a step along (right, up, forward), or a turn like a drag of (dx, dy) pixels. */
static const struct {
    int32_t key;
    float right, up, forward, dx, dy;
} camera_keys[] = {
    {'w', 0, 0, 1, 0, 0},
    {'s', 0, 0, -1, 0, 0},
    {'d', 1, 0, 0, 0, 0},
    {'a', -1, 0, 0, 0, 0},
    {'e', 0, 1, 0, 0, 0},
    {'q', 0, -1, 0, 0, 0},
    {SDLK_LEFT, 0, 0, 0, -RC_ARROW_TURN, 0},
    {SDLK_RIGHT, 0, 0, 0, RC_ARROW_TURN, 0},
    {SDLK_UP, 0, 0, 0, 0, -RC_ARROW_TURN},
    {SDLK_DOWN, 0, 0, 0, 0, RC_ARROW_TURN},
};

static int camera_key(rc_viewer *v, int32_t key, int shift) {
    float s = shift ? 4.0f : 1.0f;
    for (size_t i = 0; i < sizeof camera_keys / sizeof *camera_keys; i++) {
        if (camera_keys[i].key != key) continue;
        rc_fly_move(&v->cam, s * camera_keys[i].right, s * camera_keys[i].up,
                    s * camera_keys[i].forward);
        rc_fly_turn(&v->cam, camera_keys[i].dx, camera_keys[i].dy);
        rc_view_camera_changed(v);
        return 1;
    }
    return 0;
}

static void reset_all(rc_viewer *v) {
    rc_fly_home(&v->cam);
    v->exposure = 0.0f;
    rc_view_camera_changed(v);
}

/* F12: a file name from the local time, in the working directory. */
static void screenshot_key(rc_viewer *v) {
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(v->shot_name, sizeof v->shot_name, "raycompact-%Y%m%d-%H%M%S.png", &tm);
    v->shot = v->shot_name;
}

static int display_key(rc_viewer *v, int32_t key) {
    switch (key) {
    case 'v':
        v->show_mask = !v->show_mask;
        watch_mask(v);
        break;
    case '[':
        shift_mask(v, -1);
        break;
    case ']':
        shift_mask(v, 1);
        break;
    case 'o':
    case SDLK_F2:
        v->show_overlay = !v->show_overlay;
        break;
    case SDLK_F3:
        rc_view_toggle_divergence(v);
        break;
    case 'h':
    case SDLK_F1:
        v->show_help = !v->show_help;
        break;
    case '+':
    case '=':
    case SDLK_KP_PLUS:
        v->exposure += RC_EXPOSURE_STEP;
        break;
    case '-':
    case SDLK_KP_MINUS:
        v->exposure -= RC_EXPOSURE_STEP;
        break;
    case 'g':
        v->tonemap = (v->tonemap + 1) % RC_TONEMAP_COUNT;
        printf("raycompact view: tone map %s\n", rc_tonemap_name(v->tonemap));
        break;
    case 'r':
        reset_all(v);
        break;
    case 'p':
        v->paused = !v->paused;
        break;
    case ',':
        rc_view_scale_budget(v, 1.0 / RC_BUDGET_STEP);
        break;
    case '.':
        rc_view_scale_budget(v, RC_BUDGET_STEP);
        break;
    case SDLK_F12:
        screenshot_key(v);
        break;
    case SDLK_ESCAPE:
        v->quit = 1;
        break;
    default:
        return 0;
    }
    return 1;
}

void rc_view_key(rc_viewer *v, int32_t key, int32_t mod) {
    int shift = (mod & KMOD_SHIFT) != 0;
    if (!settings_key(v, key, shift) && !camera_key(v, key, shift)) display_key(v, key);
}

void rc_view_drag(rc_viewer *v, float dx, float dy) {
    rc_fly_turn(&v->cam, dx, dy);
    rc_view_camera_changed(v);
}
