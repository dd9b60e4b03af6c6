/* test_view_check.c: looks at what the viewer test (test_view.cmake) left in DIR: the log
 * names every algorithm the session's backend runs (the script tabbed through all of them) and
 * the frame-time budgets the keys , and . set; the screenshots are not blank, the overlay draws
 * text over an unchanged image, and the alive-ray mask view differs from the image. With --small,
 * the small window's session instead (tests/data/view_small.txt): the overlay draws text there but
 * covers under 40 % of it. Usage: test_view_check DIR [cpu|cuda] [--small] (default cpu) */
#include "rc_test.h"
#include "rc_error.h"
#include "wavefront/compact.h"
#include "read_file.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
#include <string.h>

typedef struct image {
    int w, h;
    unsigned char *px; /* RGB */
} image;

static int load(const char *dir, const char *name, image *im) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int n;
    im->px = stbi_load(path, &im->w, &im->h, &n, 3);
    const char *why = stbi_failure_reason(); /* NULL for some faults */
    CHECK(im->px != NULL, "%s: cannot read: %s", path, why ? why : "not a PNG stb_image can read");
    return im->px ? 0 : -1;
}

/* Not blank: the luma spreads (standard deviation) over many distinct values. */
static void check_not_blank(const char *name, const image *im) {
    size_t n = (size_t)im->w * im->h;
    double sum = 0.0, sum2 = 0.0;
    unsigned char seen[256] = {0};
    int distinct = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = im->px + 3 * i;
        int y = (54 * p[0] + 183 * p[1] + 19 * p[2]) >> 8;
        sum += y;
        sum2 += (double)y * y;
        distinct += !seen[y];
        seen[y] = 1;
    }
    double mean = sum / (double)n, sd = sqrt(fmax(0.0, sum2 / (double)n - mean * mean));
    CHECK(sd > 8.0 && distinct > 32, "%s looks blank: luma sd %.1f, %d distinct values", name, sd,
          distinct);
}

static int differs(const unsigned char *a, const unsigned char *b, int tol) {
    return abs(a[0] - b[0]) > tol || abs(a[1] - b[1]) > tol || abs(a[2] - b[2]) > tol;
}

static double share_differing(const image *a, const image *b) {
    size_t n = (size_t)a->w * a->h, d = 0;
    for (size_t i = 0; i < n; i++) d += (size_t)differs(a->px + 3 * i, b->px + 3 * i, 24);
    return (double)d / (double)n;
}

/* Light grey pixels (the overlay's text colour) in `with` where `without` had something
 * else: the glyphs the overlay drew. */
static size_t text_pixels(const image *with, const image *without) {
    size_t n = (size_t)with->w * with->h, t = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *p = with->px + 3 * i;
        int lo = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
        int hi = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
        if (lo >= 200 && hi - lo <= 24 && differs(p, without->px + 3 * i, 60)) t++;
    }
    return t;
}

/* Every algorithm the backend implements (Tab cycles through those) appears in the log. */
static void check_log(const char *dir, rc_backend backend) {
    char path[4096], *log = NULL;
    size_t len;
    rc_error err;
    snprintf(path, sizeof path, "%s/view.log", dir);
    CHECK(rc_read_file(path, 1u << 20, &log, &len, &err) == 0, "%s", err.msg);
    if (!log) return;
    const char *names[64];
    size_t n = rc_compact_names(backend, names, 64);
    for (size_t i = 0; i < n && i < 64; i++) {
        if (rc_compact_check(names[i], backend, &err) != 0) continue;
        char want[128];
        snprintf(want, sizeof want, "algorithm %s,", names[i]);
        CHECK(strstr(log, want) != NULL, "the viewer never ran '%s' (no '%s' in %s)", names[i],
              want, path);
    }
    CHECK(strstr(log, "tone map reinhard") && strstr(log, "tone map aces") &&
              strstr(log, "tone map clip"),
          "key G did not step through the tone maps in %s", path);
    /* the frame-time budget's keys: halved, then doubled back */
    CHECK(strstr(log, "frame budget 8 ms") && strstr(log, "frame budget 16 ms"),
          "the budget's keys left no 'frame budget 8 ms' and '16 ms' in %s", path);
    /* F3 where nothing counts the probes: the one line that says why */
    if (!rc_have_probes() || backend != RC_BACKEND_CUDA)
        CHECK(strstr(log, "raycompact view: divergence probes ") != NULL,
              "key F3 left no line on the divergence probes in %s", path);
    free(log);
}

