/* inst.h: instances, the two-level BVH (part of bvh.h: include that).
 *
 * An instance places a mesh (a bottom-level BVH over its own triangles, in object space) by an
 * affine transform. A top-level BVH over the instances' world-space boxes finds the instances a
 * ray may hit; the ray goes into each one's object space by the inverse transform, without
 * renormalising its direction, so that t means the same in both spaces (pbrt-v3 sec. 4.1.2,
 * "Object Instancing": TransformedPrimitive; the two levels of Wald, Benthin & Slusallek, "A
 * Simple and Practical Method for Interactive Ray Tracing of Dynamic Scenes", 2003). The
 * bottom-level trees are walked by the one-level traversals of bvh.h and bvh_wide.h, so the
 * triangle arithmetic, the `<=` box culling and the tie rule are the one-level BVH's.
 *
 * Primitive ids: the scene's own primitives (the one-level BVH) are 0 .. num_prims - 1; an
 * instance's primitive k (its mesh's leaf order) is instance.base + k, the instances' ranges
 * following one another in the top-level tree's leaf order. Ties in t go to the smaller id, as
 * in bvh.h's rc_hit_take: an instance whose ids all lie below the hit held is searched up to one
 * ulp beyond its t, one whose ids lie above it only below its t. */
#ifndef RC_INST_H
#define RC_INST_H

#ifndef RC_BVH_H
#error "inst.h is part of bvh.h: include bvh.h"
#endif

/* One instance, 112 bytes aligned to 16: xf the object-to-world transform (3x4, rows), inv its
 * inverse (world to object), its mesh, and the id of its primitive 0. light: its first entry of
 * the light table (light.h), the mesh's emitters in their order, or RC_NO_PRIM without any. */
struct rc_instance {
    RC_ALIGN16 float xf[12];
    float inv[12];
    uint32_t mesh;
    uint32_t base;
    uint32_t light;
    uint32_t pad;
};

/* A mesh's bottom-level BVH inside the instance arrays: its binary nodes from node_first, its
 * wide nodes from wide_first (child indices relative to those), its primitives from
 * prim_first in its leaf order. */
struct rc_inst_mesh {
    uint32_t node_first, num_nodes;
    uint32_t wide_first, num_wide;
    uint32_t prim_first, num_prims;
};

/* Instanced primitives a scene holds at most, with the one-level ones: ids stay below
 * RC_NO_PRIM. */
#define RC_INST_MAX_PRIMS 0xfffffff0u

RC_FN rc_vec3 rc_xf_point(const float *m, rc_vec3 p) {
    return rc_v3(m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3],
                 m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                 m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]);
}
RC_FN rc_vec3 rc_xf_dir(const float *m, rc_vec3 d) {
    return rc_v3(m[0] * d.x + m[1] * d.y + m[2] * d.z, m[4] * d.x + m[5] * d.y + m[6] * d.z,
                 m[8] * d.x + m[9] * d.y + m[10] * d.z);
}
/* The determinant of a transform's linear part (negative: it mirrors). */
RC_FN float rc_xf_det(const float *m) {
    return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
           m[2] * (m[4] * m[9] - m[5] * m[8]);
}
/* A normal into world space: by the inverse transpose (pbrt-v3 sec. 2.8.3), i.e. the transpose
 * of the world-to-object matrix's linear part. Not normalised. */
RC_FN rc_vec3 rc_xf_normal(const rc_instance *in, rc_vec3 n) {
    const float *m = in->inv;
    return rc_v3(m[0] * n.x + m[4] * n.y + m[8] * n.z, m[1] * n.x + m[5] * n.y + m[9] * n.z,
                 m[2] * n.x + m[6] * n.y + m[10] * n.z);
}
/* A world-space normal back into object space: by the transpose of xf's linear part. */
RC_FN rc_vec3 rc_xf_normal_inv(const rc_instance *in, rc_vec3 n) {
    const float *m = in->xf;
    return rc_v3(m[0] * n.x + m[4] * n.y + m[8] * n.z, m[1] * n.x + m[5] * n.y + m[9] * n.z,
                 m[2] * n.x + m[6] * n.y + m[10] * n.z);
}

