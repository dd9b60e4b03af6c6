/* mtl.c: the MTL reader. Line by line over the whole file in memory, as obj.c reads OBJ:
 * every rc_token is checked before use and every number is finite and in its range. */
#include "mtl.h"
#include "echo.h"
#include "text_tokens.h"
#include "grow.h"
#include "read_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Statements that carry nothing the renderer's materials use. */
static const char *const k_ignored[] = {"Ka",     "map_Ka",    "map_Ks", "map_Ns", "disp", "decal",
                                        "refl",   "sharpness", "Ps",     "Pc",     "Pcr",  "aniso",
                                        "anisor", "map_Pr",    "map_Pm", "Km"};

typedef struct parser {
    const char *name, *dir;
    size_t line;
    rc_error *err;
    rc_mtl *out;
    size_t first; /* this file's first material in out */
} parser;

static int perr(parser *p, const char *fmt, const char *arg) {
    char what[512];
    snprintf(what, sizeof what, fmt, arg);
    return rc_fail(p->err, "%s:%zu: %s", p->name, p->line, what);
}

/* A rc_token as a number, 0 when it is not one (no message). */
static int as_number(rc_token t, double *out) {
    char buf[64];
    if (t.n == 0 || t.n >= sizeof buf) return 0;
    memcpy(buf, t.s, t.n);
    buf[t.n] = '\0';
    char *end;
    errno = 0;
    double d = strtod(buf, &end);
    if (end == buf || *end != '\0') return 0;
    if (errno == ERANGE && fabs(d) < 1.0) d = 0.0;
    *out = d;
    return 1;
}

/* A number in [lo, hi]. */
static int parse_num(parser *p, rc_token t, const char *what, double lo, double hi, double *out) {
    char shown[40], msg[160];
    if (!as_number(t, out)) {
        snprintf(msg, sizeof msg, "%s: '%s' is not a number", what,
                 rc_tok_show(t, shown, sizeof shown));
        return perr(p, "%s", msg);
    }
    if (!isfinite(*out) || *out < lo || *out > hi) {
        snprintf(msg, sizeof msg, "%s: %s is out of range (%g to %g)", what,
                 rc_tok_show(t, shown, sizeof shown), lo, hi);
        return perr(p, "%s", msg);
    }
    return 0;
}

/* The material values go to: an error before any newmtl. */
static rc_mtl_material *current(parser *p, rc_token kw) {
    char shown[40];
    if (p->out->count == p->first) {
        perr(p, "'%s' before any newmtl", rc_tok_show(kw, shown, sizeof shown));
        return NULL;
    }
    return &p->out->materials[p->out->count - 1];
}

/* `Kd r g b` (or one value for all three), each in [0, hi]. */
static int parse_color(parser *p, rc_token kw, const char *pos, const char *end, double hi,
                       float out[3]) {
    char what[16], shown[16];
    snprintf(what, sizeof what, "%s", rc_tok_show(kw, shown, sizeof shown));
    double c[3];
    int n = 0;
    rc_token t;
    while (rc_tok_next(&pos, end, &t)) {
        if (n == 3) return perr(p, "%s has more than 3 values (r g b)", what);
        if (parse_num(p, t, what, 0.0, hi, &c[n]) != 0) return -1;
        n++;
    }
    if (n == 0 || n == 2) return perr(p, "%s needs r g b (or one value for all three)", what);
    for (int k = 0; k < 3; k++) out[k] = (float)c[n == 1 ? 0 : k];
    return 0;
}

/* A statement of one number in [lo, hi]. */
static int parse_scalar(parser *p, rc_token kw, const char *pos, const char *end, double lo,
                        double hi, double *out) {
    char what[16], shown[16];
    snprintf(what, sizeof what, "%s", rc_tok_show(kw, shown, sizeof shown));
    rc_token t, extra;
    if (!rc_tok_next(&pos, end, &t)) return perr(p, "%s needs a value", what);
    if (rc_tok_next(&pos, end, &extra)) return perr(p, "%s has more than one value", what);
    return parse_num(p, t, what, lo, hi, out);
}

