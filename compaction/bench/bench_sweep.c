/* bench_sweep.c: the sweep of `compact bench`: for each input (n, elem, pattern, removed) the
 * backend's input sets are filled once, then every configuration (order, tile, scan) measures
 * the plan: baselines and algorithms, each checked once, timed, and broken into phases. A
 * session keeps one backend and one report open over several sweeps (--report). */
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "bench.h"
#include "echo.h"
#include "timing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef BENCH_GIT_COMMIT
#define BENCH_GIT_COMMIT "unknown"
#endif

#define MAX_SETS    1024
#define MAX_NOTICES 64
#define MAX_PLAN    (SC_ALGO_COUNT + 5) /* + baselines and auto-list */

static const char *const k_orders[] = {"random", "slot"};

/* One measurement of the plan: an algorithm (info) or a baseline (info NULL). */
typedef struct plan_item {
    bench_op op;
    const sc_algorithm_info *info;
    const char *name;
} plan_item;

/* The session, and the sweep it runs now (o, tag, label, plan and position). */
typedef struct bench_session sweep;
struct bench_session {
    const bench_opts *o;
    const char *tag, *label;
    int quiet;
    sc_backend backend;
    const bench_ops *ops;
    bench_backend *b;
    bench_report report;
    bench_input in;
    plan_item plan[MAX_PLAN];
    int plan_len, sets, config, num_configs;
    double removed, t0, deadline;
    int order, order_i, tile_i, scan_i;
    const bench_pattern *pattern;
    double *ms;
    int ms_cap;
    int errors, mismatches, fatal;
    char *notices[MAX_NOTICES];
    int num_notices;
};

static double now_s(void) {
    return 1e-3 * timing_now_ms();
}

static const char *scan_name(sc_scan s) {
    if (s == SC_SCAN_HILLIS_STEELE) return "hillis-steele";
    return s == SC_SCAN_BLELLOCH ? "blelloch" : "default";
}

static const char *backend_name(const sweep *sw) {
    return sc_backend_name(sw->backend);
}

/* A one-line notice on stderr, each distinct text once per run. */
static void notice(sweep *sw, const char *fmt, ...) {
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (int i = 0; i < sw->num_notices; i++)
        if (!strcmp(sw->notices[i], line)) return;
    if (sw->num_notices < MAX_NOTICES) {
        char *copy = malloc(strlen(line) + 1);
        if (copy) sw->notices[sw->num_notices++] = strcpy(copy, line);
    }
    if (!sw->quiet) fprintf(stderr, "compact bench: %s\n", line);
}

/* "n=1048576 elem=4 removed=0.5 pattern=blobs": names the input in error lines. */
static void where(const sweep *sw, char *buf, size_t cap) {
    snprintf(buf, cap, "n=%zu elem=%zu removed=%g pattern=%s", sw->in.n, sw->in.elem_size,
             sw->removed, sw->pattern->name);
}

/* ---- the plan ---- */

static void plan_add(sweep *sw, bench_op op, const sc_algorithm_info *info, const char *name) {
    plan_item it = {op, info, name};
    sw->plan[sw->plan_len++] = it;
}

static void build_plan(sweep *sw) {
    int cuda = sw->backend == SC_BACKEND_CUDA, removal = 0;
    sw->plan_len = 0;
    plan_add(sw, BENCH_OP_COPY, NULL, "copy");
    if (cuda) plan_add(sw, BENCH_OP_FLAGGED, sc_algorithm_get(SC_ALGO_CUB), "cub");
    if (cuda) plan_add(sw, BENCH_OP_THRUST, NULL, "thrust-remove-if");
    for (int i = 0; i < sw->o->num_algos; i++) {
        const sc_algorithm_info *info = sc_algorithm_get((sc_algorithm)sw->o->algos[i]);
        if (cuda && info->id == SC_ALGO_CUB) continue;
        if (!sc_algorithm_available(info->id, sw->backend)) {
            notice(sw, "%s: not available on the %s backend%s, skipped", info->name,
                   backend_name(sw), info->backends & (1u << sw->backend) ? " of this build" : "");
            continue;
        }
        /* auto runs as flagged compaction here (it chooses among the flag algorithms) */
        bench_op op = info->input == SC_INPUT_REMOVAL_LIST ? BENCH_OP_REMOVE : BENCH_OP_FLAGGED;
        removal |= op == BENCH_OP_REMOVE;
        plan_add(sw, op, info, info->name);
        /* auto again, offered the removal list too: Redzone becomes one of its choices */
        if (info->id == SC_ALGO_AUTO) plan_add(sw, BENCH_OP_AUTO_LIST, info, "auto-list");
        removal |= info->id == SC_ALGO_AUTO;
    }
    if (removal) plan_add(sw, BENCH_OP_SCATTER, NULL, "scatter-limit");
    if (removal && cuda) plan_add(sw, BENCH_OP_THRUST_LIST, NULL, "thrust-remove-list");
}

