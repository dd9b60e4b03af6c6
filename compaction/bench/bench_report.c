/* bench_report.c: the results of `compact bench`: ratios to the baselines, the summary table,
 * JSON (through cJSON) and CSV from one list of fields, each written through rc_write_file. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench.h"
#include "echo.h"
#include "grow.h"
#include "out_path.h"
#include "timing.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X_CUB_DEFINITION    "x_cub = CUB median / this median (> 1: faster than CUB)"
#define PCT_COPY_DEFINITION "pct_copy = 100 * copy median / this median (100: as fast as a copy)"

bench_record *bench_report_add(bench_report *r, const bench_record *rec) {
    if (rc_grow((void **)&r->records, &r->cap, r->count + 1, sizeof *rec)) return NULL;
    r->records[r->count] = *rec;
    return &r->records[r->count++];
}

void bench_report_free(bench_report *r) {
    free(r->records);
    r->records = NULL;
    r->count = r->cap = 0;
}

static int same_tag(const char *a, const char *b) {
    return a == b || (a && b && !strcmp(a, b));
}

static int same_input(const bench_record *a, const bench_record *b) {
    return a->n == b->n && a->elem_size == b->elem_size && a->k == b->k &&
           !strcmp(a->pattern, b->pattern) && same_tag(a->sweep, b->sweep);
}

static const bench_record *find_row(const bench_report *r, const bench_record *like,
                                    const char *name) {
    for (size_t i = 0; i < r->count; i++)
        if (!strcmp(r->records[i].algorithm, name) && same_input(&r->records[i], like))
            return &r->records[i];
    return NULL;
}

void bench_report_ratios(bench_report *r) {
    for (size_t i = 0; i < r->count; i++) {
        bench_record *rec = &r->records[i];
        const bench_record *cub = find_row(r, rec, "cub");
        const bench_record *copy = find_row(r, rec, "copy");
        rec->x_cub = cub && rec->median_ms > 0 ? cub->median_ms / rec->median_ms : -1.0;
        rec->pct_copy =
            copy && rec->median_ms > 0 ? 100.0 * copy->median_ms / rec->median_ms : -1.0;
        /* floor = model bytes at the copy's bandwidth (its 2 * n * elem bytes / its median) */
        double bytes = bench_model_bytes(rec->algorithm, rec->n, rec->elem_size, rec->kept);
        double copy_bytes = 2.0 * (double)rec->n * (double)rec->elem_size;
        rec->pct_floor = copy && bytes >= 0 && copy_bytes > 0 && rec->median_ms > 0
                             ? 100.0 * (copy->median_ms * bytes / copy_bytes) / rec->median_ms
                             : -1.0;
    }
}

/* "t256 blelloch random": the parameters this row depends on. */
static void variant(const bench_record *rec, char *buf, size_t cap) {
    char tile[24] = "";
    if (rec->tile) snprintf(tile, sizeof tile, "t%zu", rec->tile);
    const char *parts[3] = {rec->choice[0] ? rec->choice : tile, rec->scan ? rec->scan : "",
                            rec->order ? rec->order : ""};
    buf[0] = 0;
    for (int i = 0; i < 3; i++) {
        if (!parts[i][0]) continue;
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", len ? " " : "", parts[i]);
    }
    if (!buf[0]) snprintf(buf, cap, "-");
}

/* The table's width: every line of it fits in this many columns (the rows of a longer name
 * than any built in put their variant on a line of its own). */
#define TABLE_COLUMNS 100

/* "n=4096 elem=4 removed=0.500 pattern=random", after the sweep's tag under --report: the input
 * a group of rows measured. */
static void input_heading(const bench_record *rec, char *buf, size_t cap) {
    snprintf(buf, cap, "%s%sn=%zu elem=%zu removed=%.3f pattern=%s", rec->sweep ? rec->sweep : "",
             rec->sweep ? ": " : "", rec->n, rec->elem_size, rec->removed, rec->pattern);
}

/* `text` folded at its spaces to fit the table's width, continuation lines indented by 2. */
static void table_text(FILE *f, const char *text) {
    echo_wrapped(f, text, TABLE_COLUMNS - 2, 2);
}

