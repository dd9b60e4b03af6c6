/* obj_number.h: the numbers of an OBJ line without a strtod call for the common ones. Internal
 * to the OBJ reader (obj_chunks.c) and its tests.
 *
 * rc_obj_float_fast takes the decimal `[+-]digits[.digits][(e|E)[+-]digits]` of at most 19
 * significant digits and a power of ten within 10^+-22 (Clinger 1990, "How to read floating
 * point numbers accurately", the fast path): the mantissa and the power are exact doubles, so one
 * IEEE multiplication or division rounds the exact value once, which is strtod's correctly
 * rounded double. The double is then rounded to float as the reader always did ((float)strtod).
 * That second rounding equals strtof's single one except where the double lies exactly halfway
 * between two floats; there, and for anything else (hex, inf, nan, long mantissas, large
 * exponents, values beyond RC_OBJ_MAX_COORD), it declines and the caller takes strtod's way. */
#ifndef RC_OBJ_NUMBER_H
#define RC_OBJ_NUMBER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* [s, s + n) as a float in *out, 1; or 0 where strtod must decide (nothing written). */
static inline int rc_obj_float_fast(const char *s, size_t n, double max_abs, float *out) {
    static const double k_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *e = s + n;
    int neg = 0;
    if (s < e && (*s == '-' || *s == '+')) neg = *s++ == '-';
    uint64_t m = 0;
    int digits = 0, seen = 0, exp10 = 0;
    for (; s < e && (unsigned)(*s - '0') <= 9; s++, seen = 1) {
        if (m == 0 && *s == '0') continue; /* leading zeros are not significant */
        if (++digits > 19) return 0;
        m = 10 * m + (uint64_t)(*s - '0');
    }
    if (s < e && *s == '.') {
        for (s++; s < e && (unsigned)(*s - '0') <= 9; s++, seen = 1) {
            exp10--;
            if (m == 0 && *s == '0') continue;
            if (++digits > 19) return 0;
            m = 10 * m + (uint64_t)(*s - '0');
        }
    }
    if (!seen) return 0;
    if (s < e && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = 0, ex = 0, any = 0;
        if (s < e && (*s == '-' || *s == '+')) eneg = *s++ == '-';
        for (; s < e && (unsigned)(*s - '0') <= 9; s++, any = 1)
            if ((ex = 10 * ex + (*s - '0')) > 1000) return 0;
        if (!any) return 0;
        exp10 += eneg ? -ex : ex;
    }
    if (s != e) return 0;
    if (m == 0) {
        *out = neg ? -0.0f : 0.0f;
        return 1;
    }
    if (m > ((uint64_t)1 << 53) || exp10 < -22 || exp10 > 22) return 0;
    double d = (double)m;
    d = exp10 >= 0 ? d * k_pow10[exp10] : d / k_pow10[-exp10];
    if (d > max_abs) return 0;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    /* halfway between two floats: the 29 bits a float drops are 1000...0 */
    if ((bits & 0x1fffffffu) == 0x10000000u) return 0;
    *out = neg ? -(float)d : (float)d;
    return 1;
}

#endif /* RC_OBJ_NUMBER_H */
