/* obj.c: the OBJ reader's reference parse (rc_obj_parse_serial) and the statements both parses
 * share. Line by line over the whole file in memory; every rc_token is checked before use, so no
 * input can read out of bounds or overflow a count. The entry points of obj.h (obj_chunks.c)
 * parse in chunks over all threads and fall back to this parse for the message of any input
 * they refuse. */
#include "obj.h"
#include "echo.h"
#include "obj_internal.h"
#include "text_tokens.h"
#include "grow.h"
#include "read_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Statements that may appear in a mesh file and carry nothing a triangle mesh needs. */
static const char *const k_ignored[] = {"vp",   "o",    "g",    "s",    "l",     "p",    "cstype",
                                        "deg",  "bmat", "step", "curv", "curv2", "surf", "parm",
                                        "trim", "hole", "scrv", "sp",   "end",   "mg"};

int rc_obj_ignored(rc_token kw) {
    for (size_t i = 0; i < sizeof k_ignored / sizeof *k_ignored; i++)
        if (rc_tok_is(kw, k_ignored[i])) return 1;
    return 0;
}

typedef struct parser {
    const char *name;
    size_t line;
    rc_error *err;
    rc_mesh *m;
    size_t cap_v, cap_t, cap_vt, cap_vn, cap_tt, cap_tn;
    /* the current face's vertex, texture coordinate and normal indices */
    uint32_t *face, *face_t, *face_n;
    size_t cap_face, cap_face_t, cap_face_n;
    /* materials: read_mtl 0 ignores mtllib and usemtl; dir NULL refuses mtllib */
    int read_mtl;
    const char *dir;
    size_t mtl_bytes;  /* what the MTL files' text may still take */
    uint32_t material; /* the current usemtl's, or RC_OBJ_NONE */
    size_t cap_tm;
} parser;

/* The tokens of one line, as (start, length) pairs into the line. */

static int perr(parser *p, const char *fmt, const char *arg) {
    char what[1024];
    snprintf(what, sizeof what, fmt, arg);
    return rc_fail(p->err, "%s:%zu: %s", p->name, p->line, what);
}

static int parse_coord(parser *p, rc_token t, float *out) {
    char buf[64], shown[40];
    if (t.n >= sizeof buf)
        return perr(p, "'%s' is not a number", rc_tok_show(t, shown, sizeof shown));
    memcpy(buf, t.s, t.n);
    buf[t.n] = '\0';
    char *end;
    errno = 0;
    double d = strtod(buf, &end);
    if (end == buf || *end != '\0') return perr(p, "'%s' is not a number", buf);
    if (!isfinite(d) || fabs(d) > RC_OBJ_MAX_COORD || errno == ERANGE) {
        if (errno == ERANGE && fabs(d) < 1.0) {
            *out = 0.0f; /* underflow: the value is zero for any purpose here */
            return 0;
        }
        return perr(p, "number %s is out of range", buf);
    }
    *out = (float)d;
    return 0;
}

static int parse_vertex(parser *p, const char *pos, const char *end) {
    float c[7];
    int n = 0;
    rc_token t;
    while (rc_tok_next(&pos, end, &t)) {
        if (n == 7) return perr(p, "%s", "vertex has more than 7 values (x y z [w | r g b])");
        if (parse_coord(p, t, &c[n]) != 0) return -1;
        n++;
    }
    if (n < 3) {
        char what[64];
        snprintf(what, sizeof what, "vertex has %d coordinate%s, needs 3", n, n == 1 ? "" : "s");
        return perr(p, "%s", what);
    }
    rc_mesh *m = p->m;
    if (m->num_vertices >= RC_OBJ_MAX_VERTICES) return perr(p, "%s", "too many vertices");
    if (rc_grow((void **)&m->v, &p->cap_v, 3 * (m->num_vertices + 1), sizeof(float)) != 0)
        return perr(p, "%s", "out of memory");
    memcpy(&m->v[3 * m->num_vertices], c, 3 * sizeof(float));
    m->num_vertices++;
    return 0;
}

