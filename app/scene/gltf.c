/* gltf.c: the glTF 2.0 reader (gltf.h). The JSON is checked element by element into small
 * tables (buffers, views, accessors, primitives, nodes) before any binary data is read; the
 * data is then read straight from the buffers, strided, with every range proven in bounds by
 * the tables. Sizes are size_t and every product is checked. */
#define _POSIX_C_SOURCE 200809L
#include "gltf.h"
#include "read_file.h"
#include "scene.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef RC_HAVE_STB
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_GIF
#define STBI_FAILURE_USERMSG
#define STBI_MAX_DIMENSIONS RC_GLTF_MAX_IMAGE_SIZE
/* static: the declarations of the functions this file does not call stay unused */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb_image.h>
#endif

/* Element paths in messages ("meshes[2].primitives[0].attributes") are cut short where they
 * would not fit their buffer, on purpose. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define MIB             ((size_t)1 << 20)
#define JSON_NODE_BYTES 96 /* a cJSON node, its key's copy and the allocator's share */
#define MAX_NOTICES     16
#define MAX_COUNT       ((size_t)1 << 31) /* elements of one accessor */
#define MAX_ARRAY       (1 << 24)         /* elements of a top-level array */
#define GLB_JSON        0x4E4F534Au
#define GLB_BIN         0x004E4942u

enum {
    CT_BYTE = 5120,
    CT_UBYTE = 5121,
    CT_SHORT = 5122,
    CT_USHORT = 5123,
    CT_UINT = 5125,
    CT_FLOAT = 5126
};

typedef struct gbuf {
    const uint8_t *data;
    size_t len; /* byteLength */
    uint8_t *owned;
} gbuf;

typedef struct gview {
    uint32_t buffer;
    size_t offset, length, stride; /* stride 0: tightly packed */
} gview;

typedef struct gacc {
    int32_t view; /* -1: all zeros (before sparse) */
    size_t offset, count, stride, elem;
    uint32_t ctype, ncomp, csize;
    int normalized;
    size_t scount; /* sparse: 0 none */
    uint32_t sview, sctype, vview;
    size_t soffset, voffset;
} gacc;

enum { A_POS, A_NRM, A_TAN, A_UV0, A_UV1, A_COL, A_NUM };
static const char *const k_attr_names[A_NUM] = {"POSITION",   "NORMAL",     "TANGENT",
                                                "TEXCOORD_0", "TEXCOORD_1", "COLOR_0"};

typedef struct gprim {
    int32_t attr[A_NUM]; /* accessor indices, -1 absent */
    int32_t indices;
    int32_t material;
    uint32_t mode;
    size_t num_vertices, num_triangles;
    int triangles; /* a mode that makes triangles */
} gprim;

typedef struct gmesh {
    size_t first, count; /* into the primitive table */
} gmesh;

typedef struct gnode {
    double local[16];
    double world[16];
    int32_t mesh, camera, parent;
    const cJSON *children;
    int reached;
} gnode;

typedef struct gctx {
    const char *file, *dir;
    rc_error *err;
    const rc_gltf_options *opt;
    size_t limit, used;
    int notices;
    const uint8_t *bin; /* the GLB's BIN chunk */
    size_t bin_len;
    int is_glb;
    cJSON *root;
    /* the top-level arrays, as element pointers */
    const cJSON **a_buffers, **a_views, **a_accs, **a_meshes, **a_nodes, **a_mats, **a_texs,
        **a_imgs, **a_samps, **a_cams, **a_scenes;
    int n_buffers, n_views, n_accs, n_meshes, n_nodes, n_mats, n_texs, n_imgs, n_samps, n_cams,
        n_scenes;
    gbuf *bufs;
    gview *views;
    gacc *accs;
    gprim *prims;
    size_t n_prims;
    gmesh *meshes;
    gnode *nodes;
    int32_t *order; /* the scene's nodes, depth first */
    size_t n_order;
    rc_import *out;
} gctx;

/* ---- messages ---- */

static int fail(gctx *c, const char *elem, const char *fmt, ...) ECHO_PRINTF(3, 4);
static int fail(gctx *c, const char *elem, const char *fmt, ...) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (elem && *elem) return rc_fail(c->err, "%s: %s: %s", c->file, elem, what);
    return rc_fail(c->err, "%s: %s", c->file, what);
}

static void notice(gctx *c, const char *elem, const char *what) {
    if (!c->opt->notice || c->notices >= MAX_NOTICES) return;
    c->notices++;
    char line[512];
    char shown[512];
    snprintf(line, sizeof line, "%s: %s: %s", c->file, elem, what);
    c->opt->notice(c->opt->user, echo_escape(shown, sizeof shown, line));
}

static const char *jpath(char *buf, size_t cap, const char *parent, const char *key) {
    snprintf(buf, cap, "%s%s%s", parent, *parent ? "." : "", key);
    return buf;
}

static const char *jindex(char *buf, size_t cap, const char *parent, long i) {
    snprintf(buf, cap, "%s[%ld]", parent, i);
    return buf;
}

/* ---- memory ---- */

static int charge(gctx *c, size_t bytes, const char *elem, const char *what) {
    if (bytes > c->limit || c->used > c->limit - bytes)
        return fail(c, elem,
                    "%s needs %zu MiB, more than the memory limit of %zu MiB allows (%zu MiB "
                    "used so far)",
                    what, (bytes + MIB - 1) / MIB, c->limit / MIB, c->used / MIB);
    c->used += bytes;
    return 0;
}

/* a * b, or SIZE_MAX when it overflows */
static size_t mul_sat(size_t a, size_t b) {
    if (a && b > SIZE_MAX / a) return SIZE_MAX;
    return a * b;
}
static size_t add_sat(size_t a, size_t b) {
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static void *alloc_out(rc_import *im, size_t n, size_t elem) {
    size_t bytes = mul_sat(n, elem);
    if (bytes == SIZE_MAX) return NULL;
    void *p = calloc(bytes ? bytes : 1, 1);
    if (p) im->bytes += bytes;
    return p;
}

/* ---- JSON fields ---- */

static const cJSON *jget(const cJSON *o, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* An optional object field: 0 absent (*out NULL), 1 present, -1 not an object. */
static int jobject(gctx *c, const cJSON *o, const char *path, const char *key, const cJSON **out) {
    char fp[256];
    *out = jget(o, key);
    if (!*out) return 0;
    if (!cJSON_IsObject(*out))
        return fail(c, jpath(fp, sizeof fp, path, key), "expected an object");
    return 1;
}

/* An optional array field: 0 absent, 1 present (n elements), -1 not an array. */
static int jarray(gctx *c, const cJSON *o, const char *path, const char *key, const cJSON **out,
                  int *n) {
    char fp[256];
    *out = jget(o, key);
    *n = 0;
    if (!*out) return 0;
    if (!cJSON_IsArray(*out)) return fail(c, jpath(fp, sizeof fp, path, key), "expected an array");
    *n = cJSON_GetArraySize(*out);
    return 1;
}

/* An integer in [lo, hi]; absent: def, or an error when required. */
static int juint(gctx *c, const cJSON *o, const char *path, const char *key, int required,
                 size_t def, size_t lo, size_t hi, size_t *out) {
    char fp[256];
    const cJSON *it = jget(o, key);
    if (!it) {
        if (required) return fail(c, jpath(fp, sizeof fp, path, key), "missing");
        *out = def;
        return 0;
    }
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || !isfinite(v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return fail(c, jpath(fp, sizeof fp, path, key), "expected an integer in [%zu, %zu]", lo,
                    hi);
    *out = (size_t)v;
    return 0;
}

/* An index into a top-level array of n elements named `arr`; absent: -1 unless required. */
static int jref(gctx *c, const cJSON *o, const char *path, const char *key, int required, int n,
                const char *arr, int32_t *out) {
    char fp[256];
    const cJSON *it = jget(o, key);
    *out = -1;
    if (!it) {
        if (required) return fail(c, jpath(fp, sizeof fp, path, key), "missing");
        return 0;
    }
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || !isfinite(v) || v != floor(v) || v < 0)
        return fail(c, jpath(fp, sizeof fp, path, key), "expected an index into %s", arr);
    if (v >= n)
        return fail(c, jpath(fp, sizeof fp, path, key), "%s[%.0f] does not exist (%d in the file)",
                    arr, v > 1e15 ? 1e15 : v, n);
    *out = (int32_t)v;
    return 0;
}

/* A finite number in [lo, hi]; absent: def. */
static int jnum(gctx *c, const cJSON *o, const char *path, const char *key, double def, double lo,
                double hi, float *out) {
    char fp[256];
    const cJSON *it = jget(o, key);
    if (!it) {
        *out = (float)def;
        return 0;
    }
    double v = it->valuedouble;
    if (!cJSON_IsNumber(it) || !isfinite(v) || v < lo || v > hi)
        return fail(c, jpath(fp, sizeof fp, path, key), "expected a number in [%g, %g]", lo, hi);
    *out = (float)v;
    return 0;
}

static int jbool(gctx *c, const cJSON *o, const char *path, const char *key, int *out) {
    char fp[256];
    const cJSON *it = jget(o, key);
    if (!it) {
        *out = 0;
        return 0;
    }
    if (!cJSON_IsBool(it))
        return fail(c, jpath(fp, sizeof fp, path, key), "expected true or false");
    *out = cJSON_IsTrue(it);
    return 0;
}

/* An optional string: NULL when absent; -1 when not a string. */
static int jstring(gctx *c, const cJSON *o, const char *path, const char *key, const char **out) {
    char fp[256];
    const cJSON *it = jget(o, key);
    *out = NULL;
    if (!it) return 0;
    if (!cJSON_IsString(it) || !it->valuestring)
        return fail(c, jpath(fp, sizeof fp, path, key), "expected a string");
    *out = it->valuestring;
    return 0;
}

/* Exactly n numbers in [lo, hi] (finite); absent: *present 0 and out untouched. */
static int jnums(gctx *c, const cJSON *o, const char *path, const char *key, int n, double lo,
                 double hi, double *out, int *present) {
    char fp[256];
    const cJSON *it = jget(o, key);
    if (present) *present = 0;
    if (!it) return 0;
    jpath(fp, sizeof fp, path, key);
    if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != n)
        return fail(c, fp, "expected an array of %d numbers", n);
    int i = 0;
    for (const cJSON *e = it->child; e; e = e->next, i++) {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble))
            return fail(c, fp, "element %d is not a finite number", i);
        if (e->valuedouble < lo || e->valuedouble > hi)
            return fail(c, fp, "element %d (%g) is out of range [%g, %g]", i, e->valuedouble, lo,
                        hi);
        out[i] = e->valuedouble;
    }
    if (present) *present = 1;
    return 0;
}

