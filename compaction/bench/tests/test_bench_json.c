/* test_bench_json.c: the bench JSON (bench_report_write, through cJSON) read back by cJSON: the
 * numbers rounded as the report states them, strings escaped, null where a value does not
 * apply, and null (valid JSON) for non-finite times; the noise rule's fields (the JSON's
 * only: the CSV keeps its columns). Usage: test_bench_json DIR (scratch). */
#include "bench.h"
#include "check.h"
#include "read_file.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST_COUNTERS;

static const cJSON *field(const cJSON *o, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v) fprintf(stderr, "FAIL: no field '%s'\n", key);
    return v;
}

static void number_is(const cJSON *o, const char *key, double want) {
    const cJSON *v = field(o, key);
    CHECK(v && cJSON_IsNumber(v) && v->valuedouble == want, "%s: want %.17g, got %s", key, want,
          v && cJSON_IsNumber(v) ? "another number" : "no number");
}

static void null_is(const cJSON *o, const char *key) {
    const cJSON *v = field(o, key);
    CHECK(v && cJSON_IsNull(v), "%s: want null", key);
}

static void string_is(const cJSON *o, const char *key, const char *want) {
    const cJSON *v = field(o, key);
    CHECK(v && cJSON_IsString(v) && !strcmp(v->valuestring, want), "%s: want '%s'", key, want);
}

static void fill(bench_report *r, const bench_report_sweep *sweep) {
    memset(r, 0, sizeof *r);
    r->backend = "cpu";
    snprintf(r->device.name, sizeof r->device.name, "a \"quoted\" CPU\twith\\tab");
    r->commit = "abc1234";
    snprintf(r->date, sizeof r->date, "2026-11-23T00:00:00Z");
    r->elapsed_s = 12.345;
    r->quick = 1;
    r->complete = 0;
    r->sweeps = sweep;
    r->num_sweeps = 1;
    bench_record rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.algorithm, sizeof rec.algorithm, "redzone");
    snprintf(rec.pattern, sizeof rec.pattern, "runs:8");
    rec.sweep = "density";
    rec.n = (size_t)1 << 40; /* beyond int, exact in a double */
    rec.elem_size = 4;
    rec.k = 7;
    rec.kept = 9;
    rec.removed = 0.123456789;
    rec.red_share = 0.25;
    rec.order = "random";
    rec.runs = 21;
    rec.sets = 3;
    rec.median_ms = 1.23456789;
    rec.min_ms = 0.0000004; /* rounds to 0 at the nanosecond */
    rec.max_ms = 2.0;
    rec.gbps = 123.45678;
    rec.x_cub = 0.5;
    rec.pct_copy = -1.0;
    rec.pct_floor = 42.00004;
    rec.check = "ok";
    rec.num_phases = 2;
    rec.phases[0].name = "mark";
    rec.phases[0].ms = 0.1234564;
    rec.phases[1].name = "pair";
    rec.phases[1].ms = 0.5;
    bench_report_add(r, &rec);
    /* a second record whose times are not finite: null, and the file still parses */
    rec.median_ms = NAN;
    rec.min_ms = -INFINITY;
    rec.max_ms = INFINITY;
    rec.gbps = NAN;
    rec.x_cub = INFINITY;
    rec.pct_floor = NAN;
    rec.phases[1].ms = NAN;
    rec.tile = 256;
    rec.sweep = NULL;
    rec.check = "MISMATCH";
    bench_report_add(r, &rec);
}

static void check_header(const cJSON *root) {
    string_is(root, "tool", "compact bench");
    string_is(root, "backend", "cpu");
    string_is(root, "device", "a \"quoted\" CPU\twith\\tab");
    null_is(root, "driver");
    number_is(root, "elapsed_s", 12.3);
    CHECK(cJSON_IsTrue(field(root, "quick")), "quick: want true");
    CHECK(cJSON_IsFalse(field(root, "complete")), "complete: want false");
    const cJSON *sweeps = field(root, "sweeps");
    CHECK(cJSON_GetArraySize(sweeps) == 1, "one sweep");
    const cJSON *s = cJSON_GetArrayItem(sweeps, 0);
    if (s) {
        string_is(s, "tag", "size");
        null_is(s, "purpose");
        string_is(s, "command", "compact bench --n 2^16");
    }
    string_is(root, "x_cub_definition", "x_cub = CUB median / this median (> 1: faster than CUB)");
}

