/* test_texture.c: image textures (core/texture.h, scene/texture_load.c): the wrap modes at the
 * edges against texels worked out by hand, bilinear filtering against an analytic ramp, the
 * sRGB curve against its formula and its place before filtering, the mip pyramid's sizes and
 * means, the ray-cone level of detail on a plane against its closed form, and the loader's
 * one-line errors (a truncated PNG or JPEG, a FIFO refused at once, a huge header refused
 * before decoding). Usage: test_texture DIR (a directory for the files it writes). */
#define _POSIX_C_SOURCE 200809L
#include "png.h"
#include "rc_test.h"
#include "scene/texture_load.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef RC_TEST_HAVE_STB_WRITE
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STBI_WRITE_NO_STDIO
/* static: the functions this file does not call, and two that 2.27 declares and never
   defines, would be reported unused at the end of the file (where a pop would not reach) */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb_image_write.h>
#endif

static const char *dir;

static uint32_t rgba(unsigned r, unsigned g, unsigned b, unsigned a) {
    return r | g << 8 | b << 16 | a << 24;
}

/* A one-texture table from RGBA8 pixels. */
static rc_texture_view one_texture(rc_texture_table *tt, const unsigned char *px, uint32_t w,
                                   uint32_t h, int srgb, int mips, uint32_t wrap_s, uint32_t wrap_t,
                                   uint32_t filter) {
    rc_texture_table_init(tt);
    rc_texture_image img;
    rc_error err;
    int rc = rc_texture_from_rgba8("test", px, w, h, srgb, mips, (size_t)1 << 30, &img, &err);
    CHECK(rc == 0, "%s", err.msg);
    long id = rc_texture_table_add(tt, &img, wrap_s, wrap_t, filter, NULL, &err);
    CHECK(id == 0, "%s", err.msg);
    rc_texture_image_free(&img);
    return rc_texture_table_view(tt);
}

static int near(float a, float b, float tol) {
    return fabsf(a - b) <= tol;
}

/* ---- wrap modes ---- */

/* Texel (x, y) of the 4 x 2 test image: R = 40 x + 10, G = 100 y + 20. */
static void wrap_image(unsigned char *px) {
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++) {
            unsigned char *p = px + 4 * (y * 4 + x);
            p[0] = (unsigned char)(40 * x + 10);
            p[1] = (unsigned char)(100 * y + 20);
            p[2] = 7;
            p[3] = 255;
        }
}

