/* test_common.c: stream cases, the serial reference and comparisons for the tests. */
#include "test.h"

#include <string.h>

TEST_COUNTERS;

const size_t test_sizes[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 100003, (1u << 20) + 7};
const size_t test_num_sizes = sizeof test_sizes / sizeof test_sizes[0];
const size_t test_elem_sizes[] = {1, 4, 8, 12, 16, 32, 64};
const size_t test_num_elem_sizes = sizeof test_elem_sizes / sizeof test_elem_sizes[0];
const size_t test_tiles[] = {32, 256, 2048};
const size_t test_num_tiles = sizeof test_tiles / sizeof test_tiles[0];

uint64_t test_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

const char *test_pattern_name(test_pattern p) {
    static const char *names[PAT_COUNT] = {"all-kept",   "none-kept",  "alternating", "random-2%",
                                           "random-10%", "random-50%", "random-90%",  "random-98%",
                                           "long-runs",  "one-start",  "one-middle",  "one-end"};
    return (int)p >= 0 && p < PAT_COUNT ? names[p] : "?";
}

void test_make_flags(uint8_t *flags, size_t n, test_pattern p, uint64_t seed) {
    uint64_t rng = seed * 7919 + (uint64_t)p;
    static const int removed_pct[] = {2, 10, 50, 90, 98};
    size_t run = 0;
    uint8_t cur = 1;
    for (size_t i = 0; i < n; i++) {
        switch (p) {
        case PAT_ALL_KEPT:
            flags[i] = 1;
            break;
        case PAT_NONE_KEPT:
            flags[i] = 0;
            break;
        case PAT_ALTERNATING:
            flags[i] = (i & 1) == 0;
            break;
        case PAT_RANDOM_2:
        case PAT_RANDOM_10:
        case PAT_RANDOM_50:
        case PAT_RANDOM_90:
        case PAT_RANDOM_98:
            flags[i] = (int)(test_rand(&rng) % 100) >= removed_pct[p - PAT_RANDOM_2];
            break;
        case PAT_LONG_RUNS:
            if (run == 0) {
                cur = !cur;
                run = 1 + test_rand(&rng) % 300;
            }
            flags[i] = cur;
            run--;
            break;
        case PAT_ONE_START:
            flags[i] = i == 0;
            break;
        case PAT_ONE_MIDDLE:
            flags[i] = i == n / 2;
            break;
        case PAT_ONE_END:
            flags[i] = i == n - 1;
            break;
        default:
            flags[i] = 1;
        }
        /* nonzero values other than 1 must count as "keep" too */
        if (flags[i] && (i % 7) == 3) flags[i] = (uint8_t)(2 + i % 250);
    }
}

void test_make_data(void *data, size_t n, size_t es, uint64_t seed) {
    unsigned char *d = data;
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = d + i * es;
        uint64_t h = seed ^ (i * 0x9E3779B97F4A7C15ull);
        for (size_t b = 0; b < es; b++) {
            if (b < 4 && es >= 4) {
                e[b] = (unsigned char)((uint32_t)i >> (8 * b));
            } else {
                if ((b & 7) == 0) h = test_rand(&h);
                e[b] = (unsigned char)(h >> (8 * (b & 7)));
            }
        }
    }
}

size_t test_reference(const void *in, const uint8_t *flags, void *ref, size_t n, size_t es) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (flags[i]) memcpy((char *)ref + k++ * es, (const char *)in + i * es, es);
    return k;
}

static size_t g_es;
static int cmp_elem(const void *a, const void *b) {
    return memcmp(a, b, g_es);
}

int test_same_elements(const void *out, const void *ref, size_t kept, size_t es, int stable) {
    if (stable) return memcmp(out, ref, kept * es) == 0;
    void *a = malloc(kept * es + 1), *b = malloc(kept * es + 1);
    if (!a || !b) {
        free(a);
        free(b);
        return 0;
    }
    memcpy(a, out, kept * es);
    memcpy(b, ref, kept * es);
    g_es = es;
    qsort(a, kept, es, cmp_elem);
    qsort(b, kept, es, cmp_elem);
    int same = memcmp(a, b, kept * es) == 0;
    free(a);
    free(b);
    return same;
}

int test_kept_once(const unsigned char *out, size_t kept, const unsigned char *in,
                   const uint8_t *flags, size_t n, size_t es, uint8_t *seen, int increasing) {
    memset(seen, 0, n);
    uint32_t prev = 0;
    for (size_t j = 0; j < kept; j++) {
        const unsigned char *e = out + j * es;
        uint32_t i;
        memcpy(&i, e, 4);
        if (i >= n || !flags[i] || seen[i] || memcmp(e, in + (size_t)i * es, es)) return 0;
        if (increasing && j > 0 && i <= prev) return 0;
        seen[i] = 1;
        prev = i;
    }
    return 1;
}

void *test_grow(void *cases, size_t count, size_t *cap, size_t first, size_t size) {
    if (count < *cap) return cases;
    *cap = *cap ? 2 * *cap : first;
    cases = realloc(cases, *cap * size);
    if (!cases) {
        fprintf(stderr, "out of memory for the test cases\n");
        exit(1);
    }
    return cases;
}

size_t test_unique(void *cases, size_t count, size_t size, int (*cmp)(const void *, const void *)) {
    char *c = cases;
    qsort(c, count, size, cmp);
    size_t out = 0;
    for (size_t i = 0; i < count; i++)
        if (out == 0 || cmp(c + (out - 1) * size, c + i * size) != 0)
            memmove(c + out++ * size, c + i * size, size);
    return out;
}

int test_cmp_keys(const size_t *a, const size_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

int test_untouched(const void *buf, size_t from, size_t to, unsigned char poison) {
    const unsigned char *p = buf;
    for (size_t i = from; i < to; i++)
        if (p[i] != poison) return 0;
    return 1;
}
