/* policy_cmd.c: `compact policy`: print a built-in policy table of auto, check one, or say what
 * auto chooses by one over a grid of calls (the library's own matching, sc_policy_decide). */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r */
#include "compact_cli.h"
#include "echo.h"
#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void policy_usage(FILE *f) {
    fprintf(f,
            "usage: compact policy show NAME\n"
            "       compact policy check FILE [--backend cpu|cuda]\n"
            "       compact policy choose FILE|NAME --n LIST --removed LIST [--elem E]\n"
            "                             [--input flags|list|any] [--stable] [--backend B]\n"
            "\n"
            "auto (SC_ALGO_AUTO) chooses an algorithm per call by a policy table (JSON).\n"
            "Built in: cpu (the CPU backend), sm_90 (H100), cuda (other GPUs). A table of\n"
            "your own comes from 'compact tune --out FILE' and is used through\n"
            "SC_POLICY=FILE or sc_options.policy.\n"
            "\n"
            "  show NAME      print the built-in table NAME\n"
            "  check FILE     read FILE as the library does: 'ok' or the first error\n"
            "  choose T       auto's choice by table T (a file, or a built-in NAME) for each\n"
            "                 call of n elements (--n, comma-separated, 2^k allowed) of E bytes\n"
            "                 (--elem, default 4) with a removed fraction (--removed), offered\n"
            "                 flags, a removal list or both (--input, default flags), stable\n"
            "                 order required or not (--stable), as JSON: \"choices\", a list of\n"
            "                 [algorithm, rule] (rule -1: the fallback order; algorithm null:\n"
            "                 none can run it), and \"cells\", one row per --removed value of\n"
            "                 indices into it, one per --n value\n"
            "  --backend B    the backend the table must be for (default cuda in a CUDA\n"
            "                 build, else cpu)\n");
}

/* A comma-separated list of sizes (fractions: `fraction` set) into a malloc'ed array. No item
 * may be empty; a value may repeat (the grid's rows and columns are queries, answered in the
 * order given, not runs to time). */
static int parse_list(const char *opt, const char *v, int fraction, double **out, size_t *count) {
    size_t len = strlen(v);
    if (!len || v[0] == ',' || v[len - 1] == ',' || strstr(v, ",,")) {
        echo_line(stderr,
                  "compact policy: %s: '%s' has an empty item (a comma at the start or the end, "
                  "or two in a row)",
                  opt, v);
        return -1;
    }
    size_t cap = 1;
    for (const char *c = v; *c; c++) cap += *c == ',';
    double *x = malloc(cap * sizeof *x);
    char *copy = strdup(v);
    size_t n = 0;
    for (char *save = NULL, *tok = copy ? strtok_r(copy, ",", &save) : NULL; x && tok;
         tok = strtok_r(NULL, ",", &save)) {
        size_t z = 0;
        if (fraction ? num_parse_fraction(tok, &x[n]) : num_parse_size(tok, &z) || z == 0) {
            echo_line(stderr, "compact policy: bad %s '%s' (valid: %s)", opt, tok,
                      fraction ? "fractions 0..1" : "counts >= 1");
            n = 0;
            break;
        }
        if (!fraction) x[n] = (double)z;
        n++;
    }
    free(copy);
    free(*out);
    *out = x;
    *count = n;
    return n ? 0 : -1;
}

/* The grid as JSON on stdout: the distinct choices, then one row of indices per fraction. */
static int print_choices(const sc_policy_query *q, size_t rows, size_t cols) {
    size_t distinct = 0,
           *first = malloc(rows * cols * sizeof *first); /* each choice's first cell */
    if (!first) return 1;
    printf("{\n  \"choices\": [");
    for (size_t i = 0; i < rows * cols; i++) {
        size_t j = 0;
        while (j < distinct && (q[first[j]].algo != q[i].algo || q[first[j]].rule != q[i].rule))
            j++;
        if (j < distinct) continue;
        const sc_algorithm_info *info = sc_algorithm_get(q[i].algo);
        printf("%s[%s%s%s, %d]", distinct ? ", " : "", info ? "\"" : "", info ? info->name : "null",
               info ? "\"" : "", q[i].rule);
        first[distinct++] = i;
    }
    printf("],\n  \"cells\": [");
    for (size_t r = 0; r < rows; r++) {
        printf("%s\n    [", r ? "," : "");
        for (size_t c = 0; c < cols; c++) {
            const sc_policy_query *x = &q[r * cols + c];
            size_t j = 0;
            while (q[first[j]].algo != x->algo || q[first[j]].rule != x->rule) j++;
            printf("%s%zu", c ? "," : "", j);
        }
        printf("]");
    }
    printf("\n  ]\n}\n");
    free(first);
    return 0;
}

typedef struct choose_args {
    double *n, *removed;
    size_t num_n, num_removed, elem;
    sc_input input;
    int stable;
} choose_args;