static void test_wrap(void) {
    unsigned char px[4 * 8];
    wrap_image(px);
    const uint32_t modes[3] = {RC_WRAP_REPEAT, RC_WRAP_CLAMP_TO_EDGE, RC_WRAP_MIRRORED_REPEAT};
    /* u -> the column each mode reads (4 columns; worked out by hand from the glTF / OpenGL
       definitions: REPEAT is x mod 4; CLAMP_TO_EDGE clamps to 0..3; MIRRORED_REPEAT runs
       0 1 2 3 3 2 1 0 with period 8, column -1 reading column 0) */
    struct {
        float u;
        int col[3];
    } cases[] = {
        {0.10f, {0, 0, 0}},  {0.90f, {3, 3, 3}},  {-0.10f, {3, 0, 0}}, {1.10f, {0, 3, 3}},
        {-0.30f, {2, 0, 1}}, {2.05f, {0, 3, 0}},  {1.80f, {3, 3, 0}},  {1.30f, {1, 3, 2}},
        {-1.1f, {3, 0, 3}},  {-2.05f, {3, 0, 0}}, {7.60f, {2, 3, 1}},  {-0.60f, {1, 0, 2}},
    };
    for (int m = 0; m < 3; m++) {
        rc_texture_table tt;
        rc_texture_view v = one_texture(&tt, px, 4, 2, 0, 0, modes[m], modes[m], RC_FILTER_NEAREST);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            rc_rgba s = rc_tex_sample(&v, 0, cases[c].u, 0.25f, 0.0f);
            int col = cases[c].col[m];
            CHECK(near(s.r, (40.0f * col + 10.0f) / 255.0f, 1e-6f) &&
                      near(s.g, 20.0f / 255.0f, 1e-6f),
                  "mode %u u %g: read R %g, want column %d", modes[m], cases[c].u, s.r * 255.0f,
                  col);
        }
        /* rows the same way: v = 1.25 is row 0 under REPEAT, row 1 under CLAMP, row 1 mirrored */
        rc_rgba s = rc_tex_sample(&v, 0, 0.1f, 1.25f, 0.0f);
        int row = m == 0 ? 0 : 1;
        CHECK(near(s.g, (100.0f * row + 20.0f) / 255.0f, 1e-6f), "mode %u v 1.25: G %g", modes[m],
              s.g * 255.0f);
        rc_texture_table_free(&tt);
    }
    /* bilinear at the left edge u = 0, half way between column -1 and column 0 */
    for (int m = 0; m < 3; m++) {
        rc_texture_table tt;
        rc_texture_view v =
            one_texture(&tt, px, 4, 2, 0, 0, modes[m], modes[m], RC_FILTER_BILINEAR);
        rc_rgba s = rc_tex_sample(&v, 0, 0.0f, 0.25f, 0.0f);
        float want = m == 0 ? (10.0f + 130.0f) / 2.0f : 10.0f;
        CHECK(near(s.r * 255.0f, want, 1e-3f), "bilinear mode %u at u = 0: R %g, want %g", modes[m],
              s.r * 255.0f, want);
        /* and a quarter texel inside the right edge under REPEAT: 3/4 of column 3, 1/4 of 0 */
        s = rc_tex_sample(&v, 0, 1.0f - 0.25f / 4.0f, 0.25f, 0.0f);
        want = m == 0 ? 0.75f * 130.0f + 0.25f * 10.0f : 130.0f;
        CHECK(near(s.r * 255.0f, want, 1e-3f), "bilinear mode %u near u = 1: R %g, want %g",
              modes[m], s.r * 255.0f, want);
        rc_texture_table_free(&tt);
    }
    /* NaN and huge coordinates read a texel, never outside the array */
    rc_texture_table tt;
    rc_texture_view v = one_texture(&tt, px, 4, 2, 0, 0, RC_WRAP_REPEAT, RC_WRAP_MIRRORED_REPEAT,
                                    RC_FILTER_BILINEAR);
    rc_rgba s = rc_tex_sample(&v, 0, NAN, 1e38f, 0.0f);
    CHECK(s.r >= 0.0f && s.r <= 1.0f, "NaN uv: R %g", s.r);
    s = rc_tex_sample(&v, 0, -3e9f, INFINITY, NAN);
    CHECK(s.r >= 0.0f && s.r <= 1.0f, "huge uv: R %g", s.r);
    s = rc_tex_sample(&v, 5, 0.5f, 0.5f, 0.0f);
    CHECK(s.r == 1.0f && s.g == 0.0f && s.b == 1.0f, "an id outside the table reads magenta");
    rc_texture_table_free(&tt);
}

/* ---- bilinear against a ramp; the uv transform ---- */

