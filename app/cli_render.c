/* cli_render.c: `raycompact render`: render a scene to a PNG (or PFM), with a progress bar
 * and an optional per-phase statistics table. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "echo.h"
#include "image.h"
#include "mpi_run.h"
#include "num_parse.h"
#include "rank_timing.h"
#include "stats.h"
#include "wavefront/compact.h"
#include "core/path.h"
#include "timing.h"
#include "workers.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f) {
    fprintf(f,
            "usage: raycompact render --scene FILE --out FILE.png [options]\n"
            "\n"
            "Render a scene (scenes/FORMAT.md) with the wavefront path tracer.\n"
            "\n"
            "options:\n"
            "  --scene FILE          scene file (JSON)\n" CLI_HELP_ENV CLI_HELP_BVH
            "  --out FILE            output image: .png (8-bit sRGB) or .pfm (float, linear)\n"
            "  --exposure EV         .png: the radiance times 2^EV (default 0), -20..20\n"
            "  --tonemap T           .png: clip (default: as rendered, highlights burn out),\n"
            "                        reinhard or aces (filmic); .pfm stays linear\n"
            "  --width W --height H  image size (default: the scene's render block)\n"
            "  --spp N               samples per pixel (default: the scene's)\n"
            "  --samples-per-frame N|auto\n"
            "                        samples per pixel one frame renders (default 1; auto: on\n"
            "                        CUDA as many as fit %u paths, on the CPU 1; the image is\n"
            "                        the same; also --samples-per-wave)\n" CLI_HELP_SCHEDULE
                CLI_HELP_SHADOWS
            "  --max-depth D         bounces per path, 1..%d (default: the scene's)\n"
            "  --algo NAME           compaction after each bounce (default auto: the library\n"
            "                        picks per bounce, from the density; see README);\n"
            "                        one of: %s\n"
            "  --mode M              indices: compact the queue of path indices (4 bytes);\n"
            "                        payload: compact the path records (%zu "
            "bytes)\n" CLI_HELP_BACKEND
            "  --frame-loop L        CUDA: graph (default; lengths stay on the device, the frame\n"
            "                        is captured once and replayed), stream (the same, launched\n"
            "                        call by call), host (counts read back after every "
            "bounce)\n" CLI_HELP_GPUS CLI_HELP_TUNING
            "  --light-sampling L    nee (default: light samples and shadow rays, MIS) or bsdf\n"
            "                        (paths find lights by scattering); default: the scene's\n"
            "  --sort-materials      before shade, partition the stream by material kind\n"
            "                        (sc_partition); shade runs once per kind\n"
            "  --seed S              0..%u: each seed draws an independent set of samples\n"
            "  --max-memory MIB      refuse a scene or image whose host memory would exceed\n"
            "                        this (default %u MiB)\n"
            "  --stats               print the per-phase and per-bounce timing tables (CUDA:\n"
            "                        the events that time the phases slow a frame down;\n"
            "                        without --stats none are recorded), then a row per MPI\n"
            "                        rank: where its wall time went (docs/renderer.md)\n"
            "  --help                this text\n" CLI_HELP_EXIT,
            CLI_AUTO_WAVE_PATHS, RC_MAX_DEPTH, rc_compact_names_help(32), sizeof(rc_path),
            RC_MAX_SEED, RC_DEFAULT_MAX_MEMORY_MIB);
}

typedef struct render_opts {
    cli_common common;
    const char *out, *algo, *mode;
    uint32_t spp;
    int stats;
    rc_display display; /* --exposure, --tonemap */
} render_opts;

/* Stops of exposure: a real number with an optional sign ("-1.5", "+2", "0"). */
static int parse_stops(const char *s, double *out) {
    int neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    if (num_parse_double(s, out) != 0) return -1;
    if (neg) *out = -*out;
    return 0;
}

