/* num_parse.h: the one strict number parser of both command-line tools, `compact` and the app's
 * `raycompact`. Plain C11 with no dependencies, so the app compiles num_parse.c into its own
 * tool and the library's folder needs nothing from outside it.
 *
 * Strict means: what a person types and nothing more. The whole string is the number: no
 * leading or trailing blanks, no '+' or '-' sign, no hexadecimal, no inf or nan, no empty
 * string, and a value that does not fit (or, for a real number, underflows to a subnormal or
 * to zero) is an error rather than the nearest value. Each function returns 0 and sets *out, or
 * returns -1 and leaves *out alone. */
#ifndef SC_NUM_PARSE_H
#define SC_NUM_PARSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An unsigned integer: decimal digits ("1000000"), or a power of two with an optional offset
 * ("2^24", "2^27+13", "2^20-1"; exponent at most 63), that fits 64 bits. */
int num_parse_u64(const char *s, uint64_t *out);
/* The same, and within [lo, hi]. */
int num_parse_range(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* num_parse_u64 into a size_t (refused where it does not fit). */
int num_parse_size(const char *s, size_t *out);
/* A non-negative finite real in decimal notation: digits with an optional fraction and an
 * optional exponent ("3", "0.25", ".5", "1e-9", "2.5E+3"). Non-zero values below DBL_MIN
 * (subnormals, and those that round to zero) are refused. */
int num_parse_double(const char *s, double *out);
/* A fraction in [0, 1] ("0.3"), or a percentage in [0%, 100%] ("30%"), as a fraction. */
int num_parse_fraction(const char *s, double *out);

/* A comma-separated list as both tools take it ("rlz,horn", "0.1,30%"): every item non-empty
 * (no comma at the start or the end, none doubled, and "" is one empty item) and none equal,
 * character for character, to an earlier one. Returns NUM_LIST_OK, or the first fault found
 * from the left with *at and *len the offset and length of the item at fault: the empty one,
 * or the repeat (the later of the two). Values that are equal but spelt differently ("2^10",
 * "1024") are the caller's to compare. */
enum { NUM_LIST_OK = 0, NUM_LIST_EMPTY = 1, NUM_LIST_REPEAT = 2 };
int num_list_check(const char *s, size_t *at, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* SC_NUM_PARSE_H */
