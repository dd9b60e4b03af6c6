/* cli_bench.c: `raycompact bench`: render the same frames with every compaction algorithm
 * and mode, and report per bounce what each phase cost and compaction's share. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "image.h"
#include "mpi_run.h"
#include "rank_timing.h"
#include "stats.h"
#include "timing.h"
#include "wavefront/compact.h"
#include "wavefront/megakernel.h"
#include "wavefront/path.h"
#include "out_path.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

static void usage(FILE *f) {
    fprintf(f,
            "usage: raycompact bench --scene FILE [options]\n"
            "\n"
            "Render the same frames with each compaction algorithm and mode ('none' included:\n"
            "ended paths stay in the stream and are skipped) and report, per bounce, the rays,\n"
            "the time of each phase, compaction's share and the rays per second. Every\n"
            "algorithm must produce the same image: the 'image' column is a hash of it.\n"
            "\n"
            "options:\n"
            "  --scene FILE          scene file (JSON)\n"
            "  --algos all|LIST      comma-separated names, or all (default): %s\n"
            "  --modes LIST          indices,payload (default both)\n"
            "  --frames N            timed frames per run (default 4)\n"
            "  --warmup N            untimed frames first (default 1)\n"
            "  --width W --height H  image size (default: the scene's)\n"
            "  --max-depth D         bounces per path (default: the scene's)\n"
            "  --samples-per-frame N|auto\n"
            "                        samples per pixel one frame renders (default 1; auto: on\n"
            "                        CUDA as many as fit %u paths; also "
            "--samples-per-wave)\n" CLI_HELP_SCHEDULE
            "  --backend cpu|cuda    default: cuda when a device is usable, else cpu\n"
            "  --frame-loop LIST     CUDA: graph (default: device-side lengths, the frame\n"
            "                        captured once and replayed), stream (the same, launched\n"
            "                        call by call), host (the counts read back after every\n"
            "                        bounce); comma-separated to compare them\n" CLI_HELP_TUNING
            "  --light-sampling L    nee (default: light samples, a shadow-ray stream compacted\n"
            "                        like the paths, MIS) or bsdf; default: the scene's\n"
            "  --sort-materials      before shade, partition the stream by material kind\n"
            "                        (sc_partition); shade runs once per kind\n"
            "  --seed S              0..%u: an independent set of samples\n"
            "  --phase-timing on|off time each phase with events around it (default on); off:\n"
            "                        CUDA frames carry no events and only the frame time is\n"
            "                        reported (the events cost a one-sample frame 3-22 %%)\n"
            "  --library-phases      also time the library's own phases (CUDA: syncs)\n"
            "  --bounces             after the summary, each run's table per bounce (rays,\n"
            "                        alive, kept, each phase's time, auto's choice)\n"
            "  --megakernel LIST     also time megakernel baselines for the same samples (one\n"
            "                        CUDA kernel runs every path whole, no ray stream) and\n"
            "                        report each run's speed-up over them; LIST: comma-separated,\n"
            "                        any of: bvh (one thread per pixel, the renderer's per-path\n"
            "                        code and BVH), persistent (the same code in persistent\n"
            "                        threads taking (pixel, sample) batches from a counter),\n"
            "                        flat (one thread per pixel, no BVH), objects (the CUDA port\n"
            "                        of Ray Tracing in One Weekend: virtual hit/scatter, curand,\n"
            "                        BSDF sampling only; spheres only); all: the four. Column\n"
            "                        'x mk': against the faster of bvh and persistent\n"
            "  --max-memory MIB      refuse a scene or image whose host memory would exceed\n"
            "                        this (default %u MiB)\n"
            "  --json FILE           write the results as JSON\n"
            "  --per-rank            under MPI (mpirun -n N): every rank times every run on its\n"
            "                        own GPU (default: the runs are shared out over the ranks)\n"
            "  --help                this text\n",
            rc_compact_all_names(), CLI_AUTO_WAVE_PATHS, RC_MAX_SEED, RC_DEFAULT_MAX_MEMORY_MIB);
}

#define MAX_RUNS 64

typedef struct bench_opts {
    cli_common common;
    const char *algos, *modes, *json;
    uint32_t frames, warmup;
    const char *megakernel;
    int library_phases;
    int bounces;      /* --bounces: the per-bounce tables after the summary */
    int phase_timing; /* --phase-timing: 1 on, 0 off, -1 not given */
    int per_rank;     /* MPI: every rank times every run (else the runs are shared out) */
} bench_opts;

