/* fuzz_compact_cli.c: the option parsers of `compact bench` and `compact explain` (parse only:
 * nothing is timed or traced). Input: NUL-separated arguments, the first "bench" or
 * "explain". */
#include "../../compaction/bench/bench.h"
#include "../../compaction/bench/bench_partition.h"
#include "../../compaction/tools/compact_cli.h"
#include "fuzz_args.h"

#include <string.h>

/* The sweeps themselves are not part of the target. */
int bench_sweep(const bench_opts *o) {
    (void)o;
    abort();
}
int bench_suite(const bench_opts *o) {
    (void)o;
    abort();
}
int bench_tune(bench_opts *o) {
    (void)o;
    abort();
}
#ifdef SC_HAVE_CUDA
int bench_part_time_cuda(const bench_part_case *c, int sets, bench_part_result *r, char *why,
                         size_t cap) {
    (void)c, (void)sets, (void)r, (void)why, (void)cap;
    abort();
}
size_t bench_part_cuda_cache(char *name, size_t cap) {
    (void)name, (void)cap;
    abort();
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bench_opts o; /* large: not on the stack */
    fuzz_args a;
    if (fuzz_args_split(&a, data, size) != 0) return 0;
    if (strcmp(a.argv[0], "bench") == 0) {
        int part = 0;
        for (int i = 1; i < a.argc; i++) part |= strcmp(a.argv[i], "--partition") == 0;
        if (part)
            bench_partition_check_args(a.argc - 1, a.argv + 1);
        else
            bench_parse_args(&o, a.argc, a.argv);
    } else {
        explain_args e;
        explain_parse_args(&e, a.argc, a.argv);
    }
    fuzz_args_free(&a);
    return 0;
}