static int uses_order(const plan_item *it) {
    return it->op == BENCH_OP_REMOVE || it->op == BENCH_OP_SCATTER ||
           it->op == BENCH_OP_THRUST_LIST || it->op == BENCH_OP_AUTO_LIST;
}

static unsigned tunables(const plan_item *it) {
    return it->info ? it->info->tunables : 0;
}

/* A parameter the item does not read is measured at its first value only. */
static int applies(const sweep *sw, const plan_item *it) {
    unsigned t = tunables(it);
    return (sw->order_i == 0 || uses_order(it)) && (sw->tile_i == 0 || (t & SC_TUNE_TILE)) &&
           (sw->scan_i == 0 || (t & SC_TUNE_SCAN));
}

/* ---- one measurement ---- */

static void init_record(const sweep *sw, const plan_item *it, bench_record *rec) {
    const bench_input *in = &sw->in;
    unsigned t = tunables(it);
    memset(rec, 0, sizeof *rec);
    snprintf(rec->algorithm, sizeof rec->algorithm, "%s", it->name);
    snprintf(rec->pattern, sizeof rec->pattern, "%s", sw->pattern->name);
    rec->sweep = sw->tag;
    rec->baseline = it->info == NULL;
    rec->n = in->n;
    rec->elem_size = in->elem_size;
    rec->k = in->k;
    rec->kept = in->n - in->k;
    rec->removed = sw->removed;
    rec->red_share = in->red_share;
    rec->tile = t & SC_TUNE_TILE ? sw->o->tile[sw->tile_i] : 0;
    rec->scan = t & SC_TUNE_SCAN ? scan_name(sw->o->scan[sw->scan_i]) : NULL;
    rec->order = uses_order(it) ? k_orders[sw->order] : NULL;
    rec->runs = sw->o->runs;
    rec->sets = sw->sets;
    rec->x_cub = rec->pct_copy = rec->pct_floor = -1.0;
    rec->check = "-";
}

/* Run once on set 0 and compare with the serial reference; copy and scatter are not checked. */
static sc_status check(sweep *sw, const plan_item *it, const bench_job *job, bench_record *rec) {
    if (it->op == BENCH_OP_COPY || it->op == BENCH_OP_SCATTER) return SC_OK;
    size_t kept = 0;
    sc_status s = sw->ops->run_once(sw->b, job, 0, sw->in.out, &kept, NULL, NULL);
    if (s != SC_OK) return s;
    char why[160], at[96];
    int stable = it->info ? it->info->stable : 1;
    sc_choice c;
    if (it->info && it->info->id == SC_ALGO_AUTO && bench_last_choice(sw->b, &c) == SC_OK) {
        const sc_algorithm_info *a = sc_algorithm_get(c.algo);
        int n = snprintf(rec->choice, sizeof rec->choice, "%s", a->name);
        if ((a->tunables & SC_TUNE_TILE) && n > 0 && (size_t)n < sizeof rec->choice)
            n += snprintf(rec->choice + n, sizeof rec->choice - (size_t)n, " t%zu", c.tile);
        if ((a->tunables & SC_TUNE_SCAN) && n > 0 && (size_t)n < sizeof rec->choice)
            snprintf(rec->choice + n, sizeof rec->choice - (size_t)n, " %s", scan_name(c.scan));
    }
    if (bench_input_check(&sw->in, kept, stable, why, sizeof why)) {
        rec->check = "ok";
        return SC_OK;
    }
    rec->check = "MISMATCH";
    sw->mismatches++;
    where(sw, at, sizeof at);
    fprintf(stderr, "compact bench: MISMATCH: %s (%s, %s) differs from the serial reference: %s\n",
            it->name, at, stable ? "stable" : "unstable", why);
    return SC_OK;
}

