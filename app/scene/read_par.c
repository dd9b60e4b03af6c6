/* read_par.c: see read_par.h. */
#define _XOPEN_SOURCE 700 /* pread */
#include "read_par.h"
#include "read_file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Stretches of this many bytes, one pread loop each. */
#define CHUNK ((size_t)8 << 20)

int rc_read_file_par(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err) {
    FILE *f = NULL;
    struct stat st;
    char why[128];
    if (rc_open_regular(path, &f, &st, why, sizeof why) != 0)
        return rc_read_file(path, max_bytes, data, len, err);
    const size_t size = (size_t)st.st_size;
    char *buf = NULL;
    if (st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)max_bytes || size < RC_READ_PAR_MIN ||
        !(buf = malloc(size + 1))) {
        fclose(f);
        return rc_read_file(path, max_bytes, data, len, err);
    }
    const int fd = fileno(f);
    const int64_t chunks = (int64_t)((size + CHUNK - 1) / CHUNK);
    int bad = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(| : bad)
    for (int64_t k = 0; k < chunks; k++) {
        size_t at = (size_t)k * CHUNK, end = at + CHUNK < size ? at + CHUNK : size;
        while (at < end && !bad) {
            ssize_t r = pread(fd, buf + at, end - at, (off_t)at);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0)
                bad = 1; /* an error, or the file shrank */
            else
                at += (size_t)r;
        }
    }
    char more;
    if (!bad && pread(fd, &more, 1, (off_t)size) != 0) bad = 1; /* it grew, or cannot tell */
    fclose(f);
    if (bad) { /* whatever happened, the serial read says it as it always does */
        free(buf);
        return rc_read_file(path, max_bytes, data, len, err);
    }
    buf[size] = '\0';
    *data = buf;
    *len = size;
    return 0;
}
