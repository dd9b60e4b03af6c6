/* test_bench_report.c: what `raycompact bench` prints and writes (cli_bench_report.c) for runs
 * made up here, with every column the CUDA backend fills, which this test needs no GPU for:
 * the four megakernel baselines (their ratio columns and their table), the tail kernel, NEE's
 * shadow stream, the sort, a skipped run with a long reason, the widest numbers. Checked: no
 * line passes 100 columns; "-" in 'x none' (and null in the JSON) without a `none` run, a
 * number with one; a "noisy: ..." line right after the rows whose timed frames (or a
 * baseline's runs) are more than 1.5 apart, and the JSON's noise fields.
 * Usage: test_bench_report DIR (scratch). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "cli_bench.h"
#include "rc_test.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run of 4 frames over RC_MAX_DEPTH bounces of `rays` live paths each (as many shadow
 * rays), the tail kernel from the last two, each frame `frame_ms` long, its phases sharing it;
 * min and max its fastest and slowest frame. */
static bench_run run(const char *algo, rc_mode mode, rc_frame_loop loop, uint32_t rays,
                     double frame_ms, double min, double max) {
    bench_run rn;
    memset(&rn, 0, sizeof rn);
    rn.algo = algo;
    rn.mode = mode;
    rn.loop = loop;
    rn.median_ms = frame_ms;
    rn.min_ms = min;
    rn.max_ms = max;
    rn.image_hash = 0xfedcba9876543210ull;
    for (int i = 0; i < 4; i++) {
        rc_frame_stats f;
        memset(&f, 0, sizeof f);
        f.bounces = RC_MAX_DEPTH;
        f.tail_from = RC_MAX_DEPTH - 2;
        f.loop = loop;
        f.sorted = 1;
        f.total_ms = frame_ms;
        for (uint32_t b = 0; b < f.bounces; b++) {
            rc_bounce_stats *o = &f.bounce[b];
            o->stream = o->alive = o->shadow_in = rays;
            o->kept = o->shadow_kept = rays - rays / 8;
            const double ms = frame_ms / (6 * RC_MAX_DEPTH);
            o->extend_ms = o->shade_ms = o->compact_ms = o->shadow_ms = o->sort_ms = ms;
            o->algo = b < f.tail_from ? "redzone-block" : RC_TAIL_NAME;
            if (b == f.tail_from) o->tail_ms = ms;
        }
        rc_stats_total_add(&rn.tot, &f);
    }
    return rn;
}

static bench_baseline baseline(rc_megakernel_kind kind, double ms, double min, double max) {
    bench_baseline b;
    memset(&b, 0, sizeof b);
    b.kind = kind;
    b.samples = 4096;
    b.res.ms = ms;
    b.res.min_ms = min;
    b.res.max_ms = max;
    b.res.rays = 1000000000ull;
    b.compared = 1;
    b.differ = 8u << 20;
    b.rmse = 0.123456;
    return b;
}

/* A text for a message, "" for none. */
#define TEXT(s) ((s) ? (s) : "")

/* The text `print` writes. */
static char *capture(void (*print)(FILE *, const void *), const void *arg) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    print(f, arg);
    fclose(f);
    return text;
}

/* The widest line of `text`, in columns (a UTF-8 character is one). */
static size_t widest(const char *text) {
    size_t most = 0, n = 0;
    for (const char *p = text ? text : ""; *p; p++) {
        n = *p == '\n' ? 0 : n + (((unsigned char)*p & 0xc0) != 0x80);
        if (n > most) most = n;
    }
    return most;
}

/* The line after the one that starts with `start`, or NULL. */
static const char *line_after(const char *text, const char *start) {
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (!strncmp(p, start, strlen(start))) return strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
    return NULL;
}

typedef struct summary_args {
    const bench_run *runs;
    int n;
    const bench_baselines *mk;
} summary_args;

