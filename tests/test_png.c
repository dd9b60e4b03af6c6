/* test_png.c: the PNG writer (png.c) and rc_image_write's PNGs, read back with stb_image: every
 * byte as written, the same file with 1 thread and with many, errors returned and no file left
 * behind. Usage: test_png DIR (a directory for the files it writes). */
#define _POSIX_C_SOURCE 200809L
#include "core/tonemap.h"
#include "image.h"
#include "png.h"
#include "rc_test.h"
#include "read_file.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#include <stb_image.h>

typedef enum { FLAT, GRADIENT, NOISE, MIXED, PATTERNS } pattern;
static const char *pattern_name[PATTERNS] = {"flat", "gradient", "noise", "mixed"};

static uint32_t next_random(uint32_t *s) {
    *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
    return *s;
}

/* An 8-bit image: flat, a gradient, noise, or smooth on top and noise below. */
static unsigned char *make_image(uint32_t w, uint32_t h, pattern p) {
    unsigned char *px = malloc((size_t)w * h * 3 + 1);
    uint32_t s = 2463534242u + w * 31 + h;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (uint32_t c = 0; c < 3; c++) {
                unsigned char *v = px + ((size_t)y * w + x) * 3 + c;
                if (p == FLAT)
                    *v = (unsigned char)(40 + 50 * c);
                else if (p == GRADIENT || (p == MIXED && y < h / 2))
                    *v = (unsigned char)((x * 255 / (w > 1 ? w - 1 : 1) + y * (c + 1)) & 255);
                else
                    *v = (unsigned char)next_random(&s);
            }
    return px;
}

/* The PNG of px in memory (malloc'd, *len bytes), written with `threads`. */
static unsigned char *png_bytes(const unsigned char *px, uint32_t w, uint32_t h, unsigned threads,
                                size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    int e = rc_png_write(f, px, w, h, threads);
    fclose(f);
    CHECK(e == 0, "%ux%u, %u threads: %s", w, h, threads, strerror(e));
    return (unsigned char *)buf;
}

/* CRC-32 bit by bit (PNG spec, annex D), apart from zlib's. */
static uint32_t crc_bits(const unsigned char *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return ~c;
}

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* What stb_image does not check: every chunk's CRC, IEND last, and the IDATs one zlib stream
 * that inflates, its adler32 checked, to a filter byte and 3 w bytes a row. */
static void check_chunks(const unsigned char *png, size_t len, uint32_t w, uint32_t h,
                         const char *what) {
    unsigned char *z = malloc(len), *raw = malloc((size_t)h * (3 * w + 1) + 1);
    size_t nz = 0, at = 8, chunks = 0;
    int end = 0;
    while (!end && at + 12 <= len && be32(png + at) <= len - at - 12) {
        uint32_t n = be32(png + at);
        const unsigned char *type = png + at + 4;
        CHECK(crc_bits(type, 4 + (size_t)n) == be32(type + 4 + n), "%s: chunk %zu (%.4s): bad CRC",
              what, chunks, (const char *)type);
        if (memcmp(type, "IDAT", 4) == 0) memcpy(z + nz, type + 4, n), nz += n;
        end = memcmp(type, "IEND", 4) == 0;
        at += 12 + (size_t)n, chunks++;
    }
    CHECK(end && at == len, "%s: IEND is not the last %zu bytes' end", what, len);
    uLongf nraw = (uLongf)h * (3 * w + 1) + 1;
    int zr = uncompress(raw, &nraw, z, (uLong)nz);
    CHECK(zr == Z_OK && nraw == (uLongf)h * (3 * w + 1), "%s: inflate: %d, %lu bytes", what, zr,
          (unsigned long)nraw);
    free(raw);
    free(z);
}

/* Decoded by stb_image, the PNG is px, byte for byte. */
static void check_decodes(const unsigned char *png, size_t len, const unsigned char *px, uint32_t w,
                          uint32_t h, const char *what) {
    int dw = 0, dh = 0, comp = 0;
    check_chunks(png, len, w, h, what);
    unsigned char *got = stbi_load_from_memory(png, (int)len, &dw, &dh, &comp, 3);
    CHECK(got != NULL, "%s: stb_image: %s", what, stbi_failure_reason());
    if (!got) return;
    CHECK(dw == (int)w && dh == (int)h && comp == 3, "%s: decoded %dx%d, %d channels", what, dw, dh,
          comp);
    CHECK(memcmp(got, px, (size_t)w * h * 3) == 0, "%s: the pixels differ", what);
    stbi_image_free(got);
}

