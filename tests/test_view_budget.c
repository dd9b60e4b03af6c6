/* test_view_budget.c: the viewer's frames by time budget (app/viewer/budget.h) without a
 * window: --frame-ms values, the rounding of counts, the wave from the image size, and the
 * controller against synthetic cost models: it converges to the budget from one sample, never
 * returns 0, shrinks when frames go over, and settles (no swinging around the budget) with a
 * fixed cost per frame, with noise, and with a cost that grows faster than the count. */
#include "rc_test.h"
#include "viewer/budget.h"

#include <string.h>

/* A frame of n samples per pixel: a + b n^p ms, times (1 + noise x a uniform draw in -1..1). */
typedef struct model {
    double a, b, p, noise;
    uint64_t rng;
} model;

static double frame_ms(model *m, uint32_t n) {
    m->rng = m->rng * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(m->rng >> 11) / (double)(1ull << 53) * 2.0 - 1.0;
    return (m->a + m->b * pow((double)n, m->p)) * (1.0 + m->noise * u);
}

/* Run `frames` frames; the changes of n after frame `settle`. */
static uint32_t run(rc_budget *bg, model *m, int frames, int settle) {
    uint32_t changes = 0;
    for (int i = 0; i < frames; i++) {
        uint32_t before = bg->n;
        uint32_t n = rc_budget_update(bg, bg->n, frame_ms(m, bg->n));
        CHECK(n >= 1 && n == bg->n, "frame %d: n %u", i, n);
        changes += i >= settle && n != before;
    }
    return changes;
}

/* A new controller for a `budget` ms budget (up to RC_BUDGET_MAX_N), then run(). */
static uint32_t start(rc_budget *bg, double budget, model *m, int frames, int settle) {
    rc_budget_init(bg, budget, RC_BUDGET_MAX_N);
    return run(bg, m, frames, settle);
}

static double noiseless(const model *m, uint32_t n) {
    return m->a + m->b * pow((double)n, m->p);
}

static void check_parse(void) {
    const char *good[] = {"16", "8.5", "1", "1000", "1e2", "0.1e1"};
    const double want[] = {16.0, 8.5, 1.0, 1000.0, 100.0, 1.0};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        double v = 0.0;
        CHECK(rc_frame_ms_parse(good[i], &v) == 0 && v == want[i], "--frame-ms %s: %g", good[i], v);
    }
    const char *bad[] = {"",    "abc",  "0",   "-1",    "0.5", "1000.5", "nan", "inf",
                         " 16", "16ms", "16 ", "1e400", "0x",  "--",     "+",   "1e-400"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        double v = 7.0;
        CHECK(rc_frame_ms_parse(bad[i], &v) != 0 && v == 7.0, "--frame-ms '%s' taken", bad[i]);
    }
    CHECK(rc_frame_ms_parse(NULL, &(double){0}) != 0, "--frame-ms NULL taken");
}

static void check_round(void) {
    for (uint32_t n = 1; n <= 16; n++) CHECK(rc_budget_round(n) == n, "round(%u)", n);
    CHECK(rc_budget_round(17) == 16 && rc_budget_round(18) == 18 && rc_budget_round(31) == 30 &&
              rc_budget_round(33) == 32 && rc_budget_round(100) == 96,
          "round of 17, 18, 31, 33, 100: %u %u %u %u %u", rc_budget_round(17), rc_budget_round(18),
          rc_budget_round(31), rc_budget_round(33), rc_budget_round(100));
    CHECK(rc_budget_round(0.0) == 1 && rc_budget_round(-5.0) == 1 && rc_budget_round(NAN) == 1 &&
              rc_budget_round(0.99) == 1,
          "a count below 1 rounds to 1");
    CHECK(rc_budget_round(1e30) == RC_BUDGET_MAX_N && rc_budget_round(INFINITY) == RC_BUDGET_MAX_N,
          "huge counts stop at RC_BUDGET_MAX_N");
    uint32_t prev = 1;
    for (uint32_t n = 1; n < 200000; n += 1 + n / 64) {
        uint32_t r = rc_budget_round(n);
        CHECK(r >= prev && r <= n && (r * 8 >= n * 7 || r == RC_BUDGET_MAX_N),
              "round(%u) = %u (after %u)", n, r, prev);
        prev = r;
    }
}

