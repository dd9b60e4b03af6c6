/* test_check.h: the one-line check of the tools' own test programs (test_num_parse.c,
 * test_timing.c, test_bench_json.c): a failed CHECK prints its place and message and counts in
 * `failures`; each program is one translation unit. */
#ifndef SC_TEST_CHECK_H
#define SC_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#endif /* SC_TEST_CHECK_H */
