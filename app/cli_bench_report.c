/* cli_bench_report.c: what `raycompact bench` prints and writes: the summary table, the
 * per-bounce tables, the ranks of an MPI job, and the JSON (cli_bench.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_bench.h"
#include "echo.h"
#include "out_path.h"
#include "timing.h"
#include "wavefront/compact.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* --phase-timing: the phases were timed (else their columns read "-" and the JSON null) */
static int bench_phases = 1;

void bench_report_phases(int timed) {
    bench_phases = timed;
}

/* Every line of the tables fits in this many columns. */
#define BENCH_COLUMNS 100

/* A time column (ms, or a share in %), or "-" where the phases were not timed. */
static void ms_col(FILE *f, double v, int width) {
    if (bench_phases)
        fprintf(f, " %*.3f", width, v);
    else
        fprintf(f, " %*s", width, "-");
}
static void share_col(FILE *f, double pct, int width) {
    if (bench_phases)
        fprintf(f, " %*.1f%%", width - 1, pct);
    else
        fprintf(f, " %*s", width, "-");
}
/* A ratio to a baseline ("%.2f" and `suffix`), or "-" where there is none (ratio <= 0). */
static void ratio_col(FILE *f, double ratio, int width, const char *suffix) {
    char buf[32] = "-";
    if (ratio > 0) snprintf(buf, sizeof buf, "%.2f%s", ratio, suffix);
    fprintf(f, " %*s", width, buf);
}

/* `pieces` joined by ", ", a line broken after the comma before a piece that would pass the
 * table's width. */
static void print_pieces(FILE *f, const char *const *pieces, int n) {
    size_t col = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(pieces[i]);
        if (i > 0 && col + 2 + len + 1 > BENCH_COLUMNS) {
            fprintf(f, ",\n");
            col = 0;
        } else if (i > 0) {
            fprintf(f, ", ");
            col += 2;
        }
        fprintf(f, "%s", pieces[i]);
        col += len;
    }
    fprintf(f, "\n");
}

void print_heading(FILE *f, const bench_opts *o, const rc_scene *scene, const rc_settings *st) {
    char sched[96] = "waves", size[320], frames[192], depth[32], backend[32], lights[48];
    if (st->schedule == RC_SCHEDULE_REGEN && st->tune.pool)
        snprintf(sched, sizeof sched, "regen, pool %u", st->tune.pool);
    else if (st->schedule == RC_SCHEDULE_REGEN) /* auto: one pool compacted, one in place */
        snprintf(sched, sizeof sched, "regen, pool %u (none, in place: %u)",
                 rc_default_pool(st->backend, "auto"),
                 rc_default_pool(st->backend, RC_COMPACT_NONE_NAME));
    snprintf(size, sizeof size, "%s: %ux%u", o->common.scene, st->width, st->height);
    snprintf(frames, sizeof frames, "%u frames (+%u warmup) of %u samples per pixel (%s)",
             o->frames, o->warmup, st->samples_per_wave, sched);
    snprintf(depth, sizeof depth, "max depth %u", st->max_depth);
    snprintf(backend, sizeof backend, "%s backend", rc_backend_name(st->backend));
    snprintf(lights, sizeof lights, "light sampling %s",
             rc_light_sampling_name(st->light_sampling));
    const char *pieces[8] = {size, frames, depth, backend, lights};
    int n = 5;
    char shadows[64];
    const int rays = rc_shadow_rays(scene, st);
    if (rays >= 0) {
        snprintf(shadows, sizeof shadows, "shadow rays %s (%s)",
                 rays == RC_SHADOWS_INLINE ? "traced in shade" : "in a stream",
                 rc_shadows_name(st->shadows));
        pieces[n++] = shadows;
    }
    if (st->sort_materials) pieces[n++] = "sorted by material";
    if (!st->tune.phase_timing) pieces[n++] = "phases not timed (--phase-timing off)";
    print_pieces(f, pieces, n);
}

