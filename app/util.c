/* util.c: errors, clock, file reading, growable arrays. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"
#include "echo.h"
#include "out_path.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int rc_fail(rc_error *err, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        echo_vformat(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

double rc_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int rc_read_file(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err) {
    *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return rc_fail(err, "%s: cannot open: %s", path, strerror(errno));
    /* Only regular files, checked before reading: /dev/zero or a FIFO never ends, and a file
     * over the limit is refused by its size, not after filling memory with it. */
    struct stat st;
    const char *why = NULL;
    if (fstat(fileno(f), &st) != 0)
        why = strerror(errno);
    else if (S_ISDIR(st.st_mode))
        why = strerror(EISDIR);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    if (why) {
        fclose(f);
        return rc_fail(err, "%s: read error: %s", path, why);
    }
    if ((uint64_t)st.st_size > (uint64_t)max_bytes) {
        fclose(f);
        return rc_fail(err, "%s: file is larger than %zu bytes", path, max_bytes);
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return rc_fail(err, "%s: out of memory reading the file", path);
    }
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (n > max_bytes) break;
        if (n + 1 < cap) break; /* short read: the end of the file, or an error */
        int c = fgetc(f);
        if (c == EOF) break;
        /* The file grew since fstat: make room for more. */
        if (rc_grow((void **)&buf, &cap, n + 65536 + 2, 1) != 0) {
            free(buf);
            fclose(f);
            return rc_fail(err, "%s: out of memory reading the file", path);
        }
        buf[n++] = (char)c;
    }
    if (n > max_bytes) {
        free(buf);
        fclose(f);
        return rc_fail(err, "%s: file is larger than %zu bytes", path, max_bytes);
    }
    int bad = ferror(f), e = errno;
    fclose(f);
    if (bad) {
        free(buf);
        return rc_fail(err, "%s: read error: %s", path, strerror(e));
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

int rc_write_file(const char *path, const char *data, size_t len, rc_error *err) {
    char real[OUT_PATH_MAX]; /* through a symbolic link, its target (out_path.h) */
    if (out_path_resolve(path, real, sizeof real) != 0)
        return rc_fail(err, "%s: cannot write: %s", path, strerror(errno));
    size_t n = strlen(real) + 16;
    char *tmp = malloc(n);
    if (!tmp) return rc_fail(err, "%s: out of memory", path);
    snprintf(tmp, n, "%s.tmpXXXXXX", real);
    errno = 0;
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    int ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = 0;
    if (!f && fd >= 0) close(fd);
    /* mkstemp creates the file private (0600); give it the usual mode instead. */
    mode_t mask = umask(0);
    umask(mask);
    if (ok && chmod(tmp, 0666 & ~mask) != 0) ok = 0;
    if (ok && rename(tmp, real) != 0) ok = 0;
    int e = errno;
    if (!ok && fd >= 0) remove(tmp);
    free(tmp);
    if (!ok) return rc_fail(err, "%s: cannot write: %s", path, e ? strerror(e) : "write failed");
    return 0;
}

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

void rc_dirname(const char *path, char *out, size_t cap) {
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(out, cap, ".");
    } else if (slash == path) {
        snprintf(out, cap, "/");
    } else {
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
    }
}
