/* test_stats.c: the frame statistics summed over frames (stats.c), with frames that ran the
 * tail kernel (--tail-below) and frames that did not: the tail's time and launches, the phases'
 * launches without the bounces the tail ran, the per-bounce algorithm names, the --stats
 * table's rows, and every optional column within 100 columns. The frames are built by hand, so
 * every expected number is counted here. */
#include "rc_test.h"
#include "stats.h"

#include <string.h>

/* A frame of `bounces` bounces, each phase 1 ms at every bounce it ran; from bounce `tail_from`
 * on, the tail kernel ran (tail_from = bounces: no tail), taking `tail_ms`. */
static rc_frame_stats frame(uint32_t bounces, uint32_t tail_from, double tail_ms) {
    rc_frame_stats f;
    memset(&f, 0, sizeof f);
    f.samples = 1;
    f.bounces = bounces;
    f.tail_from = tail_from;
    f.loop = RC_LOOP_GRAPH;
    f.total_ms = 10.0;
    for (uint32_t b = 0; b < bounces; b++) {
        rc_bounce_stats *o = &f.bounce[b];
        o->stream = o->alive = 100u >> b;
        o->kept = 100u >> (b + 1);
        if (b >= tail_from) {
            o->algo = RC_TAIL_NAME;
            if (b == tail_from) o->tail_ms = tail_ms;
            continue;
        }
        o->algo = "single-pass";
        o->extend_ms = o->shade_ms = o->compact_ms = 1.0;
    }
    return f;
}

