/* rc_test.h: the path tracer's tests: the shared checks (compaction/tests/check.h) and the
 * helpers they share (load or build a small scene, fill its settings, render it to a float
 * image or a film). */
#ifndef RC_TEST_H
#define RC_TEST_H

#include "check.h"
#include "image.h"
#include "scene/scene.h"
#include "wavefront/compact.h"
#include "wavefront/wavefront.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Each test is one file: the check counters live here. */
TEST_COUNTERS;

/* Print "name: N checks, N failed" and return the exit code. */
static inline int test_finish(const char *name) {
    return test_finish_line(name, test_checks, TEST_LINE_CHECKS);
}

/* Load the scene file at `path` into *s; 0, or -1 after printing why. */
/* Load a scene file; with RC_TEST_ENV set in the environment, the map it names lights the scene
 * too (the glTF demo scene's tests: a model file brings no environment of its own). */
static inline int test_load(const char *path, rc_scene *s) {
    rc_error err;
    if (rc_scene_load(path, s, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    const char *envf = getenv("RC_TEST_ENV");
    if (!envf || !*envf) return 0;
    rc_env_map env;
    if (rc_env_load_file(envf, SIZE_MAX, &env, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    rc_scene_set_env(s, &env, 30.0f, 1.0f);
    if (rc_scene_relight(s, &err) == 0) return 0;
    fprintf(stderr, "%s\n", err.msg);
    return -1;
}

/* The settings of a test render: the scene's defaults, a w x h image, `algo` in `mode`. */
static inline rc_settings test_settings(const rc_scene *s, uint32_t w, uint32_t h, const char *algo,
                                        rc_mode mode) {
    rc_settings st;
    rc_settings_init(&st, s);
    st.width = w;
    st.height = h;
    st.algo = algo;
    st.mode = mode;
    return st;
}

/* Render `spp` samples per pixel of `scene` with `st` (in waves of st->samples_per_wave, the
 * last one shorter) and read back per pixel 3 values of `elem` bytes with `read`
 * (rc_renderer_image or rc_renderer_film) into a malloc'd array; NULL on error (printed). */
static inline void *test_render_read(const rc_scene *scene, const rc_settings *st, uint32_t spp,
                                     size_t elem, int (*read)(rc_renderer *, void *, rc_error *)) {
    rc_error err;
    rc_renderer *r;
    if (rc_renderer_create(scene, st, &r, &err) != 0) {
        fprintf(stderr, "renderer: %s\n", err.msg);
        return NULL;
    }
    void *out = malloc((size_t)st->width * st->height * 3 * elem);
    int rc = out ? 0 : -1;
    while (rc == 0 && rc_renderer_frames(r) < spp) {
        uint32_t left = spp - rc_renderer_frames(r), wave = rc_renderer_wave(r);
        rc = rc_render_samples(r, left < wave ? left : wave, NULL, &err);
    }
    if (rc == 0) rc = read(r, out, &err);
    if (rc != 0) {
        fprintf(stderr, "render: %s\n", out ? err.msg : "out of memory");
        free(out);
        out = NULL;
    }
    rc_renderer_destroy(r);
    return out;
}

static inline int test_read_image(rc_renderer *r, void *out, rc_error *err) {
    return rc_renderer_image(r, out, err);
}
static inline int test_read_film(rc_renderer *r, void *out, rc_error *err) {
    return rc_renderer_film(r, out, err);
}

/* The linear RGB image of `spp` samples per pixel (test_render_read). */
static inline float *test_render(const rc_scene *scene, const rc_settings *st, uint32_t spp) {
    return test_render_read(scene, st, spp, sizeof(float), test_read_image);
}

/* The film (the exact fixed-point sums, film.h) of `spp` samples per pixel. */
static inline int64_t *test_film(const rc_scene *scene, const rc_settings *st, uint32_t spp) {
    return test_render_read(scene, st, spp, sizeof(int64_t), test_read_film);
}

/* Whether the CUDA backend can run `algo`: 0 yes, 77 no device or a build without CUDA
 * (printed "skipped"), 1 a backend that is there but fails (printed). A skip only for missing
 * hardware. */
static inline int test_cuda_ready(const char *prog, const char *algo) {
    if (!rc_have_cuda_backend()) {
        printf("%s: skipped: this build has no CUDA backend\n", prog);
        return 77;
    }
    sc_context *probe = NULL;
    sc_status st = sc_context_create(SC_BACKEND_CUDA, &probe);
    sc_context_destroy(probe);
    if (st == SC_ERR_NO_DEVICE) {
        printf("%s: skipped: %s\n", prog, sc_status_string(st));
        return 77;
    }
    rc_error err;
    if (rc_compact_check(algo, RC_BACKEND_CUDA, &err) != 0) {
        fprintf(stderr, "%s: %s\n", prog, err.msg);
        return 1;
    }
    return 0;
}

/* The start of a test's main: 2 after "usage: PROG USAGE" unless `args_ok`; with `cuda_algo`,
 * test_cuda_ready (77 or 1); then the scene argv[scene_arg] into *s, 1 if it does not load.
 * 0: the test goes on. */
static inline int test_start(const char *prog, int args_ok, const char *usage,
                             const char *cuda_algo, char **argv, int scene_arg, rc_scene *s) {
    if (!args_ok) {
        fprintf(stderr, "usage: %s %s\n", prog, usage);
        return 2;
    }
    int ready = cuda_algo ? test_cuda_ready(prog, cuda_algo) : 0;
    if (ready != 0) return ready;
    return test_load(argv[scene_arg], s) != 0 ? 1 : 0;
}

static inline rc_material test_material(uint32_t type, float r, float g, float b, float param) {
    return rc_material_make(type, rc_v3(r, g, b), param);
}

#endif /* RC_TEST_H */
