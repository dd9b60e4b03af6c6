/* bench.c: the options and --help of `compact bench` and `compact tune`. The sweep itself is
 * bench_sweep.c, the fixed set of sweeps behind --report bench_suite.c, the tune bench_tune.c. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "bench.h"
#include "echo.h"
#include "num_parse.h"
#include "out_path.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bench_usage(FILE *f) {
    fprintf(
        f,
        "usage: compact bench [--backend cpu|cuda] [--algos all|LIST] [--n LIST]\n"
        "                     [--removed LIST] [--pattern LIST] [--elem LIST] [--tile LIST]\n"
        "                     [--scan LIST] [--order LIST] [--runs N] [--warmup N]\n"
        "                     [--seed S] [--json FILE] [--csv FILE] [--quiet]\n"
        "       compact bench --report DIR [--backend cpu|cuda] [--quick] [--seed S]\n"
        "                     [--max-seconds S] [--quiet]\n"
        "       compact bench --partition K [--backend cpu|cuda] [--n LIST] [--elem LIST]\n"
        "                     [--runs N] [--warmup N] [--seed S] [--quiet]\n"
        "\n"
        "Times algorithms through the public API, one configuration or the cartesian product of\n"
        "the lists (LIST is comma-separated, each item once, none empty), against baselines\n"
        "measured in the same run: copy (the bandwidth limit), cub, thrust-remove-if,\n"
        "scatter-limit (what a removal list must write) and thrust-remove-list (Redzone's\n"
        "competitors). Every result is checked against the serial reference; then warmup + runs\n"
        "runs, each on the next of several input sets (over twice the last-level cache),\n"
        "in-place ones refilled and the cache flushed outside the timed region; the phase\n"
        "breakdown is the median of %d passes. How the times are taken and what the JSON holds:\n"
        "docs/bench.md.\n"
        "\n"
        "  --backend B     cpu | cuda (default: cuda where a CUDA device is usable, else cpu)\n"
        "  --algos A       all (default) or names from 'compact list'; auto runs twice:\n"
        "                  'auto' (flags only) and 'auto-list' (offered the removal list too)\n"
        "  --n LIST        elements, 1 .. 2^32-1: 1000000, 2^24, 2^27+13 (default 2^24 on\n"
        "                  cuda, 2^20 on cpu)\n"
        "  --removed LIST  fraction removed, exactly round(f*n): 0.5, 30%%, or a range\n"
        "                  FROM:TO:STEP, 0:1:0.05 = 21 values (default 0.5)\n"
        "  --pattern LIST  where the removed elements lie (default random): random, runs:L\n"
        "                  (runs of mean length L), blobs (2-D blobs on a sqrt(n) grid),\n"
        "                  mask:F.png (white = keep; its own density), invmask:F.png (white =\n"
        "                  remove), red:R (a share R of the list in the red zone [n-k, n))\n"
        "  --elem LIST     element size in bytes, 1..256 (default 4)\n"
        "  --tile LIST     tile size of the block-based algorithms, 32..2048 (default 256)\n"
        "  --scan LIST     hillis-steele | blelloch | default, for the scan-based ones\n"
        "  --order LIST    removal list order: random (default) | slot (ascending index)\n"
        "  --runs N        timed runs per measurement (default 21): median, min, max\n"
        "  --warmup N      untimed runs first (default 3)\n"
        "  --settle-ms MS  CUDA: every SM busy for MS ms before each measurement (default %g)\n"
        "  --budget-ms MS  fewer runs (at least 3) where warmup + runs would take longer\n"
        "  --seed S        input seed (default 1)\n"
        "  --json FILE     one record per measurement (through a temporary file, renamed)\n"
        "  --csv FILE      the same fields, one line per record\n"
        "  --graph         CUDA: each run one replay of a graph of 100 calls (per call times)\n"
        "  --warm          every run on one input set, left in the cache by the run before\n"
        "  --quiet         no progress lines or notices on stderr\n"
        "  --report DIR    the fixed sweeps that test the papers' claims: DIR/bench.json,\n"
        "                  bench.csv, table.txt, then plot_bench.py (python3 with matplotlib;\n"
        "                  $COMPACT_PYTHON, $COMPACT_PLOT_SCRIPT, $COMPACT_MASK_DIR override\n"
        "                  the built-in paths) for DIR/*.png and DIR/README.md\n"
        "  --quick         with --report: smaller streams, fewer points and runs\n"
        "  --max-seconds S with --report: start no measurement after S seconds; the files\n"
        "                  then hold what was measured, marked incomplete; exit status 1\n"
        "  --partition K   the stable K-way partition (sc_partition, K = 1..16 keys drawn\n"
        "                  at random) of every algorithm the backend has, beside the flagged\n"
        "                  compaction of the same n, half removed (CUDA: single-pass and cub;\n"
        "                  CPU: scan-scatter); 'x compact' = its time over the first's\n"
        "\n"
        "GB/s = (n*elem_size read + n flag bytes read + kept*elem_size written) / median\n"
        "time; x CUB = CUB's median / the row's; %% copy = 100 * the copy's median / the row's.\n"
        "Exit status: 0 ok; 1 --backend cuda where this build has no CUDA backend or no\n"
        "device is usable, out of memory, a failed call or an unwritten file; 2 bad options\n"
        "(a list with an empty item or an item twice among them); 3 a result differed from\n"
        "the serial reference. Each error is one line.\n"
        "\n"
        "examples:\n"
        "  compact bench --algos cub,single-pass --n 2^24\n"
        "  compact bench --algos horn,jumping-jack --tile 32,256,2048 --removed 0:1:0.05\n"
        "  compact bench --algos redzone,redzone-block --removed 1%%,10%% --order random,slot\n"
        "  compact bench --algos rlz,binary-tree --pattern random,runs:64,blobs,mask:hand.png\n"
        "  compact bench --report docs/bench/h100   (about 5 minutes on an H100)\n",
        BENCH_PHASE_PASSES, BENCH_SETTLE_MS);
}

static void tune_usage(FILE *f) {
    fprintf(f, "usage: compact tune [--out FILE] [--backend cpu|cuda] [--n LIST] [--elem LIST]\n"
               "                    [--removed LIST] [--tile LIST] [--scan LIST] [--algos LIST]\n"
               "                    [--runs N] [--warmup N] [--json FILE] [--quiet]\n"
               "       compact tune --from FILE [--out FILE] [--quiet]\n"
               "\n"
               "Measures a grid (every algorithm but auto, with and without a removal list, each\n"
               "--tile and --scan) as 'compact bench' does, and writes auto's policy table: per\n"
               "point the fastest algorithm, the fastest stable one, and Redzone where a list\n"
               "beats both (per half of the point's n cell, the least worst ratio to the fastest\n"
               "over the point and that half's edges; fraction bounds where the choices' times\n"
               "cross; medians above a larger n's count as that). The lists and --runs, --warmup,\n"
               "--seed, --budget-ms and --settle-ms are those of 'compact bench --help'.\n"
               "Defaults: --n 2^16,2^20,2^24 (cuda; 2^12,2^16,2^20 cpu) --elem 4,16,64\n"
               "--removed 0.01,0.03,0.1,0.3,0.5,0.7,0.9 --tile 64,256,1024\n"
               "\n"
               "  --out FILE   the table's file (a temporary file, renamed; default stdout);\n"
               "               SC_POLICY=FILE or sc_options.policy uses it\n"
               "  --json FILE  also keep the measurements the table came from\n"
               "  --from FILE  measure nothing: derive the table from the measurements an earlier\n"
               "               'compact tune --json FILE' kept (its grid, its backend and device)\n"
               "\n"
               "Exit status as compact bench's: 0 ok; 1 --backend cuda where this build has no\n"
               "CUDA backend or no device is usable, or a failure while running; 2 bad options.\n"
               "\n"
               "example: compact tune --out sm_90.json   (auto's table for this GPU, measured)\n");
}

const char *bench_prog = "compact bench"; /* bench.h */