/* A megakernel baseline's image and time, and how the first run's image compares with it. */
typedef struct baseline {
    rc_megakernel_kind kind;
    uint32_t samples;
    rc_megakernel_result res;
    float *rgb;
    int compared;
    size_t differ; /* pixels whose value differs from the first run's */
    double rmse;   /* block RMSE against the first run's image (8x8 blocks, clamped) */
} baseline;

typedef struct baselines {
    int n;
    baseline b[RC_MEGAKERNEL_COUNT];
} baselines;

typedef struct run {
    const char *algo;
    rc_mode mode;
    rc_frame_loop loop;
    const char *skipped; /* why it did not run, or NULL */
    char reason[sizeof(((rc_error *)0)->msg)];
    rc_stats_total tot;
    double median_ms; /* median wall time of one frame */
    uint64_t image_hash;
} run;

static int parse(int argc, char **argv, bench_opts *o) {
    cli_args a = {"bench", argc, argv, 1, NULL, NULL};
    o->frames = 4;
    o->phase_timing = -1;
    o->warmup = 1;
    for (; a.i < argc; a.i++) {
        int r = cli_shared_option(&a, &o->common, usage);
        if (r != 0 && r != 1) return r == CLI_HELP_SHOWN ? -1 : RC_EXIT_USAGE;
        if (r > 0) continue;
        if ((r = cli_is(&a, "--algos", 1)) != 0) {
            o->algos = a.value;
        } else if ((r = cli_is(&a, "--modes", 1)) != 0) {
            o->modes = a.value;
        } else if ((r = cli_is(&a, "--json", 1)) != 0) {
            o->json = a.value;
        } else if ((r = cli_is(&a, "--frames", 1)) != 0) {
            if (r > 0 && cli_uint(&a, 1, 100000, &o->frames) != 0) return RC_EXIT_USAGE;
        } else if ((r = cli_is(&a, "--warmup", 1)) != 0) {
            if (r > 0 && cli_uint(&a, 0, 100000, &o->warmup) != 0) return RC_EXIT_USAGE;
        } else if ((r = cli_is(&a, "--phase-timing", 1)) != 0) {
            if (r > 0 && cli_on_off("bench", a.opt, a.value, &o->phase_timing) != 0)
                return RC_EXIT_USAGE;
        } else if ((r = cli_is(&a, "--library-phases", 0)) != 0) {
            o->library_phases = 1;
        } else if ((r = cli_is(&a, "--bounces", 0)) != 0) {
            o->bounces = 1;
        } else if ((r = cli_is(&a, "--per-rank", 0)) != 0) {
            o->per_rank = 1;
        } else if ((r = cli_is(&a, "--megakernel", 1)) != 0) {
            o->megakernel = a.value;
        } else {
            return cli_usage_error("bench", "unknown option '%s' (see --help)", argv[a.i]);
        }
        if (r < 0) return cli_usage_error("bench", "%s needs a value", a.opt);
    }
    if (o->json && cli_check_name("bench", "--json", o->json) != 0) return RC_EXIT_USAGE;
    return 0;
}

int cli_bench_parse(int argc, char **argv) {
    bench_opts o;
    memset(&o, 0, sizeof o);
    return parse(argc, argv, &o);
}

/* The items of a comma-separated list, counted on the option's own value (the buffers that
 * split_list cuts are of a fixed size), empty ones skipped as split_list skips them. */
