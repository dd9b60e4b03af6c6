/* num_parse.c: the strict number parser of both command-line tools (num_parse.h). */
#include "num_parse.h"

#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Decimal digits at s (at least one) into *v, without overflow; *end past them. */
static int digits(const char *s, const char **end, uint64_t *v) {
    if (!is_digit(*s)) return -1;
    uint64_t x = 0;
    for (; is_digit(*s); s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (x > (UINT64_MAX - d) / 10) return -1;
        x = x * 10 + d;
    }
    *end = s;
    *v = x;
    return 0;
}

int num_parse_u64(const char *s, uint64_t *out) {
    if (!s) return -1;
    const char *end;
    uint64_t v;
    if (s[0] == '2' && s[1] == '^') {
        uint64_t e, d;
        if (digits(s + 2, &end, &e) || e > 63) return -1;
        v = (uint64_t)1 << e;
        if (*end == '+' || *end == '-') {
            char sign = *end;
            if (digits(end + 1, &end, &d)) return -1;
            if (sign == '+' ? d > UINT64_MAX - v : d > v) return -1;
            v = sign == '+' ? v + d : v - d;
        }
    } else if (digits(s, &end, &v)) {
        return -1;
    }
    if (*end) return -1;
    *out = v;
    return 0;
}

int num_parse_range(const char *s, uint64_t lo, uint64_t hi, uint64_t *out) {
    uint64_t v;
    if (num_parse_u64(s, &v) || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int num_parse_size(const char *s, size_t *out) {
    uint64_t v;
    if (num_parse_range(s, 0, SIZE_MAX, &v)) return -1;
    *out = (size_t)v;
    return 0;
}

/* The length of a decimal real at s ("12", "1.5", ".5", "1e-9"), 0 if there is none. */
static size_t real_length(const char *s) {
    const char *p = s;
    int mantissa = 0;
    while (is_digit(*p)) p++, mantissa = 1;
    if (*p == '.') {
        p++;
        while (is_digit(*p)) p++, mantissa = 1;
    }
    if (!mantissa) return 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-') q++;
        if (!is_digit(*q)) return 0;
        while (is_digit(*q)) q++;
        p = q;
    }
    return (size_t)(p - s);
}

/* The real number s[0 .. len), checked; len is what real_length found. */
static int real_value(const char *s, size_t len, double *out) {
    char buf[128];
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end || errno == ERANGE || !(v <= DBL_MAX) || (v != 0.0 && v < DBL_MIN)) return -1;
    *out = v;
    return 0;
}

int num_parse_double(const char *s, double *out) {
    if (!s) return -1;
    size_t len = real_length(s);
    if (len == 0 || s[len] != '\0') return -1;
    return real_value(s, len, out);
}

int num_parse_fraction(const char *s, double *out) {
    if (!s) return -1;
    size_t len = real_length(s);
    double v;
    if (len == 0 || real_value(s, len, &v)) return -1;
    if (s[len] == '%' && s[len + 1] == '\0') {
        if (!(v <= 100.0)) return -1;
        v /= 100.0;
    } else if (s[len] != '\0' || !(v <= 1.0)) {
        return -1;
    }
    *out = v;
    return 0;
}

int num_list_check(const char *s, size_t *at, size_t *len) {
    size_t pos = 0;
    for (;;) {
        size_t n = strcspn(s + pos, ",");
        *at = pos;
        *len = n;
        if (n == 0) return NUM_LIST_EMPTY;
        /* the earlier items, each against this one */
        for (size_t p = 0; p < pos;) {
            size_t m = strcspn(s + p, ",");
            if (m == n && memcmp(s + p, s + pos, n) == 0) return NUM_LIST_REPEAT;
            p += m + 1;
        }
        if (s[pos + n] == '\0') return NUM_LIST_OK;
        pos += n + 1;
    }
}