/* ---- option parsing ---- */

void cli_unknown_algorithm(const char *name) {
    char valid[1024];
    size_t n = 0;
    for (int i = 0; i < SC_ALGO_COUNT && n < sizeof valid; i++)
        n += (size_t)snprintf(valid + n, sizeof valid - n, "%s %s", i ? "," : "",
                              sc_algorithm_get((sc_algorithm)i)->name);
    echo_line(stderr, "compact: unknown algorithm '%s' (valid:%s)", name, valid);
}

int cli_parse_scan(const char *s, sc_scan *out) {
    if (!strcmp(s, "hillis-steele") || !strcmp(s, "hs"))
        *out = SC_SCAN_HILLIS_STEELE;
    else if (!strcmp(s, "blelloch"))
        *out = SC_SCAN_BLELLOCH;
    else if (!strcmp(s, "default"))
        *out = SC_SCAN_DEFAULT;
    else
        return -1;
    return 0;
}

static int bad_value(const char *opt, const char *value, const char *valid) {
    echo_line(stderr, "%s: bad %s '%s' (valid: %s)", bench_prog, opt, value, valid);
    return -1;
}

/* A list longer than its buffer: the limit is named, the list is not echoed (it may be longer
 * than a message). */
static int too_long(const char *opt, size_t len, size_t cap) {
    fprintf(stderr, "%s: %s: the list is %zu bytes long; at most %zu\n", bench_prog, opt, len,
            cap - 1);
    return -1;
}