/* One option of `compact policy choose`; 0 if taken, -1 after a message. */
static int choose_option(choose_args *c, const char *a, const char *v) {
    if (!strcmp(a, "--n")) return parse_list(a, v, 0, &c->n, &c->num_n);
    if (!strcmp(a, "--removed")) return parse_list(a, v, 1, &c->removed, &c->num_removed);
    if (!strcmp(a, "--elem") && !num_parse_size(v, &c->elem) && c->elem > 0) return 0;
    if (!strcmp(a, "--input")) {
        c->input = !strcmp(v, "flags")  ? SC_INPUT_FLAGS
                   : !strcmp(v, "list") ? SC_INPUT_REMOVAL_LIST
                   : !strcmp(v, "any")  ? SC_INPUT_ANY
                                        : (sc_input)-1;
        if ((int)c->input >= 0) return 0;
    }
    echo_line(stderr, "compact policy: bad %s '%s'", a, v);
    return -1;
}

/* Each (removed, n) call of the grid through the library's own matching. */
static int choose(const char *name, const char *text, size_t len, sc_backend backend,
                  const choose_args *c) {
    const size_t rows = c->num_removed, cols = c->num_n;
    sc_policy_query *q = calloc(rows * cols, sizeof *q);
    if (!q) return 1;
    for (size_t r = 0; r < rows; r++)
        for (size_t k = 0; k < cols; k++) {
            sc_policy_query *x = &q[r * cols + k];
            x->n = (size_t)c->n[k];
            x->elem_size = c->elem;
            x->removed = c->removed[r];
            x->input = c->input;
            x->require_stable = c->stable;
        }
    char why[320];
    sc_status s = sc_policy_decide(text, len, backend, q, rows * cols, why, sizeof why);
    int rc = s == SC_OK ? print_choices(q, rows, cols) : 1;
    if (s != SC_OK)
        fprintf(stderr, "compact policy: %s: %s\n", name,
                s == SC_ERR_POLICY ? why : sc_status_string(s));
    free(q);
    return rc;
}

/* `show NAME` and `check FILE`. */
static int show_or_check(const char *verb, const char *arg, sc_backend backend) {
    if (!strcmp(verb, "show")) {
        const char *text = sc_policy_builtin(arg);
        if (!text) {
            fprintf(stderr, "compact policy: no built-in table '%s' (valid: cpu, sm_90, cuda)\n",
                    arg);
            return 2;
        }
        fputs(text, stdout);
        return 0;
    }
    size_t len = 0;
    char why[128];
    char *text = read_file(arg, (size_t)1 << 20, &len, why, sizeof why);
    if (!text) {
        fprintf(stderr, "compact policy: cannot read %s: %s\n", arg,
                errno == EFBIG ? "larger than 1 MiB" : why);
        return 1;
    }
    char bad[320];
    sc_status s = sc_policy_check(text, len, backend, bad, sizeof bad);
    free(text);
    if (s != SC_OK) {
        fprintf(stderr, "compact policy: %s: %s\n", arg,
                s == SC_ERR_POLICY ? bad : sc_status_string(s));
        return 1;
    }
    printf("%s: ok (%s backend)\n", arg, sc_backend_name(backend));
    return 0;
}

int cmd_policy(int argc, char **argv) {
#ifdef SC_HAVE_CUDA
    sc_backend backend = SC_BACKEND_CUDA;
#else
    sc_backend backend = SC_BACKEND_CPU;
#endif
    const char *verb = NULL, *arg = NULL;
    choose_args c = {NULL, NULL, 0, 0, 4, SC_INPUT_FLAGS, 0};
    int rc = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            policy_usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--backend")) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (!strcmp(v, "cpu") || !strcmp(v, "cuda")) {
                backend = v[1] == 'p' ? SC_BACKEND_CPU : SC_BACKEND_CUDA;
                continue;
            }
            fprintf(stderr, "compact policy: --backend wants cpu or cuda, got '%s'\n", v);
            goto done;
        }
        if (!strcmp(a, "--stable")) {
            c.stable = 1;
            continue;
        }
        if (a[0] == '-' && i + 1 < argc && strchr("nrei", a[2]) && a[1] == '-') {
            if (choose_option(&c, a, argv[++i])) goto done;
            continue;
        }
        if (a[0] == '-') {
            fprintf(stderr,
                    "compact policy: unknown option '%s' (valid: --backend, --n, --removed, "
                    "--elem, --input, --stable, --help)\n",
                    a);
            goto done;
        }
        if (!verb) {
            verb = a;
        } else if (!arg) {
            arg = a;
        } else {
            fprintf(stderr, "compact policy: unexpected argument '%s'\n", a);
            goto done;
        }
    }
    if (!verb || !arg ||
        (strcmp(verb, "show") && strcmp(verb, "check") && strcmp(verb, "choose"))) {
        policy_usage(stderr);
        goto done;
    }
    if (!strcmp(verb, "choose")) {
        if (!c.num_n || !c.num_removed) {
            fprintf(stderr, "compact policy: choose needs --n LIST and --removed LIST\n");
            goto done;
        }
        const char *builtin = sc_policy_builtin(arg);
        size_t len = 0;
        char why[128];
        char *text = builtin ? NULL : read_file(arg, (size_t)1 << 20, &len, why, sizeof why);
        if (!builtin && !text) {
            fprintf(stderr, "compact policy: cannot read %s: %s\n", arg,
                    errno == EFBIG ? "larger than 1 MiB" : why);
            rc = 1;
            goto done;
        }
        rc = choose(arg, builtin ? builtin : text, builtin ? strlen(builtin) : len, backend, &c);
        free(text);
        goto done;
    }
    rc = show_or_check(verb, arg, backend);
done:
    free(c.n);
    free(c.removed);
    return rc;
}
