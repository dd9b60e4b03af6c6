/* rc_test.h: the path tracer's tests: the shared checks (compaction/tests/check.h) and the
 * helpers they share (build a small scene in code, render it to a float image). */
#ifndef RC_TEST_H
#define RC_TEST_H

#include "check.h"
#include "image.h"
#include "scene/scene.h"
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

/* Render `spp` samples per pixel of `scene` with `st` (in waves of st->samples_per_wave, the
 * last one shorter) into a malloc'd linear RGB image; NULL on error (printed). */
static inline float *test_render(const rc_scene *scene, const rc_settings *st, uint32_t spp) {
    rc_error err;
    rc_renderer *r;
    if (rc_renderer_create(scene, st, &r, &err) != 0) {
        fprintf(stderr, "renderer: %s\n", err.msg);
        return NULL;
    }
    float *rgb = malloc((size_t)st->width * st->height * 3 * sizeof *rgb);
    int rc = rgb ? 0 : -1;
    while (rc == 0 && rc_renderer_frames(r) < spp) {
        uint32_t left = spp - rc_renderer_frames(r), wave = rc_renderer_wave(r);
        rc = rc_render_samples(r, left < wave ? left : wave, NULL, &err);
    }
    if (rc == 0) rc = rc_renderer_image(r, rgb, &err);
    if (rc != 0) {
        fprintf(stderr, "render: %s\n", rgb ? err.msg : "out of memory");
        free(rgb);
        rgb = NULL;
    }
    rc_renderer_destroy(r);
    return rgb;
}

static inline rc_material test_material(uint32_t type, float r, float g, float b, float param) {
    rc_material m = {{r, g, b}, type, param, {0, 0, 0}};
    return m;
}

#endif /* RC_TEST_H */
