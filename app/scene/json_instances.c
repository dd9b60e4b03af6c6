/* json_instances.c: a scene file's "instances" (scenes/FORMAT.md): which "meshes" entries they
 * place, and each instance's transform, checked like every other field of scene_json.c. */
#include "json_instances.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The "meshes" entry that instance `o` names: an index or a mesh's "name". */
static int mesh_index(rc_json_ctx *c, const cJSON *o, const char *path, const cJSON *meshes,
                      size_t *out) {
    char fp[300];
    rc_json_join(fp, sizeof fp, path, "mesh");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "mesh");
    const int n = cJSON_IsArray(meshes) ? cJSON_GetArraySize(meshes) : 0;
    if (!m) return rc_json_fail(c, fp, "missing");
    if (cJSON_IsNumber(m)) {
        const double v = m->valuedouble;
        if (!(v >= 0.0 && v < (double)n && v == floor(v)))
            return rc_json_fail(c, fp, "no mesh %g: meshes has %d entries", v, n);
        *out = (size_t)v;
        return 0;
    }
    if (!cJSON_IsString(m) || !m->valuestring)
        return rc_json_fail(c, fp, "expected the index or the name of an entry of meshes");
    size_t i = 0;
    for (const cJSON *e = n ? meshes->child : NULL; e; e = e->next, i++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(name) && name->valuestring &&
            strcmp(name->valuestring, m->valuestring) == 0) {
            *out = i;
            return 0;
        }
    }
    return rc_json_fail(c, fp, "no mesh is named \"%s\"", m->valuestring);
}

int rc_json_instances_scan(rc_json_ctx *c, const cJSON *root, uint8_t **used) {
    *used = NULL;
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "instances");
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(root, "meshes");
    if (!arr) return 0;
    if (!cJSON_IsArray(arr)) return rc_json_fail(c, "instances", "expected an array");
    const int n = cJSON_IsArray(meshes) ? cJSON_GetArraySize(meshes) : 0;
    *used = calloc(n > 0 ? (size_t)n : 1, 1);
    if (!*used) return rc_json_fail(c, "instances", "out of memory");
    /* mesh names are unique, so that a name means one mesh */
    int i = 0;
    for (const cJSON *e = n ? meshes->child : NULL; e; e = e->next, i++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (!name) continue;
        char fp[64], np[96];
        rc_json_join(np, sizeof np, rc_json_index(fp, sizeof fp, "meshes", i), "name");
        if (!cJSON_IsString(name) || !name->valuestring || !name->valuestring[0])
            return rc_json_fail(c, np, "expected a non-empty string");
        for (const cJSON *f = meshes->child; f != e; f = f->next) {
            const cJSON *other = cJSON_GetObjectItemCaseSensitive(f, "name");
            if (cJSON_IsString(other) && strcmp(other->valuestring, name->valuestring) == 0)
                return rc_json_fail(c, np, "a mesh before it has the name \"%s\"",
                                    name->valuestring);
        }
    }
    i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        char path[64];
        rc_json_index(path, sizeof path, "instances", i);
        if (!cJSON_IsObject(o)) return rc_json_fail(c, path, "expected an object");
        size_t k;
        if (mesh_index(c, o, path, meshes, &k) != 0) return -1;
        (*used)[k] = 1;
    }
    return 0;
}

/* The transform of instance `o`: "transform", 16 numbers of a 4x4 matrix in rows whose last row
 * is 0 0 0 1; or "scale" (a number or 3), then "rotate" ([x, y, z, degrees]: about the axis
 * x y z), then "translate". */