/* "noisy: auto indices graph: max/min 1.73 over 4 frames" under a row whose frames disagree. */
static void noisy_run(FILE *f, const bench_run *rn) {
    char what[64], line[160];
    snprintf(what, sizeof what, "%s %s %s", rn->algo, rc_mode_name(rn->mode),
             rc_frame_loop_name(rn->loop));
    if (timing_noisy_line(line, sizeof line, what, rn->min_ms, rn->max_ms, (int)rn->tot.frames,
                          "frames"))
        fprintf(f, "  %s\n", line);
}

/* The per-bounce tables of one run (--bounces): a frame's mean at each bounce. */
void print_bounces(FILE *f, const bench_run *rn) {
    const rc_stats_total *t = &rn->tot;
    fprintf(f, "\n%s %s %s: per bounce, the mean of %u frame%s\n", rn->algo, rc_mode_name(rn->mode),
            rc_frame_loop_name(rn->loop), t->frames, t->frames == 1 ? "" : "s");
    rc_stats_print_bounces(f, t, t->frames ? (double)t->frames : 1.0, bench_phases, 3);
}

/* The runs' speed against `none` in the same mode and loop (its frame time over the run's), or
 * -1 without such a run. */
static double vs_none(const bench_run *runs, int n, const bench_run *rn) {
    for (int i = 0; i < n; i++)
        if (!runs[i].skipped && strcmp(runs[i].algo, RC_COMPACT_NONE_NAME) == 0 &&
            runs[i].mode == rn->mode && runs[i].loop == rn->loop && rn->median_ms > 0)
            return runs[i].median_ms / rn->median_ms;
    return -1.0;
}

/* How many times faster than a megakernel the run rendered the same samples; -1 without a
 * time to compare. */
static double vs_megakernel(const bench_baseline *mk, const bench_run *rn) {
    return rn->tot.total_ms > 0 && mk->res.ms > 0 ? mk->res.ms / rn->tot.total_ms : -1.0;
}

/* The faster of the bvh and persistent megakernels (the fair baselines), or NULL. */
static const bench_baseline *best_megakernel(const bench_baselines *mk) {
    const bench_baseline *best = NULL;
    for (int i = 0; i < mk->n; i++) {
        const bench_baseline *b = &mk->b[i];
        if ((b->kind == RC_MEGAKERNEL_BVH || b->kind == RC_MEGAKERNEL_PERSISTENT) &&
            (!best || b->res.ms < best->res.ms))
            best = b;
    }
    return best;
}

/* What each megakernel is, for the table of the baselines. */
static const char *megakernel_about(rc_megakernel_kind k) {
    return k == RC_MEGAKERNEL_BVH          ? "one thread per pixel, BVH"
           : k == RC_MEGAKERNEL_PERSISTENT ? "persistent threads, BVH"
           : k == RC_MEGAKERNEL_FLAT       ? "one thread per pixel, no BVH"
                                           : "RTIOW objects, no BVH";
}

#define RUN_COLUMNS "%-14s %-7s %-6s" /* algorithm, mode, loop: the rows' first columns */

/* The megakernels (--megakernel): each run's speed-up over each of them, unless the one column
 * 'x mk' of the summary already is that; then the baselines themselves. */
