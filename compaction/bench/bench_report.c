/* bench_report.c: the results of `compact bench`: ratios to the baselines, the summary table,
 * JSON (through cJSON) and CSV (written to a temporary file and renamed, so a failed run never
 * leaves a partial file over a good one). */
#include "bench.h"
#include "out_path.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X_CUB_DEFINITION    "x_cub = CUB median / this median (> 1: faster than CUB)"
#define PCT_COPY_DEFINITION "pct_copy = 100 * copy median / this median (100: as fast as a copy)"

bench_record *bench_report_add(bench_report *r, const bench_record *rec) {
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        bench_record *grown = realloc(r->records, cap * sizeof *grown);
        if (!grown) return NULL;
        r->records = grown;
        r->cap = cap;
    }
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

void bench_report_table(const bench_report *r, FILE *f) {
    const bench_device *d = &r->device;
    fprintf(f, "%s: %s", r->backend, d->name);
    if (d->driver[0]) fprintf(f, ", driver %s, runtime %s", d->driver, d->runtime);
    fprintf(f, ", commit %s\n", r->commit);
    fprintf(f, "%-20s %10s %4s %7s %-14s %-24s %10s %10s %10s %8s %6s %6s %7s %s\n", "algorithm",
            "n", "elem", "removed", "pattern", "variant", "median ms", "min ms", "max ms", "GB/s",
            "x CUB", "% copy", "% floor", "check");
    for (size_t i = 0; i < r->count; i++) {
        const bench_record *rec = &r->records[i];
        char name[40], var[64], xcub[16] = "-", pcopy[16] = "-", pfloor[16] = "-";
        snprintf(name, sizeof name, rec->baseline ? "[%s]" : "%s", rec->algorithm);
        variant(rec, var, sizeof var);
        if (rec->x_cub >= 0) snprintf(xcub, sizeof xcub, "%.2f", rec->x_cub);
        if (rec->pct_copy >= 0) snprintf(pcopy, sizeof pcopy, "%.1f", rec->pct_copy);
        if (rec->pct_floor >= 0) snprintf(pfloor, sizeof pfloor, "%.1f", rec->pct_floor);
        fprintf(f, "%-20s %10zu %4zu %7.3f %-14s %-24s %10.4f %10.4f %10.4f %8.1f %6s %6s %7s %s\n",
                name, rec->n, rec->elem_size, rec->removed, rec->pattern, var, rec->median_ms,
                rec->min_ms, rec->max_ms, rec->gbps, xcub, pcopy, pfloor, rec->check);
    }
    fprintf(f, "GB/s: (n*elem read + n flags read + kept*elem written) / median; x CUB: CUB "
               "median / median; %% copy: 100 * copy median / median; %% floor: 100 * the "
               "traffic model's bytes at the copy's bandwidth / median (compact list --models)\n");
    fprintf(f, "%s; %s\n",
            r->graph ? "times per call inside a captured graph of back-to-back calls"
                     : "times per call",
            r->warm ? "warm: every run on one input set, left in cache by the run before"
                    : "cold: each run on the next input set, none of them in cache");
}

/* ---- files ---- */

/* The JSON through cJSON (the library's policy tables use it too). Numbers keep the
 * precision the report has always had (times to the nanosecond, ratios to 4 decimals): the
 * value is rounded as printf would print it, so a reader gets exactly those numbers. A
 * non-finite number is written as null, which JSON allows and NaN is not. */
static double fixed(double v, int decimals) {
    char buf[512];
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return strtod(buf, NULL);
}

static double significant(double v, int digits) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    return strtod(buf, NULL);
}

static int add_number(cJSON *o, const char *key, double v) {
    return (isfinite(v) ? cJSON_AddNumberToObject(o, key, v) : cJSON_AddNullToObject(o, key)) !=
           NULL;
}

/* A string, or null where it is NULL or empty (not applicable). */
static int add_string(cJSON *o, const char *key, const char *s) {
    return (s && *s ? cJSON_AddStringToObject(o, key, s) : cJSON_AddNullToObject(o, key)) != NULL;
}

/* x_cub, pct_copy, pct_floor: < 0 means there is no such baseline in the run. */
static int add_ratio(cJSON *o, const char *key, double v) {
    return v >= 0 ? add_number(o, key, fixed(v, 4)) : cJSON_AddNullToObject(o, key) != NULL;
}

