/* read_file.c: see read_file.h. */
#include "read_file.h"
#include "grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Close f, free buf, say "path: what" in err and leave errno at e. */
static int read_fail(FILE *f, char *buf, int e, rc_error *err, const char *path, const char *what) {
    if (f) fclose(f);
    free(buf);
    rc_fail(err, "%s: %s", path, what);
    errno = e;
    return -1;
}

static int too_large(FILE *f, char *buf, rc_error *err, const char *path, size_t max_bytes) {
    char what[64];
    snprintf(what, sizeof what, "file is larger than %zu bytes", max_bytes);
    return read_fail(f, buf, EFBIG, err, path, what);
}

static int read_error(FILE *f, int e, rc_error *err, const char *path, const char *why) {
    char what[128];
    snprintf(what, sizeof what, "read error: %s", why ? why : strerror(e));
    return read_fail(f, NULL, e, err, path, what);
}

int rc_read_file(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err) {
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        char what[128];
        snprintf(what, sizeof what, "cannot open: %s", strerror(e));
        return read_fail(NULL, NULL, e, err, path, what);
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) return read_error(f, errno, err, path, NULL);
    if (S_ISDIR(st.st_mode)) return read_error(f, EISDIR, err, path, NULL);
    if (!S_ISREG(st.st_mode)) return read_error(f, EINVAL, err, path, "not a regular file");
    if ((uint64_t)st.st_size > (uint64_t)max_bytes) return too_large(f, NULL, err, path, max_bytes);
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) return read_fail(f, NULL, ENOMEM, err, path, "out of memory reading the file");
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > max_bytes) break;
        if (n + 1 < cap) break; /* short read: the end of the file, or an error */
        int c = fgetc(f);
        if (c == EOF) break;
        /* The file grew since fstat: make room for more. */
        if (rc_grow((void **)&buf, &cap, n + 65536 + 2, 1) != 0)
            return read_fail(f, buf, ENOMEM, err, path, "out of memory reading the file");
        buf[n++] = (char)c;
    }
    if (n > max_bytes) return too_large(f, buf, err, path, max_bytes);
    if (ferror(f)) {
        int e = errno ? errno : EIO;
        free(buf);
        return read_error(f, e, err, path, NULL);
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

char *read_file(const char *path, size_t max, size_t *len) {
    char *data;
    return rc_read_file(path, max, &data, len, NULL) == 0 ? data : NULL;
}
