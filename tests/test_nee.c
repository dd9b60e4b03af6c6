/* test_nee.c: next-event estimation against answers known in closed form, and against BSDF
 * sampling.
 *
 * 1. A Lambertian plane (albedo rho, y = 0) under one emissive square (radiance L, parallel
 *    to the plane at height h), black background. Nothing else reflects, so the radiance of a
 *    plane point x is rho L F(x), F the form factor from x to the square (the differential
 *    area to parallel rectangle formula, summed over the four rectangles x's foot splits the
 *    square into, with signed sides). Each pixel's expected value is F at the point its centre
 *    sees. `nee` and `bsdf` must both match it, and each other, within 1 %.
 * 2. The same plane under an emissive sphere wholly above its horizon: E = pi L R^2 cos / d^2,
 *    so the radiance is rho L R^2 cos(theta) / d^2.
 * 3. A fuzzy metal plane under the square: no closed form, so `nee` (light samples weighed by
 *    MIS against the metal's own density) must match `bsdf` (the metal's samples alone).
 * 4. Another --seed draws other samples of the same answer.
 * 5. The fuzzy metal's density (light.h) integrates to the share of its samples that leave
 *    above the surface (1 at normal incidence with fuzz < 1).
 *
 * Tolerances are statistical: pixels are independent, so the image mean's standard error is
 * the pixels' standard deviation over sqrt(pixels). A check passes within 4 standard errors,
 * and the test also asserts that 4 standard errors are below 1 % of the answer, so a 1 % bias
 * cannot hide in the noise. */
#include "rc_test.h"

#include <math.h>
#include <string.h>

#define SIZE 32
#define SPP  128 /* per render; the sphere's take twice as many */

static const float rho = 0.7f, L = 2.0f;

typedef struct stats {
    double mean, se;
} stats;

/* The mean of (image - expected) per pixel, green channel, and its standard error; `other`
 * (if given) is an image whose pixels are subtracted too. */
static stats diff_stats(const float *img, const double *want, const float *other) {
    double s = 0, s2 = 0;
    const int n = SIZE * SIZE;
    for (int i = 0; i < n; i++) {
        double d = img[3 * i + 1] - (want ? want[i] : 0.0) - (other ? other[3 * i + 1] : 0.0);
        s += d;
        s2 += d * d;
    }
    stats st = {s / n, 0};
    st.se = sqrt(fmax(0.0, s2 / n - st.mean * st.mean) / (n - 1));
    return st;
}

static uint32_t seed; /* the seed of the renders (0 but in the seed check) */

static float *render(const rc_scene *s, int light_sampling, const char *algo, uint32_t spp) {
    rc_settings st = test_settings(s, SIZE, SIZE, algo, RC_MODE_INDICES);
    st.seed = seed;
    st.max_depth = 4;
    st.light_sampling = light_sampling;
    return test_render(s, &st, spp);
}

static void plane_scene(rc_scene *s, uint32_t plane_type, float fuzz) {
    rc_scene_init(s);
    s->background.type = RC_BG_CONSTANT;
    s->background.bottom = s->background.top = rc_v3s(0.0f);
    rc_material plane = test_material(plane_type, rho, rho, rho, fuzz);
    uint32_t pm = (uint32_t)rc_scene_add_material(s, &plane);
    rc_scene_add_quad(s, rc_v3(-50, 0, 50), rc_v3(100, 0, 0), rc_v3(0, 0, -100), pm);
    s->camera.look_from = rc_v3(4, 2, 0);
    s->camera.look_at = rc_v3(0, 0, 0);
    s->camera.vfov = 3.0f;
}

/* Form factor from a point to the parallel rectangle [0, a] x [0, b] at height h above it
 * (one corner straight above), odd in a and in b. */
static double corner_ff(double a, double b, double h) {
    double x = a / h, y = b / h, sx = sqrt(1 + x * x), sy = sqrt(1 + y * y);
    return (x / sx * atan(y / sx) + y / sy * atan(x / sy)) / (2 * 3.14159265358979);
}

