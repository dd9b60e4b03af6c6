/* cli_common.c: option parsing, backend choice and scene loading shared by the commands. */
#include "cli.h"
#include "wavefront/path.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "raycompact %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return RC_EXIT_USAGE;
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

int cli_uint(cli_args *a, uint32_t lo, uint32_t hi, uint32_t *out) {
    const char *s = a->value;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || v < (long long)lo || v > (long long)hi) {
        cli_usage_error(a->cmd, "%s: '%s' is not an integer in [%u, %u]", a->opt, s, lo, hi);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int cli_common_option(cli_args *a, cli_common *c) {
    int r;
    uint32_t v;
    if ((r = cli_is(a, "--scene", 1)) != 0) {
        if (r > 0) c->scene = a->value;
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
                cli_usage_error(a->cmd, "--tile: %u is not a power of two", v);
                return -1;
            }
            c->tile = v;
        }
    } else if ((r = cli_is(a, "--backend", 1)) != 0) {
        if (r > 0) c->backend = a->value;
    } else if ((r = cli_is(a, "--frame-loop", 1)) != 0) {
        if (r > 0) c->frame_loop = a->value;
    } else if ((r = cli_is(a, "--light-sampling", 1)) != 0) {
        if (r > 0) c->light_sampling = a->value;
    } else if ((r = cli_is(a, "--seed", 1)) != 0) {
        if (r > 0 && cli_uint(a, 0, RC_MAX_SEED, &c->seed) != 0) return -1;
    } else if ((r = cli_is(a, "--samples-per-wave", 1)) != 0) {
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
        cli_usage_error(a->cmd, "%s needs a value", a->opt);
        return -1;
    }
    return 1;
}

int cli_frame_loop(const char *cmd, const char *name, rc_frame_loop *out) {
    if (rc_frame_loop_parse(name, out) != 0)
        return cli_usage_error(cmd, "--frame-loop: '%s' is not one of: graph, stream, host", name);
    return 0;
}

/* ": <reason>" when the build has no kernel image for the device (the library's probe), else "". */
static const char *cuda_detail(sc_status s) {
    static char buf[300];
    if (s != SC_ERR_UNSUPPORTED_DEVICE || !*sc_last_error_detail(NULL)) return "";
    snprintf(buf, sizeof buf, ": %s", sc_last_error_detail(NULL));
    return buf;
}

int cli_pick_backend(const char *cmd, const char *given, rc_backend *out) {
    sc_context *ctx = NULL;
    if (given) {
        if (rc_backend_parse(given, out) != 0)
            return cli_usage_error(cmd, "--backend: '%s' is not one of: cpu, cuda", given);
        if (*out == RC_BACKEND_CPU) return 0;
        if (!rc_have_cuda_backend())
            return cli_usage_error(cmd, "--backend cuda: this build has no CUDA backend");
        sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
        sc_context_destroy(ctx);
        if (s != SC_OK)
            return cli_usage_error(cmd, "--backend cuda: %s%s", sc_status_string(s),
                                   cuda_detail(s));
        return 0;
    }
    *out = RC_BACKEND_CPU;
    if (!rc_have_cuda_backend()) {
        fprintf(stderr, "raycompact: this build has no CUDA backend, rendering on the CPU\n");
        return 0;
    }
    sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
    sc_context_destroy(ctx);
    if (s == SC_OK) {
        *out = RC_BACKEND_CUDA;
        return 0;
    }
    fprintf(stderr, "raycompact: CUDA unavailable (%s%s), rendering on the CPU\n",
            sc_status_string(s), cuda_detail(s));
    return 0;
}

int cli_load(const char *cmd, const cli_common *c, rc_scene *scene, rc_settings *st) {
    if (!c->scene) return cli_usage_error(cmd, "--scene FILE is required");
    rc_error err;
    if (rc_scene_load(c->scene, scene, &err) != 0) {
        fprintf(stderr, "raycompact %s: %s\n", cmd, err.msg);
        return RC_EXIT_USAGE;
    }
    rc_settings_init(st, scene);
    if (c->width) st->width = c->width;
    if (c->height) st->height = c->height;
    if (c->max_depth) st->max_depth = c->max_depth;
    st->tile = c->tile;
    st->seed = c->seed;
    if (c->light_sampling && rc_light_sampling_parse(c->light_sampling, &st->light_sampling) != 0) {
        rc_scene_free(scene);
        return cli_usage_error(cmd, "--light-sampling: '%s' is not one of: nee, bsdf",
                               c->light_sampling);
    }
    /* bench takes a list and sets each run's loop itself */
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