/* The median of BENCH_PHASE_PASSES timed passes, phase by phase. */
static sc_status phases(sweep *sw, const bench_job *job, bench_record *rec) {
    double ms[SC_MAX_PHASES][BENCH_PHASE_PASSES];
    size_t count = 0;
    for (int pass = 0; pass < BENCH_PHASE_PASSES; pass++) {
        sc_phase_timing ph[SC_MAX_PHASES];
        size_t np = 0, kept = 0;
        sc_status s = sw->ops->run_once(sw->b, job, 1, NULL, &kept, ph, &np);
        if (s != SC_OK) return s;
        if (pass == 0) {
            count = np;
            for (size_t p = 0; p < count; p++) rec->phases[p].name = ph[p].name;
        }
        for (size_t p = 0; p < count; p++) ms[p][pass] = p < np ? ph[p].ms : 0.0;
    }
    for (size_t p = 0; p < count; p++)
        rec->phases[p].ms = timing_summary(ms[p], BENCH_PHASE_PASSES).median;
    rec->num_phases = count;
    return SC_OK;
}

/* With a budget, one probe run sets how many runs fit in it (at least 3, at most --runs), so
 * that a slow configuration does not hold up a sweep; rec->runs records the number. */
static sc_status timed_runs(sweep *sw, const bench_job *job, bench_record *rec) {
    int runs = sw->o->runs, warmup = sw->o->warmup;
    if (sw->o->budget_ms > 0) {
        double probe = 0.0;
        sc_status s = bench_time(sw->ops, sw->b, job, 0, 1, &probe);
        if (s != SC_OK) return s;
        double fit = probe > 0 ? sw->o->budget_ms / probe : (double)(runs + warmup);
        if (fit < (double)(runs + warmup)) {
            warmup = fit >= 4.0 ? 1 : 0;
            runs = fit - warmup > 3.0 ? (int)(fit - warmup) : 3;
        }
        /* The budget only shortens a measurement: sw->ms holds --runs times. */
        if (runs > sw->o->runs) runs = sw->o->runs;
    }
    sc_status s = bench_time(sw->ops, sw->b, job, warmup, runs, sw->ms);
    if (s != SC_OK) return s;
    rec->runs = runs;
    timing_stats st = timing_summary(sw->ms, runs);
    rec->median_ms = st.median;
    rec->min_ms = st.min;
    rec->max_ms = st.max;
    return SC_OK;
}

static sc_status measure(sweep *sw, const plan_item *it) {
    bench_job job;
    memset(&job, 0, sizeof job);
    job.op = it->op;
    job.algo = it->info ? it->info->id : SC_ALGO_SERIAL;
    sc_options_init(&job.opt);
    job.opt.tile = sw->o->tile[sw->tile_i];
    job.opt.scan = sw->o->scan[sw->scan_i];
    /* The lists are distinct and in range by construction, as Redzone's paper assumes; the
     * check of the result still catches a wrong one. */
    job.opt.trusted_list = it->op == BENCH_OP_REMOVE || it->op == BENCH_OP_AUTO_LIST;
    bench_record rec;
    init_record(sw, it, &rec);
    sc_status s = check(sw, it, &job, &rec);
    if (s == SC_OK) s = timed_runs(sw, &job, &rec);
    if (s != SC_OK) return s;
    int has_phases = it->info || it->op == BENCH_OP_THRUST_LIST;
    if (has_phases && (s = phases(sw, &job, &rec)) != SC_OK) return s;
    double bytes = (double)(rec.n * rec.elem_size + rec.n + rec.kept * rec.elem_size);
    rec.gbps = rec.median_ms > 0 ? bytes / (rec.median_ms * 1e6) : 0.0;
    return bench_report_add(&sw->report, &rec) ? SC_OK : SC_ERR_OUT_OF_MEMORY;
}