/* A top-level array of objects as element pointers. */
static int top_array(gctx *c, const char *key, const cJSON ***items, int *n) {
    const cJSON *arr;
    if (jarray(c, c->root, "", key, &arr, n) <= 0) return arr ? -1 : 0;
    if (*n > MAX_ARRAY) return fail(c, key, "more than %d elements", MAX_ARRAY);
    if (*n == 0) return 0;
    *items = malloc((size_t)*n * sizeof **items);
    if (!*items) return fail(c, key, "out of memory");
    int i = 0;
    for (const cJSON *e = arr->child; e; e = e->next, i++) {
        char fp[64];
        jindex(fp, sizeof fp, key, i);
        if (!cJSON_IsObject(e)) return fail(c, fp, "expected an object");
        /* the properties every glTF object may have */
        const char *name;
        const cJSON *ext;
        if (jstring(c, e, fp, "name", &name) != 0 || jobject(c, e, fp, "extensions", &ext) < 0)
            return -1;
        (*items)[i] = e;
    }
    return 0;
}

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
    if (n % 4 == 1) return fail(c, elem, "invalid base64 data (bad length)");
    size_t len = n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0);
    if (charge(c, len, elem, "the decoded data") != 0) return -1;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) return fail(c, elem, "out of memory");
    size_t j = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64val((unsigned char)s[i]);
        if (v < 0) {
            free(buf);
            return fail(c, elem, "invalid base64 data (byte %zu)", i);
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
static int data_uri(gctx *c, const char *elem, const char *uri, const char *const *types,
                    uint8_t **out, size_t *len, const char **mime) {
    const char *comma = strchr(uri, ',');
    const char *semi = comma ? strstr(uri, ";base64,") : NULL;
    if (!comma || semi != comma - 7)
        return fail(c, elem, "a data: URI must be base64 (data:TYPE;base64,...)");
    size_t tl = (size_t)(semi - (uri + 5));
    for (const char *const *t = types; *t; t++)
        if (strlen(*t) == tl && memcmp(uri + 5, *t, tl) == 0) {
            if (mime) *mime = *t;
            return base64_decode(c, elem, comma + 1, strlen(comma + 1), out, len);
        }
    char shown[64];
    return fail(c, elem, "data: URI of media type '%s' is not read",
                echo_escape_n(shown, sizeof shown, uri + 5, tl));
}

/* A relative file URI: percent-decoded, no scheme, not absolute, no ".." segment; read only
 * when it is a regular file (opened without blocking, so a FIFO is refused, not waited on). */
static int read_uri_file(gctx *c, const char *elem, const char *uri, uint8_t **out, size_t *len) {
    char shown[128];
    echo_escape(shown, sizeof shown, uri);
    size_t n = strlen(uri);
    const char *colon = strchr(uri, ':'), *slash = strchr(uri, '/');
    if (colon && (!slash || colon < slash))
        return fail(c, elem, "URI '%s': only relative file paths and data: URIs are read", shown);
    if (uri[0] == '/' || uri[0] == '\\')
        return fail(c, elem,
                    "URI '%s': absolute paths are refused (paths are relative to the file)", shown);
    if (n == 0) return fail(c, elem, "empty URI");
    if (n > 1024) return fail(c, elem, "URI longer than 1024 bytes");
    if (!c->dir) return fail(c, elem, "URI '%s': external files are not read here", shown);
    char path[1100];
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = uri[i];
        if (ch == '%') {
            int hi = i + 2 < n ? hexval(uri[i + 1]) : -1;
            int lo = hi >= 0 ? hexval(uri[i + 2]) : -1;
            if (hi < 0 || lo < 0) return fail(c, elem, "URI '%s': bad percent escape", shown);
            ch = (char)(hi * 16 + lo);
            i += 2;
        }
        if (ch == '\0') return fail(c, elem, "URI '%s': NUL byte in the path", shown);
        if (ch == '\\') return fail(c, elem, "URI '%s': backslash in the path", shown);
        path[j++] = ch;
    }
    path[j] = '\0';
    /* no segment may be "..": the file must lie in the glTF file's directory or below */
    for (const char *s = path; *s;) {
        const char *e = strchr(s, '/');
        size_t sl = e ? (size_t)(e - s) : strlen(s);
        if (sl == 2 && s[0] == '.' && s[1] == '.')
            return fail(c, elem, "URI '%s': paths leaving the file's directory are refused", shown);
        s += sl + (e ? 1 : 0);
    }
    char full[4200];
    int w = snprintf(full, sizeof full, "%s/%s", c->dir, path);
    if (w < 0 || (size_t)w >= sizeof full) return fail(c, elem, "URI '%s': path too long", shown);
    int fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return fail(c, elem, "cannot open '%s': %s", shown, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(c, elem, "'%s' is not a regular file", shown);
    }
    size_t size = (size_t)st.st_size;
    if ((uint64_t)st.st_size > (uint64_t)c->limit || charge(c, size, elem, "the file") != 0) {
        close(fd);
        if ((uint64_t)st.st_size > (uint64_t)c->limit)
            return fail(c, elem, "'%s' is larger than the memory limit of %zu MiB", shown,
                        c->limit / MIB);
        return -1;
    }
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        return fail(c, elem, "out of memory reading '%s'", shown);
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

/* ---- buffers, views, accessors ---- */

static int read_buffers(gctx *c) {
    static const char *const types[] = {"application/octet-stream", "application/gltf-buffer",
                                        NULL};
    if (c->n_buffers) {
        c->bufs = calloc((size_t)c->n_buffers, sizeof *c->bufs);
        if (!c->bufs) return fail(c, "buffers", "out of memory");
    }
    for (int i = 0; i < c->n_buffers; i++) {
        const cJSON *o = c->a_buffers[i];
        char p[64];
        jindex(p, sizeof p, "buffers", i);
        size_t blen;
        const char *uri;
        if (juint(c, o, p, "byteLength", 1, 0, 1, SIZE_MAX >> 1, &blen) != 0 ||
            jstring(c, o, p, "uri", &uri) != 0)
            return -1;
        gbuf *b = &c->bufs[i];
        size_t have = 0;
        if (!uri) {
            if (i != 0 || !c->is_glb || !c->bin)
                return fail(c, p,
                            "no uri, and it is not the first buffer of a .glb with a BIN "
                            "chunk");
            b->data = c->bin;
            have = c->bin_len;
        } else if (strncmp(uri, "data:", 5) == 0) {
            if (data_uri(c, p, uri, types, &b->owned, &have, NULL) != 0) return -1;
            b->data = b->owned;
        } else {
            if (read_uri_file(c, p, uri, &b->owned, &have) != 0) return -1;
            b->data = b->owned;
        }
        if (have < blen)
            return fail(c, p, "byteLength %zu, but the data has only %zu bytes", blen, have);
        b->len = blen;
    }
    return 0;
}

static int read_views(gctx *c) {
    if (c->n_views) {
        c->views = calloc((size_t)c->n_views, sizeof *c->views);
        if (!c->views) return fail(c, "bufferViews", "out of memory");
    }
    for (int i = 0; i < c->n_views; i++) {
        const cJSON *o = c->a_views[i];
        char p[64];
        jindex(p, sizeof p, "bufferViews", i);
        gview *v = &c->views[i];
        int32_t b;
        size_t stride, target;
        if (jref(c, o, p, "buffer", 1, c->n_buffers, "buffers", &b) != 0 ||
            juint(c, o, p, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &v->offset) != 0 ||
            juint(c, o, p, "byteLength", 1, 0, 1, SIZE_MAX >> 1, &v->length) != 0 ||
            juint(c, o, p, "byteStride", 0, 0, 4, 252, &stride) != 0 ||
            juint(c, o, p, "target", 0, 34962, 34962, 34963, &target) != 0)
            return -1;
        if (jget(o, "byteStride") && stride % 4)
            return fail(c, p, "byteStride %zu is not a multiple of 4", stride);
        if (target != 34962 && target != 34963)
            return fail(c, p, "target %zu is neither 34962 (ARRAY_BUFFER) nor 34963", target);
        v->buffer = (uint32_t)b;
        v->stride = jget(o, "byteStride") ? stride : 0;
        size_t blen = c->bufs[b].len;
        if (v->offset > blen || v->length > blen - v->offset)
            return fail(c, p, "byteOffset %zu + byteLength %zu runs past buffers[%d] (%zu bytes)",
                        v->offset, v->length, b, blen);
    }
    return 0;
}

static uint32_t comp_size(uint32_t ct) {
    switch (ct) {
    case CT_BYTE:
    case CT_UBYTE:
        return 1;
    case CT_SHORT:
    case CT_USHORT:
        return 2;
    case CT_UINT:
    case CT_FLOAT:
        return 4;
    default:
        return 0;
    }
}

static const char *comp_name(uint32_t ct) {
    switch (ct) {
    case CT_BYTE:
        return "BYTE";
    case CT_UBYTE:
        return "UNSIGNED_BYTE";
    case CT_SHORT:
        return "SHORT";
    case CT_USHORT:
        return "UNSIGNED_SHORT";
    case CT_UINT:
        return "UNSIGNED_INT";
    default:
        return "FLOAT";
    }
}

/* count elements of `elem` bytes at `stride` from `off` fit in `len` bytes */
static int fits(size_t off, size_t count, size_t stride, size_t elem, size_t len) {
    if (off > len) return 0;
    if (count == 0) return 1;
    size_t last = mul_sat(count - 1, stride);
    return last != SIZE_MAX && elem <= len - off && last <= len - off - elem;
}

static int view_fail(gctx *c, const char *p, const char *what, size_t off, size_t count,
                     size_t stride, size_t elem, int32_t view) {
    if (stride == elem)
        return fail(c, p,
                    "%sbyteOffset %zu + %zu x %zu bytes runs past bufferViews[%d] (%zu bytes)",
                    what, off, count, elem, view, c->views[view].length);
    return fail(c, p,
                "%sbyteOffset %zu + %zu x %zu bytes at a stride of %zu runs past bufferViews[%d] "
                "(%zu bytes)",
                what, off, count, elem, stride, view, c->views[view].length);
}

static int read_sparse(gctx *c, const cJSON *sp, const char *path, gacc *a) {
    char p[128], ip[160], vp[160];
    jpath(p, sizeof p, path, "sparse");
    if (!cJSON_IsObject(sp)) return fail(c, p, "expected an object");
    const cJSON *ind, *val;
    if (juint(c, sp, p, "count", 1, 0, 1, a->count, &a->scount) != 0) return -1;
    jpath(ip, sizeof ip, p, "indices");
    jpath(vp, sizeof vp, p, "values");
    if (jobject(c, sp, p, "indices", &ind) <= 0) return ind ? -1 : fail(c, ip, "missing");
    if (jobject(c, sp, p, "values", &val) <= 0) return val ? -1 : fail(c, vp, "missing");
    int32_t iv, vv;
    size_t ct;
    if (jref(c, ind, ip, "bufferView", 1, c->n_views, "bufferViews", &iv) != 0 ||
        juint(c, ind, ip, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &a->soffset) != 0 ||
        juint(c, ind, ip, "componentType", 1, 0, 0, 1u << 16, &ct) != 0 ||
        jref(c, val, vp, "bufferView", 1, c->n_views, "bufferViews", &vv) != 0 ||
        juint(c, val, vp, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &a->voffset) != 0)
        return -1;
    if (ct != CT_UBYTE && ct != CT_USHORT && ct != CT_UINT)
        return fail(c, ip, "componentType %zu is not 5121, 5123 or 5125 (unsigned integers)", ct);
    a->sview = (uint32_t)iv;
    a->vview = (uint32_t)vv;
    a->sctype = (uint32_t)ct;
    size_t is = comp_size(a->sctype);
    if (!fits(a->soffset, a->scount, is, is, c->views[iv].length))
        return view_fail(c, ip, "", a->soffset, a->scount, is, is, iv);
    if (!fits(a->voffset, a->scount, a->elem, a->elem, c->views[vv].length))
        return view_fail(c, vp, "", a->voffset, a->scount, a->elem, a->elem, vv);
    return 0;
}

static int read_accessors(gctx *c) {
    static const char *const types[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
    static const uint32_t ncomps[] = {1, 2, 3, 4, 4, 9, 16};
    if (c->n_accs) {
        c->accs = calloc((size_t)c->n_accs, sizeof *c->accs);
        if (!c->accs) return fail(c, "accessors", "out of memory");
    }
    for (int i = 0; i < c->n_accs; i++) {
        const cJSON *o = c->a_accs[i];
        char p[64], fp[96];
        jindex(p, sizeof p, "accessors", i);
        gacc *a = &c->accs[i];
        size_t ct;
        const char *type;
        if (jref(c, o, p, "bufferView", 0, c->n_views, "bufferViews", &a->view) != 0 ||
            juint(c, o, p, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &a->offset) != 0 ||
            juint(c, o, p, "componentType", 1, 0, 0, 1u << 16, &ct) != 0 ||
            jbool(c, o, p, "normalized", &a->normalized) != 0 ||
            juint(c, o, p, "count", 1, 0, 1, MAX_COUNT, &a->count) != 0 ||
            jstring(c, o, p, "type", &type) != 0)
            return -1;
        a->ctype = (uint32_t)ct;
        a->csize = comp_size(a->ctype);
        if (!a->csize)
            return fail(c, jpath(fp, sizeof fp, p, "componentType"),
                        "%zu is not a component type (5120, 5121, 5122, 5123, 5125, 5126)", ct);
        if (!type) return fail(c, jpath(fp, sizeof fp, p, "type"), "missing");
        int t = -1;
        for (int k = 0; k < 7; k++)
            if (strcmp(type, types[k]) == 0) t = k;
        if (t < 0) {
            char shown[40];
            return fail(c, jpath(fp, sizeof fp, p, "type"),
                        "'%s' is not one of SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3, MAT4",
                        echo_escape(shown, sizeof shown, type));
        }
        if (a->normalized && (a->ctype == CT_FLOAT || a->ctype == CT_UINT))
            return fail(c, p, "normalized %s is not allowed", comp_name(a->ctype));
        a->ncomp = ncomps[t];
        /* matrix columns of 1- and 2-byte components start on 4-byte boundaries */
        if (t >= 4 && a->csize < 4) {
            uint32_t rows = t == 4 ? 2 : t == 5 ? 3 : 4;
            a->elem = (size_t)rows * ((rows * a->csize + 3) / 4 * 4);
        } else {
            a->elem = (size_t)a->ncomp * a->csize;
        }
        if (a->offset % a->csize)
            return fail(c, p, "byteOffset %zu is not a multiple of the component size %u",
                        a->offset, a->csize);
        if (a->view >= 0) {
            const gview *v = &c->views[a->view];
            a->stride = v->stride ? v->stride : a->elem;
            if (v->stride && v->stride < a->elem)
                return fail(c, p,
                            "bufferViews[%d].byteStride %zu is less than an element (%zu "
                            "bytes)",
                            a->view, v->stride, a->elem);
            if ((v->offset + a->offset) % a->csize || a->stride % a->csize)
                return fail(c, p, "data not aligned to its component size %u", a->csize);
            if (!fits(a->offset, a->count, a->stride, a->elem, v->length))
                return view_fail(c, p, "", a->offset, a->count, a->stride, a->elem, a->view);
        } else if (jget(o, "byteOffset")) {
            return fail(c, p, "byteOffset without a bufferView");
        }
        const cJSON *sp = jget(o, "sparse");
        if (sp && read_sparse(c, sp, p, a) != 0) return -1;
    }
    return 0;
}

/* ---- reading accessors ---- */

static float comp_float(const uint8_t *q, uint32_t ct, int norm) {
    switch (ct) {
    case CT_FLOAT: {
        float f;
        memcpy(&f, q, 4);
        return f;
    }
    case CT_UBYTE:
        return norm ? q[0] / 255.0f : q[0];
    case CT_BYTE: {
        float f = (int8_t)q[0];
        return norm ? fmaxf(f / 127.0f, -1.0f) : f;
    }
    case CT_USHORT: {
        uint16_t u;
        memcpy(&u, q, 2);
        return norm ? u / 65535.0f : u;
    }
    case CT_SHORT: {
        int16_t s;
        memcpy(&s, q, 2);
        return norm ? fmaxf(s / 32767.0f, -1.0f) : s;
    }
    default: {
        uint32_t u;
        memcpy(&u, q, 4);
        return (float)u;
    }
    }
}

static uint32_t comp_uint(const uint8_t *q, uint32_t ct) {
    if (ct == CT_UBYTE) return q[0];
    if (ct == CT_USHORT) {
        uint16_t u;
        memcpy(&u, q, 2);
        return u;
    }
    uint32_t u;
    memcpy(&u, q, 4);
    return u;
}

static const uint8_t *view_data(const gctx *c, uint32_t view) {
    const gview *v = &c->views[view];
    return c->bufs[v->buffer].data + v->offset;
}

/* The sparse substitution of accessor ai: element indices strictly increasing, below count. */
static int sparse_index(gctx *c, int ai, size_t j, size_t *prev, size_t *out) {
    const gacc *a = &c->accs[ai];
    size_t is = comp_size(a->sctype);
    size_t k = comp_uint(view_data(c, a->sview) + a->soffset + j * is, a->sctype);
    char p[64];
    if (k >= a->count || (j > 0 && k <= *prev))
        return fail(c, jindex(p, sizeof p, "accessors", ai), "sparse index %zu (entry %zu) is %s",
                    k, j, k >= a->count ? "not below the count" : "not above the one before");
    *prev = k;
    *out = k;
    return 0;
}

/* Accessor ai (ncomp components each) as floats, sparse values substituted; non-finite
 * values refused, naming the accessor and `use`. */
static int read_floats(gctx *c, int ai, float *out, const char *use) {
    const gacc *a = &c->accs[ai];
    uint32_t nc = a->ncomp;
    if (a->view >= 0) {
        const uint8_t *base = view_data(c, (uint32_t)a->view) + a->offset;
        size_t st = a->stride;
        if (a->ctype == CT_FLOAT) {
            if (st == (size_t)nc * 4) {
                memcpy(out, base, a->count * nc * 4);
            } else {
                for (size_t i = 0; i < a->count; i++) memcpy(out + i * nc, base + i * st, nc * 4);
            }
        } else {
            for (size_t i = 0; i < a->count; i++)
                for (uint32_t k = 0; k < nc; k++)
                    out[i * nc + k] =
                        comp_float(base + i * st + k * a->csize, a->ctype, a->normalized);
        }
    } else {
        memset(out, 0, a->count * nc * sizeof *out);
    }
    if (a->scount) {
        const uint8_t *vals = view_data(c, a->vview) + a->voffset;
        size_t prev = 0;
        for (size_t j = 0; j < a->scount; j++) {
            size_t k;
            if (sparse_index(c, ai, j, &prev, &k) != 0) return -1;
            for (uint32_t q = 0; q < nc; q++)
                out[k * nc + q] =
                    comp_float(vals + j * a->elem + q * a->csize, a->ctype, a->normalized);
        }
    }
    if (a->ctype == CT_FLOAT) {
        size_t n = a->count * nc;
        for (size_t i = 0; i < n; i++)
            if (!isfinite(out[i])) {
                char p[64];
                return fail(c, jindex(p, sizeof p, "accessors", ai),
                            "element %zu (%s) is not finite", i / nc, use);
            }
    }
    return 0;
}

static int read_uints(gctx *c, int ai, uint32_t *out) {
    const gacc *a = &c->accs[ai];
    if (a->view >= 0) {
        const uint8_t *base = view_data(c, (uint32_t)a->view) + a->offset;
        size_t st = a->stride;
        if (a->ctype == CT_UINT && st == 4)
            memcpy(out, base, a->count * 4);
        else if (a->ctype == CT_USHORT)
            for (size_t i = 0; i < a->count; i++) {
                uint16_t u;
                memcpy(&u, base + i * st, 2);
                out[i] = u;
            }
        else
            for (size_t i = 0; i < a->count; i++) out[i] = comp_uint(base + i * st, a->ctype);
    } else {
        memset(out, 0, a->count * sizeof *out);
    }
    if (a->scount) {
        const uint8_t *vals = view_data(c, a->vview) + a->voffset;
        size_t prev = 0;
        for (size_t j = 0; j < a->scount; j++) {
            size_t k;
            if (sparse_index(c, ai, j, &prev, &k) != 0) return -1;
            out[k] = comp_uint(vals + j * a->elem, a->ctype);
        }
    }
    return 0;
}

/* ---- samplers, textures, materials, cameras ---- */

static int read_samplers(gctx *c) {
    rc_import *im = c->out;
    if (c->n_samps && !(im->samplers = alloc_out(im, (size_t)c->n_samps, sizeof *im->samplers)))
        return fail(c, "samplers", "out of memory");
    im->num_samplers = (size_t)c->n_samps;
    for (int i = 0; i < c->n_samps; i++) {
        const cJSON *o = c->a_samps[i];
        char p[64], fp[96];
        jindex(p, sizeof p, "samplers", i);
        size_t mag, min, ws, wt;
        if (juint(c, o, p, "magFilter", 0, 0, 0, 1u << 16, &mag) != 0 ||
            juint(c, o, p, "minFilter", 0, 0, 0, 1u << 16, &min) != 0 ||
            juint(c, o, p, "wrapS", 0, 10497, 0, 1u << 16, &ws) != 0 ||
            juint(c, o, p, "wrapT", 0, 10497, 0, 1u << 16, &wt) != 0)
            return -1;
        if (jget(o, "magFilter") && mag != 9728 && mag != 9729)
            return fail(c, jpath(fp, sizeof fp, p, "magFilter"),
                        "%zu is not 9728 (NEAREST) or 9729 (LINEAR)", mag);
        if (jget(o, "minFilter") && min != 9728 && min != 9729 && (min < 9984 || min > 9987))
            return fail(c, jpath(fp, sizeof fp, p, "minFilter"),
                        "%zu is not one of 9728, 9729, 9984, 9985, 9986, 9987", min);
        size_t w[2] = {ws, wt};
        for (int k = 0; k < 2; k++)
            if (w[k] != 33071 && w[k] != 33648 && w[k] != 10497)
                return fail(c, jpath(fp, sizeof fp, p, k ? "wrapT" : "wrapS"),
                            "%zu is not 33071 (CLAMP_TO_EDGE), 33648 (MIRRORED_REPEAT) or 10497 "
                            "(REPEAT)",
                            w[k]);
        rc_import_sampler *s = &im->samplers[i];
        s->mag_filter = (uint32_t)mag;
        s->min_filter = (uint32_t)min;
        s->wrap_s = (uint32_t)ws;
        s->wrap_t = (uint32_t)wt;
    }
    return 0;
}

static int read_textures(gctx *c) {
    rc_import *im = c->out;
    if (c->n_texs && !(im->textures = alloc_out(im, (size_t)c->n_texs, sizeof *im->textures)))
        return fail(c, "textures", "out of memory");
    im->num_textures = (size_t)c->n_texs;
    for (int i = 0; i < c->n_texs; i++) {
        const cJSON *o = c->a_texs[i];
        char p[64];
        jindex(p, sizeof p, "textures", i);
        int32_t samp, img;
        if (jref(c, o, p, "sampler", 0, c->n_samps, "samplers", &samp) != 0 ||
            jref(c, o, p, "source", 0, c->n_imgs, "images", &img) != 0)
            return -1;
        rc_import_texture *t = &im->textures[i];
        t->image = img;
        t->sampler = (rc_import_sampler){0, 0, 10497, 10497};
        if (samp >= 0) t->sampler = im->samplers[samp];
    }
    return 0;
}

/* A textureInfo (with KHR_texture_transform); absent: texture -1. `scale_key` reads the
 * normalTexture's "scale" into *scale. */
static int read_texref(gctx *c, const cJSON *o, const char *path, const char *key,
                       rc_import_texref *t, const char *scale_key, float *scale) {
    char p[160];
    const cJSON *ti;
    *t = (rc_import_texref){-1, 0, {0, 0}, 0, {1, 1}};
    int r = jobject(c, o, path, key, &ti);
    if (r <= 0) return r;
    jpath(p, sizeof p, path, key);
    size_t tc;
    if (jref(c, ti, p, "index", 1, c->n_texs, "textures", &t->texture) != 0 ||
        juint(c, ti, p, "texCoord", 0, 0, 0, 1, &tc) != 0)
        return -1;
    t->texcoord = (uint32_t)tc;
    if (scale_key && jnum(c, ti, p, scale_key, 1.0, -1e6, 1e6, scale) != 0) return -1;
    const cJSON *ext, *tt;
    if (jobject(c, ti, p, "extensions", &ext) < 0) return -1;
    if (!ext) return 0;
    char ep[200];
    jpath(ep, sizeof ep, p, "extensions");
    if (jobject(c, ext, ep, "KHR_texture_transform", &tt) < 0) return -1;
    if (!tt) return 0;
    char tp[240];
    jpath(tp, sizeof tp, ep, "KHR_texture_transform");
    double off[2] = {0, 0}, sc[2] = {1, 1};
    if (jnums(c, tt, tp, "offset", 2, -1e6, 1e6, off, NULL) != 0 ||
        jnums(c, tt, tp, "scale", 2, -1e6, 1e6, sc, NULL) != 0 ||
        jnum(c, tt, tp, "rotation", 0.0, -1e6, 1e6, &t->rotation) != 0)
        return -1;
    if (jget(tt, "texCoord")) {
        if (juint(c, tt, tp, "texCoord", 0, 0, 0, 1, &tc) != 0) return -1;
        t->texcoord = (uint32_t)tc;
    }
    t->offset[0] = (float)off[0];
    t->offset[1] = (float)off[1];
    t->scale[0] = (float)sc[0];
    t->scale[1] = (float)sc[1];
    return 0;
}

static void default_material(rc_import_material *m) {
    memset(m, 0, sizeof *m);
    for (int k = 0; k < 4; k++) m->base_color[k] = 1.0f;
    m->metallic = 1.0f;
    m->roughness = 1.0f;
    m->normal_scale = 1.0f;
    m->emissive_strength = 1.0f;
    m->ior = 1.5f;
    rc_import_texref none = {-1, 0, {0, 0}, 0, {1, 1}};
    m->base_color_tex = m->metallic_roughness_tex = m->normal_tex = m->emissive_tex =
        m->transmission_tex = none;
}

static int read_material(gctx *c, const cJSON *o, const char *p, rc_import_material *m) {
    const cJSON *pbr, *ext, *x;
    char fp[160];
    default_material(m);
    if (jobject(c, o, p, "pbrMetallicRoughness", &pbr) < 0) return -1;
    if (pbr) {
        jpath(fp, sizeof fp, p, "pbrMetallicRoughness");
        double bc[4] = {1, 1, 1, 1};
        if (jnums(c, pbr, fp, "baseColorFactor", 4, 0.0, 1.0, bc, NULL) != 0 ||
            read_texref(c, pbr, fp, "baseColorTexture", &m->base_color_tex, NULL, NULL) != 0 ||
            jnum(c, pbr, fp, "metallicFactor", 1.0, 0.0, 1.0, &m->metallic) != 0 ||
            jnum(c, pbr, fp, "roughnessFactor", 1.0, 0.0, 1.0, &m->roughness) != 0 ||
            read_texref(c, pbr, fp, "metallicRoughnessTexture", &m->metallic_roughness_tex, NULL,
                        NULL) != 0)
            return -1;
        for (int k = 0; k < 4; k++) m->base_color[k] = (float)bc[k];
    }
    double em[3] = {0, 0, 0};
    float cutoff = 0.5f;
    const char *mode;
    if (read_texref(c, o, p, "normalTexture", &m->normal_tex, "scale", &m->normal_scale) != 0 ||
        read_texref(c, o, p, "emissiveTexture", &m->emissive_tex, NULL, NULL) != 0 ||
        jnums(c, o, p, "emissiveFactor", 3, 0.0, 1.0, em, NULL) != 0 ||
        jstring(c, o, p, "alphaMode", &mode) != 0 ||
        jnum(c, o, p, "alphaCutoff", 0.5, 0.0, 1e6, &cutoff) != 0 ||
        jbool(c, o, p, "doubleSided", &m->double_sided) != 0)
        return -1;
    const cJSON *occ;
    if (jobject(c, o, p, "occlusionTexture", &occ) < 0) return -1; /* read by no one */
    for (int k = 0; k < 3; k++) m->emissive[k] = (float)em[k];
    m->alpha_mode = RC_IMPORT_ALPHA_OPAQUE;
    if (mode && strcmp(mode, "MASK") == 0) {
        m->alpha_mode = RC_IMPORT_ALPHA_MASK;
        m->alpha_cutoff = cutoff;
    } else if (mode && strcmp(mode, "BLEND") == 0) {
        m->alpha_mode = RC_IMPORT_ALPHA_BLEND;
        m->alpha_cutoff = 0.5f;
    } else if (mode && strcmp(mode, "OPAQUE") != 0) {
        char shown[40];
        return fail(c, jpath(fp, sizeof fp, p, "alphaMode"), "'%s' is not OPAQUE, MASK or BLEND",
                    echo_escape(shown, sizeof shown, mode));
    }
    if (jobject(c, o, p, "extensions", &ext) < 0) return -1;
    if (!ext) return 0;
    char ep[160], xp[224];
    jpath(ep, sizeof ep, p, "extensions");
    if (jobject(c, ext, ep, "KHR_materials_emissive_strength", &x) < 0) return -1;
    if (x && jnum(c, x, jpath(xp, sizeof xp, ep, "KHR_materials_emissive_strength"),
                  "emissiveStrength", 1.0, 0.0, 1e9, &m->emissive_strength) != 0)
        return -1;
    if (jobject(c, ext, ep, "KHR_materials_transmission", &x) < 0) return -1;
    if (x) {
        jpath(xp, sizeof xp, ep, "KHR_materials_transmission");
        if (jnum(c, x, xp, "transmissionFactor", 0.0, 0.0, 1.0, &m->transmission) != 0 ||
            read_texref(c, x, xp, "transmissionTexture", &m->transmission_tex, NULL, NULL) != 0)
            return -1;
    }
    if (jobject(c, ext, ep, "KHR_materials_ior", &x) < 0) return -1;
    if (x) {
        jpath(xp, sizeof xp, ep, "KHR_materials_ior");
        if (jnum(c, x, xp, "ior", 1.5, 0.0, 100.0, &m->ior) != 0) return -1;
        if (m->ior != 0.0f && m->ior < 1.0f)
            return fail(c, jpath(fp, sizeof fp, xp, "ior"), "%g is neither 0 nor at least 1",
                        m->ior);
    }
    return 0;
}

static int read_materials(gctx *c, int need_default) {
    rc_import *im = c->out;
    size_t n = (size_t)c->n_mats + (need_default ? 1 : 0);
    if (n && !(im->materials = alloc_out(im, n, sizeof *im->materials)))
        return fail(c, "materials", "out of memory");
    im->num_materials = n;
    for (int i = 0; i < c->n_mats; i++) {
        char p[64];
        if (read_material(c, c->a_mats[i], jindex(p, sizeof p, "materials", i),
                          &im->materials[i]) != 0)
            return -1;
    }
    if (need_default) {
        default_material(&im->materials[c->n_mats]);
        im->materials[c->n_mats].is_default = 1;
    }
    return 0;
}

static int check_cameras(gctx *c) {
    for (int i = 0; i < c->n_cams; i++) {
        const cJSON *o = c->a_cams[i], *pp;
        char p[64], fp[96];
        jindex(p, sizeof p, "cameras", i);
        const char *type;
        if (jstring(c, o, p, "type", &type) != 0) return -1;
        if (!type) return fail(c, jpath(fp, sizeof fp, p, "type"), "missing");
        int persp = strcmp(type, "perspective") == 0;
        if (!persp && strcmp(type, "orthographic") != 0)
            return fail(c, jpath(fp, sizeof fp, p, "type"), "expected perspective or orthographic");
        if (jobject(c, o, p, type, &pp) < 0) return -1;
        if (!pp) return fail(c, jpath(fp, sizeof fp, p, type), "missing");
        if (!persp) continue;
        jpath(fp, sizeof fp, p, "perspective");
        float yfov = 0, ar = 0, zn = 0, zf = 0;
        if (!jget(pp, "yfov")) return fail(c, fp, "yfov missing");
        if (!jget(pp, "znear")) return fail(c, fp, "znear missing");
        if (jnum(c, pp, fp, "yfov", 0.8, 1e-6, 3.14159, &yfov) != 0 ||
            jnum(c, pp, fp, "aspectRatio", 1.0, 1e-6, 1e6, &ar) != 0 ||
            jnum(c, pp, fp, "znear", 1.0, 1e-30, 1e30, &zn) != 0 ||
            jnum(c, pp, fp, "zfar", 1e30, 1e-30, 1e38, &zf) != 0)
            return -1;
        if (jget(pp, "zfar") && !(zf > zn)) return fail(c, fp, "zfar is not beyond znear");
    }
    return 0;
}

/* ---- meshes ---- */

/* The accessor of a vertex attribute: its type and component types as the format allows. */
static int check_attr(gctx *c, const char *p, int k, int32_t ai) {
    const gacc *a = &c->accs[ai];
    const char *name = k_attr_names[k];
    int ok;
    const char *want;
    switch (k) {
    case A_POS:
    case A_NRM:
        ok = a->ncomp == 3 && a->ctype == CT_FLOAT && a->elem == 12;
        want = "VEC3 of FLOAT";
        break;
    case A_TAN:
        ok = a->ncomp == 4 && a->ctype == CT_FLOAT && a->elem == 16;
        want = "VEC4 of FLOAT";
        break;
    case A_UV0:
    case A_UV1:
        ok = a->ncomp == 2 && a->elem == a->ncomp * a->csize &&
             (a->ctype == CT_FLOAT ||
              (a->normalized && (a->ctype == CT_UBYTE || a->ctype == CT_USHORT)));
        want = "VEC2 of FLOAT or normalized UNSIGNED_BYTE or UNSIGNED_SHORT";
        break;
    default:
        ok = (a->ncomp == 3 || a->ncomp == 4) && a->elem == a->ncomp * a->csize &&
             (a->ctype == CT_FLOAT ||
              (a->normalized && (a->ctype == CT_UBYTE || a->ctype == CT_USHORT)));
        want = "VEC3 or VEC4 of FLOAT or normalized UNSIGNED_BYTE or UNSIGNED_SHORT";
    }
    if (!ok) return fail(c, p, "%s: accessors[%d] is not %s (the format's rule)", name, ai, want);
    return 0;
}

static int read_meshes(gctx *c) {
    size_t total = 0;
    for (int i = 0; i < c->n_meshes; i++) {
        const cJSON *arr;
        int n;
        char p[64];
        jindex(p, sizeof p, "meshes", i);
        if (jarray(c, c->a_meshes[i], p, "primitives", &arr, &n) < 0) return -1;
        if (!arr || n == 0) return fail(c, p, "primitives: missing or empty");
        total += (size_t)n;
    }
    if (c->n_meshes) {
        c->meshes = calloc((size_t)c->n_meshes, sizeof *c->meshes);
        c->prims = calloc(total ? total : 1, sizeof *c->prims);
        if (!c->meshes || !c->prims) return fail(c, "meshes", "out of memory");
    }
    size_t at = 0;
    for (int i = 0; i < c->n_meshes; i++) {
        char mp[64];
        jindex(mp, sizeof mp, "meshes", i);
        const cJSON *arr = jget(c->a_meshes[i], "primitives");
        c->meshes[i].first = at;
        int j = 0;
        for (const cJSON *o = arr->child; o; o = o->next, j++, at++) {
            char pp[96], fp[160];
            jindex(pp, sizeof pp, jpath(fp, sizeof fp, mp, "primitives"), j);
            gprim *g = &c->prims[at];
            if (!cJSON_IsObject(o)) return fail(c, pp, "expected an object");
            const cJSON *attrs, *targets;
            size_t mode;
            if (jobject(c, o, pp, "attributes", &attrs) < 0 ||
                jref(c, o, pp, "indices", 0, c->n_accs, "accessors", &g->indices) != 0 ||
                jref(c, o, pp, "material", 0, c->n_mats, "materials", &g->material) != 0 ||
                juint(c, o, pp, "mode", 0, 4, 0, 6, &mode) != 0)
                return -1;
            g->mode = (uint32_t)mode;
            char ap[128];
            jpath(ap, sizeof ap, pp, "attributes");
            if (!attrs) return fail(c, ap, "missing");
            for (const cJSON *it = attrs->child; it; it = it->next) {
                double v = it->valuedouble;
                if (!cJSON_IsNumber(it) || v != floor(v) || v < 0 || v >= c->n_accs)
                    return fail(c, jpath(fp, sizeof fp, ap, it->string),
                                "expected an index into accessors (%d in the file)", c->n_accs);
            }
            for (int k = 0; k < A_NUM; k++) {
                if (jref(c, attrs, ap, k_attr_names[k], 0, c->n_accs, "accessors", &g->attr[k]) !=
                    0)
                    return -1;
                if (g->attr[k] >= 0 && check_attr(c, ap, k, g->attr[k]) != 0) return -1;
            }
            int nt;
            if (jarray(c, o, pp, "targets", &targets, &nt) < 0) return -1;
            if (nt > 0) {
                c->out->num_morphed++;
                notice(c, pp, "morph targets ignored: the base POSITION is read");
            }
            g->triangles = mode >= 4;
            if (!g->triangles) {
                static const char *const names[] = {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP"};
                char what[96];
                snprintf(what, sizeof what, "mode %zu (%s) skipped: only triangles are read", mode,
                         names[mode]);
                c->out->num_skipped_primitives++;
                notice(c, pp, what);
                continue;
            }
            if (g->attr[A_POS] < 0) return fail(c, ap, "POSITION: missing");
            g->num_vertices = c->accs[g->attr[A_POS]].count;
            for (int k = 1; k < A_NUM; k++)
                if (g->attr[k] >= 0 && c->accs[g->attr[k]].count != g->num_vertices)
                    return fail(c, ap, "%s: accessors[%d] has %zu elements, POSITION %zu",
                                k_attr_names[k], g->attr[k], c->accs[g->attr[k]].count,
                                g->num_vertices);
            size_t n = g->num_vertices;
            if (g->indices >= 0) {
                const gacc *a = &c->accs[g->indices];
                if (a->ncomp != 1 || a->normalized ||
                    (a->ctype != CT_UBYTE && a->ctype != CT_USHORT && a->ctype != CT_UINT))
                    return fail(c, jpath(fp, sizeof fp, pp, "indices"),
                                "accessors[%d] is not a SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT "
                                "or UNSIGNED_INT",
                                g->indices);
                n = a->count;
            }
            if (mode == 4) {
                if (n % 3)
                    return fail(c, pp, "%zu %s is not a multiple of 3 (TRIANGLES)", n,
                                g->indices >= 0 ? "indices" : "vertices");
                g->num_triangles = n / 3;
            } else {
                g->num_triangles = n >= 3 ? n - 2 : 0;
            }
        }
        c->meshes[i].count = at - c->meshes[i].first;
    }
    c->n_prims = at;
    return 0;
}

/* ---- nodes ---- */

static void mat_identity(double *m) {
    memset(m, 0, 16 * sizeof *m);
    m[0] = m[5] = m[10] = m[15] = 1.0;
}

/* r = a * b (column-major) */
static void mat_mul(const double *a, const double *b, double *r) {
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[k * 4 + row] * b[col * 4 + k];
            r[col * 4 + row] = s;
        }
}

static int read_nodes(gctx *c) {
    if (c->n_nodes) {
        c->nodes = calloc((size_t)c->n_nodes, sizeof *c->nodes);
        if (!c->nodes) return fail(c, "nodes", "out of memory");
    }
    for (int i = 0; i < c->n_nodes; i++) c->nodes[i].parent = -1;
    const cJSON *skins;
    int n_skins;
    if (jarray(c, c->root, "", "skins", &skins, &n_skins) < 0) return -1;
    for (int i = 0; i < c->n_nodes; i++) {
        const cJSON *o = c->a_nodes[i];
        gnode *nd = &c->nodes[i];
        char p[64], fp[96], cp[96];
        jindex(p, sizeof p, "nodes", i);
        int32_t skin;
        int nc, has_m, has_t, has_r, has_s;
        double m[16], t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        if (jref(c, o, p, "mesh", 0, c->n_meshes, "meshes", &nd->mesh) != 0 ||
            jref(c, o, p, "camera", 0, c->n_cams, "cameras", &nd->camera) != 0 ||
            jref(c, o, p, "skin", 0, n_skins, "skins", &skin) != 0 ||
            jarray(c, o, p, "children", &nd->children, &nc) < 0 ||
            jnums(c, o, p, "matrix", 16, -1e30, 1e30, m, &has_m) != 0 ||
            jnums(c, o, p, "translation", 3, -1e30, 1e30, t, &has_t) != 0 ||
            jnums(c, o, p, "rotation", 4, -1.0, 1.0, r, &has_r) != 0 ||
            jnums(c, o, p, "scale", 3, -1e30, 1e30, s, &has_s) != 0)
            return -1;
        if (skin >= 0) {
            c->out->num_skinned++;
            notice(c, p, "skin ignored: the mesh is read in its bind pose");
        }
        if (has_m && (has_t || has_r || has_s))
            return fail(c, p, "has both a matrix and translation/rotation/scale");
        if (has_m) {
            memcpy(nd->local, m, sizeof m);
        } else {
            double qn = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
            if (!(qn > 1e-6))
                return fail(c, jpath(fp, sizeof fp, p, "rotation"), "is not a unit quaternion");
            double x = r[0] / qn, y = r[1] / qn, z = r[2] / qn, w = r[3] / qn;
            double R[9] = {
                1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
                2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y)};
            mat_identity(nd->local);
            for (int col = 0; col < 3; col++)
                for (int row = 0; row < 3; row++)
                    nd->local[col * 4 + row] = R[col * 3 + row] * s[col];
            for (int row = 0; row < 3; row++) nd->local[12 + row] = t[row];
        }
        int k = 0;
        for (const cJSON *e = nc ? nd->children->child : NULL; e; e = e->next, k++) {
            double v = e->valuedouble;
            if (!cJSON_IsNumber(e) || v != floor(v) || v < 0 || v >= c->n_nodes)
                return fail(c, jindex(fp, sizeof fp, jpath(cp, sizeof cp, p, "children"), k),
                            "expected an index into nodes (%d in the file)", c->n_nodes);
            int ch = (int)v;
            if (ch == i) return fail(c, p, "is its own child (the node hierarchy has a cycle)");
            if (c->nodes[ch].parent >= 0)
                return fail(c, jindex(fp, sizeof fp, "nodes", ch),
                            "has two parents, nodes[%d] and nodes[%d] (glTF nodes form a forest)",
                            c->nodes[ch].parent, i);
            c->nodes[ch].parent = i;
        }
    }
    return 0;
}

/* Depth first from the roots: world transforms and the order the scene's nodes are visited. */
static int walk_nodes(gctx *c, const int32_t *roots, size_t n_roots) {
    size_t cap = (size_t)c->n_nodes + 1;
    int32_t *stack = malloc(cap * sizeof *stack);
    int32_t *depth = malloc(cap * sizeof *depth);
    c->order = malloc(cap * sizeof *c->order);
    if (!stack || !depth || !c->order) {
        free(stack);
        free(depth);
        return fail(c, "nodes", "out of memory");
    }
    int rc = 0;
    size_t top = 0;
    for (size_t r = n_roots; r-- > 0;) {
        stack[top] = roots[r];
        depth[top++] = 0;
        double id[16];
        mat_identity(id);
        mat_mul(id, c->nodes[roots[r]].local, c->nodes[roots[r]].world);
    }
    while (top > 0 && rc == 0) {
        top--;
        int32_t i = stack[top], d = depth[top];
        gnode *nd = &c->nodes[i];
        char p[64];
        if (nd->reached) {
            rc = fail(c, jindex(p, sizeof p, "nodes", i), "is reached twice from the scene");
            break;
        }
        nd->reached = 1;
        c->order[c->n_order++] = i;
        if (d >= RC_GLTF_MAX_DEPTH) {
            rc = fail(c, jindex(p, sizeof p, "nodes", i), "deeper than %d levels",
                      RC_GLTF_MAX_DEPTH);
            break;
        }
        int nc = nd->children ? cJSON_GetArraySize(nd->children) : 0;
        if (top + (size_t)nc > cap) {
            rc = fail(c, jindex(p, sizeof p, "nodes", i), "too many children");
            break;
        }
        /* pushed in reverse, so the children are visited in their order */
        size_t base = top;
        top += (size_t)nc;
        size_t k = top;
        for (const cJSON *e = nc ? nd->children->child : NULL; e; e = e->next)
            stack[--k] = (int32_t)e->valuedouble;
        for (size_t q = base; q < top; q++) {
            depth[q] = d + 1;
            mat_mul(nd->world, c->nodes[stack[q]].local, c->nodes[stack[q]].world);
        }
    }
    free(stack);
    free(depth);
    return rc;
}

static int select_scene(gctx *c) {
    size_t si;
    int32_t scene = -1;
    if (jget(c->root, "scene")) {
        if (juint(c, c->root, "", "scene", 1, 0, 0, SIZE_MAX >> 1, &si) != 0) return -1;
        if (si >= (size_t)c->n_scenes)
            return fail(c, "scene", "scenes[%zu] does not exist (%d in the file)", si, c->n_scenes);
        scene = (int32_t)si;
    } else if (c->n_scenes > 0) {
        scene = 0;
    }
    /* every node must be reachable from a root: the nodes no root reaches are on a cycle */
    int32_t *roots = malloc(((size_t)c->n_nodes + 1) * sizeof *roots);
    if (!roots) return fail(c, "nodes", "out of memory");
    size_t nr = 0;
    for (int i = 0; i < c->n_nodes; i++)
        if (c->nodes[i].parent < 0) roots[nr++] = i;
    int rc = walk_nodes(c, roots, nr);
    if (rc == 0)
        for (int i = 0; i < c->n_nodes; i++)
            if (!c->nodes[i].reached) {
                char p[64];
                rc = fail(c, jindex(p, sizeof p, "nodes", i),
                          "is in a cycle of children (glTF nodes form a forest)");
                break;
            }
    /* then the chosen scene's roots only */
    if (rc == 0 && scene >= 0) {
        const cJSON *arr;
        int n;
        char sp[64], fp[96];
        jindex(sp, sizeof sp, "scenes", scene);
        nr = 0;
        if (jarray(c, c->a_scenes[scene], sp, "nodes", &arr, &n) < 0) rc = -1;
        for (const cJSON *e = arr && n ? arr->child : NULL; e && rc == 0; e = e->next) {
            double v = e->valuedouble;
            if (!cJSON_IsNumber(e) || v != floor(v) || v < 0 || v >= c->n_nodes) {
                rc = fail(c, jpath(fp, sizeof fp, sp, "nodes"),
                          "expected indices into nodes (%d in the file)", c->n_nodes);
            } else if (c->nodes[(int)v].parent >= 0) {
                rc = fail(c, jpath(fp, sizeof fp, sp, "nodes"),
                          "nodes[%d] is not a root (it is a child of nodes[%d])", (int)v,
                          c->nodes[(int)v].parent);
            } else if (c->nodes[(int)v].reached == 2) {
                rc = fail(c, jpath(fp, sizeof fp, sp, "nodes"), "lists nodes[%d] twice", (int)v);
            } else {
                c->nodes[(int)v].reached = 2;
                roots[nr++] = (int32_t)v;
            }
        }
        if (rc == 0) {
            for (int i = 0; i < c->n_nodes; i++) c->nodes[i].reached = 0;
            c->n_order = 0;
            free(c->order);
            c->order = NULL;
            rc = walk_nodes(c, roots, nr);
        }
    }
    free(roots);
    return rc;
}

/* ---- building the parts ---- */

static size_t vertex_bytes(const gctx *c, const gprim *g) {
    size_t b = 12 + 8; /* positions, uv0 */
    if (g->attr[A_NRM] >= 0) b += 12;
    if (g->attr[A_TAN] >= 0) b += 16;
    if (g->attr[A_UV1] >= 0) b += 8;
    if (g->attr[A_COL] >= 0) b += 16;
    (void)c;
    return b;
}

static int part_fail(gctx *c, const rc_import_part *pt, const char *what) {
    char p[96];
    snprintf(p, sizeof p, "meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
    return fail(c, p, "%s", what);
}

/* The triangles of a primitive: indices (or 0..n-1) unrolled by the mode, each checked. */
static int build_indices(gctx *c, const gprim *g, rc_import_part *pt, int flip) {
    size_t n = g->indices >= 0 ? c->accs[g->indices].count : g->num_vertices;
    uint32_t *src = NULL;
    if (g->indices >= 0) {
        /* a triangle list's indices are read in place, others unrolled from a copy */
        src = g->mode == 4 ? pt->indices : malloc(n * sizeof *src);
        if (!src) return part_fail(c, pt, "out of memory");
        if (read_uints(c, g->indices, src) != 0) {
            if (src != pt->indices) free(src);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            if (src[i] >= g->num_vertices) {
                char p[64];
                int r = fail(c, jindex(p, sizeof p, "accessors", g->indices),
                             "index %u (element %zu) is not below the vertex count %zu of "
                             "meshes[%u].primitives[%u]",
                             src[i], i, g->num_vertices, pt->mesh, pt->primitive);
                if (src != pt->indices) free(src);
                return r;
            }
    }
    uint32_t *t = pt->indices;
    size_t nt = g->num_triangles;
#define IDX(i) (src ? src[i] : (uint32_t)(i))
    if (g->mode == 4) {
        if (!src)
            for (size_t i = 0; i < 3 * nt; i++) t[i] = (uint32_t)i;
    } else if (g->mode == 5) {
        for (size_t i = 0; i < nt; i++) {
            t[3 * i] = IDX(i);
            t[3 * i + 1] = IDX(i + 1 + (i % 2));
            t[3 * i + 2] = IDX(i + 2 - (i % 2));
        }
    } else {
        for (size_t i = 0; i < nt; i++) {
            t[3 * i] = IDX(i + 1);
            t[3 * i + 1] = IDX(i + 2);
            t[3 * i + 2] = IDX(0);
        }
    }
#undef IDX
    if (flip)
        for (size_t i = 0; i < nt; i++) {
            uint32_t tmp = t[3 * i + 1];
            t[3 * i + 1] = t[3 * i + 2];
            t[3 * i + 2] = tmp;
        }
    if (src != pt->indices) free(src);
    return 0;
}

static void normalize3(float *v) {
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f && isfinite(l)) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static int build_part(gctx *c, const gprim *g, const gnode *nd, rc_import_part *pt) {
    rc_import *im = c->out;
    size_t nv = g->num_vertices;
    char use[96];
    pt->num_vertices = nv;
    pt->num_triangles = g->num_triangles;
    pt->positions = alloc_out(im, nv, 12);
    pt->uv0 = alloc_out(im, nv, 8);
    pt->indices = alloc_out(im, g->num_triangles, 12);
    if (g->attr[A_NRM] >= 0) pt->normals = alloc_out(im, nv, 12);
    if (g->attr[A_TAN] >= 0) pt->tangents = alloc_out(im, nv, 16);
    if (g->attr[A_UV1] >= 0) pt->uv1 = alloc_out(im, nv, 8);
    if (g->attr[A_COL] >= 0) pt->colors = alloc_out(im, nv, 16);
    if (!pt->positions || !pt->uv0 || !pt->indices || (g->attr[A_NRM] >= 0 && !pt->normals) ||
        (g->attr[A_TAN] >= 0 && !pt->tangents) || (g->attr[A_UV1] >= 0 && !pt->uv1) ||
        (g->attr[A_COL] >= 0 && !pt->colors))
        return part_fail(c, pt, "out of memory");
    snprintf(use, sizeof use, "POSITION of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
    if (read_floats(c, g->attr[A_POS], pt->positions, use) != 0) return -1;
    if (g->attr[A_UV0] >= 0) {
        pt->has_uv0 = 1;
        snprintf(use, sizeof use, "TEXCOORD_0 of meshes[%u].primitives[%u]", pt->mesh,
                 pt->primitive);
        if (read_floats(c, g->attr[A_UV0], pt->uv0, use) != 0) return -1;
    }
    if (pt->uv1) {
        snprintf(use, sizeof use, "TEXCOORD_1 of meshes[%u].primitives[%u]", pt->mesh,
                 pt->primitive);
        if (read_floats(c, g->attr[A_UV1], pt->uv1, use) != 0) return -1;
    }
    if (pt->normals) {
        snprintf(use, sizeof use, "NORMAL of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
        if (read_floats(c, g->attr[A_NRM], pt->normals, use) != 0) return -1;
    }
    if (pt->tangents) {
        snprintf(use, sizeof use, "TANGENT of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
        if (read_floats(c, g->attr[A_TAN], pt->tangents, use) != 0) return -1;
    }
    if (pt->colors) {
        const gacc *a = &c->accs[g->attr[A_COL]];
        snprintf(use, sizeof use, "COLOR_0 of meshes[%u].primitives[%u]", pt->mesh, pt->primitive);
        if (a->ncomp == 4) {
            if (read_floats(c, g->attr[A_COL], pt->colors, use) != 0) return -1;
        } else {
            float *tmp = malloc(nv * 12);
            if (!tmp) return part_fail(c, pt, "out of memory");
            if (read_floats(c, g->attr[A_COL], tmp, use) != 0) {
                free(tmp);
                return -1;
            }
            for (size_t i = 0; i < nv; i++) {
                memcpy(pt->colors + 4 * i, tmp + 3 * i, 12);
                pt->colors[4 * i + 3] = 1.0f;
            }
            free(tmp);
        }
    }
    /* the transform: positions by M, normals by its inverse transpose (the cofactor matrix,
       signed by the determinant), tangents by M with w flipped under a mirroring */
    const double *w = nd->world;
    float m[12];
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 3; row++) m[col * 3 + row] = (float)w[col * 4 + row];
    double a00 = w[0], a10 = w[1], a20 = w[2], a01 = w[4], a11 = w[5], a21 = w[6], a02 = w[8],
           a12 = w[9], a22 = w[10];
    double cof[9] = {a11 * a22 - a12 * a21, a02 * a21 - a01 * a22, a01 * a12 - a02 * a11,
                     a12 * a20 - a10 * a22, a00 * a22 - a02 * a20, a02 * a10 - a00 * a12,
                     a10 * a21 - a11 * a20, a01 * a20 - a00 * a21, a00 * a11 - a01 * a10};
    double det = a00 * cof[0] + a01 * cof[3] + a02 * cof[6];
    float sgn = det < 0 ? -1.0f : 1.0f;
    /* n' = A^-T n: row r of A^-T is column r of A^-1 = cof rows transposed */
    float nm[9];
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++) nm[r * 3 + k] = sgn * (float)cof[k * 3 + r];
    float *pos = pt->positions;
    for (size_t i = 0; i < nv; i++) {
        float x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
        for (int r = 0; r < 3; r++) {
            float v = m[r] * x + m[3 + r] * y + m[6 + r] * z + m[9 + r];
            pos[3 * i + r] = v;
            if (!isfinite(v)) {
                char p[64];
                return fail(c, jindex(p, sizeof p, "nodes", (long)(nd - c->nodes)),
                            "its transform makes POSITION of meshes[%u].primitives[%u] "
                            "not finite",
                            pt->mesh, pt->primitive);
            }
            if (v < im->bounds_min[r]) im->bounds_min[r] = v;
            if (v > im->bounds_max[r]) im->bounds_max[r] = v;
        }
    }
    if (pt->normals)
        for (size_t i = 0; i < nv; i++) {
            float *n = pt->normals + 3 * i, x = n[0], y = n[1], z = n[2];
            for (int r = 0; r < 3; r++)
                n[r] = nm[r * 3] * x + nm[r * 3 + 1] * y + nm[r * 3 + 2] * z;
            normalize3(n);
        }
    if (pt->tangents)
        for (size_t i = 0; i < nv; i++) {
            float *t = pt->tangents + 4 * i, x = t[0], y = t[1], z = t[2];
            for (int r = 0; r < 3; r++) t[r] = m[r] * x + m[3 + r] * y + m[6 + r] * z;
            normalize3(t);
            t[3] = (t[3] < 0 ? -1.0f : 1.0f) * sgn;
        }
    return build_indices(c, g, pt, det < 0);
}

static int build_parts(gctx *c) {
    rc_import *im = c->out;
    size_t n_inst = 0, n_parts = 0, bytes = 0, tris = 0;
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->mesh < 0) continue;
        n_inst++;
        const gmesh *me = &c->meshes[nd->mesh];
        for (size_t j = 0; j < me->count; j++) {
            const gprim *g = &c->prims[me->first + j];
            if (!g->triangles) continue;
            n_parts++;
            bytes = add_sat(bytes, mul_sat(g->num_vertices, vertex_bytes(c, g)));
            size_t idx = g->indices >= 0 ? c->accs[g->indices].count : 0;
            bytes = add_sat(bytes, mul_sat(g->num_triangles, 12));
            if (g->mode != 4) bytes = add_sat(bytes, mul_sat(idx, 4)); /* read, then unrolled */
            tris = add_sat(tris, g->num_triangles);
        }
    }
    bytes = add_sat(bytes, mul_sat(n_inst, sizeof *im->instances));
    bytes = add_sat(bytes, mul_sat(n_parts, sizeof *im->parts));
    if (tris > RC_GLTF_MAX_TRIANGLES)
        return fail(c, "meshes", "the scene has %zu triangles, more than %u", tris,
                    RC_GLTF_MAX_TRIANGLES);
    char what[96];
    snprintf(what, sizeof what, "the scene's %zu triangles in %zu parts", tris, n_parts);
    if (charge(c, bytes, "meshes", what) != 0) return -1;
    if ((n_inst && !(im->instances = alloc_out(im, n_inst, sizeof *im->instances))) ||
        (n_parts && !(im->parts = alloc_out(im, n_parts, sizeof *im->parts))))
        return fail(c, "meshes", "out of memory");
    for (int r = 0; r < 3; r++) {
        im->bounds_min[r] = INFINITY;
        im->bounds_max[r] = -INFINITY;
    }
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->mesh < 0) continue;
        rc_import_instance *in = &im->instances[im->num_instances];
        in->mesh = (uint32_t)nd->mesh;
        in->node = (uint32_t)c->order[k];
        for (int q = 0; q < 16; q++) in->world[q] = (float)nd->world[q];
        in->first_part = im->num_parts;
        const gmesh *me = &c->meshes[nd->mesh];
        for (size_t j = 0; j < me->count; j++) {
            const gprim *g = &c->prims[me->first + j];
            if (!g->triangles) continue;
            rc_import_part *pt = &im->parts[im->num_parts++];
            pt->mesh = (uint32_t)nd->mesh;
            pt->primitive = (uint32_t)j;
            pt->instance = (uint32_t)im->num_instances;
            pt->material = g->material >= 0 ? (uint32_t)g->material : (uint32_t)c->n_mats;
            if (build_part(c, g, nd, pt) != 0) return -1;
            im->num_vertices += pt->num_vertices;
            im->num_triangles += pt->num_triangles;
        }
        in->num_parts = im->num_parts - in->first_part;
        im->num_instances++;
    }
    if (im->num_vertices == 0)
        for (int r = 0; r < 3; r++) im->bounds_min[r] = im->bounds_max[r] = 0.0f;
    return 0;
}