/* One element of a comma-separated list into slot i of the option's array. */
static int parse_item(bench_opts *o, const char *opt, const char *v, int i) {
    if (!strcmp(opt, "--n")) {
        size_t max = sc_max_elements(o->backend);
        if (max > UINT32_MAX) max = UINT32_MAX;
        if (num_parse_size(v, &o->n[i]) || o->n[i] == 0 || o->n[i] > max)
            return bad_value(opt, v, "1 .. 2^32-1, e.g. 1000000, 2^24, 2^27+13");
    } else if (!strcmp(opt, "--removed")) {
        if (num_parse_fraction(v, &o->removed[i]))
            return bad_value(opt, v, "a fraction 0..1 or a percentage 0%..100%");
    } else if (!strcmp(opt, "--elem")) {
        if (num_parse_size(v, &o->elem[i]) || o->elem[i] == 0 || o->elem[i] > SC_ELEM_MAX)
            return bad_value(opt, v, "element size in bytes, 1..256");
    } else if (!strcmp(opt, "--tile")) {
        size_t t;
        if (num_parse_size(v, &t) || t < SC_TILE_MIN || t > SC_TILE_MAX || (t & (t - 1)))
            return bad_value(opt, v, "a power of two 32..2048");
        o->tile[i] = t;
    } else if (!strcmp(opt, "--scan")) {
        if (cli_parse_scan(v, &o->scan[i]))
            return bad_value(opt, v, "hillis-steele, blelloch, default");
    } else if (!strcmp(opt, "--order")) {
        if (strcmp(v, "random") && strcmp(v, "slot")) return bad_value(opt, v, "random, slot");
        o->order[i] = !strcmp(v, "slot");
    } else if (!strcmp(opt, "--pattern")) {
        char why[600];
        if (i >= BENCH_MAX_PATTERNS) return bad_value(opt, v, "at most 16 patterns");
        if (bench_pattern_parse(v, &o->pattern[i], why, sizeof why)) {
            echo_line(stderr, "%s: bad --pattern '%s': %s", bench_prog, v, why);
            return -1;
        }
    }
    return 0;
}

