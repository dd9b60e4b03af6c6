/* test_bench_table.c: the table `compact bench` prints (bench_report_table) with every column
 * filled as a CUDA run fills it, which this test needs no GPU for: the copy, CUB and thrust
 * rows, a driver and a runtime, every algorithm at the largest tile with the longest scan name,
 * auto's longest choices, a mismatch, the widest numbers. Checked: no line passes 100 columns;
 * "-" for x CUB where no CUB row was measured; one "noisy: ..." line right after each row whose
 * runs disagree (made-up min and max: more than 1.5 apart), naming it, and none after the
 * others; auto's choice on its row, and a variant too long for it on a line of its own. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench.h"
#include "check.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST_COUNTERS;

static int noisy_count;

/* One record of the input (n, es, removed, pattern); every third one's runs disagree. */
static void add(bench_report *r, const char *name, int baseline, size_t n, size_t es,
                double removed, const char *pattern, size_t tile, const char *scan,
                const char *order, const char *choice, double median) {
    bench_record rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.algorithm, sizeof rec.algorithm, "%s", name);
    snprintf(rec.pattern, sizeof rec.pattern, "%s", pattern);
    snprintf(rec.choice, sizeof rec.choice, "%s", choice ? choice : "");
    rec.baseline = baseline;
    rec.n = n;
    rec.elem_size = es;
    rec.k = (size_t)(removed * (double)n);
    rec.kept = n - rec.k;
    rec.removed = removed;
    rec.tile = tile;
    rec.scan = scan;
    rec.order = order;
    rec.runs = 21;
    rec.median_ms = median;
    int noisy = r->count % 3 == 1;
    rec.min_ms = noisy ? median / 2 : median;
    rec.max_ms = noisy ? median * 1.1 : median;
    noisy_count += noisy;
    rec.gbps = 99999.9;
    rec.check = baseline ? "-" : "ok";
    bench_report_add(r, &rec);
}

/* The columns a line takes: a UTF-8 character is one. */
static size_t columns(const char *s, size_t len) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++) n += ((unsigned char)s[i] & 0xc0) != 0x80;
    return n;
}