/* ---- images ---- */

#ifdef RC_HAVE_STB
static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* stb_image 2.27 trusts a PNG chunk's length (it allocates it before reading) and mishandles
 * an empty IDAT: walk the chunks first; 0 when every chunk lies in the data and no IDAT is
 * empty. */
static int png_chunks_ok(const uint8_t *d, size_t len) {
    size_t at = 8;
    for (;;) {
        if (at + 12 > len) return 0;
        uint32_t n = be32(d + at);
        if (n > len - at - 12) return 0;
        if (!memcmp(d + at + 4, "IEND", 4)) return 1;
        if (n == 0 && !memcmp(d + at + 4, "IDAT", 4)) return 0;
        at += 12 + (size_t)n;
    }
}
#endif

static int decode_image(gctx *c, const char *p, const uint8_t *data, size_t len,
                        rc_import_image *img) {
#ifdef RC_HAVE_STB
    static const uint8_t png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    int w, h, comp;
    if (len < 8 || len > (size_t)INT32_MAX) return fail(c, p, "not a PNG or JPEG image");
    int is_png = memcmp(data, png_sig, 8) == 0;
    int is_jpeg = data[0] == 0xFF && data[1] == 0xD8;
    if (!is_png && !is_jpeg) return fail(c, p, "not a PNG or JPEG image");
    if (is_png && !png_chunks_ok(data, len))
        return fail(c, p, "PNG chunks run past the data (or an empty IDAT)");
    if (!stbi_info_from_memory(data, (int)len, &w, &h, &comp))
        return fail(c, p, "cannot decode the image: %s", stbi_failure_reason());
    if (w <= 0 || h <= 0 || w > RC_GLTF_MAX_IMAGE_SIZE || h > RC_GLTF_MAX_IMAGE_SIZE)
        return fail(c, p, "image of %d x %d pixels (at most %d each way)", w, h,
                    RC_GLTF_MAX_IMAGE_SIZE);
    size_t bytes = (size_t)w * (size_t)h * 4;
    /* the decoder's own buffers take about as much again */
    if (charge(c, 2 * bytes, p, "the decoded image") != 0) return -1;
    int dw, dh;
    uint8_t *px = stbi_load_from_memory(data, (int)len, &dw, &dh, &comp, 4);
    c->used -= bytes;
    if (!px) return fail(c, p, "cannot decode the image: %s", stbi_failure_reason());
    if (dw != w || dh != h) {
        stbi_image_free(px);
        return fail(c, p, "the image's size changed while decoding");
    }
    img->rgba = malloc(bytes);
    if (!img->rgba) {
        stbi_image_free(px);
        return fail(c, p, "out of memory");
    }
    memcpy(img->rgba, px, bytes);
    stbi_image_free(px);
    img->width = (uint32_t)w;
    img->height = (uint32_t)h;
    c->out->bytes += bytes;
    return 0;
#else
    (void)data;
    (void)len;
    (void)img;
    return fail(c, p, "this build reads no images (it was built without stb_image, libstb-dev)");
#endif
}

