/* test_furnace.c: white furnace tests, the renderer's independent check (no reference image).
 *
 * In a uniform background of radiance L = 1, a path's value is the product of its weights.
 *
 * 1. A Lambertian sphere of albedo rho = 0.8 seen from outside. The reflected radiance is
 *    L_o = integral over the hemisphere of (rho / pi) L cos(theta) dw = rho L = 0.8, and
 *    because a sphere is convex the reflected ray never meets it again: every pixel whose
 *    rays all hit the sphere is exactly 0.8, every pixel that misses it is exactly 1. With
 *    cosine-weighted sampling each path's weight is exactly rho, so this holds per sample.
 *
 * 2. A cluster of touching spheres with no absorption: Lambertian of albedo 1, mirror metal
 *    of albedo 1, clear glass. Paths bounce between them, but nothing absorbs, so the
 *    expected value of every path is exactly 1. The Russian roulette from bounce 3 keeps the
 *    estimator unbiased (survivors are divided by their survival chance) and max depth 64 is
 *    practically never reached, so the image mean must converge to 1: asserted within 1%. */
#include "rc_test.h"

#include <math.h>

static void uniform_background(rc_scene *s) {
    s->background.type = RC_BG_CONSTANT;
    s->background.bottom = s->background.top = rc_v3s(1.0f);
}

/* A size x size image of `spp` samples per pixel, paths of at most `depth` bounces. */
static float *render(const rc_scene *s, uint32_t size, uint32_t depth, uint32_t spp) {
    rc_settings st = test_settings(s, size, size, "scan-scatter", RC_MODE_INDICES);
    st.max_depth = depth;
    return test_render(s, &st, spp);
}

static void convex_sphere(void) {
    rc_scene s;
    rc_error err;
    rc_scene_init(&s);
    uniform_background(&s);
    rc_material m = test_material(RC_MAT_LAMBERTIAN, 0.8f, 0.8f, 0.8f, 0.0f);
    rc_scene_add_sphere(&s, rc_v3(0, 0, 0), 1.0f, (uint32_t)rc_scene_add_material(&s, &m));
    /* The sphere (radius 1 at distance 5) covers about 23 degrees of the 40 degree view. */
    s.camera.look_from = rc_v3(0, 0, 5);
    s.camera.vfov = 40.0f;
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    float *img = render(&s, 64, 8, 16);
    CHECK(img != NULL, "render failed");
    if (!img) return;
    /* Pixel centres inside radius 0.8 of the disk's image always hit; beyond 1.2 never. */
    float disk = tanf(asinf(1.0f / 5.0f)) / tanf(20.0f * 3.14159265f / 180.0f) * 32.0f;
    int inside = 0, outside = 0;
    for (uint32_t y = 0; y < 64; y++) {
        for (uint32_t x = 0; x < 64; x++) {
            float dx = (float)x + 0.5f - 32.0f, dy = (float)y + 0.5f - 32.0f;
            float r = sqrtf(dx * dx + dy * dy);
            const float *p = &img[3 * (y * 64 + x)];
            if (r < 0.8f * disk) {
                inside++;
                for (int c = 0; c < 3; c++)
                    CHECK(fabsf(p[c] - 0.8f) < 0.008f, "pixel %u,%u = %g, want 0.8", x, y, p[c]);
            } else if (r > 1.2f * disk) {
                outside++;
                for (int c = 0; c < 3; c++)
                    CHECK(fabsf(p[c] - 1.0f) < 0.01f, "pixel %u,%u = %g, want 1", x, y, p[c]);
            }
        }
    }
    CHECK(inside > 300 && outside > 1000, "inside %d outside %d pixels", inside, outside);
    free(img);
    rc_scene_free(&s);
}

static void lossless_cluster(void) {
    rc_scene s;
    rc_error err;
    rc_scene_init(&s);
    uniform_background(&s);
    rc_material diffuse = test_material(RC_MAT_LAMBERTIAN, 1, 1, 1, 0);
    rc_material mirror = test_material(RC_MAT_METAL, 1, 1, 1, 0);
    rc_material glass = test_material(RC_MAT_DIELECTRIC, 1, 1, 1, 1.5f);
    uint32_t mats[3] = {(uint32_t)rc_scene_add_material(&s, &diffuse),
                        (uint32_t)rc_scene_add_material(&s, &mirror),
                        (uint32_t)rc_scene_add_material(&s, &glass)};
    /* 3 x 3 x 2 spheres of radius 1 on a grid of spacing 2.05: nearly touching. */
    int k = 0;
    for (int z = 0; z < 2; z++)
        for (int y = -1; y <= 1; y++)
            for (int x = -1; x <= 1; x++, k++)
                rc_scene_add_sphere(&s, rc_v3(2.05f * x, 2.05f * y, -2.05f * z), 1.0f, mats[k % 3]);
    s.camera.look_from = rc_v3(0.5f, 0.3f, 9.0f);
    s.camera.look_at = rc_v3(0, 0, -1);
    s.camera.vfov = 45.0f;
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    float *img = render(&s, 64, 64, 64);
    CHECK(img != NULL, "render failed");
    if (!img) return;
    double sum = 0.0;
    for (size_t i = 0; i < 64 * 64 * 3; i++) sum += img[i];
    double mean = sum / (64.0 * 64.0 * 3.0);
    printf("lossless cluster: image mean %.5f (expected 1)\n", mean);
    CHECK(fabs(mean - 1.0) < 0.01, "mean %g, want 1 within 1%%", mean);
    free(img);
    rc_scene_free(&s);
}

int main(void) {
    convex_sphere();
    lossless_cluster();
    return test_finish("test_furnace");
}