/* The point each pixel centre sees on the plane y = 0. */
static rc_vec3 pixel_point(const rc_scene *s, int px, int py) {
    rc_scene_view v = rc_scene_view_make(s, SIZE, SIZE);
    rc_vec3 o, d;
    rc_camera_ray(&v.camera, (px + 0.5f) / SIZE, 1.0f - (py + 0.5f) / SIZE, 0.5f, 0.5f, &o, &d);
    return rc_add(o, rc_scale(d, -o.y / d.y));
}

static void compare(const char *what, const float *nee, const float *bsdf, const double *want,
                    double answer) {
    /* pixel by pixel: the image's own variation cancels, the noise remains */
    stats d = diff_stats(nee, NULL, bsdf);
    printf("%s: mean %.5f; nee - bsdf %+.5f (se %.5f)", what, answer, d.mean, d.se);
    CHECK(4 * d.se < 0.01 * answer, "%s: too noisy for a 1%% check (se %g)", what, d.se);
    CHECK(fabs(d.mean) < 4 * d.se, "%s: nee and bsdf differ by %g", what, d.mean);
    if (want) {
        stats a = diff_stats(nee, want, NULL), b = diff_stats(bsdf, want, NULL);
        printf("; nee - exact %+.5f (se %.5f), bsdf - exact %+.5f (se %.5f)", a.mean, a.se, b.mean,
               b.se);
        CHECK(4 * a.se < 0.01 * answer && 4 * b.se < 0.01 * answer, "%s: too noisy (se %g, %g)",
              what, a.se, b.se);
        CHECK(fabs(a.mean) < 4 * a.se, "%s: nee is off by %g", what, a.mean);
        CHECK(fabs(b.mean) < 4 * b.se, "%s: bsdf is off by %g", what, b.mean);
    }
    printf("\n");
}

static void quad_light(void) {
    rc_scene s;
    rc_error err;
    plane_scene(&s, RC_MAT_LAMBERTIAN, 0.0f);
    const double h = 1.0, x0 = -1, x1 = 1, z0 = -1, z1 = 1;
    rc_material light = test_material(RC_MAT_EMISSIVE, L, L, L, 0);
    uint32_t lm = (uint32_t)rc_scene_add_material(&s, &light);
    rc_scene_add_quad(&s, rc_v3((float)x0, (float)h, (float)z0), rc_v3(2, 0, 0), rc_v3(0, 0, 2),
                      lm);
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    CHECK(s.num_lights == 1, "%u lights", s.num_lights);
    double *want = malloc(SIZE * SIZE * sizeof *want), mean = 0;
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            rc_vec3 p = pixel_point(&s, x, y);
            double ff = corner_ff(x1 - p.x, z1 - p.z, h) - corner_ff(x0 - p.x, z1 - p.z, h) -
                        corner_ff(x1 - p.x, z0 - p.z, h) + corner_ff(x0 - p.x, z0 - p.z, h);
            want[y * SIZE + x] = rho * L * ff;
            mean += want[y * SIZE + x] / (SIZE * SIZE);
        }
    float *a = render(&s, RC_LIGHTS_NEE, "scan-scatter", SPP),
          *b = render(&s, RC_LIGHTS_BSDF, "none", SPP);
    CHECK(a && b, "render failed");
    if (a && b) compare("quad light", a, b, want, mean);
    /* Another seed: other samples (not one pixel the same), the same answer. */
    seed = 77;
    float *c = render(&s, RC_LIGHTS_NEE, "scan-scatter", SPP);
    seed = 0;
    CHECK(c != NULL, "render failed");
    if (a && c) {
        int same = 0;
        for (int i = 0; i < SIZE * SIZE; i++) same += memcmp(&a[3 * i], &c[3 * i], 12) == 0;
        stats d = diff_stats(c, NULL, a);
        printf("seed 77 against seed 0: %d equal pixels, difference %+.5f (se %.5f)\n", same,
               d.mean, d.se);
        CHECK(same == 0, "seed 77: %d pixels equal to seed 0's", same);
        CHECK(fabs(d.mean) < 4 * d.se, "seed 77: mean differs by %g", d.mean);
    }
    free(a);
    free(b);
    free(c);
    free(want);
    rc_scene_free(&s);
}