/* What a failed measurement means for the sweep: 0 go on, -1 stop. */
static int handle(sweep *sw, const plan_item *it, sc_status s) {
    char at[96];
    where(sw, at, sizeof at);
    const char *memory = sw->backend == SC_BACKEND_CUDA ? "GPU" : "host";
    switch (s) {
    case SC_OK:
        return 0;
    case SC_ERR_UNSUPPORTED:
        if (it->op == BENCH_OP_THRUST || it->op == BENCH_OP_THRUST_LIST)
            notice(sw, "%s: element size %zu is not instantiated, skipped", it->name,
                   sw->in.elem_size);
        else
            notice(sw, "%s: %s (%s backend), skipped", it->name, sc_status_string(s),
                   backend_name(sw));
        return 0;
    case SC_ERR_OUT_OF_MEMORY:
        fprintf(stderr, "compact bench: out of %s memory: %s at %s, skipped\n", memory, it->name,
                at);
        sw->errors++;
        return 0;
    case SC_ERR_CUDA:
    case SC_ERR_NO_DEVICE:
        fprintf(stderr, "compact bench: %s failed at %s: %s; stopping\n", it->name, at,
                sc_status_string(s));
        sw->fatal = 1;
        return -1;
    default:
        /* a policy table that cannot be read or is malformed: which, and why */
        fprintf(stderr, "compact bench: %s failed at %s: %s\n", it->name, at,
                s == SC_ERR_POLICY && *bench_policy_error(sw->b) ? bench_policy_error(sw->b)
                                                                 : sc_status_string(s));
        sw->errors++;
        return 0;
    }
}

/* ---- the sweep ---- */

/* Names the filling of the input sets in error lines. */
static const plan_item k_load = {BENCH_OP_COPY, NULL, "loading the input"};

/* Enough sets that together they exceed twice the cache, at least 2; one with --warm. */
static int choose_sets(size_t cache, const bench_input *in) {
    if (bench_warm) return 1;
    size_t set = 2 * in->n * in->elem_size + in->n + in->k * sizeof(uint32_t);
    size_t want = (2 * cache + set - 1) / set;
    if (want < 2) want = 2;
    return want > MAX_SETS ? MAX_SETS : (int)want;
}

static int configurations_per_input(const bench_opts *o) {
    return o->num_order * o->num_tile * o->num_scan;
}

/* One progress line, folded at its spaces into lines of at most 100 columns. */
static void progress(sweep *sw) {
    const bench_opts *o = sw->o;
    if (sw->quiet) return;
    char line[1024];
    snprintf(line, sizeof line,
             "compact bench: %s%sconfiguration %d of %d: n=%zu elem=%zu removed=%g pattern=%s "
             "order=%s tile=%zu scan=%s (%d input sets, %.0f s)",
             sw->label ? sw->label : "", sw->label ? ": " : "", sw->config, sw->num_configs,
             sw->in.n, sw->in.elem_size, sw->removed, sw->pattern->name, k_orders[sw->order],
             o->tile[sw->tile_i], scan_name(o->scan[sw->scan_i]), sw->sets, now_s() - sw->t0);
    echo_wrapped(stderr, line, 98, 2);
}

/* Every configuration of the loaded input; -1 on a fatal error. */
static int run_configurations(sweep *sw) {
    const bench_opts *o = sw->o;
    for (sw->order_i = 0; sw->order_i < o->num_order; sw->order_i++) {
        sw->order = o->order[sw->order_i];
        const uint32_t *list = sw->order ? sw->in.removed_slot : sw->in.removed_random;
        if (handle(sw, &k_load, sw->ops->load_list(sw->b, list))) return -1;
        for (sw->tile_i = 0; sw->tile_i < o->num_tile; sw->tile_i++) {
            for (sw->scan_i = 0; sw->scan_i < o->num_scan; sw->scan_i++) {
                sw->config++;
                progress(sw);
                for (int i = 0; i < sw->plan_len; i++) {
                    if (!applies(sw, &sw->plan[i])) continue;
                    if (sw->deadline > 0 && now_s() > sw->deadline) {
                        notice(sw, "time limit (--max-seconds) reached; stopping");
                        return -1;
                    }
                    if (handle(sw, &sw->plan[i], measure(sw, &sw->plan[i]))) return -1;
                }
            }
        }
    }
    return 0;
}

