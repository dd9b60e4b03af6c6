/* obj_chunks.c: the OBJ reader over all threads. The text is cut at line ends into chunks of
 * about chunk_bytes, and each phase is a loop over the chunks (OpenMP, one chunk at a time):
 *   1. count: each chunk's v, vt, vn statements and fan triangles (a face of k references
 *      gives k - 2); prefix sums place every chunk's records in the mesh's arrays.
 *   2. parse: each chunk writes its records in place; a face's indices resolve against the
 *      records counted before it (its chunk's base plus those above it in the chunk), which is
 *      what a relative (negative) index counts back from.
 *   3. materials, in file order on one thread: the mtllib and usemtl statements the chunks
 *      noted, so a chunk starts with the material of the last usemtl above it.
 *   4. keep: each chunk drops its zero-area triangles (every vertex is known now) and gives
 *      each kept one its material; then the chunks' kept runs close up in order.
 * The cut, and so the result, depends on chunk_bytes only, never on the thread count, and every
 * record lands where the serial parse puts it. On anything the serial parse could refuse the
 * chunked parse stops and returns the serial parse's answer, message and line included.
 * obj.h's readers (rc_obj_parse, rc_obj_load...) are at the end: they all parse this way. */
#include "grow.h"
#include "obj_internal.h"
#include "obj_number.h"
#include "read_file.h"
#include "read_par.h"
#include "text_tokens.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* An mtllib or usemtl statement: the rest of its line, before triangle `tri` of the chunk. */
typedef struct mtl_event {
    const char *s, *e;
    size_t tri;
    int is_usemtl;
    uint32_t material; /* in force after it (phase 3) */
} mtl_event;

typedef struct chunk {
    const char *s, *e;
    size_t nv, nt, nn, ntri; /* phase 1 */
    size_t v0, t0, n0, tri0; /* where its records start in the mesh's arrays */
    int slash;               /* a face reference with a '/' */
    int bad;                 /* something the serial parse might refuse */
    mtl_event *ev;
    size_t num_ev, cap_ev;
    uint32_t material; /* in force at the chunk's start (phase 3) */
    size_t kept, degenerate;
    int any_t, any_n, any_m; /* a kept triangle with such corners or a material */
    /* the current face's references */
    uint32_t *face;
    size_t cap_face;
} chunk;

/* The line starting at s (< end): its end without the newline in *le, the start of the next
 * line returned, the line cut at a comment in *ce. */
static const char *next_line(const char *s, const char *end, const char **le, const char **ce) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    *le = nl ? nl : end;
    const char *hash = memchr(s, '#', (size_t)(*le - s));
    *ce = hash ? hash : *le;
    return nl ? nl + 1 : end;
}

static void count_chunk(chunk *c) {
    if (memchr(c->s, '\0', (size_t)(c->e - c->s))) {
        c->bad = 1;
        return;
    }
    for (const char *s = c->s; s < c->e;) {
        const char *le, *end, *pos = s;
        s = next_line(s, c->e, &le, &end);
        rc_token kw, t;
        if (!rc_tok_next(&pos, end, &kw) || kw.n > 2) continue;
        if (kw.s[0] == 'v' && kw.n == 1) {
            c->nv++;
        } else if (kw.s[0] == 'v' && kw.s[1] == 't') {
            c->nt++;
        } else if (kw.s[0] == 'v' && kw.s[1] == 'n') {
            c->nn++;
        } else if (kw.s[0] == 'f' && kw.n == 1) {
            size_t k = 0;
            if (memchr(pos, '/', (size_t)(end - pos))) c->slash = 1;
            while (rc_tok_next(&pos, end, &t)) k++;
            if (k < 3) {
                c->bad = 1;
                return;
            }
            c->ntri += k - 2;
        }
    }
}

/* A number as the serial parse reads it: the fast path, or strtod's; 0, or -1 where the serial
 * parse reports an error. */
