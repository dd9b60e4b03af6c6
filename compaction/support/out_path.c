/* out_path.c: an output's symbolic links followed to the file they name, the check made before
 * any work that the file can be written, and the write itself (out_path.h). */
#define _POSIX_C_SOURCE 200809L /* lstat, readlink, mkstemp */
#include "out_path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int out_path_resolve(const char *path, char *out, size_t cap) {
    char cur[OUT_PATH_MAX], target[OUT_PATH_MAX];
    size_t len = strlen(path);
    if (len >= sizeof cur) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(cur, path, len + 1);
    for (int links = 0;; links++) {
        struct stat st;
        /* A name that does not exist (or cannot be looked at) ends the chain: the write that
         * follows creates it or says why not. */
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break;
        if (links == OUT_PATH_MAX_LINKS) {
            errno = ELOOP;
            return -1;
        }
        ssize_t n = readlink(cur, target, sizeof target);
        if (n < 0) return -1;
        if ((size_t)n >= sizeof target) {
            errno = ENAMETOOLONG;
            return -1;
        }
        target[n] = '\0';
        /* A relative target is read from the link's directory, which stays in cur. */
        const char *slash = strrchr(cur, '/');
        size_t keep = target[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        if (keep + (size_t)n >= sizeof cur) {
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(cur + keep, target, (size_t)n + 1);
    }
    len = strlen(cur);
    if (len >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(out, cur, len + 1);
    return 0;
}

int out_path_check(const char *path, char *why, size_t cap) {
    char real[OUT_PATH_MAX], via[2 * OUT_PATH_MAX + 64] = "", tmp[OUT_PATH_MAX + 16];
    if (out_path_resolve(path, real, sizeof real) != 0) {
        snprintf(why, cap, "cannot follow the symbolic link '%s': %s", path, strerror(errno));
        return -1;
    }
    if (strcmp(real, path) != 0)
        snprintf(via, sizeof via, "'%s' is a symbolic link to '%s': ", path, real);
    struct stat st;
    if (stat(real, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(why, cap, "%s'%s' is not a regular file", via, real);
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", real);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        char dir[OUT_PATH_MAX];
        rc_dirname(real, dir, sizeof dir);
        snprintf(why, cap, "%scannot write in '%s': %s", via, dir, strerror(e));
        return -1;
    }
    close(fd);
    unlink(tmp);
    return 0;
}

int rc_write_file(const char *path, const char *data, size_t len, rc_error *err) {
    char real[OUT_PATH_MAX]; /* through a symbolic link, its target */
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