/* One row, and under it the line that says its runs disagreed, if they did. */
static void table_row(const bench_record *rec, FILE *f) {
    char name[40], var[64], xcub[16] = "-", pcopy[16] = "-", pfloor[16] = "-", row[160];
    snprintf(name, sizeof name, rec->baseline ? "[%s]" : "%s", rec->algorithm);
    variant(rec, var, sizeof var);
    if (rec->x_cub >= 0) snprintf(xcub, sizeof xcub, "%.2f", rec->x_cub);
    if (rec->pct_copy >= 0) snprintf(pcopy, sizeof pcopy, "%.1f", rec->pct_copy);
    if (rec->pct_floor >= 0) snprintf(pfloor, sizeof pfloor, "%.1f", rec->pct_floor);
    int len = snprintf(row, sizeof row, "%-20s %9.4f %7.1f %5s %6s %7s %-8s", name, rec->median_ms,
                       rec->gbps, xcub, pcopy, pfloor, rec->check);
    if (len > 0 && (size_t)len + 1 + strlen(var) <= TABLE_COLUMNS) {
        fprintf(f, "%s %s\n", row, var);
    } else {
        if (len < 0 || (size_t)len >= sizeof row) len = (int)strlen(row);
        while (len > 0 && row[len - 1] == ' ') row[--len] = 0;
        fprintf(f, "%s\n  variant: %s\n", row, var);
    }
    /* the runs that disagree, named by what the row measured */
    char what[112], line[160];
    snprintf(what, sizeof what, "%s%s%s", rec->algorithm, strcmp(var, "-") ? " " : "",
             strcmp(var, "-") ? var : "");
    if (timing_noisy_line(line, sizeof line, what, rec->min_ms, rec->max_ms, rec->runs, "runs"))
        fprintf(f, "  %s\n", line);
}

void bench_report_table(const bench_report *r, FILE *f) {
    const bench_device *d = &r->device;
    char text[1024], heading[160];
    int len = snprintf(text, sizeof text, "%s: %s", r->backend, d->name);
    if (d->driver[0] && len > 0 && (size_t)len < sizeof text)
        len += snprintf(text + len, sizeof text - (size_t)len, ", driver %s, runtime %s", d->driver,
                        d->runtime);
    if (len > 0 && (size_t)len < sizeof text)
        snprintf(text + len, sizeof text - (size_t)len, ", commit %s", r->commit);
    table_text(f, text);
    /* one group of rows per input: a blank line, the input, the columns, its rows */
    for (size_t i = 0; i < r->count; i++) {
        const bench_record *rec = &r->records[i];
        if (i == 0 || !same_input(rec, &r->records[i - 1]) ||
            rec->removed != r->records[i - 1].removed) {
            input_heading(rec, heading, sizeof heading);
            fprintf(f, "\n%s\n%-20s %9s %7s %5s %6s %7s %-8s %s\n", heading, "algorithm",
                    "median ms", "GB/s", "x CUB", "% copy", "% floor", "check", "variant");
        }
        table_row(rec, f);
    }
    fprintf(f, "\n");
    fprintf(f,
            "GB/s: (n*elem read + n flags read + kept*elem written) / median; x CUB: CUB median / "
            "median\n%% copy: 100 * copy median / median; %% floor: 100 * the traffic model's "
            "bytes at the copy's\nbandwidth / median (compact list --models); -: no such "
            "baseline in this run\nthe runs' min and max: in the JSON and CSV; noisy: their "
            "max/min is above %g\n",
            TIMING_NOISY);
    const char *timing = r->graph ? "times per call inside a captured graph of back-to-back calls"
                                  : "times per call";
    const char *cache = r->warm
                            ? "warm: every run on one input set, left in cache by the run before"
                            : "cold: each run on the next input set, none of them in cache";
    if (strlen(timing) + 2 + strlen(cache) <= TABLE_COLUMNS)
        fprintf(f, "%s; %s\n", timing, cache);
    else
        fprintf(f, "%s;\n%s\n", timing, cache);
}

/* ---- files ---- */

/* One field of a record as JSON and CSV write it: a string (NULL or "": null, or nothing in
 * the CSV), or a number printed with fmt (the JSON holds the number so printed; `absent`:
 * null, or nothing). */
typedef struct field {
    const char *key, *str, *fmt;
    double num;
    int absent, flags;
} field;
/* CSV: unquoted; not there; at the end; JSON: true or false (num non-zero or 0) */
enum { F_BARE = 1, F_JSON_ONLY = 2, F_CSV_LAST = 4, F_BOOL = 8 };

#define STR(key, s)                                                                                \
    { key, s, NULL, 0.0, 0, 0 }
#define NUM(key, fmt, v, skip)                                                                     \
    { key, NULL, fmt, (double)(v), skip, 0 }

