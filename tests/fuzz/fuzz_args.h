/* fuzz_args.h: a command line from fuzz input: arguments separated by NUL bytes, the first
 * one naming the subcommand (argv[0] of the subcommand's parser, as main() passes it). */
#ifndef RC_FUZZ_ARGS_H
#define RC_FUZZ_ARGS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

typedef struct fuzz_args {
    char *buf;
    int argc;
    char *argv[FUZZ_MAX_ARGS + 1];
} fuzz_args;

/* 0, or -1 when out of memory. Free with fuzz_args_free. */
static inline int fuzz_args_split(fuzz_args *a, const uint8_t *data, size_t size) {
    a->argc = 0;
    a->buf = malloc(size + 1);
    if (!a->buf) return -1;
    memcpy(a->buf, data, size);
    a->buf[size] = '\0';
    for (size_t i = 0; i <= size && a->argc < FUZZ_MAX_ARGS;) {
        a->argv[a->argc++] = a->buf + i;
        i += strlen(a->buf + i) + 1;
    }
    a->argv[a->argc] = NULL;
    return 0;
}

static inline void fuzz_args_free(fuzz_args *a) {
    free(a->buf);
}

#endif
