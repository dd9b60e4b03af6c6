/* bench.c: `compact bench` (written with the CUDA backend). */
#include "cli.h"

#include <stdio.h>

int cmd_bench(int argc, char **argv) {
    (void)argc;
    (void)argv;
    fprintf(stderr, "compact bench: not available in this build yet\n");
    return 2;
}
