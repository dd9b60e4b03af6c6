/* bench_tune.c: `compact tune`: measure a grid (n x element size x removed fraction) and write
 * auto's policy table (compaction/src/policy.c reads it): per point the fastest algorithm, the
 * fastest stable one, and a removal-list one where it beats both; each rule covers its half of
 * the point's cell, bounded where the choices' times cross (docs/library.md). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench.h"
#include "out_path.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The best configuration among records that pass `want`. */
typedef struct best {
    const bench_record *rec;
    const sc_algorithm_info *info;
} best;

enum { WANT_FLAGS_ANY, WANT_FLAGS_STABLE, WANT_LIST, WANT_EITHER };

/* 1 for a library algorithm's record whose result passed the check (not a baseline). */
static int checked(const bench_record *rec) {
    return !rec->baseline && !strcmp(rec->check, "ok");
}

/* The algorithm of a measured, checked, non-auto record that passes `want`; NULL otherwise. */
static const sc_algorithm_info *candidate(const bench_record *rec, int want) {
    if (!checked(rec)) return NULL;
    const sc_algorithm_info *info = sc_algorithm_find(rec->algorithm);
    if (!info || info->id == SC_ALGO_AUTO) return NULL;
    int list = info->input == SC_INPUT_REMOVAL_LIST;
    if (want != WANT_EITHER && (want == WANT_LIST ? !list : list)) return NULL;
    if (want == WANT_FLAGS_STABLE && !info->stable) return NULL;
    return info;
}

static int at(const bench_record *rec, size_t n, size_t elem, double removed) {
    return rec->n == n && rec->elem_size == elem && rec->removed == removed;
}

static int same_config(const bench_record *a, const bench_record *b) {
    return !strcmp(a->algorithm, b->algorithm) && a->tile == b->tile &&
           (a->scan == b->scan || (a->scan && b->scan && !strcmp(a->scan, b->scan)));
}

/* The median of the configuration of `cfg` at one grid point; 0 if not measured there. */
static double time_of(const bench_report *r, size_t n, size_t elem, double removed,
                      const bench_record *cfg) {
    for (size_t i = 0; i < r->count; i++) {
        const bench_record *rec = &r->records[i];
        if (at(rec, n, elem, removed) && checked(rec) && same_config(rec, cfg))
            return rec->median_ms;
    }
    return 0.0;
}

/* cfg's ratio at a cell edge: the geometric mean of `here` and its ratio to `top` at the
 * neighbour (n, elem, removed); 0 where either is not measured. */
static double edge_ratio(const bench_report *r, double here, size_t n, size_t elem, double removed,
                         const bench_record *top, const bench_record *cfg) {
    if (!top || !(top->median_ms > 0.0)) return 0.0;
    const double t = time_of(r, n, elem, removed, cfg);
    return t > 0.0 ? sqrt(here * (t / top->median_ms)) : 0.0;
}

/* The fastest record passing `want` at one grid point (NULL if none). */
static const bench_record *fastest(const bench_report *r, size_t n, size_t elem, double removed,
                                   int want) {
    const bench_record *b = NULL;
    for (size_t i = 0; i < r->count; i++) {
        const bench_record *rec = &r->records[i];
        if (at(rec, n, elem, removed) && candidate(rec, want) &&
            (!b || rec->median_ms < b->median_ms))
            b = rec;
    }
    return b;
}

/* The grid point a rule is written for (sorted axes; in, ie, ir its place), the half of its
 * n cell (side -1 below the point, +1 above), and the fractions ir..ir_hi one rule covers
 * with their bounds lo, hi (< 0: open). */
typedef struct cell {
    const size_t *ns, *es;
    const double *rs;
    int mn, me, mr, in, ie, ir, ir_hi, side;
    double lo, hi;
} cell;

/* A rule decides its whole cell, so each configuration is scored by its worst ratio to the
 * fastest over the point and the cell's edges (edge_ratio; along n only this half's); the
 * lowest score wins, ties to the faster at the point. */