static int read_images(gctx *c) {
    static const char *const types[] = {"image/png", "image/jpeg", NULL};
    rc_import *im = c->out;
    if (c->n_imgs && !(im->images = alloc_out(im, (size_t)c->n_imgs, sizeof *im->images)))
        return fail(c, "images", "out of memory");
    im->num_images = (size_t)c->n_imgs;
    for (int i = 0; i < c->n_imgs; i++) {
        const cJSON *o = c->a_imgs[i];
        char p[64], fp[96];
        jindex(p, sizeof p, "images", i);
        const char *uri, *mime;
        int32_t view;
        if (jstring(c, o, p, "uri", &uri) != 0 || jstring(c, o, p, "mimeType", &mime) != 0 ||
            jref(c, o, p, "bufferView", 0, c->n_views, "bufferViews", &view) != 0)
            return -1;
        if ((uri != NULL) == (view >= 0)) return fail(c, p, "needs either a uri or a bufferView");
        if (mime && strcmp(mime, "image/png") != 0 && strcmp(mime, "image/jpeg") != 0) {
            char shown[40];
            return fail(c, jpath(fp, sizeof fp, p, "mimeType"),
                        "'%s' is not image/png or image/jpeg",
                        echo_escape(shown, sizeof shown, mime));
        }
        uint8_t *owned = NULL;
        const uint8_t *data;
        size_t len = 0;
        if (view >= 0) {
            if (!mime) return fail(c, p, "a bufferView image needs a mimeType");
            data = view_data(c, (uint32_t)view);
            len = c->views[view].length;
        } else if (strncmp(uri, "data:", 5) == 0) {
            if (data_uri(c, p, uri, types, &owned, &len, NULL) != 0) return -1;
            data = owned;
        } else {
            if (read_uri_file(c, p, uri, &owned, &len) != 0) return -1;
            data = owned;
        }
        int rc = decode_image(c, p, data, len, &im->images[i]);
        if (owned) {
            free(owned);
            c->used -= len;
        }
        if (rc != 0) return -1;
    }
    return 0;
}

