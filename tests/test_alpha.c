/* test_alpha.c: alpha-masked surfaces (alpha.h, bvh.h) through the whole CPU renderer.
 *
 * A masked surface whose alpha is below its cutoff is not there for any ray: camera rays,
 * scattered rays and shadow rays pass it. The random numbers are keyed by pixel, sample,
 * bounce and dimension, never by the primitives, so a scene with such a surface must render
 * the film (film.h's exact fixed-point sums) of the scene without it, byte for byte:
 *   1. camera rays: an emitter seen through a masked quad (alpha 0.25, cutoff 0.5);
 *   2. shadow rays and scattered rays: a floor lit by a quad light through a masked occluder,
 *      with `nee` and with `bsdf`.
 * 3. At alpha 0.75 (above the cutoff) the same quads block: the emitter's image and the floor
 *    in the occluder's umbra go dark (the mean of the image's centre, which sees them, drops
 *    below half of the unblocked one).
 * 4. A masked emitter: light samples must see the holes the rays see. An emissive quad of
 *    alpha 0.25 (cutoff 0.5) is invisible to every ray, so it lights nothing; and an emissive
 *    triangle whose vertex colours' alpha runs 0 .. 1 across it is a light only where alpha >=
 *    0.5. `nee` and `bsdf` must agree: the first exactly black, the second within 4 standard
 *    errors of their difference image (pixels independent: its deviation over sqrt(pixels)),
 *    4 standard errors below 2 % of the mean. */
#include "rc_test.h"

#include <math.h>
#include <string.h>

#define SIZE 24
#define SPP  32

static int64_t *film(const rc_scene *s, int light_sampling, uint32_t spp) {
    rc_settings st = test_settings(s, SIZE, SIZE, "scan-scatter", RC_MODE_INDICES);
    st.max_depth = 5;
    st.light_sampling = light_sampling;
    return test_film(s, &st, spp);
}

static float *image(const rc_scene *s, int light_sampling, uint32_t spp) {
    rc_settings st = test_settings(s, SIZE, SIZE, "scan-scatter", RC_MODE_INDICES);
    st.max_depth = 5;
    st.light_sampling = light_sampling;
    return test_render(s, &st, spp);
}

static double mean_of(const float *img) {
    double s = 0;
    for (int i = 0; i < 3 * SIZE * SIZE; i++) s += img[i];
    return s / (3 * SIZE * SIZE);
}

/* The mean of the central 6 x 6 pixels. */
static double centre_mean(const float *img) {
    double s = 0;
    for (int y = SIZE / 2 - 3; y < SIZE / 2 + 3; y++)
        for (int x = SIZE / 2 - 3; x < SIZE / 2 + 3; x++)
            for (int c = 0; c < 3; c++) s += img[3 * (y * SIZE + x) + c];
    return s / (3 * 36);
}

static rc_material masked(float alpha, float albedo) {
    rc_material m = test_material(RC_MAT_LAMBERTIAN, albedo, 0.2f * albedo, 0.2f * albedo, 0);
    m.alpha = alpha;
    m.alpha_cutoff = 0.5f;
    return m;
}

/* occluder: 0 none, else the alpha of the masked quad in front of the emitter */
static void see_through_scene(rc_scene *s, float occluder) {
    rc_error err;
    rc_scene_init(s);
    s->background.type = RC_BG_CONSTANT;
    s->background.bottom = s->background.top = rc_v3(0.05f, 0.05f, 0.05f);
    rc_material e = test_material(RC_MAT_EMISSIVE, 1.5f, 1.2f, 0.8f, 0);
    rc_material fl = test_material(RC_MAT_LAMBERTIAN, 0.6f, 0.6f, 0.6f, 0);
    uint32_t ei = (uint32_t)rc_scene_add_material(s, &e),
             fi = (uint32_t)rc_scene_add_material(s, &fl);
    rc_scene_add_quad(s, rc_v3(-1, -0.5f, -2), rc_v3(2, 0, 0), rc_v3(0, 2, 0), ei);
    rc_scene_add_quad(s, rc_v3(-5, -0.5f, 5), rc_v3(10, 0, 0), rc_v3(0, 0, -10), fi);
    if (occluder > 0.0f) {
        rc_material m = masked(occluder, 0.9f);
        rc_scene_add_quad(s, rc_v3(-3, -3, 0), rc_v3(6, 0, 0), rc_v3(0, 6, 0),
                          (uint32_t)rc_scene_add_material(s, &m));
    }
    s->camera.look_from = rc_v3(0, 0.3f, 3);
    s->camera.look_at = rc_v3(0, 0.3f, -2);
    s->camera.vfov = 40.0f;
    CHECK(rc_scene_finish(s, &err) == 0, "%s", err.msg);
}

