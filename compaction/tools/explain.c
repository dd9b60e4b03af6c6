/* explain.c: `compact explain ALGO`: run one algorithm on the CPU backend on a small stream
 * and print its intermediate arrays pass by pass, as the papers draw them. */
#include "compact_cli.h"
#include "echo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Moreira et al. 2009 (Jumping Jack), Fig. 7: 6 of 16 elements kept; holes 0, 3, 4 are filled
 * from 6, 10, 13 after 2, 7 and 1 search steps. */
#define EXPLAIN_DEFAULT_MASK "0110011000100100"

static void explain_usage(FILE *f) {
    fprintf(
        f,
        "usage: compact explain ALGO [--mask BITS | --random N [--removed F] [--seed S]]\n"
        "                       [--tile B] [--scan hillis-steele|blelloch] [--rlz "
        "doubling|tree]\n"
        "                       [--list] [--stable] [--policy FILE]\n"
        "\n"
        "Runs ALGO on the CPU backend (the specification) and prints its passes: pSum,\n"
        "MAS and each jump, run lengths and pRLSum, tree levels and each traversal,\n"
        "Redzone's red zone, orphans and their pairing; then the result, checked\n"
        "against the serial reference. Element i holds the value i. With neither\n"
        "--mask nor --random, the stream of the Jumping Jack paper's Fig. 7 (" EXPLAIN_DEFAULT_MASK
        ").\n"
        "An algorithm the CPU backend lacks (CUDA only) is described by its scheme,\n"
        "and the trace is that of the CPU algorithm that computes the same result.\n"
        "\n"
        "  --mask BITS     the stream's flags, 1 = keep, e.g. 1001101000110101\n"
        "  --random N      N random flags instead (N <= 65536)\n"
        "  --removed F     fraction removed with --random, 0..1 or 30%% (default 0.3)\n"
        "  --seed S        random seed (default 1)\n"
        "  --tile B        tile size, power of two 32..2048 (default 32 for explain)\n"
        "  --scan V        hillis-steele | blelloch | default\n"
        "  --rlz V         RLZ run lengths: doubling (Alg. 2) | tree (Alg. 3-4)\n"
        "\n"
        "  --list          auto: offer the removal list too (Redzone becomes a choice)\n"
        "  --stable        require a stable order (auto chooses a stable algorithm)\n"
        "  --policy FILE   auto: the policy table to choose by (default: built in)\n"
        "\n"
        "Redzone algorithms take the removed indices (the 0s) as their removal list.\n"
        "auto traces the algorithm it chose, then says which and why.\n");
}

/* CUDA-only algorithms: their scheme, and the CPU algorithm whose result they give. */
static const struct {
    sc_algorithm algo, twin;
    const char *scheme;
} k_cuda_only[] = {
    {SC_ALGO_CUB, SC_ALGO_SCAN_SCATTER,
     "cub::DeviceSelect::Flagged: one pass, tiles scanned with a decoupled look-back across "
     "blocks, kept elements written in order"},
    {SC_ALGO_SINGLE_PASS, SC_ALGO_SCAN_SCATTER,
     "one kernel: each tile counts its kept flags, takes its offset by a decoupled look-back "
     "over the tiles before it, and writes its kept elements in order"},
};

/* "label       : text", the text folded at spaces into pieces of at most 78 columns. */
static void print_wrapped(const char *label, const char *text) {
    printf("%-12s: ", label);
    echo_wrapped(stdout, text, 78, 14);
}

/* Every line fits in this many columns: a row of values ("flags       :   1   0 ...") folds
 * after every VALUES_PER_LINE values, its next line under the first value; other text folds
 * at its spaces. */
#define EXPLAIN_COLUMNS 100
#define VALUES_PER_LINE 16

/* 1 if `s` is a row's values: numbers, "." (an idle lane) and "...", between spaces. */
static int is_values(const char *s) {
    return s[strspn(s, " 0123456789.")] == 0 && strspn(s, " ") < strlen(s);
}

/* `line`, `indent` spaces before it, folded to fit EXPLAIN_COLUMNS. */
static void print_folded(int indent, const char *line) {
    const char *colon = strchr(line, ':');
    int label = colon ? (int)(colon - line) + 1 : 0;
    if (indent + strlen(line) <= EXPLAIN_COLUMNS) {
        printf("%*s%s\n", indent, "", line);
    } else if (colon && label <= 14 && is_values(colon + 1)) {
        printf("%*s%.*s", indent, "", label, line);
        int count = 0;
        for (const char *p = colon + 1; *(p += strspn(p, " ")); count++) {
            int w = (int)strcspn(p, " ");
            if (count && count % VALUES_PER_LINE == 0) printf("\n%*s", indent + label, "");
            printf(" %*.*s", w < 3 ? 3 : w, w, p);
            p += w;
        }
        printf("\n");
    } else {
        printf("%*s", indent, "");
        echo_wrapped(stdout, line, EXPLAIN_COLUMNS - indent - 14, indent + 14);
    }
}