static void test_bilinear(void) {
    enum { W = 16, H = 8 };
    unsigned char px[4 * W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned char *p = px + 4 * (y * W + x);
            p[0] = (unsigned char)(16 * x);
            p[1] = (unsigned char)(30 * y);
            p[2] = (unsigned char)(255 - 16 * x);
            p[3] = 255;
        }
    rc_texture_table tt;
    rc_texture_view v = one_texture(&tt, px, W, H, 0, 0, RC_WRAP_CLAMP_TO_EDGE,
                                    RC_WRAP_CLAMP_TO_EDGE, RC_FILTER_BILINEAR);
    uint32_t s = 12345u;
    float worst = 0.0f;
    for (int k = 0; k < 2000; k++) {
        s = s * 1664525u + 1013904223u;
        float u = (float)(s >> 8) / 16777216.0f;
        s = s * 1664525u + 1013904223u;
        float vv = (float)(s >> 8) / 16777216.0f;
        rc_rgba c = rc_tex_sample(&v, 0, u, vv, 0.0f);
        /* the ramp is linear in the texel centres' coordinates, clamped at the edge centres */
        float x = fminf(fmaxf(u * W - 0.5f, 0.0f), W - 1.0f);
        float y = fminf(fmaxf(vv * H - 0.5f, 0.0f), H - 1.0f);
        float er = fabsf(c.r - 16.0f * x / 255.0f), eg = fabsf(c.g - 30.0f * y / 255.0f);
        float eb = fabsf(c.b - (255.0f - 16.0f * x) / 255.0f);
        worst = fmaxf(worst, fmaxf(er, fmaxf(eg, eb)));
    }
    CHECK(worst < 2e-6f, "bilinear off the ramp by %g", worst);
    /* the transform: scale 2 and offset (0.25, 0): u' = 2 u + 0.25 */
    rc_texture *t = (rc_texture *)&tt.textures[0];
    rc_tex_transform_make(0.25f, 0.0f, 0.0f, 2.0f, 1.0f, t->xform);
    rc_rgba c = rc_tex_sample(&v, 0, 0.2f, 0.5f, 0.0f);
    CHECK(near(c.r, 16.0f * ((2.0f * 0.2f + 0.25f) * W - 0.5f) / 255.0f, 2e-6f),
          "offset and scale: R %g", c.r);
    /* a quarter turn: KHR_texture_transform's R maps (u, v) to (v, -u) */
    rc_tex_transform_make(0.0f, 1.0f, RC_PI / 2.0f, 1.0f, 1.0f, t->xform);
    c = rc_tex_sample(&v, 0, 0.3f, 0.6f, 0.0f);
    CHECK(near(c.r, 16.0f * (0.6f * W - 0.5f) / 255.0f, 1e-5f) &&
              near(c.g, 30.0f * ((1.0f - 0.3f) * H - 0.5f) / 255.0f, 1e-5f),
          "rotation: R %g G %g", c.r, c.g);
    rc_texture_table_free(&tt);
}

/* ---- sRGB ---- */

static void test_srgb(void) {
    double worst = 0.0;
    for (unsigned b = 0; b < 256; b++) {
        double c = b / 255.0;
        double want = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
        rc_rgba t = rc_tex_decode(rgba(b, b, b, b), 1);
        double e = fabs(t.r - want) / (want > 1e-3 ? want : 1e-3);
        if (e > worst) worst = e;
        CHECK(near(t.a, (float)b / 255.0f, 1e-7f), "alpha stays linear");
        /* encoding the decoded value again gives the byte back */
        long back = lrintf(rc_tex_linear_to_srgb(t.r) * 255.0f);
        CHECK(back == (long)b, "byte %u decodes and encodes to %ld", b, back);
    }
    CHECK(worst < 2e-6, "sRGB decode off the formula by %g (relative)", worst);
    /* decoded before filtering: half way between black and white is 0.5 of the light */
    unsigned char px[8] = {0, 0, 0, 255, 255, 255, 255, 255};
    rc_texture_table tt;
    rc_texture_view v = one_texture(&tt, px, 2, 1, 1, 0, RC_WRAP_CLAMP_TO_EDGE,
                                    RC_WRAP_CLAMP_TO_EDGE, RC_FILTER_BILINEAR);
    rc_rgba c = rc_tex_sample(&v, 0, 0.5f, 0.5f, 0.0f);
    CHECK(near(c.r, 0.5f, 1e-6f), "sRGB black-white midpoint: %g, want 0.5", c.r);
    rc_texture_table_free(&tt);
}

/* ---- the mip pyramid ---- */

static void level_mean(const rc_texture_image *img, uint32_t l, double mean[4]) {
    size_t n = (size_t)img->width[l] * img->height[l];
    for (int k = 0; k < 4; k++) mean[k] = 0.0;
    for (size_t i = 0; i < n; i++) {
        rc_rgba c = rc_tex_decode(img->texels[img->offset[l] + i], (uint32_t)img->srgb);
        mean[0] += c.r, mean[1] += c.g, mean[2] += c.b, mean[3] += c.a;
    }
    for (int k = 0; k < 4; k++) mean[k] /= (double)n;
}

