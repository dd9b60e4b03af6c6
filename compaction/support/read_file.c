/* read_file.c: see read_file.h. */
#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *read_file(const char *path, size_t max, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0, got;
    int err = 0;
    *len = 0;
    do {
        if (*len == cap) {
            size_t grow = cap ? 2 * cap : 65536;
            char *grown = (char *)realloc(buf, grow + 1);
            if (!grown) {
                err = ENOMEM;
                break;
            }
            buf = grown;
            cap = grow;
        }
        got = fread(buf + *len, 1, cap - *len, f);
        *len += got;
        if (*len > max) err = EFBIG;
    } while (got > 0 && !err);
    if (!err && ferror(f)) err = EIO;
    fclose(f);
    if (err) {
        free(buf);
        errno = err;
        return NULL;
    }
    buf[*len] = 0;
    return buf;
}
