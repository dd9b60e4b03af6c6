/* bvh.h: the bounding volume hierarchy as flat arrays, and its traversal.
 *
 * bvh_build.c builds it on the host (binned SAH) and stores the primitives in leaf order, so
 * a leaf is a contiguous range of the primitive array. bvh_wide.c collapses it into the
 * compressed 8-wide layout of bvh_wide.h over the same primitive array. The same arrays are
 * uploaded to the GPU as they are; both traversals run on both sides and return the same hit
 * for every ray: of two hits at the same t the one of the smaller primitive index
 * (rc_hit_take), boxes kept while their entry is <= the nearest hit. */
#ifndef RC_BVH_H
#define RC_BVH_H

#include "alpha.h"
#include "prim.h"
#include "probe.h"

/* One node, 32 bytes aligned to 16 (two 16-byte loads on the GPU).
 *   interior (count == 0): children at nodes[first] and nodes[first + 1]
 *   leaf     (count > 0):  primitives prims[first .. first + count) */
typedef struct rc_bvh_node {
    RC_ALIGN16 float lo[3];
    uint32_t first;
    float hi[3];
    uint32_t count;
} rc_bvh_node;

/* The build keeps the tree at most this deep, so the traversal stack never overflows. */
#define RC_BVH_STACK 64

/* The layouts a traversal can walk (rc_bvh_view.layout). */
typedef enum rc_bvh_layout {
    RC_BVH_BINARY = 0, /* rc_bvh_node, two children a node */
    RC_BVH_WIDE = 1,   /* rc_wide_node (bvh_wide.h): eight children, quantised boxes */
    RC_BVH_LAYOUT_COUNT
} rc_bvh_layout;

typedef struct rc_wide_node rc_wide_node;
typedef struct rc_instance rc_instance;
typedef struct rc_inst_mesh rc_inst_mesh;

/* What a traversal needs of the instances (count 0: none, nothing below is read). top: the
 * top-level binary BVH, its leaves ranges of `instances` (stored in its leaf order). prim_tri:
 * per stored mesh primitive its entry of the vertex data (mesh.h), NULL for none; light_rank:
 * per stored mesh primitive its rank among its mesh's emitters, RC_NO_PRIM for none (NULL: no
 * instanced emitter). */
typedef struct rc_inst_view {
    const rc_bvh_node *top;
    const rc_instance *instances;
    const rc_inst_mesh *meshes;
    const rc_bvh_node *nodes;
    const rc_wide_node *wide;
    const rc_prim *prims;
    const uint32_t *prim_tri;
    const uint32_t *light_rank;
    uint32_t count;
    uint32_t num_top;
} rc_inst_view;

/* What a traversal needs: the nodes of its layout (root at 0) and the primitives in leaf
 * order. A node count of 0 is an empty scene that no ray hits. */
typedef struct rc_bvh_view {
    const rc_bvh_node *nodes;
    const rc_prim *prims;
    const rc_wide_node *wide; /* the wide layout's nodes (RC_BVH_WIDE) */
    uint32_t num_nodes;
    uint32_t num_prims;
    uint32_t num_wide;
    uint32_t layout;
    rc_alpha_view alpha; /* for the primitives flagged RC_PRIM_MASKED */
    uint32_t masked;     /* 1: some primitive is flagged (0: the test is never made) */
    rc_inst_view inst;   /* the instances (inst.h), traced after the primitives above */
#ifdef RC_PROBES
    rc_probe_counts *probe; /* where the probes count (probe.h), NULL: they do not */
    uint32_t probe_bounce;  /* the bounce of the path whose ray a traversal traces */
#endif
} rc_bvh_view;

/* Whether a primitive's hit found by the intersection test counts: always, unless it is
 * alpha-masked and its alpha there is below the cutoff (alpha.h). */
RC_FN int rc_hit_counts(const rc_bvh_view *bvh, const rc_prim *pr, uint32_t prim, rc_vec3 o,
                        rc_vec3 d) {
    return !bvh->masked || !(pr->type_mat & RC_PRIM_MASKED) ||
           rc_alpha_hit(&bvh->alpha, pr, prim, o, d);
}

