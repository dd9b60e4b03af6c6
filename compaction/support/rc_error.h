/* rc_error.h: an error message as a value. A function that fails fills the caller's rc_error
 * with one line and returns -1; the caller prints it as it is, so nothing below main() prints
 * or exits. Used by the renderer, the viewer and the scene loader (read_file.h and out_path.h
 * report through it too). */
#ifndef RC_ERROR_H
#define RC_ERROR_H

#include "echo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One line describing what went wrong, filled by the function that failed. */
typedef struct rc_error {
    char msg[512];
} rc_error;

/* Format into err (NULL allowed) and return -1, so `return rc_fail(err, ...);` reads well.
 * The message is one line of printable ASCII whatever the input it quotes: other bytes are
 * written as \xNN (echo_escape, echo.h, shared with both tools). */
int rc_fail(rc_error *err, const char *fmt, ...) ECHO_PRINTF(2, 3);

#ifdef __cplusplus
}
#endif
#endif /* RC_ERROR_H */
