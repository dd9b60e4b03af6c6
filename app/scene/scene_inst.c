/* scene_inst.c: a scene's instances (inst.h): meshes taken out of the scene's primitives into
 * BVHs of their own, the instances' transforms checked and inverted, and the top-level BVH over
 * their world boxes. */
#include "scene.h"
#include "scene_inst.h"
#include "grow.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

long rc_scene_add_mesh(rc_scene *s, size_t first) {
    if (first > s->num_prims) return -1;
    if (s->num_meshes > 0) {
        const rc_scene_mesh *last = &s->meshes[s->num_meshes - 1];
        if (!last->built && first < last->first + last->count) return -1;
    }
    if (s->num_meshes >= UINT32_MAX / 2 ||
        rc_grow((void **)&s->meshes, &s->cap_meshes, s->num_meshes + 1, sizeof *s->meshes) != 0)
        return -1;
    rc_scene_mesh *m = &s->meshes[s->num_meshes];
    memset(m, 0, sizeof *m);
    m->first = first;
    m->count = s->num_prims - first;
    return (long)s->num_meshes++;
}

int rc_affine_invert(const double xf[12], double inv[12]) {
    const double a = xf[0], b = xf[1], c = xf[2], d = xf[4], e = xf[5], f = xf[6], g = xf[8],
                 h = xf[9], i = xf[10];
    const double det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
    const double r0 = sqrt(a * a + b * b + c * c), r1 = sqrt(d * d + e * e + f * f),
                 r2 = sqrt(g * g + h * h + i * i);
    if (!(fabs(det) > 1e-12 * r0 * r1 * r2) || !isfinite(det)) return -2;
    const double k = 1.0 / det;
    double l[9] = {(e * i - f * h) * k, (c * h - b * i) * k, (b * f - c * e) * k,
                   (f * g - d * i) * k, (a * i - c * g) * k, (c * d - a * f) * k,
                   (d * h - e * g) * k, (b * g - a * h) * k, (a * e - b * d) * k};
    for (int r = 0; r < 3; r++) {
        inv[4 * r + 0] = l[3 * r + 0];
        inv[4 * r + 1] = l[3 * r + 1];
        inv[4 * r + 2] = l[3 * r + 2];
        inv[4 * r + 3] = -(l[3 * r + 0] * xf[3] + l[3 * r + 1] * xf[7] + l[3 * r + 2] * xf[11]);
    }
    for (int k2 = 0; k2 < 12; k2++)
        if (!isfinite(inv[k2]) || fabs(inv[k2]) > FLT_MAX) return -2;
    return 0;
}

int rc_scene_add_instance(rc_scene *s, uint32_t mesh, const double xf[12]) {
    if (mesh >= s->num_meshes) return -3;
    for (int k = 0; k < 12; k++)
        if (!isfinite(xf[k]) || fabs(xf[k]) > FLT_MAX) return -2;
    double inv[12];
    if (rc_affine_invert(xf, inv) != 0) return -2;
    if (s->num_instances >= UINT32_MAX / 2 ||
        rc_grow((void **)&s->instances, &s->cap_instances, s->num_instances + 1,
                sizeof *s->instances) != 0)
        return -1;
    rc_instance *in = &s->instances[s->num_instances++];
    memset(in, 0, sizeof *in);
    for (int k = 0; k < 12; k++) {
        in->xf[k] = (float)xf[k];
        in->inv[k] = (float)inv[k];
    }
    in->mesh = mesh;
    in->light = RC_NO_PRIM;
    return 0;
}

/* Append mesh m's built tree to the packed arrays (s->inst), then free the tree's arrays but
 * its permutation (bvh.ids: the tests map mesh-local primitives back with it). */
