/* gltf_buffers.c: the glTF reader's tables of buffers, buffer views and accessors, each range
 * proven in bounds before any data is read, and the strided reads of accessors (sparse
 * substitution included) that rely on them (gltf_internal.h). */
#include "gltf_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNT ((size_t)1 << 31) /* elements of one accessor */

/* ---- buffers, views, accessors ---- */

int gltf_read_buffers(gctx *c) {
    static const char *const types[] = {"application/octet-stream", "application/gltf-buffer",
                                        NULL};
    if (c->n_buffers) {
        c->bufs = calloc((size_t)c->n_buffers, sizeof *c->bufs);
        if (!c->bufs) return gltf_fail(c, "buffers", "out of memory");
    }
    for (int i = 0; i < c->n_buffers; i++) {
        const cJSON *o = c->a_buffers[i];
        char p[64];
        gltf_jindex(p, sizeof p, "buffers", i);
        size_t blen;
        const char *uri;
        if (gltf_juint(c, o, p, "byteLength", 1, 0, 1, SIZE_MAX >> 1, &blen) != 0 ||
            gltf_jstring(c, o, p, "uri", &uri) != 0)
            return -1;
        gbuf *b = &c->bufs[i];
        size_t have = 0;
        if (!uri) {
            if (i != 0 || !c->is_glb || !c->bin)
                return gltf_fail(c, p,
                                 "no uri, and it is not the first buffer of a .glb with a BIN "
                                 "chunk");
            b->data = c->bin;
            have = c->bin_len;
        } else if (strncmp(uri, "data:", 5) == 0) {
            if (gltf_data_uri(c, p, uri, types, &b->owned, &have, NULL) != 0) return -1;
            b->data = b->owned;
        } else {
            if (gltf_read_uri_file(c, p, uri, &b->owned, &have) != 0) return -1;
            b->data = b->owned;
        }
        if (have < blen)
            return gltf_fail(c, p, "byteLength %zu, but the data has only %zu bytes", blen, have);
        b->len = blen;
    }
    return 0;
}

