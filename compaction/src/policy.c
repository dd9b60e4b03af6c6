/* policy.c: auto's decision table, read from JSON with cJSON and checked field by field.
 *
 *     {
 *       "format": "raycompact-policy", "version": 1,
 *       "name": "sm_90", "backend": "cuda",
 *       "source": "where the numbers came from",       (metadata: source, device, comment,
 *       "unknown_removed": 0.5,                          grid, measured are not read)
 *       "rules": [
 *         {"when": {"list": true, "removed_max": 0.03}, "algo": "redzone"},
 *         {"when": {"n_max": 65536, "stable": false}, "algo": "atomic"},
 *         {"algo": "horn", "tile": 1024, "scan": "blelloch"},
 *         {"algo": "single-pass"}
 *       ]
 *     }
 *
 * "when" holds the conditions, all optional, bounds inclusive: n_min, n_max, elem_min,
 * elem_max (integers), removed_min, removed_max (fractions 0..1), list (a removal list is
 * offered), stable (the caller requires a stable order). The first rule whose conditions hold
 * and whose algorithm can run the call decides (an unstable one is passed over when
 * stability is required, a list one when no list is offered). "tile" and "scan" only for the
 * algorithms that read them. "gain" (removal-list rules, optional): how many times faster the
 * tune measured it at its point than the flag algorithm the table takes there without a list;
 * auto reports it (sc_choice.gain) for callers who pay to produce the list. Anything else (an
 * unknown key, a key twice, a wrong type, a value out of range, an algorithm the backend lacks) is
 * an error: a table is never half read. */
#define _POSIX_C_SOURCE 200809L /* fdopen, O_CLOEXEC, S_ISSOCK (open_table) */
#include "policy.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct parse_ctx {
    char *msg;
    size_t cap;
    char where[48]; /* "rule 3" */
} parse_ctx;

static sc_status fail(parse_ctx *pc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static sc_status fail(parse_ctx *pc, const char *fmt, ...) {
    if (pc->msg && pc->cap) {
        size_t used = 0;
        if (pc->where[0]) {
            int w = snprintf(pc->msg, pc->cap, "%s: ", pc->where);
            used = w > 0 && (size_t)w < pc->cap ? (size_t)w : 0;
        }
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(pc->msg + used, pc->cap - used, fmt, ap);
        va_end(ap);
    }
    return SC_ERR_POLICY;
}

/* Every key of `obj` is one of `keys` and appears once. */
static sc_status check_keys(parse_ctx *pc, const cJSON *obj, const char *const *keys, size_t nk,
                            const char *what) {
    for (const cJSON *c = obj->child; c; c = c->next) {
        int known = 0;
        for (size_t i = 0; i < nk && !known; i++) known = c->string && !strcmp(c->string, keys[i]);
        if (!known) return fail(pc, "unknown key '%s' in %s", c->string ? c->string : "", what);
        for (const cJSON *d = c->next; d; d = d->next)
            if (d->string && !strcmp(d->string, c->string))
                return fail(pc, "key '%s' given twice in %s", c->string, what);
    }
    return SC_OK;
}

static sc_status get_size(parse_ctx *pc, const cJSON *v, const char *key, size_t *out) {
    if (!cJSON_IsNumber(v)) return fail(pc, "'%s' must be a number", key);
    double d = v->valuedouble;
    if (!isfinite(d) || d < 0 || d != floor(d))
        return fail(pc, "'%s' must be a non-negative integer", key);
    *out = d >= 18446744073709551615.0 ? SIZE_MAX : (size_t)d;
    return SC_OK;
}

static sc_status get_fraction(parse_ctx *pc, const cJSON *v, const char *key, double *out) {
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0.0 ||
        v->valuedouble > 1.0)
        return fail(pc, "'%s' must be a fraction in [0, 1]", key);
    *out = v->valuedouble;
    return SC_OK;
}

static sc_status get_bool(parse_ctx *pc, const cJSON *v, const char *key, int *out) {
    if (!cJSON_IsBool(v)) return fail(pc, "'%s' must be true or false", key);
    *out = cJSON_IsTrue(v);
    return SC_OK;
}