char *rc_mtl_join(const char *dir, const char *raw, size_t n, char *why, size_t cap) {
    if (n == 0) {
        snprintf(why, cap, "no file name");
        return NULL;
    }
    if (n > RC_MTL_MAX_PATH) {
        snprintf(why, cap, "file name longer than %d bytes", RC_MTL_MAX_PATH);
        return NULL;
    }
    /* Windows exporters write `.\maps\wood.jpg`: a backslash separates folders here too */
    char name[RC_MTL_MAX_PATH];
    memcpy(name, raw, n);
    for (size_t i = 0; i < n; i++)
        if (name[i] == '\\') name[i] = '/';
    if (name[0] == '/' || (n >= 2 && name[1] == ':')) {
        snprintf(why, cap, "absolute paths are refused (paths are relative to the file)");
        return NULL;
    }
    if (memchr(name, '\0', n)) {
        snprintf(why, cap, "NUL byte in the path");
        return NULL;
    }
    for (size_t i = 0; i < n;) {
        const char *e = memchr(name + i, '/', n - i);
        size_t sl = e ? (size_t)(e - (name + i)) : n - i;
        if (sl == 2 && name[i] == '.' && name[i + 1] == '.') {
            snprintf(why, cap, "paths leaving the file's folder are refused");
            return NULL;
        }
        i += sl + 1;
    }
    size_t dl = strlen(dir);
    char *out = malloc(dl + n + 2);
    if (!out) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    memcpy(out, dir, dl);
    out[dl] = '/';
    memcpy(out + dl + 1, name, n);
    out[dl + 1 + n] = '\0';
    return out;
}

/* Option flags of map statements and how many arguments each takes: a fixed count, or (-1)
 * one to three numbers. */
typedef struct map_option {
    const char *flag;
    int args;
    int on_off;
} map_option;

static const map_option k_options[] = {
    {"-blendu", 1, 1}, {"-blendv", 1, 1},  {"-cc", 1, 1},   {"-clamp", 1, 1}, {"-boost", 1, 0},
    {"-mm", 2, 0},     {"-o", -1, 0},      {"-s", -1, 0},   {"-t", -1, 0},    {"-texres", 1, 0},
    {"-bm", 1, 0},     {"-imfchan", 1, 2}, {"-type", 1, 3},
};

/* `map_Kd [options] FILE`: the options checked and skipped, the file name joined to dir. */
static int parse_map(parser *p, rc_token kw, const char *pos, const char *end, char **out) {
    char shown[64], what[200];
    const char *s = pos;
    rc_token t;
    for (;;) {
        const char *before = s;
        if (!rc_tok_next(&s, end, &t)) {
            snprintf(what, sizeof what, "%s needs a file name",
                     rc_tok_show(kw, shown, sizeof shown));
            return perr(p, "%s", what);
        }
        if (t.n < 2 || t.s[0] != '-') {
            s = before;
            break;
        }
        const map_option *o = NULL;
        for (size_t i = 0; i < sizeof k_options / sizeof *k_options; i++)
            if (rc_tok_is(t, k_options[i].flag)) o = &k_options[i];
        if (!o) {
            char k[24];
            snprintf(what, sizeof what, "%s: unknown option '%s'", rc_tok_show(kw, k, sizeof k),
                     rc_tok_show(t, shown, sizeof shown));
            return perr(p, "%s", what);
        }
        int want = o->args < 0 ? 1 : o->args, most = o->args < 0 ? 3 : o->args;
        for (int a = 0; a < most; a++) {
            const char *at = s;
            rc_token v;
            double d;
            int have = rc_tok_next(&s, end, &v);
            if (a >= want && (!have || !as_number(v, &d))) {
                s = at; /* an optional number not given: the next rc_token is something else */
                break;
            }
            int ok = have;
            if (ok && o->on_off == 1)
                ok = rc_tok_is(v, "on") || rc_tok_is(v, "off");
            else if (ok && o->on_off == 2)
                ok = v.n == 1 && strchr("rgbmlz", v.s[0]) != NULL;
            else if (ok && o->on_off == 3)
                ok = rc_tok_is(v, "sphere") || (v.n > 5 && memcmp(v.s, "cube_", 5) == 0);
            else if (ok)
                ok = as_number(v, &d) && isfinite(d) && fabs(d) <= 1e6;
            if (!ok) {
                char k[24], f[24];
                snprintf(what, sizeof what, "%s: option %s: bad or missing value%s%s%s",
                         rc_tok_show(kw, k, sizeof k), rc_tok_show(t, f, sizeof f),
                         have ? " '" : "", have ? rc_tok_show(v, shown, sizeof shown) : "",
                         have ? "'" : "");
                return perr(p, "%s", what);
            }
        }
    }
    rc_token name = rc_tok_rest(s, end);
    char why[128];
    char *full = rc_mtl_join(p->dir, name.s, name.n, why, sizeof why);
    if (!full) {
        char k[24];
        snprintf(what, sizeof what, "%s '%s': %s", rc_tok_show(kw, k, sizeof k),
                 rc_tok_show(name, shown, sizeof shown), why);
        return perr(p, "%s", what);
    }
    free(*out);
    *out = full;
    return 0;
}