static int parse(int argc, char **argv, render_opts *o) {
    cli_args a = {"render", argc, argv, 1, NULL, NULL, NULL};
    for (; a.i < argc; a.i++) {
        int r = cli_shared_option(&a, &o->common, usage);
        if (r != 0 && r != 1) return r == CLI_HELP_SHOWN ? -1 : RC_EXIT_USAGE;
        if (r > 0) continue;
        if ((r = cli_is(&a, "--out", 1)) != 0) {
            o->out = a.value;
        } else if ((r = cli_is(&a, "--algo", 1)) != 0) {
            o->algo = a.value;
        } else if ((r = cli_is(&a, "--mode", 1)) != 0) {
            o->mode = a.value;
        } else if ((r = cli_is(&a, "--spp", 1)) != 0) {
            if (r > 0 && cli_uint(&a, 1, 1u << 20, &o->spp) != 0) return RC_EXIT_USAGE;
        } else if ((r = cli_is(&a, "--stats", 0)) != 0) {
            o->stats = 1;
        } else if ((r = cli_is(&a, "--exposure", 1)) != 0) {
            double ev;
            if (r > 0 && (parse_stops(a.value, &ev) != 0 || !(fabs(ev) <= RC_EXPOSURE_MAX)))
                return cli_usage_error("render",
                                       "--exposure: '%s' is not a number of stops in -%g..%g",
                                       a.value, RC_EXPOSURE_MAX, RC_EXPOSURE_MAX);
            if (r > 0) o->display.exposure = (float)ev;
        } else if ((r = cli_is(&a, "--tonemap", 1)) != 0) {
            if (r > 0 && rc_tonemap_parse(a.value, &o->display.tonemap) != 0)
                return cli_usage_error("render", "--tonemap: '%s' is not one of: %s", a.value,
                                       rc_tonemap_names());
        } else {
            return cli_usage_error("render", "unknown option '%s' (see --help)", argv[a.i]);
        }
        if (r < 0) return cli_usage_error("render", "%s needs a value", a.opt);
    }
    if (!o->out) return cli_usage_error("render", "--out FILE is required");
    size_t n = strlen(o->out);
    if (n < 5 || (strcmp(o->out + n - 4, ".png") != 0 && strcmp(o->out + n - 4, ".pfm") != 0))
        return cli_usage_error("render", "--out: '%s' must end in .png or .pfm", o->out);
    /* Before the render, not after it: a missing directory should not cost a whole render. */
    return cli_check_name("render", "--out", o->out) ? RC_EXIT_USAGE : 0;
}

int cli_render_parse(int argc, char **argv) {
    render_opts o;
    memset(&o, 0, sizeof o);
    return parse(argc, argv, &o);
}

static void progress(uint32_t done, uint32_t total, double ms) {
    const int width = 30;
    int fill = (int)((double)width * done / total);
    fprintf(stderr, "\r[%.*s%*s] %u/%u spp  %.1f s", fill, "##############################",
            width - fill, "", done, total, ms / 1e3);
    if (done == total) fputc('\n', stderr);
    fflush(stderr);
}

/* Rank 0's host copies of the film and the image, allocated and touched by a thread while the
 * GPU renders, so that the read-back after the last frame does not wait for fresh pages. */
typedef struct host_film {
    size_t n; /* pixels */
    int64_t *sums;
    float *rgb;
    pthread_t thread;
    int started;
} host_film;

static void *host_film_touch(void *arg) {
    host_film *h = arg;
    h->sums = malloc(h->n * 3 * sizeof *h->sums);
    h->rgb = malloc(h->n * 3 * sizeof *h->rgb);
    if (h->sums) memset(h->sums, 0, h->n * 3 * sizeof *h->sums);
    if (h->rgb) memset(h->rgb, 0, h->n * 3 * sizeof *h->rgb);
    return NULL;
}

static void host_film_start(host_film *h, size_t n) {
    memset(h, 0, sizeof *h);
    h->n = n;
    h->started = pthread_create(&h->thread, NULL, host_film_touch, h) == 0;
    if (!h->started) host_film_touch(h);
}

static void host_film_wait(host_film *h) {
    if (h->started) pthread_join(h->thread, NULL);
    h->started = 0;
}

/* --stats: a row per worker (where its time went, from the workers' start), then the fixed
 * cost of the command by stage: everything but the frames. */
static void print_workers(FILE *f, const rc_worker_times *t, int n, const cli_rank_timing *me,
                          double context_wait_ms, const int ways[3]) {
    fprintf(f, "\nper worker (ms) device  context   create    first   frames     done    spp\n");
    for (int i = 0; i < n; i++) {
        char dev[16];
        snprintf(dev, sizeof dev, t[i].device >= 0 ? "%d" : "cpu", t[i].device);
        fprintf(f, "worker %-4d %10s %8.1f %8.1f %8.1f %8.1f %8.1f %6u\n", i, dev, t[i].context_ms,
                t[i].create_ms, t[i].first_ms, t[i].frames_ms, t[i].done_ms, t[i].samples);
    }
    if (n > 1)
        fprintf(f,
                "worker films added on worker 0: %d on its device, %d by peer access, %d "
                "through the host\n",
                ways[0], ways[1], ways[2]);
    /* the wait for the contexts falls in the setup lap (rc_workers_ready): shown on its own */
    const double start =
        (me->start_ms > 0 ? me->start_ms : 0) + me->phase_ms[CLI_PHASE_SETUP] - context_wait_ms;
    const double fixed = start + context_wait_ms + me->phase_ms[CLI_PHASE_SCENE] +
                         me->phase_ms[CLI_PHASE_CREATE] + me->phase_ms[CLI_PHASE_REDUCE] +
                         me->phase_ms[CLI_PHASE_WRITE];
    fprintf(f,
            "fixed cost (ms) %.1f: start %.1f, contexts %.1f, scene and BVH %.1f, renderers %.1f,\n"
            "  film sum %.1f, image write %.1f (contexts: the wait the scene's load left)\n",
            fixed, start, context_wait_ms, me->phase_ms[CLI_PHASE_SCENE],
            me->phase_ms[CLI_PHASE_CREATE], me->phase_ms[CLI_PHASE_REDUCE],
            me->phase_ms[CLI_PHASE_WRITE]);
}

