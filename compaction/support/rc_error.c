/* rc_error.c: see rc_error.h. */
#include "rc_error.h"
#include "echo.h"

#include <stdarg.h>

int rc_fail(rc_error *err, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        echo_vformat(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}