/* The --stats table as text. */
static char *table(const rc_stats_total *t) {
    static char buf[16384];
    FILE *f = tmpfile();
    if (!f) return NULL;
    rc_stats_print(f, t);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

/* The widest line of `text`, in columns (a UTF-8 character is one). */
static size_t widest(const char *text) {
    size_t most = 0, n = 0;
    for (const char *p = text ? text : ""; *p; p++) {
        if (*p == '\n') {
            n = 0;
            continue;
        }
        n += ((unsigned char)*p & 0xc0) != 0x80;
        if (n > most) most = n;
    }
    return most;
}

/* The phase row `name` of the table: its launches and total ms; 0 if missing. */
static int phase_row(const char *text, const char *name, unsigned *launches, double *ms) {
    char key[64];
    snprintf(key, sizeof key, "\n  %s ", name);
    const char *p = text ? strstr(text, key) : NULL;
    return p && sscanf(p + strlen(key), "%u %lf", launches, ms) == 2;
}

int main(void) {
    /* no tail anywhere: no tail row, every bounce's phases counted */
    rc_stats_total t;
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 3; i++) {
        rc_frame_stats f = frame(8, 8, 0.0);
        rc_stats_total_add(&t, &f);
    }
    char *s = table(&t);
    unsigned n = 0;
    double ms = 0.0;
    CHECK(phase_row(s, "extend", &n, &ms) && n == 24 && ms == 24.0, "extend row: %u, %g", n, ms);
    CHECK(!phase_row(s, "tail", &n, &ms), "a tail row without a tail");
    CHECK(rc_stats_tail_ms(&t) == 0.0, "tail ms %g", rc_stats_tail_ms(&t));
    CHECK(s && !strstr(s, "tail ms"), "a tail column without a tail");
    CHECK(rc_stats_tail_kernel(&t) == NULL, "tail kernel '%s' without a tail",
          rc_stats_tail_kernel(&t));

    /* frame 1 without the tail (as the first frame of a render), then 2 from bounce 5 and 1
       from bounce 3 (a plan that moved): the tail ran 3 times, its bounces launched nothing */
    memset(&t, 0, sizeof t);
    rc_frame_stats f[4] = {frame(8, 8, 0.0), frame(8, 5, 0.5), frame(8, 5, 0.5), frame(8, 3, 0.75)};
    for (int i = 0; i < 4; i++) f[i].tail_kind = RC_TAIL_PAIRS; /* no tail in f[0]: not counted */
    for (int i = 0; i < 4; i++) rc_stats_total_add(&t, &f[i]);
    CHECK(t.tail_frames == 3 && rc_stats_tail_kernel(&t) &&
              !strcmp(rc_stats_tail_kernel(&t), "pairs"),
          "tail kernel: %u frames, '%s'", t.tail_frames, rc_stats_tail_kernel(&t));
    f[1].tail_kind = RC_TAIL_THREADS;
    rc_stats_total_add(&t, &f[1]);
    CHECK(rc_stats_tail_kernel(&t) && !strcmp(rc_stats_tail_kernel(&t), "both"), "tail kernel '%s'",
          rc_stats_tail_kernel(&t));
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 4; i++) rc_stats_total_add(&t, &f[i]);
    const unsigned phases = 8 + 5 + 5 + 3; /* bounces run as phases */
    s = table(&t);
    CHECK(phase_row(s, "extend", &n, &ms) && n == phases && ms == (double)phases,
          "extend row: %u launches, %g ms, want %u", n, ms, phases);
    CHECK(phase_row(s, "compact", &n, &ms) && n == phases, "compact row: %u launches", n);
    CHECK(phase_row(s, "tail", &n, &ms) && n == 3 && fabs(ms - 1.75) < 1e-12,
          "tail row: %u launches, %g ms, want 3 and 1.75", n, ms);
    CHECK(fabs(rc_stats_tail_ms(&t) - 1.75) < 1e-12, "tail ms %g", rc_stats_tail_ms(&t));
    CHECK(t.bounce[5].tails == 2 && t.bounce[3].tails == 1 && t.bounce[4].tails == 0,
          "tails at bounces 3, 4, 5: %u %u %u", t.bounce[3].tails, t.bounce[4].tails,
          t.bounce[5].tails);
    CHECK(t.bounce[6].tailed == 3 && t.bounce[4].tailed == 1 && t.bounce[2].tailed == 0,
          "tailed at bounces 2, 4, 6: %u %u %u", t.bounce[2].tailed, t.bounce[4].tailed,
          t.bounce[6].tailed);
    /* the last frame added names each bounce's algorithm */
    CHECK(strcmp(rc_stats_algo(&t.bounce[2]), "single-pass") == 0, "bounce 2: %s",
          rc_stats_algo(&t.bounce[2]));
    CHECK(strcmp(rc_stats_algo(&t.bounce[3]), RC_TAIL_NAME) == 0, "bounce 3: %s",
          rc_stats_algo(&t.bounce[3]));
    CHECK(s && strstr(s, "tail ms") && strstr(s, "bounces marked tail"),
          "the table has no tail column or note");
    /* the per-bounce counts still add up over the tail's bounces */
    CHECK(rc_stats_rays(&t) == 4 * (100 + 50 + 25 + 12 + 6 + 3 + 1 + 0), "rays %llu",
          (unsigned long long)rc_stats_rays(&t));

    /* every optional column at once (NEE's shadow stream, the sort, the tail) with the counts of
       1000 frames of 8 Mpixels, the times of 100 ms frames: within 100 columns, --stats and
       bench's per-frame tables (untimed too) */
    memset(&t, 0, sizeof t);
    for (int i = 0; i < 1000; i++) {
        rc_frame_stats g = frame(RC_MAX_DEPTH, RC_MAX_DEPTH - 2, 9.5);
        g.sorted = 1;
        g.tail_kind = RC_TAIL_PAIRS;
        g.total_ms = 100.0;
        for (uint32_t b = 0; b < g.bounces; b++) {
            rc_bounce_stats *o = &g.bounce[b];
            o->stream = o->alive = o->shadow_in = 8u << 20;
            o->kept = o->shadow_kept = 7u << 20;
            o->sort_ms = o->shadow_ms = 9.5;
            if (b < g.tail_from) o->algo = "redzone-block";
            /* the widest traffic row: thousands of bytes a live path in every phase */
            for (int p = 0; p < RC_PHASES_MODELLED && b < g.tail_from; p++)
                o->bytes[p] = (uint64_t)(8u << 20) * 9999u;
        }
        g.num_lib = 2;
        g.lib[0].name = "prefix sum";
        g.lib[1].name = "concatenate";
        g.lib[0].ms = g.lib[1].ms = 1.0;
        rc_stats_total_add(&t, &g);
    }
    s = table(&t);
    CHECK(s && strstr(s, "shadow kept") && strstr(s, "sort ms") && strstr(s, "tail ms") &&
              strstr(s, "shadow B") && strstr(s, "    9999.0    9999.0"),
          "not every optional column: %s", s ? s : "");
    CHECK(widest(s) <= 100, "--stats: a line of %zu columns:\n%s", widest(s), s ? s : "");
    for (int timed = 0; timed < 2; timed++) {
        static char buf[16384];
        FILE *out = tmpfile();
        if (!out) break;
        rc_stats_print_bounces(out, &t, (double)t.frames, timed, 3);
        rewind(out);
        buf[fread(buf, 1, sizeof buf - 1, out)] = 0;
        fclose(out);
        CHECK(widest(buf) <= 100, "per frame: a line of %zu columns:\n%s", widest(buf), buf);
        CHECK(strstr(buf, timed ? "   9.500" : "  -\n") != NULL, "timed %d:\n%s", timed, buf);
    }
    return test_finish("test_stats");
}