static int coord(rc_token t, float *out) {
    char buf[64];
    if (t.n >= sizeof buf) return -1; /* the serial parse's limit, even on a number */
    if (rc_obj_float_fast(t.s, t.n, RC_OBJ_MAX_COORD, out)) return 0;
    memcpy(buf, t.s, t.n);
    buf[t.n] = '\0';
    char *end;
    errno = 0;
    double d = strtod(buf, &end);
    if (end == buf || *end != '\0') return -1;
    if (!isfinite(d) || fabs(d) > RC_OBJ_MAX_COORD || errno == ERANGE) {
        if (errno == ERANGE && fabs(d) < 1.0) {
            *out = 0.0f;
            return 0;
        }
        return -1;
    }
    *out = (float)d;
    return 0;
}

/* `v`, `vt`, `vn`: between `want` and `most` values, the first `keep` into out (zeros after
 * the values given). */
static int values(const char *pos, const char *end, int want, int most, int keep, float *out) {
    float c[7] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    int n = 0;
    rc_token t;
    while (rc_tok_next(&pos, end, &t)) {
        if (n == most || coord(t, &c[n]) != 0) return -1;
        n++;
    }
    if (n < want) return -1;
    memcpy(out, c, (size_t)keep * sizeof(float));
    return 0;
}

/* One index field [s, e) of a reference among `count` defined so far: 0-based into *out, or
 * -1 where the serial parse refuses it (empty, too long, not an integer, 0, out of range). */
static int index_field(const char *s, const char *e, size_t count, uint32_t *out) {
    size_t n = (size_t)(e - s);
    if (n == 0 || n >= 32) return -1;
    int neg = 0;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    uint64_t v = 0;
    for (; s < e; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (d > 9) return -1;
        if (v < ((uint64_t)1 << 40)) v = 10 * v + d; /* beyond any count: stays out of range */
    }
    if (v == 0 || v > count) return -1;
    *out = (uint32_t)(neg ? count - v : v - 1);
    return 0;
}

/* Face reference "i[/t[/n]]" into corner[0..2] (RC_OBJ_NONE where it names none). */
static int reference(rc_token t, size_t nv, size_t nt, size_t nn, uint32_t corner[3]) {
    const char *end = t.s + t.n;
    const char *slash = memchr(t.s, '/', t.n);
    const char *slash2 = slash ? memchr(slash + 1, '/', (size_t)(end - slash - 1)) : NULL;
    const char *te = slash2 ? slash2 : end;
    corner[1] = corner[2] = RC_OBJ_NONE;
    if (index_field(t.s, slash ? slash : end, nv, &corner[0]) != 0) return -1;
    if (slash && te > slash + 1 && index_field(slash + 1, te, nt, &corner[1]) != 0) return -1;
    if (slash2 && end > slash2 + 1 && index_field(slash2 + 1, end, nn, &corner[2]) != 0) return -1;
    return 0;
}

typedef struct counts {
    size_t v, t, n, tri;
} counts;

/* `f a b c ...`: its references, then its fan of triangles at triangle base + at->tri. */
static int face(chunk *c, rc_mesh *m, const char *pos, const char *end, counts *at) {
    size_t k = 0;
    rc_token t;
    while (rc_tok_next(&pos, end, &t)) {
        if ((3 * (k + 1) > c->cap_face &&
             rc_grow((void **)&c->face, &c->cap_face, 3 * (k + 1), sizeof(uint32_t)) != 0) ||
            reference(t, c->v0 + at->v, c->t0 + at->t, c->n0 + at->n, &c->face[3 * k]) != 0)
            return -1;
        k++;
    }
    const uint32_t *f = c->face;
    for (size_t i = 1; i + 1 < k; i++, at->tri++) {
        size_t q = 3 * (c->tri0 + at->tri);
        const size_t corner[3] = {0, i, i + 1};
        for (int j = 0; j < 3; j++) {
            m->tri[q + j] = f[3 * corner[j]];
            if (m->tri_t) m->tri_t[q + j] = f[3 * corner[j] + 1];
            if (m->tri_n) m->tri_n[q + j] = f[3 * corner[j] + 2];
        }
    }
    return 0;
}

static int note_mtl(chunk *c, int is_usemtl, const char *s, const char *e, size_t tri) {
    if (rc_grow((void **)&c->ev, &c->cap_ev, c->num_ev + 1, sizeof *c->ev) != 0) return -1;
    mtl_event ev = {s, e, tri, is_usemtl, RC_OBJ_NONE};
    c->ev[c->num_ev++] = ev;
    return 0;
}

