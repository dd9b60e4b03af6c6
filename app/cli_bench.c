/* cli_bench.c: `raycompact bench`: render the same frames with every compaction algorithm
 * and mode: its options, the runs, the megakernel baselines and an MPI job's gather; the
 * tables and the JSON are cli_bench_report.c's. */
#define _POSIX_C_SOURCE 200809L
#include "cli_bench.h"
#include "image.h"
#include "mpi_run.h"
#include "timing.h"
#include "wavefront/compact.h"
#include "workers.h"
#include "core/path.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            "  --scene FILE          scene file (JSON)\n" CLI_HELP_ENV CLI_HELP_BVH
            "  --algos all|LIST      comma-separated names, or all (default): %s\n"
            "  --modes LIST          indices,payload (default both)\n"
            "  --frames N            timed frames per run (default 4)\n"
            "  --warmup N            untimed frames first (default 1); up to 4 more while the\n"
            "                        last one captured a new CUDA graph (auto plans its first\n"
            "                        frame blind and captures the next again)\n"
            "  --width W --height H  image size (default: the scene's)\n"
            "  --max-depth D         bounces per path (default: the scene's)\n"
            "  --samples-per-frame N|auto\n"
            "                        samples per pixel one frame renders (default 1; auto: on\n"
            "                        CUDA as many as fit %u paths; also "
            "--samples-per-wave)\n" CLI_HELP_SCHEDULE CLI_HELP_SHADOWS CLI_HELP_BACKEND
            "  --frame-loop LIST     CUDA: graph (default: device-side lengths, the frame\n"
            "                        captured once and replayed), stream (the same, launched\n"
            "                        call by call), host (the counts read back after every\n"
            "                        bounce); comma-separated to compare them\n" CLI_HELP_GPUS
                CLI_HELP_TUNING
            "  --light-sampling L    nee (default: light samples, a shadow-ray stream compacted\n"
            "                        like the paths, MIS) or bsdf; default: the scene's\n"
            "  --sort-materials      before shade, partition the stream by material kind\n"
            "                        (sc_partition); shade runs once per kind\n"
            "  --seed S              0..%u: an independent set of samples\n"
            "  --phase-timing on|off time each phase with events around it (default on); off:\n"
            "                        CUDA frames carry no events and only the frame time is\n"
            "                        reported (the events cost a one-sample frame 3-22 %%)\n"
            "  --library-phases      also time the library's own phases (CUDA: syncs)\n"
            "  --bounces             after the summary, each run's tables per bounce (rays,\n"
            "                        alive, kept, auto's choice; each phase's time)\n"
            "  --divergence          count the active lanes per warp instruction at the\n"
            "                        divergence probes (extend, shade, BSDF sampling by\n"
            "                        material) over the timed frames and print them per bounce\n"
            "                        for every run and megakernel (CUDA; a build configured\n"
            "                        with -DRAYCOMPACT_PROBES=ON, whose times include the\n"
            "                        counting)\n"
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
            "  --help                this text\n" CLI_HELP_EXIT,
            rc_compact_names_help(64), CLI_AUTO_WAVE_PATHS, RC_MAX_SEED, RC_DEFAULT_MAX_MEMORY_MIB);
}

#define MAX_RUNS               64
#define BENCH_MAX_WARMUP_EXTRA 4 /* warm-up frames added while the last one captured a graph */

static int parse(int argc, char **argv, bench_opts *o) {
    cli_args a = {"bench", argc, argv, 1, NULL, NULL, NULL};
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
        } else if ((r = cli_is(&a, "--divergence", 0)) != 0) {
            o->divergence = 1;
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
 * split_list cuts are of a fixed size), so that a list over its limit is named as such; empty
 * items are not counted here (cli_list_check refuses them after the count). */
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

/* One run on the calling thread's device. Only the main worker (worker 0) charges the laps of
 * the process's clock (rank_timing.h) and notes the upload; `mk` is compared by it alone. */
