/* bench_suite.c: `compact bench --report DIR`: the fixed sweeps that put the papers' claims to
 * this device (each an ordinary `compact bench` line, filled in per scale), their JSON, CSV and
 * table, then plot_bench.py for the plots and README.md. */
#define _POSIX_C_SOURCE 200809L /* posix_spawnp, mkdir */
#include "bench.h"
#include "echo.h"
#include "read_file.h"

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef BENCH_PLOT_SCRIPT
#define BENCH_PLOT_SCRIPT "plot_bench.py"
#endif
#ifndef BENCH_PLOT_SCRIPT_INSTALLED
#define BENCH_PLOT_SCRIPT_INSTALLED BENCH_PLOT_SCRIPT
#endif
#ifndef BENCH_PYTHON
#define BENCH_PYTHON "python3"
#endif
#ifndef BENCH_MASK_DIR
#define BENCH_MASK_DIR "assets/masks"
#endif

extern char **environ;

/* The values one scale fills the sweep templates with ({N}, {SIZES}, ...). */
typedef struct suite_scale {
    const char *n, *sizes, *dens, *tiles, *scan_tiles, *patterns, *red, *red_k, *elems, *vdens;
    const char *runs;
} suite_scale;

/* Streams of 2^24 elements for every sweep at one size: large enough to be bandwidth-bound on
 * today's GPUs (the papers used 4M), small enough that the whole report takes a few minutes. */
static const suite_scale k_cuda = {
    "2^24",
    "2^16,2^18,2^20,2^22,2^24,2^26",
    "0:1:0.05,0.02",
    "32,256,2048",
    "32,64,128,256,512,1024,2048",
    "random,runs:4,runs:64,runs:1024,blobs{MASKS}",
    "red:0,red:0.25,red:0.5,red:0.75,red:1",
    "0.02,0.1,0.5",
    "4,8,16",
    "0.1,0.5,0.9",
    "--runs 11 --warmup 2 --budget-ms 150",
};
static const suite_scale k_cuda_quick = {
    "2^20",
    "2^16,2^18,2^20,2^22",
    "0:1:0.1,0.02",
    "32,256,2048",
    "32,128,512,2048",
    "random,runs:64,blobs{MASK1}",
    "red:0,red:0.5,red:1",
    "0.02,0.5",
    "4,16",
    "0.5",
    "--runs 5 --warmup 1 --budget-ms 50",
};
static const suite_scale k_cpu = {
    "2^20",
    "2^12,2^14,2^16,2^18,2^20",
    "0:1:0.1,0.02",
    "32,256,2048",
    "32,64,128,256,512,1024,2048",
    "random,runs:4,runs:64,runs:1024,blobs{MASKS}",
    "red:0,red:0.25,red:0.5,red:0.75,red:1",
    "0.02,0.1,0.5",
    "4,16",
    "0.5",
    "--runs 5 --warmup 1 --budget-ms 500",
};
/* Small enough for CI (2 cores, well under a minute), every sweep and plot still there. */
static const suite_scale k_cpu_quick = {
    "2^12",
    "2^10,2^12",
    "0:1:0.25,0.02",
    "32,256,2048",
    "32,128,512",
    "random,runs:16,blobs{MASK1}",
    "red:0,red:1",
    "0.1,0.5",
    "4,16",
    "0.5",
    "--runs 3 --warmup 1 --budget-ms 20",
};

typedef struct suite_sweep {
    const char *tag, *purpose, *args;
} suite_sweep;

static const suite_sweep k_sweeps[] = {
    {"size", "time and bandwidth against n: every flag algorithm, CUB, thrust, the copy",
     "--algos scan-scatter,horn,jumping-jack,rlz,binary-tree,spataro,billeter,atomic,single-pass,"
     "redzone --n {SIZES} --removed 0.5"},
    {"density",
     "time against the removed fraction for tiles 32/256/2048 (Moreira 2009 Fig. 8-10, JJ paper "
     "Fig. 11-13), Redzone against thrust for random and slot-ordered lists (Redzone Fig. 4)",
     "--algos horn,jumping-jack,rlz,binary-tree,scan-scatter,spataro,billeter,atomic,single-pass,"
     "redzone,redzone-block --n {N} --removed {DENS} --tile {TILES} --order random,slot"},
    {"scan", "Hillis-Steele against Blelloch scans at every tile size (both Moreira 2009 papers)",
     "--algos scan-scatter,horn,jumping-jack,rlz,binary-tree --n {N} --removed 0.5 "
     "--tile {SCAN_TILES} --scan hillis-steele,blelloch"},
    {"pattern",
     "structure at one density: runs, blobs, image masks and their negatives (Moreira 2009 "
     "Table 1)",
     "--algos horn,jumping-jack,rlz,binary-tree,scan-scatter,spataro,billeter,atomic,single-pass "
     "--n {N} --removed 0.5 --tile {TILES} --pattern {PATTERNS}"},
    {"redzone-r", "share r of the removal list inside the red zone [n-k, n) (Redzone Fig. 6)",
     "--algos redzone,redzone-block --n {N} --removed {RED_K} --pattern {RED}"},
    {"vector-io", "element sizes: Billeter's warp sequences and vector IO against Spataro (blog)",
     "--algos spataro,billeter,single-pass --n {N} --removed {VDENS} --elem {ELEMS}"},
};
#define NUM_SWEEPS (sizeof k_sweeps / sizeof *k_sweeps)