static void check_wave(void) {
    CHECK(rc_budget_wave(480, 270, 1, 0) == 129, "480x270 CUDA: %u",
          rc_budget_wave(480, 270, 1, 0));
    CHECK(rc_budget_wave(480, 270, 0, 0) == 1, "480x270 CPU: %u", rc_budget_wave(480, 270, 0, 0));
    CHECK(rc_budget_wave(96, 54, 0, 0) == 1, "96x54 CPU: %u", rc_budget_wave(96, 54, 0, 0));
    CHECK(rc_budget_wave(96, 54, 0, 4) == 4, "96x54 CPU, --samples-per-wave 4 kept");
    CHECK(rc_budget_wave(480, 270, 1, 7) == 7, "--samples-per-wave 7 kept");
    CHECK(rc_budget_wave(8192, 8192, 1, 0) == 1, "a huge image: one sample");
    CHECK(rc_budget_wave(1, 1, 1, 0) == RC_BUDGET_MAX_N, "one pixel: RC_BUDGET_MAX_N");
    uint64_t paths = (uint64_t)rc_budget_wave(1920, 1080, 1, 0) * 1920 * 1080;
    CHECK(paths <= RC_VIEW_WAVE_PATHS_CUDA, "1080p: %llu paths", (unsigned long long)paths);
}

/* From one sample to the budget: within it, and using most of it; then still. */
static void check_converges(double a, double b, double budget) {
    model m = {a, b, 1.0, 0.0, 1};
    rc_budget bg;
    uint32_t late = start(&bg, budget, &m, 400, 200);
    double t = noiseless(&m, bg.n);
    printf("a %g b %g budget %g: n %u, %.2f ms, %u changes\n", a, b, budget, bg.n, t, bg.changes);
    CHECK(t <= budget, "a %g b %g: n %u takes %.2f ms, over %g", a, b, bg.n, t, budget);
    CHECK(bg.n == RC_BUDGET_MAX_N || t >= 0.7 * budget || noiseless(&m, 1) >= 0.7 * budget,
          "a %g b %g: n %u takes %.2f ms of %g", a, b, bg.n, t, budget);
    CHECK(late == 0, "a %g b %g: n changed %u times after it settled", a, b, late);
    CHECK(bg.changes <= 20, "a %g b %g: %u changes to get there", a, b, bg.changes);
}

/* A frame that cannot fit still renders one sample. */
static void check_never_zero(void) {
    model m = {40.0, 100.0, 1.0, 0.0, 1};
    rc_budget bg;
    start(&bg, 16.0, &m, 50, 0);
    CHECK(bg.n == 1, "over budget at 1 sample: n %u", bg.n);
    CHECK(rc_budget_update(&bg, 1, 1e300) == 1, "1e300 ms");
    CHECK(rc_budget_update(&bg, 1, NAN) == 1 && rc_budget_update(&bg, 1, -1.0) == 1 &&
              rc_budget_update(&bg, 0, 5.0) == 1 && rc_budget_update(&bg, 1, INFINITY) == 1,
          "bad measurements leave n at 1");
    model fast = {0.0, 0.0, 1.0, 0.0, 1}; /* frames take no time */
    rc_budget_init(&bg, 16.0, 100);
    run(&bg, &fast, 200, 200);
    CHECK(bg.n >= 1 && bg.n <= 100, "free frames: n %u within max 100", bg.n);
}

/* Frames that get 4 times dearer (a new view): the count shrinks within two frames, and the
 * frames are back within the budget soon after. */