static int run_one(const bench_opts *o, const rc_scene *scene, const rc_settings *st,
                   bench_run *out, float *rgb, bench_baselines *mk, int main_worker) {
    rc_error err;
    rc_renderer *r;
    int made = rc_renderer_create(scene, st, &r, &err);
    if (main_worker) cli_timing_lap(CLI_PHASE_CREATE);
    if (made == 0 && main_worker) bench_note_upload_ms(rc_renderer_upload_ms(r));
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
    int captured = 0;
    for (int frame = 0; rc == 0 && timing_next(&t); frame++) {
        if (timing_slot(&t) < 0) {
            rc_frame_stats ws;
            rc = rc_render_frame(r, &ws, &err);
            captured = ws.captured;
            if (main_worker) cli_timing_lap(frame == 0 ? CLI_PHASE_FIRST : CLI_PHASE_FRAMES);
            continue;
        }
        /* A warm-up that ended on a new graph (auto's first frame plans blind and the next
         * captures again, once it knows the densities) warms up further, so that no timed frame
         * starts the frame loop over; a capture later on is part of the steady state. */
        for (int extra = 0;
             rc == 0 && timing_slot(&t) == 0 && captured && extra < BENCH_MAX_WARMUP_EXTRA;
             extra++) {
            rc_frame_stats ws;
            rc = rc_render_frame(r, &ws, &err);
            captured = ws.captured;
        }
        if (rc != 0) break;
        if (timing_slot(&t) == 0) rc_renderer_reset(r);
        if (timing_slot(&t) == 0 && st->probes) rc = rc_renderer_probes_clear(r, &err);
        if (rc != 0) break;
        rc_frame_stats fs;
        rc = rc_render_frame(r, &fs, &err);
        if (main_worker) cli_timing_lap(frame == 0 ? CLI_PHASE_FIRST : CLI_PHASE_FRAMES);
        if (rc == 0) rc_stats_total_add(&out->tot, &fs);
        if (rc == 0) timing_record(&t, fs.total_ms);
        if (rc == 0) out->loop = fs.loop;
    }
    size_t pixels = (size_t)st->width * st->height;
    if (rc == 0 && st->probes) rc = rc_renderer_probes(r, &out->probes, &err);
    out->probed = rc == 0 && st->probes;
    if (rc == 0) rc = rc_renderer_image(r, rgb, &err);
    if (rc == 0) {
        out->image_hash = fnv1a(rgb, 3 * pixels);
        timing_stats ts = timing_summary(ms, (int)o->frames);
        out->median_ms = ts.median;
        out->min_ms = ts.min;
        out->max_ms = ts.max;
        for (int i = 0; i < mk->n; i++) {
            bench_baseline *b = &mk->b[i];
            if (b->compared) continue;
            b->compared = 1;
            b->differ = pixels_differing(rgb, b->rgb, pixels);
            b->rmse = rc_image_block_rmse(rgb, b->rgb, st->width, st->height, 8);
        }
    }
    free(ms);
    rc_renderer_destroy(r);
    if (main_worker) cli_timing_lap(CLI_PHASE_FRAMES); /* the image read back and compared */
    if (rc != 0)
        fprintf(stderr, "raycompact bench: %s/%s: %s\n", st->algo, rc_mode_name(st->mode), err.msg);
    return rc;
}

/* ---- MPI (mpi_run.h): the runs shared out over the ranks, or every run on every rank
 * (--per-rank); rank 0 gathers them, prints and writes the JSON ---- */

/* Does this rank time run i? */
static int bench_mine(const bench_opts *o, int i) {
    return o->per_rank || i % cli_mpi_size() == cli_mpi_rank();
}

/* Which of the rank's `workers` times run i: its runs in turn (--per-rank: every run). */
static int bench_worker(const bench_opts *o, int i, int workers) {
    return (o->per_rank ? i : i / cli_mpi_size()) % workers;
}

/* A received run, readable here: algorithm, mode and loop as `dst` has them (every rank builds
 * the same list), the phase names pointing into the packed copy. */
static void unpack_run(bench_run *dst, bench_packed_run *p) {
    bench_run keep = *dst;
    *dst = p->r;
    dst->algo = keep.algo;
    dst->mode = keep.mode;
    dst->skipped = p->r.skipped ? dst->reason : NULL;
    for (size_t j = 0; j < dst->tot.num_lib && j < SC_MAX_PHASES; j++)
        dst->tot.lib[j].name = p->lib[j];
}

/* Every rank's runs and device to rank 0; in shared-out mode rank 0's `runs` then holds every
 * run. On a failure the job ends (cli_mpi_fail). */
static int gather_runs(const bench_opts *o, rc_backend b, bench_run *runs, int n,
                       bench_gathered *g) {
    int size = cli_mpi_size(), rank = cli_mpi_rank();
    rc_error err;
    memset(g, 0, sizeof *g);
    g->size = size;
    bench_packed_run *mine = calloc((size_t)n, sizeof *mine);
    bench_rank_info me;
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
            bench_run *dst = &g->rank_runs[(size_t)r * n + i];
            *dst = runs[i];
            if (o->per_rank || i % size == r) unpack_run(dst, &g->all[(size_t)r * n + i]);
        }
        if (!o->per_rank) runs[i] = g->rank_runs[(size_t)(i % size) * n + i];
    }
    return 0;
}