static void material_free(rc_mtl_material *m) {
    free(m->name);
    free(m->map_kd);
    free(m->map_bump);
    free(m->map_d);
    free(m->file);
}

static int parse_newmtl(parser *p, const char *pos, const char *end) {
    char shown[64];
    rc_token name = rc_tok_rest(pos, end);
    if (name.n == 0) return perr(p, "%s", "newmtl needs a name");
    if (name.n > 256) return perr(p, "%s", "material name longer than 256 bytes");
    rc_mtl *o = p->out;
    for (size_t i = p->first; i < o->count; i++)
        if (strlen(o->materials[i].name) == name.n &&
            memcmp(o->materials[i].name, name.s, name.n) == 0)
            return perr(p, "material '%s' is defined twice",
                        rc_tok_show(name, shown, sizeof shown));
    if (o->count >= RC_MTL_MAX_MATERIALS) return perr(p, "%s", "too many materials");
    if (rc_grow((void **)&o->materials, &o->cap, o->count + 1, sizeof *o->materials) != 0)
        return perr(p, "%s", "out of memory");
    rc_mtl_material *m = &o->materials[o->count];
    memset(m, 0, sizeof *m);
    m->name = malloc(name.n + 1);
    m->file = malloc(strlen(p->name) + 1);
    if (!m->name || !m->file) {
        material_free(m);
        return perr(p, "%s", "out of memory");
    }
    memcpy(m->name, name.s, name.n);
    m->name[name.n] = '\0';
    strcpy(m->file, p->name);
    m->kd[0] = m->kd[1] = m->kd[2] = 0.8f;
    m->tf[0] = m->tf[1] = m->tf[2] = 1.0f;
    m->ni = 1.0f;
    m->d = 1.0f;
    m->illum = 2;
    o->count++;
    return 0;
}

