/* test_probe_window.c: the host side of the divergence probes (core/probe.h), which builds
 * without probes use too: a bin's active lanes per issue and issues, the material classes
 * summed, and the window of frames the viewer's F3 shows (rc_probe_window), frame by frame
 * against sums kept here by hand. */
#include "core/probe.h"
#include "rc_test.h"

/* A frame whose every bin holds `lanes` + its point and bounce, over `issues` issues. */
static void frame_of(rc_probe_counts *c, unsigned long long lanes, unsigned long long issues) {
    for (int p = 0; p < RC_PROBE_POINTS; p++)
        for (int b = 0; b <= RC_PROBE_BOUNCES; b++) {
            c->bin[p][b].lanes = lanes + (unsigned long long)(p * 100 + b);
            c->bin[p][b].share = issues << RC_PROBE_SHIFT;
        }
}

/* a == the sum of the frames listed (n of them), bin by bin. */
static int equals_sum(const rc_probe_counts *a, const rc_probe_counts *const *frames, int n) {
    for (int p = 0; p < RC_PROBE_POINTS; p++)
        for (int b = 0; b <= RC_PROBE_BOUNCES; b++) {
            unsigned long long lanes = 0, share = 0;
            for (int i = 0; i < n; i++) {
                lanes += frames[i]->bin[p][b].lanes;
                share += frames[i]->bin[p][b].share;
            }
            if (a->bin[p][b].lanes != lanes || a->bin[p][b].share != share) return 0;
        }
    return 1;
}

static void check_fill(void) {
    rc_probe_bin none = {0, 0}, half = {48, 3ull << RC_PROBE_SHIFT};
    CHECK(rc_probe_fill(&none) == 0.0, "an empty bin reads %g", rc_probe_fill(&none));
    CHECK(rc_probe_fill(&half) == 16.0, "48 lanes over 3 issues read %g", rc_probe_fill(&half));
    CHECK(rc_probe_issues(&half) == 3.0, "issues %g", rc_probe_issues(&half));
    /* an issue shared out over two bounces: half an issue each, the lanes of each on their own */
    rc_probe_bin part = {8, 1ull << (RC_PROBE_SHIFT - 1)};
    CHECK(rc_probe_fill(&part) == 16.0, "8 lanes over half an issue read %g", rc_probe_fill(&part));

    rc_probe_counts c;
    rc_probe_counts_zero(&c);
    unsigned long long lanes = 0, share = 0;
    for (int k = 0; k < RC_PROBE_CLASSES; k++) {
        c.bin[RC_PROBE_CLASS + k][5].lanes = 10u + (unsigned)k;
        c.bin[RC_PROBE_CLASS + k][5].share = (1ull + (unsigned)k) << RC_PROBE_SHIFT;
        lanes += 10u + (unsigned)k;
        share += (1ull + (unsigned)k) << RC_PROBE_SHIFT;
    }
    c.bin[RC_PROBE_SCATTER][5].lanes = 999; /* not a class: left out */
    rc_probe_bin sum = rc_probe_classes(&c, 5), other = rc_probe_classes(&c, 4);
    CHECK(sum.lanes == lanes && sum.share == share, "classes of bounce 5: %llu lanes, %llu share",
          sum.lanes, sum.share);
    CHECK(other.lanes == 0 && other.share == 0, "bounce 4 has no class counts");
}

static void check_window(void) {
    static rc_probe_window w;
    static rc_probe_counts f[6], zero;
    for (int i = 0; i < 6; i++) frame_of(&f[i], 1000u * (unsigned)(i + 1), 7u + (unsigned)i);
    rc_probe_counts_zero(&zero);
    frame_of(&w.shown, 5, 5); /* what an earlier view left */
    rc_probe_window_reset(&w);
    const rc_probe_counts *none[1] = {&zero};
    CHECK(equals_sum(&w.shown, none, 1) && w.closed == 0, "reset: nothing shown");

    const double win = 500.0;
    /* the first frame shows at once, wherever the clock stands */
    rc_probe_window_add(&w, &f[0], 12000.0, win);
    const rc_probe_counts *s0[] = {&f[0]};
    CHECK(equals_sum(&w.shown, s0, 1) && w.closed == 0, "first frame shown at once");
    /* the first window, as it fills */
    rc_probe_window_add(&w, &f[1], 12200.0, win);
    const rc_probe_counts *s1[] = {&f[0], &f[1]};
    CHECK(equals_sum(&w.shown, s1, 2) && w.closed == 0, "first window shown as it fills");
    /* it closes once it spans the window: its three frames */
    rc_probe_window_add(&w, &f[2], 12500.0, win);
    const rc_probe_counts *s2[] = {&f[0], &f[1], &f[2]};
    CHECK(equals_sum(&w.shown, s2, 3) && w.closed == 1, "first window closed: %d", w.closed);
    CHECK(equals_sum(&w.acc, none, 1), "the next window starts empty");
    /* the next window's frames stay out of view until it closes */
    rc_probe_window_add(&w, &f[3], 12700.0, win);
    CHECK(equals_sum(&w.shown, s2, 3), "a filling second window is not shown");
    rc_probe_window_add(&w, &f[4], 12999.0, win);
    CHECK(equals_sum(&w.shown, s2, 3) && w.closed == 1, "still the first window at 499 ms");
    rc_probe_window_add(&w, &f[5], 13000.0, win);
    const rc_probe_counts *s3[] = {&f[3], &f[4], &f[5]};
    CHECK(equals_sum(&w.shown, s3, 3) && w.closed == 2, "second window: its own three frames");

    /* a reset (F3 off and on) starts over from the next frame */
    rc_probe_window_reset(&w);
    rc_probe_window_add(&w, &f[4], 20000.0, win);
    const rc_probe_counts *s4[] = {&f[4]};
    CHECK(equals_sum(&w.shown, s4, 1) && w.closed == 0, "after a reset: the next frame at once");
}

int main(void) {
    check_fill();
    check_window();
    return test_finish("test_probe_window");
}