/* The small window: text drawn, most of the image left uncovered. */
static int check_small(const char *dir) {
    image im[2];
    if (load(dir, "view_small_with.png", &im[0]) != 0 ||
        load(dir, "view_small_without.png", &im[1]) != 0)
        return test_finish("view_check --small");
    size_t text = text_pixels(&im[0], &im[1]);
    double overlay = share_differing(&im[0], &im[1]);
    printf("small window %dx%d: %zu text pixels, %.1f%% of the window changed\n", im[0].w, im[0].h,
           text, 100.0 * overlay);
    CHECK(text > 100, "only %zu overlay text pixels", text);
    CHECK(overlay < 0.4, "the overlay covers %.1f%% of a small window", 100.0 * overlay);
    for (int i = 0; i < 2; i++) stbi_image_free(im[i].px);
    return test_finish("view_check --small");
}

int main(int argc, char **argv) {
    rc_backend backend = RC_BACKEND_CPU;
    int small = argc == 4 && strcmp(argv[3], "--small") == 0;
    if (argc < 2 || argc > 3 + small || (argc >= 3 && rc_backend_parse(argv[2], &backend) != 0)) {
        fprintf(stderr, "usage: test_view_check DIR [cpu|cuda] [--small]\n");
        return 2;
    }
    const char *dir = argv[1];
    if (small) return check_small(dir);
    check_log(dir, backend);
    const char *names[] = {"view_overlay.png", "view_plain.png", "view_mask.png",
                           "view_image.png",   "view_help.png",  "view_aces.png"};
    enum { SHOTS = sizeof names / sizeof *names };
    image im[SHOTS];
    for (int i = 0; i < SHOTS; i++)
        if (load(dir, names[i], &im[i]) != 0) return test_finish("view_check");
    for (int i = 0; i < SHOTS; i++) check_not_blank(names[i], &im[i]);
    int same_size = 1;
    for (int i = 1; i < SHOTS; i++) same_size &= im[i].w == im[0].w && im[i].h == im[0].h;
    CHECK(same_size, "the screenshots differ in size");
    if (same_size) {
        /* The film was paused: only the overlay tells the first two apart. */
        size_t text = text_pixels(&im[0], &im[1]);
        double overlay = share_differing(&im[0], &im[1]);
        double mask = share_differing(&im[2], &im[3]);
        printf("overlay: %zu text pixels, %.1f%% of the window changed; mask view: %.1f%% "
               "differs from the image\n",
               text, 100.0 * overlay, 100.0 * mask);
        CHECK(text > 500, "only %zu overlay text pixels", text);
        CHECK(overlay > 0.05, "the overlay changes only %.1f%% of the window", 100.0 * overlay);
        CHECK(mask > 0.15, "the mask view differs from the image in only %.1f%% of the window",
              100.0 * mask);
        /* the same paused film through the aces tone map: most pixels change a little */
        size_t n = (size_t)im[1].w * im[1].h, toned = 0;
        for (size_t i = 0; i < n; i++)
            toned += (size_t)differs(im[5].px + 3 * i, im[1].px + 3 * i, 4);
        printf("tone map aces: %.1f%% of the window differs from clip\n", 100.0 * toned / n);
        CHECK(toned > n / 2, "the aces tone map changes only %.1f%% of the window",
              100.0 * toned / n);
    }
    for (int i = 0; i < SHOTS; i++) stbi_image_free(im[i].px);
    return test_finish("view_check");
}