static void free_gathered(bench_gathered *g) {
    free(g->all);
    free(g->info);
    free(g->rank_runs);
    free(g->times);
}

/* --megakernel's list into mk (the kinds, mk->n = 0 until a baseline is rendered), checked
 * before anything runs: the names, each once, and the CUDA backend; the count, or an exit
 * code (as a negative number). */
static int megakernel_list(const bench_opts *o, const rc_scene *scene, const rc_settings *st,
                           bench_baselines *mk, const char **items, char *buf, size_t cap) {
    int spheres = 1; /* `all` takes objects where the scene is spheres only */
    for (uint32_t i = 0; i < scene->bvh.num_prims; i++)
        spheres &= rc_prim_type(&scene->bvh.prims[i]) == RC_PRIM_SPHERE;
    snprintf(buf, cap, "%s",
             strcmp(o->megakernel, "all") != 0 ? o->megakernel
             : spheres                         ? "bvh,persistent,flat,objects"
                                               : "bvh,persistent,flat");
    int n = strlen(o->megakernel) < cap && count_items(buf) <= RC_MEGAKERNEL_COUNT
                ? cli_list_check("bench", "--megakernel", buf)
                : -1;
    if (n > 0) return -n; /* an empty or repeated item: said */
    if (n == 0) n = split_list(buf, items, RC_MEGAKERNEL_COUNT);
    if (n <= 0)
        return -cli_usage_error("bench",
                                "--megakernel: expected all or a comma-separated list of "
                                "at most %d of: bvh, persistent, flat, objects",
                                RC_MEGAKERNEL_COUNT);
    for (int i = 0; i < n; i++)
        if (rc_megakernel_parse(items[i], &mk->b[i].kind) != 0)
            return -cli_usage_error(
                "bench", "--megakernel: '%s' is not one of: bvh, persistent, flat, objects",
                items[i]);
    if (st->backend != RC_BACKEND_CUDA) {
        const char *why = cli_backend_fallback();
        /* no --backend, and no CUDA to run on: as --backend cuda would be, a failure (1) */
        if (why) return -cli_run_error("bench", "--megakernel needs the CUDA backend: %s", why);
        return -cli_usage_error("bench", "--megakernel needs the CUDA backend");
    }
    return n;
}

/* The baselines for the samples every run renders: frames x samples per wave, from sample 0.
 */
static int run_megakernels(const bench_opts *o, const rc_scene *scene, const rc_settings *st,
                           bench_baselines *mk, const char **items, int n) {
    for (int i = 0; i < n; i++) {
        bench_baseline *b = &mk->b[i];
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
        if (rc_megakernel_render(scene, st, b->kind, b->samples, BENCH_MEGAKERNEL_RUNS, b->rgb,
                                 &b->res, &err) != 0) {
            fprintf(stderr, "raycompact bench: %s\n", err.msg);
            return RC_EXIT_FAIL;
        }
    }
    return 0;
}

