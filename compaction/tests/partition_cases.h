/* partition_cases.h: the k-way partition's test matrix and its independent reference
 * (test_partition.c, both backends). */
#ifndef SC_PARTITION_CASES_H
#define SC_PARTITION_CASES_H

#include "test.h"

#include <string.h>

/* Key patterns. */
typedef enum part_pattern {
    PP_UNIFORM,    /* independent uniform keys */
    PP_ONE_KEY,    /* every element in the last group */
    PP_RUNS,       /* runs of one key, random lengths up to 300 */
    PP_SKEWED,     /* 90 % key 0, the rest uniform */
    PP_DESCENDING, /* keys sorted high to low: every element moves */
    PP_COUNT
} part_pattern;

static inline const char *part_pattern_name(part_pattern p) {
    static const char *names[PP_COUNT] = {"uniform", "one-key", "runs", "skewed", "descending"};
    return names[p];
}

static inline void part_make_keys(uint8_t *keys, size_t n, unsigned k, part_pattern p,
                                  uint64_t seed) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    size_t run = 0;
    uint8_t cur = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = test_rand(&s);
        switch (p) {
        case PP_UNIFORM:
            keys[i] = (uint8_t)(r % k);
            break;
        case PP_ONE_KEY:
            keys[i] = (uint8_t)(k - 1);
            break;
        case PP_RUNS:
            if (run == 0) {
                run = 1 + (size_t)(r % 300);
                cur = (uint8_t)((r >> 20) % k);
            }
            keys[i] = cur;
            run--;
            break;
        case PP_SKEWED:
            keys[i] = r % 10 ? 0 : (uint8_t)((r >> 8) % k);
            break;
        default:
            keys[i] = (uint8_t)((k - 1) - (unsigned)((uint64_t)i * k / (n ? n : 1)));
            break;
        }
    }
}

/* The reference, independent of the library: k passes, each appending one group in input
 * order. Fills counts[0..k). */
static inline void part_reference(const void *in, const uint8_t *keys, void *ref, size_t n,
                                  size_t es, unsigned k, size_t *counts) {
    size_t at = 0;
    for (unsigned j = 0; j < k; j++) {
        counts[j] = 0;
        for (size_t i = 0; i < n; i++) {
            if (keys[i] != j) continue;
            memcpy((unsigned char *)ref + at * es, (const unsigned char *)in + i * es, es);
            at++;
            counts[j]++;
        }
    }
}

static const size_t part_sizes[] = {0,   1,    2,    31,   32,   33,   255,   256,
                                    257, 1000, 2047, 2048, 2049, 4103, 65536, (1u << 17) + 3};
static const size_t part_elem_sizes[] = {1, 3, 4, 8, 12, 16, 64};
static const unsigned part_keys[] = {1, 2, 3, 4, 7, 16};
#define PART_NUM(a) (sizeof(a) / sizeof *(a))

#endif /* SC_PARTITION_CASES_H */