static void shadow_scene(rc_scene *s, float occluder) {
    rc_error err;
    rc_scene_init(s);
    s->background.type = RC_BG_CONSTANT;
    s->background.bottom = s->background.top = rc_v3s(0.0f);
    rc_material e = test_material(RC_MAT_EMISSIVE, 3, 3, 3, 0);
    rc_material fl = test_material(RC_MAT_LAMBERTIAN, 0.7f, 0.7f, 0.7f, 0);
    uint32_t ei = (uint32_t)rc_scene_add_material(s, &e),
             fi = (uint32_t)rc_scene_add_material(s, &fl);
    rc_scene_add_quad(s, rc_v3(-0.5f, 2, -0.5f), rc_v3(1, 0, 0), rc_v3(0, 0, 1), ei);
    rc_scene_add_quad(s, rc_v3(-10, 0, 10), rc_v3(20, 0, 0), rc_v3(0, 0, -20), fi);
    if (occluder > 0.0f) {
        /* black: where the camera sees it at alpha 0.75 it is as dark as its shadow */
        rc_material m = masked(occluder, 0.0f);
        rc_scene_add_quad(s, rc_v3(-1, 1, -1), rc_v3(2, 0, 0), rc_v3(0, 0, 2),
                          (uint32_t)rc_scene_add_material(s, &m));
    }
    /* low, under the occluder's plane: it sees the floor in the occluder's umbra at the
       image's centre, never the occluder itself or the light */
    s->camera.look_from = rc_v3(0, 0.6f, 3);
    s->camera.look_at = rc_v3(0, 0, 0);
    s->camera.vfov = 30.0f;
    CHECK(rc_scene_finish(s, &err) == 0, "%s", err.msg);
}

static void same_film(const char *what, void (*make)(rc_scene *, float), int ls) {
    rc_scene a, b, c;
    make(&a, 0.0f);
    make(&b, 0.25f);
    make(&c, 0.75f);
    int64_t *fa = film(&a, ls, SPP), *fb = film(&b, ls, SPP);
    float *ia = image(&a, ls, SPP), *ic = image(&c, ls, SPP);
    CHECK(fa && fb && ia && ic, "%s: render failed", what);
    if (fa && fb && ia && ic) {
        size_t diff = 0;
        for (size_t i = 0; i < 3u * SIZE * SIZE; i++) diff += fa[i] != fb[i];
        double ma = centre_mean(ia), mc = centre_mean(ic);
        printf("%s (%s): alpha 0.25 film against none: %zu of %d values differ; centre mean "
               "%.4f without the quad, %.4f behind it at alpha 0.75\n",
               what, rc_light_sampling_name(ls), diff, 3 * SIZE * SIZE, ma, mc);
        CHECK(diff == 0, "%s: %zu film values differ with the masked quad", what, diff);
        CHECK(mc < 0.5 * ma, "%s: alpha 0.75 does not block (%g against %g)", what, mc, ma);
    }
    free(fa);
    free(fb);
    free(ia);
    free(ic);
    rc_scene_free(&a);
    rc_scene_free(&b);
    rc_scene_free(&c);
}

/* ---- masked emitters ---- */

static void emitter_floor(rc_scene *s) {
    rc_scene_init(s);
    s->background.type = RC_BG_CONSTANT;
    s->background.bottom = s->background.top = rc_v3s(0.0f);
    rc_material fl = test_material(RC_MAT_LAMBERTIAN, 0.7f, 0.7f, 0.7f, 0);
    rc_scene_add_quad(s, rc_v3(-10, 0, 10), rc_v3(20, 0, 0), rc_v3(0, 0, -20),
                      (uint32_t)rc_scene_add_material(s, &fl));
    s->camera.look_from = rc_v3(0, 4, 2.5f);
    s->camera.look_at = rc_v3(0, 0, 0);
    s->camera.vfov = 30.0f;
}

