/* gltf_uri.c: where the glTF reader's bytes come from besides the file itself: data: URIs
 * (strict base64) and relative files in the glTF file's directory, each charged to the memory
 * budget before it is read (gltf_internal.h). */
#define _POSIX_C_SOURCE 200809L
#include "gltf_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- URIs and files ---- */

static int hexval(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static int b64val(unsigned char ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Strict base64 (padding optional at the end only) into a new buffer. */
static int base64_decode(gctx *c, const char *elem, const char *s, size_t n, uint8_t **out,
                         size_t *out_len) {
    while (n > 0 && s[n - 1] == '=' && (n % 4 != 1)) n--;
    if (n % 4 == 1) return gltf_fail(c, elem, "invalid base64 data (bad length)");
    size_t len = n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0);
    if (gltf_charge(c, len, elem, "the decoded data") != 0) return -1;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) return gltf_fail(c, elem, "out of memory");
    size_t j = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64val((unsigned char)s[i]);
        if (v < 0) {
            free(buf);
            return gltf_fail(c, elem, "invalid base64 data (byte %zu)", i);
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            buf[j++] = (uint8_t)(acc >> bits);
        }
    }
    *out = buf;
    *out_len = j;
    return 0;
}

/* A data: URI of one of the allowed media types (NULL-terminated) into a new buffer. */
int gltf_data_uri(gctx *c, const char *elem, const char *uri, const char *const *types,
                  uint8_t **out, size_t *len, const char **mime) {
    const char *comma = strchr(uri, ',');
    const char *semi = comma ? strstr(uri, ";base64,") : NULL;
    if (!comma || semi != comma - 7)
        return gltf_fail(c, elem, "a data: URI must be base64 (data:TYPE;base64,...)");
    size_t tl = (size_t)(semi - (uri + 5));
    for (const char *const *t = types; *t; t++)
        if (strlen(*t) == tl && memcmp(uri + 5, *t, tl) == 0) {
            if (mime) *mime = *t;
            return base64_decode(c, elem, comma + 1, strlen(comma + 1), out, len);
        }
    char shown[64];
    return gltf_fail(c, elem, "data: URI of media type '%s' is not read",
                     echo_escape_n(shown, sizeof shown, uri + 5, tl));
}

/* A relative file URI: percent-decoded, no scheme, not absolute, no ".." segment; read only
 * when it is a regular file (opened without blocking, so a FIFO is refused, not waited on). */
int gltf_read_uri_file(gctx *c, const char *elem, const char *uri, uint8_t **out, size_t *len) {
    char shown[128];
    echo_escape(shown, sizeof shown, uri);
    size_t n = strlen(uri);
    const char *colon = strchr(uri, ':'), *slash = strchr(uri, '/');
    if (colon && (!slash || colon < slash))
        return gltf_fail(c, elem, "URI '%s': only relative file paths and data: URIs are read",
                         shown);
    if (uri[0] == '/' || uri[0] == '\\')
        return gltf_fail(c, elem,
                         "URI '%s': absolute paths are refused (paths are relative to the file)",
                         shown);
    if (n == 0) return gltf_fail(c, elem, "empty URI");
    if (n > 1024) return gltf_fail(c, elem, "URI longer than 1024 bytes");
    if (!c->dir) return gltf_fail(c, elem, "URI '%s': external files are not read here", shown);
    char path[1100];
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = uri[i];
        if (ch == '%') {
            int hi = i + 2 < n ? hexval(uri[i + 1]) : -1;
            int lo = hi >= 0 ? hexval(uri[i + 2]) : -1;
            if (hi < 0 || lo < 0) return gltf_fail(c, elem, "URI '%s': bad percent escape", shown);
            ch = (char)(hi * 16 + lo);
            i += 2;
        }
        if (ch == '\0') return gltf_fail(c, elem, "URI '%s': NUL byte in the path", shown);
        if (ch == '\\') return gltf_fail(c, elem, "URI '%s': backslash in the path", shown);
        path[j++] = ch;
    }
    path[j] = '\0';
    /* no segment may be "..": the file must lie in the glTF file's directory or below */
    for (const char *s = path; *s;) {
        const char *e = strchr(s, '/');
        size_t sl = e ? (size_t)(e - s) : strlen(s);
        if (sl == 2 && s[0] == '.' && s[1] == '.')
            return gltf_fail(c, elem, "URI '%s': paths leaving the file's directory are refused",
                             shown);
        s += sl + (e ? 1 : 0);
    }
    char full[4200];
    int w = snprintf(full, sizeof full, "%s/%s", c->dir, path);
    if (w < 0 || (size_t)w >= sizeof full)
        return gltf_fail(c, elem, "URI '%s': path too long", shown);
    int fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return gltf_fail(c, elem, "cannot open '%s': %s", shown, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return gltf_fail(c, elem, "'%s' is not a regular file", shown);
    }
    size_t size = (size_t)st.st_size;
    if ((uint64_t)st.st_size > (uint64_t)c->limit || gltf_charge(c, size, elem, "the file") != 0) {
        close(fd);
        if ((uint64_t)st.st_size > (uint64_t)c->limit)
            return gltf_fail(c, elem, "'%s' is larger than the memory limit of %zu MiB", shown,
                             c->limit / MIB);
        return -1;
    }
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        return gltf_fail(c, elem, "out of memory reading '%s'", shown);
    }
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    *out = buf;
    *len = got; /* a file that shrank is caught by the byteLength check */
    return 0;
}