/* Every pattern at w x h: decodes to itself, the same bytes with 1, 2, 5 and automatic threads. */
static void check_size(uint32_t w, uint32_t h) {
    for (int p = 0; p < PATTERNS; p++) {
        char what[96];
        snprintf(what, sizeof what, "%ux%u %s", w, h, pattern_name[p]);
        unsigned char *px = make_image(w, h, (pattern)p);
        size_t len1 = 0, len = 0;
        unsigned char *one = png_bytes(px, w, h, 1, &len1);
        if (one) check_decodes(one, len1, px, w, h, what);
        unsigned threads[] = {2, 5, 0};
        for (size_t t = 0; one && t < sizeof threads / sizeof *threads; t++) {
            unsigned char *many = png_bytes(px, w, h, threads[t], &len);
            CHECK(many && len == len1 && memcmp(many, one, len) == 0,
                  "%s: %u threads wrote another file than 1 thread", what, threads[t]);
            free(many);
        }
        free(one);
        free(px);
    }
}

/* rc_image_write's PNG holds today's conversion: lrintf(rc_linear_to_srgb(v) * 255). */
static void check_image_write(const char *dir) {
    uint32_t w = 1000, h = 700, s = 1;
    float *rgb = malloc((size_t)w * h * 3 * sizeof *rgb);
    unsigned char *want = malloc((size_t)w * h * 3);
    for (size_t i = 0; i < (size_t)w * h * 3; i++) {
        float v = i % 5 == 0 ? (float)(next_random(&s) % 3000) / 1000.0f - 0.5f
                             : (float)(i % 3001) / 3000.0f;
        rgb[i] = i % 7919 == 0 ? NAN : v;
        want[i] = (unsigned char)lrintf(rc_linear_to_srgb(rgb[i]) * 255.0f);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/image.png", dir);
    rc_error err;
    CHECK(rc_image_write(path, rgb, w, h, &err) == 0, "%s", err.msg);
    size_t len = 0;
    char *png = read_file(path, (size_t)1 << 28, &len, NULL, 0);
    CHECK(png != NULL, "%s: %s", path, strerror(errno));
    if (png) check_decodes((unsigned char *)png, len, want, w, h, "rc_image_write 1000x700");
    free(png);
    free(want);
    free(rgb);
}

/* The display of a PNG (core/tonemap.h): exposure 0 and clip write what rc_image_write does;
 * an exposure and each tone map write their closed forms; the curves themselves at known
 * points (aces: 1 -> 0.8037, monotone, below 1; reinhard: luminance L -> L / (1 + L), hue
 * kept). */
static void check_display(const char *dir) {
    CHECK(rc_aces_fit(0.0f) == 0.0f && fabsf(rc_aces_fit(1.0f) - 0.80375f) < 1e-4f, "aces(1) = %g",
          rc_aces_fit(1.0f));
    float prev = 0.0f;
    for (float x = 0.01f; x < 100.0f; x *= 1.1f) {
        float y = rc_aces_fit(x);
        CHECK(y >= prev && y <= 1.0f, "aces not monotone in [0, 1] at %g: %g", x, y);
        prev = y;
    }
    rc_vec3 c = rc_v3(0.5f, 1.0f, 2.0f), t = rc_tonemap(RC_TONEMAP_REINHARD, c);
    float l = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z,
          lt = 0.2126f * t.x + 0.7152f * t.y + 0.0722f * t.z;
    CHECK(fabsf(lt - l / (1.0f + l)) < 1e-6f && fabsf(t.z / t.x - 4.0f) < 1e-5f,
          "reinhard: luminance %g, want %g", lt, l / (1.0f + l));
    enum { W = 64, H = 3 };
    float rgb[W * H * 3];
    for (int i = 0; i < W * H * 3; i++) rgb[i] = (float)i / 40.0f; /* 0 .. about 14 */
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/display_plain.png", dir);
    snprintf(b, sizeof b, "%s/display_default.png", dir);
    rc_error err;
    const rc_display plain = {0.0f, RC_TONEMAP_CLIP};
    CHECK(rc_image_write(a, rgb, W, H, &err) == 0 &&
              rc_image_write_display(b, rgb, W, H, &plain, &err) == 0,
          "%s", err.msg);
    size_t la = 0, lb = 0;
    char *pa = read_file(a, 1 << 20, &la, NULL, 0), *pb = read_file(b, 1 << 20, &lb, NULL, 0);
    CHECK(pa && pb && la == lb && memcmp(pa, pb, la) == 0, "exposure 0, clip: other bytes");
    free(pa);
    free(pb);
    for (int op = 0; op < RC_TONEMAP_COUNT; op++) {
        const rc_display d = {-1.5f, op};
        unsigned char want[W * H * 3];
        for (int p = 0; p < W * H; p++) {
            rc_vec3 v = rc_tonemap(
                op, rc_scale(rc_v3(rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]), exp2f(-1.5f)));
            want[3 * p] = (unsigned char)lrintf(rc_linear_to_srgb(v.x) * 255.0f);
            want[3 * p + 1] = (unsigned char)lrintf(rc_linear_to_srgb(v.y) * 255.0f);
            want[3 * p + 2] = (unsigned char)lrintf(rc_linear_to_srgb(v.z) * 255.0f);
        }
        CHECK(rc_image_write_display(b, rgb, W, H, &d, &err) == 0, "%s", err.msg);
        size_t len = 0;
        char *png = read_file(b, 1 << 20, &len, NULL, 0);
        if (png) check_decodes((unsigned char *)png, len, want, W, H, rc_tonemap_name(op));
        free(png);
    }
}

