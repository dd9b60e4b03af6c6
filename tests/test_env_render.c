/* test_env_render.c: the environment map as a light of the whole renderer (light.h's
 * env_prob, path.h's MIS between the map's samples and the material's), against closed forms.
 *
 * 1. White furnace: a uniform map of radiance E0 and a Lambertian sphere of albedo 1. What a
 *    sphere point reflects is the integral of (1 / pi) E0 cos = E0, so every pixel, on the
 *    sphere or not, is E0. With `bsdf` each path carries weight 1 to the map: every sample is
 *    E0 up to rounding (checked within 1e-5). With `nee` (env_prob 1: the map is the only
 *    light) a pixel is an MIS sum of a map sample and the BSDF's: noisy, unbiased. The image
 *    mean must be E0 within 4 standard errors (the pixels' deviation over sqrt(pixels): they
 *    are independent and, by the null hypothesis, equally distributed), and so must the mean
 *    of each 4 x 4 block of pixels within 5 (a block of 16 is near enough normal; 5 sigma by
 *    chance in one of 64 blocks: about 4e-5), so that a bias on part of the image (the
 *    sphere's rim, its lower half) cannot hide in the whole's mean.
 * 2. A map that is not uniform (a bright band above the horizon, a hot spot, a dim rest),
 *    turned and scaled, a diffuse sphere and a diffuse floor: no closed form, so `nee` and
 *    `bsdf` must agree, pixel by pixel (the difference image's mean within 4 standard errors,
 *    and 4 standard errors below 1 % of the image mean).
 * 3. A glTF PBR sphere (metallic 0, roughness 0.5, white) in the uniform map: a convex object,
 *    so a pixel's radiance is E0 times the directional albedo A(mu) = integral of f |cos| over
 *    the hemisphere at the cosine mu between the view and the normal (E0 where the ray misses).
 *    A(mu) is integrated here with rc_bsdf_eval by the midpoint rule (the glTF model gains
 *    energy at grazing angles, docs/materials.md: A is not 1) and each pixel's answer averaged
 *    over 8 x 8 points of it; both renders must match it, and each other, within 4 standard
 *    errors (4 standard errors below 1 % of the mean). */
#include "core/bsdf.h"
#include "rc_test.h"

#include <math.h>
#include <string.h>

#define SIZE 32
#define PI_D 3.14159265358979323846

static const float E0 = 0.75f;

typedef struct stats {
    double mean, se, rms;
} stats;

/* The mean of (a - want - b) over the pixels (channel c), its standard error and the pixels'
 * deviation; want: one value per pixel, or NULL with `w0` for every pixel. */
static stats diff_stats(const float *a, const double *want, double w0, const float *b, int c) {
    double s = 0, s2 = 0;
    const int n = SIZE * SIZE;
    for (int i = 0; i < n; i++) {
        double d = a[3 * i + c] - (want ? want[i] : w0) - (b ? b[3 * i + c] : 0.0);
        s += d;
        s2 += d * d;
    }
    stats st = {s / n, 0, 0};
    st.rms = sqrt(fmax(0.0, s2 / n - st.mean * st.mean));
    st.se = st.rms / sqrt(n - 1.0);
    return st;
}

static float *render(const rc_scene *s, int light_sampling, const char *algo, uint32_t spp) {
    rc_settings st = test_settings(s, SIZE, SIZE, algo, RC_MODE_INDICES);
    st.max_depth = 6;
    st.light_sampling = light_sampling;
    return test_render(s, &st, spp);
}

/* A w x h map of radiance `v` everywhere, or (band) the test's non-uniform one. */
static int make_env(rc_scene *s, uint32_t w, uint32_t h, int band, float rot, float scale) {
    float *rgb = malloc((size_t)w * h * 3 * sizeof *rgb);
    if (!rgb) return -1;
    for (uint32_t j = 0; j < h; j++)
        for (uint32_t i = 0; i < w; i++) {
            float *p = rgb + 3 * ((size_t)j * w + i);
            if (!band) {
                p[0] = p[1] = p[2] = E0;
                continue;
            }
            /* dim sky, a warm band just above the horizon, a hot spot up and to one side */
            p[0] = 0.2f, p[1] = 0.25f, p[2] = 0.35f;
            if (j >= h / 2 - h / 8 && j < h / 2) p[0] = 4.0f, p[1] = 3.0f, p[2] = 2.0f;
            if (j >= h / 4 && j < h / 4 + h / 16 && i >= w / 5 && i < w / 5 + w / 16)
                p[0] = p[1] = p[2] = 20.0f;
        }
    rc_env_map e;
    rc_error err;
    int rc = rc_env_build("test", rgb, w, h, (size_t)1 << 30, &e, &err);
    free(rgb);
    CHECK(rc == 0, "env: %s", err.msg);
    if (rc != 0) return -1;
    rc_scene_set_env(s, &e, rot, scale);
    return 0;
}