static void print_megakernels(FILE *f, const bench_run *runs, int n, const bench_baselines *mk,
                              uint32_t pixels) {
    if (!mk->n) return;
    if (mk->n > 1 || !best_megakernel(mk)) {
        fprintf(f, "\nspeed-up over each megakernel (its time over the run's, the same samples)\n");
        fprintf(f, RUN_COLUMNS, "algorithm", "mode", "loop");
        for (int b = 0; b < mk->n; b++) fprintf(f, " %11s", rc_megakernel_name(mk->b[b].kind));
        fprintf(f, "\n");
        for (int i = 0; i < n; i++) {
            const bench_run *rn = &runs[i];
            if (rn->skipped) continue;
            fprintf(f, RUN_COLUMNS, rn->algo, rc_mode_name(rn->mode), rc_frame_loop_name(rn->loop));
            for (int b = 0; b < mk->n; b++) ratio_col(f, vs_megakernel(&mk->b[b], rn), 11, "x");
            fprintf(f, "\n");
        }
    }
    fprintf(f, "\n%-10s %7s %9s %8s %17s %11s  %s\n", "megakernel", "samples", "ms", "Mrays/s",
            "differing pixels", "block RMSE", "what");
    for (int i = 0; i < mk->n; i++) {
        const bench_baseline *b = &mk->b[i];
        char differ[48], line[160];
        snprintf(differ, sizeof differ, "%zu/%u", b->differ, pixels);
        fprintf(f, "%-10s %7u %9.2f %8.1f %17s %11.5f  %s\n", rc_megakernel_name(b->kind),
                b->samples, b->res.ms, b->res.ms > 0 ? (double)b->res.rays / (b->res.ms * 1e3) : 0,
                differ, b->rmse, megakernel_about(b->kind));
        char what[48];
        snprintf(what, sizeof what, "megakernel %s", rc_megakernel_name(b->kind));
        if (timing_noisy_line(line, sizeof line, what, b->res.min_ms, b->res.max_ms,
                              BENCH_MEGAKERNEL_RUNS, "runs"))
            fprintf(f, "  %s\n", line);
    }
    fprintf(f, "differing pixels, block RMSE (8x8 blocks): the first run's image against the "
               "baseline's\n");
}

void print_summary(FILE *f, const bench_run *runs, int n, const bench_baselines *mk,
                   uint32_t pixels) {
    const bench_baseline *best = best_megakernel(mk);
    fprintf(f, "\n" RUN_COLUMNS " %9s %10s %6s %8s %6s", "algorithm", "mode", "loop", "frame ms",
            "compact ms", "share", "Mrays/s", "x none");
    if (best) fprintf(f, " %6s", "x mk");
    fprintf(f, "  image\n");
    for (int i = 0; i < n; i++) {
        const bench_run *rn = &runs[i];
        if (rn->skipped) {
            fprintf(f, RUN_COLUMNS " skipped: ", rn->algo, rc_mode_name(rn->mode),
                    rc_frame_loop_name(rn->loop));
            echo_wrapped(f, rn->skipped[0] ? rn->skipped : "-", BENCH_COLUMNS - 39, 39);
            continue;
        }
        const rc_stats_total *t = &rn->tot;
        double fr = t->frames, c = rc_stats_compact_ms(t);
        fprintf(f, RUN_COLUMNS " %9.3f", rn->algo, rc_mode_name(rn->mode),
                rc_frame_loop_name(rn->loop), rn->median_ms);
        ms_col(f, c / fr, 10);
        share_col(f, t->total_ms > 0 ? 100.0 * c / t->total_ms : 0.0, 6);
        fprintf(f, " %8.1f", t->total_ms > 0 ? (double)rc_stats_rays(t) / (t->total_ms * 1e3) : 0);
        ratio_col(f, vs_none(runs, n, rn), 6, "");
        if (best) ratio_col(f, vs_megakernel(best, rn), 6, "x");
        fprintf(f, "  %016llx\n", (unsigned long long)rn->image_hash);
        noisy_run(f, rn);
    }
    print_megakernels(f, runs, n, mk, pixels);
}

