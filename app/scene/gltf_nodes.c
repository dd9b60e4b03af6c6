/* gltf_nodes.c: the glTF reader's node hierarchy: local transforms, the forest's checks, the
 * scene's roots walked depth first into world transforms and a visiting order, and the cameras
 * the nodes place (gltf_internal.h). */
#include "gltf_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- cameras ---- */

int gltf_check_cameras(gctx *c) {
    for (int i = 0; i < c->n_cams; i++) {
        const cJSON *o = c->a_cams[i], *pp;
        char p[64], fp[96];
        gltf_jindex(p, sizeof p, "cameras", i);
        const char *type;
        if (gltf_jstring(c, o, p, "type", &type) != 0) return -1;
        if (!type) return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "type"), "missing");
        int persp = strcmp(type, "perspective") == 0;
        if (!persp && strcmp(type, "orthographic") != 0)
            return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "type"),
                             "expected perspective or orthographic");
        if (gltf_jobject(c, o, p, type, &pp) < 0) return -1;
        if (!pp) return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, type), "missing");
        if (!persp) continue;
        gltf_jpath(fp, sizeof fp, p, "perspective");
        float yfov = 0, ar = 0, zn = 0, zf = 0;
        if (!gltf_jget(pp, "yfov")) return gltf_fail(c, fp, "yfov missing");
        if (!gltf_jget(pp, "znear")) return gltf_fail(c, fp, "znear missing");
        if (gltf_jnum(c, pp, fp, "yfov", 0.8, 1e-6, 3.14159, &yfov) != 0 ||
            gltf_jnum(c, pp, fp, "aspectRatio", 1.0, 1e-6, 1e6, &ar) != 0 ||
            gltf_jnum(c, pp, fp, "znear", 1.0, 1e-30, 1e30, &zn) != 0 ||
            gltf_jnum(c, pp, fp, "zfar", 1e30, 1e-30, 1e38, &zf) != 0)
            return -1;
        if (gltf_jget(pp, "zfar") && !(zf > zn))
            return gltf_fail(c, fp, "zfar is not beyond znear");
    }
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

