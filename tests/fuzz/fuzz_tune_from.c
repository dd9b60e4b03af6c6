/* fuzz_tune_from.c: `compact bench --tune --from FILE`: the reader of kept --tune measurements
 * (JSON) and the table derived from them, which the library's own parser must accept. Input:
 * the file's bytes. */
#include "../../compaction/bench/bench.h"

#include <stdlib.h>
#include <string.h>

/* The sweep is not part of the target. */
bench_session *bench_session_open(sc_backend backend, int quiet, double max_seconds) {
    (void)backend, (void)quiet, (void)max_seconds;
    abort();
}
int bench_session_sweep(bench_session *s, const bench_opts *o, const char *tag,
                        const char *purpose) {
    (void)s, (void)o, (void)tag, (void)purpose;
    abort();
}
bench_report *bench_session_report(bench_session *s) {
    (void)s;
    abort();
}
int bench_session_close(bench_session *s) {
    (void)s;
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bench_opts o; /* large: not on the stack */
    memset(&o, 0, sizeof o);
    o.tune = 1;
    char *table = NULL;
    size_t len = 0;
    if (bench_tune_derive(&o, "fuzz.json", (const char *)data, size, &table, &len) == 0 && table) {
        char why[256];
        /* every table the tool can derive is one the library reads */
        if (sc_policy_check(table, len, o.backend, why, sizeof why) != SC_OK) abort();
    }
    free(table);
    return 0;
}