static int statement(chunk *c, rc_mesh *m, int read_mtl, rc_token kw, const char *pos,
                     const char *end, counts *at) {
    if (rc_tok_is(kw, "v")) return values(pos, end, 3, 7, 3, &m->v[3 * (c->v0 + at->v++)]);
    if (rc_tok_is(kw, "f")) return face(c, m, pos, end, at);
    if (rc_tok_is(kw, "vt")) return values(pos, end, 1, 3, 2, &m->vt[2 * (c->t0 + at->t++)]);
    if (rc_tok_is(kw, "vn")) return values(pos, end, 3, 3, 3, &m->vn[3 * (c->n0 + at->n++)]);
    if (rc_tok_is(kw, "mtllib")) return read_mtl ? note_mtl(c, 0, pos, end, at->tri) : 0;
    if (rc_tok_is(kw, "usemtl")) return read_mtl ? note_mtl(c, 1, pos, end, at->tri) : 0;
    return rc_obj_ignored(kw) ? 0 : -1;
}

static void parse_chunk(chunk *c, rc_mesh *m, int read_mtl) {
    counts at = {0, 0, 0, 0};
    for (const char *s = c->s; s < c->e;) {
        const char *le, *end, *pos = s;
        s = next_line(s, c->e, &le, &end);
        rc_token kw;
        if (rc_tok_next(&pos, end, &kw) && statement(c, m, read_mtl, kw, pos, end, &at) != 0) {
            c->bad = 1;
            return;
        }
    }
}

static int any_corner(const uint32_t *c) {
    return c[0] != RC_OBJ_NONE || c[1] != RC_OBJ_NONE || c[2] != RC_OBJ_NONE;
}

/* Phase 4 in one chunk: its kept triangles closed up at the start of its range, each with the
 * material of the last usemtl above it. */
static void keep_chunk(chunk *c, rc_mesh *m) {
    uint32_t material = c->material;
    size_t e = 0, k = c->tri0;
    for (size_t j = 0; j < c->ntri; j++) {
        for (; e < c->num_ev && c->ev[e].tri <= j; e++) material = c->ev[e].material;
        size_t q = c->tri0 + j;
        if (rc_obj_degenerate(m->v, &m->tri[3 * q])) {
            c->degenerate++;
            continue;
        }
        if (k != q) {
            memcpy(&m->tri[3 * k], &m->tri[3 * q], 3 * sizeof(uint32_t));
            if (m->tri_t) memcpy(&m->tri_t[3 * k], &m->tri_t[3 * q], 3 * sizeof(uint32_t));
            if (m->tri_n) memcpy(&m->tri_n[3 * k], &m->tri_n[3 * q], 3 * sizeof(uint32_t));
        }
        if (m->tri_t && any_corner(&m->tri_t[3 * k])) c->any_t = 1;
        if (m->tri_n && any_corner(&m->tri_n[3 * k])) c->any_n = 1;
        if (m->tri_m) m->tri_m[k] = material;
        if (material != RC_OBJ_NONE) c->any_m = 1;
        k++;
    }
    c->kept = k - c->tri0;
}

/* The chunks of the text: each at least chunk_bytes long (the last one shorter) and ending
 * after a newline or at the end. */
static chunk *cut(const char *text, size_t len, size_t chunk_bytes, size_t *count) {
    size_t n = 0, cap = 0;
    chunk *c = NULL;
    for (size_t s = 0; s < len;) {
        size_t e = len - s > chunk_bytes ? s + chunk_bytes : len;
        if (e < len) {
            const char *nl = memchr(text + e - 1, '\n', len - (e - 1));
            e = nl ? (size_t)(nl - text) + 1 : len;
        }
        if (rc_grow((void **)&c, &cap, n + 1, sizeof *c) != 0) {
            free(c);
            return NULL;
        }
        memset(&c[n], 0, sizeof *c);
        c[n].s = text + s;
        c[n].e = text + e;
        n++;
        s = e;
    }
    *count = n;
    return c;
}