/* A time (or a share of time) in the JSON, null where the phases were not timed. */
static void add_ms(cJSON *o, const char *key, double v) {
    if (bench_phases)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

/* A ratio in the JSON, null where it does not apply (<= 0: no baseline, no time). */
static void add_ratio(cJSON *o, const char *key, double v) {
    if (v > 0)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *run_json(const bench_run *runs, int n, const bench_run *rn,
                       const bench_baselines *mk) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "algorithm", rn->algo);
    cJSON_AddStringToObject(o, "mode", rc_mode_name(rn->mode));
    cJSON_AddStringToObject(o, "frame_loop", rc_frame_loop_name(rn->loop));
    if (rn->skipped) {
        cJSON_AddStringToObject(o, "skipped", rn->skipped);
        return o;
    }
    const rc_stats_total *t = &rn->tot;
    double fr = t->frames;
    char hash[32];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)rn->image_hash);
    cJSON_AddStringToObject(o, "image_hash", hash);
    cJSON_AddNumberToObject(o, "frames", fr);
    cJSON_AddNumberToObject(o, "frame_ms", t->total_ms / fr);
    cJSON_AddNumberToObject(o, "frame_ms_median", rn->median_ms);
    cJSON_AddNumberToObject(o, "frames_per_s", 1e3 / rn->median_ms);
    /* the noise rule (timing.h) over the timed frames */
    cJSON_AddNumberToObject(o, "frame_ms_min", rn->min_ms);
    cJSON_AddNumberToObject(o, "frame_ms_max", rn->max_ms);
    add_ratio(o, "frame_ms_max_over_min", timing_spread(rn->min_ms, rn->max_ms));
    cJSON_AddBoolToObject(o, "noisy", timing_noisy(rn->min_ms, rn->max_ms));
    add_ratio(o, "speedup_vs_none", vs_none(runs, n, rn)); /* null: no none run to compare */
    for (int i = 0; i < mk->n; i++) {
        char key[64];
        snprintf(key, sizeof key, "speedup_vs_megakernel_%s", rc_megakernel_name(mk->b[i].kind));
        add_ratio(o, key, vs_megakernel(&mk->b[i], rn));
    }
    const bench_baseline *best = best_megakernel(mk);
    if (best) {
        add_ratio(o, "speedup_vs_megakernel", vs_megakernel(best, rn));
        cJSON_AddStringToObject(o, "megakernel", rc_megakernel_name(best->kind));
    }
    add_ms(o, "generate_ms", t->generate_ms / fr);
    add_ms(o, "extend_ms", rc_stats_extend_ms(t) / fr);
    add_ms(o, "shade_ms", rc_stats_shade_ms(t) / fr);
    add_ms(o, "compact_ms", rc_stats_compact_ms(t) / fr);
    add_ms(o, "shadow_ms", rc_stats_shadow_ms(t) / fr);
    add_ms(o, "sort_ms", rc_stats_sort_ms(t) / fr);
    add_ms(o, "tail_ms", rc_stats_tail_ms(t) / fr);
    const char *tail = rc_stats_tail_kernel(t);
    if (tail)
        cJSON_AddStringToObject(o, "tail_kernel", tail);
    else
        cJSON_AddNullToObject(o, "tail_kernel");
    cJSON_AddNumberToObject(o, "shadow_rays", (double)rc_stats_shadow_rays(t) / fr);
    add_ms(o, "accumulate_ms", t->accumulate_ms / fr);
    add_ms(o, "compact_share", t->total_ms > 0 ? rc_stats_compact_ms(t) / t->total_ms : 0.0);
    cJSON_AddNumberToObject(o, "rays_per_s", (double)rc_stats_rays(t) / (t->total_ms * 1e-3));
    /* the stream traffic the layouts give (traffic.c), per live path and bounce */
    static const char *const phase_keys[RC_PHASES_MODELLED + 1] = {"extend", "shade", "shadow",
                                                                   "compact", "total"};
    cJSON *traffic = cJSON_AddObjectToObject(o, "stream_bytes_per_live_path");
    for (int i = 0; i <= RC_PHASES_MODELLED; i++)
        cJSON_AddNumberToObject(traffic, phase_keys[i], rc_stats_bytes_per_path(t, i));
    cJSON *lib = cJSON_AddObjectToObject(o, "library_phases_ms");
    for (size_t i = 0; i < t->num_lib; i++)
        cJSON_AddNumberToObject(lib, t->lib[i].name, t->lib[i].ms / fr);
    if (rn->probed) cJSON_AddItemToObject(o, "divergence", bench_divergence_json(&rn->probes));
    cJSON *arr = cJSON_AddArrayToObject(o, "bounces");
    for (uint32_t b = 0; b < t->bounces; b++) {
        const rc_bounce_total *s = &t->bounce[b];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "bounce", b);
        cJSON_AddNumberToObject(j, "rays_in", (double)s->stream / fr);
        cJSON_AddNumberToObject(j, "alive", (double)s->alive / fr);
        cJSON_AddNumberToObject(j, "kept", (double)s->kept / fr);
        cJSON_AddNumberToObject(j, "removed_fraction",
                                s->alive ? (double)(s->alive - s->kept) / (double)s->alive : 0.0);
        add_ms(j, "extend_ms", s->extend_ms / fr);
        add_ms(j, "shade_ms", s->shade_ms / fr);
        add_ms(j, "compact_ms", s->compact_ms / fr);
        cJSON_AddNumberToObject(j, "shadow_in", (double)s->shadow_in / fr);
        cJSON_AddNumberToObject(j, "shadow_kept", (double)s->shadow_kept / fr);
        add_ms(j, "shadow_ms", s->shadow_ms / fr);
        add_ms(j, "sort_ms", s->sort_ms / fr);
        add_ms(j, "tail_ms", s->tail_ms / fr);
        double sum = s->extend_ms + s->shade_ms + s->compact_ms;
        add_ms(j, "compact_share", sum > 0 ? s->compact_ms / sum : 0.0);
        cJSON_AddStringToObject(j, "algorithm", rc_stats_algo(s));
        cJSON *bytes = cJSON_AddObjectToObject(j, "stream_bytes"); /* a frame's, at this bounce */
        for (int i = 0; i < RC_PHASES_MODELLED; i++)
            cJSON_AddNumberToObject(bytes, phase_keys[i], (double)s->bytes[i] / fr);
        cJSON_AddItemToArray(arr, j);
    }
    return o;
}