static void test_mips(void) {
    const uint32_t sizes[][2] = {{37, 23}, {64, 64}, {1, 9}, {300, 7}};
    const uint32_t levels[] = {6, 7, 4, 9};
    for (size_t si = 0; si < 4; si++) {
        uint32_t w = sizes[si][0], h = sizes[si][1];
        unsigned char *px = malloc((size_t)w * h * 4);
        uint32_t s = 99u + w;
        for (size_t i = 0; i < (size_t)w * h * 4; i++) {
            s ^= s << 13, s ^= s >> 17, s ^= s << 5;
            px[i] = (unsigned char)(i % 4 == 0 ? (i / 4 % w) * 255 / w : s >> 24);
        }
        for (int srgb = 0; srgb < 2; srgb++) {
            rc_texture_image img;
            rc_error err;
            int rc = rc_texture_from_rgba8("mips", px, w, h, srgb, 1, (size_t)1 << 30, &img, &err);
            CHECK(rc == 0, "%s", err.msg);
            if (rc) continue;
            CHECK(img.levels == levels[si], "%ux%u: %u levels, want %u", w, h, img.levels,
                  levels[si]);
            CHECK(img.width[img.levels - 1] == 1 && img.height[img.levels - 1] == 1,
                  "%ux%u: the last level is 1x1", w, h);
            for (uint32_t l = 1; l < img.levels; l++)
                CHECK(img.width[l] == (img.width[l - 1] > 1 ? img.width[l - 1] / 2 : 1) &&
                          img.height[l] == (img.height[l - 1] > 1 ? img.height[l - 1] / 2 : 1),
                      "%ux%u level %u: %ux%u", w, h, l, img.width[l], img.height[l]);
            double m0[4], m[4];
            level_mean(&img, 0, m0);
            for (uint32_t l = 1; l < img.levels; l++) {
                level_mean(&img, l, m);
                for (int k = 0; k < 4; k++)
                    CHECK(fabs(m[k] - m0[k]) < 3e-3,
                          "%ux%u %s level %u channel %d: mean %g, level 0 %g", w, h,
                          srgb ? "sRGB" : "linear", l, k, m[k], m0[k]);
            }
            /* trilinear at lod 1.5 is the mean of the bilinear values of levels 1 and 2 */
            rc_texture_table tt;
            rc_texture_table_init(&tt);
            rc_texture_table_add(&tt, &img, RC_WRAP_REPEAT, RC_WRAP_REPEAT, RC_FILTER_TRILINEAR,
                                 NULL, &err);
            rc_texture_view v = rc_texture_table_view(&tt);
            const rc_texture *t = &v.textures[0];
            if (t->levels > 2) {
                rc_rgba a = rc_tex_bilinear(&v, t, 1, 0.3f, 0.7f);
                rc_rgba b = rc_tex_bilinear(&v, t, 2, 0.3f, 0.7f);
                rc_rgba c = rc_tex_sample(&v, 0, 0.3f, 0.7f, 1.5f);
                CHECK(near(c.r, 0.5f * (a.r + b.r), 1e-6f), "trilinear at 1.5");
                rc_rgba top = rc_tex_sample(&v, 0, 0.3f, 0.7f, 100.0f);
                CHECK(near(top.g, (float)m0[1], 3e-3f), "lod past the top reads the 1x1 mean");
            }
            CHECK(rc_texture_table_bytes(&tt) == sizeof(rc_texture) + rc_texture_image_bytes(&img),
                  "the table's bytes");
            rc_texture_table_free(&tt);
            rc_texture_image_free(&img);
        }
        free(px);
    }
}

/* ---- ray cones ---- */

