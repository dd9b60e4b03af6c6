/* test_envmap.c: the equirectangular environment (core/envmap.h, scene/env_load.c): the
 * mapping's round trip and fixed points, the rotation, the density integrating to 1 over the
 * sphere, rc_env_sample against rc_env_pdf by a chi-square test on a few synthetic maps, the
 * density and radiance a sample returns against rc_env_pdf and rc_env_radiance at its
 * direction, and the loader's one-line errors. The .hdr files are written here by a small
 * RGBE encoder. Usage: test_envmap DIR (a directory for the files it writes). */
#define _POSIX_C_SOURCE 200809L
#include "chi2.h"
#include "rc_test.h"
#include "scene/env_load.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *dir;

static int near(double a, double b, double tol) {
    return fabs(a - b) <= tol;
}

/* A deterministic uniform in [0, 1) from a 64-bit LCG state (Knuth's MMIX constants). */
static double uniform(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- maps ---- */

typedef struct map {
    const char *name;
    uint32_t w, h;
    float rotation;
    float *rgb;
} map;

static map map_constant(void) {
    map m = {"constant", 32, 16, 0.0f, NULL};
    m.rgb = malloc((size_t)m.w * m.h * 3 * sizeof(float));
    for (size_t i = 0; i < (size_t)m.w * m.h * 3; i++) m.rgb[i] = 0.8f;
    return m;
}

/* A smooth sky gradient and one texel 5000 times brighter (a sun), turned 30 degrees. */
static map map_sun(void) {
    map m = {"gradient+sun", 64, 32, 30.0f, NULL};
    m.rgb = malloc((size_t)m.w * m.h * 3 * sizeof(float));
    for (uint32_t j = 0; j < m.h; j++)
        for (uint32_t i = 0; i < m.w; i++) {
            float *p = m.rgb + 3 * ((size_t)j * m.w + i);
            float t = (float)j / (float)(m.h - 1);
            p[0] = 0.2f + 0.6f * t + 0.1f * sinf(0.2f * (float)i);
            p[1] = 0.4f + 0.3f * t;
            p[2] = 1.0f - 0.5f * t;
        }
    float *sun = m.rgb + 3 * ((size_t)9 * m.w + 40);
    sun[0] = sun[1] = sun[2] = 5000.0f;
    return m;
}

/* Random radiance with black rows and a black block: intervals of zero width in both CDFs. */
static map map_holes(void) {
    map m = {"holes", 48, 24, -75.0f, NULL};
    m.rgb = malloc((size_t)m.w * m.h * 3 * sizeof(float));
    uint64_t s = 7;
    for (uint32_t j = 0; j < m.h; j++)
        for (uint32_t i = 0; i < m.w; i++) {
            float *p = m.rgb + 3 * ((size_t)j * m.w + i);
            int black = j < 3 || (j >= 10 && j < 13) || (i >= 20 && i < 30 && j >= 15);
            for (int k = 0; k < 3; k++)
                p[k] = black ? 0.0f : (float)(uniform(&s) * uniform(&s) * 4.0);
        }
    return m;
}

static int build(const map *m, rc_env_map *e) {
    rc_error err;
    int rc = rc_env_build(m->name, m->rgb, m->w, m->h, (size_t)1 << 30, e, &err);
    CHECK(rc == 0, "%s", err.msg);
    return rc;
}

static void test_gamma(void) {
    /* Q(1, x) = e^-x; Q(0.5, x) = erfc(sqrt x); chi-square with 2k dof: Q(k, x) closed form */
    CHECK(near(gamma_q(1.0, 0.3), exp(-0.3), 1e-12) && near(gamma_q(1.0, 7.0), exp(-7.0), 1e-12),
          "Q(1, x)");
    CHECK(near(gamma_q(0.5, 2.0), erfc(sqrt(2.0)), 1e-12), "Q(1/2, x)");
    CHECK(near(gamma_q(2.0, 3.0), exp(-3.0) * (1.0 + 3.0), 1e-12), "Q(2, x)");
    /* the median of chi-square with 1000 dof is close to 999.33 */
    CHECK(near(gamma_q(500.0, 999.33 / 2.0), 0.5, 2e-3), "chi-square(1000) median");
}

/* ---- the mapping and the rotation ---- */

static void test_mapping(void) {
    float u, v;
    rc_env_dir_to_uv(rc_v3(0, 0, -1), &u, &v);
    CHECK(near(u, 0.5, 1e-6) && near(v, 0.5, 1e-6), "-Z at the centre: %g %g", u, v);
    rc_env_dir_to_uv(rc_v3(1, 0, 0), &u, &v);
    CHECK(near(u, 0.75, 1e-6) && near(v, 0.5, 1e-6), "+X at u = 0.75: %g %g", u, v);
    rc_env_dir_to_uv(rc_v3(-1, 0, 0), &u, &v);
    CHECK(near(u, 0.25, 1e-6), "-X at u = 0.25: %g", u);
    rc_env_dir_to_uv(rc_v3(0, 0, 1), &u, &v);
    CHECK(near(u, 1.0, 1e-6) || near(u, 0.0, 1e-6), "+Z at the seam: %g", u);
    rc_env_dir_to_uv(rc_v3(0, 1, 0), &u, &v);
    CHECK(near(v, 0.0, 1e-6), "+Y at the top: %g", v);
    rc_env_dir_to_uv(rc_v3(0, -1, 0), &u, &v);
    CHECK(near(v, 1.0, 1e-6), "-Y at the bottom: %g", v);
    uint64_t s = 1;
    double worst = 0.0, worst_uv = 0.0;
    for (int k = 0; k < 100000; k++) {
        /* a uniform direction, then back and forth */
        double z = 1.0 - 2.0 * uniform(&s), phi = 2.0 * RC_PI * uniform(&s);
        double r = sqrt(fmax(0.0, 1.0 - z * z));
        rc_vec3 d = rc_v3((float)(r * cos(phi)), (float)z, (float)(r * sin(phi)));
        rc_env_dir_to_uv(d, &u, &v);
        rc_vec3 b = rc_env_uv_to_dir(u, v);
        worst = fmax(worst, rc_length(rc_sub(b, d)));
        float uu = (float)uniform(&s), vv = (float)(0.001 + 0.998 * uniform(&s)), u2, v2;
        rc_env_dir_to_uv(rc_env_uv_to_dir(uu, vv), &u2, &v2);
        worst_uv = fmax(worst_uv, fmax(fabs(u2 - uu), fabs(v2 - vv)));
    }
    CHECK(worst < 1e-5, "dir -> uv -> dir off by %g", worst);
    CHECK(worst_uv < 2e-5, "uv -> dir -> uv off by %g", worst_uv);

    /* the rotation: a map black but for the texel at -Z; turned +90 degrees about +Y
       (right-handed, counter-clockwise seen from above) it is seen at -X */
    enum { W = 64, H = 32 };
    static float rgb[W * H * 3];
    memset(rgb, 0, sizeof rgb);
    float *t = rgb + 3 * ((H / 2) * W + W / 2); /* the texel whose corner is u = v = 0.5 */
    t[0] = t[1] = t[2] = 10.0f;
    rc_env_map e;
    if (rc_env_build("dot", rgb, W, H, (size_t)1 << 30, &e, NULL) != 0) return;
    rc_vec3 centre = rc_env_uv_to_dir((W / 2 + 0.5f) / W, (H / 2 + 0.5f) / H);
    rc_env_view v0 = rc_env_view_make(&e, 0.0f, 1.0f);
    rc_env_view v90 = rc_env_view_make(&e, 90.0f, 2.0f);
    rc_vec3 turned = rc_v3(centre.z, centre.y, -centre.x); /* R_y(90) */
    CHECK(near(rc_env_radiance(&v0, centre).x, 10.0, 1e-4), "the texel at its centre");
    CHECK(near(rc_env_radiance(&v90, turned).x, 20.0, 1e-3), "turned and scaled: %g",
          rc_env_radiance(&v90, turned).x);
    CHECK(rc_env_radiance(&v90, centre).x == 0.0f, "turned away");
    CHECK(turned.x < -0.99f, "-Z turned +90 degrees is -X");
    s = 3;
    int same = 1;
    for (int k = 0; k < 1000; k++) {
        rc_vec3 d = rc_env_uv_to_dir((float)uniform(&s), (float)uniform(&s));
        rc_vec3 r = rc_v3(d.z, d.y, -d.x);
        same &= near(rc_env_pdf(&v90, r), rc_env_pdf(&v0, d), 1e-3 * rc_env_pdf(&v0, d) + 1e-6);
    }
    CHECK(same, "the density turns with the map");
    rc_env_free(&e);
}

/* ---- the density over the sphere ---- */

/* The integral of rc_env_pdf over the world directions with cos(theta) in [z0, z1] and phi in
 * [p0, p1] (phi about +Y from -Z, as the mapping's), by the midpoint rule on n x n cells: the
 * solid angle is dz dphi. */
static double pdf_integral(const rc_env_view *e, double z0, double z1, double p0, double p1,
                           int n) {
    double sum = 0.0, dz = (z1 - z0) / n, dp = (p1 - p0) / n;
    for (int a = 0; a < n; a++) {
        double z = z0 + (a + 0.5) * dz, r = sqrt(fmax(0.0, 1.0 - z * z));
        for (int b = 0; b < n; b++) {
            double phi = p0 + (b + 0.5) * dp;
            rc_vec3 d = rc_v3((float)(r * sin(phi)), (float)z, (float)(-r * cos(phi)));
            sum += rc_env_pdf(e, d);
        }
    }
    return sum * dz * dp;
}

/* The integral of rc_env_pdf over the whole sphere, each texel of the map cut into n x n cells
 * in (theta, phi) on the map's own frame, the solid angle of a cell sin(theta) dtheta dphi,
 * each cell's centre turned into the world by the view's rotation: no cell straddles a jump
 * of the density, and within a texel the density times sin(theta) is constant, so the sum
 * is exact but for rounding when the density's 1 / (2 pi^2 sin theta) is right. */
static double pdf_integral_texels(const rc_env_view *e, int n) {
    double sum = 0.0;
    double dt = RC_PI / e->height / n, dp = 2.0 * RC_PI / e->width / n;
    for (uint32_t j = 0; j < e->height; j++)
        for (int a = 0; a < n; a++) {
            double theta = RC_PI * (double)j / e->height + (a + 0.5) * dt, st = sin(theta);
            for (uint32_t i = 0; i < e->width; i++)
                for (int b = 0; b < n; b++) {
                    double phi = 2.0 * RC_PI * ((double)i / e->width - 0.5) + (b + 0.5) * dp;
                    rc_vec3 m =
                        rc_v3((float)(st * sin(phi)), (float)cos(theta), (float)(-st * cos(phi)));
                    sum += rc_env_pdf(e, rc_env_from_map(e, m)) * st * dt * dp;
                }
        }
    return sum;
}

static void test_integral(void) {
    map maps[3] = {map_constant(), map_sun(), map_holes()};
    for (int k = 0; k < 3; k++) {
        rc_env_map e;
        if (build(&maps[k], &e) == 0) {
            rc_env_view v = rc_env_view_make(&e, maps[k].rotation, 1.0f);
            double total = pdf_integral_texels(&v, 8);
            CHECK(near(total, 1.0, 1e-4), "%s: the density integrates to %.6f", maps[k].name,
                  total);
            /* and on a plain grid of the world's directions, blind to the texels */
            double grid = pdf_integral(&v, -1.0, 1.0, -RC_PI, RC_PI, 2000);
            CHECK(near(grid, 1.0, 1e-2), "%s: on a grid, %.6f", maps[k].name, grid);
            if (k == 0) {
                /* a constant map samples the sphere uniformly: 8 bands of equal area get 1/8 */
                double worst = 0.0;
                for (int b = 0; b < 8; b++) {
                    double z0 = -1.0 + b * 0.25;
                    double band = pdf_integral(&v, z0, z0 + 0.25, -RC_PI, RC_PI, 400);
                    worst = fmax(worst, fabs(band * 8.0 - 1.0));
                }
                CHECK(worst < 0.01, "constant map: bands off uniform by %.4f", worst);
                /* pointwise within the sin(theta) of a row's centre against the direction's:
                   16 rows of 11.25 degrees, 4 % at 78 degrees from the zenith */
                rc_vec3 d = rc_normalize(rc_v3(0.3f, 0.2f, -0.9f));
                CHECK(near(rc_env_pdf(&v, d), 1.0 / (4.0 * RC_PI), 0.05 / (4.0 * RC_PI)),
                      "constant map: pdf %g, 1 / (4 pi) = %g", rc_env_pdf(&v, d),
                      1.0 / (4.0 * RC_PI));
            }
            rc_env_free(&e);
        }
        free(maps[k].rgb);
    }
}

/* ---- chi-square: rc_env_sample against rc_env_pdf ---- */

enum { NZ = 24, NPHI = 48, SAMPLES = 400000 };

static int bin_of(rc_vec3 d) {
    double z = fmin(fmax(d.y, -1.0f), 1.0f), phi = atan2(d.x, -d.z);
    int a = (int)((z + 1.0) * 0.5 * NZ), b = (int)((phi + RC_PI) / (2.0 * RC_PI) * NPHI);
    a = a < 0 ? 0 : (a >= NZ ? NZ - 1 : a);
    b = b < 0 ? 0 : (b >= NPHI ? NPHI - 1 : b);
    return a * NPHI + b;
}

/* The p-value of the observed counts against the expected ones, bins with an expected count
 * under 5 pooled into one (as pbrt's and Mitsuba's chi-square tests do). *zero_hits counts
 * samples in bins the density says cannot be reached. */
static double chi2_pvalue(const double *obs, const double *expd, int n, double *chi2_out,
                          int *dof_out, double *zero_hits) {
    double chi2 = 0.0, pool_o = 0.0, pool_e = 0.0;
    int bins = 0;
    *zero_hits = 0.0;
    for (int k = 0; k < n; k++) {
        if (expd[k] <= 0.0) {
            *zero_hits += obs[k];
            continue;
        }
        if (expd[k] < 5.0) {
            pool_o += obs[k];
            pool_e += expd[k];
            continue;
        }
        chi2 += (obs[k] - expd[k]) * (obs[k] - expd[k]) / expd[k];
        bins++;
    }
    if (pool_e >= 5.0) {
        chi2 += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
        bins++;
    }
    *chi2_out = chi2;
    *dof_out = bins - 1;
    return gamma_q(0.5 * (bins - 1), 0.5 * chi2);
}

static void test_chi2(void) {
    map maps[3] = {map_constant(), map_sun(), map_holes()};
    const double alpha = 0.01;
    static double obs[NZ * NPHI], expd[NZ * NPHI];
    for (int k = 0; k < 3; k++) {
        rc_env_map e;
        if (build(&maps[k], &e) != 0) continue;
        rc_env_view v = rc_env_view_make(&e, maps[k].rotation, 1.0f);
        memset(obs, 0, sizeof obs);
        uint64_t s = 0x9e3779b97f4a7c15ull + (uint64_t)k;
        long bad_pdf = 0, bad_consistent = 0, bad_radiance = 0;
        for (long n = 0; n < SAMPLES; n++) {
            rc_vec3 d;
            float pdf;
            float u1 = (float)uniform(&s), u2 = (float)uniform(&s);
            rc_vec3 L = rc_env_sample(&v, u1, u2, &d, &pdf);
            if (!(pdf > 0.0f)) {
                bad_pdf++;
                continue;
            }
            obs[bin_of(d)] += 1.0;
            float p2 = rc_env_pdf(&v, d);
            bad_consistent += !(fabsf(p2 - pdf) <= 1e-3f * pdf);
            rc_vec3 L2 = rc_env_radiance(&v, d);
            bad_radiance += !(rc_max_abs(rc_sub(L, L2)) <= 1e-3f * (rc_max_abs(L2) + 1e-3f));
        }
        for (int a = 0; a < NZ; a++)
            for (int b = 0; b < NPHI; b++) {
                double z0 = -1.0 + 2.0 * a / NZ, p0 = -RC_PI + 2.0 * RC_PI * b / NPHI;
                expd[a * NPHI + b] =
                    SAMPLES * pdf_integral(&v, z0, z0 + 2.0 / NZ, p0, p0 + 2.0 * RC_PI / NPHI, 64);
            }
        double chi2, zero;
        int dof;
        double p = chi2_pvalue(obs, expd, NZ * NPHI, &chi2, &dof, &zero);
        /* three maps tested: each at the Sidak-corrected level */
        double level = 1.0 - pow(1.0 - alpha, 1.0 / 3.0);
        printf("test_envmap: %s (%ux%u, rotation %g): chi2 %.1f, %d dof, p-value %.4f\n",
               maps[k].name, maps[k].w, maps[k].h, maps[k].rotation, chi2, dof, p);
        CHECK(p > level, "%s: chi-square %.1f with %d dof, p-value %.3g below %.3g", maps[k].name,
              chi2, dof, p, level);
        CHECK(zero == 0.0, "%s: %g samples where the density is 0", maps[k].name, zero);
        CHECK(bad_pdf == 0, "%s: %ld samples with density 0", maps[k].name, bad_pdf);
        CHECK(bad_consistent <= SAMPLES / 1000,
              "%s: %ld samples whose density differs from "
              "rc_env_pdf at their direction",
              maps[k].name, bad_consistent);
        CHECK(bad_radiance <= SAMPLES / 1000,
              "%s: %ld samples whose radiance differs from "
              "rc_env_radiance",
              maps[k].name, bad_radiance);
        rc_env_free(&e);
        free(maps[k].rgb);
    }
    /* a wrong sampler fails: the constant map's samples against the sun map's density */
    map c = map_constant(), sm = map_sun();
    rc_env_map ec, es;
    if (build(&c, &ec) == 0 && build(&sm, &es) == 0) {
        rc_env_view vc = rc_env_view_make(&ec, 0.0f, 1.0f), vs = rc_env_view_make(&es, 0.0f, 1.0f);
        memset(obs, 0, sizeof obs);
        uint64_t s = 5;
        for (long n = 0; n < SAMPLES / 4; n++) {
            rc_vec3 d;
            float pdf;
            float u1 = (float)uniform(&s), u2 = (float)uniform(&s);
            rc_env_sample(&vc, u1, u2, &d, &pdf);
            obs[bin_of(d)] += 1.0;
        }
        for (int a = 0; a < NZ; a++)
            for (int b = 0; b < NPHI; b++) {
                double z0 = -1.0 + 2.0 * a / NZ, p0 = -RC_PI + 2.0 * RC_PI * b / NPHI;
                expd[a * NPHI + b] =
                    SAMPLES / 4 *
                    pdf_integral(&vs, z0, z0 + 2.0 / NZ, p0, p0 + 2.0 * RC_PI / NPHI, 8);
            }
        double chi2, zero;
        int dof;
        double p = chi2_pvalue(obs, expd, NZ * NPHI, &chi2, &dof, &zero);
        CHECK(p < 1e-6, "the test tells a wrong density: p-value %g", p);
        rc_env_free(&ec);
        rc_env_free(&es);
    }
    free(c.rgb);
    free(sm.rgb);
}

/* ---- loading ---- */

/* RGBE of one colour (Ward, "Real Pixels", Graphics Gems II, 1991): the mantissas of the
 * largest component's exponent. */
static void rgbe(const float *c, unsigned char *out) {
    float m = fmaxf(c[0], fmaxf(c[1], c[2]));
    if (m < 1e-32f) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    int e;
    float f = frexpf(m, &e) * 256.0f / m;
    out[0] = (unsigned char)(c[0] * f);
    out[1] = (unsigned char)(c[1] * f);
    out[2] = (unsigned char)(c[2] * f);
    out[3] = (unsigned char)(e + 128);
}

/* A Radiance HDR file of w x h RGB floats in memory: flat scanlines, or run-length ones
 * (each component in literal runs of up to 128; needs 8 <= w < 32768). */
static unsigned char *hdr_bytes(const float *rgb, uint32_t w, uint32_t h, int rle, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    fprintf(f, "#?RADIANCE\n# test_envmap\nFORMAT=32-bit_rle_rgbe\n\n-Y %u +X %u\n", h, w);
    unsigned char *line = malloc((size_t)w * 4);
    for (uint32_t j = 0; j < h; j++) {
        for (uint32_t i = 0; i < w; i++) rgbe(rgb + 3 * ((size_t)j * w + i), line + 4 * i);
        if (!rle) {
            fwrite(line, 4, w, f);
            continue;
        }
        unsigned char head[4] = {2, 2, (unsigned char)(w >> 8), (unsigned char)w};
        fwrite(head, 1, 4, f);
        for (int k = 0; k < 4; k++)
            for (uint32_t i = 0; i < w;) {
                uint32_t n = w - i < 128 ? w - i : 128;
                fputc((int)n, f);
                for (uint32_t q = 0; q < n; q++) fputc(line[4 * (i + q) + k], f);
                i += n;
            }
    }
    free(line);
    fclose(f);
    return (unsigned char *)buf;
}

static char *path_of(const char *name) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static int starts_with(const char *s, const char *p) {
    return strncmp(s, p, strlen(p)) == 0;
}

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "test_envmap: a load blocked (FIFO)\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(1);
    _exit(1);
}