/* ---- camera ---- */

static int read_camera(gctx *c) {
    rc_import_camera *cam = &c->out->camera;
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->camera < 0) continue;
        const cJSON *o = c->a_cams[nd->camera];
        const cJSON *pp = jget(o, "perspective");
        if (strcmp(jget(o, "type")->valuestring, "perspective") != 0 || !pp) continue;
        const double *w = nd->world;
        double from[3] = {w[12], w[13], w[14]};
        double fwd[3] = {-w[8], -w[9], -w[10]}, up[3] = {w[4], w[5], w[6]};
        double lf = sqrt(fwd[0] * fwd[0] + fwd[1] * fwd[1] + fwd[2] * fwd[2]);
        double lu = sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
        char p[64];
        if (!(lf > 1e-12) || !(lu > 1e-12) || !isfinite(lf) || !isfinite(lu) ||
            !isfinite(from[0] + from[1] + from[2]))
            return fail(c, jindex(p, sizeof p, "nodes", c->order[k]),
                        "the camera's transform is degenerate (no view direction)");
        cam->present = 1;
        cam->node = (uint32_t)c->order[k];
        cam->camera = (uint32_t)nd->camera;
        for (int r = 0; r < 3; r++) {
            cam->look_from[r] = (float)from[r];
            cam->look_at[r] = (float)(from[r] + fwd[r] / lf);
            cam->up[r] = (float)(up[r] / lu);
        }
        const cJSON *y = jget(pp, "yfov"), *a = jget(pp, "aspectRatio"), *z = jget(pp, "znear");
        cam->vfov = (float)(y->valuedouble * 180.0 / 3.14159265358979323846);
        cam->aspect = a ? (float)a->valuedouble : 0.0f;
        cam->znear = (float)z->valuedouble;
        return 0;
    }
    return 0;
}