/* 1: a light hidden inside the sphere (the table is not empty, env_prob is 0.5: the light
 * samples split between the map and a light that every shadow ray finds blocked) */
static int hidden_light = 1;

static void sphere_scene(rc_scene *s, const rc_material *m) {
    rc_scene_init(s);
    rc_scene_add_sphere(s, rc_v3(0, 0, 0), 1.0f, (uint32_t)rc_scene_add_material(s, m));
    if (hidden_light) {
        rc_material l = test_material(RC_MAT_EMISSIVE, 5, 5, 5, 0);
        rc_scene_add_sphere(s, rc_v3(0.1f, 0.2f, 0), 0.3f, (uint32_t)rc_scene_add_material(s, &l));
    }
    s->camera.look_from = rc_v3(0, 0.5f, 4);
    s->camera.look_at = rc_v3(0, 0, 0);
    s->camera.vfov = 36.0f;
}

static void furnace(void) {
    rc_scene s;
    rc_error err;
    rc_material m = test_material(RC_MAT_LAMBERTIAN, 1, 1, 1, 0);
    sphere_scene(&s, &m);
    if (make_env(&s, 32, 16, 0, 0.0f, 1.0f) != 0) return;
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    CHECK(s.env_prob == (hidden_light ? 0.5f : 1.0f), "env_prob %g, want %g", s.env_prob,
          hidden_light ? 0.5 : 1.0);
    printf("furnace %s: %u table lights, env_prob %.2f\n",
           hidden_light ? "with a hidden light" : "with the map alone", s.num_lights, s.env_prob);
    float *b = render(&s, RC_LIGHTS_BSDF, "none", 16),
          *a = render(&s, RC_LIGHTS_NEE, "scan-scatter", 64);
    CHECK(a && b, "render failed");
    if (a && b) {
        /* nee must draw samples of its own: the same image as bsdf's means it never ran */
        CHECK(memcmp(a, b, 3 * SIZE * SIZE * sizeof *a) != 0,
              "nee rendered bsdf's image byte for byte: no light samples were drawn");
        double worst = 0;
        for (int i = 0; i < 3 * SIZE * SIZE; i++) worst = fmax(worst, fabs(b[i] - E0));
        printf("furnace, bsdf: the farthest pixel value is %.2g from %.2f\n", worst, E0);
        CHECK(worst < 1e-5, "bsdf: a pixel %g from the map's radiance", worst);
        for (int c = 0; c < 3; c++) {
            stats st = diff_stats(a, NULL, E0, NULL, c);
            double far = 0;
            for (int i = 0; i < SIZE * SIZE; i++) far = fmax(far, fabs(a[3 * i + c] - E0));
            printf("furnace, nee, channel %d: mean - %.2f = %+.6f (se %.6f), pixel deviation "
                   "%.5f, farthest pixel %.5f\n",
                   c, E0, st.mean, st.se, st.rms, far);
            CHECK(fabs(st.mean) < 4 * st.se + 1e-6, "nee: mean off by %g", st.mean);
            /* 4 x 4 blocks of pixels: each block's mean within 5 of its standard errors */
            double worst_block = 0;
            for (int by = 0; by < SIZE; by += 4)
                for (int bx = 0; bx < SIZE; bx += 4) {
                    double bs = 0;
                    for (int y = by; y < by + 4; y++)
                        for (int x = bx; x < bx + 4; x++) bs += a[3 * (y * SIZE + x) + c] - E0;
                    worst_block = fmax(worst_block, fabs(bs / 16) / (st.rms / 4 + 1e-9));
                }
            printf("  the farthest 4x4 block mean: %.2f standard errors\n", worst_block);
            CHECK(worst_block < 5, "nee: a 4x4 block %g standard errors off %g", worst_block, E0);
            CHECK(far < 12 * st.rms + 1e-5, "nee: a pixel %g from %g (deviation %g)", far, E0,
                  st.rms);
            CHECK(st.rms < 0.05 * E0, "nee: pixel deviation %g is too large", st.rms);
        }
    }
    free(a);
    free(b);
    rc_scene_free(&s);
}