/* No input: its configurations are counted as done. */
static int skip_input(sweep *sw) {
    sw->errors++;
    sw->config += configurations_per_input(sw->o);
    return 0;
}

static int make_input(sweep *sw, size_t n, size_t es, double removed) {
    char why[600] = "";
    int rc = bench_input_make(&sw->in, n, es, removed, sw->pattern, (uint64_t)sw->o->seed, why,
                              sizeof why);
    if (rc == -2)
        fprintf(stderr, "compact bench: %s, skipped\n", why);
    else if (rc)
        fprintf(stderr, "compact bench: out of host memory for the input n=%zu elem=%zu, skipped\n",
                n, es);
    if (rc == 0) sw->removed = n ? (double)sw->in.k / (double)n : 0.0;
    if (rc == 0 && !bench_pattern_own_density(sw->pattern)) sw->removed = removed;
    return rc;
}

/* One input: make it on the host, fill the backend's sets, run its configurations. */
static int run_input(sweep *sw, size_t n, size_t es, double removed, const bench_device *dev) {
    int rc = 0;
    sw->removed = removed;
    if (make_input(sw, n, es, removed)) return skip_input(sw);
    sw->sets = choose_sets(dev->cache_bytes, &sw->in);
    sc_status s = sw->ops->alloc(sw->b, n, es, sw->in.k, sw->sets);
    if (s == SC_ERR_OUT_OF_MEMORY) {
        double mib = (double)(2 * n * es + n + 4 * sw->in.k) * sw->sets / (1 << 20);
        fprintf(stderr,
                "compact bench: out of %s memory for n=%zu elem=%zu (%d input sets, %.0f MiB), "
                "skipped\n",
                sw->backend == SC_BACKEND_CUDA ? "GPU" : "host", n, es, sw->sets, mib);
        skip_input(sw);
    } else if (s == SC_OK && handle(sw, &k_load, sw->ops->load(sw->b, &sw->in)) == 0) {
        rc = run_configurations(sw);
    } else {
        rc = handle(sw, &k_load, s);
    }
    bench_input_free(&sw->in);
    return rc;
}

/* A mask fixes its own density, so it is one input per (n, elem), whatever --removed says. */
static int removed_count(const bench_opts *o, const bench_pattern *p) {
    return bench_pattern_own_density(p) ? 1 : o->num_removed;
}

static int run_all(sweep *sw) {
    const bench_opts *o = sw->o;
    for (int ni = 0; ni < o->num_n; ni++)
        for (int ei = 0; ei < o->num_elem; ei++)
            for (int pi = 0; pi < o->num_pattern; pi++) {
                sw->pattern = &o->pattern[pi];
                for (int ri = 0; ri < removed_count(o, sw->pattern); ri++)
                    if (run_input(sw, o->n[ni], o->elem[ei], o->removed[ri], &sw->report.device))
                        return -1;
            }
    return 0;
}

static void write_files(sweep *sw) {
    const char *paths[2] = {sw->o->json, sw->o->csv};
    for (int i = 0; i < 2; i++) {
        rc_error err;
        if (paths[i] &&
            bench_report_write(&sw->report, i ? BENCH_CSV : BENCH_JSON, paths[i], &err)) {
            fprintf(stderr, "compact bench: %s\n", err.msg);
            sw->errors++;
        }
    }
}

const bench_ops *bench_ops_for(sc_backend backend) {
#ifdef SC_HAVE_CUDA
    if (backend == SC_BACKEND_CUDA) return &bench_gpu_ops;
#endif
    return backend == SC_BACKEND_CPU ? &bench_cpu_ops : NULL;
}