/* The nearest hit: distance along the ray and primitive index (RC_NO_PRIM on a miss). */
#define RC_NO_PRIM 0xffffffffu
typedef struct rc_hit {
    float t;
    uint32_t prim;
} rc_hit;

/* Slab test; returns the entry distance, or INFINITY when the box is missed or lies beyond
 * tmax. inv = 1 / d per axis. */
RC_FN float rc_box_enter(const rc_bvh_node *n, rc_vec3 o, rc_vec3 inv, float tmax) {
    float tx0 = (n->lo[0] - o.x) * inv.x, tx1 = (n->hi[0] - o.x) * inv.x;
    float ty0 = (n->lo[1] - o.y) * inv.y, ty1 = (n->hi[1] - o.y) * inv.y;
    float tz0 = (n->lo[2] - o.z) * inv.z, tz1 = (n->hi[2] - o.z) * inv.z;
    float tnear = fmaxf(fmaxf(fminf(tx0, tx1), fminf(ty0, ty1)), fmaxf(fminf(tz0, tz1), 0.0f));
    float tfar = fminf(fminf(fmaxf(tx0, tx1), fmaxf(ty0, ty1)), fminf(fmaxf(tz0, tz1), tmax));
    return tnear <= tfar ? tnear : INFINITY;
}

/* 1 / d with zero components replaced by a tiny value of the same sign, so the slabs of an
 * axis-parallel ray stay well defined. */
RC_FN rc_vec3 rc_safe_inverse(rc_vec3 d) {
    const float e = 1e-20f;
    return rc_v3(1.0f / (fabsf(d.x) > e ? d.x : copysignf(e, d.x)),
                 1.0f / (fabsf(d.y) > e ? d.y : copysignf(e, d.y)),
                 1.0f / (fabsf(d.z) > e ? d.z : copysignf(e, d.z)));
}

/* The next float above x >= 0 (x finite). */
RC_FN float rc_next_up(float x) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(__float_as_uint(x) + 1u);
#else
    union {
        float f;
        uint32_t u;
    } b;
    b.f = x;
    b.u += 1u;
    return b.f;
#endif
}

/* Test primitive i and take its hit when it is nearer than *hit, or as near with a smaller
 * index: the one tie rule of every layout, so the order in which a traversal meets the
 * primitives never shows in its answer. Once a primitive is held the test's bound is one ulp
 * above its t, so a hit at the same t is found; rc_prim_hit's arithmetic is the same for
 * every bound, a bound only accepts or rejects its t (a sphere's nearer root, whatever the
 * bound, when it lies beyond tmin). */
RC_FN void rc_hit_take(const rc_bvh_view *bvh, uint32_t i, rc_vec3 o, rc_vec3 d, float tmin,
                       rc_hit *hit) {
    float t;
    const rc_prim *pr = &bvh->prims[i];
    const float bound = hit->prim == RC_NO_PRIM ? hit->t : rc_next_up(hit->t);
    if (rc_prim_hit(pr, o, d, tmin, bound, &t) && (t < hit->t || i < hit->prim) &&
        rc_hit_counts(bvh, pr, i, o, d)) {
        hit->t = t;
        hit->prim = i;
    }
}

RC_FN void rc_leaf_hit(const rc_bvh_view *bvh, uint32_t first, uint32_t count, rc_vec3 o, rc_vec3 d,
                       float tmin, rc_hit *hit) {
    for (uint32_t i = first; i < first + count; i++) rc_hit_take(bvh, i, o, d, tmin, hit);
}

/* One nearest-hit traversal in progress: the ray, the nearest hit so far, the node being
 * visited and the depth of the stack of farther children still to visit (rc_trav_stack). Kept
 * apart so that a GPU lane can leave a traversal between two steps and come back to it
 * (extend.cu's ray fetch). The stack is a record of its own: a variable index into an array
 * inside rc_trav would keep the compiler from holding the scalars in registers. */