/* "FROM:TO:STEP" for --removed: FROM, FROM+STEP, ... up to TO (within rounding), appended. */
static int parse_range(bench_opts *o, const char *v, int *count) {
    char buf[128], *parts[3];
    if (strlen(v) >= sizeof buf) return bad_value("--removed", v, "FROM:TO:STEP");
    strcpy(buf, v);
    parts[0] = strtok(buf, ":");
    parts[1] = strtok(NULL, ":");
    parts[2] = strtok(NULL, ":");
    double from, to, step;
    if (!parts[2] || strtok(NULL, ":") || num_parse_fraction(parts[0], &from) ||
        num_parse_fraction(parts[1], &to) || num_parse_fraction(parts[2], &step) || step <= 0 ||
        to < from)
        return bad_value("--removed", v, "FROM:TO:STEP, fractions with FROM <= TO, STEP > 0");
    /* The count is checked as a double, before it becomes an integer: a tiny STEP gives more
     * values than a long holds. */
    double span = floor((to - from) / step + 1e-9);
    if (!(span + 1.0 + *count <= BENCH_MAX_LIST))
        return bad_value("--removed", v, "at most 64 values");
    long steps = (long)span;
    for (long i = 0; i <= steps; i++) {
        double f = from + (double)i * step;
        o->removed[(*count)++] = round(f * 1e9) / 1e9; /* 0.30000000000000004 -> 0.3 */
    }
    return 0;
}

/* A list with an empty item or an item written twice: one line that names it; -1. */
static int list_faults(const char *opt, const char *value) {
    size_t at, len;
    switch (num_list_check(value, &at, &len)) {
    case NUM_LIST_EMPTY:
        if (!*value) {
            fprintf(stderr, "%s: %s: the list is empty\n", bench_prog, opt);
            return -1;
        }
        echo_line(stderr,
                  "%s: %s: '%s' has an empty item (a comma at the start or the end, or "
                  "two in a row)",
                  bench_prog, opt, value);
        return -1;
    case NUM_LIST_REPEAT:
        echo_line(stderr, "%s: %s: '%.*s' is listed twice", bench_prog, opt, (int)len, value + at);
        return -1;
    }
    return 0;
}

/* 1 if slots i and j of the option's array hold the same value (written apart: "2^10" and
 * "1024", "hs" and "hillis-steele", "50%" and 0.5 or a range's step). */
static int same_item(const bench_opts *o, const char *opt, int i, int j) {
    if (!strcmp(opt, "--n")) return o->n[i] == o->n[j];
    if (!strcmp(opt, "--removed")) return o->removed[i] == o->removed[j];
    if (!strcmp(opt, "--elem")) return o->elem[i] == o->elem[j];
    if (!strcmp(opt, "--tile")) return o->tile[i] == o->tile[j];
    if (!strcmp(opt, "--scan")) return o->scan[i] == o->scan[j];
    if (!strcmp(opt, "--order")) return o->order[i] == o->order[j];
    const bench_pattern *a = &o->pattern[i], *b = &o->pattern[j];
    return a->kind == b->kind && a->param == b->param && a->invert == b->invert &&
           !strcmp(a->path, b->path);
}

/* The first of slots [from, count) whose value an earlier slot holds, named by `tok` (the item
 * that gave it), or by its value where a range gave several; -1. */
static int repeated_value(const bench_opts *o, const char *opt, const char *tok, int from,
                          int count) {
    for (int i = from; i < count; i++)
        for (int j = 0; j < i; j++) {
            if (!same_item(o, opt, i, j)) continue;
            if (count - from > 1) /* a range: the value it repeats */
                echo_line(stderr, "%s: %s: the range '%s' gives %g a second time", bench_prog, opt,
                          tok, o->removed[i]);
            else
                echo_line(stderr, "%s: %s: '%s' repeats the value of an earlier item", bench_prog,
                          opt, tok);
            return -1;
        }
    return 0;
}