static int count_items(const char *s) {
    int n = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        n += len > 0;
        s += len;
        if (*s) s++;
    }
    return n;
}

/* Split a comma-separated list in place; returns the count or -1 if over cap. */
static int split_list(char *s, const char **items, int cap) {
    int n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        if (n == cap) return -1;
        items[n++] = tok;
    }
    return n;
}

static uint64_t fnv1a(const float *v, size_t n) {
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)v;
    for (size_t i = 0; i < n * sizeof *v; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* Pixels of two linear RGB images that differ by more than float rounding. */
static size_t pixels_differing(const float *a, const float *b, size_t pixels) {
    size_t n = 0;
    for (size_t p = 0; p < pixels; p++) {
        int same = 1;
        for (size_t c = 0; c < 3; c++) {
            float x = a[3 * p + c], y = b[3 * p + c];
            same &= fabsf(x - y) <= 1e-6f * (1.0f + fabsf(x));
        }
        n += !same;
    }
    return n;
}

static int run_one(const bench_opts *o, const rc_scene *scene, const rc_settings *st, run *out,
                   float *rgb, baselines *mk) {
    rc_error err;
    rc_renderer *r;
    int made = rc_renderer_create(scene, st, &r, &err);
    cli_timing_lap(CLI_PHASE_CREATE);
    if (made != 0) {
        snprintf(out->reason, sizeof out->reason, "%s", err.msg);
        out->skipped = out->reason;
        return 0;
    }
    double *ms = malloc(o->frames * sizeof *ms);
    int rc = ms ? 0 : rc_fail(&err, "out of memory");
    /* The warm-up frames are rendered and then reset away; each timed frame's time is its own
     * total (CUDA events or the monotonic clock, rc_frame_stats). */
    timing_runs t;
    timing_begin(&t, (int)o->warmup, (int)o->frames, ms);
    for (int frame = 0; rc == 0 && timing_next(&t); frame++) {
        if (timing_slot(&t) < 0) {
            rc = rc_render_frame(r, NULL, &err);
            cli_timing_lap(frame == 0 ? CLI_PHASE_FIRST : CLI_PHASE_FRAMES);
            continue;
        }
        if (timing_slot(&t) == 0) rc_renderer_reset(r);
        rc_frame_stats fs;
        rc = rc_render_frame(r, &fs, &err);
        cli_timing_lap(frame == 0 ? CLI_PHASE_FIRST : CLI_PHASE_FRAMES);
        if (rc == 0) rc_stats_total_add(&out->tot, &fs);
        if (rc == 0) timing_record(&t, fs.total_ms);
        if (rc == 0) out->loop = fs.loop;
    }
    size_t pixels = (size_t)st->width * st->height;
    if (rc == 0) rc = rc_renderer_image(r, rgb, &err);
    if (rc == 0) {
        out->image_hash = fnv1a(rgb, 3 * pixels);
        out->median_ms = timing_summary(ms, (int)o->frames).median;
        for (int i = 0; i < mk->n; i++) {
            baseline *b = &mk->b[i];
            if (b->compared) continue;
            b->compared = 1;
            b->differ = pixels_differing(rgb, b->rgb, pixels);
            b->rmse = rc_image_block_rmse(rgb, b->rgb, st->width, st->height, 8);
        }
    }
    free(ms);
    rc_renderer_destroy(r);
    cli_timing_lap(CLI_PHASE_FRAMES); /* the image read back and compared */
    if (rc != 0)
        fprintf(stderr, "raycompact bench: %s/%s: %s\n", st->algo, rc_mode_name(st->mode), err.msg);
    return rc;
}

/* --phase-timing: the phases were timed (else their columns read "-" and the JSON null) */
static int bench_phases = 1;

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
static void print_bounce_header(void) {
    printf("\n%-14s %-8s %-6s %6s %10s %10s %10s %8s %9s %9s %9s %7s %10s %10s %9s %9s %9s "
           "%s\n",
           "algorithm", "mode", "loop", "bounce", "rays in", "alive", "kept", "removed", "extend",
           "shade", "compact", "share", "shadow in", "shadow kept", "shadow", "sort", "tail",
           "chosen");
}

static void print_bounces(const run *rn) {
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
static double vs_none(const run *runs, int n, const run *rn) {
    for (int i = 0; i < n; i++)
        if (!runs[i].skipped && strcmp(runs[i].algo, RC_COMPACT_NONE_NAME) == 0 &&
            runs[i].mode == rn->mode && runs[i].loop == rn->loop && rn->median_ms > 0)
            return runs[i].median_ms / rn->median_ms;
    return 0.0;
}

/* How many times faster than a megakernel the run rendered the same samples. */
static double vs_megakernel(const baseline *mk, const run *rn) {
    return rn->tot.total_ms > 0 ? mk->res.ms / rn->tot.total_ms : 0.0;
}

/* The faster of the bvh and persistent megakernels (the fair baselines), or NULL. */
static const baseline *best_megakernel(const baselines *mk) {
    const baseline *best = NULL;
    for (int i = 0; i < mk->n; i++) {
        const baseline *b = &mk->b[i];
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

static void print_summary(const run *runs, int n, const baselines *mk, uint32_t pixels) {
    printf("\n%-14s %-8s %-6s %9s %8s %10s %7s %9s %7s", "algorithm", "mode", "loop", "frame ms",
           "fps", "compact ms", "share", "Mrays/s", "x none");
    for (int i = 0; i < mk->n; i++) printf(" %10s", rc_megakernel_name(mk->b[i].kind));
    const baseline *best = best_megakernel(mk);
    if (best) printf(" %6s", "x mk");
    printf("  %-16s\n", "image");
    for (int i = 0; i < n; i++) {
        const run *rn = &runs[i];
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
        const baseline *b = &mk->b[i];
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

static cJSON *run_json(const run *runs, int n, const run *rn, const baselines *mk) {
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
    const baseline *best = best_megakernel(mk);
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

/* ---- MPI (mpi_run.h): the runs shared out over the ranks, or every run on every rank
 * (--per-rank); rank 0 gathers them, prints and writes the JSON ---- */

/* A run as bytes another process can read: the library's phase names copied, not pointed to. */
typedef struct packed_run {
    run r;
    char lib[SC_MAX_PHASES][48];
} packed_run;

typedef struct rank_info {
    char host[128], device[256];
} rank_info;

/* Rank 0's view of the job after the gather; size 1 without MPI. */
typedef struct gathered {
    int size;
    packed_run *all;        /* size x n runs, rank by rank (rank 0 only) */
    rank_info *info;        /* size (rank 0 only) */
    run *rank_runs;         /* --per-rank: size x n runs made readable here (rank 0 only) */
    cli_rank_timing *times; /* size rows: where each rank's time went (rank 0 only) */
} gathered;

/* Does this rank time run i? */
static int bench_mine(const bench_opts *o, int i) {
    return o->per_rank || i % cli_mpi_size() == cli_mpi_rank();
}

/* A received run, readable here: algorithm, mode and loop as `dst` has them (every rank builds
 * the same list), the phase names pointing into the packed copy. */
static void unpack_run(run *dst, packed_run *p) {
    run keep = *dst;
    *dst = p->r;
    dst->algo = keep.algo;
    dst->mode = keep.mode;
    dst->skipped = p->r.skipped ? dst->reason : NULL;
    for (size_t j = 0; j < dst->tot.num_lib && j < SC_MAX_PHASES; j++)
        dst->tot.lib[j].name = p->lib[j];
}

/* Every rank's runs and device to rank 0; in shared-out mode rank 0's `runs` then holds every
 * run. On a failure the job ends (cli_mpi_fail). */
static int gather_runs(const bench_opts *o, rc_backend b, run *runs, int n, gathered *g) {
    int size = cli_mpi_size(), rank = cli_mpi_rank();
    rc_error err;
    memset(g, 0, sizeof *g);
    g->size = size;
    packed_run *mine = calloc((size_t)n, sizeof *mine);
    rank_info me;
    memset(&me, 0, sizeof me);
    snprintf(me.host, sizeof me.host, "%s", cli_mpi_host());
    snprintf(me.device, sizeof me.device, "%s", cli_mpi_device(b));
    if (rank == 0) {
        g->all = calloc((size_t)size * n, sizeof *g->all);
        g->info = calloc((size_t)size, sizeof *g->info);
        g->rank_runs = calloc((size_t)size * n, sizeof *g->rank_runs);
    }
    int rc = mine && (rank != 0 || (g->all && g->info && g->rank_runs))
                 ? 0
                 : rc_fail(&err, "out of memory");
    for (int i = 0; rc == 0 && i < n; i++) {
        if (!bench_mine(o, i)) continue;
        mine[i].r = runs[i];
        for (size_t j = 0; j < runs[i].tot.num_lib && j < SC_MAX_PHASES; j++)
            snprintf(mine[i].lib[j], sizeof mine[i].lib[j], "%s", runs[i].tot.lib[j].name);
    }
    if (rc == 0) rc = cli_mpi_gather(mine, (size_t)n * sizeof *mine, g->all, &err);
    if (rc == 0) rc = cli_mpi_gather(&me, sizeof me, g->info, &err);
    free(mine);
    if (rc != 0) {
        fprintf(stderr, "raycompact bench: %s\n", err.msg);
        return cli_mpi_fail(RC_EXIT_FAIL);
    }
    for (int i = 0; rank == 0 && i < n; i++) {
        for (int r = 0; r < size; r++) {
            run *dst = &g->rank_runs[(size_t)r * n + i];
            *dst = runs[i];
            if (o->per_rank || i % size == r) unpack_run(dst, &g->all[(size_t)r * n + i]);
        }
        if (!o->per_rank) runs[i] = g->rank_runs[(size_t)(i % size) * n + i];
    }
    return 0;
}

static void free_gathered(gathered *g) {
    free(g->all);
    free(g->info);
    free(g->rank_runs);
    free(g->times);
}

/* After the summary: where the runs ran, and with --per-rank every other rank's summary. */
static void print_ranks(const bench_opts *o, int n, const gathered *g, uint32_t pixels) {
    if (g->size == 1) return;
    baselines none;
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
static void ranks_json(cJSON *root, const bench_opts *o, int n, const gathered *g,
                       const baselines *mk) {
    baselines none;
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
            const run *rr = &g->rank_runs[(size_t)r * n];
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

static int write_json(const bench_opts *o, const rc_settings *st, const run *runs, int n,
                      const baselines *mk, const gathered *g) {
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
    cJSON_AddNumberToObject(root, "frames", o->frames);
    cJSON_AddNumberToObject(root, "warmup", o->warmup);
#ifdef _OPENMP
    cJSON_AddNumberToObject(root, "threads", omp_get_max_threads());
#else
    cJSON_AddNumberToObject(root, "threads", 1);
#endif
    cJSON *mks = cJSON_AddArrayToObject(root, "megakernels");
    for (int i = 0; i < mk->n; i++) {
        const baseline *b = &mk->b[i];
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

/* The baselines for the samples every run renders: frames x samples per wave, from sample 0. */
static int run_megakernels(const bench_opts *o, const rc_scene *scene, const rc_settings *st,
                           baselines *mk) {
    char buf[64];
    const char *items[RC_MEGAKERNEL_COUNT];
    int spheres = 1; /* `all` takes objects where the scene is spheres only */
    for (uint32_t i = 0; i < scene->bvh.num_prims; i++)
        spheres &= rc_prim_type(&scene->bvh.prims[i]) == RC_PRIM_SPHERE;
    snprintf(buf, sizeof buf, "%s",
             strcmp(o->megakernel, "all") != 0 ? o->megakernel
             : spheres                         ? "bvh,persistent,flat,objects"
                                               : "bvh,persistent,flat");
    int n = strlen(o->megakernel) < sizeof buf ? split_list(buf, items, RC_MEGAKERNEL_COUNT) : -1;
    if (n <= 0)
        return cli_usage_error("bench",
                               "--megakernel: expected all or a comma-separated list of "
                               "at most %d of: bvh, persistent, flat, objects",
                               RC_MEGAKERNEL_COUNT);
    for (int i = 0; i < n; i++) {
        baseline *b = &mk->b[i];
        if (rc_megakernel_parse(items[i], &b->kind) != 0)
            return cli_usage_error(
                "bench", "--megakernel: '%s' is not one of: bvh, persistent, flat, objects",
                items[i]);
        for (int j = 0; j < i; j++)
            if (mk->b[j].kind == b->kind)
                return cli_usage_error("bench", "--megakernel: '%s' is listed twice", items[i]);
    }
    if (st->backend != RC_BACKEND_CUDA)
        return cli_usage_error("bench", "--megakernel needs the CUDA backend");
    for (int i = 0; i < n; i++) {
        baseline *b = &mk->b[i];
        b->samples = o->frames * st->samples_per_wave;
        b->rgb = malloc((size_t)st->width * st->height * 3 * sizeof *b->rgb);
        mk->n = i + 1;
        rc_error err;
        if (!b->rgb) {
            fprintf(stderr, "raycompact bench: out of memory\n");
            return RC_EXIT_FAIL;
        }
        fprintf(stderr, "raycompact bench: %s megakernel, %u samples per pixel...\n", items[i],
                b->samples);
        if (rc_megakernel_render(scene, st, b->kind, b->samples, 3, b->rgb, &b->res, &err) != 0) {
            fprintf(stderr, "raycompact bench: %s\n", err.msg);
            return RC_EXIT_FAIL;
        }
    }
    return 0;
}

static void free_megakernels(baselines *mk) {
    for (int i = 0; i < mk->n; i++) free(mk->b[i].rgb);
}

/* Under --algos all: the library's algorithms the backend does not run, and why. */
static void print_left_out(rc_backend backend) {
    sc_backend b = backend == RC_BACKEND_CUDA ? SC_BACKEND_CUDA : SC_BACKEND_CPU;
    const char *sep = "";
    for (int a = 0; a < SC_ALGO_COUNT; a++) {
        const sc_algorithm_info *info = sc_algorithm_get((sc_algorithm)a);
        if (info->backends & (1u << b)) continue;
        printf("%s%s", *sep ? sep : "--algos all leaves out ", info->name);
        sep = ", ";
    }
    if (*sep) printf(": %s backend only\n", backend == RC_BACKEND_CUDA ? "CPU" : "CUDA");
}

/* The algorithm and mode lists; "all" = every name the backend lists. */
static int lists(bench_opts *o, rc_backend b, char *abuf, char *mbuf, const char **algos, int *na,
                 rc_mode *modes, int *nm, char *lbuf, rc_frame_loop *loops, int *nl) {
    const char *mitems[4], *litems[3];
    /* Each list's limit is named, with the count given, before the lists are split. */
    int got = o->common.frame_loop ? count_items(o->common.frame_loop) : 0;
    if (got > 3)
        return cli_usage_error("bench", "--frame-loop: at most 3 of graph, stream, host (got %d)",
                               got);
    if ((got = o->modes ? count_items(o->modes) : 0) > 2)
        return cli_usage_error("bench", "--modes: at most 2 of indices, payload (got %d)", got);
    if ((got = o->algos ? count_items(o->algos) : 0) > MAX_RUNS / 2)
        return cli_usage_error("bench", "--algos: at most %d names (got %d)", MAX_RUNS / 2, got);
    if ((*nl = split_list(lbuf, litems, 3)) <= 0)
        return cli_usage_error("bench", "--frame-loop: expected graph, stream, host or a list");
    for (int i = 0; i < *nl; i++)
        if (cli_frame_loop("bench", litems[i], &loops[i]) != 0) return RC_EXIT_USAGE;
    if (b == RC_BACKEND_CPU && *nl > 1)
        return cli_usage_error("bench", "--frame-loop: the CPU backend has one frame loop");
    if (!o->algos || strcmp(o->algos, "all") == 0) {
        *na = (int)rc_compact_names(b, algos, MAX_RUNS / 2);
    } else if ((*na = split_list(abuf, algos, MAX_RUNS / 2)) <= 0) {
        return cli_usage_error("bench", "--algos: expected all or a comma-separated list");
    } else {
        for (int i = 0; i < *na; i++) {
            rc_error err;
            if (rc_compact_check(algos[i], b, &err) != 0)
                return cli_usage_error("bench", "%s", err.msg);
        }
    }
    if ((*nm = split_list(mbuf, mitems, 2)) <= 0)
        return cli_usage_error("bench", "--modes: expected indices, payload or both");
    for (int i = 0; i < *nm; i++)
        if (rc_mode_parse(mitems[i], &modes[i]) != 0)
            return cli_usage_error("bench", "--modes: '%s' is not one of: indices, payload",
                                   mitems[i]);
    return 0;
}

static int bench(bench_opts *o, const rc_scene *scene, rc_settings *st) {
    char abuf[512], mbuf[64], lbuf[64];
    snprintf(abuf, sizeof abuf, "%s", o->algos ? o->algos : "all");
    snprintf(mbuf, sizeof mbuf, "%s", o->modes ? o->modes : "indices,payload");
    snprintf(lbuf, sizeof lbuf, "%s", o->common.frame_loop ? o->common.frame_loop : "graph");
    const char *algos[MAX_RUNS / 2];
    rc_mode modes[2];
    rc_frame_loop loops[3];
    int na = 0, nm = 0, nl = 0, rc;
    if ((rc = lists(o, st->backend, abuf, mbuf, algos, &na, modes, &nm, lbuf, loops, &nl)) != 0)
        return rc;
    int all = !o->algos || strcmp(o->algos, "all") == 0;
    run *runs = calloc((size_t)(na * nm * nl), sizeof *runs);
    float *rgb = malloc((size_t)st->width * st->height * 3 * sizeof *rgb);
    if (!runs || !rgb) {
        free(runs);
        free(rgb);
        fprintf(stderr, "raycompact bench: out of memory\n");
        return RC_EXIT_FAIL;
    }
    baselines mk;
    memset(&mk, 0, sizeof mk);
    /* Shared out, the baselines run on rank 0, beside the first run they are compared with. */
    if (o->megakernel && (o->per_rank || cli_mpi_rank() == 0) &&
        (rc = run_megakernels(o, scene, st, &mk)) != 0) {
        free(runs);
        free(rgb);
        free_megakernels(&mk);
        return rc;
    }
    cli_timing_lap(CLI_PHASE_FRAMES); /* the baselines */
    /* The ranks work together from here: a failure on one ends the job. */
    if (cli_mpi_agree(0) != 0) rc = RC_EXIT_USAGE;
    cli_timing_lap(CLI_PHASE_SETUP);
    int root = cli_mpi_rank() == 0;
    if (rc == 0 && root) {
        char sched[64] = "waves";
        if (st->schedule == RC_SCHEDULE_REGEN)
            snprintf(sched, sizeof sched, "regen, pool %u",
                     st->tune.pool ? st->tune.pool : rc_default_pool(st->backend));
        printf("%s: %ux%u, %u frames (+%u warmup) of %u samples per pixel (%s), max depth %u, %s "
               "backend, light sampling %s%s%s\n",
               o->common.scene, st->width, st->height, o->frames, o->warmup, st->samples_per_wave,
               sched, st->max_depth, rc_backend_name(st->backend),
               rc_light_sampling_name(st->light_sampling),
               st->sort_materials ? ", sorted by material" : "",
               st->tune.phase_timing ? "" : ", phases not timed (--phase-timing off)");
        if (all) print_left_out(st->backend);
        fflush(stdout);
    }
    int n = 0;
    uint32_t timed = 0;
    for (int i = 0; i < na && rc == 0; i++) {
        for (int m = 0; m < nm * nl && rc == 0; m++, n++) {
            run *rn = &runs[n];
            st->algo = algos[i];
            st->mode = modes[m / nl];
            st->frame_loop = loops[m % nl];
            rn->algo = algos[i];
            rn->mode = modes[m / nl];
            rn->loop = loops[m % nl];
            if (!bench_mine(o, n)) continue; /* another rank times it */
            cli_timing_samples(++timed);
            rc = run_one(o, scene, st, rn, rgb, &mk) != 0 ? RC_EXIT_FAIL : 0;
            /* `all` skips an algorithm this build lacks; any other run that cannot be set up
             * (out of GPU memory, say) ends the bench, whatever was asked for. */
            if (rn->skipped && (!all || rc_compact_check(rn->algo, st->backend, NULL) == 0)) {
                fprintf(stderr, "raycompact bench: %s\n", rn->skipped);
                rc = RC_EXIT_USAGE;
            }
            if (rc == 0 && !rn->skipped && root)
                fprintf(stderr, "raycompact bench: run %d of %d done: %s %s %s, %.3f ms a frame\n",
                        n + 1, na * nm * nl, rn->algo, rc_mode_name(rn->mode),
                        rc_frame_loop_name(rn->loop), rn->median_ms);
        }
    }
    if (rc != 0) rc = cli_mpi_fail(rc); /* with several ranks, the job ends here */
    gathered g;
    memset(&g, 0, sizeof g);
    if (rc == 0) rc = gather_runs(o, st->backend, runs, n, &g);
    cli_timing_lap(CLI_PHASE_REDUCE);
    /* Every rank's times to rank 0 in one small gather; the others are done after it. */
    if (rc == 0 && root) g.times = calloc((size_t)g.size, sizeof *g.times);
    rc_error err;
    if (rc == 0 && ((root && !g.times) || cli_timing_gather(g.times, &err) != 0)) {
        fprintf(stderr, "raycompact bench: %s\n", root && !g.times ? "out of memory" : err.msg);
        rc = cli_mpi_fail(RC_EXIT_FAIL);
    }
    if (rc == 0 && root) print_summary(runs, n, &mk, st->width * st->height);
    if (rc == 0 && root && o->bounces) {
        print_bounce_header();
        for (int i = 0; i < n; i++)
            if (!runs[i].skipped) print_bounces(&runs[i]);
    }
    if (rc == 0 && root) print_ranks(o, n, &g, st->width * st->height);
    cli_timing_lap(CLI_PHASE_WRITE);
    if (rc == 0 && root) g.times[0] = cli_timing_mine(); /* the JSON's own writing is not in it */
    if (rc == 0 && root && o->json) rc = write_json(o, st, runs, n, &mk, &g);
    free_gathered(&g);
    free(runs);
    free(rgb);
    free_megakernels(&mk);
    return rc;
}

int cmd_bench(int argc, char **argv) {
    bench_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;
    rc_scene scene;
    rc_settings st;
    cli_timing_lap(CLI_PHASE_SETUP);
    if ((rc = cli_load("bench", &o.common, &scene, &st)) != 0) return rc;
    cli_timing_lap(CLI_PHASE_SCENE);
    st.tune.library_timing = o.library_phases;
    if (o.phase_timing >= 0) st.tune.phase_timing = o.phase_timing;
    bench_phases = st.tune.phase_timing;
    rc = cli_pick_backend("bench", o.common.backend, &st.backend);
    st.samples_per_wave = cli_wave(&o.common, &st, RC_PATH_MAX_WAVE);
    if (rc == 0) rc = cli_check_memory("bench", &o.common, &scene, &st);
    cli_timing_lap(CLI_PHASE_SETUP);
    if (rc == 0) rc = bench(&o, &scene, &st);
    rc_scene_free(&scene);
    return rc;
}