static best find_best(const bench_report *r, const cell *g, int want) {
    best b = {NULL, NULL};
    size_t n = g->ns[g->in], elem = g->es[g->ie];
    double removed = g->rs[g->ir];
    const bench_record *top = fastest(r, n, elem, removed, want);
    if (!top) return b;
    struct {
        size_t n, elem;
        double removed;
        const bench_record *top;
    } nb[6];
    int m = 0;
    for (int d = -1; d <= 1; d += 2) {
        if (d == g->side && g->in + d >= 0 && g->in + d < g->mn)
            nb[m++].n = g->ns[g->in + d], nb[m - 1].elem = elem, nb[m - 1].removed = removed;
        if (g->ie + d >= 0 && g->ie + d < g->me)
            nb[m++].n = n, nb[m - 1].elem = g->es[g->ie + d], nb[m - 1].removed = removed;
        if (g->ir + d >= 0 && g->ir + d < g->mr)
            nb[m++].n = n, nb[m - 1].elem = elem, nb[m - 1].removed = g->rs[g->ir + d];
    }
    for (int j = 0; j < m; j++) nb[j].top = fastest(r, nb[j].n, nb[j].elem, nb[j].removed, want);
    double best_score = 0.0;
    for (size_t i = 0; i < r->count; i++) {
        const bench_record *rec = &r->records[i];
        const sc_algorithm_info *info = at(rec, n, elem, removed) ? candidate(rec, want) : NULL;
        if (!info || !(top->median_ms > 0.0)) continue;
        double here = rec->median_ms / top->median_ms, score = here;
        for (int j = 0; j < m; j++) {
            double edge = edge_ratio(r, here, nb[j].n, nb[j].elem, nb[j].removed, nb[j].top, rec);
            if (edge > score) score = edge;
        }
        if (!b.rec || score < best_score ||
            (score == best_score && rec->median_ms < b.rec->median_ms)) {
            b.rec = rec;
            b.info = info;
            best_score = score;
        }
    }
    return b;
}

/* Whether a list call takes `list` over `flags`: the lower worst ratio to the fastest of either
 * input over the point and this half's n edge only (docs/design.md#tuning-evidence); ties to
 * the flags. */
static int list_wins(const bench_report *r, const cell *g, best list, best flags) {
    if (!list.rec) return 0;
    const size_t n = g->ns[g->in], elem = g->es[g->ie];
    const double removed = g->rs[g->ir];
    const bench_record *top = fastest(r, n, elem, removed, WANT_EITHER);
    if (!top || !(top->median_ms > 0.0)) return list.rec->median_ms < flags.rec->median_ms;
    const int j = g->in + g->side;
    const bench_record *nb =
        j >= 0 && j < g->mn ? fastest(r, g->ns[j], elem, removed, WANT_EITHER) : NULL;
    double score[2];
    const bench_record *cfg[2] = {list.rec, flags.rec};
    for (int c = 0; c < 2; c++) {
        const double here = cfg[c]->median_ms / top->median_ms;
        const double edge = nb ? edge_ratio(r, here, g->ns[j], elem, removed, nb, cfg[c]) : 0.0;
        score[c] = edge > here ? edge : here;
    }
    return score[0] < score[1];
}

static int same_choice(best a, best b) {
    return a.rec && b.rec && same_config(a.rec, b.rec);
}

/* Sorted, distinct copies of a grid axis. */
static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static int axis_sorted(const void *in, int count, size_t size,
                       int (*cmp)(const void *, const void *), void *out) {
    char *o = out;
    memcpy(o, in, (size_t)count * size);
    qsort(o, (size_t)count, size, cmp);
    int m = 0;
    for (int i = 0; i < count; i++)
        if (!m || cmp(o + (size_t)(m - 1) * size, o + (size_t)i * size) != 0)
            memmove(o + (size_t)m++ * size, o + (size_t)i * size, size);
    return m;
}

/* Half-way (geometric mean) between two neighbouring grid values, rounded down. */
static size_t mid(size_t a, size_t b) {
    return (size_t)floor(sqrt((double)a * (double)b));
}