/* A comma-separated list, each item given once; a repeated option replaces the earlier one. */
static int parse_list(bench_opts *o, const char *opt, const char *value, int *count) {
    char buf[1024];
    if (strlen(value) >= sizeof buf) return too_long(opt, strlen(value), sizeof buf);
    if (list_faults(opt, value)) return -1;
    strcpy(buf, value);
    *count = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int from = *count;
        if (!strcmp(opt, "--removed") && strchr(tok, ':')) {
            if (parse_range(o, tok, count)) return -1;
        } else {
            if (*count == BENCH_MAX_LIST) return bad_value(opt, value, "at most 64 values");
            if (parse_item(o, opt, tok, *count)) return -1;
            (*count)++;
        }
        if (repeated_value(o, opt, tok, from, *count)) return -1;
    }
    if (*count == 0) return bad_value(opt, value, "a comma-separated list");
    return 0;
}

static int parse_algos(bench_opts *o, const char *value) {
    o->num_algos = 0;
    if (!strcmp(value, "all")) {
        for (int a = 0; a < SC_ALGO_COUNT; a++) o->algos[o->num_algos++] = a;
        return 0;
    }
    char buf[1024];
    if (strlen(value) >= sizeof buf) return too_long("--algos", strlen(value), sizeof buf);
    if (list_faults("--algos", value)) return -1;
    strcpy(buf, value);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        const sc_algorithm_info *info = sc_algorithm_find(tok);
        if (!info) {
            cli_unknown_algorithm(tok);
            return -1;
        }
        o->algos[o->num_algos++] = (int)info->id; /* each once: list_faults */
    }
    if (o->num_algos == 0) return bad_value("--algos", value, "all, or a comma-separated list");
    return 0;
}

static int parse_int(const char *opt, const char *v, int min, int *out) {
    size_t x;
    if (num_parse_size(v, &x) || x < (size_t)min || x > 100000)
        return bad_value(opt, v, min ? "an integer 1..100000" : "an integer 0..100000");
    *out = (int)x;
    return 0;
}

/* How each option is read, and where it may go. */
enum { K_FLAG, K_LIST, K_TEXT, K_INT0, K_INT1, K_POSITIVE, K_OWN };
enum { O_SWEEP = 1, O_PART = 2 }; /* chooses the sweep (not with --report, --from); --partition's */
typedef struct bench_option {
    const char *name;
    int kind, where;
    size_t at;         /* offsetof its value in bench_opts (K_LIST: the list's count) */
    const char *valid; /* K_POSITIVE: what is valid */
} bench_option;

#define AT(field) offsetof(bench_opts, field)
static const bench_option k_options[] = {
    {"--backend", K_OWN, O_PART, 0, NULL},
    {"--algos", K_OWN, O_SWEEP, 0, NULL},
    {"--n", K_LIST, O_SWEEP | O_PART, AT(num_n), NULL},
    {"--removed", K_LIST, O_SWEEP, AT(num_removed), NULL},
    {"--pattern", K_LIST, O_SWEEP, AT(num_pattern), NULL},
    {"--elem", K_LIST, O_SWEEP | O_PART, AT(num_elem), NULL},
    {"--tile", K_LIST, O_SWEEP, AT(num_tile), NULL},
    {"--scan", K_LIST, O_SWEEP, AT(num_scan), NULL},
    {"--order", K_LIST, O_SWEEP, AT(num_order), NULL},
    {"--runs", K_INT1, O_SWEEP | O_PART, AT(runs), NULL},
    {"--warmup", K_INT0, O_SWEEP | O_PART, AT(warmup), NULL},
    {"--budget-ms", K_POSITIVE, O_SWEEP, AT(budget_ms), "milliseconds > 0"},
    {"--settle-ms", K_OWN, O_SWEEP, 0, NULL},
    {"--max-seconds", K_POSITIVE, 0, AT(max_seconds), "seconds > 0"},
    {"--seed", K_OWN, O_PART, 0, NULL},
    {"--json", K_TEXT, O_SWEEP, AT(json), NULL},
    {"--csv", K_TEXT, O_SWEEP, AT(csv), NULL},
    {"--report", K_TEXT, 0, AT(report), NULL},
    {"--quick", K_FLAG, 0, AT(quick), NULL},
    {"--out", K_TEXT, 0, AT(tune_out), NULL},
    {"--from", K_TEXT, 0, AT(tune_from), NULL},
    {"--partition", K_OWN, O_PART, 0, NULL},
    {"--quiet", K_FLAG, O_PART, AT(quiet), NULL},
    {"--graph", K_FLAG, 0, 0, NULL},
    {"--warm", K_FLAG, 0, 0, NULL},
    {"--help", K_FLAG, 0, 0, NULL},
};
#define NUM_OPTIONS (sizeof k_options / sizeof *k_options)