static int pack_mesh(rc_scene *s, rc_scene_mesh *m, rc_inst_mesh *out) {
    rc_scene_inst *si = &s->inst;
    const rc_bvh *b = &m->bvh;
    rc_bvh_node *nodes = realloc(si->nodes, (si->num_nodes + b->num_nodes + 1) * sizeof *nodes);
    if (!nodes) return -1;
    si->nodes = nodes;
    rc_wide_node *wide = realloc(si->wide, (si->num_wide + b->num_wide + 1) * sizeof *wide);
    if (!wide) return -1;
    si->wide = wide;
    rc_prim *prims = realloc(si->prims, (si->num_prims + b->num_prims + 1) * sizeof *prims);
    if (!prims) return -1;
    si->prims = prims;
    if (m->tri || si->prim_tri) {
        uint32_t *tri = realloc(si->prim_tri, (si->num_prims + b->num_prims + 1) * sizeof *tri);
        if (!tri) return -1;
        if (!si->prim_tri)
            for (size_t i = 0; i < si->num_prims; i++) tri[i] = RC_NO_TRI;
        si->prim_tri = tri;
        for (uint32_t i = 0; i < b->num_prims; i++)
            tri[si->num_prims + i] = m->tri ? m->tri[i] : RC_NO_TRI;
    }
    out->node_first = (uint32_t)si->num_nodes;
    out->num_nodes = b->num_nodes;
    out->wide_first = (uint32_t)si->num_wide;
    out->num_wide = b->num_wide;
    out->prim_first = (uint32_t)si->num_prims;
    out->num_prims = b->num_prims;
    if (b->num_nodes) memcpy(nodes + si->num_nodes, b->nodes, b->num_nodes * sizeof *nodes);
    if (b->num_wide) memcpy(wide + si->num_wide, b->wide, b->num_wide * sizeof *wide);
    if (b->num_prims) memcpy(prims + si->num_prims, b->prims, b->num_prims * sizeof *prims);
    si->num_nodes += b->num_nodes;
    si->num_wide += b->num_wide;
    si->num_prims += b->num_prims;
    free(m->bvh.nodes);
    free(m->bvh.prims);
    free(m->bvh.wide);
    m->bvh.nodes = NULL;
    m->bvh.prims = NULL;
    m->bvh.wide = NULL;
    free(m->tri);
    m->tri = NULL;
    return 0;
}

/* Build mesh m from its primitives (copied out of the scene's input order in `prims`, their
 * vertex-data entries in `tri`, NULL for none): its BVH, both layouts, in object space. */
static int build_mesh(rc_scene *s, rc_scene_mesh *m, rc_prim *prims, uint32_t *tri,
                      rc_inst_mesh *out, rc_error *err) {
    const uint32_t n = (uint32_t)m->count;
    if (rc_bvh_build_take(prims, n, &m->bvh) != 0) {
        free(prims);
        free(tri);
        return rc_fail(err, "out of memory building an instanced mesh's BVH of %u primitives",
                       (unsigned)n);
    }
    if (rc_bvh_build_wide(&m->bvh) != 0) {
        free(tri);
        return rc_fail(err, "out of memory building an instanced mesh's wide BVH");
    }
    if (tri) {
        m->tri = malloc((n ? n : 1) * sizeof *m->tri);
        if (!m->tri) {
            free(tri);
            return rc_fail(err, "out of memory for an instanced mesh's vertex index");
        }
        for (uint32_t i = 0; i < n; i++) m->tri[i] = tri[m->bvh.ids[i]];
        free(tri);
    }
    m->built = 1;
    m->count = 0;
    if (pack_mesh(s, m, out) != 0) return rc_fail(err, "out of memory for the instanced meshes");
    return 0;
}

/* Whether input primitive i belongs to an unbuilt mesh (the meshes' ranges are ascending). */
static int in_mesh(const rc_scene *s, size_t i, size_t *cursor) {
    while (*cursor < s->num_meshes &&
           (s->meshes[*cursor].built || s->meshes[*cursor].first + s->meshes[*cursor].count <= i))
        (*cursor)++;
    return *cursor < s->num_meshes && i >= s->meshes[*cursor].first;
}

