/* out_path.c: an output's symbolic links followed to the file they name, and the check made
 * before any work that the file can be written (out_path.h). */
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
        const char *slash = strrchr(real, '/');
        int dir_len = !slash ? 1 : slash == real ? 1 : (int)(slash - real);
        snprintf(why, cap, "%scannot write in '%.*s': %s", via, dir_len, slash ? real : ".",
                 strerror(e));
        return -1;
    }
    close(fd);
    unlink(tmp);
    return 0;
}