/* ---- the top level ---- */

static int check_asset(gctx *c) {
    static const char *const supported[] = {
        "KHR_texture_transform", "KHR_materials_emissive_strength", "KHR_materials_transmission",
        "KHR_materials_ior", NULL};
    const cJSON *asset, *arr;
    const char *ver, *minv;
    int n;
    if (jobject(c, c->root, "", "asset", &asset) < 0) return -1;
    if (!asset) return fail(c, "asset", "missing");
    if (jstring(c, asset, "asset", "version", &ver) != 0 ||
        jstring(c, asset, "asset", "minVersion", &minv) != 0)
        return -1;
    if (!ver) return fail(c, "asset.version", "missing");
    char shown[40];
    size_t d = 2;
    int ok = ver[0] == '2' && ver[1] == '.' && ver[2] >= '0' && ver[2] <= '9';
    while (ok && ver[d + 1]) ok = ver[++d] >= '0' && ver[d] <= '9';
    if (!ok)
        return fail(c, "asset.version", "'%s' is not 2.x (only glTF 2 is read)",
                    echo_escape(shown, sizeof shown, ver));
    if (minv && strcmp(minv, "2.0") != 0)
        return fail(c, "asset.minVersion", "'%s': only glTF 2.0 is read",
                    echo_escape(shown, sizeof shown, minv));
    for (int pass = 0; pass < 2; pass++) {
        const char *key = pass ? "extensionsRequired" : "extensionsUsed";
        if (jarray(c, c->root, "", key, &arr, &n) < 0) return -1;
        int i = 0;
        for (const cJSON *e = n ? arr->child : NULL; e; e = e->next, i++) {
            char p[64];
            if (!cJSON_IsString(e))
                return fail(c, jindex(p, sizeof p, key, i), "expected a string");
            if (!pass) continue;
            int known = 0;
            for (const char *const *s = supported; *s; s++) known |= !strcmp(*s, e->valuestring);
            if (!known)
                return fail(c, jindex(p, sizeof p, key, i),
                            "the file requires %s, which this reader does not support",
                            echo_escape(shown, sizeof shown, e->valuestring));
        }
    }
    return 0;
}