/* After the summary, with several workers (--gpus): rank 0's workers, where each one's time
 * went and the runs it timed. */
static void print_workers(const bench_gathered *g) {
    if (g->workers < 2) return;
    printf("\n%d workers, the runs shared out in turn:\n", g->workers);
    printf("per worker (ms) device  context     runs     done  runs\n");
    for (int i = 0; i < g->workers; i++) {
        const rc_worker_times *t = &g->worker_times[i];
        char dev[16];
        snprintf(dev, sizeof dev, t->device >= 0 ? "%d" : "cpu", t->device);
        printf("worker %-4d %10s %8.1f %8.1f %8.1f %5u\n", i, dev, t->context_ms, t->frames_ms,
               t->done_ms, t->samples);
    }
}

/* After the summary: where the runs ran, and with --per-rank every other rank's summary. */
void print_ranks(const bench_opts *o, int n, const bench_gathered *g, uint32_t pixels) {
    print_workers(g);
    if (g->size == 1) return;
    bench_baselines none;
    memset(&none, 0, sizeof none);
    printf("\n%d MPI ranks, %s:\n", g->size,
           o->per_rank ? "each timed every run" : "the runs shared out in turn");
    for (int r = 0; r < g->size; r++) {
        printf("  rank %d on %s: %s\n", r, g->info[r].host, g->info[r].device);
        if (o->per_rank && r > 0)
            print_summary(stdout, &g->rank_runs[(size_t)r * n], n, &none, pixels);
    }
}

/* The JSON's "ranks": each rank's host and device (and with --per-rank its runs); in shared-out
 * mode each run says which rank timed it. */
