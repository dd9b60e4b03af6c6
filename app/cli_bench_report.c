/* cli_bench_report.c: what `raycompact bench` prints and writes: the summary table, the
 * per-bounce tables, the ranks of an MPI job, and the JSON (cli_bench.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli_bench.h"
#include "out_path.h"
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

/* A time column (ms, or a share in %), or "-" where the phases were not timed. */
static void ms_col(double v, int width) {
    if (bench_phases)
        printf(" %*.3f", width, v);
    else
        printf(" %*s", width, "-");
}
static void share_col(double pct, int width) {
    if (bench_phases)
        printf(" %*.1f%%", width - 1, pct);
    else
        printf(" %*s", width, "-");
}

/* The header of the per-bounce tables (--bounces). */
void print_bounce_header(void) {
    printf("\n%-14s %-8s %-6s %6s %10s %10s %10s %8s %9s %9s %9s %7s %10s %10s %9s %9s %9s "
           "%s\n",
           "algorithm", "mode", "loop", "bounce", "rays in", "alive", "kept", "removed", "extend",
           "shade", "compact", "share", "shadow in", "shadow kept", "shadow", "sort", "tail",
           "chosen");
}

void print_bounces(const bench_run *rn) {
    const rc_stats_total *t = &rn->tot;
    double fr = t->frames ? (double)t->frames : 1.0;
    for (uint32_t b = 0; b < t->bounces; b++) {
        const rc_bounce_total *o = &t->bounce[b];
        double sum = o->extend_ms + o->shade_ms + o->compact_ms;
        printf("%-14s %-8s %-6s %6u %10.0f %10.0f %10.0f %7.1f%%", rn->algo, rc_mode_name(rn->mode),
               rc_frame_loop_name(rn->loop), b, (double)o->stream / fr, (double)o->alive / fr,
               (double)o->kept / fr,
               o->alive ? 100.0 * (double)(o->alive - o->kept) / (double)o->alive : 0.0);
        ms_col(o->extend_ms / fr, 9);
        ms_col(o->shade_ms / fr, 9);
        ms_col(o->compact_ms / fr, 9);
        share_col(sum > 0 ? 100.0 * o->compact_ms / sum : 0.0, 7);
        printf(" %10.0f %10.0f", (double)o->shadow_in / fr, (double)o->shadow_kept / fr);
        ms_col(o->shadow_ms / fr, 9);
        ms_col(o->sort_ms / fr, 9);
        ms_col(o->tail_ms / fr, 9);
        printf(" %s\n", rc_stats_algo(o));
    }
}

/* The runs' speed against `none` in the same mode (frames/s ratio), or 0 without one. */
static double vs_none(const bench_run *runs, int n, const bench_run *rn) {
    for (int i = 0; i < n; i++)
        if (!runs[i].skipped && strcmp(runs[i].algo, RC_COMPACT_NONE_NAME) == 0 &&
            runs[i].mode == rn->mode && runs[i].loop == rn->loop && rn->median_ms > 0)
            return runs[i].median_ms / rn->median_ms;
    return 0.0;
}