/* Prefix sums of the counts into the chunks' bases; 0, or -1 past the reader's limits. */
static int place(chunk *c, size_t n, counts *total) {
    memset(total, 0, sizeof *total);
    for (size_t i = 0; i < n; i++) {
        if (c[i].bad) return -1;
        c[i].v0 = total->v, total->v += c[i].nv;
        c[i].t0 = total->t, total->t += c[i].nt;
        c[i].n0 = total->n, total->n += c[i].nn;
        c[i].tri0 = total->tri, total->tri += c[i].ntri;
    }
    return total->v > RC_OBJ_MAX_VERTICES || total->t > RC_OBJ_MAX_VERTICES ||
                   total->n > RC_OBJ_MAX_VERTICES || total->tri > RC_OBJ_MAX_TRIANGLES
               ? -1
               : 0;
}

static int alloc_records(chunk *c, size_t n, const counts *total, rc_mesh *m) {
    int slash = 0;
    for (size_t i = 0; i < n; i++) slash |= c[i].slash;
    m->v = malloc(3 * (total->v ? total->v : 1) * sizeof(float));
    m->tri = malloc(3 * (total->tri ? total->tri : 1) * sizeof(uint32_t));
    if (total->t) m->vt = malloc(2 * total->t * sizeof(float));
    if (total->n) m->vn = malloc(3 * total->n * sizeof(float));
    if (slash) {
        m->tri_t = malloc(3 * (total->tri ? total->tri : 1) * sizeof(uint32_t));
        m->tri_n = malloc(3 * (total->tri ? total->tri : 1) * sizeof(uint32_t));
    }
    return !m->v || !m->tri || (total->t && !m->vt) || (total->n && !m->vn) ||
                   (slash && (!m->tri_t || !m->tri_n))
               ? -1
               : 0;
}

/* Phase 3: the mtllib and usemtl statements in file order; tri_m made when a usemtl names a
 * material. */
static int materials(const rc_obj_source *src, chunk *c, size_t n, size_t ntri, rc_mesh *m,
                     rc_error *err) {
    rc_obj_mtl_state st = {src->max_bytes > src->len ? src->max_bytes - src->len : 0, RC_OBJ_NONE};
    int named = 0;
    for (size_t i = 0; i < n; i++) {
        c[i].material = st.material;
        for (size_t k = 0; k < c[i].num_ev; k++) {
            mtl_event *ev = &c[i].ev[k];
            if (rc_obj_mtl_statement(src, ev->is_usemtl, ev->s, ev->e, &st, m, err) != 0) return -1;
            ev->material = st.material;
            named |= st.material != RC_OBJ_NONE;
        }
    }
    if (named && !(m->tri_m = malloc((ntri ? ntri : 1) * sizeof(uint32_t)))) return -1;
    return 0;
}

/* Phase 4's second half: the chunks' kept runs one after another; the corner and material
 * arrays dropped where no kept triangle uses them (the serial parse never makes them). */
static void close_up(chunk *c, size_t n, rc_mesh *m) {
    size_t k = 0;
    int any_t = 0, any_n = 0, any_m = 0;
    for (size_t i = 0; i < n; i++) {
        if (k != c[i].tri0 && c[i].kept) {
            memmove(&m->tri[3 * k], &m->tri[3 * c[i].tri0], 3 * c[i].kept * sizeof(uint32_t));
            if (m->tri_t)
                memmove(&m->tri_t[3 * k], &m->tri_t[3 * c[i].tri0],
                        3 * c[i].kept * sizeof(uint32_t));
            if (m->tri_n)
                memmove(&m->tri_n[3 * k], &m->tri_n[3 * c[i].tri0],
                        3 * c[i].kept * sizeof(uint32_t));
            if (m->tri_m) memmove(&m->tri_m[k], &m->tri_m[c[i].tri0], c[i].kept * sizeof(uint32_t));
        }
        k += c[i].kept;
        m->num_degenerate += c[i].degenerate;
        any_t |= c[i].any_t, any_n |= c[i].any_n, any_m |= c[i].any_m;
    }
    m->num_triangles = k;
    if (!any_t) free(m->tri_t), m->tri_t = NULL;
    if (!any_n) free(m->tri_n), m->tri_n = NULL;
    if (!any_m) free(m->tri_m), m->tri_m = NULL;
}