typedef struct rc_trav {
    rc_vec3 o, d, inv;
    float tmin;
    rc_hit hit;
    uint32_t first, count; /* the node being visited, from the record its box test loaded */
    int top;
} rc_trav;
typedef struct rc_trav_stack {
    uint32_t node[RC_BVH_STACK];
    float t[RC_BVH_STACK]; /* entry distance of the node's box */
} rc_trav_stack;

/* Start a traversal for the nearest hit in (tmin, tmax); 0: nothing to visit (empty scene or
 * the root's box missed), s->hit is already the answer. */
RC_FN int rc_trav_begin(const rc_bvh_view *bvh, rc_trav *s, rc_vec3 o, rc_vec3 d, float tmin,
                        float tmax) {
    s->hit.t = tmax;
    s->hit.prim = RC_NO_PRIM;
    s->top = 0;
    if (bvh->num_nodes == 0) return 0;
    s->o = o;
    s->d = d;
    s->tmin = tmin;
    s->inv = rc_safe_inverse(d);
    const rc_bvh_node *root = &bvh->nodes[0];
    if (rc_box_enter(root, o, s->inv, tmax) == INFINITY) return 0;
    s->first = root->first;
    s->count = root->count;
    return 1;
}

/* Visit one node: test a leaf's primitives, or step to the nearer child whose box is hit and
 * push the farther one. Then, when the way down ended, pop the next subtree whose box still
 * starts before the nearest hit. 0: the traversal is over and s->hit is the nearest hit. The
 * node being visited is held as its `first` and `count`, taken from the record loaded for its
 * box test (two 16-byte loads on the GPU): a step down is one dependent load, not two. A popped
 * node is loaded again rather than pushed with its first and count: a third stack array would
 * sit in local memory that a full stream of paths already crowds in L1 (evidence:
 * docs/design.md#tuning-evidence). */
RC_FN int rc_trav_step(const rc_bvh_view *bvh, rc_trav *s, rc_trav_stack *k) {
    RC_PROBE_TRAV(bvh, RC_PROBE_EXTEND_NODE);
    if (s->count > 0) {
        rc_leaf_hit(bvh, s->first, s->count, s->o, s->d, s->tmin, &s->hit);
    } else {
        const rc_bvh_node na = bvh->nodes[s->first], nb = bvh->nodes[s->first + 1];
        float ta = rc_box_enter(&na, s->o, s->inv, s->hit.t);
        float tb = rc_box_enter(&nb, s->o, s->inv, s->hit.t);
        const int swap = tb < ta;
        const uint32_t far = swap ? s->first : s->first + 1;
        s->first = swap ? nb.first : na.first;
        s->count = swap ? nb.count : na.count;
        if (swap) {
            float st = ta;
            ta = tb;
            tb = st;
        }
        if (ta != INFINITY) {
            if (tb != INFINITY) {
                k->node[s->top] = far;
                k->t[s->top] = tb;
                s->top++;
            }
            return 1;
        }
    }
    for (;;) {
        if (s->top == 0) return 0;
        s->top--;
        if (k->t[s->top] <= s->hit.t) break; /* a tie at its entry may still win */
    }
    const rc_bvh_node *n = &bvh->nodes[k->node[s->top]];
    s->first = n->first;
    s->count = n->count;
    return 1;
}

/* Nearest hit in (tmin, tmax) in the binary layout. Stack traversal, nearer child first: both
 * children's boxes are tested, the farther one is pushed, and pushed nodes behind the current
 * hit are dropped when popped (rc_trav_step). */
RC_FN rc_hit rc_bvh2_intersect(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin,
                               float tmax) {
    rc_trav s;
    rc_trav_stack k;
    if (rc_trav_begin(bvh, &s, o, d, tmin, tmax))
        while (rc_trav_step(bvh, &s, &k)) {
        }
    return s.hit;
}

/* Any hit in (tmin, tmax) in the binary layout: 1 as soon as one primitive is found, without
 * looking for the nearest (shadow rays). The same stack traversal, the children in their
 * stored order. */