static void test_loading(void) {
    const size_t limit = 64u << 20;
    rc_error err;
    rc_env_map e;
    map m = map_sun();
    for (int rle = 0; rle < 2; rle++) {
        size_t len;
        unsigned char *b = hdr_bytes(m.rgb, m.w, m.h, rle, &len);
        char path[4096];
        snprintf(path, sizeof path, "%s", path_of(rle ? "rle.hdr" : "flat.hdr"));
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL, "%s: %s", path, strerror(errno));
        if (f) {
            fwrite(b, 1, len, f);
            fclose(f);
        }
        int rc = rc_env_load_file(path, limit, &e, &err);
        CHECK(rc == 0, "%s", err.msg);
        if (rc == 0) {
            double worst = 0.0;
            for (size_t i = 0; i < (size_t)m.w * m.h * 3; i++) {
                /* RGBE keeps 8 bits below the largest component's exponent: a step of at most
                   1/128 of that component, which the encoder here truncates to */
                const float *px = m.rgb + i / 3 * 3;
                double big = fmax(px[0], fmax(px[1], px[2]));
                worst = fmax(worst, fabs((double)e.rgb[i] - m.rgb[i]) / big);
            }
            CHECK(e.width == m.w && e.height == m.h && worst <= 1.0 / 128.0,
                  "%s: %ux%u, texels off by %g", path, e.width, e.height, worst);
            CHECK(rc_env_bytes(&e) == rc_env_bytes_for(m.w, m.h), "bytes");
            rc_env_free(&e);
        }
        /* cut short: refused, naming what is missing (stb_image would pad with zeros) */
        for (size_t cut = len - 1; cut > len / 3; cut -= len / 5) {
            rc = rc_env_from_memory("cut.hdr", b, cut, limit, &e, &err);
            CHECK(rc != 0 && starts_with(err.msg, "cut.hdr: not a Radiance HDR image (truncated") &&
                      !strchr(err.msg, '\n'),
                  "%s cut at %zu of %zu: '%s'", rle ? "RLE" : "flat", cut, len,
                  rc ? err.msg : "loaded");
            if (rc == 0) rc_env_free(&e);
        }
        rc = rc_env_from_memory("head.hdr", b, 30, limit, &e, &err);
        CHECK(rc != 0 && !strcmp(err.msg, "head.hdr: not a Radiance HDR image (truncated: the "
                                          "file ends in its header)"),
              "'%s'", err.msg);
        free(b);
    }
    free(m.rgb);
    /* a bad header: the first line, the format, the layout */
    const char *bad[][2] = {
        {"#?RADIANCX\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\nxxxx",
         "bad.hdr: not a Radiance HDR image (no #?RADIANCE or #?RGBE first line)"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\nxxxx",
         "bad.hdr: not a Radiance HDR image (unsupported format (FORMAT=32-bit_rle_rgbe only))"},
        {"#?RGBE\nFORMAT=32-bit_rle_rgbe\n\n+Y 1 +X 1\nxxxx",
         "bad.hdr: not a Radiance HDR image (unsupported layout (only -Y H +X W))"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 0 +X 4\n",
         "bad.hdr: 4x0 pixels: each side must be 1 to 16384"},
        {"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 99999\n",
         "bad.hdr: 99999x2 pixels: each side must be 1 to 16384"},
        {"\x89PNG\r\n\x1a\n", "bad.hdr: not a Radiance HDR image (no #?RADIANCE or #?RGBE first "
                              "line)"},
        {"", "bad.hdr: not a Radiance HDR image (empty file)"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int rc = rc_env_from_memory("bad.hdr", (const unsigned char *)bad[k][0], strlen(bad[k][0]),
                                    limit, &e, &err);
        CHECK(rc != 0 && !strcmp(err.msg, bad[k][1]), "case %zu: '%s'", k, rc ? err.msg : "loaded");
    }
    /* over the size limit: refused from the header, before any pixel is read */
    const char *huge = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16384 +X 16384\n";
    int rc =
        rc_env_from_memory("huge.hdr", (const unsigned char *)huge, strlen(huge), limit, &e, &err);
    CHECK(rc != 0 && starts_with(err.msg, "huge.hdr: 16384x16384 pixels take ") &&
              strstr(err.msg, "over the limit of 67108864"),
          "'%s'", err.msg);
    /* a FIFO: refused at once */
    char fifo[4096];
    snprintf(fifo, sizeof fifo, "%s", path_of("pipe.hdr"));
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
    signal(SIGALRM, on_alarm);
    alarm(10);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = rc_env_load_file(fifo, limit, &e, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    alarm(0);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    char want[4200];
    snprintf(want, sizeof want, "%s: not a regular file", fifo);
    CHECK(rc != 0 && !strcmp(err.msg, want) && secs < 1.0, "'%s' after %g s", err.msg, secs);
    unlink(fifo);
    /* a file over the limit, and texels no decoder makes */
    rc = rc_env_load_file(path_of("rle.hdr"), 100, &e, &err);
    CHECK(rc != 0 && strstr(err.msg, "rle.hdr: file is larger than 100 bytes"), "'%s'", err.msg);
    float px[6] = {1, 1, 1, 1, -1, 1};
    rc = rc_env_build("neg", px, 2, 1, limit, &e, &err);
    CHECK(rc != 0 && !strcmp(err.msg, "neg: texel (1, 0) is negative or not finite"), "'%s'",
          err.msg);
    px[4] = NAN;
    rc = rc_env_build("nan", px, 2, 1, limit, &e, &err);
    CHECK(rc != 0 && !strcmp(err.msg, "nan: texel (1, 0) is negative or not finite"), "'%s'",
          err.msg);
    /* black everywhere: sampling still returns directions and densities, radiance 0 */
    float black[8 * 4 * 3] = {0};
    rc = rc_env_build("black", black, 8, 4, limit, &e, &err);
    CHECK(rc == 0, "%s", err.msg);
    if (rc == 0) {
        rc_env_view v = rc_env_view_make(&e, 0.0f, 1.0f);
        rc_vec3 d;
        float pdf;
        rc_vec3 L = rc_env_sample(&v, 0.3f, 0.6f, &d, &pdf);
        CHECK(pdf > 0.0f && L.x == 0.0f && near(rc_length(d), 1.0, 1e-5), "black map sample");
        rc_env_free(&e);
    }
}

/* tools/gen_env's sky: it loads, and most samples go to its sun, where it was asked to be. */
static void test_gen_env(const char *exe) {
    char out[4096], cmd[8400];
    snprintf(out, sizeof out, "%s", path_of("sky.hdr"));
    snprintf(cmd, sizeof cmd, "'%s' '%s' 256 35 30", exe, out);
    CHECK(system(cmd) == 0, "%s failed", cmd);
    rc_env_map e;
    rc_error err;
    int rc = rc_env_load_file(out, 64u << 20, &e, &err);
    CHECK(rc == 0, "%s", err.msg);
    if (rc != 0) return;
    CHECK(e.width == 256 && e.height == 128, "gen_env: %ux%u", e.width, e.height);
    double el = 35.0 * RC_PI / 180.0, az = 30.0 * RC_PI / 180.0;
    rc_vec3 sun = rc_v3((float)(cos(el) * sin(az)), (float)sin(el), (float)(-cos(el) * cos(az)));
    rc_env_view v = rc_env_view_make(&e, 0.0f, 1.0f);
    uint64_t s = 11;
    int near_sun = 0, n = 20000;
    for (int k = 0; k < n; k++) {
        rc_vec3 d;
        float pdf;
        float u1 = (float)uniform(&s), u2 = (float)uniform(&s);
        rc_env_sample(&v, u1, u2, &d, &pdf);
        near_sun += rc_dot(d, sun) > cosf(4.0f * RC_PI / 180.0f);
    }
    printf("test_envmap: gen_env's sky: %.1f %% of the samples within 4 degrees of the sun\n",
           100.0 * near_sun / n);
    CHECK(near_sun > n / 2, "gen_env: %d of %d samples near the sun", near_sun, n);
    CHECK(rc_env_radiance(&v, sun).x > 1000.0f, "the sun is bright");
    CHECK(rc_env_radiance(&v, rc_v3(0, 1, 0)).z > rc_env_radiance(&v, rc_v3(0, 1, 0)).x,
          "the zenith is blue");
    rc_env_free(&e);
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: test_envmap DIR [GEN_ENV]\n");
        return 2;
    }
    dir = argv[1];
    mkdir(dir, 0755);
    test_gamma();
    test_mapping();
    test_integral();
    test_chi2();
    test_loading();
    if (argc == 3) test_gen_env(argv[2]);
    return test_finish("test_envmap");
}