static const bench_option *find_option(const char *a) {
    if (!strcmp(a, "-q") || !strcmp(a, "-h")) a = a[1] == 'q' ? "--quiet" : "--help";
    for (size_t i = 0; i < NUM_OPTIONS; i++)
        if (!strcmp(a, k_options[i].name)) return &k_options[i];
    return NULL;
}

static int unknown_option(const char *a) {
    char valid[512];
    size_t n = 0;
    for (size_t i = 0; i < NUM_OPTIONS && n < sizeof valid; i++)
        n +=
            (size_t)snprintf(valid + n, sizeof valid - n, "%s%s", i ? ", " : "", k_options[i].name);
    echo_line(stderr, "%s: unknown option '%s' (valid: %s)", bench_prog, a, valid);
    return -1;
}

/* A list the command line left empty takes `value`. */
static void default_list(bench_opts *o, const char *opt, const char *value) {
    int *count = (int *)(void *)((char *)o + find_option(opt)->at);
    if (!*count) parse_list(o, opt, value, count);
}

static void set_defaults(bench_opts *o) {
    bench_graph_calls = 0;
    bench_warm = 0;
    bench_settle_ms = BENCH_SETTLE_MS;
    memset(o, 0, sizeof *o);
#ifdef SC_HAVE_CUDA
    o->backend = SC_BACKEND_CUDA;
#else
    o->backend = SC_BACKEND_CPU;
#endif
    o->num_algos = -1;
    o->runs = 21;
    o->warmup = 3;
    o->seed = 1;
}

/* Lists not given take their defaults (compact tune's grid first); n depends on the backend. */
static void fill_defaults(bench_opts *o) {
    int cuda = o->backend == SC_BACKEND_CUDA;
    if (o->tune) {
        default_list(o, "--n", cuda ? "2^16,2^20,2^24" : "2^12,2^16,2^20");
        default_list(o, "--elem", "4,16,64");
        default_list(o, "--removed", "0.01,0.03,0.1,0.3,0.5,0.7,0.9");
        default_list(o, "--tile", "64,256,1024");
    }
    if (o->num_algos < 0) parse_algos(o, "all");
    default_list(o, "--n", cuda ? "2^24" : "2^20");
    default_list(o, "--removed", "0.5");
    default_list(o, "--elem", "4");
    default_list(o, "--tile", "256");
    default_list(o, "--scan", "default");
    default_list(o, "--order", "random");
    default_list(o, "--pattern", "random");
}

