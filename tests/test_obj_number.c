/* test_obj_number.c: the OBJ reader's fast float parse (scene/obj_number.h) gives, for every
 * string it accepts, the float strtof gives and the one the reader always read ((float)strtod),
 * bit for bit: on edge strings, on random strings of number characters, on random decimals in
 * the forms printf writes, and on the exact decimals of float midpoints (where rounding through
 * double differs from strtof, so the fast parse must decline). */
#include "rc_test.h"
#include "scene/obj.h"
#include "scene/obj_number.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t g_rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd64(void) {
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    return g_rng;
}

static uint32_t bits(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static long g_accepted, g_tried;

/* s through the fast parse: when it accepts, both references must agree with it. */
static void check(const char *s) {
    float fast;
    g_tried++;
    if (!rc_obj_float_fast(s, strlen(s), RC_OBJ_MAX_COORD, &fast)) return;
    g_accepted++;
    char *end;
    float f = strtof(s, &end);
    CHECK(*end == '\0', "'%s' accepted, strtof stops at '%s'", s, end);
    float d = (float)strtod(s, NULL);
    CHECK(bits(fast) == bits(f), "'%s': fast %a, strtof %a", s, (double)fast, (double)f);
    CHECK(bits(fast) == bits(d), "'%s': fast %a, (float)strtod %a", s, (double)fast, (double)d);
}

int main(void) {
    static const char *const edge[] = {"0",
                                       "-0",
                                       "+0",
                                       "0.",
                                       ".0",
                                       ".",
                                       "-",
                                       "+",
                                       "",
                                       "e5",
                                       "1e",
                                       "1e+",
                                       "1e-",
                                       "1.e5",
                                       "+.5",
                                       "-.5e-3",
                                       "00000000000000000000001.5",
                                       "1234567890123456789",
                                       "12345678901234567890",
                                       "9007199254740992",
                                       "9007199254740993",
                                       "1e22",
                                       "1e23",
                                       "1e-22",
                                       "1e-23",
                                       "1e15",
                                       "1.000000000000001e15",
                                       "0x10",
                                       "inf",
                                       "nan",
                                       "1,5",
                                       "1.5.5",
                                       "--1",
                                       "1e1001",
                                       "0.1",
                                       "0.2",
                                       "0.3",
                                       "3.4028235e38",
                                       "1.17549435e-38",
                                       "16777217",
                                       "33554431",
                                       "0.000000000000000000001",
                                       "1E5",
                                       "1e05",
                                       "4.5",
                                       "2.5e-1",
                                       "1.00000005960464477539"};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) check(edge[i]);
    char s[96];
    /* random strings over the characters of numbers */
    static const char alpha[] = "0123456789012345678901234567890123456789.eE+-";
    for (int i = 0; i < 300000; i++) {
        int n = 1 + (int)(rnd64() % 24);
        for (int k = 0; k < n; k++) s[k] = alpha[rnd64() % (sizeof alpha - 1)];
        s[n] = '\0';
        check(s);
    }
    /* random decimals as printf writes them */
    static const char *const forms[] = {"%.1f", "%.3f", "%.6f", "%.9g", "%.17g", "%e", "%.3E"};
    for (int i = 0; i < 300000; i++) {
        double x = (double)(int64_t)(rnd64() % 2000000001u - 1000000000) /
                   (double)((uint64_t)1 << (rnd64() % 40));
        snprintf(s, sizeof s, forms[rnd64() % 7], x);
        check(s);
    }
    /* exact decimals of midpoints between neighbouring floats and of their neighbours */
    for (int i = 0; i < 100000; i++) {
        float a = (float)((double)(rnd64() % 100000000u) / (double)(1u << (rnd64() % 24)));
        double mid = ((double)a + (double)nextafterf(a, 2e9f)) / 2.0;
        snprintf(s, sizeof s, "%.40g", mid);
        check(s);
        snprintf(s, sizeof s, "%.17g", mid);
        check(s);
        snprintf(s, sizeof s, "%.9g", mid);
        check(s);
    }
    printf("obj_number: %ld strings, %ld taken by the fast parse\n", g_tried, g_accepted);
    CHECK(g_accepted > g_tried / 4, "the fast parse takes most numbers: %ld of %ld", g_accepted,
          g_tried);
    return test_finish("obj_number");
}
