/* bench_tune.c: `compact bench --tune`: measure a grid (n x element size x removed fraction,
 * every algorithm with and without a removal list, each tile and scan asked for) on one
 * backend and write auto's decision table, in the JSON format the library reads
 * (compaction/src/policy.c). Per grid point the table says: the fastest algorithm; the fastest
 * stable one where they differ; Redzone (or its one-block form) where a removal list is offered
 * and it beats both. Each point's rule covers the cell around it, bounded half-way to its
 * neighbours (geometric mean for n and element size, arithmetic for the fraction). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The best measured configuration among records that pass `want`. */
typedef struct best {
    const bench_record *rec;
    const sc_algorithm_info *info;
} best;

enum { WANT_FLAGS_ANY, WANT_FLAGS_STABLE, WANT_LIST };

static best find_best(const bench_report *r, size_t n, size_t elem, double removed, int want) {
    best b = {NULL, NULL};
    for (size_t i = 0; i < r->count; i++) {
        const bench_record *rec = &r->records[i];
        if (rec->baseline || rec->n != n || rec->elem_size != elem || rec->removed != removed)
            continue;
        const sc_algorithm_info *info = sc_algorithm_find(rec->algorithm);
        if (!info || info->id == SC_ALGO_AUTO || strcmp(rec->check, "ok")) continue;
        int list = info->input == SC_INPUT_REMOVAL_LIST;
        if (want == WANT_LIST ? !list : list) continue;
        if (want == WANT_FLAGS_STABLE && !info->stable) continue;
        if (!b.rec || rec->median_ms < b.rec->median_ms) {
            b.rec = rec;
            b.info = info;
        }
    }
    return b;
}

