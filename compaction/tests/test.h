/* test.h: the library's checks (check.h and ASSERT_STATUS) and the stream cases every compaction
 * test shares. */
#ifndef SC_TEST_H
#define SC_TEST_H

#include "check.h"
#include "raycompact/compaction.h"

#include <stdio.h>
#include <stdlib.h>

#define ASSERT_STATUS(got, want, ...)                                                              \
    do {                                                                                           \
        sc_status g_ = (got), w_ = (want);                                                         \
        if (g_ != w_) {                                                                            \
            fprintf(stderr, "%s:%d: status %s, want %s: ", __FILE__, __LINE__,                     \
                    sc_status_string(g_), sc_status_string(w_));                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            test_failures++;                                                                       \
        }                                                                                          \
    } while (0)

/* Finish a test program: prints "N passed, N failed" and returns the exit code. */
static inline int test_finish(const char *name, int checks) {
    return test_finish_line(name, checks, TEST_LINE_PASSED);
}

/* Stream patterns (flags: 1 = keep). */
typedef enum test_pattern {
    PAT_ALL_KEPT,
    PAT_NONE_KEPT,
    PAT_ALTERNATING,
    PAT_RANDOM_2,
    PAT_RANDOM_10,
    PAT_RANDOM_50,
    PAT_RANDOM_90,
    PAT_RANDOM_98, /* percent removed */
    PAT_LONG_RUNS, /* runs of kept and removed of random length up to 300 */
    PAT_ONE_START,
    PAT_ONE_MIDDLE,
    PAT_ONE_END, /* exactly one kept element */
    PAT_COUNT
} test_pattern;

const char *test_pattern_name(test_pattern p);
void test_make_flags(uint8_t *flags, size_t n, test_pattern p, uint64_t seed);
/* Element i gets distinct, recognisable bytes (its index in the first 4 bytes when
 * elem_size >= 4, a hash of (i, byte) after). */
void test_make_data(void *data, size_t n, size_t elem_size, uint64_t seed);
/* Serial reference: packs kept elements of `in` into `ref`; returns the kept count. */
size_t test_reference(const void *in, const uint8_t *flags, void *ref, size_t n, size_t es);
/* 1 if out[0..kept) equals ref exactly (stable) or as a multiset (unstable). */
int test_same_elements(const void *out, const void *ref, size_t kept, size_t es, int stable);
/* 1 if every byte of buf[from..to) is `poison`. */
int test_untouched(const void *buf, size_t from, size_t to, unsigned char poison);
uint64_t test_rand(uint64_t *state);

/* The sizes of the matrix; the tile-dependent ones are added by the caller. */
extern const size_t test_sizes[];
extern const size_t test_num_sizes;
extern const size_t test_elem_sizes[];
extern const size_t test_num_elem_sizes;
extern const size_t test_tiles[];
extern const size_t test_num_tiles;

#define POISON 0xA5

#endif
