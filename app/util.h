/* util.h: host-side helpers of the application: error messages as values, a monotonic clock,
 * whole-file reading and growable arrays. */
#ifndef RC_UTIL_H
#define RC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One line describing what went wrong, filled by the function that failed. Callers print it
 * as it is; nothing below main() prints or exits. */
typedef struct rc_error {
    char msg[512];
} rc_error;

/* Format into err (NULL allowed) and return -1, so `return rc_fail(err, ...);` reads well.
 * The message is one line of printable ASCII whatever the input it quotes: other bytes are
 * written as \xNN (echo_escape, compaction/support/echo.h, shared with both tools). */
int rc_fail(rc_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Milliseconds on a monotonic clock. */
double rc_now_ms(void);

/* Read a whole file into a NUL-terminated buffer (*len excludes the NUL). Files over
 * `max_bytes` are refused. Error: "path: cannot open: reason". */
int rc_read_file(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err);

/* Write `len` bytes to a temporary file beside `path`, then rename it over `path`, so that a
 * failed write leaves any earlier file whole. Error: "path: cannot write: reason". The
 * temporary file is named path + ".tmpXXXXXX": RC_WRITE_SUFFIX_LEN bytes more. When `path` is
 * a symbolic link, its target is written and the link stays (out_path.h): a target that does
 * not exist is created, one in a directory that does not exist is an error. */
#define RC_WRITE_SUFFIX_LEN 10
int rc_write_file(const char *path, const char *data, size_t len, rc_error *err);

/* Make room for `need` elements of `elem` bytes in *buf (capacity *cap, doubled as needed).
 * Returns 0, or -1 on overflow or when out of memory (then *buf is unchanged). */
int rc_grow(void **buf, size_t *cap, size_t need, size_t elem);

/* The directory part of a path ("scenes/a.json" -> "scenes", "a.json" -> "."), into out. */
void rc_dirname(const char *path, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* RC_UTIL_H */