static sc_status parse_when(parse_ctx *pc, const cJSON *when, sc_rule *r) {
    static const char *const keys[] = {"n_min",       "n_max",       "elem_min", "elem_max",
                                       "removed_min", "removed_max", "list",     "stable"};
    if (!cJSON_IsObject(when)) return fail(pc, "'when' must be an object");
    sc_status s = check_keys(pc, when, keys, sizeof keys / sizeof *keys, "'when'");
    for (const cJSON *c = when->child; c && s == SC_OK; c = c->next) {
        const char *k = c->string;
        if (!strcmp(k, "n_min")) s = get_size(pc, c, k, &r->n_min);
        if (!strcmp(k, "n_max")) s = get_size(pc, c, k, &r->n_max);
        if (!strcmp(k, "elem_min")) s = get_size(pc, c, k, &r->elem_min);
        if (!strcmp(k, "elem_max")) s = get_size(pc, c, k, &r->elem_max);
        if (!strcmp(k, "removed_min")) s = get_fraction(pc, c, k, &r->removed_min);
        if (!strcmp(k, "removed_max")) s = get_fraction(pc, c, k, &r->removed_max);
        if (!strcmp(k, "list")) s = get_bool(pc, c, k, &r->list);
        if (!strcmp(k, "stable")) s = get_bool(pc, c, k, &r->stable);
    }
    if (s != SC_OK) return s;
    if (r->n_min > r->n_max) return fail(pc, "n_min is above n_max");
    if (r->elem_min > r->elem_max) return fail(pc, "elem_min is above elem_max");
    if (r->removed_min > r->removed_max) return fail(pc, "removed_min is above removed_max");
    return SC_OK;
}

static sc_status parse_rule(parse_ctx *pc, const cJSON *obj, sc_backend backend, sc_rule *r) {
    static const char *const keys[] = {"when", "algo", "tile", "scan", "gain", "note", "measured"};
    memset(r, 0, sizeof *r);
    r->n_max = r->elem_max = SIZE_MAX;
    r->removed_max = 1.0;
    r->list = r->stable = -1;
    if (!cJSON_IsObject(obj)) return fail(pc, "a rule must be an object");
    sc_status s = check_keys(pc, obj, keys, sizeof keys / sizeof *keys, "the rule");
    if (s != SC_OK) return s;
    const cJSON *when = cJSON_GetObjectItemCaseSensitive(obj, "when");
    if (when && (s = parse_when(pc, when, r)) != SC_OK) return s;
    const cJSON *algo = cJSON_GetObjectItemCaseSensitive(obj, "algo");
    if (!cJSON_IsString(algo)) return fail(pc, "'algo' (a name from 'compact list') is missing");
    const sc_algorithm_info *info = sc_algorithm_find(algo->valuestring);
    if (!info) return fail(pc, "unknown algorithm '%s'", algo->valuestring);
    if (info->id == SC_ALGO_AUTO) return fail(pc, "'auto' cannot choose itself");
    if (!(info->backends & (1u << backend)))
        return fail(pc, "'%s' does not run on the %s backend", info->name,
                    sc_backend_name(backend));
    r->algo = info->id;
    const cJSON *tile = cJSON_GetObjectItemCaseSensitive(obj, "tile");
    if (tile) {
        if (!(info->tunables & SC_TUNE_TILE)) return fail(pc, "'%s' has no tile", info->name);
        if ((s = get_size(pc, tile, "tile", &r->tile)) != SC_OK) return s;
        if (r->tile < SC_TILE_MIN || r->tile > SC_TILE_MAX || (r->tile & (r->tile - 1)))
            return fail(pc, "'tile' must be a power of two in [%u, %u]", SC_TILE_MIN, SC_TILE_MAX);
    }
    const cJSON *scan = cJSON_GetObjectItemCaseSensitive(obj, "scan");
    if (scan) {
        if (!(info->tunables & SC_TUNE_SCAN)) return fail(pc, "'%s' has no scan", info->name);
        const char *v = cJSON_IsString(scan) ? scan->valuestring : "";
        if (!strcmp(v, "hillis-steele"))
            r->scan = SC_SCAN_HILLIS_STEELE;
        else if (!strcmp(v, "blelloch"))
            r->scan = SC_SCAN_BLELLOCH;
        else if (strcmp(v, "default"))
            return fail(pc, "'scan' must be \"hillis-steele\", \"blelloch\" or \"default\"");
    }
    const cJSON *gain = cJSON_GetObjectItemCaseSensitive(obj, "gain");
    if (gain) {
        if (info->input != SC_INPUT_REMOVAL_LIST)
            return fail(pc, "'gain' goes with a removal-list algorithm, not '%s'", info->name);
        if (!cJSON_IsNumber(gain) || !(gain->valuedouble > 0.0) || !isfinite(gain->valuedouble))
            return fail(pc, "'gain' must be a number above 0");
        r->gain = gain->valuedouble;
    }
    const cJSON *note = cJSON_GetObjectItemCaseSensitive(obj, "note");
    if (note && !cJSON_IsString(note)) return fail(pc, "'note' must be a string");
    return SC_OK;
}