static int parse_line(parser *p, const char *s, const char *end) {
    const char *hash = memchr(s, '#', (size_t)(end - s));
    if (hash) end = hash;
    rc_token kw;
    if (!rc_tok_next(&s, end, &kw)) return 0;
    if (rc_tok_is(kw, "newmtl")) return parse_newmtl(p, s, end);
    for (size_t i = 0; i < sizeof k_ignored / sizeof *k_ignored; i++)
        if (rc_tok_is(kw, k_ignored[i])) return 0;
    static const char *const known[] = {"Kd", "Ks",    "Ke",     "Ns",       "Ni",   "d",
                                        "Tr", "illum", "map_Kd", "map_Bump", "bump", "norm",
                                        "Tf", "Pr",    "Pm",     "map_d"};
    int k = -1;
    for (int i = 0; i < (int)(sizeof known / sizeof *known); i++)
        if (rc_tok_is(kw, known[i])) k = i;
    char shown[40];
    if (k < 0) return perr(p, "unknown statement '%s'", rc_tok_show(kw, shown, sizeof shown));
    rc_mtl_material *m = current(p, kw);
    if (!m) return -1;
    double v;
    switch (k) {
    case 0:
        m->has_kd = 1;
        return parse_color(p, kw, s, end, 1.0, m->kd);
    case 1:
        return parse_color(p, kw, s, end, 1.0, m->ks);
    case 2:
        return parse_color(p, kw, s, end, 1e6, m->ke);
    case 3:
        if (parse_scalar(p, kw, s, end, 0.0, 1e6, &v) != 0) return -1;
        m->ns = (float)v;
        m->has_ns = 1;
        return 0;
    case 4:
        /* 0 is what several exporters write for "no index of refraction": the default (1) */
        if (parse_scalar(p, kw, s, end, 0.0, 10.0, &v) != 0) return -1;
        if (v != 0.0 && v < 0.01) return parse_scalar(p, kw, s, end, 0.01, 10.0, &v);
        m->ni = v == 0.0 ? 1.0f : (float)v;
        return 0;
    case 5:
    case 6:
        if (parse_scalar(p, kw, s, end, 0.0, 1.0, &v) != 0) return -1;
        m->d = (float)(k == 5 ? v : 1.0 - v);
        return 0;
    case 7: {
        if (parse_scalar(p, kw, s, end, 0.0, 10.0, &v) != 0) return -1;
        if (v != floor(v)) return perr(p, "%s", "illum: expected a whole number 0 to 10");
        m->illum = (int)v;
        return 0;
    }
    case 8:
        if (parse_map(p, kw, s, end, &m->map_kd) != 0) return -1;
        m->map_kd_line = p->line;
        return 0;
    case 12: {
        /* `Tf xyz ...` and `Tf spectral FILE` are other forms of the statement: ignored */
        rc_token first;
        const char *at = s;
        if (rc_tok_next(&at, end, &first) &&
            (rc_tok_is(first, "xyz") || rc_tok_is(first, "spectral")))
            return 0;
        if (parse_color(p, kw, s, end, 1.0, m->tf) != 0) return -1;
        m->has_tf = 1;
        return 0;
    }
    case 13:
    case 14:
        if (parse_scalar(p, kw, s, end, 0.0, 1.0, &v) != 0) return -1;
        if (k == 13)
            m->pr = (float)v, m->has_pr = 1;
        else
            m->pm = (float)v, m->has_pm = 1;
        return 0;
    case 15:
        if (parse_map(p, kw, s, end, &m->map_d) != 0) return -1;
        m->map_d_line = p->line;
        return 0;
    default:
        if (parse_map(p, kw, s, end, &m->map_bump) != 0) return -1;
        m->bump_is_normal = k == 11;
        m->map_bump_line = p->line;
        return 0;
    }
}

static int one_line(void *ctx, const char *s, const char *end, int nul) {
    parser *p = ctx;
    return nul ? perr(p, "%s", "NUL byte in the line (not a text file)") : parse_line(p, s, end);
}

int rc_mtl_parse(const char *name, const char *dir, const char *text, size_t len, rc_mtl *out,
                 rc_error *err) {
    parser p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.dir = dir ? dir : ".";
    p.err = err;
    p.out = out;
    p.first = out->count;
    int rc = rc_text_lines(text, len, &p.line, one_line, &p);
    if (rc != 0) {
        while (out->count > p.first) material_free(&out->materials[--out->count]);
        if (out->count == 0) rc_mtl_free(out);
    }
    return rc;
}

int rc_mtl_load(const char *path, size_t max_bytes, rc_mtl *out, rc_error *err) {
    if (max_bytes > RC_MTL_MAX_BYTES) max_bytes = RC_MTL_MAX_BYTES;
    char *text;
    size_t len;
    if (rc_read_file(path, max_bytes, &text, &len, err) != 0) return -1;
    /* the folder: everything before the last '/', or "." */
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) : 1;
    char *dir = malloc(dl + 2); /* room for "/" when the file sits in the root */
    if (!dir) {
        free(text);
        return rc_fail(err, "%s: out of memory", path);
    }
    if (slash)
        memcpy(dir, path, dl);
    else
        dir[0] = '.';
    dir[dl] = '\0';
    if (slash && dl == 0) {
        dir[0] = '/';
        dir[1] = '\0';
        dl = 1;
    }
    int rc = rc_mtl_parse(path, dir, text, len, out, err);
    free(dir);
    free(text);
    return rc;
}

void rc_mtl_free(rc_mtl *m) {
    if (!m) return;
    for (size_t i = 0; i < m->count; i++) material_free(&m->materials[i]);
    free(m->materials);
    memset(m, 0, sizeof *m);
}

long rc_mtl_find(const rc_mtl *m, const char *name, size_t n) {
    for (size_t i = 0; i < m->count; i++)
        if (strlen(m->materials[i].name) == n && memcmp(m->materials[i].name, name, n) == 0)
            return (long)i;
    return -1;
}