static const char *const k_masks[] = {"hand", "bunny", "sphere"};

/* ---- filling the templates ---- */

static const char *env_or(const char *name, const char *fallback) {
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

/* 0 when path is a regular file that opens (a FIFO is refused, not waited on), else
 * RC_OPEN_FAILED or RC_OPEN_NOT_REGULAR with the reason in why (read_file.h). */
static int open_check(const char *path, char *why, size_t cap) {
    FILE *f;
    int rc = rc_open_regular(path, &f, NULL, why, cap);
    if (rc == 0) fclose(f);
    return rc;
}

static int readable(const char *path) {
    return open_check(path, NULL, 0) == 0;
}

/* ",mask:DIR/hand.png,invmask:DIR/hand.png,..." for the masks that are there ({MASK1}: the
 * first only). */
static void mask_patterns(char *out, size_t cap, int all, int quiet) {
    const char *dir = env_or("COMPACT_MASK_DIR", BENCH_MASK_DIR);
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < (all ? sizeof k_masks / sizeof *k_masks : 1); i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.png", dir, k_masks[i]);
        char why[128];
        int bad = open_check(path, why, sizeof why);
        if (bad && !quiet && bad == RC_OPEN_NOT_REGULAR)
            fprintf(stderr, "compact bench: mask %s: %s, skipped\n", path, why);
        else if (bad && !quiet)
            fprintf(stderr, "compact bench: no mask %s ($COMPACT_MASK_DIR), skipped\n", path);
        if (bad) continue;
        len += (size_t)snprintf(out + len, cap - len, ",mask:%s,invmask:%s", path, path);
        if (len >= cap) len = cap - 1;
    }
}

static const char *scale_value(const suite_scale *sc, const char *key, const char *masks) {
    static const char *const keys[] = {"N",   "SIZES", "DENS",  "TILES", "SCAN_TILES", "PATTERNS",
                                       "RED", "RED_K", "ELEMS", "VDENS", "MASKS",      "MASK1"};
    const char *values[] = {sc->n,   sc->sizes, sc->dens,  sc->tiles, sc->scan_tiles, sc->patterns,
                            sc->red, sc->red_k, sc->elems, sc->vdens, masks,          masks};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strcmp(key, keys[i])) return values[i];
    return NULL;
}

static int copy_str(char *dst, size_t cap, const char *src) {
    size_t len = strlen(src);
    if (len >= cap) return -1;
    memcpy(dst, src, len + 1);
    return 0;
}

/* Replace each {KEY} in `in` by its value, until none is left (values may hold keys). */
static int expand(const suite_scale *sc, const char *masks, const char *in, char *out, size_t cap) {
    char buf[4096];
    if (copy_str(buf, sizeof buf, in)) return -1;
    for (int pass = 0; pass < 3 && strchr(buf, '{'); pass++) {
        size_t len = 0;
        for (const char *p = buf; *p && len + 1 < cap;) {
            const char *close = *p == '{' ? strchr(p, '}') : NULL;
            if (!close) {
                out[len++] = *p++;
                continue;
            }
            char key[32];
            snprintf(key, sizeof key, "%.*s", (int)(close - p - 1), p + 1);
            const char *v = scale_value(sc, key, masks);
            if (!v) return -1;
            len += (size_t)snprintf(out + len, cap - len, "%s", v);
            if (len >= cap) return -1;
            p = close + 1;
        }
        out[len] = 0;
        if (copy_str(buf, sizeof buf, out)) return -1;
    }
    return copy_str(out, cap, buf);
}

/* The sweep's whole command line, as `compact bench` takes it. */
static int sweep_command(const bench_opts *user, const suite_scale *sc, const char *masks,
                         const suite_sweep *sw, char *out, size_t cap) {
    char args[3072], full[3584];
    if (expand(sc, masks, sw->args, args, sizeof args)) return -1;
    int len = snprintf(full, sizeof full, "compact bench --backend %s %s %s --seed %zu",
                       sc_backend_name(user->backend), args, sc->runs, user->seed);
    if (len < 0 || (size_t)len >= sizeof full) return -1;
    return copy_str(out, cap, full);
}

/* Split at spaces (no value holds one but a mask path, which must not) and parse. */
static int parse_command(bench_opts *o, char *line, int quiet) {
    char *argv[64];
    int argc = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    if (argc < 2 || bench_parse_args(o, argc - 1, argv + 1)) return -1;
    o->quiet = quiet;
    return 0;
}

/* ---- files ---- */