static int instance_transform(rc_json_ctx *c, const cJSON *o, const char *path, double xf[12]) {
    char fp[300];
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "transform");
    if (t) {
        rc_json_join(fp, sizeof fp, path, "transform");
        if (cJSON_GetObjectItemCaseSensitive(o, "scale") ||
            cJSON_GetObjectItemCaseSensitive(o, "rotate") ||
            cJSON_GetObjectItemCaseSensitive(o, "translate"))
            return rc_json_fail(c, fp, "give either transform or scale/rotate/translate");
        if (!cJSON_IsArray(t) || cJSON_GetArraySize(t) != 16)
            return rc_json_fail(c, fp, "expected an array of 16 numbers (a 4x4 matrix in rows)");
        double m[16];
        int i = 0;
        for (const cJSON *e = t->child; e; e = e->next, i++) {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) ||
                fabs(e->valuedouble) > RC_JSON_MAX_COORD)
                return rc_json_fail(c, fp, "element %d: expected a number (|x| <= 1e15)", i);
            m[i] = e->valuedouble;
        }
        if (m[12] != 0.0 || m[13] != 0.0 || m[14] != 0.0 || m[15] != 1.0)
            return rc_json_fail(c, fp, "the last row must be 0 0 0 1 (an affine transform)");
        memcpy(xf, m, 12 * sizeof *xf);
        return 0;
    }
    rc_vec3 tr, sc = rc_v3s(1.0f);
    if (rc_json_vec3(c, o, path, "translate", 0, rc_v3s(0.0f), &tr) != 0) return -1;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "scale");
    if (s) {
        rc_json_join(fp, sizeof fp, path, "scale");
        if (cJSON_IsNumber(s)) {
            double v;
            if (rc_json_number(c, o, path, "scale", 1, 1.0, &v) != 0) return -1;
            sc = rc_v3s((float)v);
        } else if (rc_json_vec3_of(c, s, fp, &sc) != 0) {
            return -1;
        }
    }
    double ax = 0.0, ay = 1.0, az = 0.0, deg = 0.0;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "rotate");
    if (r) {
        rc_json_join(fp, sizeof fp, path, "rotate");
        if (!cJSON_IsArray(r) || cJSON_GetArraySize(r) != 4)
            return rc_json_fail(c, fp, "expected [x, y, z, degrees]: an axis and an angle");
        double v[4];
        int i = 0;
        for (const cJSON *e = r->child; e; e = e->next, i++) {
            if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) ||
                fabs(e->valuedouble) > RC_JSON_MAX_COORD)
                return rc_json_fail(c, fp, "element %d: expected a number (|x| <= 1e15)", i);
            v[i] = e->valuedouble;
        }
        const double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (!(len > 0.0) || !isfinite(len)) return rc_json_fail(c, fp, "the axis has no length");
        ax = v[0] / len, ay = v[1] / len, az = v[2] / len, deg = v[3];
    }
    /* Rodrigues' rotation matrix (pbrt-v3 sec. 2.7.6), times the scale's diagonal */
    const double th = deg * 3.14159265358979323846 / 180.0, cs = cos(th), sn = sin(th),
                 k = 1.0 - cs;
    const double rm[9] = {ax * ax * k + cs,      ax * ay * k - az * sn, ax * az * k + ay * sn,
                          ax * ay * k + az * sn, ay * ay * k + cs,      ay * az * k - ax * sn,
                          ax * az * k - ay * sn, ay * az * k + ax * sn, az * az * k + cs};
    const double sv[3] = {sc.x, sc.y, sc.z}, tv[3] = {tr.x, tr.y, tr.z};
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++) xf[4 * row + col] = rm[3 * row + col] * sv[col];
        xf[4 * row + 3] = tv[row];
    }
    return 0;
}

int rc_json_instances_parse(rc_json_ctx *c, const cJSON *root, const long *mesh_of) {
    static const char *const keys[] = {"mesh", "transform", "scale", "rotate", "translate", NULL};
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "instances");
    const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(root, "meshes");
    if (!arr) return 0;
    /* each instance counts against the memory limit as primitives' worth of bytes */
    const size_t per = (RC_SCENE_INSTANCE_BYTES + RC_SCENE_PRIM_BYTES - 1) / RC_SCENE_PRIM_BYTES;
    int i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        char path[64];
        rc_json_index(path, sizeof path, "instances", i);
        size_t k;
        double xf[12];
        if (rc_json_check_fields(c, o, path, keys) != 0 ||
            mesh_index(c, o, path, meshes, &k) != 0 || instance_transform(c, o, path, xf) != 0)
            return -1;
        if (c->s->max_prims) {
            if (c->s->num_prims + per > c->s->max_prims)
                return rc_json_fail(c, path,
                                    "%d instances would take more than the memory limit of %zu "
                                    "MiB (--max-memory MIB raises it)",
                                    cJSON_GetArraySize(arr), c->s->max_mib);
            /* 0 would mean no limit */
            c->s->max_prims = c->s->max_prims > per ? c->s->max_prims - per : 1;
        }
        const int rc = rc_scene_add_instance(c->s, (uint32_t)mesh_of[k], xf);
        if (rc == -2)
            return rc_json_fail(c, path,
                                "the transform is singular (it flattens the mesh) or too large");
        if (rc != 0) return rc_json_fail(c, path, "out of memory");
    }
    return 0;
}
