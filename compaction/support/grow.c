/* grow.c: see grow.h. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

int rc_grow(void **buf, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2) return -1;
        c *= 2;
    }
    if (elem && c > SIZE_MAX / elem) return -1;
    void *p = realloc(*buf, c * elem);
    if (!p) return -1;
    *buf = p;
    *cap = c;
    return 0;
}