static void free_chunks(chunk *c, size_t n) {
    for (size_t i = 0; c && i < n; i++) {
        free(c[i].ev);
        free(c[i].face);
    }
    free(c);
}

int rc_obj_parse_chunks(const rc_obj_source *src, size_t chunk_bytes, int threads, rc_mesh *out,
                        rc_error *err) {
    memset(out, 0, sizeof *out);
    if (chunk_bytes == 0) chunk_bytes = RC_OBJ_CHUNK_BYTES;
    if (threads <= 0) threads = omp_get_max_threads();
    size_t n = 0;
    chunk *c = cut(src->text, src->len, chunk_bytes, &n);
    counts total;
    int ok = c != NULL;
    if (ok) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (size_t i = 0; i < n; i++) count_chunk(&c[i]);
        ok = place(c, n, &total) == 0 && alloc_records(c, n, &total, out) == 0;
    }
    if (ok) {
        int bad = 0;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(| : bad)
        for (size_t i = 0; i < n; i++) {
            parse_chunk(&c[i], out, src->read_mtl);
            bad |= c[i].bad;
        }
        ok = !bad && materials(src, c, n, total.tri, out, err) == 0;
    }
    if (ok) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
        for (size_t i = 0; i < n; i++) keep_chunk(&c[i], out);
        close_up(c, n, out);
        out->num_vertices = total.v;
        out->num_texcoords = total.t;
        out->num_normals = total.n;
        ok = out->num_triangles > 0;
    }
    free_chunks(c, n);
    if (ok) return 0;
    /* refused, or out of memory: the serial parse says why, or reads what fits */
    rc_mesh_free(out);
    return rc_obj_parse_serial(src, out, err);
}

/* ---- the public readers (obj.h): the chunked parse ---- */

static int parse(const char *name, int read_mtl, const char *dir, size_t max_bytes,
                 const char *text, size_t len, rc_mesh *out, rc_error *err) {
    rc_obj_source src = {name, read_mtl, dir, max_bytes, text, len};
    return rc_obj_parse_chunks(&src, 0, 0, out, err);
}

int rc_obj_parse(const char *name, const char *text, size_t len, rc_mesh *out, rc_error *err) {
    return parse(name, 0, NULL, 0, text, len, out, err);
}

int rc_obj_parse_mtl(const char *name, const char *dir, size_t max_bytes, const char *text,
                     size_t len, rc_mesh *out, rc_error *err) {
    return parse(name, 1, dir, max_bytes, text, len, out, err);
}

int rc_obj_load(const char *path, rc_mesh *out, rc_error *err) {
    return rc_obj_load_max(path, RC_OBJ_MAX_BYTES, out, err);
}

int rc_obj_load_max(const char *path, size_t max_bytes, rc_mesh *out, rc_error *err) {
    char *text;
    size_t len;
    memset(out, 0, sizeof *out);
    if (max_bytes > RC_OBJ_MAX_BYTES) max_bytes = RC_OBJ_MAX_BYTES;
    if (rc_read_file_par(path, max_bytes, &text, &len, err) != 0) return -1;
    int rc = rc_obj_parse(path, text, len, out, err);
    free(text);
    return rc;
}

int rc_obj_load_mtl(const char *path, size_t max_bytes, rc_mesh *out, rc_error *err) {
    char *text;
    size_t len;
    memset(out, 0, sizeof *out);
    if (max_bytes > RC_OBJ_MAX_BYTES) max_bytes = RC_OBJ_MAX_BYTES;
    if (rc_read_file_par(path, max_bytes, &text, &len, err) != 0) return -1;
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) : 0;
    char *dir = malloc(dl + 2);
    if (!dir) {
        free(text);
        return rc_fail(err, "%s: out of memory", path);
    }
    if (!slash)
        strcpy(dir, ".");
    else if (dl == 0)
        strcpy(dir, "/");
    else {
        memcpy(dir, path, dl);
        dir[dl] = '\0';
    }
    int rc = parse(path, 1, dir, max_bytes, text, len, out, err);
    free(dir);
    free(text);
    return rc;
}
