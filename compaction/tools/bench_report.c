/* bench_report.c: the results of `compact bench`: ratios to the baselines, the summary table,
 * JSON and CSV (written to a temporary file and renamed, so a failed run never leaves a
 * partial file over a good one). */
#include "bench.h"

#include <errno.h>
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

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_stats(double *ms, int count, double *median, double *min, double *max) {
    qsort(ms, (size_t)count, sizeof *ms, cmp_double);
    *min = ms[0];
    *max = ms[count - 1];
    *median = count % 2 ? ms[count / 2] : 0.5 * (ms[count / 2 - 1] + ms[count / 2]);
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
}

/* ---- files ---- */

static void json_string(FILE *f, const char *s) {
    if (!s || !*s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_ratio(FILE *f, const char *key, double v) {
    if (v >= 0)
        fprintf(f, ", \"%s\": %.4f", key, v);
    else
        fprintf(f, ", \"%s\": null", key);
}

static void json_record(FILE *f, const bench_report *r, const bench_record *rec) {
    fprintf(f, "    {\"backend\": ");
    json_string(f, r->backend);
    fprintf(f, ", \"device\": ");
    json_string(f, r->device.name);
    fprintf(f, ", \"driver\": ");
    json_string(f, r->device.driver);
    fprintf(f, ", \"runtime\": ");
    json_string(f, r->device.runtime);
    fprintf(f, ", \"commit\": ");
    json_string(f, r->commit);
    fprintf(f, ", \"sweep\": ");
    json_string(f, rec->sweep);
    fprintf(f, ",\n     \"algorithm\": ");
    json_string(f, rec->algorithm);
    fprintf(f, ", \"kind\": \"%s\", \"n\": %zu, \"elem_size\": %zu, \"removed\": %.6g",
            rec->baseline ? "baseline" : "algorithm", rec->n, rec->elem_size, rec->removed);
    fprintf(f, ", \"pattern\": ");
    json_string(f, rec->pattern);
    fprintf(f, ", \"red_share\": %.6g", rec->red_share);
    fprintf(f, ", \"removed_count\": %zu, \"kept\": %zu, \"tile\": ", rec->k, rec->kept);
    if (rec->tile)
        fprintf(f, "%zu", rec->tile);
    else
        fputs("null", f);
    fprintf(f, ", \"scan\": ");
    json_string(f, rec->scan);
    fprintf(f, ", \"order\": ");
    json_string(f, rec->order);
    fprintf(f, ", \"choice\": ");
    json_string(f, rec->choice[0] ? rec->choice : NULL);
    fprintf(f, ",\n     \"runs\": %d, \"sets\": %d, \"median_ms\": %.6f, \"min_ms\": %.6f",
            rec->runs, rec->sets, rec->median_ms, rec->min_ms);
    fprintf(f, ", \"max_ms\": %.6f, \"gbps\": %.3f", rec->max_ms, rec->gbps);
    json_ratio(f, "x_cub", rec->x_cub);
    json_ratio(f, "pct_copy", rec->pct_copy);
    json_ratio(f, "pct_floor", rec->pct_floor);
    fprintf(f, ", \"check\": \"%s\",\n     \"phases\": [", rec->check);
    for (size_t p = 0; p < rec->num_phases; p++) {
        fprintf(f, "%s{\"name\": ", p ? ", " : "");
        json_string(f, rec->phases[p].name);
        fprintf(f, ", \"ms\": %.6f}", rec->phases[p].ms);
    }
    fprintf(f, "]}");
}

static void json_sweeps(FILE *f, const bench_report *r) {
    fprintf(f, ",\n  \"sweeps\": [");
    for (size_t i = 0; i < r->num_sweeps; i++) {
        const bench_report_sweep *sw = &r->sweeps[i];
        fprintf(f, "%s\n    {\"tag\": ", i ? "," : "");
        json_string(f, sw->tag);
        fprintf(f, ", \"purpose\": ");
        json_string(f, sw->purpose);
        fprintf(f, ",\n     \"command\": ");
        json_string(f, sw->command);
        fprintf(f, "}");
    }
    fprintf(f, "%s]", r->num_sweeps ? "\n  " : "");
}

/* What the whole run was: the device, the commit, when, how long. */
static void json_header(FILE *f, const bench_report *r) {
    fprintf(f, "{\n  \"tool\": \"compact bench\",\n  \"backend\": ");
    json_string(f, r->backend);
    fprintf(f, ", \"device\": ");
    json_string(f, r->device.name);
    fprintf(f, ", \"driver\": ");
    json_string(f, r->device.driver);
    fprintf(f, ", \"runtime\": ");
    json_string(f, r->device.runtime);
    fprintf(f, ",\n  \"commit\": ");
    json_string(f, r->commit);
    fprintf(f, ", \"date\": ");
    json_string(f, r->date);
    fprintf(f, ", \"elapsed_s\": %.1f, \"quick\": %s, \"complete\": %s", r->elapsed_s,
            r->quick ? "true" : "false", r->num_sweeps && !r->complete ? "false" : "true");
    json_sweeps(f, r);
}

static void write_json(FILE *f, const bench_report *r) {
    json_header(f, r);
    fprintf(f, ",\n  \"gbps_definition\": ");
    json_string(f, BENCH_GBPS_DEFINITION);
    fprintf(f, ",\n  \"x_cub_definition\": ");
    json_string(f, X_CUB_DEFINITION);
    fprintf(f, ",\n  \"pct_copy_definition\": ");
    json_string(f, PCT_COPY_DEFINITION);
    fprintf(f, ",\n  \"records\": [\n");
    for (size_t i = 0; i < r->count; i++) {
        json_record(f, r, &r->records[i]);
        fprintf(f, "%s\n", i + 1 < r->count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
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

static void write_csv(FILE *f, const bench_report *r) {
    fprintf(f, "backend,device,driver,runtime,commit,sweep,algorithm,kind,n,elem_size,removed,"
               "pattern,red_share,removed_count,kept,tile,scan,order,runs,sets,median_ms,min_ms,"
               "max_ms,gbps,x_cub,pct_copy,check,phases,choice\n");
    for (size_t i = 0; i < r->count; i++) csv_record(f, r, &r->records[i]);
}

static int write_atomically(const bench_report *r, const char *path,
                            void (*write)(FILE *, const bench_report *)) {
    size_t len = strlen(path);
    char *tmp = malloc(len + 5);
    if (!tmp) return -1;
    memcpy(tmp, path, len);
    memcpy(tmp + len, ".tmp", 5);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(tmp);
        return -1;
    }
    write(f, r);
    int failed = ferror(f);
    failed |= fclose(f) != 0;
    if (failed || rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    free(tmp);
    return 0;
}

int bench_report_json(const bench_report *r, const char *path) {
    return write_atomically(r, path, write_json);
}

int bench_report_csv(const bench_report *r, const char *path) {
    return write_atomically(r, path, write_csv);
}
