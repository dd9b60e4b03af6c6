/* rc_test.h: a tiny assertion header for the path tracer's tests, and the helpers they share
 * (build a small scene in code, render it to a float image). */
#ifndef RC_TEST_H
#define RC_TEST_H

#include "scene/scene.h"
#include "wavefront/wavefront.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int test_failures;
static int test_checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        test_checks++;                                                                             \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

/* Print "name: N checks, N failed" and return the exit code. */
static inline int test_finish(const char *name) {
    printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
    return test_failures ? 1 : 0;
}

/* Render `spp` frames of `scene` with `st` into a malloc'd linear RGB image; NULL on error
 * (printed). */
static inline float *test_render(const rc_scene *scene, const rc_settings *st, uint32_t spp) {
    rc_error err;
    rc_renderer *r;
    if (rc_renderer_create(scene, st, &r, &err) != 0) {
        fprintf(stderr, "renderer: %s\n", err.msg);
        return NULL;
    }
    float *rgb = malloc((size_t)st->width * st->height * 3 * sizeof *rgb);
    int rc = rgb ? 0 : -1;
    for (uint32_t s = 0; s < spp && rc == 0; s++) rc = rc_render_frame(r, NULL, &err);
    if (rc == 0) rc = rc_renderer_image(r, rgb, &err);
    if (rc != 0) {
        fprintf(stderr, "render: %s\n", rgb ? err.msg : "out of memory");
        free(rgb);
        rgb = NULL;
    }
    rc_renderer_destroy(r);
    return rgb;
}

/* RMSE between the block x block block means of two images clamped to [0, 1] (as displayed):
 * per-pixel noise averages out, systematic differences remain. */
static inline double test_block_rmse(const float *a, const float *b, uint32_t w, uint32_t h,
                                     uint32_t block) {
    double sum = 0.0;
    uint32_t blocks = 0;
    for (uint32_t by = 0; by + block <= h; by += block) {
        for (uint32_t bx = 0; bx + block <= w; bx += block, blocks++) {
            for (size_t c = 0; c < 3; c++) {
                double ma = 0.0, mb = 0.0;
                for (uint32_t y = by; y < by + block; y++) {
                    for (uint32_t x = bx; x < bx + block; x++) {
                        size_t i = 3 * ((size_t)y * w + x) + c;
                        ma += a[i] < 0.0f ? 0.0 : (a[i] > 1.0f ? 1.0 : a[i]);
                        mb += b[i] < 0.0f ? 0.0 : (b[i] > 1.0f ? 1.0 : b[i]);
                    }
                }
                double d = (ma - mb) / ((double)block * block);
                sum += d * d;
            }
        }
    }
    return blocks ? sqrt(sum / (3.0 * blocks)) : 0.0;
}

static inline rc_material test_material(uint32_t type, float r, float g, float b, float param) {
    rc_material m = {{r, g, b}, type, param, {0, 0, 0}};
    return m;
}

#endif /* RC_TEST_H */