static void print_line(void *user, const char *line) {
    (void)user;
    print_folded(2, line);
}

static void print_values(const char *label, const uint32_t *v, size_t n) {
    char line[1024];
    size_t pos = (size_t)snprintf(line, sizeof line, "%-12s:", label);
    for (size_t i = 0; i < n && i < 64; i++)
        pos += (size_t)snprintf(line + pos, sizeof line - pos, " %3u", v[i]);
    if (n > 64) snprintf(line + pos, sizeof line - pos, " ...");
    print_folded(0, line);
}

static void print_flags(const uint8_t *flags, size_t n) {
    uint32_t v[64] = {0};
    for (size_t i = 0; i < n && i < 64; i++) v[i] = flags[i];
    print_values("flags", v, n);
}

/* The options that take a value, so that a misspelt one is reported as unknown even last. */
static int is_option(const char *a) {
    static const char *const k[] = {"--mask", "--random", "--removed", "--seed",
                                    "--tile", "--scan",   "--rlz",     "--policy"};
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (!strcmp(a, k[i])) return 1;
    return 0;
}

/* Position of the first character of a --mask other than 0 and 1, or -1. */
static long bad_mask_char(const char *mask) {
    size_t n = strspn(mask, "01");
    return mask[n] ? (long)n : -1;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The result and its check against the serial reference ref; 1 when they agree. out is
 * scratch of kept elements for the sort of an unstable result. */
static int print_result(const sc_algorithm_info *info, const uint32_t *result, size_t kept,
                        uint32_t *out, const uint32_t *ref, size_t ref_kept) {
    printf("\nresult (%zu kept)\n", kept);
    print_values("output", result, kept);
    int same = kept == ref_kept;
    if (same && info->stable) {
        same = memcmp(result, ref, kept * sizeof *ref) == 0;
    } else if (same) {
        if (result != out) memcpy(out, result, kept * sizeof *out);
        qsort(out, kept, sizeof *out, cmp_u32);
        same = memcmp(out, ref, kept * sizeof *ref) == 0;
    }
    printf("check       : %s the serial reference%s\n", same ? "matches" : "DIFFERS FROM",
           info->stable ? "" : " (as a set: the algorithm is unstable)");
    return same;
}

static const char *const k_sources[] = {"exact, from the removal list", "the caller's hint",
                                        "the previous call", "a sample of the flags",
                                        "the policy's default"};

/* auto: what it chose and why; returns the chosen algorithm's info. */
static const sc_algorithm_info *print_choice(const sc_context *ctx) {
    sc_choice c;
    if (sc_last_choice(ctx, &c) != SC_OK) return sc_algorithm_get(SC_ALGO_AUTO);
    const sc_algorithm_info *chosen = sc_algorithm_get(c.algo);
    char head[384], tail[96];
    int n = snprintf(head, sizeof head, "auto chose %s", chosen->name);
    if ((chosen->tunables & SC_TUNE_TILE) && n > 0 && (size_t)n < sizeof head)
        n += snprintf(head + n, sizeof head - (size_t)n, ", tile %zu", c.tile);
    if ((chosen->tunables & SC_TUNE_SCAN) && n > 0 && (size_t)n < sizeof head)
        n += snprintf(head + n, sizeof head - (size_t)n, ", scan %s",
                      c.scan == SC_SCAN_HILLIS_STEELE ? "hillis-steele" : "blelloch");
    if (n > 0 && (size_t)n < sizeof head && c.rule >= 0)
        snprintf(head + n, sizeof head - (size_t)n, " (policy %s, rule %d",
                 c.policy ? c.policy : "?", c.rule);
    else if (n > 0 && (size_t)n < sizeof head)
        snprintf(head + n, sizeof head - (size_t)n, " (policy %s: no rule matched, fallback",
                 c.policy ? c.policy : "?");
    snprintf(tail, sizeof tail, "removed %.3f from %s)", c.removed, k_sources[c.source]);
    /* the choice and its rule on one line; why it was made on the next if both do not fit */
    if (2 + strlen(head) + 2 + strlen(tail) <= EXPLAIN_COLUMNS)
        printf("  %s; %s\n", head, tail);
    else
        printf("  %s;\n    %s\n", head, tail);
    return chosen;
}

/* "compact explain: --OPTION wants WHAT, got 'VALUE'" on stderr; -1. */
static int bad_value(const char *wants, const char *v) {
    echo_line(stderr, "compact explain: %s, got '%s'", wants, v);
    return -1;
}

/* "compact explain: unknown WHAT 'VALUE' (valid: VALID)" on stderr; -1. */
static int unknown_value(const char *what, const char *v, const char *valid) {
    echo_line(stderr, "compact explain: unknown %s '%s' (valid: %s)", what, v, valid);
    return -1;
}

int explain_parse_args(explain_args *e, int argc, char **argv) {
    memset(e, 0, sizeof *e);
    e->seed = 1;
    e->removed = 0.3;
    sc_options_init(&e->opt);
    e->opt.tile = 32;
    const char *algo_name = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            explain_usage(stdout);
            return 1;
        }
        if (a[0] != '-') {
            if (algo_name) {
                echo_line(stderr, "compact explain: one algorithm at a time ('%s' and '%s')",
                          algo_name, a);
                return -1;
            }
            algo_name = a;
            continue;
        }
        if (!strcmp(a, "--list") || !strcmp(a, "--stable")) {
            if (a[2] == 'l')
                e->offer_list = 1;
            else
                e->opt.require_stable = 1;
            continue;
        }
        if (!v && is_option(a)) {
            echo_line(stderr, "compact explain: option '%s' needs a value (see --help)", a);
            return -1;
        }
        i += v != NULL;
        if (!strcmp(a, "--mask")) {
            e->mask = v;
        } else if (!strcmp(a, "--random")) {
            if (num_parse_size(v, &e->random_n) || e->random_n == 0 || e->random_n > 65536)
                return bad_value("--random wants 1..65536", v);
        } else if (!strcmp(a, "--removed")) {
            if (num_parse_fraction(v, &e->removed))
                return bad_value("--removed wants 0..1 or 0%..100%", v);
        } else if (!strcmp(a, "--seed")) {
            if (num_parse_size(v, &e->seed)) return bad_value("--seed wants an integer", v);
        } else if (!strcmp(a, "--tile")) {
            if (num_parse_size(v, &e->opt.tile) || e->opt.tile < SC_TILE_MIN ||
                e->opt.tile > SC_TILE_MAX || (e->opt.tile & (e->opt.tile - 1)))
                return bad_value("--tile wants a power of two in 32..2048", v);
        } else if (!strcmp(a, "--scan")) {
            if (cli_parse_scan(v, &e->opt.scan))
                return unknown_value("scan", v, "hillis-steele, blelloch, default");
        } else if (!strcmp(a, "--rlz")) {
            if (cli_parse_rlz(v, &e->opt.rlz))
                return unknown_value("RLZ variant", v, "doubling, tree, default");
        } else if (!strcmp(a, "--policy")) {
            e->opt.policy = v;
        } else {
            return unknown_value("option", a,
                                 "--mask, --random, --removed, --seed, --tile, --scan, --rlz, "
                                 "--list, --stable, --policy, --help");
        }
    }
    if (!algo_name) {
        echo_line(stderr, "compact explain: name an algorithm (see 'compact list')");
        return -1;
    }
    e->info = sc_algorithm_find(algo_name);
    if (!e->info) {
        cli_unknown_algorithm(algo_name);
        return -1;
    }
    if (!sc_algorithm_available(e->info->id, SC_BACKEND_CPU)) {
        size_t k = 0;
        while (k < sizeof k_cuda_only / sizeof *k_cuda_only && k_cuda_only[k].algo != e->info->id)
            k++;
        if (k == sizeof k_cuda_only / sizeof *k_cuda_only) {
            echo_line(stderr,
                      "compact explain: '%s' runs on the CUDA backend only and has no CPU trace",
                      e->info->name);
            return -1;
        }
        e->scheme = k_cuda_only[k].scheme;
        e->traced = sc_algorithm_get(k_cuda_only[k].twin);
    }
    if (e->mask && e->random_n) {
        echo_line(stderr, "compact explain: give one of --mask BITS or --random N, not both");
        return -1;
    }
    if (!e->mask && !e->random_n) e->mask = EXPLAIN_DEFAULT_MASK;

    long bad = e->mask ? bad_mask_char(e->mask) : -1;
    if (bad >= 0) {
        echo_line(stderr,
                  "compact explain: --mask takes only 0 and 1 (1 = keep); position %ld is '%c'",
                  bad, e->mask[bad]);
        return -1;
    }
    return 0;
}