/* 1 if half `side` of cell i holds no n (neighbours one apart: half-way lies on the point). */
static int n_half_empty(const size_t *ax, int m, int i, int side) {
    return side > 0 && i + 1 < m && ax[i] + 1 > mid(ax[i], ax[i + 1]);
}

/* One key of a rule's "when", after ", " but for the first. */
static void when_key(FILE *f, int *first, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs(*first ? "" : ", ", f);
    vfprintf(f, fmt, ap);
    va_end(ap);
    *first = 0;
}

/* A rule's bounds: n from half-way to the lower neighbour to the point (side -1) or past the
 * point to half-way to the upper one (+1); the element size half-way to either neighbour; the
 * fraction from lo to hi. The first cell is open below, the last above. */
static void when_bounds(FILE *f, const cell *c, int *first) {
    const size_t *n = c->ns, *e = c->es;
    const int i = c->in, j = c->ie;
    if (c->side < 0 && i > 0) when_key(f, first, "\"n_min\": %zu", mid(n[i - 1], n[i]) + 1);
    if (c->side > 0) when_key(f, first, "\"n_min\": %zu", n[i] + 1);
    if (c->side < 0)
        when_key(f, first, "\"n_max\": %zu", n[i]);
    else if (i + 1 < c->mn)
        when_key(f, first, "\"n_max\": %zu", mid(n[i], n[i + 1]));
    if (j > 0) when_key(f, first, "\"elem_min\": %zu", mid(e[j - 1], e[j]) + 1);
    if (j + 1 < c->me) when_key(f, first, "\"elem_max\": %zu", mid(e[j], e[j + 1]));
    if (c->lo >= 0.0) when_key(f, first, "\"removed_min\": %.6g", c->lo);
    if (c->hi >= 0.0) when_key(f, first, "\"removed_max\": %.6g", c->hi);
}

/* What a grid point decides: with a list (when it beats both), fastest, fastest stable. */
typedef struct point {
    best any, stable, list;
    int use_list;
} point;

/* The kinds of rule a cell holds, in the table's order (the first that matches decides). */
enum { KIND_LIST, KIND_ANY, KIND_STABLE, KIND_COUNT };
static const struct {
    const char *when, *note;
} k_kinds[KIND_COUNT] = {{"\"list\": true, \"stable\": false", "list"},
                         {"\"stable\": false", "fastest"},
                         {NULL, "fastest stable"}};

/* The rule of `kind` a point wants; NULL for none (the list loses, the fastest is stable). */
static const best *wanted(const point *p, int kind) {
    if (kind == KIND_LIST) return p->use_list ? &p->list : NULL;
    if (kind == KIND_ANY) return same_choice(p->any, p->stable) ? NULL : &p->any;
    return &p->stable;
}

/* What a call of `kind` runs at a point: its rule's choice, else the one it falls through to. */
static best runs_at(const point *p, int kind) {
    if (kind == KIND_LIST) return p->use_list ? p->list : p->any;
    return kind == KIND_ANY ? p->any : p->stable;
}

static int same_wanted(const point *a, const point *b, int kind) {
    const best *x = wanted(a, kind), *y = wanted(b, kind);
    return x ? y && same_choice(*x, *y) : !y;
}

/* cfg's time a quarter of the way (log-linear) to this half's n neighbour, the middle of the
 * half cell; the point's time without one; 0 if not measured at the point. */
static double cell_time(const bench_report *r, const cell *c, double removed,
                        const bench_record *cfg) {
    const size_t elem = c->es[c->ie];
    const double t = time_of(r, c->ns[c->in], elem, removed, cfg);
    const int j = c->in + c->side;
    if (!(t > 0.0) || j < 0 || j >= c->mn) return t;
    const double tn = time_of(r, c->ns[j], elem, removed, cfg);
    return tn > 0.0 ? pow(t, 0.75) * pow(tn, 0.25) : t;
}

/* Where between fractions rs[i] and rs[i+1] the choice switches from a to b: where their
 * times (cell_time, near linear in the fraction) cross; at the slower one's point where the
 * other is as fast at both (docs/design.md#tuning-evidence); else half-way. */
