/* cli_common.c: option parsing, backend choice and scene loading shared by the commands. */
#define _POSIX_C_SOURCE 200809L /* pathconf */
#include "cli.h"
#include "echo.h"
#include "num_parse.h"
#include "out_path.h"
#include "core/path.h"
#include "scene/scene_inst.h"
#include "timing.h"
#include "workers.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void cli_verror(const char *cmd, const char *fmt, va_list ap) {
    char msg[1024];
    echo_vformat(msg, sizeof msg, fmt, ap); /* arguments are echoed escaped, on one line */
    fprintf(stderr, "raycompact %s: %s\n", cmd, msg);
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cli_verror(cmd, fmt, ap);
    va_end(ap);
    return RC_EXIT_USAGE;
}

int cli_run_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    cli_verror(cmd, fmt, ap);
    va_end(ap);
    return RC_EXIT_FAIL;
}

int cli_list_check(const char *cmd, const char *opt, const char *value) {
    size_t at, len;
    switch (num_list_check(value, &at, &len)) {
    case NUM_LIST_EMPTY:
        if (!*value) return cli_usage_error(cmd, "%s: the list is empty", opt);
        return cli_usage_error(cmd,
                               "%s: '%s' has an empty item (a comma at the start or the end, or "
                               "two in a row)",
                               opt, value);
    case NUM_LIST_REPEAT: {
        char item[256];
        snprintf(item, sizeof item, "%.*s", (int)len, value + at);
        return cli_usage_error(cmd, "%s: '%s' is listed twice", opt, item);
    }
    }
    return 0;
}

int cli_check_name(const char *cmd, const char *opt, const char *path) {
    char dir[4096];
    size_t n = strlen(path);
    if (n + RC_WRITE_SUFFIX_LEN >= sizeof dir) {
        cli_usage_error(cmd, "%s: the path is %zu bytes long; at most %d", opt, n,
                        (int)(sizeof dir - 1 - RC_WRITE_SUFFIX_LEN));
        return -1;
    }
    rc_dirname(path, dir, sizeof dir);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (name_max <= 0) name_max = 255;
    if (strlen(base) + RC_WRITE_SUFFIX_LEN > (size_t)name_max) {
        cli_usage_error(cmd,
                        "%s: the file name is %zu bytes long; at most %ld here (the file is "
                        "written as NAME.tmpXXXXXX first, then renamed)",
                        opt, strlen(base), name_max - (long)RC_WRITE_SUFFIX_LEN);
        return -1;
    }
    char why[3 * OUT_PATH_MAX];
    if (out_path_check(path, why, sizeof why) != 0) {
        cli_usage_error(cmd, "%s: %s", opt, why);
        return -1;
    }
    return 0;
}