/* nee and bsdf agree within 4 standard errors of their difference; 4 se below tol * mean */
static void agree(const char *what, const float *a, const float *b, double tol) {
    for (int c = 0; c < 3; c++) {
        stats d = diff_stats(a, NULL, 0.0, b, c), m = diff_stats(b, NULL, 0.0, NULL, c);
        printf("%s, channel %d: mean %.5f, nee - bsdf %+.5f (se %.5f)\n", what, c, m.mean, d.mean,
               d.se);
        CHECK(4 * d.se < tol * m.mean, "%s: too noisy for a %g %% check (se %g)", what, 100 * tol,
              d.se);
        CHECK(fabs(d.mean) < 4 * d.se, "%s: nee and bsdf differ by %g", what, d.mean);
    }
}

static void band_map(void) {
    rc_scene s;
    rc_error err;
    rc_material m = test_material(RC_MAT_LAMBERTIAN, 0.8f, 0.6f, 0.4f, 0);
    sphere_scene(&s, &m);
    rc_material fm = test_material(RC_MAT_LAMBERTIAN, 0.5f, 0.5f, 0.5f, 0);
    rc_scene_add_quad(&s, rc_v3(-20, -1, 20), rc_v3(40, 0, 0), rc_v3(0, 0, -40),
                      (uint32_t)rc_scene_add_material(&s, &fm));
    if (make_env(&s, 64, 32, 1, 40.0f, 1.5f) != 0) return;
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    float *a = render(&s, RC_LIGHTS_NEE, "scan-scatter", 128),
          *b = render(&s, RC_LIGHTS_BSDF, "none", 512);
    CHECK(a && b, "render failed");
    if (a && b) agree("band map, diffuse sphere and floor", a, b, 0.01);
    free(a);
    free(b);
    rc_scene_free(&s);
}

/* ---- the glTF PBR sphere ---- */

#define NMU 33

/* A(mu) at mu = k / (NMU - 1), k = 0 .. NMU - 1, by the midpoint rule over the hemisphere in
 * (cos theta_i, phi) (the solid angle's own coordinates). */
static void albedo_table(const rc_material *m, double *tab) {
    rc_bsdf b = rc_bsdf_from_material(m);
    const int nz = 256, nphi = 256;
    for (int k = 0; k < NMU; k++) {
        double mu = fmax(1e-3, (double)k / (NMU - 1)), so = sqrt(1 - mu * mu);
        rc_vec3 wo = rc_v3((float)so, 0.0f, (float)mu);
        double sum = 0;
        for (int i = 0; i < nz; i++) {
            double z = (i + 0.5) / nz, sz = sqrt(1 - z * z);
            for (int j = 0; j < nphi; j++) {
                double ph = 2 * PI_D * (j + 0.5) / nphi;
                rc_vec3 wi = rc_v3((float)(sz * cos(ph)), (float)(sz * sin(ph)), (float)z);
                sum += rc_bsdf_eval(&b, wo, wi).y;
            }
        }
        tab[k] = sum * 2 * PI_D / ((double)nz * nphi);
    }
}

static double albedo_at(const double *tab, double mu) {
    double x = fmin(fmax(mu, 0.0), 1.0) * (NMU - 1);
    int k = (int)x;
    if (k >= NMU - 1) return tab[NMU - 1];
    return tab[k] + (x - k) * (tab[k + 1] - tab[k]);
}

