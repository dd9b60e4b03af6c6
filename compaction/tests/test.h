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

/* Creates a context of backend `b`. Returns 0, 77 (printed "PROG: skipped (why)") when the CUDA
 * backend finds no device or the build has none, else 1 after a one-line error. */
static inline int test_context(sc_backend b, const char *prog, sc_context **ctx) {
    sc_status s = sc_context_create(b, ctx);
    if (b == SC_BACKEND_CUDA && (s == SC_ERR_NO_DEVICE || s == SC_ERR_UNSUPPORTED)) {
        printf("%s: skipped (%s)\n", prog, sc_status_string(s));
        return 77;
    }
    if (s != SC_OK) {
        fprintf(stderr, "%s: %s context: %s (%s)\n", prog, b == SC_BACKEND_CUDA ? "cuda" : "cpu",
                sc_status_string(s), sc_last_error_detail(NULL));
        return 1;
    }
    return 0;
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
/* 1 if out[0..kept) holds kept elements of `in` (n elements of es >= 4 bytes, each carrying its
 * index in its first 4 bytes: test_make_data), each once with its exact bytes, in increasing
 * index order when `increasing`: one pass with a "seen" byte per input element (seen: n bytes of
 * scratch) instead of two sorts. */
int test_kept_once(const unsigned char *out, size_t kept, const unsigned char *in,
                   const uint8_t *flags, size_t n, size_t es, uint8_t *seen, int increasing);
/* A case matrix (an array of cases of `size` bytes): test_grow makes room for one more case
 * (doubling *cap from `first`; running out of memory ends the test) and returns the array;
 * test_unique sorts the `count` cases by `cmp` and keeps each once, returning how many are left.
 * test_cmp_keys orders two cases by their keys (n each), the first key first. */
void *test_grow(void *cases, size_t count, size_t *cap, size_t first, size_t size);
size_t test_unique(void *cases, size_t count, size_t size, int (*cmp)(const void *, const void *));
int test_cmp_keys(const size_t *a, const size_t *b, size_t n);
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