static void check_shrinks(void) {
    model m = {0.5, 0.3, 1.0, 0.0, 1};
    rc_budget bg;
    start(&bg, 16.0, &m, 300, 300);
    uint32_t before = bg.n;
    m.b *= 4.0;
    run(&bg, &m, 2, 2);
    CHECK(bg.n < before, "4x dearer: n %u after two frames, was %u", bg.n, before);
    run(&bg, &m, 20, 20);
    CHECK(noiseless(&m, bg.n) <= 16.0, "4x dearer: n %u takes %.2f ms after 22 frames", bg.n,
          noiseless(&m, bg.n));
    /* a frame slightly over shrinks too, once three agree */
    model slow = {0.5, 0.3, 1.0, 0.0, 1};
    rc_budget_restart(&bg, 64, RC_BUDGET_MAX_N); /* 19.7 ms each */
    run(&bg, &slow, 3, 3);
    CHECK(bg.n < 64 && noiseless(&slow, bg.n) <= 16.0, "19.7 ms frames: n %u", bg.n);
}

/* Noise and a superlinear cost: few changes once settled (the count that went over is not
 * tried again for RC_BUDGET_RETRY frames). */
static void check_stable(void) {
    model noisy = {0.5, 0.3, 1.0, 0.15, 12345};
    rc_budget bg;
    uint32_t late = start(&bg, 16.0, &noisy, 3000, 200);
    printf("15%% noise: n %u, %u changes after frame 200\n", bg.n, late);
    CHECK(late <= 2 * (3000 / RC_BUDGET_RETRY) + 2, "15%% noise: %u changes in 2800 frames", late);
    model steep = {0.0, 0.05, 1.6, 0.0, 1};
    late = start(&bg, 16.0, &steep, 3000, 200);
    printf("cost n^1.6: n %u (%.2f ms), %u changes after frame 200\n", bg.n,
           noiseless(&steep, bg.n), late);
    CHECK(late <= 2 * (3000 / RC_BUDGET_RETRY) + 2, "n^1.6: %u changes in 2800 frames", late);
    CHECK(noiseless(&steep, bg.n) <= 16.0, "n^1.6: n %u over the budget", bg.n);
}

/* A new budget moves the count at once: down in proportion, up (at most double) only from a
 * measured time per sample; the limits hold. */
static void check_set_ms(void) {
    model m = {0.0, 0.25, 1.0, 0.0, 1};
    rc_budget bg;
    start(&bg, 16.0, &m, 300, 300);
    uint32_t at16 = bg.n;
    rc_budget_set_ms(&bg, 8.0);
    CHECK(bg.n < at16 && noiseless(&m, bg.n) <= 8.0, "8 ms: n %u (16 ms: %u)", bg.n, at16);
    uint32_t at8 = bg.n;
    rc_budget_set_ms(&bg, 32.0); /* nothing measured at 8 ms yet: not up */
    CHECK(bg.n == at8, "32 ms before a frame at 8 ms: n %u (8 ms: %u)", bg.n, at8);
    rc_budget_set_ms(&bg, 8.0);
    run(&bg, &m, 30, 30);
    at8 = bg.n;
    rc_budget_set_ms(&bg, 32.0); /* measured: up, at most double */
    CHECK(bg.n > at8 && bg.n <= 2 * at8, "32 ms: n %u (8 ms: %u)", bg.n, at8);
    run(&bg, &m, 100, 100);
    CHECK(noiseless(&m, bg.n) <= 32.0 && noiseless(&m, bg.n) >= 0.7 * 32.0, "32 ms: n %u", bg.n);
    rc_budget_restart(&bg, 1000, 40);
    CHECK(bg.n <= 40 && bg.n >= 1, "restart within max 40: %u", bg.n);
    rc_budget_restart(&bg, 0, 40);
    CHECK(bg.n == 1, "restart at 0: %u", bg.n);
}

int main(void) {
    check_parse();
    check_round();
    check_wave();
    check_converges(0.5, 0.3, 16.0);   /* a GPU: a fixed cost per frame, then per sample */
    check_converges(10.0, 0.3, 16.0);  /* a large fixed cost */
    check_converges(0.0, 4.0, 16.0);   /* a CPU: 4 ms a sample */
    check_converges(0.05, 1e-3, 16.0); /* thousands of samples a frame */
    check_converges(0.5, 0.3, 1.0);    /* the smallest budget */
    check_converges(0.5, 0.3, 1000.0); /* the largest */
    check_never_zero();
    check_shrinks();
    check_stable();
    check_set_ms();
    return test_finish("view_budget");
}