int cli_is(cli_args *a, const char *name, int want_value) {
    const char *arg = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    a->opt = name;
    a->value = NULL;
    if (arg[n] == '=') {
        if (!want_value) return 0;
        a->value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (!want_value) return 1;
    if (a->i + 1 >= a->argc) return -1;
    a->value = a->argv[++a->i];
    return 1;
}

const char *cli_opt_name(const cli_args *a) {
    return a->as ? a->as : a->opt;
}

int cli_uint(cli_args *a, uint32_t lo, uint32_t hi, uint32_t *out) {
    const char *s = a->value;
    uint64_t v;
    if (num_parse_range(s, lo, hi, &v) != 0) {
        cli_usage_error(a->cmd, "%s: '%s' is not an integer in [%u, %u]", cli_opt_name(a), s, lo,
                        hi);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

/* The tuning knobs (rc_tuning, wavefront.h): what changes the speed of a render, never its
 * image. `--set KEY=VALUE` parses VALUE as the option --KEY would (the option spellings are
 * still taken). */
typedef struct cli_knob {
    const char *key, *values, *help;
} cli_knob;
#define CLI_STR_(x) #x
#define CLI_STR(x)  CLI_STR_(x) /* a number macro's digits, for a help text */
static const cli_knob knobs[] = {
    {"tile", "B", NULL}, /* its range is printed from the library's limits */
    {"pool", "N|auto",
     "--schedule regen: path slots in the stream (auto: 64x the threads the GPU runs at "
     "once, 32x for `none` in place; on the CPU 16384 per thread)"},
    {"spread", "on|off", "CUDA: trace a short stream thinned out over the whole GPU (default on)"},
    {"auto-skip-below", "N",
     "CUDA, auto: leave a bounce uncompacted (as `none`) when its stream held fewer than N "
     "paths in the previous frame; 0: always compact (default 16384)"},
    {"tail-below", "N",
     "CUDA graph/stream loops: from the first bounce that had fewer than N live paths in the "
     "previous frame, one kernel finishes the paths; 0: off (default 16384)"},
    {"fetch", "N",
     "CUDA: extend's lanes take the next ray from a counter as theirs ends, and a warp refetches "
     "when fewer than N of its 32 lanes still trace; 0: one thread per stream slot "
     "(default " CLI_STR(RC_FETCH_BELOW) ")"},
};
#define NUM_KNOBS (sizeof knobs / sizeof *knobs)

void cli_help_tuning(FILE *f, const char *cmd) {
    fprintf(f,
            "raycompact %s: the tuning knobs, set with --set KEY=VALUE (repeatable). They\n"
            "change how fast a frame renders, never the image.\n\n",
            cmd);
    char tile[160];
    snprintf(tile, sizeof tile,
             "tile size of the block-based algorithms, a power of two in [%u, %u] (default: "
             "the library's)",
             (unsigned)SC_TILE_MIN, (unsigned)SC_TILE_MAX);
    for (size_t i = 0; i < NUM_KNOBS; i++) {
        fprintf(f, "  %-16s %-8s ", knobs[i].key, knobs[i].values);
        echo_wrapped(f, knobs[i].help ? knobs[i].help : tile, 64, 28); /* within 92 columns */
    }
}

/* --set KEY=VALUE: the knob's own option, parsed as if given as --KEY=VALUE; its errors name
 * what was given ("--set tile=33: ..."), not the option it stands for. */
static int set_knob(cli_args *a, cli_common *c) {
    const char *eq = strchr(a->value, '=');
    size_t len = eq ? (size_t)(eq - a->value) : strlen(a->value);
    for (size_t i = 0; eq && i < NUM_KNOBS; i++) {
        if (strlen(knobs[i].key) != len || strncmp(knobs[i].key, a->value, len) != 0) continue;
        /* "--KEY" VALUE: the value stays in the caller's argv, where options keep pointers */
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", knobs[i].key);
        char *argv[2] = {opt, (char *)(eq + 1)};
        char as[320];
        snprintf(as, sizeof as, "--set %s", a->value);
        cli_args two = {a->cmd, 2, argv, 0, NULL, NULL, as};
        int r = cli_common_option(&two, c);
        return r < 0 ? -1 : 1;
    }
    cli_usage_error(a->cmd,
                    "--set: '%s' is not KEY=VALUE with a key of: tile, pool, spread, "
                    "auto-skip-below, tail-below, fetch (see --help-tuning)",
                    a->value);
    return -1;
}

int cli_shared_option(cli_args *a, cli_common *c, void (*usage)(FILE *)) {
    int r = cli_common_option(a, c);
    if (r != 0) return r;
    if (cli_is(a, "--help", 0) > 0) {
        usage(stdout);
        return CLI_HELP_SHOWN;
    }
    if (cli_is(a, "--help-tuning", 0) > 0) {
        cli_help_tuning(stdout, a->cmd);
        return CLI_HELP_SHOWN;
    }
    return 0;
}

/* The current value as a finite number in [lo, hi]: decimal, with no blanks around it;
 * prints the error and returns -1. */
static int cli_number(cli_args *a, double lo, double hi, const char *what, double *out) {
    const char *s = a->value;
    char *end = NULL;
    double v = *s && !isspace((unsigned char)*s) ? strtod(s, &end) : NAN;
    if (!end || end == s || *end || !isfinite(v) || v < lo || v > hi) {
        cli_usage_error(a->cmd, "%s: '%s' is not %s", cli_opt_name(a), s, what);
        return -1;
    }
    *out = v;
    return 0;
}

#define CLI_ENV_MAX_SCALE 1e6

int cli_common_option(cli_args *a, cli_common *c) {
    int r;
    uint32_t v;
    if ((r = cli_is(a, "--set", 1)) != 0) {
        if (r > 0) return set_knob(a, c);
    } else if ((r = cli_is(a, "--scene", 1)) != 0) {
        if (r > 0) c->scene = a->value;
    } else if ((r = cli_is(a, "--env", 1)) != 0) {
        if (r > 0 && !*a->value) {
            cli_usage_error(a->cmd, "%s: the file name is empty", cli_opt_name(a));
            return -1;
        }
        if (r > 0) c->env = a->value;
    } else if ((r = cli_is(a, "--env-rotation", 1)) != 0) {
        if (r > 0 && cli_number(a, -1e15, 1e15, "a finite number of degrees (|x| <= 1e15)",
                                &c->env_rotation) != 0)
            return -1;
        if (r > 0) c->env_rotation_set = 1;
    } else if ((r = cli_is(a, "--env-scale", 1)) != 0) {
        if (r > 0 &&
            cli_number(a, 0.0, CLI_ENV_MAX_SCALE, "a number in [0, 1e6]", &c->env_scale) != 0)
            return -1;
        if (r > 0) c->env_scale_set = 1;
    } else if ((r = cli_is(a, "--width", 1)) != 0) {
        if (r > 0 && cli_uint(a, 1, RC_MAX_SIZE, &c->width) != 0) return -1;
    } else if ((r = cli_is(a, "--height", 1)) != 0) {
        if (r > 0 && cli_uint(a, 1, RC_MAX_SIZE, &c->height) != 0) return -1;
    } else if ((r = cli_is(a, "--max-depth", 1)) != 0) {
        if (r > 0 && cli_uint(a, 1, RC_MAX_DEPTH, &c->max_depth) != 0) return -1;
    } else if ((r = cli_is(a, "--tile", 1)) != 0) {
        if (r > 0) {
            if (cli_uint(a, SC_TILE_MIN, SC_TILE_MAX, &v) != 0) return -1;
            if (v & (v - 1)) {
                cli_usage_error(a->cmd, "%s: %u is not a power of two", cli_opt_name(a), v);
                return -1;
            }
            c->tile = v;
        }
    } else if ((r = cli_is(a, "--max-memory", 1)) != 0) {
        if (r > 0 && cli_uint(a, 64, 1u << 24, &c->max_memory) != 0) return -1;
    } else if ((r = cli_is(a, "--backend", 1)) != 0) {
        if (r > 0) c->backend = a->value;
    } else if ((r = cli_is(a, "--frame-loop", 1)) != 0) {
        if (r > 0) c->frame_loop = a->value;
    } else if ((r = cli_is(a, "--spread", 1)) != 0) {
        int on; /* checked here, so that the message names the option as given */
        if (r > 0 && cli_on_off(a->cmd, cli_opt_name(a), a->value, &on) != 0) return -1;
        if (r > 0) c->spread = a->value;
    } else if ((r = cli_is(a, "--light-sampling", 1)) != 0) {
        if (r > 0) c->light_sampling = a->value;
    } else if ((r = cli_is(a, "--auto-skip-below", 1)) != 0) {
        if (r > 0 && cli_uint(a, 0, UINT32_MAX, &c->auto_skip_below) != 0) return -1;
        if (r > 0) c->auto_skip_set = 1;
    } else if ((r = cli_is(a, "--tail-below", 1)) != 0) {
        if (r > 0 && cli_uint(a, 0, UINT32_MAX, &c->tail_below) != 0) return -1;
        if (r > 0) c->tail_set = 1;
    } else if ((r = cli_is(a, "--fetch", 1)) != 0) {
        if (r > 0 && cli_uint(a, 0, 32, &c->fetch) != 0) return -1;
        if (r > 0) c->fetch_set = 1;
    } else if ((r = cli_is(a, "--sort-materials", 0)) != 0) {
        c->sort_materials = 1;
    } else if ((r = cli_is(a, "--seed", 1)) != 0) {
        if (r > 0 && cli_uint(a, 0, RC_MAX_SEED, &c->seed) != 0) return -1;
    } else if ((r = cli_is(a, "--schedule", 1)) != 0) {
        if (r > 0) c->schedule = a->value;
    } else if ((r = cli_is(a, "--shadows", 1)) != 0) {
        if (r > 0) c->shadows = a->value;
    } else if ((r = cli_is(a, "--bvh", 1)) != 0) {
        if (r > 0) c->bvh = a->value;
    } else if ((r = cli_is(a, "--gpus", 1)) != 0) {
        if (r > 0) c->gpus = a->value;
    } else if ((r = cli_is(a, "--pool", 1)) != 0) {
        if (r > 0 && strcmp(a->value, "auto") == 0)
            c->pool = 0;
        else if (r > 0 && cli_uint(a, 1, RC_POOL_MAX, &c->pool) != 0)
            return -1;
    } else if ((r = cli_is(a, "--samples-per-frame", 1)) != 0 ||
               (r = cli_is(a, "--samples-per-wave", 1)) != 0) { /* its name before regen */
        if (r > 0 && strcmp(a->value, "auto") == 0) {
            c->wave_auto = 1;
            c->wave = 0;
        } else if (r > 0) {
            if (cli_uint(a, 1, RC_PATH_MAX_WAVE, &c->wave) != 0) return -1;
            c->wave_auto = 0;
        }
    } else {
        return 0;
    }
    if (r < 0) {
        cli_usage_error(a->cmd, "%s needs a value", cli_opt_name(a));
        return -1;
    }
    return 1;
}

int cli_frame_loop(const char *cmd, const char *name, rc_frame_loop *out) {
    if (rc_frame_loop_parse(name, out) != 0)
        return cli_usage_error(cmd, "--frame-loop: '%s' is not one of: graph, stream, host", name);
    return 0;
}

int cli_on_off(const char *cmd, const char *opt, const char *value, int *out) {
    if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0)
        return cli_usage_error(cmd, "%s: '%s' is not one of: on, off", opt, value);
    *out = strcmp(value, "on") == 0;
    return 0;
}

/* ": <reason>" when the build has no kernel image for the device (the library's probe), else "". */
static const char *cuda_detail(sc_status s) {
    static char buf[300];
    if (s != SC_ERR_UNSUPPORTED_DEVICE || !*sc_last_error_detail(NULL)) return "";
    snprintf(buf, sizeof buf, ": %s", sc_last_error_detail(NULL));
    return buf;
}

/* Why the CPU renders in the CUDA backend's place (no --backend given, and no CUDA backend
 * or device to use), kept for the notice; "" when it does not. */
static char fallback[320];

int cli_pick_backend(const char *cmd, const char *given, rc_backend *out) {
    sc_context *ctx = NULL;
    fallback[0] = '\0';
    if (given) {
        if (rc_backend_parse(given, out) != 0)
            return cli_usage_error(cmd, "--backend: '%s' is not one of: cpu, cuda", given);
        if (*out == RC_BACKEND_CPU) return 0;
        /* A valid option this build or machine cannot run: exit 1, as compact's is */
        if (!rc_have_cuda_backend())
            return cli_run_error(cmd, "--backend cuda: this build has no CUDA backend (valid "
                                      "here: --backend cpu)");
        sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
        sc_context_destroy(ctx);
        if (s != SC_OK)
            return cli_run_error(cmd, "--backend cuda: %s%s (--backend cpu runs without one)",
                                 sc_status_string(s), cuda_detail(s));
        return 0;
    }
    *out = RC_BACKEND_CPU;
    if (!rc_have_cuda_backend()) {
        snprintf(fallback, sizeof fallback, "this build has no CUDA backend");
        return 0;
    }
    sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
    sc_context_destroy(ctx);
    if (s == SC_OK) {
        *out = RC_BACKEND_CUDA;
        return 0;
    }
    snprintf(fallback, sizeof fallback, "CUDA unavailable (%s%s)", sc_status_string(s),
             cuda_detail(s));
    return 0;
}

const char *cli_backend_fallback(void) {
    return fallback[0] ? fallback : NULL;
}

void cli_backend_notice(void) {
    if (fallback[0]) fprintf(stderr, "raycompact: %s, rendering on the CPU\n", fallback);
    fallback[0] = '\0';
}

int cli_check_settings(const char *cmd, const rc_settings *st) {
    rc_error err;
    if (rc_settings_check(st, &err) != 0) return cli_usage_error(cmd, "%s", err.msg);
    return 0;
}

static size_t cli_max_memory(const cli_common *c) {
    return c->max_memory ? c->max_memory : RC_DEFAULT_MAX_MEMORY_MIB;
}

int cli_check_memory(const char *cmd, const cli_common *c, const rc_scene *scene,
                     const rc_settings *st) {
    double pixels = (double)st->width * st->height;
    double samples = pixels * (st->samples_per_wave ? st->samples_per_wave : 1);
    /* regen's stream is the pool, at most the frame's samples */
    double pool = st->tune.pool ? st->tune.pool : rc_default_pool(st->backend, st->algo);
    double paths = st->schedule == RC_SCHEDULE_REGEN && pool < samples ? pool : samples;
    /* Past the renderer's own limits its message says more: let it refuse those. */
    if (pixels > (double)(1u << 27) || samples > (double)(1u << 27)) return 0;
    /* Film and output image: 2 x RGB floats a pixel; on the CPU a path takes its record twice
     * (payload mode compacts into a second buffer), its sample's colour, two queue entries, a
     * flag and a list entry (the CUDA renderer checks its device memory itself). */
    double image = pixels * 2 * 3 * sizeof(float);
    double stream = st->backend != RC_BACKEND_CPU ? 0.0
                                                  : paths * (2 * sizeof(rc_path) + 3 * 4 + 1 + 4) +
                                                        samples * 3 * sizeof(float);
    double prims = (double)scene->num_prims * RC_SCENE_PRIM_BYTES;
    double need = (image + stream + prims) / 1048576.0;
    size_t limit = cli_max_memory(c);
    if (need > (double)limit)
        return cli_usage_error(cmd,
                               "%ux%u pixels, %u samples per wave and %zu primitives need about "
                               "%.0f MiB, more than the memory limit of %zu MiB (--max-memory "
                               "MIB raises it)",
                               st->width, st->height, st->samples_per_wave, scene->num_prims, need,
                               limit);
    return 0;
}

/* --env, --env-rotation and --env-scale on a loaded scene. --env's map replaces the scene
 * file's environment (or background); it is read within what the scene leaves of the memory
 * limit (its primitives, vertex data and textures; the file's own environment, which it
 * replaces, not counted), and the light table is built again for it (the BVH stays). Without
 * --env the other two change the scene file's environment, and need one. */
static int cli_attach_env(const char *cmd, const cli_common *c, rc_scene *scene) {
    if (!c->env) {
        if (!scene->has_env)
            return cli_usage_error(cmd,
                                   "%s: %s has no environment to change (--env FILE.hdr gives "
                                   "one)",
                                   c->env_rotation_set ? "--env-rotation" : "--env-scale",
                                   c->scene);
        if (c->env_rotation_set) scene->env_rotation = (float)c->env_rotation;
        if (c->env_scale_set) scene->env_scale = (float)c->env_scale;
        return 0;
    }
    double t0 = timing_now_ms();
    size_t mib = cli_max_memory(c);
    size_t limit = mib > SIZE_MAX >> 21 ? SIZE_MAX >> 1 : mib << 20;
    size_t own = scene->has_env ? rc_env_bytes(&scene->env) : 0;
    size_t images = rc_scene_image_bytes(scene) - own;
    double used = (double)scene->num_prims * RC_SCENE_PRIM_BYTES +
                  (double)rc_scene_vertex_bytes(scene) + (double)images;
    size_t room = used < (double)limit ? limit - (size_t)used : 0;
    rc_env_map env;
    rc_error err;
    double te = timing_now_ms();
    if (rc_env_load_file(c->env, room, &env, &err) != 0) {
        fprintf(stderr, "raycompact %s: %s\n", cmd, err.msg);
        return RC_EXIT_USAGE;
    }
    scene->image_ms += timing_now_ms() - te;
    rc_scene_set_env(scene, &env, c->env_rotation_set ? (float)c->env_rotation : 0.0f,
                     c->env_scale_set ? (float)c->env_scale : 1.0f);
    if (rc_scene_relight(scene, &err) != 0) return cli_run_error(cmd, "%s", err.msg);
    scene->load_ms += timing_now_ms() - t0;
    return 0;
}

int cli_load(const char *cmd, const cli_common *c, rc_scene *scene, rc_settings *st) {
    if (!c->scene) return cli_usage_error(cmd, "--scene FILE is required");
    uint32_t layout = RC_BVH_BINARY;
    if (c->bvh && rc_bvh_layout_parse(c->bvh, &layout) != 0)
        return cli_usage_error(cmd, "--bvh: '%s' is not one of: binary, wide", c->bvh);
    rc_error err;
    if (rc_scene_load_max(c->scene, cli_max_memory(c), scene, &err) != 0) {
        fprintf(stderr, "raycompact %s: %s\n", cmd, err.msg);
        return RC_EXIT_USAGE;
    }
    scene->bvh.layout = layout; /* kept by a later rc_scene_finish */
    if (c->env || c->env_rotation_set || c->env_scale_set) {
        int rc = cli_attach_env(cmd, c, scene);
        if (rc != 0) {
            rc_scene_free(scene);
            return rc;
        }
    }
    rc_settings_init(st, scene);
    if (c->width) st->width = c->width;
    if (c->height) st->height = c->height;
    if (c->max_depth) st->max_depth = c->max_depth;
    st->tune.tile = c->tile;
    st->seed = c->seed;
    st->sort_materials = c->sort_materials;
    if (c->auto_skip_set) st->tune.auto_skip_below = c->auto_skip_below;
    if (c->tail_set) st->tune.tail_below = c->tail_below;
    if (c->fetch_set) st->tune.fetch = c->fetch;
    if (c->light_sampling && rc_light_sampling_parse(c->light_sampling, &st->light_sampling) != 0) {
        rc_scene_free(scene);
        return cli_usage_error(cmd, "--light-sampling: '%s' is not one of: nee, bsdf",
                               c->light_sampling);
    }
    /* bench takes a list and sets each run's loop itself */
    if (c->spread && cli_on_off(cmd, "--spread", c->spread, &st->tune.spread) != 0) {
        rc_scene_free(scene);
        return RC_EXIT_USAGE;
    }
    st->tune.pool = c->pool;
    if (c->schedule && rc_schedule_parse(c->schedule, &st->schedule) != 0) {
        rc_scene_free(scene);
        return cli_usage_error(cmd, "--schedule: '%s' is not one of: regen, waves", c->schedule);
    }
    if (c->shadows && rc_shadows_parse(c->shadows, &st->shadows) != 0) {
        rc_scene_free(scene);
        return cli_usage_error(cmd, "--shadows: '%s' is not one of: auto, stream, inline",
                               c->shadows);
    }
    if (c->frame_loop && strcmp(cmd, "bench") != 0 &&
        cli_frame_loop(cmd, c->frame_loop, &st->frame_loop) != 0) {
        rc_scene_free(scene);
        return RC_EXIT_USAGE;
    }
    return 0;
}

uint32_t cli_wave(const cli_common *c, const rc_settings *st, uint32_t cap) {
    if (c->wave) return c->wave;
    if (!c->wave_auto || st->backend != RC_BACKEND_CUDA) return 1;
    uint64_t fit = CLI_AUTO_WAVE_PATHS / ((uint64_t)st->width * st->height);
    if (fit < 1) fit = 1;
    return (uint32_t)(fit < cap ? fit : cap);
}

void cli_print_scene_load(FILE *f, const rc_scene *scene, double upload_ms) {
    const double bvh_ms = scene->bvh_build_ms + scene->bvh.wide_ms;
    double read = scene->load_ms - bvh_ms - scene->image_ms;
    fprintf(f, "scene: %zu primitives, %zu triangles, %zu vertices, %u textures%s\n",
            scene->num_prims, scene->num_triangles, scene->num_vertices,
            (unsigned)scene->textures.count, scene->has_env ? ", an environment map" : "");
    fprintf(f,
            "load: %.1f ms (read and parse %.1f ms, textures and environment %.1f ms, BVH %.1f "
            "ms)",
            scene->load_ms, read > 0.0 ? read : 0.0, scene->image_ms, bvh_ms);
    if (upload_ms > 0.0) fprintf(f, ", GPU upload %.1f ms", upload_ms);
    fprintf(f, "\n");
    if (scene->num_instances > 0)
        fprintf(f, "instances: %zu of %zu mesh%s, %llu instanced triangles (%zu stored)\n",
                scene->num_instances, scene->num_meshes, scene->num_meshes == 1 ? "" : "es",
                (unsigned long long)scene->inst.total_prims, scene->inst.num_prims);
    /* the primitives stored: the one-level ones and, with instances, the meshes' (each once) */
    const size_t stored = scene->num_prims + (scene->num_instances ? scene->inst.num_prims : 0);
    const double np = stored ? (double)stored : 1.0;
    fprintf(f, "memory: %.1f MiB on the host (%.0f bytes a stored primitive), %.1f MiB on a GPU",
            rc_scene_host_bytes(scene) / 1048576.0, rc_scene_host_bytes(scene) / np,
            rc_scene_device_bytes(scene) / 1048576.0);
    if (scene->num_instances > 0 && scene->inst.total_prims > 0)
        fprintf(f, " (%.3f bytes an instanced triangle)",
                rc_scene_device_bytes(scene) / (double)scene->inst.total_prims);
    fprintf(f, "\n");
    const rc_bvh *b = &scene->bvh;
    fprintf(f, "BVH: %u nodes, SAH cost %.2f, built at %.2f M primitives/s", b->num_nodes,
            rc_bvh_sah_cost(b),
            scene->bvh_build_ms > 0.0 ? stored / (1e3 * scene->bvh_build_ms) : 0.0);
    if (scene->num_instances > 0)
        fprintf(f,
                " (with the instanced meshes' trees, %zu nodes, and the top level over %zu "
                "instances, %u nodes)",
                scene->inst.num_nodes, scene->num_instances, scene->inst.top.num_nodes);
    fprintf(f, "\n");
    fprintf(f, "BVH layout: %s (wide: %u nodes, collapsed in %.1f ms), %.1f bytes a primitive\n",
            rc_bvh_layout_name(b->layout), b->num_wide, b->wide_ms,
            (double)(rc_bvh_device_bytes(b) +
                     (scene->num_instances ? rc_scene_inst_device_bytes(scene, b->layout) : 0)) /
                np);
}

/* --gpus's value as device ids (a list) or a count (one number; 0 when "all"): the number of
 * items, or -1 when it is neither. */
static int gpus_syntax(const char *v, int *ids, int *count) {
    *count = -1;
    if (strcmp(v, "all") == 0) return *count = 0;
    if (!strchr(v, ',')) {
        uint64_t n;
        if (num_parse_range(v, 1, RC_WORKERS_MAX, &n) != 0) return -1;
        *count = (int)n;
        return 1;
    }
    int n = 0;
    for (const char *p = v;; p++) {
        char item[16];
        size_t len = strcspn(p, ",");
        uint64_t id;
        if (n == RC_WORKERS_MAX || len == 0 || len >= sizeof item) return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (num_parse_range(item, 0, 1023, &id) != 0) return -1;
        ids[n++] = (int)id;
        p += len;
        if (!*p) return n;
    }
}

int cli_gpus(const char *cmd, const cli_common *c, int *devices, int *n) {
    *n = 1;
    devices[0] = -1;
    if (!c->gpus) return 0;
    int count, items = gpus_syntax(c->gpus, devices, &count);
    if (strcmp(c->gpus, "0") == 0)
        return cli_usage_error(cmd,
                               "--gpus 0: a number of GPUs is at least 1 (device 0 alone: --gpus "
                               "1; device ids go in a list: 0,1)");
    if (items < 0)
        return cli_usage_error(cmd,
                               "--gpus: '%s' is not all, a number of GPUs in [1, %d] or a "
                               "comma-separated list of device ids (0,1; 0,0: two workers on "
                               "device 0)",
                               c->gpus, RC_WORKERS_MAX);
    const int one = count == 1; /* --gpus 1: one worker on whatever backend renders */
    const int cpu = c->backend && strcmp(c->backend, "cpu") == 0;
    if (cpu && !one)
        return cli_usage_error(cmd, "--gpus %s: the CPU backend renders with one worker (--gpus 1)",
                               c->gpus);
    if (cpu) return 0; /* no device to look for */
    const int have = rc_cuda_device_count();
    if (one && have == 0) return 0;
    if (!rc_have_cuda_backend())
        return cli_run_error(cmd, "--gpus %s: this build has no CUDA backend", c->gpus);
    if (have == 0) return cli_run_error(cmd, "--gpus %s: no CUDA device is usable", c->gpus);
    if (count == 0) count = have < RC_WORKERS_MAX ? have : RC_WORKERS_MAX;
    if (count > have)
        return cli_run_error(cmd, "--gpus %s: this machine has %d CUDA device%s", c->gpus, have,
                             have == 1 ? "" : "s");
    for (int i = 0; i < items && count < 0; i++)
        if (devices[i] >= have)
            return cli_run_error(cmd, "--gpus %s: no CUDA device %d (this machine has %d: 0-%d)",
                                 c->gpus, devices[i], have, have - 1);
    if (count > 0)
        for (int i = 0; i < count; i++) devices[i] = i;
    *n = count > 0 ? count : items;
    return 0;
}

rc_backend cli_guess_backend(const cli_common *c) {
    if ((c->backend && strcmp(c->backend, "cpu") == 0) || !rc_have_cuda_backend())
        return RC_BACKEND_CPU;
    return RC_BACKEND_CUDA;
}

int cli_gpus_backend(const char *cmd, const cli_common *c, const rc_settings *st, int workers) {
    if (workers <= 1 || st->backend == RC_BACKEND_CUDA) return 0;
    const char *why = cli_backend_fallback();
    return cli_run_error(cmd, "--gpus %s needs the CUDA backend%s%s", c->gpus, why ? ": " : "",
                         why ? why : "");
}
