/* list.c: `compact list`: the algorithm table. */
#include "bench.h"
#include "compact_cli.h"
#include "echo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every line of the tables fits in this many columns; the paper's column starts at
 * LIST_PAPER. */
#define LIST_COLUMNS 100
#define LIST_PAPER   62

static void tunables(unsigned t, char *buf, size_t cap) {
    buf[0] = 0;
    if (t & SC_TUNE_TILE) strncat(buf, "tile ", cap - strlen(buf) - 1);
    if (t & SC_TUNE_SCAN) strncat(buf, "scan ", cap - strlen(buf) - 1);
    if (t & SC_TUNE_RLZ) strncat(buf, "rlz ", cap - strlen(buf) - 1);
    size_t len = strlen(buf);
    if (len) buf[len - 1] = 0; /* the last space */
    if (!buf[0]) strncat(buf, "-", cap - 1);
}

/* 1 if `a` is compiled in for every backend named in the comma list `backends`. */
static int available_on(const sc_algorithm_info *a, const char *backends) {
    for (const char *p = backends; *p;) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int b = 0; b < SC_BACKEND_COUNT; b++) {
            const char *name = sc_backend_name((sc_backend)b);
            if (strlen(name) == len && !strncmp(p, name, len)) {
                found = 1;
                if (!sc_algorithm_available(a->id, (sc_backend)b)) return 0;
            }
        }
        if (!found) return -1;
        p += len + (p[len] == ',');
    }
    return 1;
}

/* --names: one name a line, for scripts (the tests' and the plots' algorithm lists). */
static int list_names(const char *backends, const char *input, int stable) {
    if (input && strcmp(input, "flags") && strcmp(input, "list")) {
        fprintf(stderr, "compact list: --input: '%s' is not one of: flags, list\n", input);
        return 2;
    }
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        int ok = backends ? available_on(a, backends) : 1;
        if (ok < 0) {
            fprintf(stderr, "compact list: --backend: '%s' is not a list of: cpu, cuda\n",
                    backends);
            return 2;
        }
        if (input && a->input != SC_INPUT_ANY &&
            (a->input == SC_INPUT_FLAGS) != !strcmp(input, "flags"))
            ok = 0; /* auto (any input) takes either */
        if (stable && !a->stable) ok = 0;
        if (ok) printf("%s\n", a->name);
    }
    return 0;
}

/* --models: each algorithm's traffic model (bench_model.c), the floor `compact bench` measures
 * "% floor" against. */
static int list_models(void) {
    printf(
        "traffic model: the bytes each algorithm's passes move at the least (n elements of E\n"
        "bytes, m kept, k = n - m removed; a flag is 1 byte, an index 4); the floor is that\n"
        "many bytes at the measured copy bandwidth. Bytes for n = 2^20, E = 4, half removed:\n\n");
    size_t n = (size_t)1 << 20;
    for (int i = 0; i < SC_ALGO_COUNT; i++) {
        const sc_algorithm_info *a = sc_algorithm_get((sc_algorithm)i);
        const char *passes = bench_model_passes(a->name);
        if (!passes) continue;
        printf("%-14s %6.2f MB  ", a->name, bench_model_bytes(a->name, n, 4, n / 2) / 1e6);
        echo_wrapped(stdout, passes, LIST_COLUMNS - 26, 26);
    }
    printf("%-14s %6.2f MB  ", "[copy]", bench_model_bytes("copy", n, 4, n / 2) / 1e6);
    echo_wrapped(stdout, bench_model_passes("copy"), LIST_COLUMNS - 26, 26);
    return 0;
}

int cmd_list(int argc, char **argv) {
    int verbose = 0, names = 0, stable = 0;
    const char *backends = NULL, *input = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf(
                "usage: compact list [--verbose]\n"
                "       compact list --models\n"
                "       compact list --names [--backend B[,B]] [--input flags|list] [--stable]\n\n"
                "Prints every algorithm: name, stable (keeps input order), in place, input\n"
                "(flag stencil or removal list), backends in this build, tunables, paper.\n"
                "--verbose adds a one-line summary and the timed phases.\n"
                "--models prints each algorithm's traffic model (bench's %% floor).\n"
                "--names prints only the names, one a line: with --backend those this build\n"
                "has on every backend listed (cpu, cuda), with --input those of that input\n"
                "(auto takes either), with --stable the stable ones.\n"
                "auto chooses per call among the others by a policy table (stable\n"
                "only when asked): see 'compact policy'.\n");
            return 0;
        } else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
            verbose = 1;
        } else if (!strcmp(argv[i], "--models")) {
            return list_models();
        } else if (!strcmp(argv[i], "--names")) {
            names = 1;
        } else if (!strcmp(argv[i], "--stable")) {
            stable = 1;
        } else if ((!strcmp(argv[i], "--backend") || !strcmp(argv[i], "--input")) && i + 1 < argc) {
            *(argv[i][2] == 'b' ? &backends : &input) = argv[i + 1];
            i++;
        } else {
            echo_line(stderr,
                      "compact list: unknown option '%s' (valid: --verbose, --models, --names, "
                      "--backend, --input, --stable, --help)",
                      argv[i]);
            return 2;
        }
    }
    if (names) return list_names(backends, input, stable);
    if (backends || input || stable) {
        fprintf(stderr, "compact list: --backend, --input and --stable go with --names\n");
        return 2;
    }
    /* Within 100 columns: the paper, and with --verbose the summary and the phases, folded at
     * their spaces under their own column. */
    printf("%-14s %-6s %-8s %-5s %-9s %-13s  %s\n", "name", "stable", "in-place", "input",
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
        printf("%-14s %-6s %-8s %-5s %-9s %-13s  ", a->name, a->stable ? "yes" : "no",
               a->in_place ? "yes" : "no",
               a->input == SC_INPUT_FLAGS ? "flags"
               : a->input == SC_INPUT_ANY ? "any"
                                          : "list",
               be, tu);
        echo_wrapped(stdout, a->paper, LIST_COLUMNS - LIST_PAPER, LIST_PAPER);
        if (verbose) {
            char phases[512];
            snprintf(phases, sizeof phases, "phases: %s", a->phases);
            printf("%15s", "");
            echo_wrapped(stdout, a->summary, LIST_COLUMNS - 15, 15);
            printf("%15s", "");
            echo_wrapped(stdout, phases, LIST_COLUMNS - 15, 15);
        }
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