int rc_scene_inst_meshes(rc_scene *s, rc_error *err) {
    size_t todo = 0;
    for (size_t k = 0; k < s->num_meshes; k++) todo += !s->meshes[k].built;
    if (todo == 0) return 0;
    rc_inst_mesh *views = realloc(s->inst.meshes, s->num_meshes * sizeof *views);
    if (!views) return rc_fail(err, "out of memory for the instanced meshes");
    s->inst.meshes = views;
    rc_prim **prims = calloc(s->num_meshes, sizeof *prims);
    uint32_t **tris = calloc(s->num_meshes, sizeof *tris);
    int rc = prims && tris ? 0 : rc_fail(err, "out of memory for the instanced meshes");
    /* copy each unbuilt mesh's primitives (and vertex-data entries) out */
    for (size_t k = 0; k < s->num_meshes && rc == 0; k++) {
        rc_scene_mesh *m = &s->meshes[k];
        if (m->built) continue;
        for (size_t i = m->first; i < m->first + m->count && rc == 0; i++) {
            const rc_prim *p = &s->prims[i];
            if (rc_prim_type(p) == RC_PRIM_SPHERE)
                rc = rc_fail(err, "an instanced mesh holds a sphere (meshes are triangles)");
            else if (s->materials[rc_prim_material(p)].alpha_cutoff > 0.0f)
                rc = rc_fail(err, "an instanced mesh has an alpha-masked material, which "
                                  "instances do not support");
        }
        if (rc != 0) break;
        prims[k] = malloc((m->count ? m->count : 1) * sizeof **prims);
        if (!prims[k]) {
            rc = rc_fail(err, "out of memory for the instanced meshes");
            break;
        }
        memcpy(prims[k], s->prims + m->first, m->count * sizeof **prims);
        if (m->first < s->num_prim_tri) {
            tris[k] = malloc((m->count ? m->count : 1) * sizeof **tris);
            if (!tris[k]) {
                rc = rc_fail(err, "out of memory for the instanced meshes");
                break;
            }
            for (size_t i = 0; i < m->count; i++)
                tris[k][i] = m->first + i < s->num_prim_tri ? s->prim_tri[m->first + i] : RC_NO_TRI;
        }
    }
    if (rc == 0) {
        /* the scene's own primitives keep their input order without the meshes' */
        size_t keep = 0, npt = 0, cursor = 0;
        for (size_t i = 0; i < s->num_prims; i++) {
            if (in_mesh(s, i, &cursor)) continue;
            s->prims[keep] = s->prims[i];
            if (i < s->num_prim_tri) {
                s->prim_tri[keep] = s->prim_tri[i];
                npt = keep + 1;
            }
            keep++;
        }
        s->num_prims = keep;
        s->num_prim_tri = npt;
    }
    for (size_t k = 0; k < s->num_meshes; k++) {
        rc_scene_mesh *m = &s->meshes[k];
        if (m->built || !prims || !prims[k]) continue;
        if (rc == 0) {
            rc = build_mesh(s, m, prims[k], tris[k], &views[k], err);
        } else {
            free(prims[k]);
            free(tris[k]);
        }
    }
    free(prims);
    free(tris);
    return rc;
}

/* The world box of instance `in`: the eight corners of its mesh's root box transformed. */
static void world_box(const rc_scene *s, const rc_instance *in, float lo[3], float hi[3]) {
    const rc_inst_mesh *m = &s->inst.meshes[in->mesh];
    for (int a = 0; a < 3; a++) lo[a] = hi[a] = in->xf[4 * a + 3];
    if (m->num_nodes == 0) return;
    const rc_bvh_node *r = &s->inst.nodes[m->node_first];
    for (int c = 0; c < 8; c++) {
        rc_vec3 p = rc_v3(c & 1 ? r->hi[0] : r->lo[0], c & 2 ? r->hi[1] : r->lo[1],
                          c & 4 ? r->hi[2] : r->lo[2]);
        rc_vec3 w = rc_xf_point(in->xf, p);
        const float v[3] = {w.x, w.y, w.z};
        for (int a = 0; a < 3; a++) {
            if (c == 0 || v[a] < lo[a]) lo[a] = v[a];
            if (c == 0 || v[a] > hi[a]) hi[a] = v[a];
        }
    }
    /* the corners' rounding: widen by a few ulps of the box's magnitude */
    for (int a = 0; a < 3; a++) {
        const float e = 4.0f * FLT_EPSILON * fmaxf(fabsf(lo[a]), fabsf(hi[a]));
        lo[a] -= e;
        hi[a] += e;
    }
}