static int parse_option(bench_opts *o, const char *a, const char *v) {
    const bench_option *opt = find_option(a);
    void *at = opt ? (char *)o + opt->at : NULL;
    switch (opt ? opt->kind : K_FLAG) {
    case K_LIST:
        return parse_list(o, a, v, at);
    case K_TEXT:
        *(const char **)at = v;
        return 0;
    case K_INT0:
    case K_INT1:
        return parse_int(a, v, opt->kind == K_INT1, at);
    case K_POSITIVE:
        return num_parse_double(v, at) || !(*(double *)at > 0) ? bad_value(a, v, opt->valid) : 0;
    case K_FLAG:
        return unknown_option(a);
    }
    size_t k;
    if (!strcmp(a, "--backend")) {
        if (strcmp(v, "cpu") && strcmp(v, "cuda")) return bad_value(a, v, "cpu, cuda");
        o->backend = v[1] == 'p' ? SC_BACKEND_CPU : SC_BACKEND_CUDA;
    } else if (!strcmp(a, "--algos")) {
        return parse_algos(o, v);
    } else if (!strcmp(a, "--seed")) {
        return num_parse_size(v, &o->seed) ? bad_value(a, v, "an integer") : 0;
    } else if (!strcmp(a, "--settle-ms")) {
        if (num_parse_double(v, &bench_settle_ms) || !(bench_settle_ms >= 0) ||
            bench_settle_ms > 1000)
            return bad_value(a, v, "milliseconds 0..1000");
    } else if (num_parse_size(v, &k) || k < 1 || k > SC_PARTITION_MAX_KEYS) {
        return bad_value(a, v, "a number of keys 1..16");
    } else {
        o->partition = (unsigned)k; /* --partition */
    }
    return 0;
}

/* "PROG: WHAT; OPTION does not go with it", then " (VALID)" where VALID is given; -1. */
static int not_with_it(const char *what, const char *option, const char *valid) {
    if (valid)
        echo_line(stderr, "%s: %s; %s does not go with it (%s)", bench_prog, what, option, valid);
    else
        echo_line(stderr, "%s: %s; %s does not go with it", bench_prog, what, option);
    return -1;
}

/* --report runs its own sweeps: options that choose a sweep do not go with it. */
static int check_report(const bench_opts *o, const char *sweep_option) {
    if (o->quick && !o->report) {
        echo_line(stderr, "%s: --quick goes with --report DIR", bench_prog);
        return -1;
    }
    if (o->report && sweep_option)
        return not_with_it("--report runs a fixed set of sweeps", sweep_option,
                           "valid with --report: --backend, --quick, --seed, --max-seconds, "
                           "--quiet");
    return 0;
}

/* compact tune writes a table (and, with --json, the measurements it came from): not a report,
 * not the sweep's CSV; --out and --from are its own. */
static int check_tune(const bench_opts *o) {
    const char *other = o->report      ? "--report"
                        : o->csv       ? "--csv"
                        : o->partition ? "--partition"
                                       : NULL;
    if (o->tune && other) return not_with_it("it writes a policy table (--out FILE)", other, NULL);
    const char *own = o->tune_out ? "--out" : o->tune_from ? "--from" : NULL;
    if (own && !o->tune) {
        fprintf(stderr, "%s: %s goes with compact tune\n", bench_prog, own);
        return -1;
    }
    return 0;
}

/* 1 if a CUDA context can be made (a device this build runs on). */
static int bench_cuda_usable(void) {
    sc_context *ctx = NULL;
    sc_status s = sc_context_create(SC_BACKEND_CUDA, &ctx);
    sc_context_destroy(ctx);
    return s == SC_OK;
}

static int bench_help_asked(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
    return 0;
}

static int check_outputs(const bench_opts *o);