static void test_cones(void) {
    const float vfov = 60.0f * RC_PI / 180.0f, height = 480.0f;
    float alpha = rc_cone_spread_angle(vfov, height);
    CHECK(near(alpha, atanf(2.0f * tanf(vfov / 2.0f) / height), 1e-9f), "spread angle");
    /* a small field of view: one pixel's angle is vfov / height */
    CHECK(near(rc_cone_spread_angle(0.01f, 100.0f), 1e-4f, 1e-9f), "small-angle spread");
    /* A square of side S at distance d in front of the camera, textured once with a T x T
       texture; the central ray meets it head on. One pixel there spans alpha d units of the
       square, S / T units a texel, so the pixel covers alpha d T / S texels a side and the
       mip level is log2 of that. */
    const float S = 3.0f, T = 512.0f;
    const float ds[] = {1.0f, 7.5f, 40.0f, 300.0f};
    for (int k = 0; k < 4; k++) {
        float d = ds[k];
        rc_vec3 p0 = rc_v3(-S / 2, -S / 2, -d), p1 = rc_v3(S / 2, -S / 2, -d),
                p2 = rc_v3(S / 2, S / 2, -d);
        float delta = rc_tri_lod_constant(p0, p1, p2, 0, 1, 1, 1, 1, 0);
        rc_cone c = rc_cone_primary(vfov, height);
        float wdt = rc_cone_width_at(c, d);
        float lod = rc_cone_lod(delta, wdt, -1.0f, T, T);
        float want = log2f(alpha * d * T / S);
        CHECK(near(lod, want, 1e-4f), "d %g: lod %g, want %g", d, lod, want);
        /* the same square tilted 60 degrees: the footprint stretches by 1 / cos = 2, one level */
        float lod60 = rc_cone_lod(delta, wdt, 0.5f, T, T);
        CHECK(near(lod60, want + 1.0f, 1e-4f), "d %g at 60 degrees: lod %g, want %g", d, lod60,
              want + 1.0f);
    }
    /* a flat mirror keeps the spread (beta = 0): after t1 and t2 the width is alpha (t1 + t2) */
    rc_cone c = rc_cone_propagate(rc_cone_primary(vfov, height), 2.0f, 0.0f);
    CHECK(near(rc_cone_width_at(c, 3.0f), alpha * 5.0f, 1e-7f), "propagated width");
    c = rc_cone_propagate(c, 3.0f, 0.01f);
    CHECK(near(c.spread, alpha + 0.01f, 1e-7f) &&
              near(rc_cone_width_at(c, 1.0f), alpha * 5.0f + alpha + 0.01f, 1e-6f),
          "surface spread adds to the cone angle");
    /* degenerate inputs give finite levels */
    CHECK(rc_cone_lod(-INFINITY, 0.0f, 1.0f, T, T) == 0.0f, "zero width: level 0");
    CHECK(isfinite(rc_cone_lod(1.0f, 1.0f, 0.0f, T, T)), "grazing: a finite (large) level");
}

/* ---- loading ---- */

static int starts_with(const char *s, const char *p) {
    return strncmp(s, p, strlen(p)) == 0;
}

static int one_line(const char *s) {
    return *s && !strchr(s, '\n');
}

static char *path_of(const char *name) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static void write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "%s: %s", path, strerror(errno));
    if (!f) return;
    fwrite(data, 1, len, f);
    fclose(f);
}

/* A PNG (the project's writer, RGB) of a w x h gradient, in memory. */
static unsigned char *make_png(uint32_t w, uint32_t h, size_t *len, unsigned char **rgb_out) {
    unsigned char *rgb = malloc((size_t)w * h * 3);
    for (size_t i = 0; i < (size_t)w * h * 3; i++) rgb[i] = (unsigned char)(i * 7 + i / 3);
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    rc_png_write(f, rgb, w, h, 1);
    fclose(f);
    *rgb_out = rgb;
    return (unsigned char *)buf;
}

static void put_be32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* The signature, an IHDR of w x h (8-bit RGBA) and an IEND: a header with no image. */
static size_t png_header_only(unsigned char *b, uint32_t w, uint32_t h) {
    memcpy(b, "\x89PNG\r\n\x1a\n", 8);
    put_be32(b + 8, 13);
    memcpy(b + 12, "IHDR", 4);
    put_be32(b + 16, w);
    put_be32(b + 20, h);
    b[24] = 8, b[25] = 6, b[26] = 0, b[27] = 0, b[28] = 0;
    put_be32(b + 29, 0); /* CRC, not checked by the header read */
    put_be32(b + 33, 0);
    memcpy(b + 37, "IEND", 4);
    put_be32(b + 41, 0xAE426082u);
    return 45;
}

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "test_texture: a load blocked (FIFO)\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(1);
    _exit(1);
}