static void pbr_sphere(void) {
    rc_scene s;
    rc_error err;
    rc_material m = test_material(RC_MAT_PBR, 1, 1, 1, 0);
    m.metallic = 0.0f;
    m.roughness = 0.5f;
    sphere_scene(&s, &m);
    if (make_env(&s, 32, 16, 0, 0.0f, 1.0f) != 0) return;
    CHECK(rc_scene_finish(&s, &err) == 0, "%s", err.msg);
    double tab[NMU];
    albedo_table(&m, tab);
    printf("pbr directional albedo: A(1) %.4f, A(0.5) %.4f, A(0.1) %.4f, A(0.02) %.4f\n",
           tab[NMU - 1], albedo_at(tab, 0.5), albedo_at(tab, 0.1), albedo_at(tab, 0.02));
    rc_scene_view v = rc_scene_view_make(&s, SIZE, SIZE);
    double *want = malloc(SIZE * SIZE * sizeof *want), mean = 0;
    const int sub = 8;
    for (int py = 0; py < SIZE; py++)
        for (int px = 0; px < SIZE; px++) {
            double sum = 0;
            for (int j = 0; j < sub; j++)
                for (int i = 0; i < sub; i++) {
                    rc_vec3 o, d;
                    rc_camera_ray(&v.camera, (px + (i + 0.5f) / sub) / SIZE,
                                  1.0f - (py + (j + 0.5f) / sub) / SIZE, 0.5f, 0.5f, &o, &d);
                    /* the unit sphere at the origin, in double */
                    double ox = o.x, oy = o.y, oz = o.z, dx = d.x, dy = d.y, dz = d.z;
                    double dl = sqrt(dx * dx + dy * dy + dz * dz);
                    dx /= dl, dy /= dl, dz /= dl;
                    double bb = ox * dx + oy * dy + oz * dz, cc = ox * ox + oy * oy + oz * oz - 1;
                    double disc = bb * bb - cc;
                    if (disc <= 0) {
                        sum += E0;
                        continue;
                    }
                    double t = -bb - sqrt(disc);
                    double nx = ox + t * dx, ny = oy + t * dy, nz = oz + t * dz;
                    sum += E0 * albedo_at(tab, -(nx * dx + ny * dy + nz * dz));
                }
            want[py * SIZE + px] = sum / (sub * sub);
            mean += want[py * SIZE + px] / (SIZE * SIZE);
        }
    float *a = render(&s, RC_LIGHTS_NEE, "scan-scatter", 128),
          *b = render(&s, RC_LIGHTS_BSDF, "none", 128);
    CHECK(a && b, "render failed");
    if (a && b) {
        stats ea = diff_stats(a, want, 0, NULL, 1), eb = diff_stats(b, want, 0, NULL, 1),
              d = diff_stats(a, NULL, 0, b, 1);
        printf("pbr sphere in the uniform map: mean %.5f; nee - integral %+.5f (se %.5f), bsdf - "
               "integral %+.5f (se %.5f), nee - bsdf %+.5f (se %.5f)\n",
               mean, ea.mean, ea.se, eb.mean, eb.se, d.mean, d.se);
        CHECK(4 * ea.se < 0.01 * mean && 4 * eb.se < 0.01 * mean && 4 * d.se < 0.01 * mean,
              "pbr: too noisy for a 1 %% check (se %g %g %g)", ea.se, eb.se, d.se);
        CHECK(fabs(ea.mean) < 4 * ea.se, "pbr: nee off the integral by %g", ea.mean);
        CHECK(fabs(eb.mean) < 4 * eb.se, "pbr: bsdf off the integral by %g", eb.mean);
        CHECK(fabs(d.mean) < 4 * d.se, "pbr: nee and bsdf differ by %g", d.mean);
        CHECK(memcmp(a, b, 3 * SIZE * SIZE * sizeof *a) != 0,
              "pbr: nee rendered bsdf's image byte for byte: no light samples were drawn");
        int bad = 0;
        for (int i = 0; i < 3 * SIZE * SIZE; i++) bad += !(a[i] >= 0.0f) || !(b[i] >= 0.0f);
        CHECK(bad == 0, "pbr: %d values negative or NaN", bad);
    }
    free(a);
    free(b);
    free(want);
    rc_scene_free(&s);
}

/* With no argument: every part with a hidden light beside the map. "map-alone": the furnace
 * with the map as the only light (env_prob 1). */
int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "map-alone") == 0) {
        hidden_light = 0;
        furnace();
        return test_finish("test_env_render map-alone");
    }
    furnace();
    band_map();
    pbr_sphere();
    return test_finish("test_env_render");
}