int main(void) {
    bench_report r;
    memset(&r, 0, sizeof r);
    r.backend = "cuda";
    snprintf(r.device.name, sizeof r.device.name, "NVIDIA H100 80GB HBM3");
    snprintf(r.device.driver, sizeof r.device.driver, "580.159.04, CUDA 13.0");
    snprintf(r.device.runtime, sizeof r.device.runtime, "12.8");
    r.commit = "a5539ce-dirty";
    r.graph = r.warm = 1;
    /* a CUDA run's rows of one input, the widest times */
    const size_t n = (size_t)1 << 32;
    const char *pattern = "runs:64";
    add(&r, "copy", 1, n, 256, 0.9, pattern, 0, NULL, NULL, NULL, 100.0);
    add(&r, "cub", 0, n, 256, 0.9, pattern, 0, NULL, NULL, NULL, 200.0);
    add(&r, "thrust-remove-if", 1, n, 256, 0.9, pattern, 0, NULL, NULL, NULL, 9999.9999);
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        if (a->id == SC_ALGO_CUB) continue;
        const char *order = a->input == SC_INPUT_REMOVAL_LIST ? "random" : NULL;
        const char *choice = a->id == SC_ALGO_AUTO ? "binary-tree t2048 hillis-steele" : NULL;
        add(&r, a->name, 0, n, 256, 0.9, pattern, a->tunables & SC_TUNE_TILE ? 2048 : 0,
            a->tunables & SC_TUNE_SCAN ? "hillis-steele" : NULL, order, choice, 10.0);
        if (a->id == SC_ALGO_AUTO) /* the longest variant: a line of its own */
            add(&r, "auto-list", 0, n, 256, 0.9, pattern, 0, NULL, "random", choice, 10.0);
    }
    add(&r, "scatter-limit", 1, n, 256, 0.9, pattern, 0, NULL, "slot", NULL, 10.0);
    add(&r, "thrust-remove-list", 1, n, 256, 0.9, pattern, 0, NULL, "random", NULL, 10.0);
    r.records[4].check = "MISMATCH";
    size_t cuda_rows = r.count;
    /* a CPU run's rows of another input: no CUB row to compare with */
    add(&r, "copy", 1, 1000, 12, 0.3, "random", 0, NULL, NULL, NULL, 0.01);
    add(&r, "serial", 0, 1000, 12, 0.3, "random", 0, NULL, NULL, NULL, 0.02);
    bench_report_ratios(&r);
    r.records[3].pct_floor = 99999.9; /* the widest ratios */
    r.records[3].pct_copy = 9999.9;
    r.records[3].x_cub = 99.99;

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL, "open_memstream");
    if (!f) return test_finish_line("test_bench_table", test_checks, TEST_LINE_OK);
    bench_report_table(&r, f);
    fclose(f);

    int noisy_lines = 0, wrapped = 0, quiet_row = 0, dash = 0;
    const bench_record *last = NULL; /* the record of the row above */
    size_t next = 0;                 /* the next record to find a row of */
    for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        size_t l = end ? (size_t)(end - line) : strlen(line);
        CHECK(columns(line, l) <= 100, "%zu columns: %.*s", columns(line, l), (int)l, line);
        char name[48];
        const bench_record *rec = next < r.count ? &r.records[next] : NULL;
        if (rec) snprintf(name, sizeof name, rec->baseline ? "[%s] " : "%s ", rec->algorithm);
        if (rec && !strncmp(line, name, strlen(name))) {
            CHECK(!(last && timing_noisy(last->min_ms, last->max_ms)) || quiet_row,
                  "no noisy line after %s", last->algorithm);
            last = rec;
            next++;
            quiet_row = 0;
            /* the CPU input's serial row: x CUB (the 4th column) reads "-" */
            if (next == r.count) {
                char a[32], b[32], c[32], x[32];
                dash = sscanf(line, "%31s %31s %31s %31s", a, b, c, x) == 4 && !strcmp(x, "-");
            }
        } else if (!strncmp(line, "  noisy: ", 9)) {
            noisy_lines++;
            CHECK(last && timing_noisy(last->min_ms, last->max_ms) &&
                      !strncmp(line + 9, last->algorithm, strlen(last->algorithm)),
                  "'%.*s' under %s", (int)l, line, last ? last->algorithm : "no row");
            quiet_row = 1; /* said */
            /* auto's choice, as long as a choice of a fixed algorithm gets, fits its row */
            if (!strcmp(rec->algorithm, "auto"))
                CHECK(strstr(line, " binary-tree t2048 hillis-steele"), "auto's row: %.*s", (int)l,
                      line);
        } else if (!strncmp(line, "  variant: ", 11)) {
            wrapped += last && !strcmp(last->algorithm, "auto-list") &&
                       !strncmp(line + 11, "binary-tree t2048 hillis-steele random", 38);
        }
    }
    CHECK(!(last && timing_noisy(last->min_ms, last->max_ms)) || quiet_row,
          "no noisy line after %s", last->algorithm);
    CHECK(next == r.count, "%zu rows of %zu records found", next, r.count);
    CHECK(noisy_lines == noisy_count, "%d noisy lines, %d noisy records", noisy_lines, noisy_count);
    CHECK(wrapped == 1, "auto-list's variant not on a line of its own");
    CHECK(dash, "x CUB of a row without a CUB row to compare with is not '-'");
    CHECK(r.records[cuda_rows - 1].x_cub > 0, "the CUDA rows have x CUB");
    CHECK(text && strstr(text, "\nn=1000 elem=12 removed=0.300 pattern=random\n"),
          "no heading for the second input");
    CHECK(text && strstr(text, "warm: every run on one input set"), "the cache mode not said");
    free(text);
    bench_report_free(&r);
    return test_finish_line("test_bench_table", test_checks, TEST_LINE_OK);
}