int gltf_read_views(gctx *c) {
    if (c->n_views) {
        c->views = calloc((size_t)c->n_views, sizeof *c->views);
        if (!c->views) return gltf_fail(c, "bufferViews", "out of memory");
    }
    for (int i = 0; i < c->n_views; i++) {
        const cJSON *o = c->a_views[i];
        char p[64];
        gltf_jindex(p, sizeof p, "bufferViews", i);
        gview *v = &c->views[i];
        int32_t b;
        size_t stride, target;
        if (gltf_jref(c, o, p, "buffer", 1, c->n_buffers, "buffers", &b) != 0 ||
            gltf_juint(c, o, p, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &v->offset) != 0 ||
            gltf_juint(c, o, p, "byteLength", 1, 0, 1, SIZE_MAX >> 1, &v->length) != 0 ||
            gltf_juint(c, o, p, "byteStride", 0, 0, 4, 252, &stride) != 0 ||
            gltf_juint(c, o, p, "target", 0, 34962, 34962, 34963, &target) != 0)
            return -1;
        if (gltf_jget(o, "byteStride") && stride % 4)
            return gltf_fail(c, p, "byteStride %zu is not a multiple of 4", stride);
        if (target != 34962 && target != 34963)
            return gltf_fail(c, p, "target %zu is neither 34962 (ARRAY_BUFFER) nor 34963", target);
        v->buffer = (uint32_t)b;
        v->stride = gltf_jget(o, "byteStride") ? stride : 0;
        size_t blen = c->bufs[b].len;
        if (v->offset > blen || v->length > blen - v->offset)
            return gltf_fail(c, p,
                             "byteOffset %zu + byteLength %zu runs past buffers[%d] (%zu bytes)",
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
        return gltf_fail(c, p,
                         "%sbyteOffset %zu + %zu x %zu bytes runs past bufferViews[%d] (%zu bytes)",
                         what, off, count, elem, view, c->views[view].length);
    return gltf_fail(
        c, p,
        "%sbyteOffset %zu + %zu x %zu bytes at a stride of %zu runs past bufferViews[%d] "
        "(%zu bytes)",
        what, off, count, elem, stride, view, c->views[view].length);
}

static int read_sparse(gctx *c, const cJSON *sp, const char *path, gacc *a) {
    char p[128], ip[160], vp[160];
    gltf_jpath(p, sizeof p, path, "sparse");
    if (!cJSON_IsObject(sp)) return gltf_fail(c, p, "expected an object");
    const cJSON *ind, *val;
    if (gltf_juint(c, sp, p, "count", 1, 0, 1, a->count, &a->scount) != 0) return -1;
    gltf_jpath(ip, sizeof ip, p, "indices");
    gltf_jpath(vp, sizeof vp, p, "values");
    if (gltf_jobject(c, sp, p, "indices", &ind) <= 0) return ind ? -1 : gltf_fail(c, ip, "missing");
    if (gltf_jobject(c, sp, p, "values", &val) <= 0) return val ? -1 : gltf_fail(c, vp, "missing");
    int32_t iv, vv;
    size_t ct;
    if (gltf_jref(c, ind, ip, "bufferView", 1, c->n_views, "bufferViews", &iv) != 0 ||
        gltf_juint(c, ind, ip, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &a->soffset) != 0 ||
        gltf_juint(c, ind, ip, "componentType", 1, 0, 0, 1u << 16, &ct) != 0 ||
        gltf_jref(c, val, vp, "bufferView", 1, c->n_views, "bufferViews", &vv) != 0 ||
        gltf_juint(c, val, vp, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &a->voffset) != 0)
        return -1;
    if (ct != CT_UBYTE && ct != CT_USHORT && ct != CT_UINT)
        return gltf_fail(c, ip, "componentType %zu is not 5121, 5123 or 5125 (unsigned integers)",
                         ct);
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

int gltf_read_accessors(gctx *c) {
    static const char *const types[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
    static const uint32_t ncomps[] = {1, 2, 3, 4, 4, 9, 16};
    if (c->n_accs) {
        c->accs = calloc((size_t)c->n_accs, sizeof *c->accs);
        if (!c->accs) return gltf_fail(c, "accessors", "out of memory");
    }
    for (int i = 0; i < c->n_accs; i++) {
        const cJSON *o = c->a_accs[i];
        char p[64], fp[96];
        gltf_jindex(p, sizeof p, "accessors", i);
        gacc *a = &c->accs[i];
        size_t ct;
        const char *type;
        if (gltf_jref(c, o, p, "bufferView", 0, c->n_views, "bufferViews", &a->view) != 0 ||
            gltf_juint(c, o, p, "byteOffset", 0, 0, 0, SIZE_MAX >> 1, &a->offset) != 0 ||
            gltf_juint(c, o, p, "componentType", 1, 0, 0, 1u << 16, &ct) != 0 ||
            gltf_jbool(c, o, p, "normalized", &a->normalized) != 0 ||
            gltf_juint(c, o, p, "count", 1, 0, 1, MAX_COUNT, &a->count) != 0 ||
            gltf_jstring(c, o, p, "type", &type) != 0)
            return -1;
        a->ctype = (uint32_t)ct;
        a->csize = comp_size(a->ctype);
        if (!a->csize)
            return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "componentType"),
                             "%zu is not a component type (5120, 5121, 5122, 5123, 5125, 5126)",
                             ct);
        if (!type) return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "type"), "missing");
        int t = -1;
        for (int k = 0; k < 7; k++)
            if (strcmp(type, types[k]) == 0) t = k;
        if (t < 0) {
            char shown[40];
            return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "type"),
                             "'%s' is not one of SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3, MAT4",
                             echo_escape(shown, sizeof shown, type));
        }
        if (a->normalized && (a->ctype == CT_FLOAT || a->ctype == CT_UINT))
            return gltf_fail(c, p, "normalized %s is not allowed", comp_name(a->ctype));
        a->ncomp = ncomps[t];
        /* matrix columns of 1- and 2-byte components start on 4-byte boundaries */
        if (t >= 4 && a->csize < 4) {
            uint32_t rows = t == 4 ? 2 : t == 5 ? 3 : 4;
            a->elem = (size_t)rows * ((rows * a->csize + 3) / 4 * 4);
        } else {
            a->elem = (size_t)a->ncomp * a->csize;
        }
        if (a->offset % a->csize)
            return gltf_fail(c, p, "byteOffset %zu is not a multiple of the component size %u",
                             a->offset, a->csize);
        if (a->view >= 0) {
            const gview *v = &c->views[a->view];
            a->stride = v->stride ? v->stride : a->elem;
            if (v->stride && v->stride < a->elem)
                return gltf_fail(c, p,
                                 "bufferViews[%d].byteStride %zu is less than an element (%zu "
                                 "bytes)",
                                 a->view, v->stride, a->elem);
            if ((v->offset + a->offset) % a->csize || a->stride % a->csize)
                return gltf_fail(c, p, "data not aligned to its component size %u", a->csize);
            if (!fits(a->offset, a->count, a->stride, a->elem, v->length))
                return view_fail(c, p, "", a->offset, a->count, a->stride, a->elem, a->view);
        } else if (gltf_jget(o, "byteOffset")) {
            return gltf_fail(c, p, "byteOffset without a bufferView");
        }
        const cJSON *sp = gltf_jget(o, "sparse");
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

