/* cli.h: the subcommands of `compact` and the helpers they share. */
#ifndef SC_CLI_H
#define SC_CLI_H

#include "raycompact/compaction.h"

#include <stddef.h>

int cmd_list(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_policy(int argc, char **argv);

/* Print "compact: unknown algorithm 'x' (valid: a, b, ...)" to stderr. */
void cli_unknown_algorithm(const char *name);
/* Parse a non-negative integer / a fraction in [0,1] (also "30%"); 0 on success. */
int cli_parse_size(const char *s, size_t *out);
int cli_parse_fraction(const char *s, double *out);
/* "hillis-steele" | "blelloch" | "default"; 0 on success. */
int cli_parse_scan(const char *s, sc_scan *out);
int cli_parse_rlz(const char *s, sc_rlz_variant *out);
/* Deterministic xorshift-based generator for masks and data. */
uint64_t cli_rand(uint64_t *state);

#endif
