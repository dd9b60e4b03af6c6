/* gltf_meshes.c: the glTF reader's meshes: the primitives' table, each attribute's accessor
 * checked against the format's rules and the counts of vertices and triangles its mode makes,
 * before any vertex is read (gltf_internal.h). */
#include "gltf_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const k_attr_names[A_NUM] = {"POSITION",   "NORMAL",     "TANGENT",
                                                "TEXCOORD_0", "TEXCOORD_1", "COLOR_0"};

/* ---- meshes ---- */

/* The accessor of a vertex attribute: its type and component types as the format allows
 * (glTF 2.0 sec. 3.7.2.1), and as KHR_mesh_quantization widens them where the file uses it:
 * POSITION and TEXCOORD of any 8- or 16-bit integer type, normalized or not; NORMAL and
 * TANGENT of normalized BYTE or SHORT. The reader turns every component into a float by the
 * format's rules (sec. 3.11: normalized signed values max(c / (2^(b-1) - 1), -1)). */
static int check_attr(gctx *c, const char *p, int k, int32_t ai) {
    const gacc *a = &c->accs[ai];
    const char *name = k_attr_names[k];
    const int small = a->ctype == CT_BYTE || a->ctype == CT_UBYTE || a->ctype == CT_SHORT ||
                      a->ctype == CT_USHORT;
    const int snorm = a->normalized && (a->ctype == CT_BYTE || a->ctype == CT_SHORT);
    int ok;
    const char *want;
    switch (k) {
    case A_POS:
        ok = a->ncomp == 3 && a->elem == a->ncomp * a->csize &&
             (a->ctype == CT_FLOAT || (c->quantized && small));
        want = c->quantized ? "VEC3 of FLOAT, BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT"
                            : "VEC3 of FLOAT";
        break;
    case A_NRM:
        ok = a->ncomp == 3 && a->elem == a->ncomp * a->csize &&
             (a->ctype == CT_FLOAT || (c->quantized && snorm));
        want = c->quantized ? "VEC3 of FLOAT or normalized BYTE or SHORT" : "VEC3 of FLOAT";
        break;
    case A_TAN:
        ok = a->ncomp == 4 && a->elem == a->ncomp * a->csize &&
             (a->ctype == CT_FLOAT || (c->quantized && snorm));
        want = c->quantized ? "VEC4 of FLOAT or normalized BYTE or SHORT" : "VEC4 of FLOAT";
        break;
    case A_UV0:
    case A_UV1:
        ok = a->ncomp == 2 && a->elem == a->ncomp * a->csize &&
             (a->ctype == CT_FLOAT ||
              (a->normalized && (a->ctype == CT_UBYTE || a->ctype == CT_USHORT)) ||
              (c->quantized && small));
        want = c->quantized ? "VEC2 of FLOAT, BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT"
                            : "VEC2 of FLOAT or normalized UNSIGNED_BYTE or UNSIGNED_SHORT";
        break;
    default:
        ok = (a->ncomp == 3 || a->ncomp == 4) && a->elem == a->ncomp * a->csize &&
             (a->ctype == CT_FLOAT ||
              (a->normalized && (a->ctype == CT_UBYTE || a->ctype == CT_USHORT)));
        want = "VEC3 or VEC4 of FLOAT or normalized UNSIGNED_BYTE or UNSIGNED_SHORT";
    }
    if (!ok)
        return gltf_fail(c, p, "%s: accessors[%d] is not %s (the format's rule)", name, ai, want);
    return 0;
}