/* The one-level view of instance `in`'s mesh, in the layout of `bvh` (no alpha test: the scene
 * refuses alpha-masked instanced meshes). */
RC_FN rc_bvh_view rc_inst_mesh_view(const rc_bvh_view *bvh, const rc_instance *in) {
    const rc_inst_view *iv = &bvh->inst;
    const rc_inst_mesh *m = &iv->meshes[in->mesh];
    rc_bvh_view v;
    v.nodes = iv->nodes ? iv->nodes + m->node_first : (const rc_bvh_node *)0;
    v.prims = iv->prims + m->prim_first;
    v.wide = iv->wide ? iv->wide + m->wide_first : (const rc_wide_node *)0;
    v.num_nodes = m->num_nodes;
    v.num_prims = m->num_prims;
    v.num_wide = iv->wide ? m->num_wide : 0u;
    v.layout = bvh->layout;
    v.alpha = bvh->alpha;
    v.masked = 0u;
    v.inst = bvh->inst;
    v.inst.count = 0u;
#ifdef RC_PROBES
    v.probe = bvh->probe;
    v.probe_bounce = bvh->probe_bounce;
#endif
    return v;
}

/* Instance k (top-level leaf order) against the ray, into *hit (the tie rule above). */
RC_FN void rc_inst_hit(const rc_bvh_view *bvh, uint32_t k, rc_vec3 o, rc_vec3 d, float tmin,
                       rc_hit *hit) {
    const rc_instance *in = &bvh->inst.instances[k];
    const rc_bvh_view v = rc_inst_mesh_view(bvh, in);
    const rc_vec3 lo = rc_xf_point(in->inv, o), ld = rc_xf_dir(in->inv, d);
    const int below = hit->prim != RC_NO_PRIM && in->base < hit->prim;
    const float tmax = below ? rc_next_up(hit->t) : hit->t;
    rc_hit h = v.layout == RC_BVH_WIDE ? rc_wide_intersect(&v, lo, ld, tmin, tmax)
                                       : rc_bvh2_intersect(&v, lo, ld, tmin, tmax);
    if (h.prim != RC_NO_PRIM && (h.t < hit->t || below)) {
        hit->t = h.t;
        hit->prim = in->base + h.prim;
    }
}

RC_FN int rc_inst_occluded_one(const rc_bvh_view *bvh, uint32_t k, rc_vec3 o, rc_vec3 d, float tmin,
                               float tmax) {
    const rc_instance *in = &bvh->inst.instances[k];
    const rc_bvh_view v = rc_inst_mesh_view(bvh, in);
    const rc_vec3 lo = rc_xf_point(in->inv, o), ld = rc_xf_dir(in->inv, d);
    return v.layout == RC_BVH_WIDE ? rc_wide_occluded(&v, lo, ld, tmin, tmax)
                                   : rc_bvh2_occluded(&v, lo, ld, tmin, tmax);
}

/* The nearest hit among the instances, merged into *hit (the one-level BVH's hit, or tmax and
 * RC_NO_PRIM): the top-level tree by stack, nearer child first, as rc_trav_step does. */
RC_FN void rc_inst_intersect(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin,
                             rc_hit *hit) {
    const rc_inst_view *iv = &bvh->inst;
    if (iv->num_top == 0) return;
    const rc_vec3 inv = rc_safe_inverse(d);
    uint32_t stack[RC_BVH_STACK];
    float st[RC_BVH_STACK];
    int top = 0;
    const rc_bvh_node *root = &iv->top[0];
    if (rc_box_enter(root, o, inv, hit->t) == INFINITY) return;
    uint32_t first = root->first, count = root->count;
    for (;;) {
        RC_PROBE_TRAV(bvh, RC_PROBE_EXTEND_NODE);
        if (count > 0) {
            for (uint32_t k = first; k < first + count; k++) rc_inst_hit(bvh, k, o, d, tmin, hit);
        } else {
            const rc_bvh_node na = iv->top[first], nb = iv->top[first + 1];
            float ta = rc_box_enter(&na, o, inv, hit->t), tb = rc_box_enter(&nb, o, inv, hit->t);
            const int swap = tb < ta;
            const uint32_t far = swap ? first : first + 1;
            first = swap ? nb.first : na.first;
            count = swap ? nb.count : na.count;
            if (swap) {
                float x = ta;
                ta = tb;
                tb = x;
            }
            if (ta != INFINITY) {
                if (tb != INFINITY) {
                    stack[top] = far;
                    st[top] = tb;
                    top++;
                }
                continue;
            }
        }
        for (;;) {
            if (top == 0) return;
            top--;
            if (st[top] <= hit->t) break;
        }
        const rc_bvh_node *n = &iv->top[stack[top]];
        first = n->first;
        count = n->count;
    }
}

