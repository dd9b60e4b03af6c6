/* fuzz_check.h: what every fuzz target checks besides the sanitizers: a message made from the
 * input is one line of printable ASCII (bytes of the input are echoed escaped), not empty. */
#ifndef RC_FUZZ_CHECK_H
#define RC_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static inline void fuzz_check_message(const char *what, const char *msg) {
    if (!msg[0]) {
        fprintf(stderr, "fuzz: %s: empty error message\n", what);
        abort();
    }
    for (const char *p = msg; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c >= 0x7f) {
            fprintf(stderr, "fuzz: %s: byte 0x%02x at %d in the error message\n", what, c,
                    (int)(p - msg));
            abort();
        }
    }
}

#endif