/* `vt u [v [w]]` and `vn x y z`: `want` values at least, `most` at most, into arr (`keep`
 * values a record). */
static int parse_attr(parser *p, const char *pos, const char *end, const char *what, int want,
                      int most, int keep, float **arr, size_t *count, size_t *cap) {
    float c[3] = {0.0f, 0.0f, 0.0f};
    int n = 0;
    rc_token t;
    char msg[96];
    while (rc_tok_next(&pos, end, &t)) {
        if (n == most) {
            snprintf(msg, sizeof msg, "%s has more than %d values", what, most);
            return perr(p, "%s", msg);
        }
        if (parse_coord(p, t, &c[n]) != 0) return -1;
        n++;
    }
    if (n < want) {
        snprintf(msg, sizeof msg, "%s has %d value%s, needs %d", what, n, n == 1 ? "" : "s", want);
        return perr(p, "%s", msg);
    }
    if (*count >= RC_OBJ_MAX_VERTICES) {
        snprintf(msg, sizeof msg, "too many %s statements", what);
        return perr(p, "%s", msg);
    }
    if (rc_grow((void **)arr, cap, (size_t)keep * (*count + 1), sizeof(float)) != 0)
        return perr(p, "%s", "out of memory");
    memcpy(*arr + (size_t)keep * *count, c, (size_t)keep * sizeof(float));
    (*count)++;
    return 0;
}