static void transparent_emitter(void) {
    rc_scene s;
    rc_error err;
    emitter_floor(&s);
    rc_material e = test_material(RC_MAT_EMISSIVE, 3, 3, 3, 0);
    e.alpha = 0.25f;
    e.alpha_cutoff = 0.5f;
    rc_scene_add_quad(&s, rc_v3(-0.5f, 1, -0.5f), rc_v3(1, 0, 0), rc_v3(0, 0, 1),
                      (uint32_t)rc_scene_add_material(&s, &e));
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    float *a = image(&s, RC_LIGHTS_NEE, SPP), *b = image(&s, RC_LIGHTS_BSDF, SPP);
    CHECK(a && b, "render failed");
    if (a && b) {
        double ma = mean_of(a), mb = mean_of(b);
        printf("emissive quad at alpha 0.25 (cutoff 0.5): floor mean %.5f with nee, %.5f with "
               "bsdf\n",
               ma, mb);
        CHECK(mb == 0.0, "bsdf: the transparent emitter lights the floor (%g)", mb);
        CHECK(ma == 0.0, "nee: the transparent emitter lights the floor (%g)", ma);
    }
    free(a);
    free(b);
    rc_scene_free(&s);
}

static void half_masked_emitter(void) {
    rc_scene s;
    rc_error err;
    emitter_floor(&s);
    rc_material e = test_material(RC_MAT_EMISSIVE, 3, 3, 3, 0);
    e.alpha_cutoff = 0.5f;
    e.flags |= RC_MATF_VERTEX_COLOR;
    uint32_t ei = (uint32_t)rc_scene_add_material(&s, &e);
    const float c0[4] = {1, 1, 1, 0}, c1[4] = {1, 1, 1, 1}, c2[4] = {1, 1, 1, 1};
    uint32_t v[3] = {(uint32_t)rc_scene_add_vertex_full(&s, NULL, NULL, NULL, c0),
                     (uint32_t)rc_scene_add_vertex_full(&s, NULL, NULL, NULL, c1),
                     (uint32_t)rc_scene_add_vertex_full(&s, NULL, NULL, NULL, c2)};
    rc_scene_add_triangle_vtx(&s, rc_v3(-1.5f, 1.2f, -1), rc_v3(1.5f, 1.0f, -1),
                              rc_v3(0, 1.1f, 1.5f), ei, v);
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    float *a = image(&s, RC_LIGHTS_NEE, 4 * SPP), *b = image(&s, RC_LIGHTS_BSDF, 16 * SPP);
    CHECK(a && b, "render failed");
    if (a && b) {
        double s1 = 0, s2 = 0;
        const int n = SIZE * SIZE;
        for (int i = 0; i < n; i++) {
            double d = a[3 * i + 1] - b[3 * i + 1];
            s1 += d;
            s2 += d * d;
        }
        double m = s1 / n, se = sqrt(fmax(0.0, s2 / n - m * m) / (n - 1)), mb = mean_of(b);
        printf("emissive triangle, alpha 0 .. 1 over its corners (cutoff 0.5): floor mean %.5f "
               "(bsdf), nee - bsdf %+.5f (se %.5f)\n",
               mb, m, se);
        CHECK(4 * se < 0.02 * mb, "half-masked emitter: too noisy (se %g)", se);
        CHECK(fabs(m) < 4 * se, "half-masked emitter: nee and bsdf differ by %g", m);
    }
    free(a);
    free(b);
    rc_scene_free(&s);
}

int main(void) {
    same_film("emitter seen through a masked quad", see_through_scene, RC_LIGHTS_NEE);
    same_film("floor lit through a masked occluder", shadow_scene, RC_LIGHTS_NEE);
    same_film("floor lit through a masked occluder", shadow_scene, RC_LIGHTS_BSDF);
    transparent_emitter();
    half_masked_emitter();
    return test_finish("test_alpha");
}
