/* list.c: `compact list`: the algorithm table. */
#include "cli.h"
#include "echo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_unknown_algorithm(const char *name) {
    char valid[1024];
    size_t n = 0;
    for (int i = 0; i < SC_ALGO_COUNT && n < sizeof valid; i++)
        n += (size_t)snprintf(valid + n, sizeof valid - n, "%s %s", i ? "," : "",
                              sc_algorithm_get((sc_algorithm)i)->name);
    echo_line(stderr, "compact: unknown algorithm '%s' (valid:%s)", name, valid);
}

static void tunables(unsigned t, char *buf, size_t cap) {
    buf[0] = 0;
    if (t & SC_TUNE_TILE) strncat(buf, "tile ", cap - strlen(buf) - 1);
    if (t & SC_TUNE_SCAN) strncat(buf, "scan ", cap - strlen(buf) - 1);
    if (t & SC_TUNE_RLZ) strncat(buf, "rlz ", cap - strlen(buf) - 1);
    if (!buf[0]) strncat(buf, "-", cap - 1);
}

int cmd_list(int argc, char **argv) {
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: compact list [--verbose]\n\n"
                   "Prints every algorithm: name, stable (keeps input order), in place, input\n"
                   "(flag stencil or removal list), backends in this build, tunables, paper.\n"
                   "--verbose adds a one-line summary and the timed phases.\n");
            return 0;
        } else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
            verbose = 1;
        } else {
            echo_line(stderr, "compact list: unknown option '%s' (valid: --verbose, --help)",
                      argv[i]);
            return 2;
        }
    }
    printf("%-14s %-7s %-9s %-8s %-10s %-15s %s\n", "name", "stable", "in-place", "input",
           "backends", "tunables", "paper");
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        char be[32] = "", tu[32];
        for (int b = 0; b < SC_BACKEND_COUNT; b++) {
            if (!(a->backends & (1u << b))) continue;
            if (be[0]) strcat(be, ",");
            strcat(be, sc_backend_name((sc_backend)b));
            if (!sc_algorithm_available(a->id, (sc_backend)b)) strcat(be, "*");
        }
        tunables(a->tunables, tu, sizeof tu);
        printf("%-14s %-7s %-9s %-8s %-10s %-15s %s\n", a->name, a->stable ? "yes" : "no",
               a->in_place ? "yes" : "no", a->input == SC_INPUT_FLAGS ? "flags" : "list", be, tu,
               a->paper);
        if (verbose) printf("%14s %s\n%14s phases: %s\n", "", a->summary, "", a->phases);
    }
    int missing = 0;
    for (int i = 0; i < SC_ALGO_COUNT; i++)
        for (int b = 0; b < SC_BACKEND_COUNT; b++)
            if ((sc_algorithm_get((sc_algorithm)i)->backends & (1u << b)) &&
                !sc_algorithm_available((sc_algorithm)i, (sc_backend)b))
                missing = 1;
    if (missing) printf("\n* not compiled into this build (CUDA backend off)\n");
    return 0;
}

int cli_parse_scan(const char *s, sc_scan *out) {
    if (!strcmp(s, "hillis-steele") || !strcmp(s, "hs"))
        *out = SC_SCAN_HILLIS_STEELE;
    else if (!strcmp(s, "blelloch"))
        *out = SC_SCAN_BLELLOCH;
    else if (!strcmp(s, "default"))
        *out = SC_SCAN_DEFAULT;
    else
        return -1;
    return 0;
}

int cli_parse_rlz(const char *s, sc_rlz_variant *out) {
    if (!strcmp(s, "doubling") || !strcmp(s, "recursive-doubling"))
        *out = SC_RLZ_RECURSIVE_DOUBLING;
    else if (!strcmp(s, "tree") || !strcmp(s, "balanced-tree"))
        *out = SC_RLZ_BALANCED_TREE;
    else if (!strcmp(s, "default"))
        *out = SC_RLZ_DEFAULT;
    else
        return -1;
    return 0;
}

uint64_t cli_rand(uint64_t *state) {
    /* splitmix64: every seed, 0 included, gives a good sequence */
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