static sc_status parse_top(parse_ctx *pc, const cJSON *root, sc_backend backend, sc_policy *p) {
    static const char *const keys[] = {"format",          "version", "name",    "backend",
                                       "unknown_removed", "rules",   "source",  "device",
                                       "comment",         "grid",    "measured"};
    if (!cJSON_IsObject(root)) return fail(pc, "the table must be a JSON object");
    sc_status s = check_keys(pc, root, keys, sizeof keys / sizeof *keys, "the table");
    if (s != SC_OK) return s;
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(format) || strcmp(format->valuestring, "raycompact-policy"))
        return fail(pc, "'format' must be \"raycompact-policy\"");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (!cJSON_IsNumber(version) || version->valuedouble != 1.0)
        return fail(pc, "'version' must be 1 (the only format this library reads)");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (!cJSON_IsString(name) || !name->valuestring[0] ||
        strlen(name->valuestring) >= sizeof p->name)
        return fail(pc, "'name' must be a string of 1 to %d characters", SC_POLICY_NAME_MAX - 1);
    snprintf(p->name, sizeof p->name, "%s", name->valuestring);
    const cJSON *be = cJSON_GetObjectItemCaseSensitive(root, "backend");
    const char *want = sc_backend_name(backend);
    if (!cJSON_IsString(be) || (strcmp(be->valuestring, "cpu") && strcmp(be->valuestring, "cuda")))
        return fail(pc, "'backend' must be \"cpu\" or \"cuda\"");
    if (strcmp(be->valuestring, want))
        return fail(pc, "the table is for the %s backend, the context is %s", be->valuestring,
                    want);
    p->backend = backend;
    p->unknown_removed = 0.5;
    const cJSON *unk = cJSON_GetObjectItemCaseSensitive(root, "unknown_removed");
    if (unk && (s = get_fraction(pc, unk, "unknown_removed", &p->unknown_removed)) != SC_OK)
        return s;
    const cJSON *rules = cJSON_GetObjectItemCaseSensitive(root, "rules");
    if (!cJSON_IsArray(rules)) return fail(pc, "'rules' (an array) is missing");
    int count = cJSON_GetArraySize(rules);
    if (count < 1 || count > SC_POLICY_MAX_RULES)
        return fail(pc, "'rules' must hold 1 to %d rules", SC_POLICY_MAX_RULES);
    p->rules = calloc((size_t)count, sizeof *p->rules);
    if (!p->rules) return SC_ERR_OUT_OF_MEMORY;
    int i = 0;
    for (const cJSON *r = rules->child; r; r = r->next, i++) {
        snprintf(pc->where, sizeof pc->where, "rule %d", i);
        if ((s = parse_rule(pc, r, backend, &p->rules[i])) != SC_OK) return s;
        p->num_rules++;
    }
    pc->where[0] = 0;
    return SC_OK;
}

void sc_policy_free(sc_policy *p) {
    if (!p) return;
    free(p->rules);
    free(p->cut);
    free(p->first);
    free(p->at);
    free(p);
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The n index (sc_policy.cut/first/at): every n_min and n_max + 1 starts an interval, so each
 * rule covers whole intervals. Left out (NULL) when memory runs short or the rules overlap so
 * much that the index would hold more than 8 entries a rule; lookup then walks every rule. */
static void build_index(sc_policy *p) {
    const size_t r = p->num_rules, cap = 8 * (r ? r : 1);
    size_t *cut = malloc((2 * r + 1) * sizeof *cut);
    size_t *first = NULL;
    uint32_t *at = NULL;
    if (!cut) return;
    size_t m = 0;
    cut[m++] = 0;
    for (size_t i = 0; i < r; i++) {
        cut[m++] = p->rules[i].n_min;
        if (p->rules[i].n_max != SIZE_MAX) cut[m++] = p->rules[i].n_max + 1;
    }
    qsort(cut, m, sizeof *cut, cmp_size);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (!u || cut[u - 1] != cut[i]) cut[u++] = cut[i];
    first = malloc((u + 1) * sizeof *first);
    at = malloc(cap * sizeof *at);
    if (!first || !at) goto none;
    size_t used = 0;
    for (size_t j = 0; j < u; j++) {
        first[j] = used;
        for (size_t i = 0; i < r; i++) {
            const sc_rule *x = &p->rules[i];
            if (x->n_min > cut[j] || x->n_max < cut[j]) continue;
            if (used == cap) goto none;
            at[used++] = (uint32_t)i;
        }
    }
    first[u] = used;
    p->cut = cut;
    p->first = first;
    p->at = at;
    p->num_cuts = u;
    return;
none:
    free(cut);
    free(first);
    free(at);
}

void sc_policy_rules_for(const sc_policy *p, size_t n, const uint32_t **out, size_t *count) {
    if (!p->cut) {
        *out = NULL;
        *count = p->num_rules;
        return;
    }
    size_t lo = 0, hi = p->num_cuts; /* the last interval whose start is <= n (cut[0] = 0) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->cut[mid] <= n)
            lo = mid;
        else
            hi = mid;
    }
    *out = p->at + p->first[lo];
    *count = p->first[lo + 1] - p->first[lo];
}

sc_status sc_policy_parse(const char *json, size_t len, sc_backend backend, sc_policy **out,
                          char *msg, size_t cap) {
    parse_ctx pc = {msg, cap, ""};
    if (msg && cap) msg[0] = 0;
    if (out) *out = NULL;
    if (!json || !out) return fail(&pc, "no table");
    if (backend != SC_BACKEND_CPU && backend != SC_BACKEND_CUDA) return fail(&pc, "bad backend");
    if (len > SC_POLICY_MAX_BYTES) return fail(&pc, "larger than %u bytes", SC_POLICY_MAX_BYTES);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
    if (!root) {
        size_t at = end && end >= json && end <= json + len ? (size_t)(end - json) : 0;
        size_t line = 1;
        for (size_t i = 0; i < at; i++) line += json[i] == '\n';
        return fail(&pc, "not valid JSON (near byte %zu, line %zu)", at, line);
    }
    /* Only blanks may follow the value. */
    for (const char *c = end; c && c < json + len; c++)
        if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r' && *c != '\0') {
            cJSON_Delete(root);
            return fail(&pc, "text after the JSON value (byte %zu)", (size_t)(c - json));
        }
    sc_policy *p = calloc(1, sizeof *p);
    sc_status s = p ? parse_top(&pc, root, backend, p) : SC_ERR_OUT_OF_MEMORY;
    cJSON_Delete(root);
    if (s != SC_OK) {
        sc_policy_free(p);
        return s;
    }
    build_index(p);
    *out = p;
    return SC_OK;
}

