/* cli_bench.c: `raycompact bench`: render the same frames with every compaction algorithm
 * and mode, and report per bounce what each phase cost and compaction's share. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "stats.h"
#include "wavefront/compact.h"

#include <cjson/cJSON.h>
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
            "  --tile B              tile size of block-based algorithms\n"
            "  --backend cpu|cuda    default: cuda when a device is usable, else cpu\n"
            "  --library-phases      also time the library's own phases (CUDA: syncs)\n"
            "  --json FILE           write the results as JSON\n"
            "  --help                this text\n",
            rc_compact_all_names());
}

#define MAX_RUNS 64

typedef struct bench_opts {
    cli_common common;
    const char *algos, *modes, *json;
    uint32_t frames, warmup;
    int library_phases;
} bench_opts;

typedef struct run {
    const char *algo;
    rc_mode mode;
    const char *skipped; /* why it did not run, or NULL */
    char reason[sizeof(((rc_error *)0)->msg)];
    rc_stats_total tot;
    uint64_t image_hash;
} run;

static int parse(int argc, char **argv, bench_opts *o) {
    cli_args a = {"bench", argc, argv, 1, NULL, NULL};
    o->frames = 4;
    o->warmup = 1;
    for (; a.i < argc; a.i++) {
        int r = cli_common_option(&a, &o->common);
        if (r < 0) return RC_EXIT_USAGE;
        if (r > 0) continue;
        if ((r = cli_is(&a, "--help", 0)) > 0) {
            usage(stdout);
            return -1;
        } else if ((r = cli_is(&a, "--algos", 1)) != 0) {
            o->algos = a.value;
        } else if ((r = cli_is(&a, "--modes", 1)) != 0) {
            o->modes = a.value;
        } else if ((r = cli_is(&a, "--json", 1)) != 0) {
            o->json = a.value;
        } else if ((r = cli_is(&a, "--frames", 1)) != 0) {
            if (r > 0 && cli_uint(&a, 1, 100000, &o->frames) != 0) return RC_EXIT_USAGE;
        } else if ((r = cli_is(&a, "--warmup", 1)) != 0) {
            if (r > 0 && cli_uint(&a, 0, 100000, &o->warmup) != 0) return RC_EXIT_USAGE;
        } else if ((r = cli_is(&a, "--library-phases", 0)) != 0) {
            o->library_phases = 1;
        } else {
            return cli_usage_error("bench", "unknown option '%s' (see --help)", argv[a.i]);
        }
        if (r < 0) return cli_usage_error("bench", "%s needs a value", a.opt);
    }
    return 0;
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

static int run_one(const bench_opts *o, const rc_scene *scene, const rc_settings *st, run *out,
                   float *rgb) {
    rc_error err;
    rc_renderer *r;
    if (rc_renderer_create(scene, st, &r, &err) != 0) {
        snprintf(out->reason, sizeof out->reason, "%s", err.msg);
        out->skipped = out->reason;
        return 0;
    }
    int rc = 0;
    for (uint32_t f = 0; f < o->warmup && rc == 0; f++) rc = rc_render_frame(r, NULL, &err);
    rc_renderer_reset(r);
    for (uint32_t f = 0; f < o->frames && rc == 0; f++) {
        rc_frame_stats fs;
        rc = rc_render_frame(r, &fs, &err);
        if (rc == 0) rc_stats_total_add(&out->tot, &fs);
    }
    if (rc == 0) rc = rc_renderer_image(r, rgb, &err);
    if (rc == 0) out->image_hash = fnv1a(rgb, 3 * (size_t)st->width * st->height);
    rc_renderer_destroy(r);
    if (rc != 0)
        fprintf(stderr, "raycompact bench: %s/%s: %s\n", st->algo, rc_mode_name(st->mode), err.msg);
    return rc;
}

static void print_bounces(const run *rn) {
    const rc_stats_total *t = &rn->tot;
    double fr = t->frames ? (double)t->frames : 1.0;
    for (uint32_t b = 0; b < t->bounces; b++) {
        const rc_bounce_total *o = &t->bounce[b];
        double sum = o->extend_ms + o->shade_ms + o->compact_ms;
        printf("%-14s %-8s %6u %10.0f %10.0f %10.0f %7.1f%% %9.3f %9.3f %9.3f %6.1f%%\n", rn->algo,
               rc_mode_name(rn->mode), b, (double)o->stream / fr, (double)o->alive / fr,
               (double)o->kept / fr,
               o->alive ? 100.0 * (double)(o->alive - o->kept) / (double)o->alive : 0.0,
               o->extend_ms / fr, o->shade_ms / fr, o->compact_ms / fr,
               sum > 0 ? 100.0 * o->compact_ms / sum : 0.0);
    }
}

static void print_summary(const run *runs, int n) {
    printf("\n%-14s %-8s %10s %10s %7s %9s  %-16s\n", "algorithm", "mode", "frame ms", "compact ms",
           "share", "Mrays/s", "image");
    for (int i = 0; i < n; i++) {
        const run *rn = &runs[i];
        if (rn->skipped) {
            printf("%-14s %-8s skipped: %s\n", rn->algo, rc_mode_name(rn->mode), rn->skipped);
            continue;
        }
        const rc_stats_total *t = &rn->tot;
        double fr = t->frames, c = rc_stats_compact_ms(t);
        printf("%-14s %-8s %10.2f %10.3f %6.1f%% %9.2f  %016llx\n", rn->algo,
               rc_mode_name(rn->mode), t->total_ms / fr, c / fr,
               t->total_ms > 0 ? 100.0 * c / t->total_ms : 0.0,
               (double)rc_stats_rays(t) / (t->total_ms * 1e3), (unsigned long long)rn->image_hash);
    }
}

static cJSON *run_json(const run *rn) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "algorithm", rn->algo);
    cJSON_AddStringToObject(o, "mode", rc_mode_name(rn->mode));
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
    cJSON_AddNumberToObject(o, "generate_ms", t->generate_ms / fr);
    cJSON_AddNumberToObject(o, "extend_ms", rc_stats_extend_ms(t) / fr);
    cJSON_AddNumberToObject(o, "shade_ms", rc_stats_shade_ms(t) / fr);
    cJSON_AddNumberToObject(o, "compact_ms", rc_stats_compact_ms(t) / fr);
    cJSON_AddNumberToObject(o, "accumulate_ms", t->accumulate_ms / fr);
    cJSON_AddNumberToObject(o, "compact_share",
                            t->total_ms > 0 ? rc_stats_compact_ms(t) / t->total_ms : 0.0);
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
        cJSON_AddNumberToObject(j, "extend_ms", s->extend_ms / fr);
        cJSON_AddNumberToObject(j, "shade_ms", s->shade_ms / fr);
        cJSON_AddNumberToObject(j, "compact_ms", s->compact_ms / fr);
        double sum = s->extend_ms + s->shade_ms + s->compact_ms;
        cJSON_AddNumberToObject(j, "compact_share", sum > 0 ? s->compact_ms / sum : 0.0);
        cJSON_AddItemToArray(arr, j);
    }
    return o;
}