static double crossover(const bench_report *r, const cell *c, int i, best a, best b) {
    const double x0 = c->rs[i], x1 = c->rs[i + 1], half = (x0 + x1) / 2;
    if (!a.rec || !b.rec || same_choice(a, b)) return half;
    double a0 = cell_time(r, c, x0, a.rec), a1 = cell_time(r, c, x1, a.rec);
    double b0 = cell_time(r, c, x0, b.rec), b1 = cell_time(r, c, x1, b.rec);
    if (!(a0 > 0.0 && a1 > 0.0 && b0 > 0.0 && b1 > 0.0)) return half;
    const double d0 = a0 - b0, d1 = a1 - b1;
    if (d0 >= 0.0) return d1 > 0.0 ? x0 : half; /* b as fast at both: a keeps its point */
    if (d1 <= 0.0) return x1;                   /* a as fast at both: b keeps its point */
    const double x = x0 + (x1 - x0) * d0 / (d0 - d1);
    return x > x0 && x < x1 ? x : half;
}

/* One rule; gain > 0 (removal-list rules): the time of the flag algorithm the table takes at
 * this point otherwise (p->any) over this one's. */
static void rule(FILE *f, const cell *c, const char *extra, best b, double gain, const char *note,
                 int *count) {
    int first = 1;
    fprintf(f, "%s    {\"when\": {", *count ? ",\n" : "");
    when_bounds(f, c, &first);
    if (extra) when_key(f, &first, "%s", extra);
    fprintf(f, "}, \"algo\": \"%s\"", b.info->name);
    if (b.rec->tile && (b.info->tunables & SC_TUNE_TILE))
        fprintf(f, ", \"tile\": %zu", b.rec->tile);
    if (b.rec->scan && (b.info->tunables & SC_TUNE_SCAN) && strcmp(b.rec->scan, "default"))
        fprintf(f, ", \"scan\": \"%s\"", b.rec->scan);
    if (gain > 0.0 && isfinite(gain)) fprintf(f, ", \"gain\": %.3g", gain);
    fprintf(f, ", \"note\": \"%s %.4g ms at %.3g removed", note, b.rec->median_ms, c->rs[c->ir]);
    if (c->ir_hi > c->ir) fprintf(f, ", alike to %.3g", c->rs[c->ir_hi]);
    fprintf(f, "\"}");
    (*count)++;
}

/* `s` inside a JSON string: quotes, backslashes and control bytes escaped (the device name and
 * the --from file's fields are not ours). */
static void json_text(FILE *f, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
}

static void list_json(FILE *f, const char *key, const size_t *v, int m) {
    fprintf(f, "\"%s\": [", key);
    for (int i = 0; i < m; i++) fprintf(f, "%s%zu", i ? ", " : "", v[i]);
    fprintf(f, "]");
}