static int add_device(cJSON *o, const bench_report *r) {
    return add_string(o, "backend", r->backend) && add_string(o, "device", r->device.name) &&
           add_string(o, "driver", r->device.driver) &&
           add_string(o, "runtime", r->device.runtime) && add_string(o, "commit", r->commit);
}

static int add_phases(cJSON *o, const bench_record *rec) {
    cJSON *arr = cJSON_AddArrayToObject(o, "phases");
    if (!arr) return 0;
    for (size_t p = 0; p < rec->num_phases; p++) {
        cJSON *ph = cJSON_CreateObject();
        if (!ph || !cJSON_AddItemToArray(arr, ph)) {
            cJSON_Delete(ph);
            return 0;
        }
        if (!add_string(ph, "name", rec->phases[p].name) ||
            !add_number(ph, "ms", fixed(rec->phases[p].ms, 6)))
            return 0;
    }
    return 1;
}

/* What ran: the algorithm, its input and its variant. */
static int add_input(cJSON *o, const bench_record *rec) {
    return add_string(o, "sweep", rec->sweep) && add_string(o, "algorithm", rec->algorithm) &&
           cJSON_AddStringToObject(o, "kind", rec->baseline ? "baseline" : "algorithm") &&
           add_number(o, "n", (double)rec->n) &&
           add_number(o, "elem_size", (double)rec->elem_size) &&
           add_number(o, "removed", significant(rec->removed, 6)) &&
           add_string(o, "pattern", rec->pattern) &&
           add_number(o, "red_share", significant(rec->red_share, 6)) &&
           add_number(o, "removed_count", (double)rec->k) &&
           add_number(o, "kept", (double)rec->kept) &&
           (rec->tile ? add_number(o, "tile", (double)rec->tile)
                      : cJSON_AddNullToObject(o, "tile") != NULL) &&
           add_string(o, "scan", rec->scan) && add_string(o, "order", rec->order) &&
           add_string(o, "choice", rec->choice);
}

/* How long it took, against the baselines, and whether its result was right. */
static int add_times(cJSON *o, const bench_record *rec) {
    return add_number(o, "runs", rec->runs) && add_number(o, "sets", rec->sets) &&
           add_number(o, "median_ms", fixed(rec->median_ms, 6)) &&
           add_number(o, "min_ms", fixed(rec->min_ms, 6)) &&
           add_number(o, "max_ms", fixed(rec->max_ms, 6)) &&
           add_number(o, "gbps", fixed(rec->gbps, 3)) && add_ratio(o, "x_cub", rec->x_cub) &&
           add_ratio(o, "pct_copy", rec->pct_copy) && add_ratio(o, "pct_floor", rec->pct_floor) &&
           cJSON_AddStringToObject(o, "check", rec->check) && add_phases(o, rec);
}

static cJSON *json_record(const bench_report *r, const bench_record *rec) {
    cJSON *o = cJSON_CreateObject();
    if (o && add_device(o, r) && add_input(o, rec) && add_times(o, rec)) return o;
    cJSON_Delete(o);
    return NULL;
}

static int add_sweeps(cJSON *root, const bench_report *r) {
    cJSON *arr = cJSON_AddArrayToObject(root, "sweeps");
    if (!arr) return 0;
    for (size_t i = 0; i < r->num_sweeps; i++) {
        const bench_report_sweep *sw = &r->sweeps[i];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(arr, o)) {
            cJSON_Delete(o);
            return 0;
        }
        if (!add_string(o, "tag", sw->tag) || !add_string(o, "purpose", sw->purpose) ||
            !add_string(o, "command", sw->command))
            return 0;
    }
    return 1;
}

/* What the whole run was (the device, the commit, when, how long, the sweeps), then the
 * definitions of the derived numbers, then the records. */