int gltf_read_meshes(gctx *c) {
    size_t total = 0;
    for (int i = 0; i < c->n_meshes; i++) {
        const cJSON *arr;
        int n;
        char p[64];
        gltf_jindex(p, sizeof p, "meshes", i);
        if (gltf_jarray(c, c->a_meshes[i], p, "primitives", &arr, &n) < 0) return -1;
        if (!arr || n == 0) return gltf_fail(c, p, "primitives: missing or empty");
        total += (size_t)n;
    }
    if (c->n_meshes) {
        c->meshes = calloc((size_t)c->n_meshes, sizeof *c->meshes);
        c->prims = calloc(total ? total : 1, sizeof *c->prims);
        if (!c->meshes || !c->prims) return gltf_fail(c, "meshes", "out of memory");
    }
    size_t at = 0;
    for (int i = 0; i < c->n_meshes; i++) {
        char mp[64];
        gltf_jindex(mp, sizeof mp, "meshes", i);
        const cJSON *arr = gltf_jget(c->a_meshes[i], "primitives");
        c->meshes[i].first = at;
        int j = 0;
        for (const cJSON *o = arr->child; o; o = o->next, j++, at++) {
            char pp[96], fp[160];
            gltf_jindex(pp, sizeof pp, gltf_jpath(fp, sizeof fp, mp, "primitives"), j);
            gprim *g = &c->prims[at];
            if (!cJSON_IsObject(o)) return gltf_fail(c, pp, "expected an object");
            const cJSON *attrs, *targets;
            size_t mode;
            if (gltf_jobject(c, o, pp, "attributes", &attrs) < 0 ||
                gltf_jref(c, o, pp, "indices", 0, c->n_accs, "accessors", &g->indices) != 0 ||
                gltf_jref(c, o, pp, "material", 0, c->n_mats, "materials", &g->material) != 0 ||
                gltf_juint(c, o, pp, "mode", 0, 4, 0, 6, &mode) != 0)
                return -1;
            g->mode = (uint32_t)mode;
            char ap[128];
            gltf_jpath(ap, sizeof ap, pp, "attributes");
            if (!attrs) return gltf_fail(c, ap, "missing");
            for (const cJSON *it = attrs->child; it; it = it->next) {
                double v = it->valuedouble;
                if (!cJSON_IsNumber(it) || v != floor(v) || v < 0 || v >= c->n_accs)
                    return gltf_fail(c, gltf_jpath(fp, sizeof fp, ap, it->string),
                                     "expected an index into accessors (%d in the file)",
                                     c->n_accs);
            }
            for (int k = 0; k < A_NUM; k++) {
                if (gltf_jref(c, attrs, ap, k_attr_names[k], 0, c->n_accs, "accessors",
                              &g->attr[k]) != 0)
                    return -1;
                if (g->attr[k] >= 0 && check_attr(c, ap, k, g->attr[k]) != 0) return -1;
            }
            int nt;
            if (gltf_jarray(c, o, pp, "targets", &targets, &nt) < 0) return -1;
            if (nt > 0) {
                c->out->num_morphed++;
                gltf_notice(c, pp, "morph targets ignored: the base POSITION is read");
            }
            g->triangles = mode >= 4;
            if (!g->triangles) {
                static const char *const names[] = {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP"};
                char what[96];
                snprintf(what, sizeof what, "mode %zu (%s) skipped: only triangles are read", mode,
                         names[mode]);
                c->out->num_skipped_primitives++;
                gltf_notice(c, pp, what);
                continue;
            }
            if (g->attr[A_POS] < 0) return gltf_fail(c, ap, "POSITION: missing");
            g->num_vertices = c->accs[g->attr[A_POS]].count;
            for (int k = 1; k < A_NUM; k++)
                if (g->attr[k] >= 0 && c->accs[g->attr[k]].count != g->num_vertices)
                    return gltf_fail(c, ap, "%s: accessors[%d] has %zu elements, POSITION %zu",
                                     k_attr_names[k], g->attr[k], c->accs[g->attr[k]].count,
                                     g->num_vertices);
            size_t n = g->num_vertices;
            if (g->indices >= 0) {
                const gacc *a = &c->accs[g->indices];
                if (a->ncomp != 1 || a->normalized ||
                    (a->ctype != CT_UBYTE && a->ctype != CT_USHORT && a->ctype != CT_UINT))
                    return gltf_fail(
                        c, gltf_jpath(fp, sizeof fp, pp, "indices"),
                        "accessors[%d] is not a SCALAR of UNSIGNED_BYTE, UNSIGNED_SHORT "
                        "or UNSIGNED_INT",
                        g->indices);
                n = a->count;
            }
            if (mode == 4) {
                if (n % 3)
                    return gltf_fail(c, pp, "%zu %s is not a multiple of 3 (TRIANGLES)", n,
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