/* The table as JSON text; -1 if a grid point has no flag algorithm measured. */
static int write_table(FILE *f, const bench_opts *o, const bench_report *r) {
    size_t ns[BENCH_MAX_LIST], es[BENCH_MAX_LIST];
    double rs[BENCH_MAX_LIST];
    cell c;
    memset(&c, 0, sizeof c);
    c.ns = ns;
    c.es = es;
    c.rs = rs;
    c.mn = axis_sorted(o->n, o->num_n, sizeof *ns, cmp_size, ns);
    c.me = axis_sorted(o->elem, o->num_elem, sizeof *es, cmp_size, es);
    c.mr = axis_sorted(o->removed, o->num_removed, sizeof *rs, cmp_double, rs);
    int runs = 0; /* as the records say (a --budget-ms sweep may have taken fewer than --runs) */
    for (size_t i = 0; i < r->count; i++)
        if (r->records[i].runs > runs) runs = r->records[i].runs;
    fprintf(f,
            "{\n  \"format\": \"raycompact-policy\", \"version\": 1,\n"
            "  \"name\": \"tuned-%s\", \"backend\": \"%s\",\n  \"device\": \"",
            r->backend, r->backend);
    json_text(f, r->device.name);
    fprintf(f, "\",\n  \"source\": \"compact tune, ");
    json_text(f, r->date);
    fprintf(f, ", commit ");
    json_text(f, r->commit);
    fprintf(f, ", median of %d runs\",\n  \"unknown_removed\": 0.5,\n  \"grid\": {", runs);
    list_json(f, "n", ns, c.mn);
    fprintf(f, ", ");
    list_json(f, "elem", es, c.me);
    fprintf(f, ", \"removed\": [");
    for (int i = 0; i < c.mr; i++) fprintf(f, "%s%.6g", i ? ", " : "", rs[i]);
    fprintf(f, "]},\n  \"rules\": [\n");
    int count = 0;
    for (c.in = 0; c.in < c.mn; c.in++)
        for (c.side = -1; c.side <= 1; c.side += 2)
            for (c.ie = 0; c.ie < c.me && !n_half_empty(ns, c.mn, c.in, c.side); c.ie++) {
                point pt[BENCH_MAX_LIST];
                for (int i = 0; i < c.mr; i++) {
                    point *p = &pt[i];
                    cell g = c;
                    g.ir = i;
                    p->any = find_best(r, &g, WANT_FLAGS_ANY);
                    p->stable = find_best(r, &g, WANT_FLAGS_STABLE);
                    p->list = find_best(r, &g, WANT_LIST);
                    if (!p->any.rec || !p->stable.rec) {
                        fprintf(stderr,
                                "compact tune: no stable flag algorithm measured at n=%zu "
                                "elem=%zu removed=%g\n",
                                ns[c.in], es[c.ie], rs[i]);
                        return -1;
                    }
                    p->use_list = list_wins(r, &g, p->list, p->any);
                }
                /* Per kind of rule, neighbouring fractions that want the same rule share it; its
                 * bounds lie where the costs of the choices on either side cross. */
                for (int kind = 0; kind < KIND_COUNT; kind++)
                    for (c.ir = 0; c.ir < c.mr; c.ir = c.ir_hi + 1) {
                        c.ir_hi = c.ir;
                        while (c.ir_hi + 1 < c.mr && same_wanted(&pt[c.ir], &pt[c.ir_hi + 1], kind))
                            c.ir_hi++;
                        const point *p = &pt[c.ir];
                        const best *w = wanted(p, kind);
                        if (!w) continue;
                        c.lo = c.ir > 0 ? crossover(r, &c, c.ir - 1, runs_at(&pt[c.ir - 1], kind),
                                                    runs_at(p, kind))
                                        : -1.0;
                        c.hi = c.ir_hi + 1 < c.mr
                                   ? crossover(r, &c, c.ir_hi, runs_at(&pt[c.ir_hi], kind),
                                               runs_at(&pt[c.ir_hi + 1], kind))
                                   : -1.0;
                        double gain = kind == KIND_LIST
                                          ? p->any.rec->median_ms / p->list.rec->median_ms
                                          : 0.0;
                        rule(f, &c, k_kinds[kind].when, *w, gain, k_kinds[kind].note, &count);
                    }
            }
    fprintf(f, "\n  ]\n}\n");
    return 0;
}

/* ---- --from FILE: the measurements of an earlier --tune --json ---- */

/* NAME(axis, count, v): v appended to a grid axis unless there; -1 when the axis is full. */
#define DEFINE_ADD_TO_AXIS(NAME, TYPE)                                                             \
    static int NAME(TYPE *axis, int *count, TYPE v) {                                              \
        for (int i = 0; i < *count; i++)                                                           \
            if (axis[i] == v) return 0;                                                            \
        if (*count >= BENCH_MAX_LIST) return -1;                                                   \
        axis[(*count)++] = v;                                                                      \
        return 0;                                                                                  \
    }
DEFINE_ADD_TO_AXIS(add_size, size_t)
DEFINE_ADD_TO_AXIS(add_double, double)
#undef DEFINE_ADD_TO_AXIS