static int same_choice(best a, best b) {
    return a.rec && b.rec && a.info == b.info && a.rec->tile == b.rec->tile &&
           (a.rec->scan == b.rec->scan ||
            (a.rec->scan && b.rec->scan && !strcmp(a.rec->scan, b.rec->scan)));
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
static int axis_size(const size_t *in, int count, size_t *out) {
    memcpy(out, in, (size_t)count * sizeof *in);
    qsort(out, (size_t)count, sizeof *out, cmp_size);
    int m = 0;
    for (int i = 0; i < count; i++)
        if (!m || out[m - 1] != out[i]) out[m++] = out[i];
    return m;
}
static int axis_double(const double *in, int count, double *out) {
    memcpy(out, in, (size_t)count * sizeof *in);
    qsort(out, (size_t)count, sizeof *out, cmp_double);
    int m = 0;
    for (int i = 0; i < count; i++)
        if (!m || out[m - 1] != out[i]) out[m++] = out[i];
    return m;
}

/* The bounds of cell i of an integer axis: ("n_min", "n_max") half-way (geometric) to the
 * neighbours; the first cell is open below, the last above. */
static void size_bounds(FILE *f, const char *key, const size_t *ax, int m, int i, int *first) {
    if (i > 0) {
        size_t lo = (size_t)floor(sqrt((double)ax[i - 1] * (double)ax[i])) + 1;
        fprintf(f, "%s\"%s_min\": %zu", *first ? "" : ", ", key, lo);
        *first = 0;
    }
    if (i + 1 < m) {
        size_t hi = (size_t)floor(sqrt((double)ax[i] * (double)ax[i + 1]));
        fprintf(f, "%s\"%s_max\": %zu", *first ? "" : ", ", key, hi);
        *first = 0;
    }
}

/* Points lo..hi of the fraction axis, which share one choice, as one range. */
static void removed_bounds(FILE *f, const double *ax, int m, int lo, int hi, int *first) {
    if (lo > 0) {
        fprintf(f, "%s\"removed_min\": %.6g", *first ? "" : ", ", (ax[lo - 1] + ax[lo]) / 2);
        *first = 0;
    }
    if (hi + 1 < m) {
        fprintf(f, "%s\"removed_max\": %.6g", *first ? "" : ", ", (ax[hi] + ax[hi + 1]) / 2);
        *first = 0;
    }
}

typedef struct cell {
    const size_t *ns, *es;
    const double *rs;
    int mn, me, mr, in, ie, ir, ir_hi; /* ir..ir_hi: the fractions one rule covers */
} cell;

/* What a grid point decides: with a list (when it beats both), fastest, fastest stable. */
typedef struct point {
    best any, stable, list;
    int use_list;
} point;

static int same_point(const point *a, const point *b) {
    return a->use_list == b->use_list && (!a->use_list || same_choice(a->list, b->list)) &&
           same_choice(a->any, b->any) && same_choice(a->stable, b->stable);
}

static void rule(FILE *f, const cell *c, const char *extra, best b, const char *note, int *count) {
    int first = 1;
    fprintf(f, "%s    {\"when\": {", *count ? ",\n" : "");
    size_bounds(f, "n", c->ns, c->mn, c->in, &first);
    size_bounds(f, "elem", c->es, c->me, c->ie, &first);
    removed_bounds(f, c->rs, c->mr, c->ir, c->ir_hi, &first);
    if (extra) fprintf(f, "%s%s", first ? "" : ", ", extra);
    fprintf(f, "}, \"algo\": \"%s\"", b.info->name);
    if (b.rec->tile && (b.info->tunables & SC_TUNE_TILE))
        fprintf(f, ", \"tile\": %zu", b.rec->tile);
    if (b.rec->scan && (b.info->tunables & SC_TUNE_SCAN) && strcmp(b.rec->scan, "default"))
        fprintf(f, ", \"scan\": \"%s\"", b.rec->scan);
    fprintf(f, ", \"note\": \"%s %.4g ms at %.3g removed", note, b.rec->median_ms, c->rs[c->ir]);
    if (c->ir_hi > c->ir) fprintf(f, ", alike to %.3g", c->rs[c->ir_hi]);
    fprintf(f, "\"}");
    (*count)++;
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
    c.mn = axis_size(o->n, o->num_n, ns);
    c.me = axis_size(o->elem, o->num_elem, es);
    c.mr = axis_double(o->removed, o->num_removed, rs);
    fprintf(f,
            "{\n  \"format\": \"raycompact-policy\", \"version\": 1,\n"
            "  \"name\": \"tuned-%s\", \"backend\": \"%s\",\n  \"device\": \"%s\",\n"
            "  \"source\": \"compact bench --tune, %s, commit %s, median of %d runs\",\n"
            "  \"unknown_removed\": 0.5,\n  \"grid\": {",
            r->backend, r->backend, r->device.name, r->date, r->commit, o->runs);
    list_json(f, "n", ns, c.mn);
    fprintf(f, ", ");
    list_json(f, "elem", es, c.me);
    fprintf(f, ", \"removed\": [");
    for (int i = 0; i < c.mr; i++) fprintf(f, "%s%.6g", i ? ", " : "", rs[i]);
    fprintf(f, "]},\n  \"rules\": [\n");
    int count = 0;
    for (c.in = 0; c.in < c.mn; c.in++)
        for (c.ie = 0; c.ie < c.me; c.ie++) {
            point pt[BENCH_MAX_LIST];
            for (int i = 0; i < c.mr; i++) {
                point *p = &pt[i];
                p->any = find_best(r, ns[c.in], es[c.ie], rs[i], WANT_FLAGS_ANY);
                p->stable = find_best(r, ns[c.in], es[c.ie], rs[i], WANT_FLAGS_STABLE);
                p->list = find_best(r, ns[c.in], es[c.ie], rs[i], WANT_LIST);
                if (!p->any.rec || !p->stable.rec) {
                    fprintf(stderr,
                            "compact bench: --tune: no stable flag algorithm measured at n=%zu "
                            "elem=%zu removed=%g\n",
                            ns[c.in], es[c.ie], rs[i]);
                    return -1;
                }
                p->use_list = p->list.rec && p->list.rec->median_ms < p->any.rec->median_ms;
            }
            /* neighbouring fractions that decide alike share one rule */
            for (c.ir = 0; c.ir < c.mr; c.ir = c.ir_hi + 1) {
                c.ir_hi = c.ir;
                while (c.ir_hi + 1 < c.mr && same_point(&pt[c.ir], &pt[c.ir_hi + 1])) c.ir_hi++;
                const point *p = &pt[c.ir];
                if (p->use_list)
                    rule(f, &c, "\"list\": true, \"stable\": false", p->list, "list", &count);
                if (!same_choice(p->any, p->stable))
                    rule(f, &c, "\"stable\": false", p->any, "fastest", &count);
                rule(f, &c, NULL, p->stable, "fastest stable", &count);
            }
        }
    fprintf(f, "\n  ]\n}\n");
    return 0;
}

static int write_file(const char *path, const char *text, size_t len) {
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    int ok = fwrite(text, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

int bench_tune(bench_opts *o) {
    /* auto cannot measure itself into its own table */
    int m = 0;
    for (int i = 0; i < o->num_algos; i++)
        if (o->algos[i] != SC_ALGO_AUTO) o->algos[m++] = o->algos[i];
    o->num_algos = m;
    bench_session *s = bench_session_open(o->backend, o->quiet, o->max_seconds);
    if (!s) return BENCH_EXIT_ERROR;
    int stopped = bench_session_sweep(s, o, "tune", "tune");
    bench_report *r = bench_session_report(s);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int bad = !f || stopped || write_table(f, o, r) != 0;
    if (f) fclose(f);
    /* --json: the measurements the table came from (to check auto against the best later) */
    if (!bad && o->json && bench_report_json(r, o->json) != 0) {
        fprintf(stderr, "compact bench: cannot write %s: %s\n", o->json, strerror(errno));
        bad = 1;
    }
    int rc = bench_session_close(s);
    char why[256] = "";
    if (!bad && !rc && sc_policy_check(text, len, o->backend, why, sizeof why) != SC_OK) {
        fprintf(stderr, "compact bench: --tune wrote a table the library refuses: %s\n", why);
        rc = BENCH_EXIT_ERROR;
    }
    if (bad || rc) {
        fprintf(stderr, "compact bench: --tune: %s, so no table was written\n",
                stopped ? "the sweep stopped" : "a measurement failed");
        free(text);
        return rc ? rc : BENCH_EXIT_ERROR;
    }
    if (!o->tune_out) {
        fwrite(text, 1, len, stdout);
    } else if (write_file(o->tune_out, text, len) != 0) {
        fprintf(stderr, "compact bench: cannot write %s: %s\n", o->tune_out, strerror(errno));
        rc = BENCH_EXIT_ERROR;
    } else if (!o->quiet) {
        fprintf(stderr, "compact bench: policy table written to %s (SC_POLICY=%s uses it)\n",
                o->tune_out, o->tune_out);
    }
    free(text);
    return rc;
}