int rc_scene_inst_top(rc_scene *s, rc_error *err) {
    rc_scene_inst *si = &s->inst;
    rc_bvh_free(&si->top);
    free(si->leaf);
    si->leaf = NULL;
    si->total_prims = 0;
    const size_t n = s->num_instances;
    if (n == 0) return 0;
    /* each instance's box as a primitive whose bounds it is (a triangle from lo to hi) */
    rc_prim *boxes = malloc(n * sizeof *boxes);
    if (!boxes) return rc_fail(err, "out of memory for the instances' boxes");
    for (size_t i = 0; i < n; i++) {
        float lo[3], hi[3];
        world_box(s, &s->instances[i], lo, hi);
        memset(&boxes[i], 0, sizeof boxes[i]);
        boxes[i].p = rc_v3(lo[0], lo[1], lo[2]);
        boxes[i].a = rc_v3(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
        boxes[i].type_mat = rc_prim_pack(RC_PRIM_TRIANGLE, 0);
    }
    if (rc_bvh_build_take(boxes, (uint32_t)n, &si->top) != 0) {
        free(boxes);
        return rc_fail(err, "out of memory building the BVH of %zu instances", n);
    }
    si->leaf = malloc(n * sizeof *si->leaf);
    if (!si->leaf) return rc_fail(err, "out of memory for %zu instances", n);
    uint64_t base = s->bvh.num_prims;
    for (size_t i = 0; i < n; i++) {
        si->leaf[i] = s->instances[si->top.ids[i]];
        si->leaf[i].base = (uint32_t)base;
        si->leaf[i].light = RC_NO_PRIM;
        base += si->meshes[si->leaf[i].mesh].num_prims;
        if (base > RC_INST_MAX_PRIMS)
            return rc_fail(err, "the instances hold more than %u primitives",
                           (unsigned)RC_INST_MAX_PRIMS);
    }
    si->total_prims = base - s->bvh.num_prims;
    return 0;
}

void rc_scene_inst_free(rc_scene *s) {
    rc_scene_inst *si = &s->inst;
    rc_bvh_free(&si->top);
    free(si->leaf);
    free(si->meshes);
    free(si->nodes);
    free(si->wide);
    free(si->prims);
    free(si->prim_tri);
    free(si->light_rank);
    for (size_t k = 0; k < s->num_meshes; k++) {
        rc_bvh_free(&s->meshes[k].bvh);
        free(s->meshes[k].tri);
    }
    free(s->meshes);
    free(s->instances);
}

rc_inst_view rc_scene_inst_view(const rc_scene *s, uint32_t layout) {
    rc_inst_view v;
    memset(&v, 0, sizeof v);
    const rc_scene_inst *si = &s->inst;
    if (s->num_instances == 0 || !si->leaf) return v;
    v.top = si->top.nodes;
    v.num_top = si->top.num_nodes;
    v.instances = si->leaf;
    v.count = (uint32_t)s->num_instances;
    v.meshes = si->meshes;
    v.nodes = si->nodes;
    v.wide = layout == RC_BVH_WIDE ? si->wide : NULL;
    v.prims = si->prims;
    v.prim_tri = si->prim_tri;
    v.light_rank = si->light_rank;
    return v;
}

size_t rc_scene_inst_host_extra_bytes(const rc_scene *s) {
    const rc_scene_inst *si = &s->inst;
    if (s->num_instances == 0) return 0;
    /* both layouts of the meshes' trees are kept, one is uploaded; the instances in input
       order beside their leaf order */
    size_t other = s->bvh.layout == RC_BVH_WIDE ? si->num_nodes * sizeof(rc_bvh_node)
                                                : si->num_wide * sizeof(rc_wide_node);
    return other + s->num_instances * sizeof(rc_instance);
}

size_t rc_scene_inst_device_bytes(const rc_scene *s, uint32_t layout) {
    const rc_scene_inst *si = &s->inst;
    if (s->num_instances == 0) return 0;
    size_t b = si->top.num_nodes * sizeof(rc_bvh_node) + s->num_instances * sizeof(rc_instance) +
               s->num_meshes * sizeof(rc_inst_mesh) + si->num_prims * sizeof(rc_prim);
    b += layout == RC_BVH_WIDE ? si->num_wide * sizeof(rc_wide_node)
                               : si->num_nodes * sizeof(rc_bvh_node);
    if (si->prim_tri) b += si->num_prims * sizeof(uint32_t);
    if (si->light_rank) b += si->num_prims * sizeof(uint32_t);
    return b;
}