/* A whole number in [0, max] from field `key` of `o`; -1 if absent, not one, or out of range. */
static int get_size(const cJSON *o, const char *key, size_t max, size_t *out) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > (double)max ||
        v->valuedouble != floor(v->valuedouble))
        return -1;
    *out = (size_t)v->valuedouble;
    return 0;
}

static const char *get_string(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* One record of the file into `rec` (strings the record points at are static); 1 to skip it
 * (a baseline, auto, a failed check), -1 with `why` if it is malformed. */
static int load_record(const cJSON *j, sc_backend backend, bench_record *rec, char *why,
                       size_t cap) {
    memset(rec, 0, sizeof *rec);
    const char *algo = get_string(j, "algorithm"), *kind = get_string(j, "kind");
    const char *check = get_string(j, "check"), *scan = get_string(j, "scan");
    const cJSON *removed = cJSON_GetObjectItemCaseSensitive(j, "removed");
    const cJSON *median = cJSON_GetObjectItemCaseSensitive(j, "median_ms");
    const cJSON *tile = cJSON_GetObjectItemCaseSensitive(j, "tile");
    if (!algo || !kind || !check) {
        snprintf(why, cap, "a record lacks its algorithm, kind or check");
        return -1;
    }
    if (strcmp(kind, "algorithm") || strcmp(check, "ok") || !strcmp(algo, "auto")) return 1;
    const sc_algorithm_info *info = sc_algorithm_find(algo);
    if (!info) {
        snprintf(why, cap, "unknown algorithm '%.40s'", algo);
        return -1;
    }
    /* a table for this backend can only name what runs there (CUB on a CPU file: mixed files) */
    if (!(info->backends & (1u << backend))) {
        snprintf(why, cap, "'%s' does not run on the %s backend", info->name,
                 sc_backend_name(backend));
        return -1;
    }
    snprintf(rec->algorithm, sizeof rec->algorithm, "%s", info->name);
    snprintf(rec->pattern, sizeof rec->pattern, "random");
    if (get_size(j, "n", (size_t)1 << 40, &rec->n) || rec->n == 0 ||
        get_size(j, "elem_size", SC_ELEM_MAX, &rec->elem_size) || rec->elem_size == 0 ||
        !cJSON_IsNumber(removed) || !(removed->valuedouble >= 0 && removed->valuedouble <= 1)) {
        snprintf(why, cap, "%s: n, elem_size or removed missing or out of range", info->name);
        return -1;
    }
    rec->removed = removed->valuedouble;
    if (!cJSON_IsNumber(median) || !(median->valuedouble > 0) || !isfinite(median->valuedouble))
        return 1; /* measured nothing: not a candidate */
    rec->median_ms = median->valuedouble;
    if (tile && !cJSON_IsNull(tile) &&
        (get_size(j, "tile", SC_TILE_MAX, &rec->tile) ||
         (rec->tile && (rec->tile < SC_TILE_MIN || (rec->tile & (rec->tile - 1)))))) {
        snprintf(why, cap, "%s: tile is not a power of two in [%u, %u]", info->name, SC_TILE_MIN,
                 SC_TILE_MAX);
        return -1;
    }
    if (scan) {
        static const char *const k_scans[] = {"default", "hillis-steele", "blelloch"};
        rec->scan = NULL;
        for (size_t i = 0; i < sizeof k_scans / sizeof *k_scans; i++)
            if (!strcmp(scan, k_scans[i])) rec->scan = k_scans[i];
        if (!rec->scan) {
            snprintf(why, cap, "%s: unknown scan '%.40s'", info->name, scan);
            return -1;
        }
    }
    size_t runs = 0;
    rec->runs = get_size(j, "runs", 1000000, &runs) ? 0 : (int)runs;
    rec->check = "ok";
    return 0;
}

/* The report and the grid (o's lists, o->backend, o->runs) from the JSON `text` of `path`; -1
 * after saying why. */
static int parse_measurements(const char *path, const char *text, size_t len, bench_opts *o,
                              bench_report *r) {
    cJSON *root = cJSON_ParseWithLength(text, len);
    char why[160] = "";
    const cJSON *records = root ? cJSON_GetObjectItemCaseSensitive(root, "records") : NULL;
    const char *backend = root ? get_string(root, "backend") : NULL;
    if (!root)
        snprintf(why, sizeof why, "not JSON");
    else if (!cJSON_IsArray(records) || !backend)
        snprintf(why, sizeof why, "no \"records\" array or \"backend\" (not compact bench --json)");
    else if (!strcmp(backend, "cpu") || !strcmp(backend, "cuda"))
        o->backend = !strcmp(backend, "cpu") ? SC_BACKEND_CPU : SC_BACKEND_CUDA;
    else
        snprintf(why, sizeof why, "unknown backend '%.20s'", backend);
    memset(r, 0, sizeof *r);
    o->num_n = o->num_elem = o->num_removed = 0;
    o->runs = 0;
    if (!why[0]) {
        r->backend = sc_backend_name(o->backend);
        const char *dev = get_string(root, "device"), *date = get_string(root, "date");
        snprintf(r->device.name, sizeof r->device.name, "%s", dev ? dev : "unknown");
        snprintf(r->date, sizeof r->date, "%s", date ? date : "unknown");
        static char commit[64];
        const char *c = get_string(root, "commit");
        snprintf(commit, sizeof commit, "%s", c ? c : "unknown");
        r->commit = commit;
        const cJSON *j;
        int i = 0;
        cJSON_ArrayForEach(j, records) {
            bench_record rec;
            char what[128] = "";
            int got = load_record(j, o->backend, &rec, what, sizeof what);
            if (got < 0) {
                snprintf(why, sizeof why, "record %d: %s", i, what);
                break;
            }
            i++;
            if (got > 0) continue;
            if (add_size(o->n, &o->num_n, rec.n) ||
                add_size(o->elem, &o->num_elem, rec.elem_size) ||
                add_double(o->removed, &o->num_removed, rec.removed)) {
                snprintf(why, sizeof why, "more than %d distinct n, elem or removed values",
                         BENCH_MAX_LIST);
                break;
            }
            if (rec.runs > o->runs) o->runs = rec.runs;
            if (!bench_report_add(r, &rec)) {
                snprintf(why, sizeof why, "out of memory");
                break;
            }
        }
        if (!why[0] && !r->count) snprintf(why, sizeof why, "no checked algorithm measurement");
    }
    cJSON_Delete(root);
    if (why[0]) {
        fprintf(stderr, "compact tune: --from %s: %s\n", path, why);
        bench_report_free(r);
        return -1;
    }
    return 0;
}

/* More elements take no less time: a median above the same configuration's at a larger n is a
 * disturbed measurement, so a copy of r's records with each median the least of its own and
 * those at every larger n (the table, its notes and gains are derived from it). */
static bench_record *monotone_in_n(const bench_report *r) {
    bench_record *m = malloc((r->count ? r->count : 1) * sizeof *m);
    if (!m) return NULL;
    if (r->count) memcpy(m, r->records, r->count * sizeof *m);
    for (size_t i = 0; i < r->count; i++) {
        const bench_record *a = &r->records[i];
        if (!checked(a)) continue;
        for (size_t j = 0; j < r->count; j++) {
            const bench_record *b = &r->records[j];
            if (b->n > a->n && b->elem_size == a->elem_size && b->removed == a->removed &&
                checked(b) && same_config(a, b) && b->median_ms > 0.0 &&
                b->median_ms < m[i].median_ms)
                m[i].median_ms = b->median_ms;
        }
    }
    return m;
}

/* The table's text from `r` (malloc'ed, *text NULL when a grid point has no stable flag
 * algorithm or memory ran out). */
static void table_text(const bench_opts *o, const bench_report *r, char **text, size_t *len) {
    *text = NULL;
    *len = 0;
    bench_report mono = *r;
    mono.records = monotone_in_n(r);
    if (!mono.records) return;
    FILE *f = open_memstream(text, len);
    if (!f) {
        free(mono.records);
        return;
    }
    int bad = write_table(f, o, &mono) != 0;
    free(mono.records);
    if (fclose(f) != 0) bad = 1;
    if (bad) {
        free(*text);
        *text = NULL;
    }
}

/* The table checked by the library, then written to --out (or stdout); frees `text`. */
static int emit(const bench_opts *o, char *text, size_t len) {
    char why[256] = "";
    rc_error err;
    int rc = 0;
    if (!text) {
        fprintf(stderr, "compact tune: no table could be made, so none was written\n");
        rc = BENCH_EXIT_ERROR;
    } else if (sc_policy_check(text, len, o->backend, why, sizeof why) != SC_OK) {
        fprintf(stderr, "compact tune: it wrote a table the library refuses: %s\n", why);
        rc = BENCH_EXIT_ERROR;
    } else if (!o->tune_out) {
        fwrite(text, 1, len, stdout);
    } else if (rc_write_file(o->tune_out, text, len, &err)) {
        fprintf(stderr, "compact tune: %s\n", err.msg);
        rc = BENCH_EXIT_ERROR;
    } else if (!o->quiet) {
        fprintf(stderr, "compact tune: policy table written to %s (SC_POLICY=%s uses it)\n",
                o->tune_out, o->tune_out);
    }
    free(text);
    return rc;
}

int bench_tune_derive(bench_opts *o, const char *name, const char *json, size_t json_len,
                      char **table, size_t *table_len) {
    bench_report r;
    *table = NULL;
    *table_len = 0;
    if (parse_measurements(name, json, json_len, o, &r) != 0) return -1;
    table_text(o, &r, table, table_len);
    bench_report_free(&r);
    return 0;
}

static int tune_from(bench_opts *o) {
    size_t len = 0;
    char why[128];
    char *json = read_file(o->tune_from, (size_t)-1, &len, why, sizeof why);
    if (!json) {
        fprintf(stderr, "compact tune: cannot read %s: %s\n", o->tune_from, why);
        return BENCH_EXIT_ERROR;
    }
    char *text;
    int bad = bench_tune_derive(o, o->tune_from, json, len, &text, &len);
    free(json);
    return bad ? BENCH_EXIT_ERROR : emit(o, text, len);
}

int bench_tune(bench_opts *o) {
    if (o->tune_from) return tune_from(o);
    /* the fractions and (below) the times as --json keeps them, so that --from on that file
     * sees the same grid and derives this very table */
    for (int i = 0; i < o->num_removed; i++) o->removed[i] = bench_printed("%.6g", o->removed[i]);
    /* auto cannot measure itself into its own table */
    int m = 0;
    for (int i = 0; i < o->num_algos; i++)
        if (o->algos[i] != SC_ALGO_AUTO) o->algos[m++] = o->algos[i];
    o->num_algos = m;
    bench_session *s = bench_session_open(o->backend, o->quiet, o->max_seconds);
    if (!s) return BENCH_EXIT_ERROR;
    int stopped = bench_session_sweep(s, o, "tune", "tune");
    bench_report *r = bench_session_report(s);
    for (size_t i = 0; i < r->count; i++)
        r->records[i].median_ms = bench_printed("%.6f", r->records[i].median_ms);
    char *text = NULL;
    size_t len = 0;
    if (!stopped) table_text(o, r, &text, &len);
    /* --json: the measurements the table came from (to check auto against the best later, or
     * to derive a table again with --from) */
    int bad = stopped;
    rc_error err;
    if (!bad && o->json && bench_report_write(r, BENCH_JSON, o->json, &err)) {
        fprintf(stderr, "compact tune: %s\n", err.msg);
        bad = 1;
    }
    int rc = bench_session_close(s);
    if (bad || rc) {
        fprintf(stderr, "compact tune: %s, so no table was written\n",
                stopped ? "the sweep stopped" : "a measurement failed");
        free(text);
        return rc ? rc : BENCH_EXIT_ERROR;
    }
    return emit(o, text, len);
}