int gltf_read_nodes(gctx *c) {
    if (c->n_nodes) {
        c->nodes = calloc((size_t)c->n_nodes, sizeof *c->nodes);
        if (!c->nodes) return gltf_fail(c, "nodes", "out of memory");
    }
    for (int i = 0; i < c->n_nodes; i++) c->nodes[i].parent = -1;
    const cJSON *skins;
    int n_skins;
    if (gltf_jarray(c, c->root, "", "skins", &skins, &n_skins) < 0) return -1;
    for (int i = 0; i < c->n_nodes; i++) {
        const cJSON *o = c->a_nodes[i];
        gnode *nd = &c->nodes[i];
        char p[64], fp[96], cp[96];
        gltf_jindex(p, sizeof p, "nodes", i);
        int32_t skin;
        int nc, has_m, has_t, has_r, has_s;
        double m[16], t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        if (gltf_jref(c, o, p, "mesh", 0, c->n_meshes, "meshes", &nd->mesh) != 0 ||
            gltf_jref(c, o, p, "camera", 0, c->n_cams, "cameras", &nd->camera) != 0 ||
            gltf_jref(c, o, p, "skin", 0, n_skins, "skins", &skin) != 0 ||
            gltf_jarray(c, o, p, "children", &nd->children, &nc) < 0 ||
            gltf_jnums(c, o, p, "matrix", 16, -1e30, 1e30, m, &has_m) != 0 ||
            gltf_jnums(c, o, p, "translation", 3, -1e30, 1e30, t, &has_t) != 0 ||
            gltf_jnums(c, o, p, "rotation", 4, -1.0, 1.0, r, &has_r) != 0 ||
            gltf_jnums(c, o, p, "scale", 3, -1e30, 1e30, s, &has_s) != 0)
            return -1;
        if (skin >= 0) {
            c->out->num_skinned++;
            gltf_notice(c, p, "skin ignored: the mesh is read in its bind pose");
        }
        if (has_m && (has_t || has_r || has_s))
            return gltf_fail(c, p, "has both a matrix and translation/rotation/scale");
        if (has_m) {
            memcpy(nd->local, m, sizeof m);
        } else {
            double qn = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
            if (!(qn > 1e-6))
                return gltf_fail(c, gltf_jpath(fp, sizeof fp, p, "rotation"),
                                 "is not a unit quaternion");
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
                return gltf_fail(
                    c, gltf_jindex(fp, sizeof fp, gltf_jpath(cp, sizeof cp, p, "children"), k),
                    "expected an index into nodes (%d in the file)", c->n_nodes);
            int ch = (int)v;
            if (ch == i)
                return gltf_fail(c, p, "is its own child (the node hierarchy has a cycle)");
            if (c->nodes[ch].parent >= 0)
                return gltf_fail(
                    c, gltf_jindex(fp, sizeof fp, "nodes", ch),
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
        return gltf_fail(c, "nodes", "out of memory");
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
            rc = gltf_fail(c, gltf_jindex(p, sizeof p, "nodes", i),
                           "is reached twice from the scene");
            break;
        }
        nd->reached = 1;
        c->order[c->n_order++] = i;
        if (d >= RC_GLTF_MAX_DEPTH) {
            rc = gltf_fail(c, gltf_jindex(p, sizeof p, "nodes", i), "deeper than %d levels",
                           RC_GLTF_MAX_DEPTH);
            break;
        }
        int nc = nd->children ? cJSON_GetArraySize(nd->children) : 0;
        if (top + (size_t)nc > cap) {
            rc = gltf_fail(c, gltf_jindex(p, sizeof p, "nodes", i), "too many children");
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

int gltf_select_scene(gctx *c) {
    size_t si;
    int32_t scene = -1;
    if (gltf_jget(c->root, "scene")) {
        if (gltf_juint(c, c->root, "", "scene", 1, 0, 0, SIZE_MAX >> 1, &si) != 0) return -1;
        if (si >= (size_t)c->n_scenes)
            return gltf_fail(c, "scene", "scenes[%zu] does not exist (%d in the file)", si,
                             c->n_scenes);
        scene = (int32_t)si;
    } else if (c->n_scenes > 0) {
        scene = 0;
    }
    /* every node must be reachable from a root: the nodes no root reaches are on a cycle */
    int32_t *roots = malloc(((size_t)c->n_nodes + 1) * sizeof *roots);
    if (!roots) return gltf_fail(c, "nodes", "out of memory");
    size_t nr = 0;
    for (int i = 0; i < c->n_nodes; i++)
        if (c->nodes[i].parent < 0) roots[nr++] = i;
    int rc = walk_nodes(c, roots, nr);
    if (rc == 0)
        for (int i = 0; i < c->n_nodes; i++)
            if (!c->nodes[i].reached) {
                char p[64];
                rc = gltf_fail(c, gltf_jindex(p, sizeof p, "nodes", i),
                               "is in a cycle of children (glTF nodes form a forest)");
                break;
            }
    /* then the chosen scene's roots only */
    if (rc == 0 && scene >= 0) {
        const cJSON *arr;
        int n;
        char sp[64], fp[96];
        gltf_jindex(sp, sizeof sp, "scenes", scene);
        nr = 0;
        if (gltf_jarray(c, c->a_scenes[scene], sp, "nodes", &arr, &n) < 0) rc = -1;
        for (const cJSON *e = arr && n ? arr->child : NULL; e && rc == 0; e = e->next) {
            double v = e->valuedouble;
            if (!cJSON_IsNumber(e) || v != floor(v) || v < 0 || v >= c->n_nodes) {
                rc = gltf_fail(c, gltf_jpath(fp, sizeof fp, sp, "nodes"),
                               "expected indices into nodes (%d in the file)", c->n_nodes);
            } else if (c->nodes[(int)v].parent >= 0) {
                rc = gltf_fail(c, gltf_jpath(fp, sizeof fp, sp, "nodes"),
                               "nodes[%d] is not a root (it is a child of nodes[%d])", (int)v,
                               c->nodes[(int)v].parent);
            } else if (c->nodes[(int)v].reached == 2) {
                rc = gltf_fail(c, gltf_jpath(fp, sizeof fp, sp, "nodes"), "lists nodes[%d] twice",
                               (int)v);
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

/* ---- camera ---- */

int gltf_read_camera(gctx *c) {
    rc_import_camera *cam = &c->out->camera;
    for (size_t k = 0; k < c->n_order; k++) {
        const gnode *nd = &c->nodes[c->order[k]];
        if (nd->camera < 0) continue;
        const cJSON *o = c->a_cams[nd->camera];
        const cJSON *pp = gltf_jget(o, "perspective");
        if (strcmp(gltf_jget(o, "type")->valuestring, "perspective") != 0 || !pp) continue;
        const double *w = nd->world;
        double from[3] = {w[12], w[13], w[14]};
        double fwd[3] = {-w[8], -w[9], -w[10]}, up[3] = {w[4], w[5], w[6]};
        double lf = sqrt(fwd[0] * fwd[0] + fwd[1] * fwd[1] + fwd[2] * fwd[2]);
        double lu = sqrt(up[0] * up[0] + up[1] * up[1] + up[2] * up[2]);
        char p[64];
        if (!(lf > 1e-12) || !(lu > 1e-12) || !isfinite(lf) || !isfinite(lu) ||
            !isfinite(from[0] + from[1] + from[2]))
            return gltf_fail(c, gltf_jindex(p, sizeof p, "nodes", c->order[k]),
                             "the camera's transform is degenerate (no view direction)");
        cam->present = 1;
        cam->node = (uint32_t)c->order[k];
        cam->camera = (uint32_t)nd->camera;
        for (int r = 0; r < 3; r++) {
            cam->look_from[r] = (float)from[r];
            cam->look_at[r] = (float)(from[r] + fwd[r] / lf);
            cam->up[r] = (float)(up[r] / lu);
        }
        const cJSON *y = gltf_jget(pp, "yfov"), *a = gltf_jget(pp, "aspectRatio"),
                    *z = gltf_jget(pp, "znear");
        cam->vfov = (float)(y->valuedouble * 180.0 / 3.14159265358979323846);
        cam->aspect = a ? (float)a->valuedouble : 0.0f;
        cam->znear = (float)z->valuedouble;
        return 0;
    }
    return 0;
}