static void ranks_json(cJSON *root, const bench_opts *o, int n, const bench_gathered *g,
                       const bench_baselines *mk) {
    bench_baselines none;
    memset(&none, 0, sizeof none);
    cJSON_AddNumberToObject(root, "mpi_ranks", g->size);
    cJSON_AddBoolToObject(root, "per_rank", o->per_rank);
    cJSON *arr = cJSON_AddArrayToObject(root, "ranks");
    for (int r = 0; r < g->size; r++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "rank", r);
        cJSON_AddStringToObject(j, "host", g->info[r].host);
        cJSON_AddStringToObject(j, "device", g->info[r].device);
        if (o->per_rank) {
            const bench_run *rr = &g->rank_runs[(size_t)r * n];
            cJSON *ra = cJSON_AddArrayToObject(j, "runs");
            for (int i = 0; i < n; i++)
                cJSON_AddItemToArray(ra, run_json(rr, n, &rr[i], r == 0 ? mk : &none));
        }
        cJSON_AddItemToArray(arr, j);
    }
    cJSON_AddItemToObject(root, "ranks_timing", cli_timing_json(g->times, g->size));
    if (g->workers > 0) {
        /* rank 0's workers (--gpus): where each one's time went, and the runs it timed */
        cJSON_AddNumberToObject(root, "workers", g->workers);
        cJSON *wt = cJSON_AddArrayToObject(root, "workers_timing");
        for (int i = 0; i < g->workers; i++) {
            const rc_worker_times *t = &g->worker_times[i];
            cJSON *j = cJSON_CreateObject();
            cJSON_AddNumberToObject(j, "worker", i);
            if (t->device >= 0)
                cJSON_AddNumberToObject(j, "device", t->device);
            else
                cJSON_AddNullToObject(j, "device");
            cJSON_AddNumberToObject(j, "context_ms", t->context_ms);
            cJSON_AddNumberToObject(j, "runs_ms", t->frames_ms);
            cJSON_AddNumberToObject(j, "done_ms", t->done_ms);
            cJSON_AddNumberToObject(j, "runs", t->samples);
            cJSON_AddItemToArray(wt, j);
        }
    }
    cJSON *ra = cJSON_GetObjectItem(root, "runs");
    const int workers = g->workers > 0 ? g->workers : 1;
    for (int i = 0; i < n && ra; i++) {
        cJSON *run = cJSON_GetArrayItem(ra, i);
        if (!o->per_rank) cJSON_AddNumberToObject(run, "rank", i % g->size);
        if (g->workers > 0)
            cJSON_AddNumberToObject(run, "worker", (o->per_rank ? i : i / g->size) % workers);
    }
}

static double g_upload_ms;
void bench_note_upload_ms(double ms) {
    if (g_upload_ms == 0.0) g_upload_ms = ms;
}
double bench_upload_ms(void) {
    return g_upload_ms;
}

int write_json(const bench_opts *o, const rc_scene *scene, const rc_settings *st,
               const bench_run *runs, int n, const bench_baselines *mk, const bench_gathered *g) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scene", o->common.scene);
    /* the scene's size and its load by stage (read and parse, BVH) */
    cJSON *load = cJSON_AddObjectToObject(root, "scene_load");
    cJSON_AddNumberToObject(load, "primitives", (double)scene->num_prims);
    cJSON_AddNumberToObject(load, "triangles", (double)scene->num_triangles);
    cJSON_AddNumberToObject(load, "vertices", (double)scene->num_vertices);
    cJSON_AddNumberToObject(load, "load_ms", scene->load_ms);
    cJSON_AddNumberToObject(load, "bvh_ms", scene->bvh_build_ms);
    cJSON_AddNumberToObject(load, "bvh_wide_ms", scene->bvh.wide_ms);
    cJSON_AddNumberToObject(
        load, "read_ms",
        fmax(0.0, scene->load_ms - scene->bvh_build_ms - scene->bvh.wide_ms - scene->image_ms));
    cJSON_AddNumberToObject(load, "images_ms", scene->image_ms);
    cJSON_AddNumberToObject(load, "bvh_nodes", scene->bvh.num_nodes);
    cJSON_AddStringToObject(load, "bvh_layout", rc_bvh_layout_name(scene->bvh.layout));
    cJSON_AddNumberToObject(load, "bvh_wide_nodes", scene->bvh.num_wide);
    /* what the traversal reads on the device: the layout's nodes and the primitives */
    cJSON_AddNumberToObject(load, "bvh_bytes", (double)rc_bvh_device_bytes(&scene->bvh));
    cJSON_AddNumberToObject(load, "sah_cost", rc_bvh_sah_cost(&scene->bvh));
    cJSON_AddNumberToObject(load, "host_bytes", (double)rc_scene_host_bytes(scene));
    cJSON_AddNumberToObject(load, "device_bytes", (double)rc_scene_device_bytes(scene));
    cJSON_AddNumberToObject(load, "upload_ms", bench_upload_ms());
    cJSON_AddStringToObject(root, "backend", rc_backend_name(st->backend));
    cJSON_AddNumberToObject(root, "width", st->width);
    cJSON_AddNumberToObject(root, "height", st->height);
    cJSON_AddNumberToObject(root, "max_depth", st->max_depth);
    cJSON_AddStringToObject(root, "light_sampling", rc_light_sampling_name(st->light_sampling));
    cJSON_AddBoolToObject(root, "sort_materials", st->sort_materials != 0);
    /* --shadows as asked, and where the shadow rays went ("none": no shadow ray) */
    const int rays = rc_shadow_rays(scene, st);
    cJSON_AddStringToObject(root, "shadows", rc_shadows_name(st->shadows));
    cJSON_AddStringToObject(root, "shadow_rays",
                            rays < 0 ? "none" : rc_shadows_name((rc_shadows)rays));
    cJSON_AddNumberToObject(root, "seed", st->seed);
    cJSON_AddNumberToObject(root, "samples_per_wave", st->samples_per_wave);
    cJSON_AddNumberToObject(root, "samples_per_frame", st->samples_per_wave);
    cJSON_AddStringToObject(root, "schedule", rc_schedule_name(st->schedule));
    cJSON_AddNumberToObject(root, "pool", st->tune.pool);
    cJSON_AddNumberToObject(root, "tail_below", st->tune.tail_below);
    cJSON_AddBoolToObject(root, "phase_timing", st->tune.phase_timing != 0);
    cJSON_AddNumberToObject(root, "auto_skip_below", st->tune.auto_skip_below);
    cJSON_AddBoolToObject(root, "spread", st->tune.spread != 0);
    cJSON_AddNumberToObject(root, "fetch", st->tune.fetch);
    cJSON_AddNumberToObject(root, "frames", o->frames);
    cJSON_AddNumberToObject(root, "warmup", o->warmup);