static int render(const render_opts *o, const rc_scene *scene, rc_settings *st, uint32_t spp,
                  rc_workers **pw) {
    /* Under MPI each rank renders its share of the samples (mpi_run.h), shared out again over
     * its workers (workers.h); alone, one share of all of them. */
    rc_workers *w = *pw;
    const int nw = rc_workers_count(w);
    uint32_t first, count;
    cli_mpi_share(spp, &first, &count);
    cli_timing_samples(count);
    rc_error err;
    int rc = rc_workers_create(w, scene, st, first, count, &err);
    if (rc != 0) fprintf(stderr, "raycompact render: %s\n", err.msg);
    rc_renderer *r0 = rc == 0 ? rc_workers_renderer(w, 0) : NULL;
    const double upload_ms = r0 ? rc_renderer_upload_ms(r0) : 0.0;
    const double context_wait_ms = rc_workers_context_wait_ms(w);
    cli_timing_lap(CLI_PHASE_CREATE);
    if (cli_mpi_agree(rc ? RC_EXIT_USAGE : 0) != 0) return RC_EXIT_USAGE;
    size_t n = (size_t)st->width * st->height;
    int root = cli_mpi_rank() == 0; /* writes the image */
    host_film host;
    memset(&host, 0, sizeof host);
    if (root) host_film_start(&host, n);
    int tty = isatty(2) && root;     /* rank 0's share shows the progress */
    cli_timing_lap(CLI_PHASE_SETUP); /* the agreement: it waits for the slowest rank */
    double t0 = timing_now_ms();
    if (rc_workers_render(w, tty ? progress : NULL, &err) != 0) {
        fprintf(stderr, "%sraycompact render: %s\n", tty ? "\n" : "", err.msg);
        host_film_wait(&host);
        free(host.sums);
        free(host.rgb);
        return cli_mpi_fail(RC_EXIT_FAIL);
    }
    cli_timing_lap(CLI_PHASE_FRAMES);
    cli_timing_split(CLI_PHASE_FRAMES, CLI_PHASE_FIRST, rc_workers_times(w, 0).first_ms);
    /* The film's exact sums, added over the workers on worker 0 and over the ranks on rank 0,
     * make the image: GPU to GPU where the devices reach each other, else through the host. */
    int local = rc_workers_film(w, NULL, &err);
    if (local < 0) rc = -1;
    r0 = rc_workers_renderer(w, 0);
    int on_gpu = cli_mpi_sum_film_device(local == 1 ? r0 : NULL, n * 3 * sizeof(int64_t), &err);
    if (on_gpu < 0) rc = -1;
    host_film_wait(&host);
    float *rgb = host.rgb;
    int64_t *sums = root ? host.sums : on_gpu ? NULL : malloc(n * 3 * sizeof *sums);
    if (rc == 0 && ((root && !rgb) || (!sums && (root || !on_gpu))))
        rc = rc_fail(&err, "out of memory");
    if (rc == 0 && sums) rc = rc_workers_film(w, sums, &err);
    if (rc == 0 && !on_gpu) rc = cli_mpi_sum_film(sums, n * 3, &err);
    if (rc != 0) {
        fprintf(stderr, "raycompact render: %s\n", err.msg);
        rc = cli_mpi_fail(RC_EXIT_FAIL);
    }
    double ms = timing_now_ms() - t0;
    rc_stats_total tot = *rc_workers_stats(w, 0);
    rc_worker_times times_w[RC_WORKERS_MAX];
    for (int i = 0; i < nw; i++) times_w[i] = rc_workers_times(w, i);
    int ways[3];
    rc_workers_film_ways(w, ways);
    rc_workers_free(w);
    *pw = NULL;
    cli_timing_lap(CLI_PHASE_REDUCE);
    /* --stats: every rank's times to rank 0 before it writes the image, so that no rank waits
     * for the write; rank 0's own row is taken again after it. */
    cli_rank_timing *times =
        o->stats && root ? calloc((size_t)cli_mpi_size(), sizeof *times) : NULL;
    if (rc == 0 && o->stats && ((root && !times) || cli_timing_gather(times, &err) != 0)) {
        fprintf(stderr, "raycompact render: %s\n", root && !times ? "out of memory" : err.msg);
        rc = cli_mpi_fail(RC_EXIT_FAIL);
    }
    if (rc == 0 && root) {
        rc_film_image(sums, n, spp, rgb);
        if (rc_image_write_display(o->out, rgb, st->width, st->height, &o->display, &err) != 0) {
            fprintf(stderr, "raycompact render: %s\n", err.msg);
            rc = RC_EXIT_FAIL;
        }
        cli_timing_lap(CLI_PHASE_WRITE);
    }
    free(rgb);
    free(sums);
    if (rc || !root) {
        free(times);
        return rc;
    }
    char ranks[64] = "";
    int at = 0;
    if (cli_mpi_size() > 1) at = snprintf(ranks, sizeof ranks, ", %d ranks", cli_mpi_size());
    if (nw > 1) snprintf(ranks + at, sizeof ranks - (size_t)at, ", %d workers", nw);
    echo_line(stderr, "raycompact: wrote %s (%ux%u, %u spp, %.2f s%s, %s, %s/%s, %s loop, %s)",
              o->out, st->width, st->height, spp, ms / 1e3, ranks, rc_backend_name(st->backend),
              st->algo, rc_mode_name(st->mode), rc_frame_loop_name(tot.loop),
              rc_light_sampling_name(st->light_sampling));
    if (o->stats) {
        cli_print_scene_load(stdout, scene, upload_ms);
        if (nw > 1) printf("frames: worker 0's (%u of the %u spp)\n", times_w[0].samples, spp);
        rc_stats_print(stdout, &tot);
        times[0] = cli_timing_mine();
        if (cli_mpi_size() > 1)
            printf("film sum: %s\n", on_gpu ? "GPU to GPU (CUDA IPC)" : "host copies (MPI_Reduce)");
        cli_timing_print(stdout, times, cli_mpi_size());
        print_workers(stdout, times_w, nw, &times[0], context_wait_ms, ways);
    }
    free(times);
    return 0;
}