static int make_dirs(const char *dir) {
    char path[1024];
    if (strlen(dir) >= sizeof path) return -1;
    strcpy(path, dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(path, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(path, 0777) && errno != EEXIST) return -1;
    /* EEXIST is also what a file of that name gives. */
    struct stat st;
    if (stat(path, &st)) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

static int write_outputs(const bench_report *r, const char *dir) {
    static const char *const names[3] = {"bench.json", "bench.csv", "table.txt"};
    for (int i = 0; i < 3; i++) {
        char path[1100];
        rc_error err;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (bench_report_write(r, (bench_format)i, path, &err)) {
            fprintf(stderr, "compact bench: %s\n", err.msg);
            return -1;
        }
    }
    return 0;
}

/* python3 plot_bench.py DIR/bench.json --out DIR; 0 if it made the plots and the README. */
static int run_plots(const char *dir) {
    const char *python = env_or("COMPACT_PYTHON", BENCH_PYTHON);
    const char *script = env_or("COMPACT_PLOT_SCRIPT", BENCH_PLOT_SCRIPT);
    if (!readable(script) && readable(BENCH_PLOT_SCRIPT_INSTALLED))
        script = BENCH_PLOT_SCRIPT_INSTALLED;
    char json[1100];
    snprintf(json, sizeof json, "%s/bench.json", dir);
    /* The script reads the algorithm table from this program: `compact list --names`. */
    char self[1024] = "compact";
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) self[len] = 0;
    char *argv[] = {(char *)python, (char *)script, json, "--out",
                    (char *)dir,    "--compact",    self, NULL};
    pid_t pid;
    int status = 0, e = posix_spawnp(&pid, python, NULL, NULL, argv, environ);
    if (e == 0 && waitpid(pid, &status, 0) < 0) e = errno;
    if (e == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    fprintf(stderr,
            "compact bench: the plots were not made (%s); the data is in %s: run\n"
            "  %s %s %s --out %s --compact %s\n",
            e ? strerror(e) : "the plot script failed", json, python, script, json, dir, self);
    return -1;
}

/* ---- the suite ---- */

static const suite_scale *scale_for(const bench_opts *o) {
    if (o->backend == SC_BACKEND_CUDA) return o->quick ? &k_cuda_quick : &k_cuda;
    return o->quick ? &k_cpu_quick : &k_cpu;
}

/* Every sweep into the session; stops at the first fatal error. */
static int run_sweeps(bench_session *s, const bench_opts *user, bench_report_sweep *meta,
                      size_t *done) {
    static bench_opts o;
    const suite_scale *sc = scale_for(user);
    char masks[2048], line[sizeof meta->command], label[64];
    mask_patterns(masks, sizeof masks, sc != &k_cuda_quick && sc != &k_cpu_quick, user->quiet);
    for (size_t i = 0; i < NUM_SWEEPS; i++) {
        meta[i].tag = k_sweeps[i].tag;
        meta[i].purpose = k_sweeps[i].purpose;
        if (sweep_command(user, sc, masks, &k_sweeps[i], meta[i].command, sizeof meta[i].command)) {
            fprintf(stderr, "compact bench: the %s sweep's command is too long\n", k_sweeps[i].tag);
            return -1;
        }
        strcpy(line, meta[i].command);
        if (parse_command(&o, line, user->quiet)) return -1;
        snprintf(label, sizeof label, "[%zu/%zu %s]", i + 1, NUM_SWEEPS, k_sweeps[i].tag);
        *done = i + 1;
        if (bench_session_sweep(s, &o, k_sweeps[i].tag, label)) return -1;
    }
    return 0;
}

int bench_suite(const bench_opts *user) {
    static bench_report_sweep meta[NUM_SWEEPS];
    if (make_dirs(user->report)) {
        echo_line(stderr, "compact bench: cannot create %s: %s", user->report, strerror(errno));
        return BENCH_EXIT_ERROR;
    }
    bench_session *s = bench_session_open(user->backend, user->quiet, user->max_seconds);
    if (!s) return BENCH_EXIT_ERROR;
    size_t done = 0;
    int stopped = run_sweeps(s, user, meta, &done);
    bench_report *r = bench_session_report(s);
    r->quick = user->quick;
    r->complete = !stopped;
    r->sweeps = meta;
    r->num_sweeps = done;
    bench_report_ratios(r);
    int failed = r->count == 0 || write_outputs(r, user->report);
    if (!failed) failed = run_plots(user->report);
    if (r->count == 0)
        fprintf(stderr, "compact bench: no measurement finished, so nothing was written to %s\n",
                user->report);
    else if (!user->quiet)
        fprintf(stderr, "compact bench: %zu measurements in %.0f s%s; report in %s\n", r->count,
                r->elapsed_s, stopped ? " (stopped early)" : "", user->report);
    int rc = bench_session_close(s);
    if (rc == 0 && (failed || stopped)) rc = BENCH_EXIT_ERROR;
    return rc;
}