const uint8_t *gltf_view_data(const gctx *c, uint32_t view) {
    const gview *v = &c->views[view];
    return c->bufs[v->buffer].data + v->offset;
}

/* The sparse substitution of accessor ai: element indices strictly increasing, below count. */
static int sparse_index(gctx *c, int ai, size_t j, size_t *prev, size_t *out) {
    const gacc *a = &c->accs[ai];
    size_t is = comp_size(a->sctype);
    size_t k = comp_uint(gltf_view_data(c, a->sview) + a->soffset + j * is, a->sctype);
    char p[64];
    if (k >= a->count || (j > 0 && k <= *prev))
        return gltf_fail(c, gltf_jindex(p, sizeof p, "accessors", ai),
                         "sparse index %zu (entry %zu) is %s", k, j,
                         k >= a->count ? "not below the count" : "not above the one before");
    *prev = k;
    *out = k;
    return 0;
}

/* memcpy over all threads for a large accessor (the first touch of its fresh pages too). */
static void copy_par(void *dst, const void *src, size_t bytes) {
    const size_t chunk = (size_t)1 << 20;
    const int64_t chunks = (int64_t)((bytes + chunk - 1) / chunk);
#pragma omp parallel for schedule(static) if (bytes >= 4 * (size_t)GLTF_PAR)
    for (int64_t k = 0; k < chunks; k++) {
        size_t at = (size_t)k * chunk, n = bytes - at < chunk ? bytes - at : chunk;
        memcpy((char *)dst + at, (const char *)src + at, n);
    }
}

/* Accessor ai (ncomp components each) as floats, sparse values substituted; non-finite
 * values refused, naming the accessor and `use`. */
int gltf_read_floats(gctx *c, int ai, float *out, const char *use) {
    const gacc *a = &c->accs[ai];
    uint32_t nc = a->ncomp;
    if (a->view >= 0) {
        const uint8_t *base = gltf_view_data(c, (uint32_t)a->view) + a->offset;
        size_t st = a->stride;
        if (a->ctype == CT_FLOAT) {
            if (st == (size_t)nc * 4) {
                copy_par(out, base, a->count * nc * 4);
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
        const uint8_t *vals = gltf_view_data(c, a->vview) + a->voffset;
        size_t prev = 0;
        for (size_t j = 0; j < a->scount; j++) {
            /* set when sparse_index returns 0; the compiler cannot see that gltf_fail never
             * does, now that it lives in another file */
            size_t k = 0;
            if (sparse_index(c, ai, j, &prev, &k) != 0) return -1;
            for (uint32_t q = 0; q < nc; q++)
                out[k * nc + q] =
                    comp_float(vals + j * a->elem + q * a->csize, a->ctype, a->normalized);
        }
    }
    if (a->ctype == CT_FLOAT) {
        const int64_t n = (int64_t)(a->count * nc);
        int64_t first = n; /* the first value that is not finite, over all threads */
#pragma omp parallel for schedule(static) reduction(min : first) if (n >= GLTF_PAR)
        for (int64_t i = 0; i < n; i++)
            if (!isfinite(out[i]) && i < first) first = i;
        if (first < n) {
            char p[64];
            return gltf_fail(c, gltf_jindex(p, sizeof p, "accessors", ai),
                             "element %zu (%s) is not finite", (size_t)first / nc, use);
        }
    }
    return 0;
}

int gltf_read_uints(gctx *c, int ai, uint32_t *out) {
    const gacc *a = &c->accs[ai];
    if (a->view >= 0) {
        const uint8_t *base = gltf_view_data(c, (uint32_t)a->view) + a->offset;
        size_t st = a->stride;
        if (a->ctype == CT_UINT && st == 4) {
            copy_par(out, base, a->count * 4);
        } else if (a->ctype == CT_USHORT) {
            const int64_t n = (int64_t)a->count;
#pragma omp parallel for schedule(static) if (n >= GLTF_PAR)
            for (int64_t i = 0; i < n; i++) {
                uint16_t u;
                memcpy(&u, base + (size_t)i * st, 2);
                out[i] = u;
            }
        } else
            for (size_t i = 0; i < a->count; i++) out[i] = comp_uint(base + i * st, a->ctype);
    } else {
        memset(out, 0, a->count * sizeof *out);
    }
    if (a->scount) {
        const uint8_t *vals = gltf_view_data(c, a->vview) + a->voffset;
        size_t prev = 0;
        for (size_t j = 0; j < a->scount; j++) {
            size_t k = 0; /* as in gltf_read_floats */
            if (sparse_index(c, ai, j, &prev, &k) != 0) return -1;
            out[k] = comp_uint(vals + j * a->elem, a->ctype);
        }
    }
    return 0;
}