RC_FN int rc_bvh2_occluded(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin, float tmax) {
    if (bvh->num_nodes == 0) return 0;
    rc_vec3 inv = rc_safe_inverse(d);
    uint32_t stack[RC_BVH_STACK];
    int top = 0;
    const rc_bvh_node *root = &bvh->nodes[0];
    if (rc_box_enter(root, o, inv, tmax) == INFINITY) return 0;
    uint32_t first = root->first, count = root->count;
    for (;;) {
        if (count > 0) {
            for (uint32_t i = first; i < first + count; i++) {
                float t;
                const rc_prim *pr = &bvh->prims[i];
                if (rc_prim_hit(pr, o, d, tmin, tmax, &t) && rc_hit_counts(bvh, pr, i, o, d))
                    return 1;
            }
        } else {
            const rc_bvh_node na = bvh->nodes[first], nb = bvh->nodes[first + 1];
            int hit_a = rc_box_enter(&na, o, inv, tmax) != INFINITY;
            int hit_b = rc_box_enter(&nb, o, inv, tmax) != INFINITY;
            if (hit_a && hit_b) stack[top++] = first + 1;
            if (hit_a || hit_b) {
                first = hit_a ? na.first : nb.first;
                count = hit_a ? na.count : nb.count;
                continue;
            }
        }
        if (top == 0) return 0;
        top--;
        const rc_bvh_node *n = &bvh->nodes[stack[top]];
        first = n->first;
        count = n->count;
    }
}

#include "bvh_wide.h"
#include "inst.h"

/* Nearest hit in (tmin, tmax), in the view's layout: the same (t, prim) in both; then the
 * instances' (inst.h), when there are any. */
RC_FN rc_hit rc_bvh_intersect(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin,
                              float tmax) {
    RC_PROBE_TRAV(bvh, RC_PROBE_EXTEND_RAY);
    rc_hit h = bvh->layout == RC_BVH_WIDE ? rc_wide_intersect(bvh, o, d, tmin, tmax)
                                          : rc_bvh2_intersect(bvh, o, d, tmin, tmax);
    if (bvh->inst.count) rc_inst_intersect(bvh, o, d, tmin, &h);
    return h;
}

/* Any hit in (tmin, tmax), in the view's layout, the instances' included. */
RC_FN int rc_bvh_occluded(const rc_bvh_view *bvh, rc_vec3 o, rc_vec3 d, float tmin, float tmax) {
    const int hit = bvh->layout == RC_BVH_WIDE ? rc_wide_occluded(bvh, o, d, tmin, tmax)
                                               : rc_bvh2_occluded(bvh, o, d, tmin, tmax);
    return hit || (bvh->inst.count && rc_inst_occluded(bvh, o, d, tmin, tmax));
}

/* Nearest hit by testing every primitive: the reference the BVH is tested against. In index
 * order with a strict comparison, so of hits at the same t the smaller index wins, the
 * traversals' tie rule. */
RC_FN rc_hit rc_brute_intersect(const rc_prim *prims, uint32_t n, rc_vec3 o, rc_vec3 d, float tmin,
                                float tmax) {
    rc_hit hit;
    hit.t = tmax;
    hit.prim = RC_NO_PRIM;
    for (uint32_t i = 0; i < n; i++) {
        float t;
        if (rc_prim_hit(&prims[i], o, d, tmin, hit.t, &t)) {
            hit.t = t;
            hit.prim = i;
        }
    }
    return hit;
}

/* Any hit in (tmin, tmax) by testing every primitive (the flat megakernel's shadow rays). */
RC_FN int rc_brute_occluded(const rc_prim *prims, uint32_t n, rc_vec3 o, rc_vec3 d, float tmin,
                            float tmax) {
    for (uint32_t i = 0; i < n; i++) {
        float t;
        if (rc_prim_hit(&prims[i], o, d, tmin, tmax, &t)) return 1;
    }
    return 0;
}

#endif /* RC_BVH_H */
