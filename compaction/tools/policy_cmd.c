/* policy_cmd.c: `compact policy`: print a built-in policy table of auto, or check one. */
#include "cli.h"
#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void policy_usage(FILE *f) {
    fprintf(f, "usage: compact policy show NAME\n"
               "       compact policy check FILE [--backend cpu|cuda]\n"
               "\n"
               "auto (SC_ALGO_AUTO) chooses an algorithm per call by a policy table (JSON).\n"
               "Built in: cpu (the CPU backend), sm_90 (H100), cuda (other GPUs). A table of\n"
               "your own comes from 'compact tune --out FILE' and is used through\n"
               "SC_POLICY=FILE or sc_options.policy.\n"
               "\n"
               "  show NAME      print the built-in table NAME\n"
               "  check FILE     read FILE as the library does: 'ok' or the first error\n"
               "  --backend B    the backend the table must be for (default cuda in a CUDA\n"
               "                 build, else cpu)\n");
}

int cmd_policy(int argc, char **argv) {
#ifdef SC_HAVE_CUDA
    sc_backend backend = SC_BACKEND_CUDA;
#else
    sc_backend backend = SC_BACKEND_CPU;
#endif
    const char *verb = NULL, *arg = NULL;
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
            return 2;
        }
        if (a[0] == '-') {
            fprintf(stderr, "compact policy: unknown option '%s' (valid: --backend, --help)\n", a);
            return 2;
        }
        if (!verb) {
            verb = a;
        } else if (!arg) {
            arg = a;
        } else {
            fprintf(stderr, "compact policy: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!verb || !arg || (strcmp(verb, "show") && strcmp(verb, "check"))) {
        policy_usage(stderr);
        return 2;
    }
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
    char *text = read_file(arg, (size_t)1 << 20, &len);
    if (!text) {
        fprintf(stderr, "compact policy: cannot read %s: %s\n", arg,
                errno == EFBIG ? "larger than 1 MiB" : strerror(errno));
        return 1;
    }
    char why[320];
    sc_status s = sc_policy_check(text, len, backend, why, sizeof why);
    free(text);
    if (s != SC_OK) {
        fprintf(stderr, "compact policy: %s: %s\n", arg,
                s == SC_ERR_POLICY ? why : sc_status_string(s));
        return 1;
    }
    printf("%s: ok (%s backend)\n", arg, sc_backend_name(backend));
    return 0;
}