int cmd_render(int argc, char **argv) {
    render_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;
    int devices[RC_WORKERS_MAX], nw;
    if ((rc = cli_gpus("render", &o.common, devices, &nw)) != 0) return rc;
    /* The workers' CUDA contexts are created while the scene loads. */
    rc_workers *w;
    rc_error err;
    if (rc_workers_start(cli_guess_backend(&o.common), devices, nw, &w, &err) != 0)
        return cli_run_error("render", "%s", err.msg);
    cli_timing_lap(CLI_PHASE_SETUP);
    rc_scene scene;
    rc_settings st;
    if ((rc = cli_load("render", &o.common, &scene, &st)) != 0) {
        rc_workers_free(w);
        return rc;
    }
    cli_timing_lap(CLI_PHASE_SCENE);
    if (o.algo) st.algo = o.algo;
    st.tune.library_timing = o.stats;
    st.tune.phase_timing = o.stats; /* nothing else reads the phases' times */
    if (o.mode && rc_mode_parse(o.mode, &st.mode) != 0)
        rc = cli_usage_error("render", "--mode: '%s' is not one of: indices, payload", o.mode);
    rc_workers_ready(w); /* the probe below runs on worker 0's device */
    if (rc == 0) rc = cli_pick_backend("render", o.common.backend, &st.backend);
    if (rc == 0) rc = cli_gpus_backend("render", &o.common, &st, nw);
    uint32_t spp = o.spp ? o.spp : scene.defaults.spp;
    st.samples_per_wave = cli_wave(&o.common, &st, spp);
    if (rc == 0) rc = cli_check_settings("render", &st);
    if (rc == 0) rc = cli_check_memory("render", &o.common, &scene, &st);
    if (rc == 0) cli_backend_notice(); /* everything is accepted: bad input stays one line */
    cli_timing_lap(CLI_PHASE_SETUP);
    if (rc == 0) rc = render(&o, &scene, &st, spp, &w);
    rc_workers_free(w);
    rc_scene_free(&scene);
    return rc;
}
