/* screenshot.c: the drawn frame, overlay included, as an 8-bit PNG. */
#define _POSIX_C_SOURCE 200809L
#include "png.h"
#include "viewer.h"

#include <epoxy/gl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Write to a temporary file beside `path` and rename it, so nobody reads half an image. */
static int write_png(const char *path, const unsigned char *rgb, int w, int h, rc_error *err) {
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path) >= (int)sizeof tmp)
        return rc_fail(err, "%s: path too long", path);
    errno = 0;
    int fd = mkstemp(tmp);
    if (fd < 0) return rc_fail(err, "%s: cannot create: %s", path, strerror(errno));
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    FILE *f = fdopen(fd, "wb");
    int e = f ? rc_png_write(f, rgb, (uint32_t)w, (uint32_t)h, 0) : errno ? errno : EIO;
    if ((f ? fclose(f) != 0 : close(fd) != 0) && !e) e = errno ? errno : EIO;
    if (!e && rename(tmp, path) != 0) e = errno;
    if (e) {
        remove(tmp);
        return rc_fail(err, "%s: cannot write: %s", path, strerror(e));
    }
    return 0;
}

int rc_screenshot(const char *path, int w, int h, rc_error *err) {
    size_t row = (size_t)w * 3;
    unsigned char *px = malloc(row * (size_t)h * 2);
    if (!px) return rc_fail(err, "%s: out of memory", path);
    unsigned char *flipped = px + row * (size_t)h;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px);
    /* GL's rows start at the bottom, PNG's at the top. */
    for (int y = 0; y < h; y++)
        memcpy(flipped + row * (size_t)y, px + row * (size_t)(h - 1 - y), row);
    int rc = write_png(path, flipped, w, h, err);
    free(px);
    return rc;
}
