/* test_read_file.c: rc_open_regular and the whole-file readers (read_file.h) on every kind of
 * file a path can name: a regular file opens (blocking, close-on-exec) and reads; a FIFO, a
 * symbolic link to one, a unix socket, character and block devices and a directory are refused
 * at once with the kind named, nothing read. A FIFO that were opened would block this program
 * for good: alarm() ends it instead, and CTest's timeout backs that up.
 * Usage: test_read_file DIR (made when missing, the files are created in it) */
#define _POSIX_C_SOURCE 200809L /* mkfifo, symlink, fchdir */
#include "check.h"
#include "read_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

TEST_COUNTERS;

/* path is refused as not a regular file of this kind, by all three entry points. */
static void refused(const char *path, const char *kind, int want_errno) {
    char why[128], want[128];
    snprintf(want, sizeof want, "not a regular file (%s)", kind);
    FILE *f = (FILE *)1;
    errno = 0;
    int rc = rc_open_regular(path, &f, NULL, why, sizeof why);
    CHECK(rc == RC_OPEN_NOT_REGULAR && f == NULL && errno == want_errno,
          "%s: rc %d, errno %d (%s), want %d", path, rc, errno, strerror(errno), want_errno);
    CHECK(rc != 0 && !strcmp(why, want), "%s: '%s', want '%s'", path, rc ? why : "(opened)", want);
    if (rc == 0 && f) fclose(f);

    rc_error err;
    char *data = (char *)1, line[300];
    size_t len = 1;
    rc = rc_read_file(path, 1 << 20, &data, &len, &err);
    snprintf(line, sizeof line, "%s: %s", path, want);
    CHECK(rc == -1 && data == NULL && len == 0 && errno == want_errno, "%s: rc_read_file %d", path,
          rc);
    CHECK(rc != 0 && !strcmp(err.msg, line), "%s: '%s', want '%s'", path, rc ? err.msg : "", line);
    if (rc == 0) free(data);

    why[0] = 0;
    data = read_file(path, 1 << 20, &len, why, sizeof why);
    CHECK(data == NULL && !strcmp(why, want), "%s: read_file '%s', want '%s'", path, why, want);
    free(data);
}

static void regular(void) {
    FILE *w = fopen("regular.txt", "wb");
    CHECK(w && fputs("three\nlines\nhere\n", w) >= 0 && fclose(w) == 0, "regular.txt: %s",
          strerror(errno));
    FILE *f = NULL;
    struct stat st;
    char why[128] = "";
    int rc = rc_open_regular("regular.txt", &f, &st, why, sizeof why);
    CHECK(rc == 0 && f && st.st_size == 17, "regular.txt: rc %d (%s)", rc, why);
    if (rc == 0 && f) {
        int flags = fcntl(fileno(f), F_GETFL), fd_flags = fcntl(fileno(f), F_GETFD);
        CHECK(flags >= 0 && !(flags & O_NONBLOCK), "regular.txt: left non-blocking (%#x)", flags);
        CHECK(fd_flags >= 0 && (fd_flags & FD_CLOEXEC), "regular.txt: not close-on-exec");
        char buf[32] = "";
        CHECK(fread(buf, 1, sizeof buf, f) == 17 && !strncmp(buf, "three\n", 6), "read: '%s'", buf);
        fclose(f);
    }
    char *data = NULL;
    size_t len = 0;
    rc_error err;
    rc = rc_read_file("regular.txt", 1 << 20, &data, &len, &err);
    CHECK(rc == 0 && len == 17 && data && data[17] == 0 && !strcmp(data + 12, "here\n"),
          "rc_read_file: %s", rc ? err.msg : "wrong bytes");
    free(data);
    data = read_file("regular.txt", 1 << 20, &len, why, sizeof why);
    CHECK(data && len == 17, "read_file: %s", data ? "wrong length" : why);
    free(data);

    /* The other messages keep their forms. */
    rc = rc_read_file("regular.txt", 3, &data, &len, &err);
    CHECK(rc == -1 && errno == EFBIG &&
              !strcmp(err.msg, "regular.txt: file is larger than 3 bytes"),
          "too large: %s", err.msg);
    data = read_file("regular.txt", 3, &len, why, sizeof why);
    CHECK(!data && errno == EFBIG && !strcmp(why, "larger than 3 bytes"), "too large: %s", why);
    free(data);
    rc = rc_open_regular("nosuch.txt", &f, NULL, why, sizeof why);
    CHECK(rc == RC_OPEN_FAILED && errno == ENOENT && !strcmp(why, strerror(ENOENT)),
          "missing: rc %d, '%s'", rc, why);
    rc = rc_read_file("nosuch.txt", 1 << 20, &data, &len, &err);
    CHECK(rc == -1 && errno == ENOENT &&
              !strcmp(err.msg, "nosuch.txt: cannot open: No such file or directory"),
          "missing: %s", err.msg);
}

/* The first block device in /dev, if there is one. */
static int block_device(char *out, size_t cap) {
    DIR *d = opendir("/dev");
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d))) {
        struct stat st;
        snprintf(out, cap, "/dev/%s", e->d_name);
        found = stat(out, &st) == 0 && S_ISBLK(st.st_mode);
    }
    if (d) closedir(d);
    return found;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_read_file DIR\n");
        return 2;
    }
    /* The files by short names (a unix socket's path is at most 107 bytes). */
    if ((mkdir(argv[1], 0777) != 0 && errno != EEXIST) || chdir(argv[1]) != 0) {
        fprintf(stderr, "test_read_file: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    alarm(20); /* a blocked open() ends the program here (SIGALRM) */
    regular();

    unlink("fifo.obj");
    CHECK(mkfifo("fifo.obj", 0600) == 0, "mkfifo: %s", strerror(errno));
    refused("fifo.obj", "a FIFO", EINVAL);
    unlink("link.obj");
    CHECK(symlink("fifo.obj", "link.obj") == 0, "symlink: %s", strerror(errno));
    refused("link.obj", "a FIFO", EINVAL);

    unlink("socket.json");
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    snprintf(addr.sun_path, sizeof addr.sun_path, "socket.json");
    CHECK(s >= 0 && bind(s, (struct sockaddr *)&addr, sizeof addr) == 0, "socket: %s",
          strerror(errno));
    refused("socket.json", "a socket", EINVAL);
    if (s >= 0) close(s);

    refused("/dev/null", "a character device", EINVAL);
    refused("/dev/zero", "a character device", EINVAL);
    char dev[300];
    if (block_device(dev, sizeof dev))
        refused(dev, "a block device", EINVAL);
    else
        printf("test_read_file: no block device in /dev, that case left out\n");
    refused(".", "a directory", EISDIR);
    refused("/", "a directory", EISDIR);

    printf("test_read_file: %d checks, %d failed\n", test_checks, test_failures);
    return test_failures != 0;
}
