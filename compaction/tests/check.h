/* check.h: the checks and the closing line that every test program of the project shares (the
 * library's tests, its tools' tests and the path tracer's tests). A failed check prints its place,
 * its condition and a printf-style message on stderr and counts in test_failures; CHECK also
 * counts in test_checks. Each program defines the two counters once (TEST_COUNTERS). */
#ifndef SC_CHECK_H
#define SC_CHECK_H

#include <stdio.h>

extern int test_failures; /* failed checks */
extern int test_checks;   /* checks made through CHECK */

/* The counters' definitions: once per test program, at file scope. */
#define TEST_COUNTERS                                                                              \
    int test_failures = 0;                                                                         \
    int test_checks = 0

/* Report a failed check: "FILE:LINE: WHAT: MESSAGE" on stderr, one more failure. */
#define TEST_FAILED(what, ...)                                                                     \
    do {                                                                                           \
        fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, what);                                  \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fprintf(stderr, "\n");                                                                     \
        test_failures++;                                                                           \
    } while (0)

/* A check the caller counts itself (the library's tests pass their count to test_finish). */
#define ASSERT_TRUE(cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond)) TEST_FAILED("assertion failed: " #cond, __VA_ARGS__);                         \
    } while (0)

/* A check counted in test_checks. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        test_checks++;                                                                             \
        if (!(cond)) TEST_FAILED("check failed: " #cond, __VA_ARGS__);                             \
    } while (0)

/* How a program's closing line reads. */
typedef enum test_line {
    TEST_LINE_PASSED, /* "NAME: P passed, F failed" (P = checks - failures, at least 0) */
    TEST_LINE_CHECKS, /* "NAME: N checks, F failed" */
    TEST_LINE_OK      /* "NAME: ok" or "NAME: FAILED" */
} test_line;

/* Finish a test program: prints its closing line on stdout and returns the exit code (1 when a
 * check failed, else 0). */
static inline int test_finish_line(const char *name, int checks, test_line line) {
    int failed = test_failures;
    switch (line) {
    case TEST_LINE_PASSED:
        printf("%s: %d passed, %d failed\n", name, checks - failed < 0 ? 0 : checks - failed,
               failed);
        break;
    case TEST_LINE_CHECKS:
        printf("%s: %d checks, %d failed\n", name, checks, failed);
        break;
    case TEST_LINE_OK:
        printf("%s: %s\n", name, failed ? "FAILED" : "ok");
        break;
    }
    return failed ? 1 : 0;
}

#endif /* SC_CHECK_H */
