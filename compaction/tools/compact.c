/* compact: list, explain, benchmark and tune the compaction library's algorithms. */
#include "bench.h"
#include "bench_partition.h"
#include "compact_cli.h"
#include "echo.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f) {
    fprintf(f, "usage: compact <command> [options]\n"
               "\n"
               "Stream compaction algorithms from the papers, on the CPU and on CUDA GPUs.\n"
               "\n"
               "commands:\n"
               "  list               the algorithm table: paper, stable?, in place?, backends\n"
               "  explain ALGO ...   trace one algorithm pass by pass on a small stream\n"
               "  bench ...          time algorithms against CUB and the copy limit\n"
               "  tune ...           measure a grid and write auto's policy table\n"
               "  policy ...         show or check auto's policy tables\n"
               "\n"
               "Run 'compact <command> --help' for a command's options.\n"
               "\n"
               "Exit status: 0 ok; 1 a failure while running (--backend cuda where this build\n"
               "has no CUDA backend or no device is usable among them, as in raycompact); 2 bad\n"
               "usage or bad input, in one line; 3 (bench) a result differed from the serial\n"
               "reference.\n");
}

/* `compact bench` and `compact tune`: the harness in compaction/bench does the work. */
static int cmd_bench(int argc, char **argv) {
    static bench_opts o; /* large (patterns hold paths): not on the stack */
    int p = bench_parse_args(&o, argc, argv);
    if (p) return p > 0 ? 0 : BENCH_EXIT_USAGE;
    if (o.tune) return bench_tune(&o);
    if (o.partition) return bench_partition(&o);
    return o.report ? bench_suite(&o) : bench_sweep(&o);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("compact %d.%d\n", SC_VERSION_MAJOR, SC_VERSION_MINOR);
        return 0;
    }
    if (!strcmp(cmd, "list")) return cmd_list(argc - 1, argv + 1);
    if (!strcmp(cmd, "explain")) return cmd_explain(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench") || !strcmp(cmd, "tune")) return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "policy")) return cmd_policy(argc - 1, argv + 1);
    echo_line(stderr, "compact: unknown command '%s' (valid: list, explain, bench, tune, policy)",
              cmd);
    return 2;
}