static void check_records(const cJSON *root) {
    const cJSON *records = field(root, "records");
    CHECK(cJSON_GetArraySize(records) == 2, "two records");
    const cJSON *a = cJSON_GetArrayItem(records, 0), *b = cJSON_GetArrayItem(records, 1);
    if (!a || !b) return;
    string_is(a, "sweep", "density");
    string_is(a, "kind", "algorithm");
    number_is(a, "n", 1099511627776.0);
    number_is(a, "removed", 0.123457);
    number_is(a, "red_share", 0.25);
    number_is(a, "removed_count", 7);
    null_is(a, "tile");
    null_is(a, "scan");
    string_is(a, "order", "random");
    null_is(a, "choice");
    number_is(a, "median_ms", 1.234568);
    number_is(a, "min_ms", 0.0);
    number_is(a, "gbps", 123.457);
    number_is(a, "x_cub", 0.5);
    null_is(a, "pct_copy");
    number_is(a, "pct_floor", 42.0);
    /* the noise rule: 2 ms over 0.4 ns is noisy; the non-finite times give no ratio */
    number_is(a, "max_over_min", 5000000.0);
    CHECK(cJSON_IsTrue(field(a, "noisy")), "noisy: want true");
    const cJSON *ph = cJSON_GetArrayItem(field(a, "phases"), 0);
    if (ph) {
        string_is(ph, "name", "mark");
        number_is(ph, "ms", 0.123456);
    }
    null_is(b, "sweep");
    number_is(b, "tile", 256);
    string_is(b, "check", "MISMATCH");
    const char *nonfinite[] = {"median_ms", "min_ms", "max_ms", "gbps", "x_cub", "pct_floor"};
    for (size_t i = 0; i < sizeof nonfinite / sizeof *nonfinite; i++) null_is(b, nonfinite[i]);
    null_is(b, "max_over_min");
    CHECK(cJSON_IsFalse(field(b, "noisy")), "noisy: want false");
    ph = cJSON_GetArrayItem(field(b, "phases"), 1);
    if (ph) null_is(ph, "ms");
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_bench_json DIR\n");
        return 2;
    }
    static const bench_report_sweep sweep = {"size", NULL, "compact bench --n 2^16"};
    bench_report r;
    fill(&r, &sweep);
    char path[4096];
    snprintf(path, sizeof path, "%s/bench.json", argv[1]);
    CHECK(bench_report_write(&r, BENCH_JSON, path, NULL) == 0, "cannot write %s", path);
    size_t text_len = 0;
    char *text = read_file(path, (size_t)-1, &text_len, NULL, 0);
    cJSON *root = text ? cJSON_Parse(text) : NULL;
    CHECK(root, "%s does not parse as JSON", path);
    if (root) {
        check_header(root);
        check_records(root);
    }
    cJSON_Delete(root);
    free(text);
    /* the CSV keeps its columns: the noise fields are the JSON's only */
    snprintf(path, sizeof path, "%s/bench.csv", argv[1]);
    CHECK(bench_report_write(&r, BENCH_CSV, path, NULL) == 0, "cannot write %s", path);
    text = read_file(path, (size_t)-1, &text_len, NULL, 0);
    const char *header =
        "backend,device,driver,runtime,commit,sweep,algorithm,kind,n,elem_size,removed,pattern,"
        "red_share,removed_count,kept,tile,scan,order,runs,sets,median_ms,min_ms,max_ms,gbps,"
        "x_cub,pct_copy,check,phases,choice\n";
    CHECK(text && !strncmp(text, header, strlen(header)), "CSV header: %.300s", text ? text : "");
    free(text);
    /* a path that cannot be written: an error, and nothing left behind */
    snprintf(path, sizeof path, "%s/no such dir/bench.json", argv[1]);
    CHECK(bench_report_write(&r, BENCH_JSON, path, NULL) == -1,
          "writing into a missing directory succeeded");
    bench_report_free(&r);
    return test_finish_line("test_bench_json", test_checks, TEST_LINE_OK);
}