/* The backend is read first, so that --n checks its limit whatever the order of the options. */
int bench_parse_args(bench_opts *o, int argc, char **argv) {
    const char *sweep_option = NULL, *not_partition = NULL;
    set_defaults(o);
    o->tune = argc > 0 && !strcmp(argv[0], "tune");
    bench_prog = o->tune ? "compact tune" : "compact bench";
    int backend_given = 0;
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--backend")) {
            if (parse_option(o, argv[i], argv[i + 1])) return -1;
            backend_given = 1;
        }
    /* A CUDA build on a machine without a usable GPU: the CPU backend, said when the sweep
       opens it (bench_sweep.c), so that an error in the options stays one line. */
    bench_cpu_fallback = 0;
    if (!backend_given && o->backend == SC_BACKEND_CUDA && !bench_help_asked(argc, argv) &&
        !bench_cuda_usable()) {
        o->backend = SC_BACKEND_CPU;
        bench_cpu_fallback = 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bench_option *opt = find_option(a);
        if (!not_partition && a[0] == '-' && !(opt && (opt->where & O_PART))) not_partition = a;
        if (opt && opt->kind == K_FLAG) {
            if (!strcmp(opt->name, "--help")) {
                (o->tune ? tune_usage : bench_usage)(stdout);
                return 1;
            }
            if (!strcmp(opt->name, "--graph"))
                bench_graph_calls = BENCH_GRAPH_CALLS;
            else if (!strcmp(opt->name, "--warm"))
                bench_warm = 1;
            else
                *(int *)(void *)((char *)o + opt->at) = 1; /* --quiet, --quick */
            continue;
        }
        if (!strcmp(a, "--tune")) {
            fprintf(stderr,
                    "%s: --tune is its own command: compact tune [--from FILE] (see "
                    "compact tune --help)\n",
                    bench_prog);
            return -1;
        }
        if (opt && (opt->where & O_SWEEP) && !sweep_option) sweep_option = a;
        if (a[0] == '-' && i + 1 >= argc && !opt) return unknown_option(a);
        if (i + 1 >= argc || a[0] != '-' || a[1] != '-') {
            echo_line(stderr, "%s: %s '%s' (see %s --help)", bench_prog,
                      a[0] == '-' ? "option needs a value:" : "unexpected argument", a, bench_prog);
            return -1;
        }
        if (parse_option(o, a, argv[++i])) return -1;
    }
    if (check_tune(o)) return -1;
    if (o->partition && not_partition) {
        fprintf(stderr, "%s: '%s' does not go with --partition\n", bench_prog, not_partition);
        return -1;
    }
    if (check_report(o, sweep_option)) return -1;
    if (o->tune_from && sweep_option)
        return not_with_it("--from FILE takes the grid and the times from FILE", sweep_option,
                           "valid: --out, --quiet");
    if (bench_graph_calls && (o->backend != SC_BACKEND_CUDA || o->report)) {
        fprintf(stderr, "%s: --graph needs --backend cuda and no --report\n", bench_prog);
        return -1;
    }
    if (bench_warm && (o->report || o->tune)) {
        fprintf(stderr, "%s: --warm does not go with %s (it measures cold input)\n", bench_prog,
                o->report ? "--report" : "compact tune");
        return -1;
    }
    fill_defaults(o);
    return check_outputs(o);
}

int bench_graph_calls = 0;
int bench_warm = 0;
int bench_cpu_fallback = 0;
double bench_settle_ms = BENCH_SETTLE_MS;

/* The files asked for are checked before any measurement (out_path.h): one that cannot be
 * written, a dangling symbolic link among them, should not cost a whole sweep. */
static int check_outputs(const bench_opts *o) {
    static const char *const opts[3] = {"--json", "--csv", "--out"};
    const char *paths[3] = {o->json, o->csv, o->tune_out};
    char why[3 * OUT_PATH_MAX];
    for (int i = 0; i < 3; i++)
        if (paths[i] && out_path_check(paths[i], why, sizeof why) != 0) {
            echo_line(stderr, "%s: %s: %s", bench_prog, opts[i], why);
            return -1;
        }
    return 0;
}

int bench_partition_check_args(int argc, char **argv) {
    static bench_opts o; /* large: not on the stack */
    char **args = malloc(((size_t)argc + 1) * sizeof *args);
    if (!args) return -1;
    args[0] = "bench";
    memcpy(args + 1, argv, (size_t)argc * sizeof *args);
    int p = bench_parse_args(&o, argc + 1, args);
    free(args);
    return p;
}