/* How many times faster than a megakernel the run rendered the same samples. */
static double vs_megakernel(const bench_baseline *mk, const bench_run *rn) {
    return rn->tot.total_ms > 0 ? mk->res.ms / rn->tot.total_ms : 0.0;
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

/* What each megakernel is, for the lines under the table. */
static const char *megakernel_about(rc_megakernel_kind k) {
    return k == RC_MEGAKERNEL_BVH          ? "one thread per pixel, BVH"
           : k == RC_MEGAKERNEL_PERSISTENT ? "persistent threads, BVH"
           : k == RC_MEGAKERNEL_FLAT       ? "one thread per pixel, no BVH"
                                           : "RTIOW objects, no BVH";
}

void print_summary(const bench_run *runs, int n, const bench_baselines *mk, uint32_t pixels) {
    printf("\n%-14s %-8s %-6s %9s %8s %10s %7s %9s %7s", "algorithm", "mode", "loop", "frame ms",
           "fps", "compact ms", "share", "Mrays/s", "x none");
    for (int i = 0; i < mk->n; i++) printf(" %10s", rc_megakernel_name(mk->b[i].kind));
    const bench_baseline *best = best_megakernel(mk);
    if (best) printf(" %6s", "x mk");
    printf("  %-16s\n", "image");
    for (int i = 0; i < n; i++) {
        const bench_run *rn = &runs[i];
        if (rn->skipped) {
            printf("%-14s %-8s %-6s skipped: %s\n", rn->algo, rc_mode_name(rn->mode),
                   rc_frame_loop_name(rn->loop), rn->skipped);
            continue;
        }
        const rc_stats_total *t = &rn->tot;
        double fr = t->frames, c = rc_stats_compact_ms(t);
        printf("%-14s %-8s %-6s %9.3f %8.1f", rn->algo, rc_mode_name(rn->mode),
               rc_frame_loop_name(rn->loop), rn->median_ms, 1e3 / rn->median_ms);
        ms_col(c / fr, 10);
        share_col(t->total_ms > 0 ? 100.0 * c / t->total_ms : 0.0, 7);
        printf(" %9.1f %7.2f", (double)rc_stats_rays(t) / (t->total_ms * 1e3),
               vs_none(runs, n, rn));
        for (int b = 0; b < mk->n; b++) printf(" %9.2fx", vs_megakernel(&mk->b[b], rn));
        if (best) printf(" %5.2fx", vs_megakernel(best, rn));
        printf("  %016llx\n", (unsigned long long)rn->image_hash);
    }
    if (mk->n) printf("\n");
    for (int i = 0; i < mk->n; i++) {
        const bench_baseline *b = &mk->b[i];
        printf("megakernel %-10s (%s): %u samples per pixel in %.2f ms, "
               "%.1f Mrays/s; against the first run's image: %zu of %u pixels differ, 8x8 block "
               "RMSE %.5f\n",
               rc_megakernel_name(b->kind), megakernel_about(b->kind), b->samples, b->res.ms,
               (double)b->res.rays / (b->res.ms * 1e3), b->differ, pixels, b->rmse);
    }
}

/* A time (or a share of time) in the JSON, null where the phases were not timed. */
static void add_ms(cJSON *o, const char *key, double v) {
    if (bench_phases)
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
    cJSON_AddNumberToObject(o, "speedup_vs_none", vs_none(runs, n, rn));
    for (int i = 0; i < mk->n; i++) {
        char key[64];
        snprintf(key, sizeof key, "speedup_vs_megakernel_%s", rc_megakernel_name(mk->b[i].kind));
        cJSON_AddNumberToObject(o, key, vs_megakernel(&mk->b[i], rn));
    }
    const bench_baseline *best = best_megakernel(mk);
    if (best) {
        cJSON_AddNumberToObject(o, "speedup_vs_megakernel", vs_megakernel(best, rn));
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
    cJSON *lib = cJSON_AddObjectToObject(o, "library_phases_ms");
    for (size_t i = 0; i < t->num_lib; i++)
        cJSON_AddNumberToObject(lib, t->lib[i].name, t->lib[i].ms / fr);
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
        cJSON_AddItemToArray(arr, j);
    }
    return o;
}

/* After the summary: where the runs ran, and with --per-rank every other rank's summary. */
void print_ranks(const bench_opts *o, int n, const bench_gathered *g, uint32_t pixels) {
    if (g->size == 1) return;
    bench_baselines none;
    memset(&none, 0, sizeof none);
    printf("\n%d MPI ranks, %s:\n", g->size,
           o->per_rank ? "each timed every run" : "the runs shared out in turn");
    for (int r = 0; r < g->size; r++) {
        printf("  rank %d on %s: %s\n", r, g->info[r].host, g->info[r].device);
        if (o->per_rank && r > 0) print_summary(&g->rank_runs[(size_t)r * n], n, &none, pixels);
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
    if (o->per_rank) return;
    cJSON *ra = cJSON_GetObjectItem(root, "runs");
    for (int i = 0; i < n && ra; i++)
        cJSON_AddNumberToObject(cJSON_GetArrayItem(ra, i), "rank", i % g->size);
}

int write_json(const bench_opts *o, const rc_settings *st, const bench_run *runs, int n,
               const bench_baselines *mk, const bench_gathered *g) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scene", o->common.scene);
    cJSON_AddStringToObject(root, "backend", rc_backend_name(st->backend));
    cJSON_AddNumberToObject(root, "width", st->width);
    cJSON_AddNumberToObject(root, "height", st->height);
    cJSON_AddNumberToObject(root, "max_depth", st->max_depth);
    cJSON_AddStringToObject(root, "light_sampling", rc_light_sampling_name(st->light_sampling));
    cJSON_AddBoolToObject(root, "sort_materials", st->sort_materials != 0);
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
        cJSON_AddNumberToObject(m, "rays", (double)b->res.rays);
        cJSON_AddNumberToObject(m, "rays_per_s", (double)b->res.rays / (b->res.ms * 1e-3));
        cJSON_AddNumberToObject(m, "pixels_differing_from_first_run", (double)b->differ);
        cJSON_AddNumberToObject(m, "block_rmse_vs_first_run", b->rmse);
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