static void utc_date(char *buf, size_t cap) {
    time_t t = time(NULL);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(buf, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
    else
        snprintf(buf, cap, "unknown");
}

const bench_ops *bench_backend_open(sc_backend backend, bench_backend **b, bench_device *dev) {
    const bench_ops *ops = bench_ops_for(backend);
    sc_status s = ops ? ops->open(b, dev) : SC_ERR_UNSUPPORTED;
    if (s == SC_OK && bench_cpu_fallback)
        fprintf(stderr, "%s: no usable CUDA device: running the CPU backend\n", bench_prog);
    /* Only --backend cuda gets here without CUDA (else the CPU runs in its place) */
    if (!ops)
        fprintf(stderr,
                "%s: --backend cuda: this build has no CUDA backend (valid here: --backend "
                "cpu)\n",
                bench_prog);
    else if (s == SC_ERR_NO_DEVICE)
        fprintf(stderr,
                "%s: --backend cuda: no usable CUDA device (--backend cpu runs without "
                "one)\n",
                bench_prog);
    else if (s != SC_OK)
        fprintf(stderr, "%s: cannot open the %s backend: %s\n", bench_prog,
                sc_backend_name(backend), sc_status_string(s));
    return s == SC_OK ? ops : NULL;
}

bench_session *bench_session_open(sc_backend backend, int quiet, double max_seconds) {
    sweep *sw = calloc(1, sizeof *sw);
    if (!sw) {
        fprintf(stderr, "compact bench: out of host memory\n");
        return NULL;
    }
    sw->backend = backend;
    sw->quiet = quiet;
    sw->t0 = now_s();
    sw->deadline = max_seconds > 0 ? sw->t0 + max_seconds : 0.0;
    sw->report.backend = sc_backend_name(backend);
    sw->report.commit = BENCH_GIT_COMMIT;
    sw->report.graph = bench_graph_calls > 0;
    sw->report.warm = bench_warm;
    utc_date(sw->report.date, sizeof sw->report.date);
    sw->ops = bench_backend_open(backend, &sw->b, &sw->report.device);
    if (!sw->ops) {
        free(sw);
        return NULL;
    }
    return sw;
}

int bench_session_sweep(bench_session *sw, const bench_opts *o, const char *tag,
                        const char *label) {
    if (o->runs > sw->ms_cap) {
        double *ms = realloc(sw->ms, (size_t)o->runs * sizeof *ms);
        if (!ms) {
            fprintf(stderr, "compact bench: out of host memory\n");
            sw->errors++;
            return -1;
        }
        sw->ms = ms;
        sw->ms_cap = o->runs;
    }
    sw->o = o;
    sw->tag = tag;
    sw->label = label;
    sw->config = 0;
    build_plan(sw);
    sw->num_configs = 0;
    for (int pi = 0; pi < o->num_pattern; pi++)
        sw->num_configs += o->num_n * o->num_elem * removed_count(o, &o->pattern[pi]) *
                           configurations_per_input(o);
    return run_all(sw);
}

bench_report *bench_session_report(bench_session *sw) {
    sw->report.elapsed_s = now_s() - sw->t0;
    return &sw->report;
}

int bench_session_close(bench_session *sw) {
    sw->ops->close(sw->b);
    bench_report_free(&sw->report);
    free(sw->ms);
    for (int i = 0; i < sw->num_notices; i++) free(sw->notices[i]);
    int rc = sw->mismatches ? BENCH_EXIT_MISMATCH : sw->errors || sw->fatal ? BENCH_EXIT_ERROR : 0;
    free(sw);
    return rc;
}

int bench_sweep(const bench_opts *o) {
    sweep *sw = bench_session_open(o->backend, o->quiet, o->max_seconds);
    if (!sw) return BENCH_EXIT_ERROR;
    int stopped = bench_session_sweep(sw, o, NULL, NULL);
    bench_report_ratios(&sw->report);
    bench_report_table(bench_session_report(sw), stdout);
    /* A stopped sweep, or one that measured nothing, leaves the files it would replace. */
    if (!stopped && sw->report.count)
        write_files(sw);
    else if (o->json || o->csv) {
        fprintf(stderr, "compact bench: %s, so no JSON or CSV was written\n",
                stopped ? "the sweep stopped" : "nothing was measured");
        sw->errors++; /* exit status 1: a file asked for is not written */
    }
    return bench_session_close(sw);
}
