/* test_num_parse.c: the strict number parser (num_parse.h) and the echo escaping (echo.h) that
 * both command-line tools share, against tables of what a person types. */
#include "check.h"
#include "echo.h"
#include "num_parse.h"

#include <stdio.h>
#include <string.h>

TEST_COUNTERS;

static void integers(void) {
    static const struct {
        const char *s;
        int ok;
        unsigned long long v;
    } t[] = {{"0", 1, 0},
             {"16", 1, 16},
             {"18446744073709551615", 1, 18446744073709551615ull},
             {"18446744073709551616", 0, 0},
             {"2^24", 1, 1ull << 24},
             {"2^27+13", 1, (1ull << 27) + 13},
             {"2^20-1", 1, (1ull << 20) - 1},
             {"2^63", 1, 1ull << 63},
             {"2^64", 0, 0},
             {"2^64-1", 0, 0},
             {"2^63+9223372036854775808", 0, 0},
             {"2^3-9", 0, 0},
             {"2^", 0, 0},
             {"", 0, 0},
             {" 16", 0, 0},
             {"16 ", 0, 0},
             {"+16", 0, 0},
             {"-1", 0, 0},
             {"0x10", 0, 0},
             {"1e3", 0, 0},
             {"16%", 0, 0},
             {"%", 0, 0}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        uint64_t v = 12345;
        int ok = num_parse_u64(t[i].s, &v) == 0;
        CHECK(ok == t[i].ok, "num_parse_u64('%s'): %s", t[i].s, ok ? "accepted" : "refused");
        CHECK(!ok || v == t[i].v, "num_parse_u64('%s') = %llu", t[i].s, (unsigned long long)v);
        CHECK(ok || v == 12345, "num_parse_u64('%s') changed *out on failure", t[i].s);
    }
    uint64_t v;
    CHECK(num_parse_range("16", 1, 16, &v) == 0 && v == 16, "range: 16 in [1, 16]");
    CHECK(num_parse_range("17", 1, 16, &v) != 0, "range: 17 not in [1, 16]");
    CHECK(num_parse_range("0", 1, 16, &v) != 0, "range: 0 not in [1, 16]");
}

static void reals(void) {
    static const struct {
        const char *s;
        int ok, fraction_ok;
        double v;
    } t[] = {
        {"0", 1, 1, 0.0},     {"0.25", 1, 1, 0.25},     {".5", 1, 1, 0.5},   {"1", 1, 1, 1.0},
        {"1e-9", 1, 1, 1e-9}, {"2.5E+3", 1, 0, 2500.0}, {"1.5", 1, 0, 1.5},  {"30%", 0, 1, 0.3},
        {"100%", 0, 1, 1.0},  {"100.5%", 0, 0, 0},      {"%", 0, 0, 0},      {"", 0, 0, 0},
        {" 0.5", 0, 0, 0},    {"0.5 ", 0, 0, 0},        {"+0.5", 0, 0, 0},   {"-0.5", 0, 0, 0},
        {"nan", 0, 0, 0},     {"inf", 0, 0, 0},         {"0x1p-2", 0, 0, 0}, {"1e400", 0, 0, 0},
        {"5e-324", 0, 0, 0},  {"1e-310", 0, 0, 0},      {"1e-400", 0, 0, 0}, {"1.", 1, 1, 1.0},
        {".", 0, 0, 0},       {"1e", 0, 0, 0},          {"0.5%%", 0, 0, 0}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        double v = -7.0;
        int ok = num_parse_double(t[i].s, &v) == 0;
        CHECK(ok == t[i].ok, "num_parse_double('%s'): %s", t[i].s, ok ? "accepted" : "refused");
        CHECK(!ok || v == t[i].v, "num_parse_double('%s') = %g", t[i].s, v);
        v = -7.0;
        ok = num_parse_fraction(t[i].s, &v) == 0;
        CHECK(ok == t[i].fraction_ok, "num_parse_fraction('%s'): %s", t[i].s,
              ok ? "accepted" : "refused");
        CHECK(!ok || (v > t[i].v - 1e-15 && v < t[i].v + 1e-15), "num_parse_fraction('%s') = %g",
              t[i].s, v);
    }
}

static void escaping(void) {
    char out[64];
    CHECK(!strcmp(echo_escape(out, sizeof out, "plain text"), "plain text"), "plain: %s", out);
    CHECK(
        !strcmp(echo_escape(out, sizeof out, "look\nfrom\x1b[31mRED"), "look\\x0afrom\\x1b[31mRED"),
        "controls: %s", out);
    CHECK(!strcmp(echo_escape(out, sizeof out, "caf\xc3\xa9\x7f"), "caf\\xc3\\xa9\\x7f"),
          "non-ASCII and DEL: %s", out);
    CHECK(!strcmp(echo_escape_n(out, sizeof out, "a\0b", 3), "a\\x00b"), "NUL: %s", out);
    /* Cut short: never past the buffer, and marked. */
    char small[12];
    echo_escape(small, sizeof small, "\n\n\n\n\n\n");
    CHECK(strlen(small) < sizeof small && strstr(small, "..."), "cut: '%s'", small);
    /* Escaping twice changes nothing: messages made of messages stay readable. */
    char twice[64];
    echo_escape(out, sizeof out, "x\ty");
    CHECK(!strcmp(echo_escape(twice, sizeof twice, out), out), "idempotent: %s", twice);
}

/* Comma lists: no empty item, no item twice (as text); the first fault from the left. */
static void lists(void) {
    static const struct {
        const char *s;
        int want;
        size_t at, len;
    } t[] = {{"rlz", NUM_LIST_OK, 0, 3},         {"rlz,horn,serial", NUM_LIST_OK, 9, 6},
             {"2^10,1024", NUM_LIST_OK, 5, 4}, /* equal values, spelt apart: the caller's */
             {"rlz,rl", NUM_LIST_OK, 4, 2},      {"", NUM_LIST_EMPTY, 0, 0},
             {",", NUM_LIST_EMPTY, 0, 0},        {"10%,", NUM_LIST_EMPTY, 4, 0},
             {",rlz", NUM_LIST_EMPTY, 0, 0},     {"rlz,,horn", NUM_LIST_EMPTY, 4, 0},
             {"rlz,rlz", NUM_LIST_REPEAT, 4, 3}, {"rlz,horn,serial,horn", NUM_LIST_REPEAT, 16, 4},
             {"a,b,a,", NUM_LIST_REPEAT, 4, 1}, /* the repeat comes before the empty end */
             {"a,,a", NUM_LIST_EMPTY, 2, 0}};
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        size_t at = 99, len = 99;
        int got = num_list_check(t[i].s, &at, &len);
        CHECK(got == t[i].want, "num_list_check('%s') = %d, want %d", t[i].s, got, t[i].want);
        CHECK(got == NUM_LIST_OK || (at == t[i].at && len == t[i].len),
              "num_list_check('%s'): item at %zu of %zu bytes, want %zu of %zu", t[i].s, at, len,
              t[i].at, t[i].len);
    }
}

int main(void) {
    integers();
    reals();
    lists();
    escaping();
    if (test_failures) fprintf(stderr, "%d failures\n", test_failures);
    return test_failures != 0;
}