/* Any hit among the instances in (tmin, tmax). */
RC_FN int rc_inst_occluded(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin, float tmax) {
    const rc_inst_view *iv = &bvh->inst;
    if (iv->num_top == 0) return 0;
    const rc_vec3 inv = rc_safe_inverse(d);
    uint32_t stack[RC_BVH_STACK];
    int top = 0;
    const rc_bvh_node *root = &iv->top[0];
    if (rc_box_enter(root, o, inv, tmax) == INFINITY) return 0;
    uint32_t first = root->first, count = root->count;
    for (;;) {
        if (count > 0) {
            for (uint32_t k = first; k < first + count; k++)
                if (rc_inst_occluded_one(bvh, k, o, d, tmin, tmax)) return 1;
        } else {
            const rc_bvh_node na = iv->top[first], nb = iv->top[first + 1];
            const int hit_a = rc_box_enter(&na, o, inv, tmax) != INFINITY;
            const int hit_b = rc_box_enter(&nb, o, inv, tmax) != INFINITY;
            if (hit_a && hit_b) stack[top++] = first + 1;
            if (hit_a || hit_b) {
                first = hit_a ? na.first : nb.first;
                count = hit_a ? na.count : nb.count;
                continue;
            }
        }
        if (top == 0) return 0;
        top--;
        const rc_bvh_node *n = &iv->top[stack[top]];
        first = n->first;
        count = n->count;
    }
}

/* The instance (top-level leaf order) that holds primitive id >= the one-level count: the last
 * one whose base is <= id (binary search). */
RC_FN uint32_t rc_inst_of(const rc_inst_view *iv, uint32_t id) {
    uint32_t lo = 0, hi = iv->count - 1;
    while (lo < hi) {
        const uint32_t mid = (lo + hi + 1) / 2;
        if (iv->instances[mid].base <= id)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Primitive `id` as a record in world space: the one-level BVH's own (returned as it is), or an
 * instanced one, transformed into *buf (its corner by the transform, its edges by the linear
 * part, so its normal cross(a, b) and its barycentrics are those of a copy placed in the
 * world; pad 0). *in: the instance, NULL for a one-level primitive; *stored: the index of the
 * record in its array (the one-level BVH's or the instances'). */
RC_FN const rc_prim *rc_bvh_prim_ref(const rc_bvh_view *bvh, uint32_t id, rc_prim *buf,
                                     const rc_instance **in, uint32_t *stored) {
    *in = (const rc_instance *)0;
    *stored = id;
    if (bvh->inst.count == 0u || id < bvh->num_prims) return &bvh->prims[id];
    const rc_inst_view *iv = &bvh->inst;
    const rc_instance *ins = &iv->instances[rc_inst_of(iv, id)];
    const uint32_t s = iv->meshes[ins->mesh].prim_first + (id - ins->base);
    const rc_prim *op = &iv->prims[s];
    *buf = *op;
    buf->p = rc_xf_point(ins->xf, op->p);
    buf->a = rc_xf_dir(ins->xf, op->a);
    buf->b = rc_xf_dir(ins->xf, op->b);
    buf->pad = 0.0f;
    *in = ins;
    *stored = s;
    return buf;
}

RC_FN const rc_prim *rc_bvh_prim(const rc_bvh_view *bvh, uint32_t id, rc_prim *buf) {
    const rc_instance *in;
    uint32_t stored;
    return rc_bvh_prim_ref(bvh, id, buf, &in, &stored);
}

#endif /* RC_INST_H */