#ifdef _OPENMP
    cJSON_AddNumberToObject(root, "threads", omp_get_max_threads());
#else
    cJSON_AddNumberToObject(root, "threads", 1);
#endif
    cJSON *mks = cJSON_AddArrayToObject(root, "megakernels");
    for (int i = 0; i < mk->n; i++) {
        const bench_baseline *b = &mk->b[i];
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "kind", rc_megakernel_name(b->kind));
        cJSON_AddNumberToObject(m, "samples", b->samples);
        cJSON_AddNumberToObject(m, "ms", b->res.ms);
        cJSON_AddNumberToObject(m, "ms_min", b->res.min_ms);
        cJSON_AddNumberToObject(m, "ms_max", b->res.max_ms);
        add_ratio(m, "max_over_min", timing_spread(b->res.min_ms, b->res.max_ms));
        cJSON_AddBoolToObject(m, "noisy", timing_noisy(b->res.min_ms, b->res.max_ms));
        cJSON_AddNumberToObject(m, "rays", (double)b->res.rays);
        cJSON_AddNumberToObject(m, "rays_per_s", (double)b->res.rays / (b->res.ms * 1e-3));
        cJSON_AddNumberToObject(m, "pixels_differing_from_first_run", (double)b->differ);
        cJSON_AddNumberToObject(m, "block_rmse_vs_first_run", b->rmse);
        if (b->res.probed)
            cJSON_AddItemToObject(m, "divergence", bench_divergence_json(&b->res.probes));
        cJSON_AddItemToArray(mks, m);
    }
    cJSON *arr = cJSON_AddArrayToObject(root, "runs");
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(arr, run_json(runs, n, &runs[i], mk));
    ranks_json(root, o, n, g, mk);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    rc_error err;
    size_t len = text ? strlen(text) : 0;
    char *line = text ? realloc(text, len + 2) : NULL; /* the file ends in a newline */
    if (line) {
        line[len++] = '\n';
        text = line;
    }
    int rc = line ? rc_write_file(o->json, text, len, &err)
                  : rc_fail(&err, "%s: out of memory", o->json);
    free(text);
    if (rc != 0) fprintf(stderr, "raycompact bench: %s\n", err.msg);
    return rc != 0 ? RC_EXIT_FAIL : 0;
}