static void free_megakernels(bench_baselines *mk) {
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
    /* then no item empty or given twice: a name twice would time the same run twice */
    if ((o->common.frame_loop && cli_list_check("bench", "--frame-loop", o->common.frame_loop)) ||
        (o->modes && cli_list_check("bench", "--modes", o->modes)) ||
        (o->algos && strcmp(o->algos, "all") != 0 && cli_list_check("bench", "--algos", o->algos)))
        return RC_EXIT_USAGE;
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

/* The runs of one process, shared out over its workers (rc_workers_each). */
typedef struct bench_work {
    const bench_opts *o;
    const rc_scene *scene;
    const rc_settings *st;
    bench_run *runs;
    int n, all;
    bench_baselines *mk;
    rc_workers *w;
    int rc;         /* the first failure's exit code (under lock) */
    int stop;       /* a run failed: the workers start no other (under lock) */
    uint32_t timed; /* runs timed on this rank (under lock) */
    pthread_mutex_t lock;
    /* Workers on one device (`--gpus 0,0`, or the CPU) time their runs one at a time: runs at
     * once would share the GPU and time each other, and one worker's allocations and frees
     * (which wait for the whole device) would break another's graph capture. A worker takes
     * the lock of the first worker on its device. */
    pthread_mutex_t device_lock[RC_WORKERS_MAX];
    int owner[RC_WORKERS_MAX]; /* the first worker on each worker's device */
} bench_work;

/* The first worker on worker i's device (before the workers run: their rows change then). */
static int device_owner(rc_workers *w, int i) {
    int dev = rc_workers_times(w, i).device;
    for (int j = 0; j < i; j++)
        if (rc_workers_times(w, j).device == dev) return j;
    return i;
}

static void bench_worker_runs(void *arg, int worker) {
    bench_work *bw = arg;
    const bench_opts *o = bw->o;
    const int workers = rc_workers_count(bw->w), root = cli_mpi_rank() == 0;
    bench_baselines none;
    memset(&none, 0, sizeof none);
    rc_settings st = *bw->st;
    float *rgb = malloc((size_t)st.width * st.height * 3 * sizeof *rgb);
    for (int i = 0; i < bw->n; i++) {
        bench_run *rn = &bw->runs[i];
        if (!bench_mine(o, i) || bench_worker(o, i, workers) != worker) continue;
        pthread_mutex_lock(&bw->lock);
        int stop = bw->stop;
        bw->timed += !stop;
        pthread_mutex_unlock(&bw->lock);
        if (stop) break;
        st.algo = rn->algo;
        st.mode = rn->mode;
        st.frame_loop = rn->loop;
        pthread_mutex_t *dev_lock = &bw->device_lock[bw->owner[worker]];
        pthread_mutex_lock(dev_lock);
        double t0 = timing_now_ms();
        int rc = !rgb ? RC_EXIT_FAIL
                 : run_one(o, bw->scene, &st, rn, rgb, worker == 0 ? bw->mk : &none, worker == 0)
                     ? RC_EXIT_FAIL
                     : 0;
        rc_workers_note(bw->w, worker, 2, timing_now_ms() - t0, 1);
        pthread_mutex_unlock(dev_lock);
        if (!rgb) fprintf(stderr, "raycompact bench: out of memory\n");
        /* `all` skips an algorithm this build lacks; any other run that cannot be set up (out
         * of GPU memory, say) ends the bench, whatever was asked for. */
        if (rn->skipped && (!bw->all || rc_compact_check(rn->algo, st.backend, NULL) == 0)) {
            fprintf(stderr, "raycompact bench: %s\n", rn->skipped);
            rc = RC_EXIT_USAGE;
        }
        if (rc == 0 && !rn->skipped && root)
            fprintf(stderr, "raycompact bench: run %d of %d done: %s %s %s, %.3f ms a frame\n",
                    i + 1, bw->n, rn->algo, rc_mode_name(rn->mode), rc_frame_loop_name(rn->loop),
                    rn->median_ms);
        if (rc != 0) {
            pthread_mutex_lock(&bw->lock);
            bw->stop = 1;
            if (bw->rc == 0) bw->rc = rc;
            pthread_mutex_unlock(&bw->lock);
            break;
        }
    }
    free(rgb);
}

static int bench(bench_opts *o, const rc_scene *scene, rc_settings *st, rc_workers *w) {
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
    bench_baselines mk;
    memset(&mk, 0, sizeof mk);
    char kbuf[64];
    const char *kinds[RC_MEGAKERNEL_COUNT];
    int nk = o->megakernel ? megakernel_list(o, scene, st, &mk, kinds, kbuf, sizeof kbuf) : 0;
    if (nk < 0) return -nk;
    cli_backend_notice(); /* every option is accepted: bad input stays one line */
    int all = !o->algos || strcmp(o->algos, "all") == 0;
    bench_run *runs = calloc((size_t)(na * nm * nl), sizeof *runs);
    if (!runs) {
        fprintf(stderr, "raycompact bench: out of memory\n");
        return RC_EXIT_FAIL;
    }
    /* Shared out, the baselines run on rank 0, beside the first run they are compared with.
     */
    if (nk > 0 && (o->per_rank || cli_mpi_rank() == 0) &&
        (rc = run_megakernels(o, scene, st, &mk, kinds, nk)) != 0) {
        free(runs);
        free_megakernels(&mk);
        return rc;
    }
    cli_timing_lap(CLI_PHASE_FRAMES); /* the baselines */
    /* The ranks work together from here: a failure on one ends the job. */
    if (cli_mpi_agree(0) != 0) rc = RC_EXIT_USAGE;
    cli_timing_lap(CLI_PHASE_SETUP);
    int root = cli_mpi_rank() == 0;
    if (rc == 0 && root) {
        print_heading(stdout, o, scene, st);
        if (all) print_left_out(st->backend);
        fflush(stdout);
    }
    int n = 0;
    for (int i = 0; i < na; i++)
        for (int m = 0; m < nm * nl; m++, n++) {
            runs[n].algo = algos[i];
            runs[n].mode = modes[m / nl];
            runs[n].loop = loops[m % nl];
        }
    bench_work bw;
    memset(&bw, 0, sizeof bw);
    bw.o = o;
    bw.scene = scene;
    bw.st = st;
    bw.runs = runs;
    bw.n = n;
    bw.all = all;
    bw.mk = &mk;
    bw.w = w;
    pthread_mutex_init(&bw.lock, NULL);
    const int nw = rc_workers_count(w);
    for (int i = 0; i < nw; i++) {
        pthread_mutex_init(&bw.device_lock[i], NULL);
        bw.owner[i] = device_owner(w, i);
    }
    rc_error err;
    if (rc == 0 && rc_workers_each(w, st->backend, bench_worker_runs, &bw, &err) != 0) {
        fprintf(stderr, "raycompact bench: %s\n", err.msg);
        rc = RC_EXIT_FAIL;
    }
    for (int i = 0; i < nw; i++) pthread_mutex_destroy(&bw.device_lock[i]);
    pthread_mutex_destroy(&bw.lock);
    if (rc == 0) rc = bw.rc;
    cli_timing_samples(bw.timed);
    if (rc != 0) rc = cli_mpi_fail(rc); /* with several ranks, the job ends here */
    bench_gathered g;
    memset(&g, 0, sizeof g);
    if (rc == 0) rc = gather_runs(o, st->backend, runs, n, &g);
    cli_timing_lap(CLI_PHASE_REDUCE);
    /* Every rank's times to rank 0 in one small gather; the others are done after it. */
    if (rc == 0 && root) g.times = calloc((size_t)g.size, sizeof *g.times);
    g.workers = rc_workers_count(w);
    for (int i = 0; i < g.workers; i++) g.worker_times[i] = rc_workers_times(w, i);
    if (rc == 0 && ((root && !g.times) || cli_timing_gather(g.times, &err) != 0)) {
        fprintf(stderr, "raycompact bench: %s\n", root && !g.times ? "out of memory" : err.msg);
        rc = cli_mpi_fail(RC_EXIT_FAIL);
    }
    if (rc == 0 && root) print_summary(stdout, runs, n, &mk, st->width * st->height);
    if (rc == 0 && root && o->divergence) print_divergence(stdout, runs, n, &mk);
    for (int i = 0; rc == 0 && root && o->bounces && i < n; i++)
        if (!runs[i].skipped) print_bounces(stdout, &runs[i]);
    if (rc == 0 && root) print_ranks(o, n, &g, st->width * st->height);
    cli_timing_lap(CLI_PHASE_WRITE);
    if (rc == 0 && root) g.times[0] = cli_timing_mine(); /* the JSON's own writing is not in it */
    if (rc == 0 && root && o->json) rc = write_json(o, scene, st, runs, n, &mk, &g);
    free_gathered(&g);
    free(runs);
    free_megakernels(&mk);
    return rc;
}

int cmd_bench(int argc, char **argv) {
    bench_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;
    int devices[RC_WORKERS_MAX], nw;
    if ((rc = cli_gpus("bench", &o.common, devices, &nw)) != 0) return rc;
    /* The workers' CUDA contexts are created while the scene loads. */
    rc_workers *w;
    rc_error err;
    if (rc_workers_start(cli_guess_backend(&o.common), devices, nw, &w, &err) != 0)
        return cli_run_error("bench", "%s", err.msg);
    rc_scene scene;
    rc_settings st;
    cli_timing_lap(CLI_PHASE_SETUP);
    if ((rc = cli_load("bench", &o.common, &scene, &st)) != 0) {
        rc_workers_free(w);
        return rc;
    }
    cli_timing_lap(CLI_PHASE_SCENE);
    st.tune.library_timing = o.library_phases;
    if (o.phase_timing >= 0) st.tune.phase_timing = o.phase_timing;
    st.probes = o.divergence;
    bench_report_phases(st.tune.phase_timing);
    rc_workers_ready(w); /* the probe and the baselines run on worker 0's device */
    rc = cli_pick_backend("bench", o.common.backend, &st.backend);
    if (rc == 0) rc = cli_gpus_backend("bench", &o.common, &st, nw);
    st.samples_per_wave = cli_wave(&o.common, &st, RC_PATH_MAX_WAVE);
    if (rc == 0) rc = cli_check_settings("bench", &st); /* its algorithm: the lists' check */
    if (rc == 0) rc = cli_check_memory("bench", &o.common, &scene, &st);
    cli_timing_lap(CLI_PHASE_SETUP);
    if (rc == 0) rc = bench(&o, &scene, &st, w);
    rc_workers_free(w);
    rc_scene_free(&scene);
    return rc;
}