static int write_json(const bench_opts *o, const rc_settings *st, const run *runs, int n) {
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "scene", o->common.scene);
    cJSON_AddStringToObject(root, "backend", rc_backend_name(st->backend));
    cJSON_AddNumberToObject(root, "width", st->width);
    cJSON_AddNumberToObject(root, "height", st->height);
    cJSON_AddNumberToObject(root, "max_depth", st->max_depth);
    cJSON_AddNumberToObject(root, "frames", o->frames);
    cJSON_AddNumberToObject(root, "warmup", o->warmup);
#ifdef _OPENMP
    cJSON_AddNumberToObject(root, "threads", omp_get_max_threads());
#else
    cJSON_AddNumberToObject(root, "threads", 1);
#endif
    cJSON *arr = cJSON_AddArrayToObject(root, "runs");
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(arr, run_json(&runs[i]));
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

/* The algorithm and mode lists; "all" = every name the backend lists. */
static int lists(bench_opts *o, rc_backend b, char *abuf, char *mbuf, const char **algos, int *na,
                 rc_mode *modes, int *nm) {
    const char *mitems[4];
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
    char abuf[512], mbuf[64];
    snprintf(abuf, sizeof abuf, "%s", o->algos ? o->algos : "all");
    snprintf(mbuf, sizeof mbuf, "%s", o->modes ? o->modes : "indices,payload");
    const char *algos[MAX_RUNS / 2];
    rc_mode modes[2];
    int na = 0, nm = 0, rc;
    if ((rc = lists(o, st->backend, abuf, mbuf, algos, &na, modes, &nm)) != 0) return rc;
    int all = !o->algos || strcmp(o->algos, "all") == 0;
    run *runs = calloc((size_t)(na * nm), sizeof *runs);
    float *rgb = malloc((size_t)st->width * st->height * 3 * sizeof *rgb);
    if (!runs || !rgb) {
        free(runs);
        free(rgb);
        fprintf(stderr, "raycompact bench: out of memory\n");
        return RC_EXIT_FAIL;
    }
    printf("%s: %ux%u, %u frames (+%u warmup), max depth %u, %s backend\n\n", o->common.scene,
           st->width, st->height, o->frames, o->warmup, st->max_depth,
           rc_backend_name(st->backend));
    printf("%-14s %-8s %6s %10s %10s %10s %8s %9s %9s %9s %7s\n", "algorithm", "mode", "bounce",
           "rays in", "alive", "kept", "removed", "extend", "shade", "compact", "share");
    int n = 0;
    for (int i = 0; i < na && rc == 0; i++) {
        for (int m = 0; m < nm && rc == 0; m++, n++) {
            run *rn = &runs[n];
            st->algo = algos[i];
            st->mode = modes[m];
            rn->algo = algos[i];
            rn->mode = modes[m];
            rc = run_one(o, scene, st, rn, rgb) != 0 ? RC_EXIT_FAIL : 0;
            if (rn->skipped && !all) {
                fprintf(stderr, "raycompact bench: %s\n", rn->skipped);
                rc = RC_EXIT_USAGE;
            }
            if (rc == 0 && !rn->skipped) print_bounces(rn);
            fflush(stdout);
        }
    }
    if (rc == 0) print_summary(runs, n);
    if (rc == 0 && o->json) rc = write_json(o, st, runs, n);
    free(runs);
    free(rgb);
    return rc;
}

int cmd_bench(int argc, char **argv) {
    bench_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;
    rc_scene scene;
    rc_settings st;
    if ((rc = cli_load("bench", &o.common, &scene, &st)) != 0) return rc;
    st.library_timing = o.library_phases;
    rc = cli_pick_backend("bench", o.common.backend, &st.backend);
    if (rc == 0) rc = bench(&o, &scene, &st);
    rc_scene_free(&scene);
    return rc;
}