/* An upper bound of the cJSON tree's size: one node a value at most, and a value is the first
 * of its container or follows a comma; the text itself for the strings' copies. */
static size_t json_estimate(const char *s, size_t n) {
    size_t nodes = 1;
    for (size_t i = 0; i < n; i++) nodes += s[i] == ',' || s[i] == '[' || s[i] == '{';
    return add_sat(mul_sat(nodes, JSON_NODE_BYTES), n + 1);
}

static int parse_json(gctx *c, const char *text, size_t len) {
    if (charge(c, json_estimate(text, len), "", "the JSON tree") != 0) return -1;
    const char *end = NULL;
    c->root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!c->root) {
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        size_t line = 1, col = 1;
        for (size_t i = 0; i < at && i < len; i++) {
            if (text[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return rc_fail(c->err, "%s:%zu:%zu: invalid JSON", c->file, line, col);
    }
    for (const char *q = end; q && q < text + len; q++)
        if (*q != ' ' && *q != '\t' && *q != '\r' && *q != '\n' && *q != '\0')
            return fail(c, "", "text after the JSON value at byte %zu", (size_t)(q - text));
    if (!cJSON_IsObject(c->root)) return fail(c, "", "the glTF JSON must be an object");
    return 0;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The .glb container: header, the JSON chunk, an optional BIN chunk (used in place). */
static int parse_glb(gctx *c, const uint8_t *d, size_t len, const char **json, size_t *json_len) {
    if (len < 12) return fail(c, "", "a .glb needs a 12-byte header (the file has %zu bytes)", len);
    uint32_t version = le32(d + 4), total = le32(d + 8);
    if (version != 2) return fail(c, "", "glb version %u (only 2 is read)", version);
    if (total != len)
        return fail(c, "", "the glb header's length %u is not the file's size %zu", total, len);
    size_t at = 12;
    int have_json = 0, have_bin = 0;
    while (at < len) {
        if (len - at < 8) return fail(c, "", "glb chunk header at byte %zu is truncated", at);
        uint32_t cl = le32(d + at), ct = le32(d + at + 4);
        if (cl > len - at - 8)
            return fail(c, "",
                        "glb chunk at byte %zu: length %u runs past the end of the file "
                        "(%zu bytes)",
                        at, cl, len);
        if (cl % 4)
            return fail(c, "", "glb chunk at byte %zu: length %u is not a multiple of 4", at, cl);
        const uint8_t *body = d + at + 8;
        if (!have_json) {
            if (ct != GLB_JSON) return fail(c, "", "the first glb chunk is not JSON");
            *json = (const char *)body;
            *json_len = cl;
            have_json = 1;
        } else if (ct == GLB_JSON) {
            return fail(c, "", "a second JSON chunk at byte %zu", at);
        } else if (ct == GLB_BIN) {
            if (have_bin) return fail(c, "", "a second BIN chunk at byte %zu", at);
            if (at != 12 + 8 + *json_len)
                return fail(c, "", "the BIN chunk does not follow the JSON chunk");
            c->bin = body;
            c->bin_len = cl;
            have_bin = 1;
        }
        at += 8 + (size_t)cl;
    }
    if (!have_json) return fail(c, "", "the glb has no JSON chunk");
    return 0;
}

static int parse_all(gctx *c, const uint8_t *data, size_t len) {
    const char *json = (const char *)data;
    size_t json_len = len;
    c->is_glb = len >= 4 && memcmp(data, "glTF", 4) == 0;
    size_t nl = strlen(c->file);
    if (!c->is_glb && nl >= 4 && strcmp(c->file + nl - 4, ".glb") == 0)
        return fail(c, "", "not a .glb file: it does not start with 'glTF'");
    if (c->is_glb && parse_glb(c, data, len, &json, &json_len) != 0) return -1;
    if (parse_json(c, json, json_len) != 0) return -1;
    size_t scene;
    if (check_asset(c) != 0 || juint(c, c->root, "", "scene", 0, 0, 0, SIZE_MAX >> 1, &scene) != 0)
        return -1;
    if (top_array(c, "buffers", &c->a_buffers, &c->n_buffers) != 0 ||
        top_array(c, "bufferViews", &c->a_views, &c->n_views) != 0 ||
        top_array(c, "accessors", &c->a_accs, &c->n_accs) != 0 ||
        top_array(c, "meshes", &c->a_meshes, &c->n_meshes) != 0 ||
        top_array(c, "nodes", &c->a_nodes, &c->n_nodes) != 0 ||
        top_array(c, "materials", &c->a_mats, &c->n_mats) != 0 ||
        top_array(c, "textures", &c->a_texs, &c->n_texs) != 0 ||
        top_array(c, "images", &c->a_imgs, &c->n_imgs) != 0 ||
        top_array(c, "samplers", &c->a_samps, &c->n_samps) != 0 ||
        top_array(c, "cameras", &c->a_cams, &c->n_cams) != 0 ||
        top_array(c, "scenes", &c->a_scenes, &c->n_scenes) != 0)
        return -1;
    if (read_buffers(c) != 0 || read_views(c) != 0 || read_accessors(c) != 0 ||
        read_samplers(c) != 0 || read_textures(c) != 0 || check_cameras(c) != 0 ||
        read_meshes(c) != 0 || read_nodes(c) != 0 || select_scene(c) != 0)
        return -1;
    int need_default = 0;
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->mesh < 0) continue;
        for (size_t j = 0; j < c->meshes[nd->mesh].count; j++) {
            const gprim *g = &c->prims[c->meshes[nd->mesh].first + j];
            need_default |= g->triangles && g->material < 0;
        }
    }
    if (read_materials(c, need_default) != 0 || build_parts(c) != 0 || read_images(c) != 0 ||
        read_camera(c) != 0)
        return -1;
    return 0;
}

static void ctx_free(gctx *c) {
    cJSON_Delete(c->root);
    free(c->a_buffers);
    free(c->a_views);
    free(c->a_accs);
    free(c->a_meshes);
    free(c->a_nodes);
    free(c->a_mats);
    free(c->a_texs);
    free(c->a_imgs);
    free(c->a_samps);
    free(c->a_cams);
    free(c->a_scenes);
    for (int i = 0; c->bufs && i < c->n_buffers; i++) free(c->bufs[i].owned);
    free(c->bufs);
    free(c->views);
    free(c->accs);
    free(c->prims);
    free(c->meshes);
    free(c->nodes);
    free(c->order);
}

static size_t limit_bytes(const rc_gltf_options *opt) {
    size_t mib = opt->max_mib ? opt->max_mib : RC_DEFAULT_MAX_MEMORY_MIB;
    return mib > SIZE_MAX / MIB ? SIZE_MAX : mib * MIB;
}

static int parse_with(const char *name, const char *dir, const void *data, size_t len,
                      const rc_gltf_options *opt, size_t used, rc_import *out, rc_error *err) {
    static const rc_gltf_options none = {0, NULL, NULL};
    memset(out, 0, sizeof *out);
    gctx c;
    memset(&c, 0, sizeof c);
    c.file = name;
    c.dir = dir;
    c.err = err;
    c.opt = opt ? opt : &none;
    c.limit = limit_bytes(c.opt);
    c.used = used;
    c.out = out;
    int rc = parse_all(&c, data, len);
    ctx_free(&c);
    if (rc != 0) rc_import_free(out);
    return rc;
}

int rc_gltf_parse(const char *name, const char *dir, const void *data, size_t len,
                  const rc_gltf_options *opt, rc_import *out, rc_error *err) {
    return parse_with(name, dir, data, len, opt, 0, out, err);
}

int rc_gltf_load(const char *path, const rc_gltf_options *opt, rc_import *out, rc_error *err) {
    static const rc_gltf_options none = {0, NULL, NULL};
    memset(out, 0, sizeof *out);
    size_t limit = limit_bytes(opt ? opt : &none);
    char *data;
    size_t len;
    if (rc_read_file(path, limit, &data, &len, err) != 0) return -1;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int rc = parse_with(path, dir, data, len, opt, len, out, err);
    free(data);
    return rc;
}

/* ---- the result ---- */

void rc_import_free(rc_import *im) {
    if (!im) return;
    for (size_t i = 0; im->parts && i < im->num_parts; i++) {
        rc_import_part *p = &im->parts[i];
        free(p->positions);
        free(p->normals);
        free(p->tangents);
        free(p->uv0);
        free(p->uv1);
        free(p->colors);
        free(p->indices);
    }
    free(im->parts);
    free(im->instances);
    free(im->materials);
    free(im->textures);
    for (size_t i = 0; im->images && i < im->num_images; i++) free(im->images[i].rgba);
    free(im->images);
    free(im->samplers);
    memset(im, 0, sizeof *im);
}

void rc_import_frame(const rc_import *im, float vfov, float aspect, rc_import_camera *cam) {
    memset(cam, 0, sizeof *cam);
    float c[3], r2 = 0.0f;
    for (int k = 0; k < 3; k++) {
        c[k] = 0.5f * (im->bounds_min[k] + im->bounds_max[k]);
        float h = 0.5f * (im->bounds_max[k] - im->bounds_min[k]);
        r2 += h * h;
    }
    float r = sqrtf(r2);
    if (!(r > 0.0f)) r = 1.0f;
    if (!(vfov > 0.0f && vfov < 180.0f)) vfov = 40.0f;
    double half_v = vfov * 3.14159265358979323846 / 360.0;
    double half = half_v;
    if (aspect > 0.0f) {
        double half_h = atan(tan(half_v) * aspect);
        if (half_h < half) half = half_h;
    }
    float dist = (float)(r / sin(half));
    cam->present = 1;
    for (int k = 0; k < 3; k++) {
        cam->look_at[k] = c[k];
        cam->look_from[k] = c[k];
    }
    cam->look_from[2] += dist;
    cam->up[1] = 1.0f;
    cam->vfov = vfov;
    cam->aspect = aspect;
    cam->znear = dist - r > 0.0f ? 0.01f * (dist - r) : 0.001f * r;
}
