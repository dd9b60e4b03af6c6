/* read_file.c: see read_file.h. */
#define _POSIX_C_SOURCE 200809L /* fdopen, fileno, O_CLOEXEC, S_ISSOCK */
#include "read_file.h"
#include "grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "neither a file nor a directory";
}

static int not_regular(mode_t mode, char *why, size_t cap) {
    if (why && cap) snprintf(why, cap, "not a regular file (%s)", file_kind(mode));
    errno = S_ISDIR(mode) ? EISDIR : EINVAL;
    return RC_OPEN_NOT_REGULAR;
}

static int open_failed(int fd, int e, char *why, size_t cap) {
    if (fd >= 0) close(fd);
    if (why && cap) snprintf(why, cap, "%s", strerror(e));
    errno = e;
    return RC_OPEN_FAILED;
}

int rc_open_regular(const char *path, FILE **f, struct stat *st, char *why, size_t cap) {
    struct stat s;
    *f = NULL;
    /* By the name first, so that a device is not even opened (opening one may act on it). A
     * path that stat() cannot see goes on to open(), whose errno is the one to report. */
    if (stat(path, &s) == 0 && !S_ISREG(s.st_mode)) return not_regular(s.st_mode, why, cap);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        /* Replaced since the stat: a socket's open() fails with ENXIO. */
        if (e == ENXIO && stat(path, &s) == 0 && !S_ISREG(s.st_mode))
            return not_regular(s.st_mode, why, cap);
        return open_failed(-1, e, why, cap);
    }
    if (fstat(fd, &s) != 0) return open_failed(fd, errno, why, cap);
    if (!S_ISREG(s.st_mode)) {
        close(fd);
        return not_regular(s.st_mode, why, cap);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        return open_failed(fd, errno, why, cap);
    *f = fdopen(fd, "rb");
    if (!*f) return open_failed(fd, errno, why, cap);
    if (st) *st = s;
    return 0;
}

/* Where read_whole failed, beyond rc_open_regular's two. */
enum { READ_ERROR = -3, TOO_LARGE = -4, NO_MEMORY = -5 };

/* Close f, free buf, put the reason in why, leave errno at e and return `stage`. */
static int read_fail(FILE *f, char *buf, int e, int stage, char *why, size_t cap,
                     const char *what) {
    if (f) fclose(f);
    free(buf);
    snprintf(why, cap, "%s", what);
    errno = e;
    return stage;
}

/* The whole file: 0, or one of the stages above with the reason alone in why and errno set. */
static int read_whole(const char *path, size_t max_bytes, char **data, size_t *len, char *why,
                      size_t cap) {
    *data = NULL;
    *len = 0;
    FILE *f;
    struct stat st;
    int opened = rc_open_regular(path, &f, &st, why, cap);
    if (opened != 0) return opened;
    char big[64];
    snprintf(big, sizeof big, "larger than %zu bytes", max_bytes);
    if ((uint64_t)st.st_size > (uint64_t)max_bytes)
        return read_fail(f, NULL, EFBIG, TOO_LARGE, why, cap, big);
    size_t size = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(size);
    if (!buf) return read_fail(f, NULL, ENOMEM, NO_MEMORY, why, cap, "out of memory");
    for (;;) {
        size_t got = fread(buf + n, 1, size - n - 1, f);
        n += got;
        if (n > max_bytes) break;
        if (n + 1 < size) break; /* short read: the end of the file, or an error */
        int c = fgetc(f);
        if (c == EOF) break;
        /* The file grew since fstat: make room for more. */
        if (rc_grow((void **)&buf, &size, n + 65536 + 2, 1) != 0)
            return read_fail(f, buf, ENOMEM, NO_MEMORY, why, cap, "out of memory");
        buf[n++] = (char)c;
    }
    if (n > max_bytes) return read_fail(f, buf, EFBIG, TOO_LARGE, why, cap, big);
    if (ferror(f)) {
        int e = errno ? errno : EIO;
        return read_fail(f, buf, e, READ_ERROR, why, cap, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

int rc_read_file(const char *path, size_t max_bytes, char **data, size_t *len, rc_error *err) {
    char why[128];
    int stage = read_whole(path, max_bytes, data, len, why, sizeof why);
    if (stage == 0) return 0;
    int e = errno;
    if (stage == RC_OPEN_FAILED)
        rc_fail(err, "%s: cannot open: %s", path, why);
    else if (stage == RC_OPEN_NOT_REGULAR)
        rc_fail(err, "%s: %s", path, why);
    else if (stage == READ_ERROR)
        rc_fail(err, "%s: read error: %s", path, why);
    else if (stage == TOO_LARGE)
        rc_fail(err, "%s: file is %s", path, why);
    else
        rc_fail(err, "%s: out of memory reading the file", path);
    errno = e;
    return -1;
}

char *read_file(const char *path, size_t max, size_t *len, char *why, size_t cap) {
    char reason[128], *data;
    int stage = read_whole(path, max, &data, len, reason, sizeof reason);
    if (stage != 0 && why && cap) {
        int e = errno;
        snprintf(why, cap, "%s", reason);
        errno = e;
    }
    return stage == 0 ? data : NULL;
}