/* The report's fields that head every record, then the record's own, in the JSON's order. */
static size_t fields(const bench_report *r, const bench_record *rec, field *f) {
    const field head[] = {STR("backend", r->backend), STR("device", r->device.name),
                          STR("driver", r->device.driver), STR("runtime", r->device.runtime),
                          STR("commit", r->commit)};
    size_t n = sizeof head / sizeof *head;
    memcpy(f, head, sizeof head);
    if (!rec) return n;
    const double spread = timing_spread(rec->min_ms, rec->max_ms);
    const field own[] = {
        STR("sweep", rec->sweep),
        STR("algorithm", rec->algorithm),
        {"kind", rec->baseline ? "baseline" : "algorithm", NULL, 0.0, 0, F_BARE},
        NUM("n", "%.0f", rec->n, 0),
        NUM("elem_size", "%.0f", rec->elem_size, 0),
        NUM("removed", "%.6g", rec->removed, 0),
        STR("pattern", rec->pattern),
        NUM("red_share", "%.6g", rec->red_share, 0),
        NUM("removed_count", "%.0f", rec->k, 0),
        NUM("kept", "%.0f", rec->kept, 0),
        NUM("tile", "%.0f", rec->tile, !rec->tile),
        STR("scan", rec->scan),
        STR("order", rec->order),
        {"choice", rec->choice, NULL, 0.0, 0, F_CSV_LAST},
        NUM("runs", "%.0f", rec->runs, 0),
        NUM("sets", "%.0f", rec->sets, 0),
        NUM("median_ms", "%.6f", rec->median_ms, 0),
        NUM("min_ms", "%.6f", rec->min_ms, 0),
        NUM("max_ms", "%.6f", rec->max_ms, 0),
        /* the noise rule (timing.h): max / min of the runs (null: no ratio), above 1.5 noisy */
        {"max_over_min", NULL, "%.4f", spread, spread <= 0, F_JSON_ONLY},
        {"noisy", NULL, NULL, timing_noisy(rec->min_ms, rec->max_ms), 0, F_JSON_ONLY | F_BOOL},
        NUM("gbps", "%.3f", rec->gbps, 0),
        NUM("x_cub", "%.4f", rec->x_cub, rec->x_cub < 0), /* < 0: no such baseline in the run */
        NUM("pct_copy", "%.4f", rec->pct_copy, rec->pct_copy < 0),
        {"pct_floor", NULL, "%.4f", rec->pct_floor, rec->pct_floor < 0, F_JSON_ONLY},
        {"check", rec->check, NULL, 0.0, 0, F_BARE}};
    memcpy(f + n, own, sizeof own);
    return n + sizeof own / sizeof *own;
}

double bench_printed(const char *fmt, double v) {
    char buf[512];
    snprintf(buf, sizeof buf, fmt, v);
    return strtod(buf, NULL);
}

/* A number as fmt prints it (times to the nanosecond, ratios to 4 decimals), so a reader gets
 * exactly those numbers; a non-finite one is null, which JSON allows and NaN not. */
static int add_number(cJSON *o, const char *key, const char *fmt, double v) {
    v = bench_printed(fmt, v);
    return (isfinite(v) ? cJSON_AddNumberToObject(o, key, v) : cJSON_AddNullToObject(o, key)) !=
           NULL;
}

static int add_fields(cJSON *o, const field *f, size_t n) {
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++, f++)
        ok = f->flags & F_BOOL   ? cJSON_AddBoolToObject(o, f->key, f->num != 0.0) != NULL
             : f->fmt            ? (f->absent ? cJSON_AddNullToObject(o, f->key) != NULL
                                              : add_number(o, f->key, f->fmt, f->num))
             : f->str && *f->str ? cJSON_AddStringToObject(o, f->key, f->str) != NULL
                                 : cJSON_AddNullToObject(o, f->key) != NULL;
    return ok;
}

/* A new object appended to arr, or NULL. */
static cJSON *append(cJSON *arr) {
    cJSON *o = arr ? cJSON_CreateObject() : NULL;
    if (o && !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        o = NULL;
    }
    return o;
}

static int add_record(cJSON *records, const bench_report *r, const bench_record *rec) {
    field f[40];
    cJSON *o = append(records);
    cJSON *phases =
        o && add_fields(o, f, fields(r, rec, f)) ? cJSON_AddArrayToObject(o, "phases") : NULL;
    int ok = phases != NULL;
    for (size_t p = 0; ok && p < rec->num_phases; p++) {
        const field ph[] = {STR("name", rec->phases[p].name),
                            NUM("ms", "%.6f", rec->phases[p].ms, 0)};
        cJSON *x = append(phases);
        ok = x && add_fields(x, ph, 2);
    }
    return ok;
}