#ifdef RC_TEST_HAVE_STB_WRITE
static void to_mem(void *ctx, void *data, int size) {
    FILE *f = ctx;
    fwrite(data, 1, (size_t)size, f);
}
#endif

static void test_loading(void) {
    rc_error err;
    rc_texture_image img;
    const size_t limit = 64u << 20;
    /* a good PNG, through a file: the texels as written, opaque */
    size_t len;
    unsigned char *rgb;
    unsigned char *png = make_png(21, 13, &len, &rgb);
    char good[4096];
    snprintf(good, sizeof good, "%s", path_of("good.png"));
    write_file(good, png, len);
    int rc = rc_texture_load_file(good, 0, 1, limit, &img, &err);
    CHECK(rc == 0, "%s", err.msg);
    if (rc == 0) {
        int same = img.width[0] == 21 && img.height[0] == 13 && img.levels == 5;
        for (size_t i = 0; same && i < 21 * 13; i++)
            same = img.texels[i] == rgba(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 255);
        CHECK(same, "the PNG's texels come back as written");
        CHECK(rc_texture_image_bytes(&img) == 4 * (21 * 13 + 10 * 6 + 5 * 3 + 2 * 1 + 1),
              "bytes: %zu", rc_texture_image_bytes(&img));
        rc_texture_image_free(&img);
    }
    /* truncated: one line naming the file */
    for (size_t cut = 8; cut < len; cut += len / 5 + 1) {
        rc = rc_texture_from_memory("cut.png", png, cut, 1, 1, limit, &img, &err);
        CHECK(rc != 0 && starts_with(err.msg, "cut.png: not a PNG or JPEG image (stb_image: ") &&
                  one_line(err.msg),
              "a PNG cut at %zu of %zu: '%s'", cut, len, rc ? err.msg : "loaded");
    }
    /* the last chunk (IEND) missing */
    rc = rc_texture_from_memory("noend.png", png, len - 12, 1, 1, limit, &img, &err);
    CHECK(rc != 0 && strstr(err.msg, "truncated"), "no IEND: '%s'", rc ? err.msg : "loaded");
    free(png);
    free(rgb);
    /* not an image */
    rc = rc_texture_from_memory("hello.png", (const unsigned char *)"hello", 5, 1, 1, limit, &img,
                                &err);
    CHECK(rc != 0 && !strcmp(err.msg, "hello.png: not a PNG or JPEG image (stb_image: unknown "
                                      "image type)"),
          "'%s'", err.msg);
    /* a huge header is refused before decoding, by what the pyramid would take */
    unsigned char hdr[64];
    size_t n = png_header_only(hdr, 16384, 16384);
    rc = rc_texture_from_memory("huge.png", hdr, n, 1, 1, limit, &img, &err);
    CHECK(rc != 0 &&
              starts_with(err.msg, "huge.png: 16384x16384 pixels and their mip levels take ") &&
              strstr(err.msg, "over the limit of 67108864") && one_line(err.msg),
          "'%s'", err.msg);
    n = png_header_only(hdr, 20000, 4);
    rc = rc_texture_from_memory("wide.png", hdr, n, 1, 1, limit, &img, &err);
    CHECK(rc != 0 && !strcmp(err.msg, "wide.png: 20000x4 pixels: each side must be 1 to 16384"),
          "'%s'", err.msg);
    /* within the limits, the header alone fails in the decoder, still one line */
    n = png_header_only(hdr, 4, 4);
    rc = rc_texture_from_memory("empty.png", hdr, n, 1, 1, limit, &img, &err);
    CHECK(rc != 0 && starts_with(err.msg, "empty.png: not a PNG or JPEG image (stb_image: ") &&
              one_line(err.msg),
          "'%s'", err.msg);
    /* a FIFO: refused at once (an alarm ends the test if the open waits for a writer) */
    char fifo[4096];
    snprintf(fifo, sizeof fifo, "%s", path_of("pipe.png"));
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
    signal(SIGALRM, on_alarm);
    alarm(10);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = rc_texture_load_file(fifo, 1, 1, limit, &img, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    alarm(0);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    char want[4200];
    snprintf(want, sizeof want, "%s: not a regular file", fifo);
    CHECK(rc != 0 && !strcmp(err.msg, want), "'%s'", err.msg);
    CHECK(secs < 1.0, "the FIFO took %g s", secs);
    unlink(fifo);
    /* a directory, a missing file, a file over the limit */
    rc = rc_texture_load_file(dir, 1, 1, limit, &img, &err);
    CHECK(rc != 0 && strstr(err.msg, ": is a directory"), "'%s'", err.msg);
    rc = rc_texture_load_file(path_of("missing.png"), 1, 1, limit, &img, &err);
    CHECK(rc != 0 && strstr(err.msg, "missing.png: cannot open: "), "'%s'", err.msg);
    rc = rc_texture_load_file(good, 1, 1, 100, &img, &err);
    CHECK(rc != 0 && strstr(err.msg, "good.png: file is larger than 100 bytes"), "'%s'", err.msg);
#ifdef RC_TEST_HAVE_STB_WRITE
    /* JPEG: decodes, and cut short it is refused (stb_image alone would pad it with grey) */
    unsigned char px[32 * 16 * 3];
    for (size_t i = 0; i < sizeof px; i++) px[i] = (unsigned char)(i % 3 == 0 ? 200 : 60);
    char *jbuf = NULL;
    size_t jlen = 0;
    FILE *f = open_memstream(&jbuf, &jlen);
    stbi_write_jpg_to_func(to_mem, f, 32, 16, 3, px, 95);
    fclose(f);
    rc = rc_texture_from_memory("ok.jpg", (unsigned char *)jbuf, jlen, 1, 0, limit, &img, &err);
    CHECK(rc == 0, "%s", err.msg);
    if (rc == 0) {
        CHECK(img.width[0] == 32 && img.height[0] == 16 && img.levels == 1, "JPEG size");
        unsigned r = img.texels[5] & 255u, g = (img.texels[5] >> 8) & 255u;
        CHECK(abs((int)r - 200) < 8 && abs((int)g - 60) < 8, "JPEG colour %u %u", r, g);
        rc_texture_image_free(&img);
    }
    rc = rc_texture_from_memory("cut.jpg", (unsigned char *)jbuf, jlen - 40, 1, 0, limit, &img,
                                &err);
    CHECK(rc != 0 &&
              starts_with(err.msg, "cut.jpg: not a PNG or JPEG image (stb_image: truncated") &&
              one_line(err.msg),
          "'%s'", rc ? err.msg : "loaded");
    rc = rc_texture_from_memory("head.jpg", (unsigned char *)jbuf, 100, 1, 0, limit, &img, &err);
    CHECK(rc != 0 && starts_with(err.msg, "head.jpg: not a PNG or JPEG image (stb_image: ") &&
              one_line(err.msg),
          "'%s'", rc ? err.msg : "loaded");
    free(jbuf);
#endif
    /* the table refuses unknown sampler values */
    rc_texture_table tt;
    rc_texture_table_init(&tt);
    unsigned char one[4] = {1, 2, 3, 4};
    rc = rc_texture_from_rgba8("one", one, 1, 1, 0, 1, limit, &img, &err);
    CHECK(rc == 0 && img.levels == 1, "1x1: one level");
    CHECK(rc_texture_table_add(&tt, &img, 9729, RC_WRAP_REPEAT, 0, NULL, &err) == -1 &&
              strstr(err.msg, "wrap mode 9729"),
          "'%s'", err.msg);
    CHECK(rc_texture_table_add(&tt, &img, RC_WRAP_REPEAT, RC_WRAP_REPEAT, 3, NULL, &err) == -1 &&
              strstr(err.msg, "filter 3"),
          "'%s'", err.msg);
    rc_texture_image_free(&img);
    rc_texture_table_free(&tt);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_texture DIR\n");
        return 2;
    }
    dir = argv[1];
    mkdir(dir, 0755);
    test_wrap();
    test_bilinear();
    test_srgb();
    test_mips();
    test_cones();
    test_loading();
    return test_finish("test_texture");
}
