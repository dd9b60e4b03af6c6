/* cli.h: the raycompact command line: render and bench, and their shared option parsing. */
#ifndef RC_CLI_H
#define RC_CLI_H

#include "echo.h"
#include "wavefront/wavefront.h"

#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 ok, 1 a failure while running (this includes --backend cuda where the build
 * has no CUDA backend or no CUDA device is usable: valid input this build or machine cannot
 * run, as in compact), 2 bad usage or bad input files. */
#define RC_EXIT_FAIL  1
#define RC_EXIT_USAGE 2

int cmd_render(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* A command's options parsed and checked, nothing loaded or run (the fuzz targets): 0 if they
 * are good, -1 after --help, else the exit code of the usage error it printed. */
int cli_render_parse(int argc, char **argv);
int cli_bench_parse(int argc, char **argv);

/* The --help lines of the tuning knobs render, bench and view share: what changes the speed,
 * never the image, set by name (the table in cli_common.c; --help-tuning lists it). */
#define CLI_HELP_TUNING                                                                            \
    "  --set KEY=VALUE       a tuning knob: speed only, the same image (repeatable);\n"            \
    "                        --help-tuning lists the keys\n"                                       \
    "  --help-tuning         the tuning knobs, their values and defaults\n"

/* The --help lines of --backend and of the exit status, which render, bench and view share. */
#define CLI_HELP_BACKEND                                                                           \
    "  --backend cpu|cuda    default: cuda when a device is usable, else cpu (and a\n"             \
    "                        notice says why); cuda where this build has no CUDA\n"                \
    "                        backend or no device is usable: one line, exit 1\n"
#define CLI_HELP_EXIT                                                                              \
    "\n"                                                                                           \
    "Exit status: 0 ok; 1 a failure while running, or a valid request this build or\n"             \
    "machine cannot run (--backend cuda without CUDA or a device); 2 bad options or bad\n"         \
    "input, refused in one line before anything runs.\n"

/* The --help lines of the schedule options that render and bench share. */
#define CLI_HELP_SCHEDULE                                                                          \
    "  --schedule waves|regen\n"                                                                   \
    "                        waves (default): the frame's samples start together and\n"            \
    "                        drain; regen: a pool of path slots; after each bounce the\n"          \
    "                        freed slots take new camera paths until the frame's samples\n"        \
    "                        are issued (`none`: in place, into the dead slots); the\n"            \
    "                        image is the same\n"

/* The --help lines of --shadows, which render, bench and view share. */
#define CLI_HELP_SHADOWS                                                                           \
    "  --shadows auto|stream|inline\n"                                                             \
    "                        where NEE's shadow rays are traced: stream (a second stream,\n"       \
    "                        compacted, traced by the shadow phase), inline (shade traces\n"       \
    "                        each one as it draws it: it never reaches memory), or auto\n"         \
    "                        (default: inline for the classic materials, else stream);\n"          \
    "                        the same image\n"

/* Options both commands take. NULL / 0 = not given. */
typedef struct cli_common {
    const char *scene;
    uint32_t width, height, max_depth;
    size_t tile;
    const char *backend;
    uint32_t wave;              /* --samples-per-wave N */
    int wave_auto;              /* --samples-per-wave auto */
    const char *frame_loop;     /* --frame-loop graph|stream|host (bench: a list) */
    const char *light_sampling; /* --light-sampling nee|bsdf */
    uint32_t seed;              /* --seed S */
    uint32_t max_memory;        /* --max-memory MiB; 0: RC_DEFAULT_MAX_MEMORY_MIB */
    const char *spread;         /* --spread on|off */
    int sort_materials;         /* --sort-materials */
    uint32_t auto_skip_below;   /* --auto-skip-below N, when auto_skip_set */
    int auto_skip_set;
    uint32_t tail_below; /* --tail-below N, when tail_set */
    int tail_set;
    uint32_t fetch; /* --fetch N, when fetch_set */
    int fetch_set;
    const char *schedule; /* --schedule regen|waves */
    const char *shadows;  /* --shadows auto|stream|inline */
    uint32_t pool;        /* --pool N; 0: auto */
    const char *env;      /* --env FILE.hdr: replaces the scene's environment or background */
    double env_rotation;  /* --env-rotation DEG, when env_rotation_set */
    int env_rotation_set;
    double env_scale; /* --env-scale S, when env_scale_set */
    int env_scale_set;
    const char *bvh;  /* --bvh binary|wide */
    const char *gpus; /* --gpus all|N|LIST (cli_gpus) */
} cli_common;

/* The --help lines of --gpus, which render and bench share. */
#define CLI_HELP_GPUS                                                                              \
    "  --gpus all|N|LIST     CUDA: several GPUs from this process, a worker thread each\n"         \
    "                        (render shares the samples out, bench the runs): all, the\n"          \
    "                        first N, or device ids (0,1,3; an id twice: two workers on\n"         \
    "                        one GPU); the same image (default: one GPU; under MPI each\n"         \
    "                        rank drives its own list)\n"

/* The workers of --gpus (workers.h): their CUDA devices into devices[RC_WORKERS_MAX] and their
 * count into *n; without --gpus, or with --gpus 1 and no CUDA device, one worker on the
 * process's device (-1). Refused in one line before anything runs: a value that is not all, a
 * count >= 1 or a list of ids (exit 2), the CPU backend with more than one (exit 2), more GPUs
 * or an id than this machine has, or a build without CUDA (exit 1). 0 or the exit code. */
int cli_gpus(const char *cmd, const cli_common *c, int *devices, int *n);
/* The backend the workers start on, before the scene loads and cli_pick_backend decides: the
 * CPU for --backend cpu or a build without CUDA, else CUDA (a worker's context that fails then
 * matters only if CUDA is chosen). */
rc_backend cli_guess_backend(const cli_common *c);
/* After cli_pick_backend: more than one worker needs the CUDA backend (a CPU fallback is a
 * one-line error, exit 1). 0 or the exit code. */
int cli_gpus_backend(const char *cmd, const cli_common *c, const rc_settings *st, int workers);

/* The --help line of the BVH layout option that render, bench and view share. */
#define CLI_HELP_BVH                                                                               \
    "  --bvh binary|wide     the BVH layout traced (default binary): two children a node,\n"       \
    "                        or eight with compressed boxes; the same image\n"

/* The --help lines of the environment options that render, bench and view share. */
#define CLI_HELP_ENV                                                                               \
    "  --env FILE.hdr        light the scene with an equirectangular Radiance HDR map, in\n"       \
    "                        place of the scene file's environment or background\n"                \
    "  --env-rotation DEG    turn the environment about +Y by DEG degrees, a finite number\n"      \
    "                        (default 0; without --env, the scene file's own)\n"                   \
    "  --env-scale S         multiply its radiance by S in [0, 1e6] (default 1; without\n"         \
    "                        --env, the scene file's own)\n"

/* `--samples-per-wave auto` on the CUDA backend fills the stream up to this many paths; the CPU
 * backend gains nothing from long streams and renders one sample per wave. */
#define CLI_AUTO_WAVE_PATHS (1u << 24)

/* Option scanner: `--name value` or `--name=value`. */
typedef struct cli_args {
    const char *cmd; /* "render" or "bench", for messages */
    int argc;
    char **argv;
    int i;           /* the option being looked at */
    const char *opt; /* its name, once matched */
    const char *value;
    const char *as; /* what messages name the option by, when not opt: "--set tile=33" */
} cli_args;
/* The option as messages name it: a->as, else a->opt. */
const char *cli_opt_name(const cli_args *a);

/* 1 if argv[i] is option `name`; takes its value when `want_value` (else usage error). */
int cli_is(cli_args *a, const char *name, int want_value);
/* Parse the current value as an integer in [lo, hi] with the strict parser both tools share
 * (compaction/support/num_parse.h: digits or 2^E[+-D], no blanks or sign); prints the error and
 * returns -1. */
int cli_uint(cli_args *a, uint32_t lo, uint32_t hi, uint32_t *out);
/* An output file's name is checked before the work starts: the path, and its last part with
 * the ".tmpXXXXXX" of rc_write_file's temporary file, must fit the file system's limits, and
 * the file must be writable where it really goes: through a symbolic link, beside its target
 * (out_path_check, compaction/support/out_path.h). Prints the error and returns -1. */
int cli_check_name(const char *cmd, const char *opt, const char *path);
/* Handle an option of cli_common; returns 1 if it was one, 0 if not, -1 on error. */
int cli_common_option(cli_args *a, cli_common *c);
/* --help-tuning: the knobs --set takes (key, values, meaning, default), to f. */
void cli_help_tuning(FILE *f, const char *cmd);
/* cli_common_option, then --help (usage) and --help-tuning: 1 if the option was one of them,
 * 0 if not, CLI_HELP_SHOWN after a help text, -1 on a usage error (printed). */
#define CLI_HELP_SHOWN (-2)
int cli_shared_option(cli_args *a, cli_common *c, void (*usage)(FILE *));
/* Print "raycompact CMD: message" to stderr; returns RC_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) ECHO_PRINTF(2, 3);
/* The same line for a failure while running; returns RC_EXIT_FAIL. */
int cli_run_error(const char *cmd, const char *fmt, ...) ECHO_PRINTF(2, 3);
/* A comma-separated list of option `opt` (bench's --algos, --modes, --frame-loop,
 * --megakernel): no empty item and none given twice (num_list_check), else the one-line usage
 * error naming it (returns RC_EXIT_USAGE). */
int cli_list_check(const char *cmd, const char *opt, const char *value);

/* The backend: the one given, else CUDA when a device is usable, else the CPU. `--backend
 * cuda` where this build has no CUDA backend, or where no CUDA device is usable, is a one-line
 * error and RC_EXIT_FAIL (a valid request this build or machine cannot run; compact answers it
 * with the same code); a bad name is RC_EXIT_USAGE. Falling back to the CPU prints nothing
 * here: cli_backend_notice says it once the command has accepted all of its input, so that bad
 * input stays one line. */
int cli_pick_backend(const char *cmd, const char *given, rc_backend *out);
/* Why cli_pick_backend fell back to the CPU ("this build has no CUDA backend", "CUDA
 * unavailable (...)"), or NULL if it did not. */
const char *cli_backend_fallback(void);
/* "raycompact: WHY, rendering on the CPU" on stderr after a fallback (once); else nothing. */
void cli_backend_notice(void);
/* rc_settings_check: the one-line usage error rc_renderer_create would give (RC_EXIT_USAGE),
 * before anything is said or allocated. */
int cli_check_settings(const char *cmd, const rc_settings *st);
/* Load the scene (one-line error on failure) and fill settings from it and the options. */
int cli_load(const char *cmd, const cli_common *c, rc_scene *scene, rc_settings *st);
/* --stats: the scene's size and where its load went, in two lines: "scene: P primitives, T
 * triangles, V vertices" and "load: L ms (read and parse R ms, BVH B ms)". */
/* The scene's size and its load by stage; upload_ms > 0: the GPU upload's time too. */
void cli_print_scene_load(FILE *f, const rc_scene *scene, double upload_ms);
/* Parse one --frame-loop name; prints the error and returns RC_EXIT_USAGE. */
int cli_frame_loop(const char *cmd, const char *name, rc_frame_loop *out);
/* `opt`'s value "on" (1) or "off" (0) into *out; else the one-line usage error (returns
 * RC_EXIT_USAGE). */
int cli_on_off(const char *cmd, const char *opt, const char *value, int *out);
/* The host memory a render of the settings takes beside the scene (film, output image and
 * the stream's path records): with the scene's own, it must fit the --max-memory limit, or a
 * one-line usage error is printed and RC_EXIT_USAGE returned. */
int cli_check_memory(const char *cmd, const cli_common *c, const rc_scene *scene,
                     const rc_settings *st);
/* Samples per wave from the options, once the backend is known: the number given, or with
 * `auto` as many as fit CLI_AUTO_WAVE_PATHS on CUDA, at most `cap`; else 1 (one sample per
 * pixel per wave). */
uint32_t cli_wave(const cli_common *c, const rc_settings *st, uint32_t cap);

#endif /* RC_CLI_H */
