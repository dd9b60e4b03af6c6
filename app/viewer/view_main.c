/* view_main.c: `raycompact view`: options, the window and its OpenGL 3.3 core context, and
 * the order things start and stop in. */
#include "viewer.h"

#include "../wavefront/compact.h"
#include "../core/path.h"

#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RC_VIEW_DEFAULT_W 1280
#define RC_VIEW_DEFAULT_H 720

static void usage(FILE *f) {
    fprintf(f,
            "usage: raycompact view --scene FILE [options]\n"
            "\n"
            "Render a scene progressively in a window, with an overlay of what each phase and\n"
            "each bounce costs. Each displayed frame adds as many samples per pixel as fit\n"
            "the frame-time budget. Press H in the window for the keys.\n"
            "\n"
            "options:\n"
            "  --scene FILE          scene file (JSON)\n" CLI_HELP_ENV CLI_HELP_BVH
            "  --width W --height H  image size (default: the scene's render block)\n"
            "  --spp N               stop accumulating at N samples per pixel (default: never)\n"
            "  --frame-ms MS         frame-time budget: the renderer's time per displayed\n"
            "                        frame, %g..%g ms (default %g; keys , and . halve and\n"
            "                        double it); each frame adds the samples that fit\n"
            "  --samples-per-wave N  samples per pixel of one renderer call (a frame that adds\n"
            "                        more makes several; default: as many as fit %u paths on\n"
            "                        CUDA, 1 on the CPU)\n"
            "  --max-depth D         bounces per path, 1..%d (default: the scene's)\n"
            "  --algo NAME           compaction after each bounce (default auto: the library\n"
            "                        picks per bounce, from the density; see README);\n"
            "                        one of: %s\n"
            "  --mode M              indices (4-byte path indices) or payload (%zu-byte "
            "records)\n" CLI_HELP_BACKEND
            "  --frame-loop L        CUDA: graph (default; lengths stay on the device, the frame\n"
            "                        is captured once and replayed), stream (the same, launched\n"
            "                        call by call), host (counts read back after every "
            "bounce)\n"
            "  --gpus 1              the viewer renders on one GPU (render and bench take "
            "more)\n" CLI_HELP_TUNING
            "  --light-sampling L    nee (default: light samples, a shadow-ray stream, MIS) or\n"
            "                        bsdf; default: the scene's\n" CLI_HELP_SHADOWS
            "  --sort-materials      before shade, partition the stream by material kind\n"
            "                        (sc_partition); shade runs once per kind\n"
            "  --seed S              an independent set of samples\n"
            "  --window WxH          window size in pixels (default %dx%d)\n"
            "  --vsync               wait for the display's refresh (default: off, so the\n"
            "                        frame rate shown is the renderer's)\n"
            "  --no-interop          CUDA: copy frames through host memory even where CUDA-GL\n"
            "                        interop works\n"
            "  --no-overlap          CUDA: render a frame, then draw it (default: the next\n"
            "                        frame renders on the GPU while the last one is drawn)\n"
            "  --script FILE         scripted input: wait, key, drag, resize, screenshot,\n"
            "                        memory, quit lines\n"
            "  --help                this text\n" CLI_HELP_EXIT,
            RC_FRAME_MS_MIN, RC_FRAME_MS_MAX, RC_FRAME_MS_DEFAULT, RC_VIEW_WAVE_PATHS_CUDA,
            RC_MAX_DEPTH, rc_compact_names_help(32), sizeof(rc_path), RC_VIEW_DEFAULT_W,
            RC_VIEW_DEFAULT_H);
}

static int parse_window(cli_args *a, rc_view_opts *o) {
    unsigned w = 0, h = 0;
    char end = 0;
    if (sscanf(a->value, "%ux%u%c", &w, &h, &end) != 2 || w < RC_VIEW_WINDOW_MIN ||
        h < RC_VIEW_WINDOW_MIN || w > RC_VIEW_WINDOW_MAX || h > RC_VIEW_WINDOW_MAX)
        return cli_usage_error("view", "--window: '%s' is not WxH (64..16384 each)", a->value);
    o->win_w = w;
    o->win_h = h;
    return 0;
}

static int view_option(cli_args *a, rc_view_opts *o) {
    int r;
    if ((r = cli_is(a, "--algo", 1)) != 0) {
        o->algo = a->value;
    } else if ((r = cli_is(a, "--mode", 1)) != 0) {
        o->mode = a->value;
    } else if ((r = cli_is(a, "--script", 1)) != 0) {
        o->script = a->value;
    } else if ((r = cli_is(a, "--spp", 1)) != 0) {
        if (r > 0 && cli_uint(a, 1, 1u << 30, &o->spp) != 0) return RC_EXIT_USAGE;
    } else if ((r = cli_is(a, "--frame-ms", 1)) != 0) {
        if (r > 0 && rc_frame_ms_parse(a->value, &o->frame_ms) != 0)
            return cli_usage_error("view",
                                   "--frame-ms: '%s' is not a number of milliseconds in "
                                   "[%g, %g]",
                                   a->value, RC_FRAME_MS_MIN, RC_FRAME_MS_MAX);
    } else if ((r = cli_is(a, "--vsync", 0)) != 0) {
        o->vsync = 1;
    } else if ((r = cli_is(a, "--no-interop", 0)) != 0) {
        o->no_interop = 1;
    } else if ((r = cli_is(a, "--no-overlap", 0)) != 0) {
        o->no_overlap = 1;
    } else if ((r = cli_is(a, "--window", 1)) != 0) {
        if (r > 0 && parse_window(a, o) != 0) return RC_EXIT_USAGE;
    } else {
        return cli_usage_error("view", "unknown option '%s' (see --help)", a->argv[a->i]);
    }
    if (r < 0) return cli_usage_error("view", "%s needs a value", a->opt);
    return 0;
}

