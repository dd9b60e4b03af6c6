/* image_decode.c: see image_decode.h. stb_image is compiled here with static linkage
 * (STB_IMAGE_STATIC): the compaction library's mask reader and some tests carry their own
 * copy, and none of the copies sees the others. */
#define _POSIX_C_SOURCE 200809L
#include "image_decode.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RC_IMAGE_MAX_SIDE 16384u

int rc_image_read_file(const char *path, size_t max_bytes, unsigned char **data, size_t *len,
                       rc_error *err) {
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return rc_fail(err, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return rc_fail(err, "%s: cannot read: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return rc_fail(err, "%s: %s", path,
                       S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
    }
    if ((unsigned long long)st.st_size > (unsigned long long)max_bytes) {
        close(fd);
        return rc_fail(err, "%s: file is larger than %zu bytes", path, max_bytes);
    }
    size_t cap = (size_t)st.st_size + 1, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return rc_fail(err, "%s: out of memory reading the file", path);
    }
    /* One byte more than fstat said: a file that grew is read to max_bytes + 1 at most. */
    for (;;) {
        if (n == cap) {
            if (cap > max_bytes) break;
            size_t ncap = cap + (cap < 65536 ? 65536 : cap);
            if (ncap > max_bytes + 1) ncap = max_bytes + 1;
            unsigned char *p = realloc(buf, ncap);
            if (!p) {
                free(buf);
                close(fd);
                return rc_fail(err, "%s: out of memory reading the file", path);
            }
            buf = p;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return rc_fail(err, "%s: read error: %s", path, strerror(e));
        }
        if (got == 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (n > max_bytes) {
        free(buf);
        return rc_fail(err, "%s: file is larger than %zu bytes", path, max_bytes);
    }
    *data = buf;
    *len = n;
    return 0;
}

/* ---- structure checks that stb_image 2.27 does not make ---- */

static uint32_t be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int is_png(const unsigned char *d, size_t len) {
    return len >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0;
}

static int is_jpeg(const unsigned char *d, size_t len) {
    return len >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF;
}

/* Every chunk inside the file and an IEND: NULL, or what is wrong. stb_image takes a file that
 * stops after its image data, and allocates a chunk's declared length before reading it. Empty
 * IDAT chunks (undefined behaviour in its inflater) are counted in *empty_idat. */
static const char *png_structure(const unsigned char *d, size_t len, size_t *empty_idat) {
    size_t at = 8;
    *empty_idat = 0;
    for (;;) {
        if (len - at < 12) return "truncated: the file ends before its IEND chunk";
        uint32_t n = be32(d + at);
        if (n > len - at - 12) return "truncated: a chunk runs past the end of the file";
        if (!memcmp(d + at + 4, "IEND", 4)) return NULL;
        *empty_idat += n == 0 && !memcmp(d + at + 4, "IDAT", 4);
        at += 12 + (size_t)n;
    }
}

/* The PNG without its empty IDAT chunks (malloc'ed), or NULL when out of memory. */
static unsigned char *png_drop_empty_idat(const unsigned char *d, size_t len, size_t *out_len) {
    unsigned char *c = malloc(len);
    if (!c) return NULL;
    memcpy(c, d, 8);
    size_t at = 8, j = 8;
    for (;;) {
        uint32_t n = be32(d + at);
        int end = !memcmp(d + at + 4, "IEND", 4);
        if (n != 0 || memcmp(d + at + 4, "IDAT", 4) != 0) {
            memcpy(c + j, d + at, 12 + (size_t)n);
            j += 12 + (size_t)n;
        }
        at += 12 + (size_t)n;
        if (end) break;
    }
    *out_len = j;
    return c;
}

/* A DHT segment's payload of n bytes: NULL, or what is wrong; the tables it defines are
 * marked in defined[class * 4 + id]. Each table is a class and id byte, 16 code counts and
 * their values; stb_image 2.27 writes one code length per code into a table of 257 entries
 * without checking that the counts sum to at most 256 (fixed in 2.28), which a fuzzed file
 * reaches from stbi_info alone. */
static const char *jpeg_dht(const unsigned char *p, size_t n, unsigned char defined[8]) {
    while (n > 0) {
        if (n < 17 || (p[0] >> 4) > 1 || (p[0] & 15) > 3) return "bad Huffman table";
        size_t codes = 0;
        for (int i = 1; i <= 16; i++) codes += p[i];
        if (codes > 256 || codes > n - 17) return "bad Huffman table";
        defined[(p[0] >> 4) * 4 + (p[0] & 15)] = 1;
        p += 17 + codes;
        n -= 17 + codes;
    }
    return NULL;
}

/* A scan header's payload (SOS) of n bytes: NULL when every Huffman table the scan decodes
 * with was defined before it. stb_image 2.27 keeps its tables in memory it does not clear
 * and decodes with an undefined one as it finds it, indexing its symbols with whatever is
 * there (found by fuzz_texture). progressive: the frame is SOF2, whose DC scans (Ss = 0)
 * use only DC tables, and only on the first pass (Ah = 0), and whose AC scans only AC ones. */
static const char *jpeg_sos(const unsigned char *p, size_t n, const unsigned char defined[8],
                            int progressive) {
    if (n < 1 || n < 1 + 2 * (size_t)p[0] + 3) return "bad scan header";
    unsigned ns = p[0];
    unsigned ss = p[1 + 2 * ns], ah = p[3 + 2 * ns] >> 4;
    for (unsigned c = 0; c < ns; c++) {
        unsigned td = p[2 + 2 * c] >> 4, ta = p[2 + 2 * c] & 15;
        if (td > 3 || ta > 3) return "bad scan header";
        int need_dc = !progressive || (ss == 0 && ah == 0), need_ac = !progressive || ss != 0;
        if ((need_dc && !defined[td]) || (need_ac && !defined[4 + ta]))
            return "a scan uses a Huffman table that is not defined";
    }
    return NULL;
}

/* The marker segments, checked complete (each Huffman table by jpeg_dht, each scan by
 * jpeg_sos), and an end of image: NULL, or what is wrong. stb_image pads a JPEG cut short with
 * zeros and decodes it. After a scan header the entropy-coded data runs to the next marker:
 * inside it 0xFF is always followed by 0x00 (a stuffed byte), a restart marker or another
 * 0xFF (fill), so the first other FF xx is the next segment (the tables and scans of a
 * progressive JPEG) or the end of the image, FF D9. */
static const char *jpeg_structure(const unsigned char *d, size_t len) {
    size_t at = 2;
    int in_scan = 0, progressive = 0;
    unsigned char defined[8] = {0};
    for (;;) {
        if (in_scan) {
            while (at + 1 < len && !(d[at] == 0xFF && d[at + 1] != 0x00 && d[at + 1] != 0xFF &&
                                     (d[at + 1] < 0xD0 || d[at + 1] > 0xD7)))
                at++;
            if (at + 1 >= len) return "truncated: no end-of-image marker after the image data";
        }
        while (at + 1 < len && d[at] == 0xFF && d[at + 1] == 0xFF) at++; /* fill bytes */
        if (len - at < 2 || d[at] != 0xFF) return "truncated: the file ends in its header";
        unsigned char m = d[at + 1];
        if (m == 0xD9) return NULL;                  /* end of image */
        if (m == 0x01 || (m >= 0xD0 && m <= 0xD8)) { /* markers without a length */
            at += 2;
            continue;
        }
        if (len - at < 4) return "truncated: the file ends in a segment";
        size_t seg = (size_t)d[at + 2] << 8 | d[at + 3];
        if (seg < 2 || seg > len - at - 2) return "truncated: a segment runs past the end";
        const char *why = NULL;
        if (m == 0xC2) progressive = 1;
        if (m == 0xC4) why = jpeg_dht(d + at + 4, seg - 2, defined);
        if (m == 0xDA) why = jpeg_sos(d + at + 4, seg - 2, defined, progressive);
        if (why) return why;
        at += 2 + seg;
        if (m == 0xDA) in_scan = 1; /* entropy-coded data follows the scan header */
    }
}

/* The Radiance header as stb_image reads it: "#?RADIANCE" or "#?RGBE", lines up to an empty
 * one (one of them FORMAT=32-bit_rle_rgbe), then "-Y H +X W". Lines are cut at 1023
 * characters, as its 1024-byte token buffer does. *data_at: the first byte after the header. */
static const char *hdr_header(const unsigned char *d, size_t len, long *w, long *h,
                              size_t *data_at) {
    char tok[1024];
    size_t at = 0;
    int line = 0, valid = 0;
    for (;;) {
        size_t n = 0;
        while (at < len && d[at] != '\n') {
            if (n < sizeof tok - 1) tok[n++] = (char)d[at];
            at++;
        }
        int had_newline = at < len;
        at += had_newline;
        tok[n] = '\0';
        if (line == 0) {
            if (strcmp(tok, "#?RADIANCE") != 0 && strcmp(tok, "#?RGBE") != 0)
                return "no #?RADIANCE or #?RGBE first line";
        } else if (line > 0 && n == 0) {
            break; /* the empty line that ends the header */
        } else if (strcmp(tok, "FORMAT=32-bit_rle_rgbe") == 0) {
            valid = 1;
        }
        if (!had_newline) return "truncated: the file ends in its header";
        line++;
    }
    if (!valid) return "unsupported format (FORMAT=32-bit_rle_rgbe only)";
    size_t n = 0;
    while (at < len && d[at] != '\n') {
        if (n < sizeof tok - 1) tok[n++] = (char)d[at];
        at++;
    }
    tok[n] = '\0';
    if (at == len) return "truncated: the file ends in its resolution line";
    *data_at = at + 1;
    char *p = tok, *end;
    if (strncmp(p, "-Y ", 3) != 0) return "unsupported layout (only -Y H +X W)";
    p += 3;
    *h = strtol(p, &end, 10);
    if (end == p) return "no height in the resolution line";
    p = end;
    while (*p == ' ') p++;
    if (strncmp(p, "+X ", 3) != 0) return "unsupported layout (only -Y H +X W)";
    p += 3;
    *w = strtol(p, &end, 10);
    if (end == p) return "no width in the resolution line";
    return NULL;
}

/* Walk the scanlines as stb_image will read them: NULL when every one is complete. stb_image
 * reads past the end as zeros, and loops for ever on a run-length count of 0 at the end of a
 * file; after this walk it never reaches the end. */
static const char *hdr_scanlines(const unsigned char *d, size_t len, size_t at, uint32_t w,
                                 uint32_t h, char *why, size_t cap) {
    size_t flat = (size_t)w * h * 4;
    if (w < 8 || w >= 32768) return len - at >= flat ? NULL : "truncated: the pixels stop early";
    for (uint32_t j = 0; j < h; j++) {
        if (len - at < 4) goto cut;
        if (d[at] != 2 || d[at + 1] != 2 || (d[at + 2] & 0x80)) {
            /* not run-length encoded: stb_image reads the whole image flat from here */
            return len - at >= flat ? NULL : "truncated: the pixels stop early";
        }
        if (((uint32_t)d[at + 2] << 8 | d[at + 3]) != w) return "bad scanline length";
        at += 4;
        for (int k = 0; k < 4; k++) {
            uint32_t i = 0;
            while (i < w) {
                if (at >= len) goto cut;
                unsigned c = d[at++];
                if (c > 128) {
                    c -= 128;
                    if (c > w - i) return "bad run-length data";
                    if (at >= len) goto cut;
                    at++;
                } else {
                    if (c > w - i) return "bad run-length data";
                    if (len - at < c) goto cut;
                    at += c;
                }
                i += c;
            }
        }
        continue;
    cut:
        snprintf(why, cap, "truncated: scanline %u of %u is incomplete", j + 1, h);
        return why;
    }
    return NULL;
}

#ifdef RC_HAVE_STB_IMAGE
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_HDR
#define STBI_FAILURE_USERMSG
/* static: the functions this file does not call, and two that 2.27 declares and never
   defines, would be reported unused at the end of the file (where a pop would not reach) */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb_image.h>

static const char *stb_reason(void) {
    const char *r = stbi_failure_reason();
    return r && *r ? r : "cannot decode";
}
#define HAVE_DECODER 1
#else
#define HAVE_DECODER 0
#endif

static int bad_image(rc_error *err, const char *name, int hdr, const char *why) {
    if (hdr) return rc_fail(err, "%s: not a Radiance HDR image (%s)", name, why);
    return rc_fail(err, "%s: not a PNG or JPEG image (stb_image: %s)", name, why);
}

static int check_size(rc_error *err, const char *name, long long w, long long h, size_t texel,
                      size_t max_bytes) {
    if (w < 1 || h < 1 || w > RC_IMAGE_MAX_SIDE || h > RC_IMAGE_MAX_SIDE)
        return rc_fail(err, "%s: %lldx%lld pixels: each side must be 1 to %u", name, w, h,
                       RC_IMAGE_MAX_SIDE);
    unsigned long long bytes = (unsigned long long)w * (unsigned long long)h * texel;
    if (bytes > max_bytes)
        return rc_fail(err, "%s: %lldx%lld pixels decode to %llu bytes, over the limit of %zu",
                       name, w, h, bytes, max_bytes);
    return 0;
}

int rc_image_info(const char *name, const unsigned char *data, size_t len, int hdr, uint32_t *w,
                  uint32_t *h, rc_error *err) {
    *w = *h = 0;
    if (len == 0) return bad_image(err, name, hdr, "empty file");
    if (hdr) {
        long lw = 0, lh = 0;
        size_t at;
        const char *why = hdr_header(data, len, &lw, &lh, &at);
        if (why) return bad_image(err, name, 1, why);
        if (lw < 1 || lh < 1 || lw > (long)RC_IMAGE_MAX_SIDE || lh > (long)RC_IMAGE_MAX_SIDE)
            return check_size(err, name, lw, lh, 12, (size_t)-1);
        *w = (uint32_t)lw;
        *h = (uint32_t)lh;
        return 3;
    }
    if (!is_png(data, len) && !is_jpeg(data, len))
        return bad_image(err, name, 0, "unknown image type");
    /* before stb_image reads even the header: its JPEG header reader builds Huffman tables */
    size_t empty = 0;
    const char *why =
        is_png(data, len) ? png_structure(data, len, &empty) : jpeg_structure(data, len);
    if (why) return bad_image(err, name, 0, why);
#if HAVE_DECODER
    if (len > INT_MAX) return bad_image(err, name, 0, "file too large");
    int iw = 0, ih = 0, comp = 0;
    if (!stbi_info_from_memory(data, (int)len, &iw, &ih, &comp))
        return bad_image(err, name, 0, stb_reason());
    if (check_size(err, name, iw, ih, 1, (size_t)-1) != 0) return -1;
    *w = (uint32_t)iw;
    *h = (uint32_t)ih;
    return is_png(data, len) ? 1 : 2;
#else
    return rc_fail(err, "%s: this build has no stb_image (install libstb-dev)", name);
#endif
}

int rc_image_decode_rgba8(const char *name, const unsigned char *data, size_t len, size_t max_bytes,
                          uint32_t *w, uint32_t *h, unsigned char **px, rc_error *err) {
    *px = NULL;
    int kind = rc_image_info(name, data, len, 0, w, h, err);
    if (kind < 0) return -1;
    if (check_size(err, name, *w, *h, 4, max_bytes) != 0) return -1;
#if HAVE_DECODER
    unsigned char *clean = NULL;
    size_t clean_len = 0, empty = 0;
    const char *why = kind == 1 ? png_structure(data, len, &empty) : jpeg_structure(data, len);
    if (why) return bad_image(err, name, 0, why);
    if (empty) {
        clean = png_drop_empty_idat(data, len, &clean_len);
        if (!clean) return rc_fail(err, "%s: out of memory", name);
        data = clean;
        len = clean_len;
    }
    int iw = 0, ih = 0, comp = 0;
    unsigned char *p = stbi_load_from_memory(data, (int)len, &iw, &ih, &comp, 4);
    free(clean);
    if (!p) return bad_image(err, name, 0, stb_reason());
    if ((uint32_t)iw != *w || (uint32_t)ih != *h) {
        stbi_image_free(p);
        return bad_image(err, name, 0, "the size decoded differs from the header's");
    }
    *px = p;
    return 0;
#else
    return -1;
#endif
}

int rc_image_decode_hdr(const char *name, const unsigned char *data, size_t len, size_t max_bytes,
                        uint32_t *w, uint32_t *h, float **rgb, rc_error *err) {
    *rgb = NULL;
    if (rc_image_info(name, data, len, 1, w, h, err) < 0) return -1;
    if (check_size(err, name, *w, *h, 12, max_bytes) != 0) return -1;
    long lw, lh;
    size_t at;
    hdr_header(data, len, &lw, &lh, &at);
    char buf[96];
    const char *why = hdr_scanlines(data, len, at, *w, *h, buf, sizeof buf);
    if (why) return bad_image(err, name, 1, why);
#if HAVE_DECODER
    if (len > INT_MAX) return bad_image(err, name, 1, "file too large");
    int iw = 0, ih = 0, comp = 0;
    float *p = stbi_loadf_from_memory(data, (int)len, &iw, &ih, &comp, 3);
    if (!p) return bad_image(err, name, 1, stb_reason());
    if ((uint32_t)iw != *w || (uint32_t)ih != *h) {
        stbi_image_free(p);
        return bad_image(err, name, 1, "the size decoded differs from the header's");
    }
    *rgb = p;
    return 0;
#else
    return rc_fail(err, "%s: this build has no stb_image (install libstb-dev)", name);
#endif
}