/* What a path that is not a regular file names, for the message. */
static const char *file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "neither a file nor a directory";
}

/* A table file opened for reading, or NULL with the reason in why ("cannot open: ..." or "not
 * a regular file (a FIFO)"), without ever blocking: a FIFO, a socket, a device or a directory
 * is refused by its stat() before it is opened (opening a FIFO for reading waits for a writer),
 * and the open is non-blocking (O_NONBLOCK, cleared once open) for a path replaced by one in
 * between. The tools' rc_open_regular (compaction/support) does the same; the library stands
 * alone, so it has its own. */
static FILE *open_table(const char *path, char *why, size_t cap) {
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(why, cap, "not a regular file (%s)", file_kind(st.st_mode));
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* a socket */
            snprintf(why, cap, "not a regular file (%s)", file_kind(st.st_mode));
        else
            snprintf(why, cap, "cannot open: %s", strerror(e));
        return NULL;
    }
    int flags = -1;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0)
        snprintf(why, cap, "cannot open: %s", strerror(errno));
    else if (!S_ISREG(st.st_mode))
        snprintf(why, cap, "not a regular file (%s)", file_kind(st.st_mode));
    else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
             !(f = fdopen(fd, "rb")))
        snprintf(why, cap, "cannot open: %s", strerror(errno));
    if (!f) close(fd);
    return f;
}

sc_status sc_policy_load(const char *path, sc_backend backend, sc_policy **out, char *msg,
                         size_t cap) {
    if (out) *out = NULL;
    char why[256];
    FILE *f = open_table(path, why, sizeof why);
    if (!f) {
        if (msg && cap) snprintf(msg, cap, "policy %s: %s", path, why);
        return SC_ERR_POLICY;
    }
    char *buf = malloc(SC_POLICY_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        return SC_ERR_OUT_OF_MEMORY;
    }
    size_t len = fread(buf, 1, SC_POLICY_MAX_BYTES + 1, f);
    int bad = ferror(f);
    fclose(f);
    sc_status s = SC_ERR_POLICY;
    if (bad)
        snprintf(why, sizeof why, "cannot read");
    else if (len > SC_POLICY_MAX_BYTES)
        snprintf(why, sizeof why, "larger than %u bytes", SC_POLICY_MAX_BYTES);
    else
        s = sc_policy_parse(buf, len, backend, out, why, sizeof why);
    free(buf);
    if (s != SC_OK && msg && cap) snprintf(msg, cap, "policy %s: %s", path, why);
    return s;
}

sc_status sc_policy_check(const char *json, size_t len, sc_backend backend, char *msg, size_t cap) {
    sc_policy *p = NULL;
    sc_status s = sc_policy_parse(json, len, backend, &p, msg, cap);
    sc_policy_free(p);
    return s;
}