static cJSON *json_report(const bench_report *r) {
    cJSON *root = cJSON_CreateObject();
    int ok = root && cJSON_AddStringToObject(root, "tool", "compact bench") &&
             add_device(root, r) && add_string(root, "date", r->date) &&
             add_number(root, "elapsed_s", fixed(r->elapsed_s, 1)) &&
             cJSON_AddBoolToObject(root, "quick", r->quick != 0) &&
             cJSON_AddStringToObject(root, "timing", r->graph ? "graph" : "calls") &&
             cJSON_AddStringToObject(root, "cache", r->warm ? "warm" : "cold") &&
             cJSON_AddBoolToObject(root, "complete", !(r->num_sweeps && !r->complete)) &&
             add_sweeps(root, r) &&
             cJSON_AddStringToObject(root, "gbps_definition", BENCH_GBPS_DEFINITION) &&
             cJSON_AddStringToObject(root, "x_cub_definition", X_CUB_DEFINITION) &&
             cJSON_AddStringToObject(root, "pct_copy_definition", PCT_COPY_DEFINITION);
    cJSON *records = ok ? cJSON_AddArrayToObject(root, "records") : NULL;
    for (size_t i = 0; records && i < r->count; i++) {
        cJSON *rec = json_record(r, &r->records[i]);
        if (!rec || !cJSON_AddItemToArray(records, rec)) {
            cJSON_Delete(rec);
            records = NULL;
        }
    }
    if (!records) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static int write_json(FILE *f, const void *report) {
    const bench_report *r = report;
    cJSON *root = json_report(r);
    char *text = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text) {
        errno = ENOMEM;
        return -1;
    }
    int failed = fputs(text, f) < 0 || fputc('\n', f) == EOF;
    cJSON_free(text);
    return failed ? -1 : 0;
}

/* A CSV field: quoted, with inner quotes doubled; empty where the value does not apply. */
static void csv_string(FILE *f, const char *s) {
    if (!s || !*s) return;
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_record(FILE *f, const bench_report *r, const bench_record *rec) {
    const char *strings[] = {r->backend, r->device.name, r->device.driver, r->device.runtime,
                             r->commit,  rec->sweep,     rec->algorithm};
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
        csv_string(f, strings[i]);
        fputc(',', f);
    }
    fprintf(f, "%s,%zu,%zu,%.6g,", rec->baseline ? "baseline" : "algorithm", rec->n, rec->elem_size,
            rec->removed);
    csv_string(f, rec->pattern);
    fprintf(f, ",%.6g,%zu,%zu,", rec->red_share, rec->k, rec->kept);
    if (rec->tile) fprintf(f, "%zu", rec->tile);
    fputc(',', f);
    csv_string(f, rec->scan);
    fputc(',', f);
    csv_string(f, rec->order);
    fprintf(f, ",%d,%d,%.6f,%.6f,%.6f,%.3f,", rec->runs, rec->sets, rec->median_ms, rec->min_ms,
            rec->max_ms, rec->gbps);
    if (rec->x_cub >= 0) fprintf(f, "%.4f", rec->x_cub);
    fputc(',', f);
    if (rec->pct_copy >= 0) fprintf(f, "%.4f", rec->pct_copy);
    fprintf(f, ",%s,\"", rec->check);
    for (size_t p = 0; p < rec->num_phases; p++)
        fprintf(f, "%s%s=%.6f", p ? ";" : "", rec->phases[p].name, rec->phases[p].ms);
    fprintf(f, "\",");
    csv_string(f, rec->choice[0] ? rec->choice : NULL);
    fprintf(f, "\n");
}

static int write_csv(FILE *f, const void *report) {
    const bench_report *r = report;
    fprintf(f, "backend,device,driver,runtime,commit,sweep,algorithm,kind,n,elem_size,removed,"
               "pattern,red_share,removed_count,kept,tile,scan,order,runs,sets,median_ms,min_ms,"
               "max_ms,gbps,x_cub,pct_copy,check,phases,choice\n");
    for (size_t i = 0; i < r->count; i++) csv_record(f, r, &r->records[i]);
    return 0;
}

int bench_write_file(const char *path, int (*write)(FILE *, const void *), const void *arg) {
    char real[OUT_PATH_MAX]; /* through a symbolic link, its target */
    if (out_path_resolve(path, real, sizeof real) != 0) return -1;
    size_t len = strlen(real);
    char *tmp = malloc(len + 5);
    if (!tmp) return -1;
    memcpy(tmp, real, len);
    memcpy(tmp + len, ".tmp", 5);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(tmp);
        return -1;
    }
    int failed = write(f, arg) != 0 || ferror(f);
    int e = errno;
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    if (!failed && rename(tmp, real) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed) {
        remove(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    free(tmp);
    return 0;
}

int bench_report_json(const bench_report *r, const char *path) {
    return bench_write_file(path, write_json, r);
}

int bench_report_csv(const bench_report *r, const char *path) {
    return bench_write_file(path, write_csv, r);
}