static void sphere_light(void) {
    rc_scene s;
    rc_error err;
    plane_scene(&s, RC_MAT_LAMBERTIAN, 0.0f);
    const rc_vec3 c = rc_v3(0, 1.2f, 0);
    const double r = 0.8;
    rc_material light = test_material(RC_MAT_EMISSIVE, L, L, L, 0);
    rc_scene_add_sphere(&s, c, (float)r, (uint32_t)rc_scene_add_material(&s, &light));
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    double *want = malloc(SIZE * SIZE * sizeof *want), mean = 0;
    for (int y = 0; y < SIZE; y++)
        for (int x = 0; x < SIZE; x++) {
            rc_vec3 p = pixel_point(&s, x, y);
            double dx = c.x - p.x, dy = c.y - p.y, dz = c.z - p.z;
            double d2 = dx * dx + dy * dy + dz * dz;
            want[y * SIZE + x] = rho * L * r * r * (dy / sqrt(d2)) / d2;
            mean += want[y * SIZE + x] / (SIZE * SIZE);
        }
    /* the sphere covers less of the sky than the square: twice the samples */
    float *a = render(&s, RC_LIGHTS_NEE, "billeter", 2 * SPP),
          *b = render(&s, RC_LIGHTS_BSDF, "scan-scatter", 2 * SPP);
    CHECK(a && b, "render failed");
    if (a && b) compare("sphere light", a, b, want, mean);
    free(a);
    free(b);
    free(want);
    rc_scene_free(&s);
}

static void fuzzy_metal(void) {
    rc_scene s;
    rc_error err;
    plane_scene(&s, RC_MAT_METAL, 0.6f);
    rc_material light = test_material(RC_MAT_EMISSIVE, L, L, L, 0);
    rc_scene_add_quad(&s, rc_v3(-4, 1, -2), rc_v3(4, 0, 0), rc_v3(0, 0, 4),
                      (uint32_t)rc_scene_add_material(&s, &light));
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    float *a = render(&s, RC_LIGHTS_NEE, "scan-scatter", SPP),
          *b = render(&s, RC_LIGHTS_BSDF, "none", SPP);
    CHECK(a && b, "render failed");
    if (a && b) compare("fuzzy metal", a, b, NULL, diff_stats(b, NULL, NULL).mean);
    free(a);
    free(b);
    rc_scene_free(&s);
}

/* Integrate rc_scatter_pdf over the upper hemisphere (midpoint rule in cos theta and phi) and
 * compare with the share of rc_scatter's samples that stay above the surface. */
static void metal_density(float fuzz, float incidence) {
    rc_material m = test_material(RC_MAT_METAL, 1, 1, 1, fuzz);
    rc_vec3 n = rc_v3(0, 0, 1), d = rc_normalize(rc_v3(sinf(incidence), 0, -cosf(incidence)));
    const int nu = 2000, nphi = 2000;
    double sum = 0;
    for (int i = 0; i < nu; i++) {
        double ct = (i + 0.5) / nu, st = sqrt(1 - ct * ct);
        for (int j = 0; j < nphi; j++) {
            double ph = 2 * 3.14159265358979 * (j + 0.5) / nphi;
            rc_vec3 w = rc_v3((float)(st * cos(ph)), (float)(st * sin(ph)), (float)ct);
            sum += rc_scatter_pdf(&m, d, n, w);
        }
    }
    double integral = sum * 2 * 3.14159265358979 / ((double)nu * nphi);
    int above = 0;
    const int samples = 200000;
    for (int k = 0; k < samples; k++) {
        rc_rng_key key = {(uint32_t)k, 7u, 0u};
        rc_vec3 w, wt;
        above += rc_scatter(&m, d, n, 1, key, &w, &wt);
    }
    double share = (double)above / samples, se = sqrt(share * (1 - share) / samples) + 1e-9;
    printf("metal fuzz %.2f at %.0f deg: density integrates to %.5f, samples above %.5f\n", fuzz,
           incidence * 57.2958, integral, share);
    CHECK(fabs(integral - share) < 4 * se + 2e-3, "fuzz %g: %g against %g", fuzz, integral, share);
}

int main(void) {
    metal_density(0.5f, 0.0f);
    metal_density(0.3f, 1.2f);
    metal_density(1.5f, 0.6f);
    quad_light();
    sphere_light();
    fuzzy_metal();
    return test_finish("test_nee");
}