int cmd_explain(int argc, char **argv) {
    explain_args e;
    int p = explain_parse_args(&e, argc, argv);
    if (p) return p > 0 ? 0 : 2;
    const char *mask = e.mask;
    size_t random_n = e.random_n, seed = e.seed;
    double removed = e.removed;
    sc_options opt = e.opt;
    const sc_algorithm_info *info = e.info;
    const int offer_list = e.offer_list;
    size_t n = mask ? strlen(mask) : random_n;
    uint8_t *flags = malloc(n ? n : 1);
    uint32_t *in = malloc((n ? n : 1) * sizeof *in), *out = malloc((n ? n : 1) * sizeof *out);
    uint32_t *ref = malloc((n ? n : 1) * sizeof *ref), *list = malloc((n ? n : 1) * sizeof *list);
    if (!flags || !in || !out || !ref || !list) {
        echo_line(stderr, "compact explain: out of memory");
        free(flags);
        free(in);
        free(out);
        free(ref);
        free(list);
        return 1;
    }
    uint64_t rng = seed;
    for (size_t i = 0; i < n; i++) {
        if (mask) {
            flags[i] = mask[i] == '1';
        } else {
            flags[i] = (double)(cli_rand(&rng) >> 11) * 0x1.0p-53 >= removed;
        }
        in[i] = (uint32_t)i;
    }

    printf("%s: %s\n", info->name, info->title);
    print_wrapped("paper", info->paper);
    print_wrapped("idea", info->summary);
    if (info->input == SC_INPUT_ANY)
        printf("properties  : chooses per call%s, input = flag stencil%s",
               opt.require_stable ? " (stable asked)" : "", offer_list ? " and removal list" : "");
    else
        printf("properties  : %s, %s, input = %s", info->stable ? "stable" : "unstable",
               info->in_place ? "in place" : "out of place",
               info->input == SC_INPUT_FLAGS ? "flag stencil" : "removal list");
    if (info->tunables & SC_TUNE_TILE) printf(", tile %zu", opt.tile);
    if (e.scheme) {
        printf("\n");
        print_wrapped("scheme", e.scheme);
        printf("trace       : %s runs on the CUDA backend only; below, %s on the CPU backend,\n"
               "              which computes the same stable result",
               info->name, e.traced->name);
    }
    printf("\n\ninput (%zu elements, element i holds the value i)\n", n);
    print_values("index", in, n);
    print_flags(flags, n);
    printf("\npasses\n");

    size_t ref_kept = 0;
    for (size_t i = 0; i < n; i++)
        if (flags[i]) ref[ref_kept++] = (uint32_t)i;

    sc_context *ctx = NULL;
    sc_status s = sc_context_create(SC_BACKEND_CPU, &ctx);
    opt.trace = print_line;
    size_t kept = 0, k = 0;
    char why[400] = "";
    const uint32_t *result = out;
    for (size_t i = 0; i < n; i++)
        if (!flags[i]) list[k++] = (uint32_t)i;
    if (s == SC_OK && info->input == SC_INPUT_ANY) {
        void *where = NULL;
        s = sc_compact_any(ctx, info->id, in, flags, out, n, sizeof *in, offer_list ? list : NULL,
                           k, &opt, &kept, &where);
        result = where;
        if (s == SC_OK) info = print_choice(ctx);
        if (s == SC_ERR_POLICY) snprintf(why, sizeof why, "%s", sc_policy_error(ctx));
    } else if (s == SC_OK && info->input == SC_INPUT_FLAGS) {
        s = sc_compact_flagged(ctx, e.traced ? e.traced->id : info->id, in, flags, out, n,
                               sizeof *in, &opt, &kept);
    } else if (s == SC_OK) {
        s = sc_remove_indices(ctx, info->id, in, n, sizeof *in, list, k, &opt, &kept);
        result = in;
    }
    sc_context_destroy(ctx);
    int same = 0;
    if (s != SC_OK)
        echo_line(stderr, "compact explain: %s failed: %s", info->name,
                  why[0] ? why : sc_status_string(s));
    else
        same = print_result(info, result, kept, out, ref, ref_kept);
    free(flags);
    free(in);
    free(out);
    free(ref);
    free(list);
    return same ? 0 : 1;
}