/* What the whole run was (the device, the commit, when, how long, the sweeps), then the
 * definitions of the derived numbers, then the records. */
static cJSON *json_report(const bench_report *r) {
    field f[8];
    size_t n = fields(r, NULL, f);
    cJSON *root = cJSON_CreateObject();
    int ok =
        root && cJSON_AddStringToObject(root, "tool", "compact bench") && add_fields(root, f, n);
    const field more[] = {STR("date", r->date), NUM("elapsed_s", "%.1f", r->elapsed_s, 0)};
    ok = ok && add_fields(root, more, 2) && cJSON_AddBoolToObject(root, "quick", r->quick != 0) &&
         cJSON_AddStringToObject(root, "timing", r->graph ? "graph" : "calls") &&
         cJSON_AddStringToObject(root, "cache", r->warm ? "warm" : "cold") &&
         cJSON_AddBoolToObject(root, "complete", !(r->num_sweeps && !r->complete));
    cJSON *sweeps = ok ? cJSON_AddArrayToObject(root, "sweeps") : NULL;
    for (size_t i = 0; sweeps && i < r->num_sweeps; i++) {
        const bench_report_sweep *sw = &r->sweeps[i];
        const field s[] = {STR("tag", sw->tag), STR("purpose", sw->purpose),
                           STR("command", sw->command)};
        cJSON *o = append(sweeps);
        if (!o || !add_fields(o, s, 3)) sweeps = NULL;
    }
    ok = sweeps && cJSON_AddStringToObject(root, "gbps_definition", BENCH_GBPS_DEFINITION) &&
         cJSON_AddStringToObject(root, "x_cub_definition", X_CUB_DEFINITION) &&
         cJSON_AddStringToObject(root, "pct_copy_definition", PCT_COPY_DEFINITION);
    cJSON *records = ok ? cJSON_AddArrayToObject(root, "records") : NULL;
    for (size_t i = 0; records && i < r->count; i++)
        if (!add_record(records, r, &r->records[i])) records = NULL;
    if (!records) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static int write_json(const bench_report *r, FILE *f) {
    cJSON *root = json_report(r);
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (text) fprintf(f, "%s\n", text);
    cJSON_free(text);
    return text ? 0 : -1;
}

/* A CSV field: quoted, with inner quotes doubled; empty where the value does not apply. */
static void csv_field(FILE *f, const field *x) {
    if (x->fmt) {
        if (!x->absent) fprintf(f, x->fmt, x->num);
    } else if (x->flags & F_BARE) {
        fputs(x->str, f);
    } else if (x->str && *x->str) {
        fputc('"', f);
        for (const char *s = x->str; *s; s++) fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
        fputc('"', f);
    }
}

static int write_csv(const bench_report *r, FILE *f) {
    fprintf(f, "backend,device,driver,runtime,commit,sweep,algorithm,kind,n,elem_size,removed,"
               "pattern,red_share,removed_count,kept,tile,scan,order,runs,sets,median_ms,min_ms,"
               "max_ms,gbps,x_cub,pct_copy,check,phases,choice\n");
    for (const bench_record *rec = r->records; rec < r->records + r->count; rec++) {
        field fs[40];
        size_t n = fields(r, rec, fs), last = 0;
        for (size_t i = 0; i < n; i++) {
            if (fs[i].flags & F_CSV_LAST) last = i;
            if (fs[i].flags & (F_CSV_LAST | F_JSON_ONLY)) continue;
            csv_field(f, &fs[i]);
            fputc(',', f);
        }
        fputc('"', f);
        for (size_t p = 0; p < rec->num_phases; p++)
            fprintf(f, "%s%s=%.6f", p ? ";" : "", rec->phases[p].name, rec->phases[p].ms);
        fputs("\",", f);
        csv_field(f, &fs[last]);
        fputc('\n', f);
    }
    return 0;
}

static int write_table(const bench_report *r, FILE *f) {
    bench_report_table(r, f);
    return 0;
}

int bench_report_write(const bench_report *r, bench_format format, const char *path,
                       rc_error *err) {
    static int (*const write[])(const bench_report *, FILE *) = {write_json, write_csv,
                                                                 write_table};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int bad = !f || write[format](r, f) || ferror(f);
    if (f && fclose(f)) bad = 1;
    int rc = bad ? rc_fail(err, "%s: cannot write: out of memory", path)
                 : rc_write_file(path, text, len, err);
    free(text);
    return rc;
}
