/* compact_cli.h: the subcommands of `compact` and the helpers they share. */
#ifndef SC_CLI_H
#define SC_CLI_H

#include "bench.h" /* cli_unknown_algorithm, cli_parse_scan, cli_rand */
#include "raycompact/compaction.h"
#include "num_parse.h" /* numbers: num_parse_size, num_parse_fraction, ... */

#include <stddef.h>

int cmd_list(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_policy(int argc, char **argv);

/* `compact explain`'s options, checked: the algorithm runs on the CPU backend, and exactly one
 * of mask (only 0s and 1s) and random_n (1..65536) is given. */
typedef struct explain_args {
    const char *mask;
    size_t random_n, seed;
    double removed;
    sc_options opt;
    int offer_list; /* auto: offer the removal list too (--list) */
    const sc_algorithm_info *info;
    /* a CUDA-only algorithm: its scheme, and the CPU algorithm traced in its place */
    const char *scheme;
    const sc_algorithm_info *traced;
} explain_args;
/* 0: run it; 1: --help was printed; -1: a usage error was printed. */
int explain_parse_args(explain_args *e, int argc, char **argv);

/* "doubling" | "tree" | "default"; 0 on success. */
int cli_parse_rlz(const char *s, sc_rlz_variant *out);

#endif