/* An optional integer field of a reference (texture or normal index): empty or digits. */
static int valid_int_field(const char *s, const char *e) {
    if (s < e && (*s == '-' || *s == '+')) s++;
    for (; s < e; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

/* One integer field of a reference, [s, e), as a 0-based index among `count` of `kind`
 * defined so far. */
static int parse_index(parser *p, const char *s, const char *e, size_t count, const char *kind,
                       const char *kinds, rc_token whole, uint32_t *out) {
    char shown[40], what[160], buf[32];
    size_t n = (size_t)(e - s);
    if (n == 0 || n >= sizeof buf || !valid_int_field(s, e))
        return perr(p, "bad vertex reference '%s'", rc_tok_show(whole, shown, sizeof shown));
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    long long i = strtoll(buf, NULL, 10);
    long long nv = (long long)count;
    if (errno == ERANGE) i = i < 0 ? -nv - 1 : nv + 1;
    if (i == 0) {
        snprintf(what, sizeof what, "%s index 0 is invalid (OBJ indices start at 1)", kind);
        return perr(p, "%s", what);
    }
    long long k = i > 0 ? i - 1 : nv + i;
    if (k < 0 || k >= nv) {
        snprintf(what, sizeof what, "%s index %s out of range (%lld %s defined so far)", kind, buf,
                 nv, kinds);
        return perr(p, "%s", what);
    }
    *out = (uint32_t)k;
    return 0;
}

/* One face reference "i[/t[/n]]" -> 0-based vertex, texture coordinate and normal indices
 * (RC_OBJ_NONE where the reference names none). */
static int parse_ref(parser *p, rc_token t, uint32_t *out, uint32_t *out_t, uint32_t *out_n) {
    char shown[40];
    const char *end = t.s + t.n;
    const char *slash = memchr(t.s, '/', t.n);
    const char *slash2 = slash ? memchr(slash + 1, '/', (size_t)(end - slash - 1)) : NULL;
    const char *te = slash2 ? slash2 : end;
    *out_t = *out_n = RC_OBJ_NONE;
    if (slash && (!valid_int_field(slash + 1, te) || (slash2 && !valid_int_field(slash2 + 1, end))))
        return perr(p, "bad vertex reference '%s'", rc_tok_show(t, shown, sizeof shown));
    if (parse_index(p, t.s, slash ? slash : end, p->m->num_vertices, "vertex", "vertices", t,
                    out) != 0)
        return -1;
    if (slash && te > slash + 1 &&
        parse_index(p, slash + 1, te, p->m->num_texcoords, "texture coordinate",
                    "texture coordinates", t, out_t) != 0)
        return -1;
    if (slash2 && end > slash2 + 1 &&
        parse_index(p, slash2 + 1, end, p->m->num_normals, "normal", "normals", t, out_n) != 0)
        return -1;
    return 0;
}

int rc_obj_degenerate(const float *v, const uint32_t t[3]) {
    const float *p0 = &v[3 * t[0]], *p1 = &v[3 * t[1]], *p2 = &v[3 * t[2]];
    float e1[3], e2[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = p1[i] - p0[i];
        e2[i] = p2[i] - p0[i];
    }
    float cx = e1[1] * e2[2] - e1[2] * e2[1];
    float cy = e1[2] * e2[0] - e1[0] * e2[2];
    float cz = e1[0] * e2[1] - e1[1] * e2[0];
    return cx == 0.0f && cy == 0.0f && cz == 0.0f;
}

/* Corner data `val` (3 indices, RC_OBJ_NONE where none) of triangle `t` into *arr, which is
 * made (every earlier corner RC_OBJ_NONE) when the first corner with data comes. */
static int add_corners(parser *p, uint32_t **arr, size_t *cap, size_t t, const uint32_t val[3]) {
    int any = val[0] != RC_OBJ_NONE || val[1] != RC_OBJ_NONE || val[2] != RC_OBJ_NONE;
    if (!*arr && !any) return 0;
    size_t have = *arr ? *cap : 0;
    if (rc_grow((void **)arr, cap, 3 * (t + 1), sizeof(uint32_t)) != 0)
        return perr(p, "%s", "out of memory");
    if (have == 0)
        for (size_t i = 0; i < 3 * t; i++) (*arr)[i] = RC_OBJ_NONE;
    memcpy(*arr + 3 * t, val, 3 * sizeof(uint32_t));
    return 0;
}

/* Triangle (corners i, j, k of the current face). */
static int add_triangle(parser *p, size_t i, size_t j, size_t k) {
    rc_mesh *m = p->m;
    uint32_t a = p->face[i], b = p->face[j], c = p->face[k];
    if (rc_obj_degenerate(m->v, (const uint32_t[3]){a, b, c})) {
        m->num_degenerate++;
        return 0;
    }
    if (m->num_triangles >= RC_OBJ_MAX_TRIANGLES) return perr(p, "%s", "too many triangles");
    size_t n = m->num_triangles;
    if (rc_grow((void **)&m->tri, &p->cap_t, 3 * (n + 1), sizeof(uint32_t)) != 0)
        return perr(p, "%s", "out of memory");
    /* every corner array as long as the triangles, once it exists */
    const uint32_t tt[3] = {p->face_t[i], p->face_t[j], p->face_t[k]},
                   tn[3] = {p->face_n[i], p->face_n[j], p->face_n[k]},
                   none[3] = {RC_OBJ_NONE, RC_OBJ_NONE, RC_OBJ_NONE};
    if (add_corners(p, &m->tri_t, &p->cap_tt, n, tt) != 0 ||
        add_corners(p, &m->tri_n, &p->cap_tn, n, tn) != 0)
        return -1;
    if (m->tri_t && tt[0] == RC_OBJ_NONE && tt[1] == RC_OBJ_NONE && tt[2] == RC_OBJ_NONE &&
        add_corners(p, &m->tri_t, &p->cap_tt, n, none) != 0)
        return -1;
    if (m->tri_n && tn[0] == RC_OBJ_NONE && tn[1] == RC_OBJ_NONE && tn[2] == RC_OBJ_NONE &&
        add_corners(p, &m->tri_n, &p->cap_tn, n, none) != 0)
        return -1;
    if (p->material != RC_OBJ_NONE || m->tri_m) {
        size_t have = m->tri_m ? p->cap_tm : 0;
        if (rc_grow((void **)&m->tri_m, &p->cap_tm, n + 1, sizeof(uint32_t)) != 0)
            return perr(p, "%s", "out of memory");
        if (have == 0)
            for (size_t q = 0; q < n; q++) m->tri_m[q] = RC_OBJ_NONE;
        m->tri_m[n] = p->material;
    }
    uint32_t *t = &m->tri[3 * n];
    t[0] = a;
    t[1] = b;
    t[2] = c;
    m->num_triangles++;
    return 0;
}

static int parse_face(parser *p, const char *pos, const char *end) {
    size_t n = 0;
    rc_token t;
    while (rc_tok_next(&pos, end, &t)) {
        if (rc_grow((void **)&p->face, &p->cap_face, n + 1, sizeof(uint32_t)) != 0 ||
            rc_grow((void **)&p->face_t, &p->cap_face_t, n + 1, sizeof(uint32_t)) != 0 ||
            rc_grow((void **)&p->face_n, &p->cap_face_n, n + 1, sizeof(uint32_t)) != 0)
            return perr(p, "%s", "out of memory");
        if (parse_ref(p, t, &p->face[n], &p->face_t[n], &p->face_n[n]) != 0) return -1;
        n++;
    }
    if (n < 3) {
        char what[64];
        snprintf(what, sizeof what, "face has %zu vertex reference%s, needs at least 3", n,
                 n == 1 ? "" : "s");
        return perr(p, "%s", what);
    }
    for (size_t i = 1; i + 1 < n; i++)
        if (add_triangle(p, 0, i, i + 1) != 0) return -1;
    return 0;
}

/* `mtllib FILE...`: each MTL file read now, its materials appended. */
static int parse_mtllib(parser *p, const char *pos, const char *end) {
    char shown[64], why[160], what[320];
    rc_token t;
    int any = 0;
    if (!p->dir) return perr(p, "%s", "mtllib: MTL files are not read here (an OBJ from memory)");
    while (rc_tok_next(&pos, end, &t)) {
        any = 1;
        char *full = rc_mtl_join(p->dir, t.s, t.n, why, sizeof why);
        if (!full) {
            snprintf(what, sizeof what, "mtllib '%s': %s", rc_tok_show(t, shown, sizeof shown),
                     why);
            return perr(p, "%s", what);
        }
        char *text;
        size_t len;
        rc_error rerr;
        size_t cap = p->mtl_bytes < RC_MTL_MAX_BYTES ? p->mtl_bytes : RC_MTL_MAX_BYTES;
        if (rc_read_file(full, cap, &text, &len, &rerr) != 0) {
            free(full);
            return perr(p, "mtllib: %s", rerr.msg);
        }
        p->mtl_bytes -= len;
        /* full is dir/name: its folder for the names inside it */
        size_t dl = (size_t)(strrchr(full, '/') - full);
        char *folder = malloc(dl + 1);
        int rc = -1;
        if (folder) {
            memcpy(folder, full, dl);
            folder[dl] = '\0';
            rc = rc_mtl_parse(full, folder, text, len, &p->m->mtl, p->err);
        } else {
            perr(p, "%s", "out of memory");
        }
        free(folder);
        free(full);
        free(text);
        if (rc != 0) return -1;
    }
    if (!any) return perr(p, "%s", "mtllib needs a file name");
    return 0;
}

/* `usemtl NAME`: the faces after it take that material. */
static int parse_usemtl(parser *p, const char *pos, const char *end) {
    char shown[64];
    rc_token name = rc_tok_rest(pos, end);
    if (name.n == 0) return perr(p, "%s", "usemtl needs a material name");
    long i = rc_mtl_find(&p->m->mtl, name.s, name.n);
    if (i < 0 && p->m->mtl.count == 0) {
        /* no material defined at all (many exporters write `usemtl Default` without an MTL):
           the grey default, said once by the importer; a name missing among defined ones
           is still an error, as a typo would be */
        if (p->m->num_unknown_usemtl++ == 0)
            rc_tok_show(name, p->m->unknown_usemtl, sizeof p->m->unknown_usemtl);
        p->material = RC_OBJ_NONE;
        return 0;
    }
    if (i < 0)
        return perr(p, "usemtl '%s': no such material in the mtllib files above",
                    rc_tok_show(name, shown, sizeof shown));
    p->material = (uint32_t)i;
    return 0;
}

static int parse_line(parser *p, const char *s, const char *end) {
    const char *hash = memchr(s, '#', (size_t)(end - s));
    if (hash) end = hash;
    rc_token kw;
    if (!rc_tok_next(&s, end, &kw)) return 0;
    if (rc_tok_is(kw, "v")) return parse_vertex(p, s, end);
    if (rc_tok_is(kw, "f")) return parse_face(p, s, end);
    if (rc_tok_is(kw, "vt"))
        return parse_attr(p, s, end, "texture coordinate", 1, 3, 2, &p->m->vt, &p->m->num_texcoords,
                          &p->cap_vt);
    if (rc_tok_is(kw, "vn"))
        return parse_attr(p, s, end, "normal", 3, 3, 3, &p->m->vn, &p->m->num_normals, &p->cap_vn);
    if (rc_tok_is(kw, "mtllib")) return p->read_mtl ? parse_mtllib(p, s, end) : 0;
    if (rc_tok_is(kw, "usemtl")) return p->read_mtl ? parse_usemtl(p, s, end) : 0;
    if (rc_obj_ignored(kw)) return 0;
    char shown[40];
    return perr(p, "unknown statement '%s'", rc_tok_show(kw, shown, sizeof shown));
}

static int one_line(void *ctx, const char *s, const char *end, int nul) {
    parser *p = ctx;
    return nul ? perr(p, "%s", "NUL byte in the line (not a text file)") : parse_line(p, s, end);
}

void rc_mesh_free(rc_mesh *m) {
    if (!m) return;
    free(m->v);
    free(m->tri);
    free(m->vt);
    free(m->vn);
    free(m->tri_t);
    free(m->tri_n);
    free(m->tri_m);
    rc_mtl_free(&m->mtl);
    memset(m, 0, sizeof *m);
}

int rc_obj_parse_serial(const rc_obj_source *src, rc_mesh *out, rc_error *err) {
    memset(out, 0, sizeof *out);
    parser p;
    memset(&p, 0, sizeof p);
    p.name = src->name;
    p.err = err;
    p.m = out;
    p.read_mtl = src->read_mtl;
    p.dir = src->dir;
    p.mtl_bytes = src->max_bytes > src->len ? src->max_bytes - src->len : 0;
    p.material = RC_OBJ_NONE;
    int rc = rc_text_lines(src->text, src->len, &p.line, one_line, &p);
    free(p.face);
    free(p.face_t);
    free(p.face_n);
    if (rc == 0 && out->num_triangles == 0)
        rc = rc_fail(err, "%s: no faces (a mesh needs at least one triangle of non-zero area)",
                     src->name);
    if (rc != 0) rc_mesh_free(out);
    return rc;
}

int rc_obj_mtl_statement(const rc_obj_source *src, int is_usemtl, const char *s, const char *e,
                         rc_obj_mtl_state *st, rc_mesh *m, rc_error *err) {
    parser p;
    memset(&p, 0, sizeof p);
    p.name = src->name;
    p.err = err;
    p.m = m;
    p.read_mtl = 1;
    p.dir = src->dir;
    p.mtl_bytes = st->mtl_bytes;
    p.material = st->material;
    int rc = is_usemtl ? parse_usemtl(&p, s, e) : parse_mtllib(&p, s, e);
    st->mtl_bytes = p.mtl_bytes;
    st->material = p.material;
    return rc;
}