/* No temporary file (NAME.tmpXXXXXX) is left in dir. */
static void check_no_temporaries(const char *dir, const char *what) {
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        CHECK(strstr(e->d_name, ".tmp") == NULL, "%s: %s/%s left behind", what, dir, e->d_name);
    if (d) closedir(d);
}

/* Errors come back, and a failed write leaves the good file it would have replaced. */
static void check_errors(const char *dir) {
    FILE *full = fopen("/dev/full", "wb");
    if (full) { /* the write error itself, from the writer */
        unsigned char *px = make_image(300, 200, NOISE);
        CHECK(rc_png_write(full, px, 300, 200, 0) == ENOSPC, "/dev/full: no ENOSPC");
        fclose(full);
        free(px);
    }
    char path[4096];
    rc_error err;
    float grey[3 * 4] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    snprintf(path, sizeof path, "%s/nosuch/x.png", dir);
    CHECK(rc_image_write(path, grey, 2, 2, &err) != 0, "%s: written", path);
    CHECK(access(path, F_OK) != 0, "%s: exists", path);

    /* A file-size limit (RLIMIT_FSIZE, which binds root too) stops a large image half way. */
    snprintf(path, sizeof path, "%s/keep.png", dir);
    CHECK(rc_image_write(path, grey, 2, 2, &err) == 0, "%s", err.msg);
    size_t len0 = 0, len1 = 0;
    char *before = read_file(path, 1 << 20, &len0, NULL, 0);
    struct rlimit old, small;
    getrlimit(RLIMIT_FSIZE, &old);
    small = old;
    small.rlim_cur = 16384;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &small);
    uint32_t w = 1000, h = 700, s = 7;
    float *noise = malloc((size_t)w * h * 3 * sizeof *noise);
    for (size_t i = 0; i < (size_t)w * h * 3; i++)
        noise[i] = (float)(next_random(&s) % 1000) / 999.0f;
    int rc = rc_image_write(path, noise, w, h, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(rc != 0 && strstr(err.msg, "cannot write"), "over the size limit: %s",
          rc ? err.msg : "written");
    char *after = read_file(path, 1 << 20, &len1, NULL, 0);
    CHECK(before && after && len0 == len1 && memcmp(before, after, len0) == 0,
          "%s: changed by the failed write", path);
    check_no_temporaries(dir, "a failed write");
    free(noise);
    free(before);
    free(after);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_png DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "test_png: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    /* pieces: one, several with a short last one, a whole number of them, one row each */
    uint32_t sizes[][2] = {{1, 1},   {3, 2},  {7, 5},      {1, 300},
                           {333, 0}, {64, 0}, {1000, 700}, {90000, 3}};
    sizes[4][1] = 3 * rc_png_piece_rows(333) + 5;
    sizes[5][1] = 2 * rc_png_piece_rows(64);
    CHECK(rc_png_piece_rows(90000) == 1, "a row of 90000 pixels is a piece");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) check_size(sizes[i][0], sizes[i][1]);
    check_image_write(dir);
    check_display(dir);
    check_errors(dir);
    return test_finish("test_png");
}