/* 0 to go on, -1 after --help, else an exit code. */
static int parse(int argc, char **argv, rc_view_opts *o) {
    cli_args a = {"view", argc, argv, 1, NULL, NULL, NULL};
    o->win_w = RC_VIEW_DEFAULT_W;
    o->win_h = RC_VIEW_DEFAULT_H;
    for (; a.i < argc; a.i++) {
        int r = cli_shared_option(&a, &o->common, usage);
        if (r != 0 && r != 1) return r == CLI_HELP_SHOWN ? -1 : RC_EXIT_USAGE;
        if (r > 0) continue;
        if ((r = view_option(&a, o)) != 0) return r;
    }
    return 0;
}

/* A display to open a window on: X11, Wayland, or a video driver named by SDL_VIDEODRIVER. */
static int check_display(void) {
    if (getenv("DISPLAY") || getenv("WAYLAND_DISPLAY") || getenv("SDL_VIDEODRIVER")) return 0;
    fprintf(stderr, "raycompact view: no display (DISPLAY is not set); use 'render' or "
                    "'bench', or run under xvfb-run\n");
    return RC_EXIT_FAIL;
}

static int open_window(rc_viewer *v, const rc_view_opts *o) {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "raycompact view: no display: %s\n", SDL_GetError());
        return RC_EXIT_FAIL;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    v->win = SDL_CreateWindow("raycompact view", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                              (int)o->win_w, (int)o->win_h,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (v->win) v->gl = SDL_GL_CreateContext(v->win);
    if (!v->win || !v->gl) {
        fprintf(stderr, "raycompact view: no OpenGL 3.3 core context: %s\n", SDL_GetError());
        return RC_EXIT_FAIL;
    }
    if (epoxy_gl_version() < 33) {
        fprintf(stderr, "raycompact view: OpenGL 3.3 is needed, the driver has %d.%d\n",
                epoxy_gl_version() / 10, epoxy_gl_version() % 10);
        return RC_EXIT_FAIL;
    }
    /* No vsync unless asked: the frame rate shown is then the renderer's, not the display's. */
    SDL_GL_SetSwapInterval(o->vsync ? 1 : 0);
    SDL_GL_GetDrawableSize(v->win, &v->win_w, &v->win_h);
    SDL_GetWindowSize(v->win, &v->win0_w, &v->win0_h);
    printf("raycompact view: OpenGL %s on %s; press H for the keys\n",
           (const char *)glGetString(GL_VERSION), (const char *)glGetString(GL_RENDERER));
    return 0;
}

/* Scene, settings and backend, as `render` takes them. */
static int load(rc_viewer *v, const rc_view_opts *o) {
    /* --gpus is render's and bench's: the viewer renders on one GPU (interop shows its film) */
    if (o->common.gpus && strcmp(o->common.gpus, "1") != 0)
        return cli_usage_error("view", "--gpus %s: the viewer renders on one GPU (--gpus 1)",
                               o->common.gpus);
    int rc = cli_load("view", &o->common, &v->scene, &v->st);
    if (rc != 0) return rc;
    if (o->algo) v->st.algo = o->algo;
    if (o->mode && rc_mode_parse(o->mode, &v->st.mode) != 0)
        return cli_usage_error("view", "--mode: '%s' is not one of: indices, payload", o->mode);
    return cli_pick_backend("view", o->common.backend, &v->st.backend);
}

/* The first renderer's settings as build() (session.c) will make it, checked before the
 * window opens: bad input is one line and exit 2 with or without a display. */
static int check(const rc_viewer *v) {
    rc_settings st = v->st;
    st.samples_per_wave = rc_budget_wave(st.width, st.height, 0, v->wave_given);
    return cli_check_settings("view", &st);
}

/* The window, once the options and the scene are accepted. */
static int start(rc_viewer *v, const rc_view_opts *o) {
    int rc = check_display();
    if (rc == 0) cli_backend_notice(); /* after every refusal of bad input */
    if (rc == 0) rc = open_window(v, o);
    if (rc != 0) return rc;
    rc_error err;
    if (rc_film_init(&v->film, v->st.width, v->st.height, v->st.backend, !o->no_interop, &err) !=
            0 ||
        rc_batch_init(&v->batch, &err) != 0) {
        fprintf(stderr, "raycompact view: %s\n", err.msg);
        return RC_EXIT_FAIL;
    }
    printf("raycompact view: %s, %ux%u, display through %s\n", o->common.scene, v->st.width,
           v->st.height, rc_film_path_name(v->film.path));
    return 0;
}

static void stop(rc_viewer *v) {
    rc_view_session_free(v);
    if (v->gl) {
        rc_film_free(&v->film);
        rc_batch_free(&v->batch);
        SDL_GL_DeleteContext(v->gl);
    }
    if (v->win) SDL_DestroyWindow(v->win);
    SDL_Quit();
    rc_script_free(&v->script);
    rc_scene_free(&v->scene);
}

int cmd_view(int argc, char **argv) {
    rc_view_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;
    if (!o.common.scene) return cli_usage_error("view", "--scene FILE is required");
    rc_viewer *v = calloc(1, sizeof *v);
    if (!v) return cli_usage_error("view", "out of memory");
    rc_error err;
    if (o.script && rc_script_load(o.script, &v->script, &err) != 0) {
        free(v);
        return cli_usage_error("view", "%s", err.msg);
    }
    v->show_overlay = 1;
    rc = load(v, &o);
    if (rc == 0) rc = rc_view_session_init(v, &o);
    if (rc == 0) rc = check(v);
    if (rc == 0) rc = start(v, &o);
    if (rc == 0) rc = rc_view_run(v);
    stop(v);
    free(v);
    return rc;
}