static void summary(FILE *f, const void *arg) {
    const summary_args *a = arg;
    print_summary(f, a->runs, a->n, a->mk, 8u << 20);
}
static void bounces(FILE *f, const void *arg) {
    print_bounces(f, arg);
}
/* The longest heading: every piece, with a scene whose light NEE samples. */
static void heading(FILE *f, const void *arg) {
    const bench_opts *o = arg;
    rc_scene scene;
    rc_scene_init(&scene);
    scene.num_lights = 1;
    rc_settings st;
    memset(&st, 0, sizeof st);
    st.width = 4096;
    st.height = 2048;
    st.max_depth = RC_MAX_DEPTH;
    st.backend = RC_BACKEND_CUDA;
    st.samples_per_wave = 16;
    st.schedule = RC_SCHEDULE_REGEN;
    st.light_sampling = RC_LIGHTS_NEE;
    st.sort_materials = 1;
    st.shadows = RC_SHADOWS_AUTO;
    print_heading(f, o, &scene, &st);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_bench_report DIR\n");
        return 2;
    }
    bench_report_phases(1);
    static char reason[sizeof(((rc_error *)0)->msg)];
    memset(reason, 'x', 200);
    memcpy(reason, "out of GPU memory: ", 19);
    /* a slow run of 32 Mpaths (a 4K image of 4 samples), and a fast one: 10 Grays/s */
    bench_run runs[3] = {
        run("redzone-block", RC_MODE_PAYLOAD, RC_LOOP_STREAM, 32u << 20, 12345.678, 10000.0,
            16000.0),
        run("single-pass", RC_MODE_INDICES, RC_LOOP_GRAPH, 1u << 20, 1.6, 1.5, 1.7),
        run("auto", RC_MODE_PAYLOAD, RC_LOOP_GRAPH, 1, 0, 0, 0)};
    runs[2].skipped = reason;
    bench_baselines mk;
    memset(&mk, 0, sizeof mk);
    mk.n = 4;
    mk.b[0] = baseline(RC_MEGAKERNEL_BVH, 150.0, 149.0, 151.0);
    mk.b[1] = baseline(RC_MEGAKERNEL_PERSISTENT, 100.0, 100.0, 100.0);
    mk.b[2] = baseline(RC_MEGAKERNEL_FLAT, 8000.0, 6000.0, 9500.0); /* noisy: 1.58 */
    mk.b[3] = baseline(RC_MEGAKERNEL_OBJECTS, 99999.99, 99999.0, 99999.99);

    summary_args all = {runs, 3, &mk};
    char *s = capture(summary, &all);
    CHECK(s && widest(s) <= 100, "summary: a line of %zu columns:\n%s", widest(s), TEXT(s));
    const char *row = s ? strstr(s, "\nredzone-block  payload stream ") : NULL;
    char x_none[32] = "";
    CHECK(row && sscanf(row, "%*s %*s %*s %*s %*s %*s %*s %31s", x_none) == 1 &&
              !strcmp(x_none, "-"),
          "x none without a none run: '%s'", x_none);
    const char *next = line_after(s, "redzone-block  payload stream ");
    CHECK(next &&
              !strncmp(next, "  noisy: redzone-block payload stream: max/min 1.60 over 4 frames\n",
                       66),
          "no noisy line right after the noisy run:\n%s", TEXT(s));
    next = line_after(s, "single-pass    indices graph ");
    CHECK(next && strncmp(next, "  noisy", 7), "a noisy line after a quiet run:\n%s", TEXT(s));
    CHECK(s && strstr(s, " x mk") && strstr(s, "persistent") && strstr(s, "skipped: out of GPU"),
          "the megakernel columns or the skipped run missing:\n%s", TEXT(s));
    next = line_after(s, "flat ");
    CHECK(next && !strncmp(next, "  noisy: megakernel flat: max/min 1.58 over 3 runs", 50),
          "no noisy line under the flat megakernel:\n%s", TEXT(s));
    free(s);

    /* with a none run, x none is its time over the run's */
    bench_run two[2] = {run("none", RC_MODE_INDICES, RC_LOOP_GRAPH, 1u << 20, 3.2, 3.2, 3.2),
                        runs[1]};
    bench_baselines flat = {1, {mk.b[2]}};
    summary_args with_none = {two, 2, &flat};
    s = capture(summary, &with_none);
    row = s ? strstr(s, "\nsingle-pass    indices graph ") : NULL;
    CHECK(row && sscanf(row, "%*s %*s %*s %*s %*s %*s %*s %31s", x_none) == 1 &&
              !strcmp(x_none, "2.00"),
          "x none against a none run: '%s'", x_none);
    /* one megakernel that is not a fair baseline: no 'x mk', its own column in the table */
    CHECK(s && !strstr(s, "x mk") && strstr(s, "speed-up over each megakernel"), "flat alone:\n%s",
          TEXT(s));
    CHECK(s && widest(s) <= 100, "a line of %zu columns:\n%s", widest(s), TEXT(s));
    free(s);

    s = capture(bounces, &runs[0]);
    CHECK(s && strstr(s, "shadow kept") && strstr(s, "sort ms") && strstr(s, "tail ms"),
          "not every optional column:\n%s", TEXT(s));
    CHECK(s && widest(s) <= 100, "--bounces: a line of %zu columns:\n%s", widest(s), TEXT(s));
    free(s);
    bench_report_phases(0);
    s = capture(bounces, &runs[0]);
    CHECK(s && widest(s) <= 100, "--bounces untimed: a line of %zu columns:\n%s", widest(s),
          TEXT(s));
    free(s);
    bench_report_phases(1);

    bench_opts o;
    memset(&o, 0, sizeof o);
    o.common.scene = "scenes/spheres.json";
    o.frames = 100000;
    o.warmup = 100000;
    s = capture(heading, &o);
    CHECK(s && widest(s) <= 100 && strstr(s, "sorted by material") &&
              strstr(s, "shadow rays traced in shade (auto)"),
          "heading:\n%s", TEXT(s));
    free(s);

    /* the JSON: null where no none run was timed, the noise fields */
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_report.json", argv[1]);
    o.json = path;
    rc_settings st;
    memset(&st, 0, sizeof st);
    cli_rank_timing times[1];
    memset(times, 0, sizeof times);
    bench_rank_info info[1] = {{"host", "device"}};
    bench_gathered g;
    memset(&g, 0, sizeof g);
    g.size = 1;
    g.info = info;
    g.times = times;
    /* two workers (--gpus): their rows, and each run naming the worker that timed it */
    g.workers = 2;
    g.worker_times[0].device = 0;
    g.worker_times[1].device = 1;
    g.worker_times[0].samples = g.worker_times[1].samples = 1;
    rc_scene scene;
    rc_scene_init(&scene);
    scene.num_prims = 7, scene.num_triangles = 5, scene.load_ms = 30.0, scene.bvh_build_ms = 20.0;
    CHECK(write_json(&o, &scene, &st, runs, 2, &mk, &g) == 0, "write_json");
    size_t len = 0;
    char *text = read_file(path, (size_t)-1, &len, NULL, 0);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    const cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
    const cJSON *r1 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 1);
    const cJSON *m2 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "megakernels"), 2);
    const cJSON *load = cJSON_GetObjectItem(root, "scene_load");
    const cJSON *wt = cJSON_GetObjectItem(root, "workers_timing");
    CHECK(cJSON_GetArraySize(wt) == 2 &&
              cJSON_GetObjectItem(cJSON_GetArrayItem(wt, 1), "device")->valuedouble == 1.0 && r1 &&
              cJSON_GetObjectItem(r1, "worker")->valuedouble == 1.0,
          "workers_timing: a row per worker, and run 1 timed by worker 1");
    CHECK(load && cJSON_GetObjectItem(load, "triangles")->valuedouble == 5.0 &&
              cJSON_GetObjectItem(load, "bvh_ms")->valuedouble == 20.0 &&
              cJSON_GetObjectItem(load, "read_ms")->valuedouble == 10.0,
          "scene_load: the stages of the load");
    const cJSON *sh = cJSON_GetObjectItem(root, "shadow_rays");
    CHECK(cJSON_IsString(sh) && !strcmp(sh->valuestring, "none") &&
              cJSON_IsString(cJSON_GetObjectItem(root, "shadows")) &&
              !strcmp(cJSON_GetObjectItem(root, "shadows")->valuestring, "stream"),
          "shadows, shadow_rays: a scene without lights traces none");
    CHECK(r0 && cJSON_IsNull(cJSON_GetObjectItem(r0, "speedup_vs_none")),
          "speedup_vs_none without a none run is not null");
    CHECK(r0 && cJSON_IsTrue(cJSON_GetObjectItem(r0, "noisy")) &&
              cJSON_IsNumber(cJSON_GetObjectItem(r0, "frame_ms_max_over_min")) &&
              cJSON_GetObjectItem(r0, "frame_ms_max_over_min")->valuedouble == 1.6,
          "the noisy run's noise fields");
    CHECK(r1 && cJSON_IsFalse(cJSON_GetObjectItem(r1, "noisy")), "a quiet run marked noisy");
    CHECK(r1 && cJSON_IsNumber(cJSON_GetObjectItem(r1, "speedup_vs_megakernel_flat")),
          "speedup_vs_megakernel_flat");
    CHECK(m2 && cJSON_IsTrue(cJSON_GetObjectItem(m2, "noisy")) &&
              cJSON_IsNumber(cJSON_GetObjectItem(m2, "ms_min")) &&
              cJSON_GetObjectItem(m2, "ms_min")->valuedouble == 6000.0,
          "the flat megakernel's noise fields");
    cJSON_Delete(root);
    free(text);
    return test_finish("test_bench_report");
}
